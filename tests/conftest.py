"""Test-session settings.

One BLAS thread, as the benchmarks use: on a shared machine OpenBLAS's thread pool spin-waits
against the test processes and a 64x784 @ 784x256 matmul goes from 1 ms to 70 ms. The variable
must be set before NumPy loads OpenBLAS, so it is set here, first; a value the caller exported wins.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _seeded_default_generator():
    """Each test starts from the same default-generator state: keyroute, like PyTorch, seeds
    its default generator randomly at import, so a test that draws without seeding would
    otherwise see different numbers on every run."""
    import keyroute

    keyroute.manual_seed(0)
    yield


# The dask backend registers its device and kernels for the whole process when keyroute.dask is
# imported (as importing an out-of-tree PyTorch backend does), which changes the dispatcher's
# tables, key sets and error texts that tests/dispatcher and tests/library compare with
# PyTorch's. tests/dask therefore runs in a pytest process of its own, started by
# tests/test_dask_process.py (set KEYROUTE_TEST_DASK=1 to collect it directly).
collect_ignore = [] if os.environ.get("KEYROUTE_TEST_DASK") == "1" else ["dask"]
