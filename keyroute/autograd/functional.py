"""torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp over the ordinary engine.

Each function follows PyTorch 2.13's: inputs are fresh differentiable copies (views of inputs
that already require grad when `create_graph=True`), forward-mode products use the "double
backward trick" (differentiate a vjp against its zero-valued cotangent), missing gradients
become zeros (or raise in strict mode, with PyTorch's messages), and results are detached
unless `create_graph=True`. `vectorize=True` and `strategy="forward-mode"` give the same values
as the row-by-row computation, which is how keyroute computes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..tensor._tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _torch() -> Any:
    import keyroute

    return keyroute


def _as_tuple(inp: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Any, ...]]:
    is_tuple = isinstance(inp, tuple)
    items = inp if is_tuple else (inp,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"value at index {i}" if is_tuple else f"given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors "
                f"but the {where} has type {type(el)}."
            )
    return is_tuple, items


def _unpack(res: Any, to_unpack: Any) -> Any:
    """Undo _as_tuple on a result: one flag per tuple level (outputs, inputs)."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
        return res
    return res if to_unpack else res[0]


def _preprocess(inputs: tuple[Any, ...], create_graph: bool, need_graph: bool) -> tuple[Any, ...]:
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(t.view_as(t))  # keeps the graph back to the caller's tensor
        else:
            out.append(t.detach().requires_grad_(need_graph))
    return tuple(out)


def _postprocess(res: Any, create_graph: bool) -> Any:
    if isinstance(res, Tensor):
        return res if create_graph else res.detach()
    return tuple(_postprocess(r, create_graph) for r in res)


def _results(
    outputs: tuple[Any, ...],
    out_tuple: bool,
    res: tuple[Any, ...],
    res_tuple: bool,
    create_graph: bool,
) -> tuple[Any, Any]:
    """(outputs, result) as the caller gave them (tuples or not), detached unless create_graph."""
    outs = _unpack(_postprocess(outputs, create_graph), out_tuple)
    return outs, _unpack(_postprocess(res, create_graph), res_tuple)


def _validate_v(v: tuple[Any, ...], other: tuple[Any, ...], is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, other)):
        if a.size() != b.size():
            prefix = f"Entry {i} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prefix}v has invalid size: should be {b.size()} but got {a.size()}."
            )


_STRICT = " This is not allowed in strict mode."


def _check_requires_grad(inputs: tuple[Any, ...], kind: str, strict: bool) -> None:
    if not strict:
        return
    for i, t in enumerate(inputs):
        if t is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}.{_STRICT}"
            )
        if t.requires_grad:
            continue
        if kind == "hessian":
            raise RuntimeError(
                f"The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is thrice differentiable and that the hessian depends on the "
                "inputs."
            )
        if kind == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example)."
            )
        if kind == "grad_inputs":
            raise RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the "
                f"user-provided function.{_STRICT}"
            )
        raise RuntimeError(
            f"Output {i} of the user-provided function does not require gradients. The outputs "
            "must be computed in a differentiable manner from the input when running in strict "
            "mode."
        )


