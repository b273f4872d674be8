"""Complex tensors through the operator families: elementwise, reductions, linalg and views on
complex64 / complex128 inputs, with their gradients (PyTorch's Wirtinger convention: the
gradient a backward gives a complex leaf is the conjugate Wirtinger derivative of the real
loss Re(sum(conj(grad_output) * out))). Run under PyTorch 2.13 (tools/record_complex.py ->
tests/data/complex.json) and keyroute (tests/layers/test_complex.py). No torch or keyroute
import here."""

from __future__ import annotations

from typing import Any

import numpy as np

# name -> (expression over the inputs {0}, {1}, ...; input shapes; whether to take gradients)
CASES: dict[str, tuple[str, list[tuple[int, ...]], bool]] = {}


def _add(name: str, expr: str, *shapes: tuple[int, ...], grad: bool = True) -> None:
    CASES[name] = (expr, list(shapes), grad)


V = (3, 4)
for _op in (
    "neg exp log sqrt sin cos tan tanh sinh cosh sigmoid reciprocal rsqrt log1p expm1 log2 "
    "log10 asin acos atan asinh acosh atanh square sgn conj_physical exp2 tan"
).split():
    _add(_op, f"torch.{_op}({{0}})", V)
for _op in ("abs", "angle"):
    _add(_op, f"torch.{_op}({{0}})", V)
_add("isfinite", "torch.isfinite({0})", V, grad=False)
for _op in ("add", "sub", "mul", "div"):
    _add(_op, f"torch.{_op}({{0}}, {{1}})", V, V)
    _add(f"{_op}_broadcast", f"torch.{_op}({{0}}, {{1}})", V, (4,))
_add("add_alpha", "torch.add({0}, {1}, alpha=2 - 1j)", V, V)
_add("mul_scalar", "{0} * (0.5 + 2j)", V)
_add("div_scalar", "{0} / (1 - 1j)", V)
_add("rdiv_scalar", "(2 + 1j) / {0}", V)
_add("pow_scalar", "torch.pow({0}, 2.5)", V)
_add("pow_complex_exponent", "torch.pow({0}, 1 + 0.5j)", V)
_add("pow_tensor", "torch.pow({0}, {1})", V, V)
_add("mul_real", "{0} * {0}.abs()", V)
_add("eq", "torch.eq({0}, {0}.conj())", V, grad=False)
_add("where", "torch.where({0}.real > 0, {0}, {1})", V, V)
_add("lerp", "torch.lerp({0}, {1}, 0.3)", V, V)
_add("addcmul", "torch.addcmul({0}, {1}, {2}, value=0.5)", V, V, V)
# reductions
for _op in ("sum", "mean", "prod"):
    _add(_op, f"torch.{_op}({{0}})", V)
    _add(f"{_op}_dim", f"torch.{_op}({{0}}, 1)", V)
_add("cumsum", "torch.cumsum({0}, 1)", V)
_add("cumprod", "torch.cumprod({0}, 1)", V)
_add("vector_norm", "torch.linalg.vector_norm({0})", V)
_add("vector_norm_dim", "torch.linalg.vector_norm({0}, 1, dim=0)", V)
_add("var", "torch.var({0}, 1)", V)
_add("std", "torch.std({0})", V)
_add("logsumexp", "torch.logsumexp({0}, 1)", V)
# linalg
_add("mm", "torch.mm({0}, {1})", (3, 4), (4, 2))
_add("matmul", "torch.matmul({0}, {1})", (2, 3, 4), (4, 2))
_add("bmm", "torch.bmm({0}, {1})", (2, 3, 4), (2, 4, 2))
_add("mv", "torch.mv({0}, {1})", (3, 4), (4,))
_add("dot", "torch.dot({0}, {1})", (4,), (4,))
_add("vdot", "torch.vdot({0}, {1})", (4,), (4,))
_add("outer", "torch.outer({0}, {1})", (3,), (4,))
_add("inner", "torch.inner({0}, {1})", (2, 4), (3, 4))
_add("inner_vec", "torch.inner({0}, {1})", (4,), (4,))
_add("addmm", "torch.addmm({0}, {1}, {2}, beta=0.5, alpha=2)", (3, 2), (3, 4), (4, 2))
_add("addr", "torch.addr({0}, {1}, {2})", (3, 4), (3,), (4,))
_add("einsum", "torch.einsum('ij,jk->ik', {0}, {1})", (3, 4), (4, 2))
_add("trace", "torch.trace({0})", (3, 3))
_add("det", "torch.linalg.det({0} + 3 * torch.eye(3))", (3, 3))
_add("inv", "torch.linalg.inv({0} + 3 * torch.eye(3))", (3, 3))
_add("solve", "torch.linalg.solve({0} + 3 * torch.eye(3), {1})", (3, 3), (3, 2))
_add("matrix_norm", "torch.linalg.matrix_norm({0})", (3, 4))
# views and data movement
_add("t", "{0}.t()", V)
_add("transpose", "{0}.transpose(0, 1)", V)
_add("mH", "{0}.mH", V)
_add("adjoint", "{0}.adjoint()", V)
_add("permute", "{0}.permute(1, 0)", V)
_add("reshape", "{0}.reshape(2, 6)", V)
_add("view", "{0}.view(12)", V)
_add("slice", "{0}[1:, ::2]", V)
_add("select", "{0}[1]", V)
_add("diagonal", "torch.diagonal({0})", V)
_add("expand", "{0}[:1].expand(3, 4)", V)
_add("unsqueeze", "{0}.unsqueeze(1)", V)
_add("flatten", "{0}.flatten()", V)
_add("flip", "torch.flip({0}, [1])", V)
_add("roll", "torch.roll({0}, 1, 1)", V)
_add("cat", "torch.cat([{0}, {1}], 0)", V, V)
_add("stack", "torch.stack([{0}, {1}], 1)", V, V)
_add("index_select", "torch.index_select({0}, 1, torch.tensor([0, 2]))", V)
_add("gather", "torch.gather({0}, 1, torch.tensor([[0, 1], [1, 2], [3, 0]]))", V)
_add("masked_fill", "{0}.masked_fill({0}.real > 0, 1 + 1j)", V)
_add("view_as_real", "torch.view_as_real({0})", V)
_add("view_as_real_conj", "torch.view_as_real({0}.conj().resolve_conj())", V)
_add("real_imag", "{0}.real * 2 + {0}.imag", V)
_add("conj_mul", "{0}.conj() * {1}", V, V)
_add("conj_mm", "torch.mm({0}.conj(), {1}.t())", V, V)
_add("clone_contiguous", "{0}.t().contiguous()", V)
_add("to_complex128", "{0}.to(torch.complex128) * 2", V)
_add("real_to_complex", "torch.complex({0}.real, {0}.imag) * 1j", V)
_add("polar", "torch.polar({0}.abs(), {0}.angle())", V)


