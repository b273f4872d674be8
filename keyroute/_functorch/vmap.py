"""vmap: push a vmap level, wrap the inputs as BatchedTensors at it, run, unwrap the outputs
(torch/_functorch/vmap.py's behaviour and errors)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..layers.functorch import (
    add_batch_dim,
    is_batchedtensor,
    pop_layer,
    push_layer,
    remove_batch_dim,
)
from ..tensor._tensor import Tensor
from ..utils._pytree import _broadcast_to_and_flatten as broadcast_to_and_flatten
from ..utils._pytree import tree_flatten, tree_unflatten

__all__ = ["vmap"]


def _get_name(func: Any) -> str:
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_get_name(func.func)}, ...)"
    return repr(func)


def _check_out_dims(out_dims: Any, func: Any) -> None:
    if isinstance(out_dims, int):
        return
    leaves, _ = tree_flatten(out_dims)
    for x in leaves:
        if not (x is None or isinstance(x, int)):
            raise ValueError(
                f"vmap({_get_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, "
                f"None or a python collection of ints representing where in the outputs the "
                f"vmapped dimension should appear."
            )


def _process_inputs(in_dims: Any, args: tuple[Any, ...], func: Any) -> Any:
    name = _get_name(func)
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
            f"(potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}."
        )
    if len(args) == 0:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are "
            f"trying to vmap over a function with no inputs. The latter is unsupported."
        )
    flat_args, args_spec = tree_flatten(args)
    flat_in_dims = broadcast_to_and_flatten(in_dims, args_spec)
    if flat_in_dims is None:
        raise ValueError(
            f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
            f"structure of `inputs`. in_dims has structure {tree_flatten(in_dims)[1]} but inputs "
            f"has structure {args_spec}."
        )
    for i, (arg, in_dim) in enumerate(zip(flat_args, flat_in_dims)):
        if not isinstance(in_dim, int) and in_dim is not None:
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for an "
                f"input but in_dim must be either an integer dimension or None."
            )
        if isinstance(in_dim, int) and not isinstance(arg, Tensor):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for an "
                f"input but the input is of type {type(arg)}. We cannot vmap over non-Tensor "
                f"arguments, please use None as the respective in_dim"
            )
        if in_dim is not None and (in_dim < -arg.dim() or in_dim >= arg.dim()):
            raise ValueError(
                f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={in_dim} for some "
                f"input, but that input is a Tensor of dimensionality {arg.dim()} so expected "
                f"in_dim to satisfy -{arg.dim()} <= in_dim < {arg.dim()}."
            )
        if in_dim is not None and in_dim < 0:
            flat_in_dims[i] = in_dim % arg.dim()
    return _batch_size(flat_in_dims, flat_args), flat_in_dims, flat_args, args_spec


def _batch_size(flat_in_dims: list[Any], flat_args: list[Any]) -> int:
    sizes = [a.size(d) for d, a in zip(flat_in_dims, flat_args) if d is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(
            f"vmap: Expected all tensors to have the same size in the mapped dimension, got "
            f"sizes {sizes} for the mapped dimension"
        )
    return sizes[0]


def _unwrap_outputs(outputs: Any, out_dims: Any, level: int, batch_size: int, func: Any) -> Any:
    name = _get_name(func)
    flat, spec = tree_flatten(outputs)

    def incompatible() -> Any:
        raise ValueError(
            f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible with "
            f"the structure of `outputs`. out_dims has structure {tree_flatten(out_dims)[1]} "
            f"but outputs has structure {spec}."
        )

    if isinstance(outputs, Tensor):
        if isinstance(out_dims, int) or out_dims is None:
            flat_out_dims = [out_dims]
        elif isinstance(out_dims, tuple) and len(out_dims) == 1:
            flat_out_dims = list(out_dims)
        else:
            incompatible()
    else:
        flat_out_dims = broadcast_to_and_flatten(out_dims, spec)  # type: ignore[assignment]
        if flat_out_dims is None:
            incompatible()
    result = []
    for out, od in zip(flat, flat_out_dims):
        if od is None:
            if isinstance(out, Tensor) and is_batchedtensor(out) and out._level == level:
                raise ValueError(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is "
                    f"None"
                )
            result.append(out)
            continue
        if not isinstance(out, Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(out)}. "
                f"Did you mean to set out_dims= to None for output?"
            )
        result.append(remove_batch_dim(out, level, batch_size, od))
    return tree_unflatten(result, spec)


def _flat_vmap(
    func: Callable[..., Any],
    batch_size: int,
    flat_in_dims: list[Any],
    flat_args: list[Any],
    args_spec: Any,
    out_dims: Any,
    randomness: str,
    kwargs: dict[str, Any],
) -> Any:
    interp = push_layer("vmap", batch_size=batch_size, randomness=randomness)
    try:
        level = interp.level
        batched = [
            a if d is None else add_batch_dim(a, d, level) for a, d in zip(flat_args, flat_in_dims)
        ]
        outputs = func(*tree_unflatten(batched, args_spec), **kwargs)
        return _unwrap_outputs(outputs, out_dims, level, batch_size, func)
    finally:
        pop_layer(interp)


def _chunked_vmap(
    func: Callable[..., Any],
    batch_size: int,
    chunk_size: int,
    flat_in_dims: list[Any],
    flat_args: list[Any],
    args_spec: Any,
    out_dims: Any,
    randomness: str,
    kwargs: dict[str, Any],
) -> Any:
    from .. import random as _random
    from .._ops import ops

    bounds = list(range(chunk_size, batch_size, chunk_size))
    pieces = [
        a.tensor_split(bounds, d) if d is not None else [a] * (len(bounds) + 1)
        for a, d in zip(flat_args, flat_in_dims)
    ]
    state = _random.get_rng_state() if randomness == "same" else None
    chunks = []
    for chunk_args in zip(*pieces):
        n = _batch_size(flat_in_dims, list(chunk_args))
        if n == 0:
            continue
        if state is not None:
            _random.set_rng_state(state)
        chunks.append(
            _flat_vmap(
                func, n, flat_in_dims, list(chunk_args), args_spec, out_dims, randomness, kwargs
            )  # fmt: skip
        )
    flat_chunks = [tree_flatten(c)[0] for c in chunks]
    spec = tree_flatten(chunks[0])[1]
    flat_out_dims = broadcast_to_and_flatten(out_dims, spec)
    assert flat_out_dims is not None
    out = [
        ops.aten.cat.default([c[i] for c in flat_chunks], od) for i, od in enumerate(flat_out_dims)
    ]
    return tree_unflatten(out, spec)


def vmap(
    func: Callable[..., Any],
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable[..., Any]:
    """Vectorize `func` over dimension `in_dims` of its inputs (torch.func.vmap)."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            f"Only allowed values for randomness are 'error', 'different', or 'same'. Got "
            f"{randomness}"
        )
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        _check_out_dims(out_dims, func)
        batch_size, flat_in_dims, flat_args, args_spec = _process_inputs(in_dims, args, func)
        if chunk_size is not None and chunk_size < batch_size:
            return _chunked_vmap(func, batch_size, chunk_size, flat_in_dims, flat_args,
                                 args_spec, out_dims, randomness, kwargs)  # fmt: skip
        return _flat_vmap(
            func, batch_size, flat_in_dims, flat_args, args_spec, out_dims, randomness, kwargs
        )

    return wrapped
