"""gradcheck / gradgradcheck: analytical gradients against central finite differences.

>>> import keyroute
>>> x = keyroute.randn(3, dtype=keyroute.float64, requires_grad=True)
>>> gradcheck(lambda t: (t * t).sin(), (x,))
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..tensor._tensor import Tensor
from ..tensor.dtype import float64

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "numerical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the analytical and numerical Jacobians differ."""


def _as_tuple(x: Any) -> tuple[Any, ...]:
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


def _outputs(fn: Callable[..., Any], inputs: tuple[Any, ...]) -> tuple[Tensor, ...]:
    out = _as_tuple(fn(*inputs))
    return tuple(o for o in out if isinstance(o, Tensor) and o._dtype.category >= 2)


def numerical_jacobian(
    fn: Callable[..., Any], inputs: tuple[Any, ...], eps: float = 1e-6
) -> list[list[np.ndarray]]:
    """jac[i][j]: d output j / d input i, shape (input_i.numel(), output_j.numel())."""
    # Inputs are perturbed in place through their arrays (no version bump), and the function
    # runs with grad mode as it is: gradgradcheck's function computes gradients itself.
    jac: list[list[np.ndarray]] = []
    if True:
        base = _outputs(fn, inputs)
        for inp in inputs:
            if not (isinstance(inp, Tensor) and inp.requires_grad):
                jac.append([])
                continue
            data = inp._data
            flat_view = data.reshape(-1) if data.flags.c_contiguous else None
            rows = [np.zeros((inp.numel(), o.numel())) for o in base]
            for k in range(inp.numel()):
                idx = np.unravel_index(k, data.shape) if data.shape else ()
                orig = data[idx].copy() if data.shape else data[()].copy()
                data[idx] = orig + eps
                plus = [
                    o.detach().numpy().astype(np.float64).reshape(-1).copy()
                    for o in _outputs(fn, inputs)
                ]
                data[idx] = orig - eps
                minus = [
                    o.detach().numpy().astype(np.float64).reshape(-1).copy()
                    for o in _outputs(fn, inputs)
                ]
                data[idx] = orig
                for j in range(len(base)):
                    rows[j][k] = (plus[j] - minus[j]) / (2 * eps)
            del flat_view
            jac.append(rows)
    return jac


def _analytical_jacobian(
    fn: Callable[..., Any], inputs: tuple[Any, ...]
) -> list[list[np.ndarray | None]]:
    from .._ops import ops
    from .engine import grad as autograd_grad

    outs = _outputs(fn, inputs)
    diff_inputs = [x for x in inputs if isinstance(x, Tensor) and x.requires_grad]
    jac: list[list[np.ndarray | None]] = [
        [np.zeros((x.numel(), o.numel())) for o in outs] for x in diff_inputs
    ]
    for j, o in enumerate(outs):
        for k in range(o.numel()):
            onehot = ops.aten.zeros_like.default(o, memory_format=0)
            onehot._data.reshape(-1)[k] = 1
            grads = autograd_grad(
                (o,), diff_inputs, (onehot,), retain_graph=True, allow_unused=True
            )
            for i, g in enumerate(grads):
                if g is not None:
                    jac[i][j][:, k] = g.detach().numpy(force=True).astype(np.float64).reshape(-1)
    return jac


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    fast_mode: bool = False,
    check_batched_grad: bool = False,
) -> bool:
    """Compare autograd's Jacobian of `func` at `inputs` with finite differences (float64)."""
    inputs = _as_tuple(inputs)
    for x in inputs:
        if isinstance(x, Tensor) and x.requires_grad and x._dtype.name != "float64":
            import warnings

            warnings.warn(
                f"Input #{inputs.index(x)} requires gradient and is not a double precision "
                f"floating point. This check will likely fail if all the inputs are not of double "
                f"precision floating point. ",
                UserWarning,
                stacklevel=2,
            )
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff_idx:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of the "
            "them have requires_grad=True."
        )
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = _analytical_jacobian(func, inputs)
    for n, i in enumerate(diff_idx):
        for j, (a, num) in enumerate(zip(analytical[n], numerical[i])):
            if a is None:
                continue
            if not np.allclose(a, num, rtol=rtol, atol=atol):
                if raise_exception:
                    raise GradcheckError(
                        f"Jacobian mismatch for output {j} with respect to input {i},\n"
                        f"numerical:{num}\nanalytical:{a}\n"
                    )
                return False
    return True


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Sequence[Any] | None = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    fast_mode: bool = False,
    check_batched_grad: bool = False,
) -> bool:
    """gradcheck of the first derivative: second derivatives against finite differences."""
    from .._ops import ops
    from .engine import grad as autograd_grad

    inputs = _as_tuple(inputs)
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        # As PyTorch's: make_tensor(shape, low=-1, high=1) per output, i.e. a fresh contiguous
        # tensor (double for a non-floating output) filled by uniform_(-1, 1) from the default
        # generator.
        grad_outputs = []
        for o in outs:
            dt = o.dtype if o.dtype.category >= 2 else float64
            g = ops.aten.empty.memory_format(list(o.shape), dtype=dt, device=o.device)
            ops.aten.uniform_.default(g, -1.0, 1.0)
            g.requires_grad_(True)
            grad_outputs.append(g)
    grad_outputs = list(grad_outputs)
    n_in = len(inputs)

    def first_derivative(*args: Any) -> tuple[Any, ...]:
        ins, gos = args[:n_in], args[n_in:]
        outputs = _outputs(func, ins)
        diff = [x for x in ins if isinstance(x, Tensor) and x.requires_grad]
        grads = autograd_grad(outputs, diff, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivative,
        (*inputs, *grad_outputs),
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
