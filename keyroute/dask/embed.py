"""Sentence embeddings spread over a `dask.distributed` cluster: `keyroute embed --scheduler
tcp://host:8786` (or `--workers N`, a local cluster of N processes).

Each batch is one task: the worker loads MiniLM once (cached per process) and runs the same
`embed_batch` the single-process run does on the same batches (sentence order, padding), so
the embeddings are the single-process ones. Batches are tokenised here and shipped as
int64 arrays (small); the results come back in completion order and land in their rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

__all__ = ["encode", "local_cluster"]


def _embed_task(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Runs on a worker."""
    from ..autograd.grad_mode import no_grad
    from ..models import minilm

    model = minilm.load_model()
    with no_grad():
        return minilm.embed_batch(model, ids, mask).numpy()


def encode(
    sentences: str | Iterable[str],
    batch_size: int = 32,
    client: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """(N, 384) float32 embeddings, as `minilm.encode`, computed on the cluster of `client`
    (default: the one `keyroute.dask.use` set). `progress` gets (batches done, batches)."""
    from distributed import as_completed

    from ..models import minilm
    from ._client import current_client

    client = client if client is not None else current_client()
    if client is None:
        raise RuntimeError(
            "keyroute.dask.embed.encode needs a cluster: pass client=, call keyroute.dask.use("
            "client) or set DASK_SCHEDULER_ADDRESS"
        )
    sentences = minilm._sentence_list(sentences, batch_size)
    out = np.zeros((len(sentences), 384), dtype=np.float32)
    if not sentences:
        return out
    rows: dict[Any, list[int]] = {}
    futures = []
    for idx, ids, mask in minilm._batches(sentences, batch_size):
        fut = client.submit(_embed_task, ids, mask, pure=False)
        rows[fut.key] = idx
        futures.append(fut)
    for done, fut in enumerate(as_completed(futures, loop=client.loop), 1):
        out[rows[fut.key]] = fut.result()
        if progress is not None:
            progress(done, len(futures))
    return out


def local_cluster(workers: int, memory_limit: str = "auto") -> Any:
    """A LocalCluster of `workers` single-threaded processes on 127.0.0.1 and its client
    (close both: `client.close(); client.cluster.close()`)."""
    import os

    import dask
    from distributed import Client, LocalCluster

    # dask's nanny gives each worker one BLAS thread; the single-process run uses the
    # library's default, and a matmul split over other threads rounds differently: keep this
    # process's setting so the workers' embeddings are this process's, bit for bit.
    blas = {
        k: os.environ.get(k, str(os.cpu_count() or 1))
        for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
    }
    with dask.config.set({f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in blas.items()}):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            memory_limit=memory_limit,
        )
    return Client(cluster)
