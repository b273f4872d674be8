"""Samples of the nn operators (see tests/ops/harness.py).

Normalization (native_layer_norm, layer_norm, rms_norm), embedding, dropout (random: shapes and
dtypes only), attention (the CPU flash kernel, its math path, the composite choosing between
them), losses (nll_loss_forward / nll_loss2d_forward and the composites over them,
cross_entropy_loss with label smoothing and probability targets, mse_loss, l1_loss,
binary_cross_entropy(_with_logits)), convolution and conv1d/conv2d, pooling, padding, one_hot.
Each with dtypes, non-contiguous and zero-size inputs, keyword arguments, out= forms and the
error cases. Sample ids are `<op>-<case>`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tests.ops.harness import Sample, noncontig, rand, tensor

SAMPLES: list[Sample] = []
Make = Callable[[Any, np.random.Generator], tuple[tuple[Any, ...], dict[str, Any]]]
FLOATS = ("float16", "bfloat16", "float32", "float64")


def _add(sid: str, op: str, make: Make, **kw: Any) -> None:
    SAMPLES.append(Sample(sid, op, make, **kw))


def T(shape: tuple[int, ...], dt: str = "float32", lo: float = -3, hi: float = 3) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def NC(shape: tuple[int, ...], dt: str = "float32") -> Any:
    return lambda M, r: noncontig(M, r, shape, dt)


def TR(shape: tuple[int, ...], d0: int, d1: int, dt: str = "float32") -> Any:
    """A tensor of `shape` made by transposing a contiguous one (non-contiguous, dense)."""

    def make(M: Any, r: np.random.Generator) -> Any:
        s = list(shape)
        s[d0], s[d1] = s[d1], s[d0]
        return rand(M, r, tuple(s), dt).transpose(d0, d1)

    return make


def L(values: Any, dt: str = "int64") -> Any:
    """A tensor of fixed values."""
    return lambda M, r: tensor(M, np.array(values, dtype=dt))


def IDX(shape: tuple[int, ...], high: int, dt: str = "int64") -> Any:
    return lambda M, r: tensor(M, r.integers(0, high, size=shape).astype(dt))


def PROB(shape: tuple[int, ...], dt: str = "float32") -> Any:
    """Rows of class probabilities (softmax over dim 1 / dim 0 for 1-D)."""

    def make(M: Any, r: np.random.Generator) -> Any:
        a = r.uniform(0.1, 1.0, shape)
        a = a / a.sum(axis=1 if len(shape) > 1 else 0, keepdims=True)
        return tensor(M, a.astype(dt))

    return make


def U(shape: tuple[int, ...], dt: str = "float32", lo: float = 0.05, hi: float = 0.95) -> Any:
    return lambda M, r: rand(M, r, shape, dt, lo, hi)


def BOOLMASK(shape: tuple[int, ...], full_row: int | None = None) -> Any:
    def make(M: Any, r: np.random.Generator) -> Any:
        a = r.random(shape) < 0.6
        a[..., 0] = True
        if full_row is not None:
            a[..., full_row, :] = False
        return tensor(M, a)

    return make


def EMPTY(shape: tuple[int, ...] = (0,), dt: str = "float32") -> Any:
    return lambda M, r: M.empty(shape, dtype=getattr(M, dt))


def mk(*specs: Any, **kwspecs: Any) -> Make:
    def make(M: Any, r: np.random.Generator) -> tuple[tuple[Any, ...], dict[str, Any]]:
        def build(s: Any) -> Any:
            if callable(s):
                return s(M, r)
            if isinstance(s, list):
                return [build(x) for x in s]
            return s

        return tuple(build(s) for s in specs), {k: build(v) for k, v in kwspecs.items()}

    return make


# ----------------------------------------------------------------------------- layer norm

_LN = "native_layer_norm"
for _dt in FLOATS:
    _add(
        f"native_layer_norm-{_dt}",
        _LN,
        mk(T((2, 3, 4), _dt), [4], T((4,), _dt), T((4,), _dt), 1e-5),
    )
_add("native_layer_norm-2d-shape", _LN, mk(T((2, 3, 4)), [3, 4], T((3, 4)), T((3, 4)), 1e-5))
_add("native_layer_norm-noaffine", _LN, mk(T((2, 3, 4)), [4], None, None, 1e-3))
_add("native_layer_norm-weight-only", _LN, mk(T((2, 3, 4)), [4], T((4,)), None, 1e-5))
_add("native_layer_norm-bias-only", _LN, mk(T((2, 3, 4)), [4], None, T((4,)), 1e-5))
_add("native_layer_norm-mixed-bf16", _LN, mk(T((2, 3, 4), "bfloat16"), [4], T((4,)), T((4,)), 1e-5))
_add("native_layer_norm-mixed-f16", _LN, mk(T((2, 3, 4), "float16"), [4], T((4,)), None, 1e-5))
_add("native_layer_norm-nc", _LN, mk(TR((2, 3, 4), 0, 1), [4], None, None, 1e-5))
_add("native_layer_norm-nc2", _LN, mk(TR((2, 4, 3), 1, 2), [3], T((3,)), None, 1e-5))
_add("native_layer_norm-1d", _LN, mk(T((5,)), [5], T((5,)), T((5,)), 1e-5))
_add("native_layer_norm-zero", _LN, mk(T((0, 4)), [4], None, None, 1e-5))
_add("native_layer_norm-const", _LN, mk(lambda M, r: M.ones(2, 4), [4], None, None, 1e-5))
_add("native_layer_norm-err-weight", _LN, mk(T((2, 3, 4)), [4], T((3,)), None, 1e-5))
_add("native_layer_norm-err-bias", _LN, mk(T((2, 3, 4)), [4], None, T((3,)), 1e-5))
_add("native_layer_norm-err-empty", _LN, mk(T((2, 3, 4)), [], None, None, 1e-5))
_add("native_layer_norm-err-shape", _LN, mk(T((2, 3, 4)), [5], None, None, 1e-5))
_add("native_layer_norm-err-shape2", _LN, mk(T((2, 3, 4)), [2, 3, 4, 5], None, None, 1e-5))
_add("native_layer_norm-err-int", _LN, mk(T((2, 4), "int64"), [4], None, None, 1e-5))
_add("native_layer_norm-err-mixed", _LN, mk(T((2, 4)), [4], T((4,), "bfloat16"), None, 1e-5))
_add("native_layer_norm-err-mixed64", _LN, mk(T((2, 4)), [4], T((4,), "float64"), None, 1e-5))
_add(
    "native_layer_norm-out",
    "native_layer_norm.out",
    mk(T((2, 4)), [4], None, None, 1e-5, out0=EMPTY(), out1=EMPTY(), out2=EMPTY()),
)
_add(
    "native_layer_norm-out-dtype",
    "native_layer_norm.out",
    mk(T((2, 4)), [4], None, None, 1e-5, out0=EMPTY(), out1=EMPTY(), out2=EMPTY(dt="int64")),
)

for _dt in FLOATS:
    _add(f"layer_norm-{_dt}", "layer_norm", mk(T((2, 3, 4), _dt), [4], T((4,), _dt), T((4,), _dt)))
_add("layer_norm-defaults", "layer_norm", mk(T((2, 3, 4)), [3, 4]))
_add("layer_norm-eps", "layer_norm", mk(T((2, 3, 4)), [4], eps=0.5))
_add("layer_norm-err", "layer_norm", mk(T((2, 3, 4)), [3]))

# ----------------------------------------------------------------------------- rms norm

for _dt in FLOATS:
    _add(f"rms_norm-{_dt}", "rms_norm", mk(T((2, 3, 4), _dt), [4], T((4,), _dt)))
_add("rms_norm-noweight", "rms_norm", mk(T((2, 3, 4)), [4]))
_add("rms_norm-2d-shape", "rms_norm", mk(T((2, 3, 4)), [3, 4], T((3, 4)), eps=1e-3))
_add("rms_norm-eps", "rms_norm", mk(T((2, 3, 4)), [4], None, 0.25))
_add("rms_norm-mixed", "rms_norm", mk(T((2, 4), "bfloat16"), [4], T((4,))))
_add("rms_norm-mixed2", "rms_norm", mk(T((2, 4)), [4], T((4,), "float64")))
_add("rms_norm-nc", "rms_norm", mk(TR((2, 4, 3), 1, 2), [3]))
_add("rms_norm-zeros", "rms_norm", mk(lambda M, r: M.zeros(2, 4), [4]))
_add("rms_norm-zero-size", "rms_norm", mk(T((0, 4)), [4]))
_add("rms_norm-complex", "rms_norm", mk(T((2, 4), "complex64"), [4]))
_add("rms_norm-err-shape", "rms_norm", mk(T((2, 3, 4)), [5]))
_add("rms_norm-err-shape2", "rms_norm", mk(T((2, 3, 4)), [2, 4]))
_add("rms_norm-err-weight", "rms_norm", mk(T((2, 3, 4)), [4], T((3,))))
_add("rms_norm-err-int", "rms_norm", mk(T((2, 4), "int64"), [4]))
_add("rms_norm-err-empty", "rms_norm", mk(T((2, 4)), []))

# ----------------------------------------------------------------------------- embedding

for _dt in ("float16", "bfloat16", "float32", "float64", "int64", "int32", "bool"):
    _add(f"embedding-{_dt}", "embedding", mk(T((5, 3), _dt), IDX((2, 2), 5)))
_add("embedding-int32-idx", "embedding", mk(T((5, 3)), IDX((2, 3), 5, "int32")))
_add("embedding-1d-idx", "embedding", mk(T((5, 3)), IDX((4,), 5)))
_add("embedding-0d-idx", "embedding", mk(T((5, 3)), lambda M, r: M.tensor(2)))
_add("embedding-3d-idx", "embedding", mk(T((5, 2)), IDX((2, 2, 2), 5)))
_add("embedding-empty-idx", "embedding", mk(T((5, 3)), IDX((0,), 5)))
_add("embedding-padding-idx", "embedding", mk(T((5, 3)), L([[0, 1], [1, 4]]), 1))
_add(
    "embedding-kwargs",
    "embedding",
    mk(T((5, 3)), L([0, 4]), padding_idx=0, scale_grad_by_freq=True),
)
_add("embedding-nc-weight", "embedding", mk(NC((5, 3)), IDX((2, 2), 5)))
_add("embedding-err-oob", "embedding", mk(T((5, 3)), L([0, 5])), tags=("no_meta",))
_add("embedding-err-neg", "embedding", mk(T((5, 3)), L([0, -1])), tags=("no_meta",))
_add("embedding-err-float-idx", "embedding", mk(T((5, 3)), L([0.0, 1.0], "float32")))
_add("embedding-err-1d-weight", "embedding", mk(T((5,)), L([0, 1])))
_add("embedding-err-3d-weight", "embedding", mk(T((5, 2, 2)), L([0, 1])))
_add("embedding-out", "embedding.out", mk(T((5, 3)), L([0, 2]), out=EMPTY()))
_add("embedding-out-dtype", "embedding.out", mk(T((5, 3)), L([0, 2]), out=EMPTY(dt="int64")))

# ----------------------------------------------------------------------------- dropout

for _dt in FLOATS:
    _add(
        f"native_dropout-{_dt}", "native_dropout", mk(T((2, 3, 4), _dt), 0.5, True), compare="shape"
    )
_add("native_dropout-eval", "native_dropout", mk(T((2, 3, 4)), 0.5, False))
_add("native_dropout-train-none", "native_dropout", mk(T((2, 3)), 0.5, None), compare="shape")
_add("native_dropout-nc", "native_dropout", mk(TR((2, 3, 4), 0, 2), 0.3, True), compare="shape")
_add("native_dropout-nc-eval", "native_dropout", mk(TR((2, 3, 4), 0, 2), 0.3, False))
_add("native_dropout-p0", "native_dropout", mk(T((2, 3)), 0.0, True))
_add("native_dropout-p1", "native_dropout", mk(T((2, 3)), 1.0, True))
_add("native_dropout-empty", "native_dropout", mk(T((0, 3)), 0.5, True))
_add("native_dropout-int-eval", "native_dropout", mk(T((2, 3), "int64"), 0.5, False))
_add("native_dropout-err-p", "native_dropout", mk(T((2, 3)), 1.5, True))
_add("native_dropout-err-int", "native_dropout", mk(T((2, 3), "int64"), 0.5, True))
_add(
    "native_dropout-out",
    "native_dropout.out",
    mk(T((2, 3)), 0.5, False, out0=EMPTY(), out1=EMPTY(dt="bool")),
)
_add(
    "native_dropout-out-dtype",
    "native_dropout.out",
    mk(T((2, 3)), 0.5, False, out0=EMPTY(), out1=EMPTY()),
)

for _dt in FLOATS:
    _add(f"dropout-{_dt}", "dropout", mk(T((2, 3, 4), _dt), 0.5, True), compare="shape")
_add("dropout-eval", "dropout", mk(T((2, 3)), 0.5, False))
_add("dropout-p0", "dropout", mk(T((2, 3)), 0.0, True))
_add("dropout-p1", "dropout", mk(T((2, 3)), 1.0, True))
_add("dropout-nc", "dropout", mk(TR((2, 3, 4), 0, 2), 0.3, True), compare="shape")
_add("dropout-empty", "dropout", mk(T((0, 3)), 0.5, True))
_add("dropout-err-p", "dropout", mk(T((2, 3)), 1.5, True))
_add("dropout-err-neg", "dropout", mk(T((2, 3)), -0.5, False))
_add("dropout-err-int", "dropout", mk(T((2, 3), "int64"), 0.5, True))
_add("dropout_-train", "dropout_", mk(T((2, 3)), 0.5, True), compare="shape")
_add("dropout_-eval", "dropout_", mk(T((2, 3)), 0.5, False))
_add("dropout_-p1", "dropout_", mk(T((2, 3)), 1.0, True))

# ----------------------------------------------------------------------------- attention

_SDPA = "scaled_dot_product_attention"
_FLASH = "_scaled_dot_product_flash_attention_for_cpu"
_MATH = "_scaled_dot_product_attention_math"
_Q, _K = (1, 2, 3, 4), (1, 2, 5, 4)
for _dt in FLOATS:
    _add(f"sdpa-{_dt}", _SDPA, mk(T(_Q, _dt), T(_K, _dt), T(_K, _dt)))
    _add(f"flash-{_dt}", _FLASH, mk(T(_Q, _dt), T(_K, _dt), T(_K, _dt)))
    _add(f"sdpa-math-{_dt}", _SDPA, mk(T(_Q, _dt), T(_K, _dt), T((1, 2, 5, 3), _dt)))
_add("sdpa-causal", _SDPA, mk(T(_Q), T(_K), T(_K), is_causal=True))
_add(
    "sdpa-causal-square",
    _SDPA,
    mk(T((1, 2, 4, 4)), T((1, 2, 4, 4)), T((1, 2, 4, 4)), None, 0.0, True),
)
_add("sdpa-scale", _SDPA, mk(T(_Q), T(_K), T(_K), scale=0.3))
_add("sdpa-neg-scale-math", _SDPA, mk(T(_Q), T(_K), T((1, 2, 5, 2)), scale=-0.5))
_add("sdpa-boolmask", _SDPA, mk(T(_Q), T(_K), T(_K), BOOLMASK((3, 5))))
_add("sdpa-boolmask-fullrow", _SDPA, mk(T(_Q), T(_K), T(_K), BOOLMASK((3, 5), full_row=1)))
_add("sdpa-floatmask", _SDPA, mk(T(_Q), T(_K), T(_K), T((1, 1, 3, 5))))
_add("sdpa-floatmask4d", _SDPA, mk(T(_Q), T(_K), T(_K), T((1, 2, 3, 5))))
_add("sdpa-mask-3d", _SDPA, mk(T(_Q), T(_K), T(_K), T((2, 3, 5))))
_add("sdpa-mask-bcast-row", _SDPA, mk(T(_Q), T(_K), T(_K), T((1, 5))))
_add("sdpa-math-boolmask", _SDPA, mk(T(_Q), T(_K), T((1, 2, 5, 3)), BOOLMASK((3, 5), 0)))
_add("sdpa-math-causal", _SDPA, mk(T(_Q), T(_K), T((1, 2, 5, 3)), is_causal=True))
_add("sdpa-math-floatmask", _SDPA, mk(T(_Q), T(_K), T((1, 2, 5, 3)), T((3, 5))))
_add("sdpa-3d", _SDPA, mk(T((2, 3, 4)), T((2, 5, 4)), T((2, 5, 4))))
_add("sdpa-2d", _SDPA, mk(T((3, 4)), T((5, 4)), T((5, 4))))
_add("sdpa-5d", _SDPA, mk(T((1, 2, 1, 3, 4)), T((1, 2, 1, 5, 4)), T((1, 2, 1, 5, 4))))
_add("sdpa-gqa", _SDPA, mk(T((1, 4, 3, 4)), T((1, 2, 5, 4)), T((1, 2, 5, 4)), enable_gqa=True))
_add("sdpa-gqa-math", _SDPA, mk(T((1, 4, 3, 4)), T((1, 2, 5, 4)), T((1, 2, 5, 3)), enable_gqa=True))
_add("sdpa-bcast-batch", _SDPA, mk(T((2, 2, 3, 4)), T((1, 2, 5, 4)), T((1, 2, 5, 4))))
_add("sdpa-nc-heads", _SDPA, mk(TR(_Q, 1, 2), T(_K), T(_K)))
_add("sdpa-nc-last", _SDPA, mk(TR(_Q, 2, 3), T(_K), T(_K)))
_add("sdpa-zero-batch", _SDPA, mk(T((0, 2, 3, 4)), T((0, 2, 5, 4)), T((0, 2, 5, 3))))
_add("sdpa-zero-L", _SDPA, mk(T((1, 2, 0, 4)), T(_K), T(_K)))
_add("sdpa-zero-S", _SDPA, mk(T(_Q), T((1, 2, 0, 4)), T((1, 2, 0, 4))))
_add("sdpa-dropout-p1", _SDPA, mk(T(_Q), T(_K), T(_K), None, 1.0))
_add("sdpa-dropout", _SDPA, mk(T(_Q), T(_K), T(_K), None, 0.5), compare="shape")
_add("sdpa-err-causal-mask", _SDPA, mk(T(_Q), T(_K), T(_K), T((3, 5)), 0.0, True))
_add("sdpa-err-dtype", _SDPA, mk(T(_Q), T(_K, "float64"), T(_K)))
_add("sdpa-err-1d", _SDPA, mk(T((4,)), T((4,)), T((4,))))
_add("sdpa-err-maskdtype", _SDPA, mk(T(_Q), T(_K), T(_K), IDX((3, 5), 2)))
_add("sdpa-err-head", _SDPA, mk(T(_Q), T((1, 2, 5, 3)), T(_K)))
_add("sdpa-err-int", _SDPA, mk(T(_Q, "int32"), T(_K, "int32"), T(_K, "int32")))
_add("flash-causal", _FLASH, mk(T(_Q), T(_K), T(_K), 0.0, True))
_add("flash-scale", _FLASH, mk(T(_Q), T(_K), T(_K), scale=2.0))
_add("flash-mask2d", _FLASH, mk(T(_Q), T(_K), T(_K), attn_mask=T((3, 5))))
_add("flash-mask4d", _FLASH, mk(T(_Q), T(_K), T(_K), attn_mask=T((1, 2, 3, 5))))
_INF_ROWS = [[0.0] * 5, [float("-inf")] * 5, [0.0, 1.0, 2.0, 0.0, 0.0]]
_add(
    "flash-mask-inf-row",
    _FLASH,
    mk(T(_Q), T(_K), T(_K), attn_mask=lambda M, r: M.tensor(_INF_ROWS)),
)
_add(
    "flash-f32mask-bf16",
    _FLASH,
    mk(T(_Q, "bfloat16"), T(_K, "bfloat16"), T(_K, "bfloat16"), attn_mask=T((3, 5))),
)
_add("flash-gqa", _FLASH, mk(T((1, 4, 3, 4)), T((1, 2, 5, 4)), T((1, 2, 5, 4))))
_add("flash-nc", _FLASH, mk(TR(_Q, 1, 2), T(_K), T(_K)))
_add("flash-err-int", _FLASH, mk(T(_Q, "int32"), T(_K, "int32"), T(_K, "int32")))
_add("flash-err-3d", _FLASH, mk(T((2, 3, 4)), T((2, 5, 4)), T((2, 5, 4))))
_add("flash-err-dropout", _FLASH, mk(T(_Q), T(_K), T(_K), 0.5))
_add("flash-err-head", _FLASH, mk(T(_Q), T(_K), T((1, 2, 5, 3))))
_add("flash-err-maskdim", _FLASH, mk(T(_Q), T(_K), T(_K), attn_mask=T((2, 3, 5))))
_add("flash-err-maskdtype", _FLASH, mk(T(_Q), T(_K), T(_K), attn_mask=T((3, 5), "float64")))
_add("flash-err-dtype", _FLASH, mk(T(_Q), T(_K, "float64"), T(_K)))
_add("sdpa_math-basic", _MATH, mk(T(_Q), T(_K), T((1, 2, 5, 3))))
_add("sdpa_math-causal", _MATH, mk(T(_Q), T(_K), T(_K), None, 0.0, True))
_add("sdpa_math-mask", _MATH, mk(T(_Q), T(_K), T(_K), T((3, 5))))
_add("sdpa_math-f16", _MATH, mk(T(_Q, "float16"), T(_K, "float16"), T(_K, "float16")))
_add("sdpa_math-gqa", _MATH, mk(T((1, 4, 3, 4)), T((1, 2, 5, 4)), T((1, 2, 5, 4)), enable_gqa=True))
_add("safe_softmax-basic", "_safe_softmax", mk(T((2, 3)), -1))
_add("safe_softmax-dim0", "_safe_softmax", mk(T((2, 3)), 0))
_add("safe_softmax-dtype", "_safe_softmax", mk(T((2, 3)), 1, dtype=None))
_add("safe_softmax-f16", "_safe_softmax", mk(T((2, 3), "float16"), 1))
_add("safe_softmax-nc", "_safe_softmax", mk(NC((2, 3)), 1))
_add(
    "safe_softmax-inf-row",
    "_safe_softmax",
    mk(lambda M, r: M.tensor([[float("-inf")] * 3, [1.0, 2.0, 3.0]]), -1),
)
_add("safe_softmax-err-int", "_safe_softmax", mk(T((2, 3), "int64"), 0))
_add("safe_softmax-err-dim", "_safe_softmax", mk(T((2, 3)), 2))

# ----------------------------------------------------------------------------- losses

_NLL = "nll_loss_forward"
for _red in (0, 1, 2):
    _add(f"nll_loss_forward-r{_red}", _NLL, mk(T((4, 5)), IDX((4,), 5), None, _red, -100))
    _add(f"nll_loss_forward-w-r{_red}", _NLL, mk(T((4, 5)), IDX((4,), 5), U((5,)), _red, -100))
    _add(f"nll_loss_forward-ignore-r{_red}", _NLL, mk(T((4, 5)), L([1, 2, 1, 0]), U((5,)), _red, 1))
    _add(f"nll_loss_forward-1d-r{_red}", _NLL, mk(T((5,)), L(2), None, _red, -100))
    _add(
        f"nll_loss2d_forward-r{_red}",
        "nll_loss2d_forward",
        mk(T((2, 3, 2, 2)), IDX((2, 2, 2), 3), U((3,)), _red, 0),
    )
_add("nll_loss_forward-all-ignored", _NLL, mk(T((2, 5)), L([1, 1]), None, 1, 1))
_add("nll_loss_forward-f64", _NLL, mk(T((3, 4), "float64"), IDX((3,), 4), None, 1, -100))
_add("nll_loss_forward-bf16", _NLL, mk(T((3, 4), "bfloat16"), IDX((3,), 4), None, 1, -100))
_add("nll_loss_forward-f16", _NLL, mk(T((3, 4), "float16"), IDX((3,), 4), None, 1, -100))
_add("nll_loss_forward-uint8-target", _NLL, mk(T((3, 4)), IDX((3,), 4, "uint8"), None, 1, -100))
_add("nll_loss_forward-nc", _NLL, mk(NC((3, 4)), IDX((3,), 4), None, 2, -100))
_add("nll_loss_forward-empty", _NLL, mk(T((0, 4)), IDX((0,), 4), None, 1, -100))
_NM = ("no_meta",)  # data-dependent errors: meta tensors cannot see them
_add("nll_loss_forward-err-oob", _NLL, mk(T((3, 4)), L([0, 4, 1]), None, 1, -100), tags=_NM)
_add("nll_loss_forward-err-neg", _NLL, mk(T((3, 4)), L([0, -1, 1]), None, 1, -100), tags=_NM)
_add("nll_loss_forward-err-size", _NLL, mk(T((3, 4)), IDX((2,), 4), None, 1, -100))
_add("nll_loss_forward-err-1d-size", _NLL, mk(T((5,)), L([1, 2]), None, 1, -100))
_add("nll_loss_forward-1d-ignored", _NLL, mk(T((5,)), L(2), None, 1, 2))
_add("nll_loss_forward-err-3d", _NLL, mk(T((2, 3, 4)), IDX((2,), 3), None, 1, -100))
_add("nll_loss_forward-err-2d-target", _NLL, mk(T((2, 4)), IDX((2, 1), 4), None, 1, -100))
_add("nll_loss_forward-err-weight", _NLL, mk(T((3, 4)), IDX((3,), 4), U((3,)), 1, -100))
_add("nll_loss_forward-err-int32", _NLL, mk(T((3, 4)), IDX((3,), 4, "int32"), None, 1, -100))
_add("nll_loss_forward-err-int-input", _NLL, mk(T((3, 4), "int64"), IDX((3,), 4), None, 1, -100))
_add(
    "nll_loss_forward-out",
    "nll_loss_forward.output",
    mk(T((3, 4)), IDX((3,), 4), None, 1, -100, output=EMPTY(), total_weight=EMPTY()),
)
_add(
    "nll_loss2d_forward-err-dims",
    "nll_loss2d_forward",
    mk(T((2, 3, 4)), IDX((2, 4), 3), None, 1, -100),
)
_add(
    "nll_loss2d_forward-err-size",
    "nll_loss2d_forward",
    mk(T((2, 3, 2, 2)), IDX((2, 2, 3), 3), None, 1, -100),
)
for _red in (0, 1, 2):
    _add(f"nll_loss_nd-3d-r{_red}", "nll_loss_nd", mk(T((2, 3, 4)), IDX((2, 4), 3), None, _red))
    _add(
        f"nll_loss_nd-5d-r{_red}",
        "nll_loss_nd",
        mk(T((2, 3, 2, 1, 2)), IDX((2, 2, 1, 2), 3), None, _red),
    )
_add("nll_loss_nd-2d", "nll_loss_nd", mk(T((3, 4)), IDX((3,), 4)))
_add("nll_loss_nd-1d", "nll_loss_nd", mk(T((4,)), L(1), reduction=2))
_add("nll_loss_nd-4d", "nll_loss_nd", mk(T((2, 3, 2, 2)), IDX((2, 2, 2), 3), U((3,))))
_add("nll_loss_nd-ignore", "nll_loss_nd", mk(T((3, 4)), L([0, 1, 2]), ignore_index=1))
_add("nll_loss_nd-err-0d", "nll_loss_nd", mk(lambda M, r: M.tensor(1.0), L(0)))
_add("nll_loss_nd-err-batch", "nll_loss_nd", mk(T((3, 4)), IDX((2,), 4)))
_add("nll_loss_nd-err-target", "nll_loss_nd", mk(T((2, 3, 4)), IDX((2, 5), 3)))
_add("nll_loss-basic", "nll_loss", mk(T((3, 4)), IDX((3,), 4), U((4,)), 2, -100))
_add("nll_loss2d-basic", "nll_loss2d", mk(T((2, 3, 2, 2)), IDX((2, 2, 2), 3)))

_CE = "cross_entropy_loss"
for _red in (0, 1, 2):
    _add(f"cross_entropy-r{_red}", _CE, mk(T((3, 5)), IDX((3,), 5), None, _red))
    _add(f"cross_entropy-ls-r{_red}", _CE, mk(T((3, 5)), L([1, 0, 4]), None, _red, -100, 0.1))
    # mean: masked_select (data-dependent shape) unless a mode is active, as in PyTorch
    _add(
        f"cross_entropy-ls-w-r{_red}",
        _CE,
        mk(T((3, 5)), L([1, 0, 4]), U((5,)), _red, 1, 0.2),
        tags=("no_meta",) if _red == 1 else (),
    )
    _add(f"cross_entropy-prob-r{_red}", _CE, mk(T((3, 5)), PROB((3, 5)), None, _red))
    _add(f"cross_entropy-prob-w-r{_red}", _CE, mk(T((3, 5)), PROB((3, 5)), U((5,)), _red))
_add("cross_entropy-ls-ignore", _CE, mk(T((3, 5)), L([1, 0, 4]), None, 1, 0, 0.3))
_add("cross_entropy-prob-ls", _CE, mk(T((3, 5)), PROB((3, 5)), None, 1, -100, 0.2))
_add("cross_entropy-1d", _CE, mk(T((5,)), L(3)))
_add("cross_entropy-1d-prob", _CE, mk(T((5,)), PROB((5,))))
_add("cross_entropy-4d", _CE, mk(T((2, 3, 2, 2)), IDX((2, 2, 2), 3)))
_add("cross_entropy-3d-ls", _CE, mk(T((2, 3, 4)), IDX((2, 4), 3), None, 1, -100, 0.1))
_add("cross_entropy-ignore", _CE, mk(T((3, 5)), L([1, 0, 4]), None, 1, 4))
_add("cross_entropy-f64", _CE, mk(T((3, 5), "float64"), IDX((3,), 5)))
_add("cross_entropy-bf16", _CE, mk(T((3, 5), "bfloat16"), IDX((3,), 5)))
_add("cross_entropy-err-prob-int", _CE, mk(T((3, 5)), IDX((3, 5), 2)))
_add("cross_entropy-err-prob-ignore", _CE, mk(T((3, 5)), PROB((3, 5)), None, 1, 2))
_add("cross_entropy-err-ls", _CE, mk(T((3, 5)), L([1, 0, 4]), None, 1, -100, 1.5))
_add("cross_entropy-err-batch", _CE, mk(T((3, 5)), L([1, 0])))
_add("cross_entropy-err-weight", _CE, mk(T((3, 5)), PROB((3, 5)), U((4,))))

for _red in (0, 1, 2):
    _add(f"mse_loss-r{_red}", "mse_loss", mk(T((3, 4)), T((3, 4)), _red))
    _add(f"l1_loss-r{_red}", "l1_loss", mk(T((3, 4)), T((3, 4)), _red))
    _add(
        f"binary_cross_entropy-r{_red}",
        "binary_cross_entropy",
        mk(U((3, 4)), U((3, 4), lo=0, hi=1), None, _red),
    )
    _add(
        f"bce_with_logits-r{_red}",
        "binary_cross_entropy_with_logits",
        mk(T((3, 4)), U((3, 4), lo=0, hi=1), None, None, _red),
    )
for _dt in FLOATS:
    _add(f"mse_loss-{_dt}", "mse_loss", mk(T((3, 4), _dt), T((3, 4), _dt)))
_add("mse_loss-bcast", "mse_loss", mk(T((3, 4)), T((4,)), 0))
_add("mse_loss-promote", "mse_loss", mk(T((3, 4)), T((3, 4), "float64")))
_add("mse_loss-empty", "mse_loss", mk(T((0, 4)), T((0, 4))))
_add("mse_loss-nc", "mse_loss", mk(NC((3, 4)), T((3, 4)), 0))
_add("mse_loss-out", "mse_loss.out", mk(T((3, 4)), T((3, 4)), out=EMPTY()))
_add("mse_loss-err-shape", "mse_loss", mk(T((3, 4)), T((3, 5))))
_add("l1_loss-bcast", "l1_loss", mk(T((3, 4)), T((4,))))
_add("binary_cross_entropy-w", "binary_cross_entropy", mk(U((3, 4)), U((3, 4)), U((3, 4))))
_add(
    "binary_cross_entropy-edges",
    "binary_cross_entropy",
    mk(L([0.0, 1.0, 0.5, 1.0], "float32"), L([0.0, 1.0, 0.5, 0.0], "float32"), None, 0),
)
_add(
    "binary_cross_entropy-f64",
    "binary_cross_entropy",
    mk(U((3, 4), "float64"), U((3, 4), "float64")),
)
_add(
    "binary_cross_entropy-err-range",
    "binary_cross_entropy",
    mk(T((3, 4)), U((3, 4))),
    tags=("no_meta",),
)
_add("binary_cross_entropy-bcast", "binary_cross_entropy", mk(U((3, 4)), U((4,))))
_add("binary_cross_entropy-err-shape", "binary_cross_entropy", mk(U((3, 4)), U((2, 4))))
_add(
    "bce_with_logits-weights",
    "binary_cross_entropy_with_logits",
    mk(T((3, 4)), U((3, 4)), U((4,)), U((4,))),
)
_add(
    "bce_with_logits-large",
    "binary_cross_entropy_with_logits",
    mk(L([-100.0, 100.0, 0.0], "float32"), L([1.0, 0.0, 0.5], "float32"), None, None, 0),
)

# ----------------------------------------------------------------------------- convolution

_CONV = "convolution"


def _conv_args(
    x: Any,
    w: Any,
    b: Any = None,
    stride: Any = (1, 1),
    padding: Any = (0, 0),
    dilation: Any = (1, 1),
    groups: int = 1,
) -> Make:
    return mk(
        x, w, b, list(stride), list(padding), list(dilation), False, [0] * len(stride), groups
    )


_add("convolution-2d", _CONV, _conv_args(T((1, 2, 5, 5)), T((3, 2, 3, 3))))
_add("convolution-2d-bias", _CONV, _conv_args(T((2, 2, 4, 4)), T((3, 2, 3, 3)), T((3,))))
_add(
    "convolution-2d-stride-pad",
    _CONV,
    _conv_args(T((1, 2, 5, 5)), T((2, 2, 3, 3)), T((2,)), (2, 2), (1, 1)),
)
_add(
    "convolution-2d-asym",
    _CONV,
    _conv_args(T((1, 1, 5, 6)), T((2, 1, 2, 3)), None, (1, 2), (0, 1), (2, 1)),
)
_add(
    "convolution-2d-dilation",
    _CONV,
    _conv_args(T((1, 1, 6, 6)), T((1, 1, 3, 3)), None, (1, 1), (2, 2), (2, 2)),
)
_add(
    "convolution-2d-groups", _CONV, _conv_args(T((1, 4, 4, 4)), T((4, 2, 2, 2)), T((4,)), groups=2)
)
_add(
    "convolution-2d-depthwise",
    _CONV,
    _conv_args(T((1, 3, 4, 4)), T((3, 1, 3, 3)), None, padding=(1, 1), groups=3),
)
_add("convolution-2d-1x1", _CONV, _conv_args(T((2, 3, 3, 3)), T((4, 3, 1, 1))))
_add("convolution-2d-nc", _CONV, _conv_args(TR((1, 2, 4, 4), 2, 3), TR((2, 2, 2, 2), 0, 1)))
_add(
    "convolution-2d-f64", _CONV, _conv_args(T((1, 2, 4, 4), "float64"), T((2, 2, 2, 2), "float64"))
)
_add(
    "convolution-2d-f16", _CONV, _conv_args(T((1, 2, 4, 4), "float16"), T((2, 2, 2, 2), "float16"))
)
_add(
    "convolution-2d-bf16",
    _CONV,
    _conv_args(T((1, 2, 4, 4), "bfloat16"), T((2, 2, 2, 2), "bfloat16")),
)
_add("convolution-2d-zero-batch", _CONV, _conv_args(T((0, 2, 4, 4)), T((2, 2, 2, 2))))
_add("convolution-1d", _CONV, mk(T((2, 3, 7)), T((4, 3, 3)), T((4,)), [2], [1], [1], False, [0], 1))
_add(
    "convolution-1d-dil", _CONV, mk(T((1, 2, 9)), T((2, 2, 3)), None, [1], [0], [3], False, [0], 1)
)
_add(
    "convolution-3d",
    _CONV,
    mk(
        T((1, 1, 3, 3, 3)),
        T((2, 1, 2, 2, 2)),
        None,
        [1, 1, 1],
        [0, 0, 0],
        [1, 1, 1],
        False,
        [0, 0, 0],
        1,
    ),
)
_add(
    "convolution-single-params",
    _CONV,
    mk(T((1, 2, 5, 5)), T((2, 2, 3, 3)), None, [2], [1], [1], False, [0], 1),
)
_add("convolution-err-channels", _CONV, _conv_args(T((1, 3, 4, 4)), T((2, 2, 2, 2))))
_add("convolution-err-kernel", _CONV, _conv_args(T((1, 2, 2, 2)), T((2, 2, 3, 3))))
_add("convolution-err-dims", _CONV, _conv_args(T((2, 4, 4)), T((2, 2, 2, 2))))
_add("convolution-err-groups", _CONV, _conv_args(T((1, 4, 4, 4)), T((3, 2, 2, 2)), groups=2))
_add("convolution-err-bias", _CONV, _conv_args(T((1, 2, 4, 4)), T((2, 2, 2, 2)), T((3,))))
_add(
    "convolution-err-neg-pad",
    _CONV,
    _conv_args(T((1, 2, 4, 4)), T((2, 2, 2, 2)), None, (1, 1), (-1, 0)),
)
_add("convolution-err-stride", _CONV, _conv_args(T((1, 2, 4, 4)), T((2, 2, 2, 2)), None, (0, 1)))
_add("convolution-err-dtype", _CONV, _conv_args(T((1, 2, 4, 4)), T((2, 2, 2, 2), "float64")))
_add("convolution-int", _CONV, _conv_args(T((1, 2, 4, 4), "int64"), T((2, 2, 2, 2), "int64")))
_add(
    "convolution-int32",
    _CONV,
    _conv_args(T((1, 2, 4, 4), "int32"), T((2, 2, 2, 2), "int32"), T((2,), "int32")),
)
_add("convolution-err-bool", _CONV, _conv_args(T((1, 2, 4, 4), "bool"), T((2, 2, 2, 2), "bool")))
_add(
    "convolution-bias-dtype",
    _CONV,
    _conv_args(T((1, 2, 4, 4)), T((2, 2, 2, 2)), T((2,), "float64")),
)
_add(
    "convolution-out",
    "convolution.out",
    mk(
        T((1, 2, 4, 4)),
        T((2, 2, 2, 2)),
        None,
        [1, 1],
        [0, 0],
        [1, 1],
        False,
        [0, 0],
        1,
        out=EMPTY(),
    ),
)


# Transposed convolution: weight (Cin, Cout / groups, *k); output_padding below stride or dilation.


def _convt_args(
    x: Any,
    w: Any,
    b: Any = None,
    stride: Any = (1, 1),
    padding: Any = (0, 0),
    output_padding: Any = (0, 0),
    dilation: Any = (1, 1),
    groups: int = 1,
) -> Make:
    return mk(
        x, w, b, list(stride), list(padding), list(dilation), True, list(output_padding), groups
    )


_add("convolution-t-2d", _CONV, _convt_args(T((1, 2, 4, 4)), T((2, 3, 3, 3))))
_add("convolution-t-2d-bias", _CONV, _convt_args(T((2, 2, 4, 4)), T((2, 3, 3, 3)), T((3,))))
_add(
    "convolution-t-2d-stride-pad-op",
    _CONV,
    _convt_args(T((2, 2, 4, 5)), T((2, 3, 3, 3)), T((3,)), (2, 2), (1, 1), (1, 1)),
)
_add(
    "convolution-t-2d-asym",
    _CONV,
    _convt_args(T((1, 2, 3, 4)), T((2, 2, 2, 3)), None, (1, 3), (0, 1), (1, 2), (2, 1)),
)
_add(
    "convolution-t-2d-dilation-op",
    _CONV,
    _convt_args(T((1, 1, 4, 4)), T((1, 2, 3, 3)), None, (1, 1), (2, 2), (1, 1), (3, 3)),
)
_add(
    "convolution-t-2d-stride-gt-kernel",
    _CONV,
    _convt_args(T((1, 2, 3, 3)), T((2, 2, 2, 2)), T((2,)), (3, 3), (0, 0), (2, 2)),
)
_add(
    "convolution-t-2d-groups",
    _CONV,
    _convt_args(T((2, 4, 3, 3)), T((4, 3, 2, 2)), T((6,)), (2, 2), (0, 0), groups=2),
)
_add(
    "convolution-t-2d-depthwise",
    _CONV,
    _convt_args(T((1, 3, 4, 4)), T((3, 1, 3, 3)), None, (2, 2), (1, 1), (1, 1), groups=3),
)
_add("convolution-t-2d-1x1", _CONV, _convt_args(T((2, 3, 3, 3)), T((3, 4, 1, 1))))
_add(
    "convolution-t-2d-nc",
    _CONV,
    _convt_args(TR((1, 2, 4, 4), 2, 3), TR((2, 2, 2, 2), 0, 1), None, (2, 2)),
)
_add(
    "convolution-t-2d-noncontig",
    _CONV,
    _convt_args(NC((2, 3, 4, 5)), NC((3, 2, 2, 3)), None, (2, 1), (1, 0)),
)
_add(
    "convolution-t-2d-f64",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "float64"), T((2, 2, 3, 3), "float64"), T((2,), "float64"), (2, 2)),
)
_add(
    "convolution-t-2d-f16",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "float16"), T((2, 2, 2, 2), "float16"), None, (2, 2)),
)
_add(
    "convolution-t-2d-bf16",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "bfloat16"), T((2, 2, 2, 2), "bfloat16"), T((2,), "bfloat16")),
)
_add(
    "convolution-t-2d-int64",
    _CONV,
    _convt_args(T((1, 2, 3, 3), "int64"), T((2, 2, 2, 2), "int64"), T((2,), "int32"), (2, 2)),
)
_add("convolution-t-2d-zero-batch", _CONV, _convt_args(T((0, 2, 4, 4)), T((2, 2, 2, 2))))
_add(
    "convolution-t-1d",
    _CONV,
    mk(T((2, 3, 7)), T((3, 4, 3)), T((4,)), [2], [1], [1], True, [1], 1),
)
_add(
    "convolution-t-1d-dil-groups",
    _CONV,
    mk(T((1, 4, 6)), T((4, 1, 3)), None, [1], [2], [2], True, [1], 2),
)
_add(
    "convolution-t-3d",
    _CONV,
    mk(
        T((1, 2, 3, 2, 3)),
        T((2, 2, 2, 2, 2)),
        T((2,)),
        [2, 1, 2],
        [0, 0, 1],
        [1, 1, 1],
        True,
        [1, 0, 1],
        1,
    ),
)
_add(
    "convolution-t-single-params",
    _CONV,
    mk(T((1, 2, 4, 4)), T((2, 2, 3, 3)), None, [2], [1], [1], True, [1], 1),
)
_add(
    "convolution-t-bias-dtype",
    _CONV,
    _convt_args(T((1, 2, 3, 3)), T((2, 2, 2, 2)), T((2,), "float64")),
)
_add("convolution-t-err-channels", _CONV, _convt_args(T((1, 3, 4, 4)), T((2, 2, 2, 2))))
_add("convolution-t-err-bias", _CONV, _convt_args(T((1, 2, 4, 4)), T((2, 3, 2, 2)), T((2,))))
_add(
    "convolution-t-err-groups",
    _CONV,
    _convt_args(T((1, 3, 4, 4)), T((3, 2, 2, 2)), groups=2),
)
_add(
    "convolution-t-err-output-padding",
    _CONV,
    _convt_args(T((1, 2, 4, 4)), T((2, 2, 3, 3)), None, (2, 2), (0, 0), (0, 2)),
)
_add(
    "convolution-t-err-output-padding-1d",
    _CONV,
    mk(T((1, 2, 4)), T((2, 2, 3)), None, [1], [0], [1], True, [1], 1),
)
_add(
    "convolution-t-err-output-padding-3d",
    _CONV,
    mk(T((1, 2, 2, 2, 2)), T((2, 2, 2, 2, 2)), None, [2], [0], [1], True, [0, 0, 2], 1),
)
_add(
    "convolution-t-err-neg-output-padding",
    _CONV,
    _convt_args(T((1, 2, 4, 4)), T((2, 2, 3, 3)), None, (2, 2), (0, 0), (-1, 0)),
)
_add(
    "convolution-t-err-too-small",
    _CONV,
    _convt_args(T((1, 2, 3, 3), "float64"), T((2, 2, 2, 2), "float64"), None, (1, 1), (2, 2)),
)
_add(
    "convolution-t-err-too-small-1d",
    _CONV,
    mk(T((1, 2, 3), "float64"), T((2, 2, 2), "float64"), None, [1], [3], [1], True, [0], 1),
)
_add(
    "convolution-t-err-too-small-3d",
    _CONV,
    mk(
        T((1, 2, 1, 3, 3), "float64"),
        T((2, 2, 1, 2, 2), "float64"),
        None,
        [1],
        [0, 2, 2],
        [1],
        True,
        [0],
        1,
    ),
)
_add("convolution-t-err-dtype", _CONV, _convt_args(T((1, 2, 4, 4)), T((2, 2, 2, 2), "float64")))
_add(
    "convolution-t-err-dtype-f16",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "float16"), T((2, 2, 2, 2))),
)
_add(
    "convolution-t-err-bias-bf16",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "bfloat16"), T((2, 2, 2, 2), "bfloat16"), T((2,))),
)
_add(
    "convolution-err-dtype-f16",
    _CONV,
    _conv_args(T((1, 2, 4, 4), "float16"), T((2, 2, 2, 2))),
)
_add(
    "convolution-t-err-int32",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "int32"), T((2, 2, 2, 2), "int32")),
)
_add(
    "convolution-t-err-bool",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "bool"), T((2, 2, 2, 2), "bool")),
)
_add(
    "convolution-t-err-bool-3d",
    _CONV,
    mk(T((1, 2, 2, 2, 2), "bool"), T((2, 2, 2, 2, 2), "bool"), None, [1], [0], [1], True, [0], 1),
)
_add(
    "convolution-t-err-int64-float-bias",
    _CONV,
    _convt_args(T((1, 2, 4, 4), "int64"), T((2, 2, 2, 2), "int64"), T((2,))),
)
_add(
    "convolution-t-out",
    "convolution.out",
    mk(
        T((1, 2, 3, 3)), T((2, 2, 2, 2)), None, [2, 2], [0, 0], [1, 1], True, [1, 1], 1, out=EMPTY()
    ),
)

# convolution_backward: the three gradients, transposed or not, with output_mask.
_CONV_BW = "convolution_backward"


def _conv_bw(
    go: Any,
    x: Any,
    w: Any,
    bias_sizes: Any,
    params: tuple[Any, ...],
    mask: tuple[bool, bool, bool] = (True, True, True),
) -> Make:
    return mk(go, x, w, bias_sizes, *params, list(mask))


_add(
    "convolution_backward-t-2d",
    _CONV_BW,
    _conv_bw(
        T((2, 3, 8, 10)),
        T((2, 2, 4, 5)),
        T((2, 3, 3, 3)),
        [3],
        ([2, 2], [1, 1], [1, 1], True, [1, 1], 1),
    ),
)
_add(
    "convolution_backward-t-2d-groups-dil",
    _CONV_BW,
    _conv_bw(
        T((1, 4, 8, 8), "float64"),
        T((1, 4, 3, 3), "float64"),
        T((4, 2, 2, 2), "float64"),
        None,
        ([2, 2], [0, 0], [2, 2], True, [1, 1], 2),
    ),
)
_add(
    "convolution_backward-t-1d-mask",
    _CONV_BW,
    _conv_bw(
        T((2, 4, 12), "float64"),
        T((2, 3, 5), "float64"),
        T((3, 4, 3), "float64"),
        [4],
        ([2], [0], [1], True, [1], 1),
        (True, False, True),
    ),
)
_add(
    "convolution_backward-t-3d",
    _CONV_BW,
    _conv_bw(
        T((1, 2, 4, 3, 5), "float64"),
        T((1, 2, 2, 2, 3), "float64"),
        T((2, 2, 2, 2, 2), "float64"),
        [2],
        ([2, 1, 2], [0, 0, 1], [1, 1, 1], True, [0, 0, 1], 1),
    ),
)
_add(
    "convolution_backward-2d",
    _CONV_BW,
    _conv_bw(
        T((2, 3, 3, 2), "float64"),
        T((2, 2, 5, 6), "float64"),
        T((3, 2, 3, 3), "float64"),
        [3],
        ([2, 2], [1, 0], [1, 1], False, [0, 0], 1),
    ),
)
_add(
    "convolution_backward-2d-weight-only",
    _CONV_BW,
    _conv_bw(
        T((1, 4, 3, 3), "float64"),
        T((1, 4, 5, 5), "float64"),
        T((4, 2, 2, 2), "float64"),
        None,
        ([1, 1], [0, 0], [2, 2], False, [0, 0], 2),
        (False, True, False),
    ),
)
_add(
    "convolution_backward-bias-no-sizes",
    _CONV_BW,
    _conv_bw(
        T((1, 3, 4, 4), "float64"),
        T((1, 2, 3, 3), "float64"),
        T((2, 3, 2, 2), "float64"),
        None,
        ([1, 1], [0, 0], [1, 1], True, [0, 0], 1),
        (False, False, True),
    ),
)
_add(
    "convolution_backward-err-grad-size",
    _CONV_BW,
    _conv_bw(
        T((1, 3, 4, 5), "float64"),
        T((1, 2, 3, 3), "float64"),
        T((2, 3, 2, 2), "float64"),
        None,
        ([1, 1], [0, 0], [1, 1], True, [0, 0], 1),
    ),
)

_add("conv_transpose2d-basic", "conv_transpose2d.input", mk(T((1, 2, 4, 4)), T((2, 3, 3, 3))))
_add(
    "conv_transpose2d-args",
    "conv_transpose2d.input",
    mk(T((1, 4, 3, 3)), T((4, 2, 3, 3)), T((4,)), [2, 2], [1, 1], [1, 0], 2, [1, 1]),
)
_add(
    "conv_transpose2d-single-list",
    "conv_transpose2d.input",
    mk(T((1, 2, 4, 4)), T((2, 3, 3, 3)), None, [2], [1]),
)
_add(
    "conv_transpose2d-kwargs",
    "conv_transpose2d.input",
    mk(T((1, 2, 3, 3)), T((2, 3, 2, 2)), stride=[2, 2], dilation=[2, 1], output_padding=[1, 0]),
)
_add(
    "conv_transpose2d-unbatched",
    "conv_transpose2d.input",
    mk(T((2, 4, 4)), T((2, 3, 3, 3)), T((3,))),
)
_add("conv_transpose2d-err-dims", "conv_transpose2d.input", mk(T((4, 4)), T((2, 3, 3, 3))))
_add(
    "conv_transpose1d-basic",
    "conv_transpose1d",
    mk(T((2, 3, 6)), T((3, 2, 3)), T((2,)), [2], [1], [1]),
)
_add("conv_transpose1d-unbatched", "conv_transpose1d", mk(T((3, 6)), T((3, 2, 3))))
_add("conv_transpose1d-err-dims", "conv_transpose1d", mk(T((6,)), T((3, 2, 3))))
_add(
    "conv_transpose3d-basic",
    "conv_transpose3d.input",
    mk(T((1, 2, 2, 3, 3)), T((2, 2, 2, 2, 2)), None, [2, 2, 2], [0, 1, 0], [1, 0, 0]),
)

_add("conv2d-basic", "conv2d", mk(T((1, 2, 5, 5)), T((3, 2, 3, 3))))
_add("conv2d-args", "conv2d", mk(T((1, 2, 5, 5)), T((2, 2, 3, 3)), T((2,)), [2, 2], [1, 1]))
_add("conv2d-unbatched", "conv2d", mk(T((2, 4, 4)), T((3, 2, 3, 3)), T((3,))))
_add("conv2d-groups", "conv2d", mk(T((1, 4, 4, 4)), T((4, 2, 3, 3)), groups=2))
_add("conv2d-same", "conv2d.padding", mk(T((1, 2, 4, 4)), T((2, 2, 3, 3)), T((2,)), [1, 1], "same"))
_add(
    "conv2d-same-even", "conv2d.padding", mk(T((1, 2, 4, 4)), T((2, 2, 2, 2)), None, [1, 1], "same")
)
_add(
    "conv2d-same-dil",
    "conv2d.padding",
    mk(T((1, 1, 5, 5)), T((1, 1, 2, 3)), None, [1, 1], "same", [2, 1]),
)
_add("conv2d-valid", "conv2d.padding", mk(T((1, 2, 4, 4)), T((2, 2, 3, 3)), None, [1, 1], "valid"))
_add(
    "conv2d-err-pad-str",
    "conv2d.padding",
    mk(T((1, 2, 4, 4)), T((2, 2, 3, 3)), None, [1, 1], "full"),
)
_add(
    "conv2d-err-same-stride",
    "conv2d.padding",
    mk(T((1, 2, 4, 4)), T((2, 2, 3, 3)), None, [2, 2], "same"),
)
_add("conv2d-err-dims", "conv2d", mk(T((4, 4)), T((2, 1, 3, 3))))
_add("conv2d-err-bias-dtype", "conv2d", mk(T((1, 2, 4, 4)), T((2, 2, 3, 3)), T((2,), "float64")))
_add("conv1d-basic", "conv1d", mk(T((2, 3, 6)), T((4, 3, 3)), T((4,))))
_add("conv1d-unbatched", "conv1d", mk(T((3, 6)), T((4, 3, 3))))
_add("conv1d-args", "conv1d", mk(T((1, 2, 8)), T((2, 2, 3)), None, [2], [1], [2]))
_add("conv1d-same", "conv1d.padding", mk(T((2, 3, 6)), T((4, 3, 3)), None, [1], "same"))
_add("conv1d-same-even", "conv1d.padding", mk(T((1, 2, 6)), T((2, 2, 4)), None, [1], "same"))

# ----------------------------------------------------------------------------- pooling

_MP = "max_pool2d_with_indices"
_add("max_pool2d_with_indices-basic", _MP, mk(T((1, 2, 4, 4)), [2, 2]))
_add("max_pool2d_with_indices-3d", _MP, mk(T((2, 4, 4)), [2, 2]))
_add("max_pool2d_with_indices-args", _MP, mk(T((1, 1, 5, 5)), [3, 3], [2, 2], [1, 1]))
_add("max_pool2d_with_indices-ceil", _MP, mk(T((1, 1, 5, 5)), [2, 2], [2, 2], [0, 0], [1, 1], True))
_add(
    "max_pool2d_with_indices-ceil-pad",
    _MP,
    mk(T((1, 1, 6, 6)), [3, 3], [2, 2], [1, 1], [1, 1], True),
)
_add("max_pool2d_with_indices-dil", _MP, mk(T((1, 1, 6, 6)), [2, 2], [1, 1], [0, 0], [2, 2]))
_add("max_pool2d_with_indices-asym", _MP, mk(T((1, 1, 5, 6)), [2, 3], [1, 2], [1, 0]))
_add("max_pool2d_with_indices-single", _MP, mk(T((1, 1, 4, 4)), [2], [], [0], [1]))
_add("max_pool2d_with_indices-ties", _MP, mk(lambda M, r: M.ones(1, 1, 4, 4), [2, 2]))
_add("max_pool2d_with_indices-int", _MP, mk(T((1, 1, 4, 4), "int64"), [2, 2]))
_add("max_pool2d_with_indices-f64", _MP, mk(T((1, 1, 4, 4), "float64"), [2, 2]))
_add("max_pool2d_with_indices-bf16", _MP, mk(T((1, 1, 4, 4), "bfloat16"), [2, 2]))
_add("max_pool2d_with_indices-nc", _MP, mk(TR((1, 2, 4, 4), 2, 3), [2, 2]))
_add("max_pool2d_with_indices-err-pad", _MP, mk(T((1, 1, 4, 4)), [2, 2], [2, 2], [2, 2]))
_add("max_pool2d_with_indices-err-small", _MP, mk(T((1, 1, 2, 2)), [3, 3]))
_add("max_pool2d_with_indices-err-dims", _MP, mk(T((4, 4)), [2, 2]))
_add("max_pool2d_with_indices-err-bool", _MP, mk(T((1, 1, 4, 4), "bool"), [2, 2]))
_add(
    "max_pool2d_with_indices-out",
    "max_pool2d_with_indices.out",
    mk(T((1, 1, 4, 4)), [2, 2], out=EMPTY(), indices=EMPTY(dt="int64")),
)
_add("max_pool2d-basic", "max_pool2d", mk(T((1, 2, 4, 4)), [2, 2]))
_add("max_pool2d-args", "max_pool2d", mk(T((1, 1, 5, 5)), [3, 3], [2, 2], [1, 1], [1, 1], True))
_add("max_pool1d-basic", "max_pool1d", mk(T((2, 3, 6)), [2]))
_add("max_pool1d-args", "max_pool1d", mk(T((3, 7)), [3], [2], [1]))

_AP = "avg_pool2d"
_add("avg_pool2d-basic", _AP, mk(T((1, 2, 4, 4)), [2, 2]))
_add("avg_pool2d-3d", _AP, mk(T((2, 4, 4)), [2, 2]))
_add("avg_pool2d-pad", _AP, mk(T((1, 1, 5, 5)), [3, 3], [2, 2], [1, 1]))
_add("avg_pool2d-pad-exclude", _AP, mk(T((1, 1, 5, 5)), [3, 3], [2, 2], [1, 1], False, False))
_add("avg_pool2d-ceil", _AP, mk(T((1, 1, 5, 5)), [2, 2], [2, 2], [0, 0], True))
_add("avg_pool2d-ceil-pad", _AP, mk(T((1, 1, 6, 6)), [3, 3], [2, 2], [1, 1], True))
_add("avg_pool2d-ceil-pad-exclude", _AP, mk(T((1, 1, 6, 6)), [3, 3], [2, 2], [1, 1], True, False))
_add("avg_pool2d-divisor", _AP, mk(T((1, 1, 4, 4)), [2, 2], divisor_override=3))
_add("avg_pool2d-f64", _AP, mk(T((1, 1, 4, 4), "float64"), [2, 2]))
_add("avg_pool2d-bf16", _AP, mk(T((1, 1, 4, 4), "bfloat16"), [2, 2]))
_add("avg_pool2d-int", _AP, mk(T((1, 1, 4, 4), "int64"), [2, 2]))
_add("avg_pool2d-nc", _AP, mk(TR((1, 2, 4, 4), 2, 3), [2, 2]))
_add("avg_pool2d-err-pad", _AP, mk(T((1, 1, 4, 4)), [2, 2], [2, 2], [2, 2]))
_add("avg_pool2d-err-div", _AP, mk(T((1, 1, 4, 4)), [2, 2], divisor_override=0))
_add("avg_pool2d-out", "avg_pool2d.out", mk(T((1, 1, 4, 4)), [2, 2], out=EMPTY()))
_add("avg_pool1d-basic", "avg_pool1d", mk(T((2, 3, 6)), [2]))
_add("avg_pool1d-args", "avg_pool1d", mk(T((3, 7)), [3], [2], [1], True, False))

_add("adaptive_avg_pool2d-basic", "adaptive_avg_pool2d", mk(T((1, 2, 5, 5)), [3, 3]))
_add("adaptive_avg_pool2d-one", "adaptive_avg_pool2d", mk(T((1, 2, 4, 4)), [1, 1]))
_add("adaptive_avg_pool2d-same", "adaptive_avg_pool2d", mk(T((1, 2, 4, 4)), [4, 4]))
_add("adaptive_avg_pool2d-up", "adaptive_avg_pool2d", mk(T((1, 1, 2, 3)), [4, 5]))
_add("adaptive_avg_pool2d-3d", "adaptive_avg_pool2d", mk(T((2, 5, 7)), [2, 3]))
_add("adaptive_avg_pool2d-f64", "adaptive_avg_pool2d", mk(T((1, 1, 5, 5), "float64"), [2, 2]))
_add("adaptive_avg_pool2d-err-neg", "adaptive_avg_pool2d", mk(T((1, 1, 4, 4)), [-1, 2]))
_add("adaptive_avg_pool2d-empty-channels", "adaptive_avg_pool2d", mk(T((1, 0, 4, 4)), [2, 2]))
_add("adaptive_avg_pool2d-err-empty", "adaptive_avg_pool2d", mk(T((1, 2, 0, 4)), [2, 2]))
_add("adaptive_avg_pool2d-err-int", "adaptive_avg_pool2d", mk(T((1, 2, 4, 4), "int64"), [2, 2]))
_add("_adaptive_avg_pool2d-basic", "_adaptive_avg_pool2d", mk(T((1, 2, 5, 5)), [2, 3]))

# ----------------------------------------------------------------------------- padding

_CP = "constant_pad_nd"
for _dt in ("bool", "uint8", "int64", "float16", "bfloat16", "float32", "float64"):
    _add(f"constant_pad_nd-{_dt}", _CP, mk(T((2, 3), _dt), [1, 2]))
_add("constant_pad_nd-2d", _CP, mk(T((2, 3)), [1, 2, 0, 1], 3.5))
_add("constant_pad_nd-int-value", _CP, mk(T((2, 3), "int64"), [1, 1], 7))
_add("constant_pad_nd-int-float-value", _CP, mk(T((2, 3), "int64"), [1, 1], 2.7))
_add("constant_pad_nd-neg", _CP, mk(T((3, 4)), [-1, 2]))
_add("constant_pad_nd-all-neg", _CP, mk(T((3, 4)), [-1, -1, 0, -1]))
_add("constant_pad_nd-all-neg-nc", _CP, mk(NC((3, 4)), [-1, 0]))
_add("constant_pad_nd-3d", _CP, mk(T((2, 2, 3)), [1, 1, 1, 1, 1, 0]))
_add("constant_pad_nd-nc", _CP, mk(NC((3, 4)), [1, 0, 2, 0]))
_add("constant_pad_nd-empty", _CP, mk(T((0, 3)), [1, 1]))
_add("constant_pad_nd-zero-pad", _CP, mk(T((2, 3)), [0, 0]))
_add("constant_pad_nd-err-odd", _CP, mk(T((2, 3)), [1]))
_add("constant_pad_nd-err-long", _CP, mk(T((2, 3)), [1, 1, 1, 1, 1, 1]))
_add("constant_pad_nd-err-neg-size", _CP, mk(T((2, 3)), [-2, -2]))
_add("constant_pad_nd-neg-trim", _CP, mk(T((2, 3)), [1, -3]))
_add("constant_pad_nd-out", "constant_pad_nd.out", mk(T((2, 3)), [1, 1], out=EMPTY()))
_add("pad-constant", "pad", mk(T((2, 3)), [1, 2]))
_add("pad-value", "pad", mk(T((2, 3)), [1, 2, 1, 0], "constant", 2.5))
_add("pad-int", "pad", mk(T((2, 3), "int64"), [1, 1]))
_add("pad-err-mode", "pad", mk(T((2, 3)), [1, 1], "wrap"))
_add("pad-err-odd", "pad", mk(T((2, 3)), [1]))
_add("pad-err-long", "pad", mk(T((2, 3)), [1, 1, 1, 1, 1, 1]))
_add("pad-err-value", "pad", mk(T((1, 2, 3)), [1, 1], "reflect", 1.0))
_add("pad-reflect1d", "pad", mk(T((1, 2, 4)), [2, 1], "reflect"))
_add("pad-reflect2d", "pad", mk(T((1, 3, 3)), [1, 1, 2, 0], "reflect"))
_add("pad-replicate1d", "pad", mk(T((2, 3)), [3, 1], "replicate"))
_add("pad-replicate2d", "pad", mk(T((1, 1, 2, 3)), [1, 2, 0, 1], "replicate"))
_add("pad-replicate3d", "pad", mk(T((1, 2, 2, 2)), [1, 0, 0, 1, 1, 1], "replicate"))
_add("pad-circular", "pad", mk(T((1, 2, 3)), [1, 2], "circular"))
_add("pad-circular2d", "pad", mk(T((1, 1, 3, 3)), [1, 0, 2, 1], "circular"))
_add("pad-circular-neg", "pad", mk(T((1, 2, 3)), [-1, 2], "circular"))
_add("pad-err-circular-wrap", "pad", mk(T((1, 2, 3)), [4, 2], "circular"))
_add("pad-err-dims", "pad", mk(T((2, 3)), [1, 1, 1, 1], "reflect"))
for _m in ("reflection", "replication"):
    _add(f"{_m}_pad1d-basic", f"{_m}_pad1d", mk(T((1, 2, 4)), [2, 1]))
    _add(f"{_m}_pad1d-neg", f"{_m}_pad1d", mk(T((1, 2, 4)), [-1, 2]))
    _add(f"{_m}_pad1d-int", f"{_m}_pad1d", mk(T((2, 4), "int64"), [1, 1]))
    _add(f"{_m}_pad1d-err-bool", f"{_m}_pad1d", mk(T((2, 4), "bool"), [1, 1]))
    _add(f"{_m}_pad1d-err-dims", f"{_m}_pad1d", mk(T((1, 1, 2, 3)), [1, 1]))
    _add(f"{_m}_pad1d-err-empty", f"{_m}_pad1d", mk(T((1, 2, 0)), [1, 1]))
    _add(f"{_m}_pad2d-basic", f"{_m}_pad2d", mk(T((1, 2, 3, 3)), [1, 1, 2, 0]))
    _add(f"{_m}_pad2d-nc", f"{_m}_pad2d", mk(TR((1, 2, 3, 3), 1, 3), [1, 1, 1, 0]))
    _add(f"{_m}_pad3d-basic", f"{_m}_pad3d", mk(T((1, 2, 2, 3)), [1, 1, 1, 0, 0, 1]))
    _add(f"{_m}_pad2d-out", f"{_m}_pad2d.out", mk(T((1, 2, 3)), [1, 1, 1, 1], out=EMPTY()))
_add("reflection_pad1d-err-big", "reflection_pad1d", mk(T((1, 2, 3)), [3, 1]))
_add("reflection_pad2d-err-big", "reflection_pad2d", mk(T((1, 2, 3, 3)), [1, 1, 3, 0]))
_add("_pad_circular-basic", "_pad_circular", mk(T((1, 2, 3)), [2, 1]))

# ----------------------------------------------------------------------------- one_hot

_add("one_hot-basic", "one_hot", mk(L([1, 0, 4])), tags=("no_meta",))
_add("one_hot-num", "one_hot", mk(L([1, 0, 2]), 5))
_add("one_hot-2d", "one_hot", mk(L([[1, 0], [2, 2]]), 3))
_add("one_hot-empty", "one_hot", mk(IDX((0,), 3), 4))
_add("one_hot-err-empty", "one_hot", mk(IDX((0,), 3)), tags=("no_meta",))
_add("one_hot-err-neg", "one_hot", mk(L([1, -1])), tags=("no_meta",))
_add("one_hot-err-big", "one_hot", mk(L([1, 5]), 3), tags=("no_meta",))
_add("one_hot-err-dtype", "one_hot", mk(L([1, 2], "int32")))
