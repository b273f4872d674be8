# ruff: noqa: E501  (one program per line reads best; they are data)
"""linalg.solve / linalg.cholesky / linalg.inv and their _ex forms raising through
aten::_linalg_check_errors as PyTorch's decompositions do (a dispatch mode sees that call), with
PyTorch's LinAlgError messages: programs run under PyTorch 2.13
(tools/record_linalg_check_errors.py -> tests/data/linalg_check_errors.json) and keyroute
(tests/aten/test_linalg_check_errors.py). Same conventions as tests/layers/autograd_programs.py:
each program sets `result` or raises; `log(fn)` runs fn under a dispatch mode and returns each
aten call it saw with its keyword names (and the api_name / is_matrix of _linalg_check_errors),
and, when fn raises, the error's class and message last."""

from __future__ import annotations

from typing import Any

from tests.layers.autograd_programs import run_code

PRELUDE = """
import warnings
A = torch.tensor([[1., 2.], [2., 1.]])          # symmetric, not positive-definite (minor 2)
P = torch.tensor([[4., 2.], [2., 3.]])          # positive-definite
S = torch.tensor([[1., 2.], [2., 4.]])          # singular
N3 = torch.tensor([[1., 0., 0.], [0., 2., 0.], [0., 0., -1.]])  # minor 3 fails
b = torch.tensor([[1.], [2.]])
v = torch.tensor([1., 2.])
def log(fn):
    seen = []
    class Spy(torch.utils._python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = str(func).split('.', 1)[1]
            entry = [name, sorted((kwargs or {}).keys())]
            if name.startswith('_linalg_check_errors'):
                entry += [args[1], kwargs['is_matrix'], list(args[0].shape)]
            seen.append(entry)
            return func(*args, **(kwargs or {}))
    try:
        with Spy():
            fn()
    except Exception as e:
        seen.append([type(e).__name__, str(e)])
    return seen
"""

