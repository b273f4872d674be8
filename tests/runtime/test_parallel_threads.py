"""torch.get_num_threads / set_num_threads and the inter-op pair answer as PyTorch 2.13's,
recorded by tools/record_parallel_threads.py (one fresh process per case, with its
environment); the intra-op count reaches NumPy's BLAS pool through threadpoolctl."""

from __future__ import annotations

import json
import pathlib
import warnings
from collections.abc import Iterator

import pytest

import keyroute
from keyroute import _parallel

DATA = json.loads(
    (pathlib.Path(__file__).parents[1] / "data/runtime/parallel_threads.json").read_text()
)


@pytest.fixture
def fresh_process_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The module as a new process has it, on a machine with the recording's CPU count; the BLAS
    pool's limit is put back afterwards."""
    for name in ("_num_threads", "_num_interop_threads", "_interop_set"):
        monkeypatch.setattr(_parallel, name, getattr(_parallel, name))
    _parallel._num_threads = None
    _parallel._num_interop_threads = None
    _parallel._interop_set = False
    monkeypatch.setattr(_parallel, "_cpu_count", lambda: DATA["cpus"])
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield
        return
    with threadpool_limits(limits=None):  # (restores every pool's limit on exit)
        yield


def _outcome(expr: str) -> dict[str, str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the no-threadpoolctl notice is tested below)
        try:
            return {"value": repr(eval(expr, {"torch": keyroute}))}  # noqa: S307  (recorded)
        except Exception as e:  # noqa: BLE001
            return {"error": type(e).__name__, "message": str(e)}


@pytest.mark.parametrize("case", DATA["cases"], ids=lambda c: f"{c['env']}:{c['steps'][0]}")
def test_thread_counts_as_pytorch(
    case: dict, fresh_process_state: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    for var, value in case["env"].items():
        monkeypatch.setenv(var, value)
    got = [_outcome(expr) for expr in case["steps"]]
    assert got == case["outcomes"]


def test_set_num_threads_limits_numpys_blas(fresh_process_state: None) -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")  # (the dev extra; CI installs it)
    blas = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
    if not blas:
        pytest.skip("NumPy here has no BLAS threadpoolctl can see")

    def blas_threads() -> set[int]:
        return {
            i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"
        }

    keyroute.set_num_threads(1)
    assert blas_threads() == {1}
    keyroute.set_num_threads(2)
    assert blas_threads() == {2}


def test_without_threadpoolctl_the_count_is_kept_with_one_warning(
    fresh_process_state: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_threadpoolctl(name: str, *args: object, **kwargs: object) -> object:
        if name == "threadpoolctl":
            raise ImportError("No module named 'threadpoolctl'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_threadpoolctl)
    monkeypatch.setattr(_parallel, "_warned_no_threadpoolctl", False)
    with pytest.warns(RuntimeWarning, match="threadpoolctl is not installed"):
        keyroute.set_num_threads(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        keyroute.set_num_threads(2)  # (said once)
    assert keyroute.get_num_threads() == 2


def test_a_refused_count_leaves_the_count_as_it_was(fresh_process_state: None) -> None:
    keyroute.set_num_threads(1)
    with pytest.raises(RuntimeError, match="expects a positive integer"):
        keyroute.set_num_threads(0)
    assert keyroute.get_num_threads() == 1
