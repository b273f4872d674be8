"""torch.autograd.grad as PyTorch 2.13's Python function: outputs and inputs may be tensors or
`GradientEdge`s (and inputs a dict, whose keys the result keeps); a `__torch_function__`
override (a tensor subclass among the outputs/inputs, or a TorchFunctionMode) receives the
whole call, as PyTorch's `handle_torch_function(grad, ...)` does, so a mode sees one `grad`
call and a subclass input gets its gradients converted to the subclass; then the root
gradients (PyTorch's `_make_grads`: it reads `grad.size()` and `grad.dtype`, which a subclass
grad output sees) and the engine (autograd/engine.py) run on the graph edges.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT
from ..overrides import handle_torch_function, has_torch_function, is_tensor_like
from . import engine
from .gradient_edge import GradientEdge
from .graph import gradient_edge

__all__ = ["grad", "edge_metadata"]


def edge_metadata(node: Any, nr: int) -> tuple[Any, Any, Any] | None:
    """(shape, dtype, device) of the gradient entering `node` at input `nr`, where known: the
    edge came from get_gradient_edge (which notes its tensor's), or the node accumulates a
    leaf's gradient."""
    meta = node.__dict__.get("_edge_metadata") if hasattr(node, "__dict__") else None
    if meta is not None and nr in meta:
        return meta[nr]
    var = getattr(node, "variable", None)
    if var is not None and hasattr(var, "_key_set"):
        return (tuple(var._data.shape), var.dtype, var.device)
    return None


def _tensor_or_tensors_to_tuple(tensors: Any, length: int) -> tuple[Any, ...]:
    if tensors is None:
        return (None,) * length
    if hasattr(tensors, "_key_set"):
        return (tensors,)
    return tuple(tensors)


def _make_grads(outputs: tuple[Any, ...], grads: tuple[Any, ...]) -> list[Any]:
    """PyTorch's torch.autograd._make_grads (without batched gradients)."""
    from .. import ones, ones_like, preserve_format

    new: list[Any] = []
    for out, g in zip(outputs, grads):
        if isinstance(out, GradientEdge):
            meta = edge_metadata(out.node, out.output_nr)
            out_size, out_dtype, out_device = meta if meta is not None else (None, None, None)
        else:
            out_size, out_dtype, out_device = tuple(out._data.shape), out._dtype, out.device
        if hasattr(g, "_key_set"):
            size = tuple(g.size())
            if out_size is not None and tuple(out_size) != size:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{grads.index(g)}] has a shape of "
                    f"{_shape_str(size)} and output[{outputs.index(out)}] has a shape of "
                    f"{_shape_str(out_size)}."
                )
            g_dtype = g.dtype
            if out_dtype is not None and out_dtype.is_complex != g_dtype.is_complex:
                raise RuntimeError(
                    "For complex Tensors, both grad_output and output are required to have the "
                    f"same dtype. Mismatch in dtype: grad_output[{grads.index(g)}] has a dtype "
                    f"of {g_dtype} and output[{outputs.index(out)}] has a dtype of {out_dtype}."
                )
            new.append(g)
        elif g is None:
            if isinstance(out, GradientEdge) or out._key_set & REQUIRES_GRAD_BIT:
                if isinstance(out, GradientEdge):
                    if out_size is None:
                        raise RuntimeError(
                            "grad can be implicitly created only for scalar outputs: the shape "
                            "of this GradientEdge is not known (make it with get_gradient_edge)"
                        )
                    numel_is_1 = all(s == 1 for s in out_size)
                else:
                    numel_is_1 = out.numel() == 1
                if not numel_is_1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out_dtype.is_floating_point:
                    raise RuntimeError(
                        "grad can be implicitly created only for real scalar outputs but got "
                        f"{out_dtype}"
                    )
                if isinstance(out, GradientEdge):
                    new.append(ones(out_size, dtype=out_dtype, device=out_device))
                else:
                    new.append(ones_like(out, memory_format=preserve_format))
            else:
                new.append(None)
        else:
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return new


def _shape_str(shape: Any) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


def _edge(x: Any) -> tuple[Any, int]:
    if isinstance(x, GradientEdge):
        return (x.node, x.output_nr)
    return gradient_edge(x)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> Any:
    """Gradients of outputs with respect to inputs (torch.autograd.grad); no .grad written."""
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if is_tensor_like(outputs) or isinstance(outputs, GradientEdge):
        outs: tuple[Any, ...] = (outputs,)
    else:
        outs = tuple(outputs)
    if is_tensor_like(inputs) or isinstance(inputs, GradientEdge):
        ins: tuple[Any, ...] = (inputs,)
    elif type(inputs) is dict:
        ins = tuple(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(
            f"`inputs` argument to `grad()` must be a dict, not {type(inputs).__name__}. "
            "Other Mapping types are not supported."
        )
    else:
        ins = tuple(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    overridable = tuple(o for o in outs if is_tensor_like(o)) + tuple(
        i for i in ins if is_tensor_like(i)
    )
    if has_torch_function(overridable):
        result = handle_torch_function(
            grad,
            overridable,
            outs,
            ins,
            grad_outputs=grad_outputs,
            retain_graph=retain_graph,
            create_graph=create_graph,
            only_inputs=only_inputs,
            allow_unused=allow_unused,
            is_grads_batched=is_grads_batched,
            materialize_grads=materialize_grads,
        )
        return dict(zip(inputs.keys(), result)) if type(inputs) is dict else result
    if not only_inputs:
        warnings.warn(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To "
            "accumulate gradient for other parts of the graph, please use "
            "torch.autograd.backward.",
            FutureWarning,
            stacklevel=2,
        )
    if is_grads_batched:  # the engine's own (tensor-only) path
        result = engine.grad(
            list(outs),
            list(ins),
            grad_outputs,
            retain_graph,
            create_graph,
            allow_unused=allow_unused,
            is_grads_batched=True,
            materialize_grads=materialize_grads,
        )
        return dict(zip(inputs.keys(), result)) if type(inputs) is dict else result
    roots_grads = _make_grads(outs, _tensor_or_tensors_to_tuple(grad_outputs, len(outs)))
    if len(roots_grads) != len(outs):
        raise RuntimeError(f"got {len(outs)} tensors and {len(roots_grads)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    engine._check_outputs([o for o in outs if not isinstance(o, GradientEdge)])
    capture = []
    for t in ins:
        if not isinstance(t, GradientEdge) and not t._key_set & REQUIRES_GRAD_BIT:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        capture.append(_edge(t))
    roots = [(_edge(o), g) for o, g in zip(outs, roots_grads)]
    del roots_grads
    found = engine._run(roots, retain_graph, create_graph, capture, False)
    final = []
    for index, (t, g) in enumerate(zip(ins, found)):
        if g is None:
            if materialize_grads:
                if isinstance(t, GradientEdge):
                    raise RuntimeError(
                        "materialize_grads cannot be used when the given input is a GradientEdge"
                    )
                g = engine._ops().zeros_like.default(t)
                if create_graph:
                    g.requires_grad_(True)
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior."
                )
        final.append(g)
    result = tuple(final)
    return dict(zip(inputs.keys(), result)) if type(inputs) is dict else result
