"""The decompositions themselves (PyTorch's torch/_decomp/decompositions.py and
torch/_refs choices, written for keyroute's operators)."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from . import register_decomposition

aten = ops.aten


def _dims(x: Any) -> int:
    return x.dim()


@register_decomposition(aten.silu.default)
def silu(x: Any) -> Any:
    return aten.mul.Tensor(x, aten.sigmoid.default(x))


@register_decomposition(aten.t.default)
def t(x: Any) -> Any:
    if x.dim() < 2:
        return x if x.dim() == 1 else aten.alias.default(x)
    return aten.permute.default(x, [1, 0])


@register_decomposition(aten.transpose.int)
def transpose(x: Any, dim0: int, dim1: int) -> Any:
    n = max(x.dim(), 1)
    d0, d1 = dim0 % n, dim1 % n
    perm = list(range(x.dim()))
    if x.dim() > 1:
        perm[d0], perm[d1] = perm[d1], perm[d0]
    return aten.permute.default(x, perm)


@register_decomposition(aten._unsafe_view.default)
def _unsafe_view(x: Any, size: Any) -> Any:
    return aten.view.default(x, size)


@register_decomposition(aten.sum.default)
def sum_default(x: Any, *, dtype: Any = None) -> Any:
    if dtype is None:
        return aten.sum.dim_IntList(x, [])
    return aten.sum.dim_IntList(x, [], dtype=dtype)


def _factory(size: Any, value: Any, dtype: Any, layout: Any, device: Any, pin_memory: Any) -> Any:
    from ..tensor.device import Device
    from ..tensor.dtype import get_default_dtype
    from ..tensor.layout import strided

    return aten.full.default(
        list(size),
        value,
        dtype=dtype if dtype is not None else get_default_dtype(),
        layout=layout if layout is not None else strided,
        device=device if device is not None else Device("cpu"),
        pin_memory=bool(pin_memory),
    )


@register_decomposition(aten.ones.default)
def ones(
    size: Any, *, dtype: Any = None, layout: Any = None, device: Any = None, pin_memory: Any = None
) -> Any:
    return _factory(size, 1, dtype, layout, device, pin_memory)


@register_decomposition(aten.zeros.default)
def zeros(
    size: Any, *, dtype: Any = None, layout: Any = None, device: Any = None, pin_memory: Any = None
) -> Any:
    return _factory(size, 0, dtype, layout, device, pin_memory)


def _like(value: Any) -> Any:
    def fn(
        x: Any,
        *,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
        memory_format: Any = None,
    ) -> Any:
        from ..tensor.layout import preserve_format

        kw: dict[str, Any] = {}
        if dtype is not None:
            kw["dtype"] = dtype
        if layout is not None:
            kw["layout"] = layout
        if device is not None:
            kw["device"] = device
        kw["pin_memory"] = bool(pin_memory)
        kw["memory_format"] = memory_format if memory_format is not None else preserve_format
        return aten.full_like.default(x, value, **kw)

    return fn


register_decomposition(aten.zeros_like.default)(_like(0))
register_decomposition(aten.ones_like.default)(_like(1))


@register_decomposition(aten.zero_.default)
def zero_(x: Any) -> Any:
    from ..tensor.layout import preserve_format

    return aten.copy_.default(
        x, aten.full_like.default(x, 0, pin_memory=False, memory_format=preserve_format)
    )


@register_decomposition(aten.fill_.Scalar)
def fill_(x: Any, value: Any) -> Any:
    return aten.copy_.default(x, aten.full_like.default(x, value, pin_memory=False))


@register_decomposition(aten.split.Tensor)
def split(x: Any, split_size: int, dim: int = 0) -> Any:
    size = x.shape[dim]
    if split_size == 0:
        sizes = [0] if size == 0 else [size]
    else:
        sizes = [min(split_size, size - s) for s in range(0, size, split_size)] or [0]
    return aten.split_with_sizes.default(x, sizes, dim)


@register_decomposition(aten.unbind.int)
def unbind(x: Any, dim: int = 0) -> Any:
    dim = dim % max(x.dim(), 1)
    parts = [aten.slice.Tensor(x, dim, i, i + 1) for i in range(x.shape[dim])]
    return tuple(aten.squeeze.dims(p, [dim]) for p in parts)


@register_decomposition(aten.stack.default)
def stack(tensors: Any, dim: int = 0) -> Any:
    n = tensors[0].dim() + 1
    d = dim % n
    if d == n - 1:
        parts = [aten.unsqueeze.default(t, d) for t in tensors]
        return aten.cat.default(parts, d)
    shape = list(tensors[0].shape)
    cat = aten.cat.default(list(tensors), d)
    return aten.view.default(cat, shape[:d] + [len(tensors)] + shape[d:])


@register_decomposition(aten.masked_fill.Scalar)
def masked_fill(x: Any, mask: Any, value: Any) -> Any:
    from ..tensor.layout import strided

    st = aten.scalar_tensor.default(value, dtype=x.dtype, layout=strided, device=x.device)
    return aten.where.self(mask, st, x)


def _index_copy(inplace: bool) -> Any:
    def fn(x: Any, dim: int, index: Any, source: Any) -> Any:
        dim = dim % max(x.dim(), 1)
        if index.dim() == 0:
            index = aten.unsqueeze.default(index, 0)
        idx = [None] * dim + [index]
        op = aten.index_put_.default if inplace else aten.index_put.default
        return op(x, idx, source)

    return fn


register_decomposition(aten.index_copy_.default)(_index_copy(True))
register_decomposition(aten.index_copy.default)(_index_copy(False))


@register_decomposition(aten.nll_loss_forward.default)
def nll_loss_forward(self: Any, target: Any, weight: Any, reduction: int, ignore_index: int) -> Any:
    from ..tensor.layout import strided

    if weight is not None:
        return NotImplemented  # the weighted form is traced as the operator itself
    n_dims = self.dim()
    cd = 1 if n_dims >= 2 else 0
    safe = aten.where.self(
        aten.ne.Scalar(target, ignore_index),
        target,
        aten.scalar_tensor.default(0, dtype=target.dtype, layout=strided, device=target.device),
    )
    picked = aten.gather.default(self, cd, aten.unsqueeze.default(safe, cd))
    result = aten.neg.default(aten.squeeze.dims(picked, [cd]))
    result = aten.where.self(
        aten.ne.Scalar(target, ignore_index),
        result,
        aten.scalar_tensor.default(0, dtype=self.dtype, layout=strided, device=self.device),
    )
    if reduction == 0 and n_dims > 1:
        total = aten.full.default(
            [], 0.0, dtype=self.dtype, layout=strided, device=self.device, pin_memory=False
        )
        return result, total
    count = aten.sum.dim_IntList(aten.ne.Scalar(target, ignore_index), [])
    total = aten._to_copy.default(count, dtype=self.dtype, device=self.device)
    if reduction == 2:
        result = aten.sum.dim_IntList(result, [])
    elif reduction == 1:
        result = aten.div.Tensor(aten.sum.dim_IntList(result, []), total)
    return result, total