def _grad(
    outputs: tuple[Any, ...],
    inputs: tuple[Any, ...],
    grad_outputs: tuple[Any, ...] | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Any, ...]:
    """autograd.grad over the outputs that require grad (None for each input if none does)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return _torch().autograd.grad(
        [o for o, _ in pairs],
        inputs,
        [g for _, g in pairs],
        allow_unused=True,
        create_graph=create_graph,
        retain_graph=retain_graph,
    )


_MISSING = {
    "back": "The output of the user-provided function is independent of input {i}." + _STRICT,
    "back_trick": (
        "The gradient with respect to the input is independent of entry {i} in the grad_outputs "
        "when using the double backward trick to compute forward mode gradients." + _STRICT
    ),
    "double_back": "The jacobian of the user-provided function is independent of input {i}."
    + _STRICT,
    "double_back_trick": (
        "The hessian of the user-provided function is independent of entry {i} in the "
        "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
        "backward trick to replace forward mode AD."
    ),
}


def _fill_in_zeros(
    grads: tuple[Any, ...], refs: tuple[Any, ...], strict: bool, create_graph: bool, stage: str
) -> tuple[Any, ...]:
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_MISSING[stage].format(i=i))
            g = _torch().zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {i}. This is "
                "not allowed in strict mode when create_graph=True."
            )
        res.append(g)
    return tuple(res)


_OUT = "outputs of the user-provided function"


def _prepare_inputs(inputs: Any, name: str, create_graph: bool) -> tuple[bool, tuple[Any, ...]]:
    """The inputs as a tuple of fresh differentiable tensors, and whether they were a tuple."""
    in_tuple, inputs = _as_tuple(inputs, "inputs", name)
    return in_tuple, _preprocess(inputs, create_graph, need_graph=True)


def _call(
    func: Callable[..., Any], inputs: tuple[Any, ...], name: str, strict: bool
) -> tuple[bool, tuple[Any, ...]]:
    """func's outputs on the inputs, as a tuple, and whether they were one; strict mode checks
    that each requires grad."""
    out_tuple, outputs = _as_tuple(func(*inputs), _OUT, name)
    _check_requires_grad(outputs, "outputs", strict)
    return out_tuple, outputs


def _check_single_output(name: str, out_tuple: bool, outputs: tuple[Any, ...]) -> None:
    """hessian, vhp and hvp need a function returning one Tensor of one element."""
    if out_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {name} should contain a single element"
        )


def _v_or_none(
    v: Any, ref: tuple[Any, ...], ref_tuple: bool, name: str, create_graph: bool, what: str
) -> Any:
    if v is not None:
        _, v = _as_tuple(v, "v", name)
        v = _preprocess(v, create_graph, need_graph=False)
        _validate_v(v, ref, ref_tuple)
        return v
    if len(ref) != 1 or ref[0].nelement() != 1:
        raise RuntimeError(
            f"The vector v can only be None if the {what} a single Tensor with a single element."
        )
    return None


def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    torch = _torch()
    with torch.enable_grad():
        in_tuple, inputs = _prepare_inputs(inputs, "vjp", create_graph)
        out_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _v_or_none(v, outputs, out_tuple, "vjp", create_graph, "user-provided function returns")
        with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
            res = _grad(outputs, inputs, v, create_graph=create_graph)
            res = _fill_in_zeros(res, inputs, strict, create_graph, "back")
    return _results(outputs, out_tuple, res, in_tuple, create_graph)


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    torch = _torch()
    with torch.enable_grad():
        in_tuple, inputs = _prepare_inputs(inputs, "jvp", create_graph)
        v = _v_or_none(
            v, inputs, in_tuple, "jvp", create_graph, "input to the user-provided function is"
        )
        out_tuple, outputs = _call(func, inputs, "jvp", strict)
        # The double backward trick: J v is the gradient, with respect to u, of (u^T J) v.
        cotangents = tuple(torch.zeros_like(o, requires_grad=True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, cotangents, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with torch.enable_grad() if create_graph else _nullcontext():
        res = _grad(grad_inputs, cotangents, v, create_graph=create_graph)
        res = _fill_in_zeros(res, outputs, strict, create_graph, "back_trick")
    return _results(outputs, out_tuple, res, out_tuple, create_graph)


class _nullcontext:  # noqa: N801
    def __enter__(self) -> None:
        return None

    def __exit__(self, *args: object) -> None:
        return None


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    torch = _torch()
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.'
            )
        if not vectorize:
            raise NotImplementedError(
                # PyTorch's message, its missing space included.
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only "
                "implemented for `vectorize=True`."
            )
    with torch.enable_grad():
        in_tuple, inputs = _prepare_inputs(inputs, "jacobian", create_graph)
        out_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                "supported together. Please either set `strict=False` or `vectorize=False`."
            )
        jac = []
        for i, out in enumerate(outputs):
            rows: list[list[Any]] = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(out.nelement()):
                vj = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (g, inp) in enumerate(zip(vj, inputs)):
                    if g is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of "
                                f"input {k}.{_STRICT}"
                            )
                        g = torch.zeros_like(inp)
                    elif strict and create_graph and not g.requires_grad:
                        raise RuntimeError(
                            "The jacobian of the user-provided function is independent of input "
                            f"{i}. This is not allowed in strict mode when create_graph=True."
                        )
                    rows[k].append(g)
            jac.append(
                tuple(
                    torch.stack(r, dim=0).view(out.size() + inputs[k].size())
                    if r
                    else torch.zeros(out.size() + inputs[k].size(), dtype=inputs[k].dtype)
                    for k, r in enumerate(rows)
                )
            )
        return _unpack(_postprocess(tuple(jac), create_graph), (out_tuple, in_tuple))


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*inp: Any) -> Any:
        out_tuple, outs = _call(func, inp, "hessian", strict)
        _check_single_output("hessian", out_tuple, outs)
        return outs[0].squeeze()

    def jac_func(*inp: Any) -> Any:
        if outer_jacobian_strategy == "forward-mode":
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(single_output, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    res = jacobian(
        jac_func,
        inputs,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _unpack(res, (in_tuple, in_tuple))


def _second_order(
    name: str, func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, strict: bool
) -> tuple[Any, Any]:
    torch = _torch()
    with torch.enable_grad():
        in_tuple, inputs = _prepare_inputs(inputs, name, create_graph)
        v = _v_or_none(
            v, inputs, in_tuple, name, create_graph, "input to the user-provided function is"
        )
        out_tuple, outputs = _call(func, inputs, name, strict)
        _check_single_output(name, out_tuple, outputs)
        jac = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        if name == "hvp":
            # H v through the double backward trick (H is symmetric: v^T H = (H v)^T).
            grad_jac = tuple(torch.zeros_like(t, requires_grad=True) for t in inputs)
            double_back = _grad(jac, inputs, grad_jac, create_graph=True)
            _check_requires_grad(jac, "hessian", strict)
    with torch.set_grad_enabled(True if create_graph else torch.is_grad_enabled()):
        if name == "hvp":
            res = _grad(double_back, grad_jac, v, create_graph=create_graph)
            res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back_trick")
        else:
            res = _grad(jac, inputs, v, create_graph=create_graph)
            res = _fill_in_zeros(res, inputs, strict, create_graph, "double_back")
    return _results(outputs, out_tuple, res, in_tuple, create_graph)


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    return _second_order("vhp", func, inputs, v, create_graph, strict)


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    return _second_order("hvp", func, inputs, v, create_graph, strict)
