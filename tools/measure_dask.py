"""Time and peak memory of silu(x @ w).sum() over a 328 MB x: keyroute's dask tensors on a
two-worker LocalCluster (300 MiB per worker) against one NumPy process holding x whole.

    PYTHONPATH=$PWD python tools/measure_dask.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

N, K, M = 80_000, 1024, 64

_NUMPY = """
import resource, time, numpy as np
N, K, M = SIZES
t0 = time.perf_counter()
rng = np.random.default_rng(1234)
x = rng.random((N, K), dtype=np.float32) - np.float32(0.5)
w = np.linspace(-0.05, 0.05, K * M, dtype=np.float32).reshape(K, M)
z = x @ w
s = float((z / (1 + np.exp(-z))).sum())
print(time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
""".replace("SIZES", f"{N}, {K}, {M}")


def _peak() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    import dask.array as da
    import numpy as np

    import keyroute as torch
    import keyroute.dask as kd
    import keyroute.nn.functional as F
    from keyroute.dask.embed import local_cluster

    out = subprocess.run([sys.executable, "-c", _NUMPY], capture_output=True, text=True)
    np_time, np_peak = (float(v) for v in out.stdout.split())
    client = local_cluster(2, memory_limit="300MiB")
    try:
        client.run(lambda: __import__("keyroute.dask"))  # imports are not part of the time
        base = client.run(_peak)
        x = da.random.default_rng(1234).random((N, K), chunks=(2000, K), dtype=np.float32)
        w = np.linspace(-0.05, 0.05, K * M, dtype=np.float32).reshape(K, M)
        t0 = time.perf_counter()
        with kd.use(client):
            y = F.silu((kd.as_tensor(x) - 0.5) @ torch.from_numpy(w).to("dask")).sum().item()
        dask_time = time.perf_counter() - t0
        peaks = client.run(_peak)
    finally:
        client.close()
        client.cluster.close()
    print(
        json.dumps(
            {
                "x_MB": N * K * 4 / 1e6,
                "numpy_s": round(np_time, 2),
                "numpy_peak_MB": round(np_peak / 1e6),
                "dask_s": round(dask_time, 2),
                "worker_peak_MB": {str(k)[-5:]: round(v / 1e6) for k, v in peaks.items()},
                "worker_after_import_MB": {str(k)[-5:]: round(v / 1e6) for k, v in base.items()},
                "sum": y,
            }
        )
    )


if __name__ == "__main__":
    main()
