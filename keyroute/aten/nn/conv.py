"""Convolution: the convolution meta with PyTorch's checks and output shape, and the
conv1d/conv2d/conv_transpose1d-3d decompositions (padding modes included)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...tensor._tensor import Tensor
from ...tensor.dtype import int64
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _ints, _not_implemented

# ----------------------------------------------------------------------------- convolution


# Legacy tensor type names (Tensor.type()) in the oneDNN path's dtype errors.
_LEGACY_TYPE = {
    "float32": "torch.FloatTensor",
    "float64": "torch.DoubleTensor",
    "float16": "torch.HalfTensor",
    "bfloat16": "CPUBFloat16Type",
    "int64": "torch.LongTensor",
    "int32": "torch.IntTensor",
    "int16": "torch.ShortTensor",
    "int8": "torch.CharTensor",
    "uint8": "torch.ByteTensor",
    "bool": "torch.BoolTensor",
}


def _legacy_type(dt: Any) -> str:
    return _LEGACY_TYPE.get(dt.name, dt.name)


def _conv_param_types(input: Tensor, weight: Tensor, bias: Any) -> None:
    """check_input_same_type_as_parameters: float16/bfloat16 inputs take the oneDNN path, which
    checks the weight's and bias's dtypes before any shape check of the kernel."""
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t._dtype is not input._dtype:
            raise RuntimeError(
                f"Input type ({_legacy_type(input._dtype)}) and {name} type "
                f"({_legacy_type(t._dtype)}) should be the same or input should be a MKLDNN "
                f"tensor and {name} is a dense tensor"
            )


def _conv_transpose_checks(
    ishape: Sequence[int],
    wshape: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    output_padding: Sequence[int],
) -> list[int]:
    """slow_conv_transpose{2,3}d's shape check (a 1-d convolution is viewed as 2-d, a unit
    height first); returns the output's spatial sizes."""
    nsp = len(wshape) - 2
    names = ("depth", "height", "width") if nsp == 3 else ("height", "width")
    lead = [0] * (len(names) - nsp)  # the 2-d view of a 1-d convolution: height 1, stride 1

    def view(v: Sequence[int], fill: int) -> list[int]:
        return [fill] * len(lead) + list(v)

    op_, st, dl = view(output_padding, 0), view(stride, 1), view(dilation, 1)
    if not all(o < s or o < d for o, s, d in zip(op_, st, dl)):
        parts = [f"output_padding_{n}: {v}" for n, v in zip(names, op_)]
        parts += [f"stride_{n}: {v}" for n, v in zip(names, st)]
        parts += [f"dilation_{n}: {v}" for n, v in zip(names, dl)]
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            + " ".join(parts)
        )
    out = [
        (ishape[i + 2] - 1) * stride[i]
        - 2 * padding[i]
        + dilation[i] * (wshape[i + 2] - 1)
        + 1
        + output_padding[i]
        for i in range(nsp)
    ]
    if any(o < 1 for o in out):
        sizes = view(ishape[2:], 1)
        outs = view(out, 1)
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, sizes))}). Calculated output "
            f"size per channel: ({' x '.join(map(str, outs))}). Output size is too small"
        )
    return out


