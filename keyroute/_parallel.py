"""ATen/Parallel's thread counts: torch.get_num_threads / set_num_threads and the inter-op pair.

keyroute's own kernels run on the calling Python thread; the one place that runs on several
threads is NumPy's BLAS (matmul, linear, conv's im2col products). So the intra-op count is
applied to that BLAS pool, through threadpoolctl (a well-kept library that knows OpenBLAS, MKL
and BLIS; installed with the `dev` extra) when it is importable. Without it the count is kept
and reported, and a one-time warning says that the BLAS pool was left as it is.

The default is PyTorch's: MKL_NUM_THREADS, else OMP_NUM_THREADS, else the number of CPUs, never
more than the CPUs there are (PyTorch 2.13 on a 2-CPU machine answers 2 for OMP_NUM_THREADS=5).
keyroute has no inter-op pool (no torch.jit.fork); the inter-op count is bookkeeping with
PyTorch's rules: settable once (reading it does not count as parallel work).
"""

from __future__ import annotations

import os
import warnings

__all__ = [
    "get_num_interop_threads",
    "get_num_threads",
    "init_num_threads",
    "set_num_interop_threads",
    "set_num_threads",
]


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not on Linux)
        return os.cpu_count() or 1


def _env_threads() -> int | None:
    for var in ("MKL_NUM_THREADS", "OMP_NUM_THREADS"):  # MKL's variable takes precedence
        value = os.environ.get(var)
        if value:
            try:
                n = int(value)
            except ValueError:
                continue  # (PyTorch ignores a malformed value and takes the default)
            if n > 0:
                return n
    return None


def _default_threads() -> int:
    cpus = _cpu_count()
    env = _env_threads()
    return cpus if env is None else min(env, cpus)


_num_threads: int | None = None  # None: the default, not yet read
_num_interop_threads: int | None = None
_interop_set = False
_warned_no_threadpoolctl = False


def _check_count(name: str, n: object) -> int:
    # (bool is an int in Python, not in PyTorch's THPUtils_checkLong)
    if not isinstance(n, int) or isinstance(n, bool):
        raise RuntimeError(f"{name} expects an int, but got {type(n).__name__}")
    if n <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return n


def _apply_to_blas(n: int) -> None:
    global _warned_no_threadpoolctl
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        if not _warned_no_threadpoolctl:
            _warned_no_threadpoolctl = True
            warnings.warn(
                "keyroute.set_num_threads: threadpoolctl is not installed, so NumPy's BLAS "
                "keeps its own thread count (pip install threadpoolctl to apply it)",
                RuntimeWarning,
                stacklevel=3,
            )
        return
    # (a limit set this way stays in force: threadpool_limits applies on construction)
    threadpool_limits(limits=n, user_api="blas")


def get_num_threads() -> int:
    """The number of threads intra-op work may use (PyTorch's at::get_num_threads)."""
    return _default_threads() if _num_threads is None else _num_threads


def set_num_threads(num: int) -> None:
    """Set the intra-op thread count; keyroute applies it to NumPy's BLAS pool."""
    global _num_threads
    n = _check_count("set_num_threads", num)
    _apply_to_blas(n)
    _num_threads = n


def init_num_threads() -> None:
    """Re-apply the thread count on this thread (PyTorch's at::init_num_threads)."""
    if _num_threads is not None:
        _apply_to_blas(_num_threads)


def get_num_interop_threads() -> int:
    """The inter-op pool's size (keyroute has no inter-op pool: PyTorch's default count)."""
    return _default_threads() if _num_interop_threads is None else _num_interop_threads


def set_num_interop_threads(num: int) -> None:
    """Set the inter-op count: once, before any parallel work, as PyTorch allows."""
    global _num_interop_threads, _interop_set
    n = _check_count("set_num_interop_threads", num)
    if _interop_set:
        raise RuntimeError(
            "Error: cannot set number of interop threads after parallel work has started or "
            "set_num_interop_threads called"
        )
    _num_interop_threads = n
    _interop_set = True
