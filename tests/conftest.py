"""Test-session settings.

One BLAS thread, as the benchmarks use: on a shared machine OpenBLAS's thread pool spin-waits
against the test processes and a 64x784 @ 784x256 matmul goes from 1 ms to 70 ms. The variable
must be set before NumPy loads OpenBLAS, so it is set here, first; a value the caller exported wins.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