def conv_output_shape(
    input: Tensor,
    weight: Tensor,
    bias: Any,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
) -> tuple[int, ...]:
    """at::native::_convolution's checks (check_shape_forward) and the output shape."""
    k = input.dim()
    wshape = list(shape_of(weight))
    wdim = len(wshape)
    check(wdim >= 3, f"weight should have at least three dimensions")  # noqa: F541
    nsp = wdim - 2

    def expand(name: str, v: Sequence[int]) -> list[int]:
        v = [int(x) for x in v]
        if len(v) == 1:
            return v * nsp
        check(
            len(v) == nsp,
            f"expected {name} to be a single integer value or a list of {nsp} values to match the "
            f"convolution dimensions, but got {name}={v}",
        )
        return v

    stride = expand("stride", stride)
    padding = expand("padding", padding)
    dilation = expand("dilation", dilation)
    output_padding = expand("output_padding", output_padding)
    check(groups > 0, "non-positive groups is not supported")
    check(all(p >= 0 for p in padding), "negative padding is not supported")
    check(all(p >= 0 for p in output_padding), "negative output_padding is not supported")
    check(all(s > 0 for s in stride), "non-positive stride is not supported")
    check(all(d > 0 for d in dilation), "dilation should be greater than zero")
    ishape = shape_of(input)
    check(
        wdim == k,
        f"Expected {wdim}-dimensional input for {wdim}-dimensional weight {wshape}, but got "
        f"{k}-dimensional input of size {list(ishape)} instead",
    )
    check(
        wshape[0] >= groups,
        f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
        f"weight of size {wshape} instead",
    )
    check(
        wshape[0] % groups == 0,
        f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
        f"got weight of size [{wshape}] instead",
    )
    if transposed:
        check(
            ishape[1] == wshape[0],
            f"Given transposed=1, weight of size {wshape}, expected input{list(ishape)} to have "
            f"{wshape[0]} channels, but got {ishape[1]} channels instead",
        )
        cout = wshape[1] * groups
        check(
            bias is None or (bias.dim() == 1 and shape_of(bias)[0] == cout),
            f"Given transposed=1, weight of size {wshape}, expected bias to be "
            f"1-dimensional with {cout} elements, but got bias of size "
            f"{list(shape_of(bias))} instead",
        )
        dt = input._dtype
        if dt.category == 2 and dt.itemsize == 2:
            _conv_param_types(input, weight, bias)
        out_sp = _conv_transpose_checks(ishape, wshape, stride, padding, dilation, output_padding)
        if dt.category != 2 and dt is not int64:
            _not_implemented(f"slow_conv_transpose{3 if nsp == 3 else 2}d_out_cpu", dt)
        check(
            weight._dtype is dt,
            f"expected scalar type {dt._short} but found {weight._dtype._short}",
        )
        if bias is not None and dt.category != 2 and bias._dtype.category >= 2:
            raise RuntimeError(
                f"result type {bias._dtype._short} can't be cast to the desired output type "
                f"{dt._short}"
            )
        return (ishape[0], cout, *out_sp)
    check(
        ishape[1] == wshape[1] * groups,
        f"Given groups={groups}, weight of size {wshape}, expected input{list(ishape)} to have "
        f"{wshape[1] * groups} channels, but got {ishape[1]} channels instead",
    )
    check(
        bias is None or (bias.dim() == 1 and shape_of(bias)[0] == wshape[0]),
        f"Given weight of size {wshape}, expected bias to be 1-dimensional with {wshape[0]} "
        f"elements, but got bias of size {list(shape_of(bias)) if bias is not None else []} "
        f"instead",
    )
    in_sz = [ishape[i + 2] + 2 * padding[i] for i in range(nsp)]
    k_sz = [dilation[i] * (wshape[i + 2] - 1) + 1 for i in range(nsp)]
    if any(a < b for a, b in zip(in_sz, k_sz)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, in_sz))}). Kernel "
            f"size: ({' x '.join(map(str, k_sz))}). Kernel size can't be greater than actual "
            f"input size"
        )
    if input._dtype.category == 2 and input._dtype.itemsize == 2:
        _conv_param_types(input, weight, bias)
    check(
        weight._dtype is input._dtype,
        f"expected scalar type {input._dtype._short} but found {weight._dtype._short}",
    )
    out_sp = [(in_sz[i] - k_sz[i]) // stride[i] + 1 for i in range(nsp)]
    return (ishape[0], wshape[0], *out_sp)


@meta(
    "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
    "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor"
)
def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    shape = conv_output_shape(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    )
    if input._dtype.category == 0 or input._dtype.category == 3:
        _not_implemented("slow_conv2d_cpu", input._dtype)
    return new_meta(shape, input._dtype)


out_variant(
    "convolution.out(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] "
    "padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, *, "
    "Tensor(a!) out) -> Tensor(a!)",
    "convolution",
    check=same_dtype,
)


def _batchify(input: Tensor, nsp: int, name: str) -> tuple[Tensor, bool]:
    nob = nsp + 1
    batched = input.dim() == nob + 1
    check(
        input.dim() == nob or batched,
        f"Expected {nob}D (unbatched) or {nob + 1}D (batched) input to {name}, but got input of "
        f"size: {list(shape_of(input))}",
    )
    return (input if batched else op("unsqueeze")(input, 0)), batched


def _conv_nd(input, weight, bias, stride, padding, dilation, groups, nsp: int, name: str):
    if bias is not None:
        check(
            bias._dtype is input._dtype,
            f"Input type ({input._dtype._cpp}) and bias type "
            f"({bias._dtype._cpp}) should be the same",
        )
    x, batched = _batchify(input, nsp, name)
    if isinstance(padding, str):
        out = _convolution_mode(
            x, weight, bias, _ints(stride, nsp), padding, _ints(dilation, nsp), groups
        )
    else:
        out = op("convolution")(
            x,
            weight,
            bias,
            _ints(stride, nsp),
            _ints(padding, nsp),
            _ints(dilation, nsp),
            False,
            [0] * nsp,
            groups,
        )
    return out if batched else op("squeeze.dim")(out, 0)


def _convolution_mode(input, weight, bias, stride, padding, dilation, groups):
    if padding == "same":
        return _convolution_same(input, weight, bias, stride, dilation, groups)
    if padding == "valid":
        return op("convolution")(input, weight, bias, stride, [0], dilation, False, [0], groups)
    raise RuntimeError(f"Invalid padding string: '{padding}'")


def _convolution_same(input, weight, bias, stride, dilation, groups):
    k = weight.dim()
    check(k > 2, "weight should have at least three dimensions")
    check(groups > 0, "non-positive groups is not supported")
    nd = k - 2
    ws = shape_of(weight)
    check(
        k == input.dim(),
        f"Expected {k}-dimensional input for {k}-dimensional weight{list(ws)}, but got "
        f"{input.dim()}-dimensional input of size {list(shape_of(input))} instead",
    )
    check(len(stride) in (nd, 1), f"stride cannot broadcast to {nd} dimensions")
    check(len(dilation) in (nd, 1), f"dilation cannot broadcast to {nd} dimensions")
    for s in stride:
        check(s == 1, "padding='same' is not supported for strided convolutions")
    pad_l: list[int] = []
    pad_r: list[int] = []
    symmetric = True
    for i in range(nd):
        d = dilation[0] if len(dilation) == 1 else dilation[i]
        total = d * (ws[i + 2] - 1)
        pad_l.append(total // 2)
        pad_r.append(total - total // 2)
        if total // 2 != total - total // 2:
            symmetric = False
    if symmetric:
        return op("convolution")(
            input, weight, bias, stride, pad_l, dilation, False, [0] * nd, groups
        )
    import warnings

    warnings.warn(
        "Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
        "copy of the input be created",
        UserWarning,
        stacklevel=4,
    )
    pad_nd = [0] * (2 * nd)
    for i in range(nd):
        delta = pad_r[i] - pad_l[i]
        idx = 2 * (nd - 1 - i)
        if delta > 0:
            pad_nd[idx + 1] = delta
        else:
            pad_nd[idx] = delta
            pad_l[i] = pad_r[i]
    padded = op("constant_pad_nd")(input, pad_nd, 0)
    return op("convolution")(padded, weight, bias, stride, pad_l, dilation, False, [0] * nd, groups)


@composite(
    "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], SymInt[2] "
    "padding=[0, 0], SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor"
)
def conv2d(input, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@composite(
    "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, 1], str "
    'padding="valid", SymInt[2] dilation=[1, 1], SymInt groups=1) -> Tensor'
)
def conv2d_padding(
    input, weight, bias=None, stride=(1, 1), padding="valid", dilation=(1, 1), groups=1
):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


@composite(
    "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], SymInt[1] "
    "padding=[0], SymInt[1] dilation=[1], SymInt groups=1) -> Tensor"
)
def conv1d(input, weight, bias=None, stride=(1,), padding=(0,), dilation=(1,), groups=1):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


@composite(
    "conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], str "
    'padding="valid", SymInt[1] dilation=[1], SymInt groups=1) -> Tensor'
)
def conv1d_padding(input, weight, bias=None, stride=(1,), padding="valid", dilation=(1,), groups=1):
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def _list(v: Any, n: int) -> list[int]:
    """A SymInt[n] argument as the arg parser hands it on: an int repeated n times, a list as
    it is (aten::convolution expands a single value)."""
    return [int(v)] * n if isinstance(v, int) else [int(x) for x in v]


def _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups, dilation, nsp):
    # at::native::conv_transpose{1,2,3}d: batchify, then one aten::convolution (transposed).
    x, batched = _batchify(input, nsp, f"conv_transpose{nsp}d")
    out = op("convolution")(
        x,
        weight,
        bias,
        _list(stride, nsp),
        _list(padding, nsp),
        _list(dilation, nsp),
        True,
        _list(output_padding, nsp),
        groups,
    )
    return out if batched else op("squeeze.dim")(out, 0)


@composite(
    "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], "
    "SymInt[1] padding=[0], SymInt[1] output_padding=[0], SymInt groups=1, SymInt[1] "
    "dilation=[1]) -> Tensor"
)
def conv_transpose1d(
    input,
    weight,
    bias=None,
    stride=(1,),
    padding=(0,),
    output_padding=(0,),
    groups=1,
    dilation=(1,),
):
    return _conv_transpose_nd(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 1
    )


@composite(
    "conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=[1, "
    "1], SymInt[2] padding=[0, 0], SymInt[2] output_padding=[0, 0], SymInt groups=1, SymInt[2] "
    "dilation=[1, 1]) -> Tensor"
)
def conv_transpose2d(
    input,
    weight,
    bias=None,
    stride=(1, 1),
    padding=(0, 0),
    output_padding=(0, 0),
    groups=1,
    dilation=(1, 1),
):
    return _conv_transpose_nd(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 2
    )


@composite(
    "conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=[1, "
    "1, 1], SymInt[3] padding=[0, 0, 0], SymInt[3] output_padding=[0, 0, 0], SymInt groups=1, "
    "SymInt[3] dilation=[1, 1, 1]) -> Tensor"
)
def conv_transpose3d(
    input,
    weight,
    bias=None,
    stride=(1, 1, 1),
    padding=(0, 0, 0),
    output_padding=(0, 0, 0),
    groups=1,
    dilation=(1, 1, 1),
):
    return _conv_transpose_nd(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 3
    )