DTYPES = ("complex64", "complex128")


def _array(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.uniform(-1.5, 1.5, shape) + 1j * rng.uniform(-1.5, 1.5, shape)


def _encode(a: np.ndarray) -> Any:
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return {"re": np.real(a).round(10).tolist(), "im": np.imag(a).round(10).tolist()}
    return {"v": a.astype(np.float64).round(10).tolist() if a.dtype != bool else a.tolist()}


def run_case(name: str, torch: Any, dtype: str) -> dict[str, Any]:
    """The output's dtype, shape and values, and the leaves' gradients."""
    expr, shapes, grad = CASES[name]
    rng = np.random.default_rng(_seed(name))
    dt = getattr(torch, dtype)
    leaves = [torch.from_numpy(_array(rng, s)).to(dt).requires_grad_(grad) for s in shapes]
    try:
        source = expr.format(*(f"x[{i}]" for i in range(len(leaves))))
        out = eval(source, {"torch": torch, "x": leaves})
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "msg": str(e).split("\n")[0]}
    res: dict[str, Any] = {
        "dtype": str(out.dtype).split(".")[-1],
        "shape": list(out.shape),
        "value": _encode(_plain(out)),
    }
    if grad and out.requires_grad:
        g = np.asarray(_array(rng, tuple(out.shape)))
        if not out.is_complex():
            g = g.real
        gout = torch.from_numpy(g).to(out.dtype)
        try:
            grads = torch.autograd.grad([out], leaves, [gout], allow_unused=True)
        except Exception as e:  # noqa: BLE001
            res["grad_error"] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        else:
            res["grads"] = [None if x is None else _encode(_plain(x)) for x in grads]
    return res


def _plain(t: Any) -> np.ndarray:
    return t.detach().resolve_conj().resolve_neg().numpy()


def _seed(name: str) -> int:
    import hashlib

    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "little")


def matches(expected: Any, got: Any, dtype: str) -> bool:
    """Same keys, errors and dtypes; values and gradients within complex64's / complex128's
    rounding (PyTorch's reduction order is not NumPy's)."""
    tol = 1e-4 if dtype == "complex64" else 1e-9
    return _close(expected, got, tol)


def _close(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, dict):
        return (
            isinstance(b, dict) and a.keys() == b.keys() and all(_close(a[k], b[k], tol) for k in a)
        )
    if isinstance(a, list) and a and isinstance(a[0], dict):
        return (
            isinstance(b, list)
            and len(a) == len(b)
            and all(_close(x, y, tol) for x, y in zip(a, b))
        )
    if isinstance(a, (list, float)) and not isinstance(a, bool):
        if not isinstance(b, (list, float, int)) or isinstance(b, bool):
            return False
        x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        return x.shape == y.shape and bool(np.allclose(x, y, rtol=tol, atol=tol, equal_nan=True))
    return a == b