PROGRAMS: dict[str, str] = {
    # (first: recorded in a fresh process, before any other torch.cholesky call)
    "cholesky_legacy_warns": "torch.cholesky(P)",
    # ---------------------------------------------------------------- linalg.cholesky
    "cholesky_not_pd": "torch.linalg.cholesky(A)",
    "cholesky_not_pd_minor3": "torch.linalg.cholesky(N3)",
    "cholesky_not_pd_upper": "torch.linalg.cholesky(A, upper=True)",
    "cholesky_not_pd_float64": "torch.linalg.cholesky(A.double())",
    "cholesky_not_pd_complex": "torch.linalg.cholesky(A.to(torch.complex64))",
    "cholesky_batch": "torch.linalg.cholesky(torch.stack([P, A, A]))",
    "cholesky_batch_2d": "torch.linalg.cholesky(torch.stack([P, P, P, A]).reshape(2, 2, 2, 2))",
    "cholesky_ok": "result = torch.linalg.cholesky(P)",
    "cholesky_error_class": "try:\n    torch.linalg.cholesky(A)\nexcept RuntimeError as e:\n    result = [type(e).__name__, isinstance(e, torch.linalg.LinAlgError), torch.linalg.LinAlgError.__name__]",
    "cholesky_log": "result = log(lambda: torch.linalg.cholesky(A))",
    "cholesky_log_ok": "result = log(lambda: torch.linalg.cholesky(P, upper=True))",
    "cholesky_log_batch": "B3 = torch.stack([P, A]); result = log(lambda: torch.linalg.cholesky(B3))",
    "cholesky_requires_grad": "torch.linalg.cholesky(A.clone().requires_grad_())",
    "cholesky_grad_ok": "x = P.clone().requires_grad_(); torch.linalg.cholesky(x).sum().backward(); result = x.grad",
    # ---------------------------------------------------------------- linalg.cholesky_ex
    "cholesky_ex_info": "L, info = torch.linalg.cholesky_ex(A); result = [info, L.shape]",
    "cholesky_ex_batch_info": "L, info = torch.linalg.cholesky_ex(torch.stack([P, A, N3[:2, :2], P])); result = info",
    "cholesky_ex_check_errors": "torch.linalg.cholesky_ex(A, check_errors=True)",
    "cholesky_ex_check_errors_batch": "torch.linalg.cholesky_ex(torch.stack([P, A]), check_errors=True)",
    "cholesky_ex_log": "result = log(lambda: torch.linalg.cholesky_ex(A))",
    "cholesky_ex_log_check_errors": "result = log(lambda: torch.linalg.cholesky_ex(A, check_errors=True))",
    # ---------------------------------------------------------------- the deprecated torch.cholesky
    # Its deprecation warning is TORCH_WARN_ONCE (once per process): `cholesky_legacy_warns` is
    # recorded first in a fresh process (the test resets keyroute's once-flag before it); the
    # others silence it, so they hold in any order.
    "cholesky_legacy_not_pd": "with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    torch.cholesky(A)",
    "cholesky_legacy_batch": "with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    torch.cholesky(torch.stack([P, A]))",
    "cholesky_legacy_upper": "with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    result = torch.cholesky(P, upper=True)",
    "cholesky_legacy_log": "with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n    result = log(lambda: torch.cholesky(A))",
    # ---------------------------------------------------------------- linalg.solve
    "solve_singular": "torch.linalg.solve(S, b)",
    "solve_singular_vector": "torch.linalg.solve(S, v)",
    "solve_singular_left_false": "torch.linalg.solve(S, b.t(), left=False)",
    "solve_singular_float64": "torch.linalg.solve(S.double(), b.double())",
    "solve_singular_complex": "torch.linalg.solve(S.to(torch.complex64), b.to(torch.complex64))",
    "solve_batch": "torch.linalg.solve(torch.stack([P, S, S]), torch.ones(3, 2, 1))",
    "solve_batch_broadcast": "torch.linalg.solve(torch.stack([P, S]), b)",
    "solve_ok": "result = torch.linalg.solve(P, b)",
    "solve_error_class": "try:\n    torch.linalg.solve(S, b)\nexcept RuntimeError as e:\n    result = [type(e).__name__, isinstance(e, torch.linalg.LinAlgError)]",
    "solve_log": "result = log(lambda: torch.linalg.solve(S, b))",
    "solve_log_ok": "result = log(lambda: torch.linalg.solve(P, b, left=True))",
    "solve_log_left_false": "result = log(lambda: torch.linalg.solve(P, b.t(), left=False))",
    "solve_log_batch": "B3 = torch.stack([P, S]); result = log(lambda: torch.linalg.solve(B3, b))",
    "solve_requires_grad": "torch.linalg.solve(S.clone().requires_grad_(), b)",
    "solve_grad_ok": "x = P.clone().requires_grad_(); torch.linalg.solve(x, b).sum().backward(); result = x.grad",
    "solve_out_singular": "o = torch.empty(2, 1); torch.linalg.solve(S, b, out=o)",
    # ---------------------------------------------------------------- linalg.solve_ex
    "solve_ex_info": "X, info = torch.linalg.solve_ex(S, b); result = [info, X.shape]",
    "solve_ex_batch_info": "X, info = torch.linalg.solve_ex(torch.stack([P, S, P]), b); result = info",
    "solve_ex_check_errors": "torch.linalg.solve_ex(S, b, check_errors=True)",
    "solve_ex_check_errors_batch": "torch.linalg.solve_ex(torch.stack([P, S]), b, check_errors=True)",
    "solve_ex_log": "result = log(lambda: torch.linalg.solve_ex(S, b))",
    "solve_ex_log_check_errors": "result = log(lambda: torch.linalg.solve_ex(S, b, check_errors=True))",
    # ---------------------------------------------------------------- linalg.inv / inv_ex / inverse
    "inv_singular": "torch.linalg.inv(S)",
    "inv_batch": "torch.linalg.inv(torch.stack([P, P, S]))",
    "inverse_singular": "torch.inverse(S)",
    "inv_log": "result = log(lambda: torch.linalg.inv(S))",
    "inv_log_batch": "B3 = torch.stack([P, S]); result = log(lambda: torch.linalg.inv(B3))",
    "inv_ex_info": "R, info = torch.linalg.inv_ex(S); result = info",
    "inv_ex_check_errors": "torch.linalg.inv_ex(S, check_errors=True)",
    "inv_ex_check_errors_batch": "torch.linalg.inv_ex(torch.stack([P, S]), check_errors=True)",
    "inv_ex_log_check_errors": "result = log(lambda: torch.linalg.inv_ex(S, check_errors=True))",
    # ---------------------------------------------------------------- _linalg_check_errors itself
    "check_errors_direct_cholesky": "torch.ops.aten._linalg_check_errors(torch.tensor(3, dtype=torch.int32), 'linalg.cholesky', is_matrix=True)",
    "check_errors_direct_batch": "torch.ops.aten._linalg_check_errors(torch.tensor([0, 0, 2], dtype=torch.int32), 'torch.linalg.solve', is_matrix=False)",
    "check_errors_direct_ok": "result = torch.ops.aten._linalg_check_errors(torch.zeros(4, dtype=torch.int32), 'linalg.inv', is_matrix=False)",
    # A negative info is TORCH_INTERNAL_ASSERT: the message names a source file and line; the
    # text after them is compared.
    "check_errors_direct_negative": "try:\n    torch.ops.aten._linalg_check_errors(torch.tensor(-2, dtype=torch.int32), 'linalg.inv', is_matrix=True)\nexcept RuntimeError as e:\n    result = [type(e).__name__, str(e).startswith('false INTERNAL ASSERT FAILED at '), str(e).split('please report a bug to PyTorch. ')[1]]",
}


def run_program(name: str, torch: Any) -> dict[str, Any]:
    return run_code(PRELUDE, PROGRAMS[name], torch)
