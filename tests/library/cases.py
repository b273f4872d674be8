"""Custom-operator cases shared between PyTorch (the oracle) and keyroute.

A case is ``case(M) -> JSON-able result`` where ``M`` is the ``torch`` or the ``keyroute``
module. ``tools/record_extension.py`` runs every case with torch and stores the results in
``tests/data/extension_library.json``; ``tests/library/test_recorded.py`` runs them with keyroute
and compares. Each case works in its own operator namespace and removes what it registered.

No ``from __future__ import annotations``: custom ops infer their schemas from real annotations.
"""

import re
from collections.abc import Callable
from typing import Any, Optional

CASES: dict[str, Callable[[Any], Any]] = {}


def case(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        CASES[name] = fn
        return fn

    return deco


def ns_of(name: str) -> str:
    return "kx_" + re.sub(r"\W", "_", name)


# -- normalization ------------------------------------------------------------------------------

_MODULE = re.compile(r"<module '[^']*'(?: from '[^']*')?>")
_SITE = re.compile(r"registered at \S+?(?=( ::| \[|$))", re.M)


def norm(text: str) -> str:
    """Messages and dumps with the library's own names and file locations taken out."""
    text = _MODULE.sub("<module>", text)
    text = _SITE.sub("registered at <site>", text)
    text = text.replace("keyroute.Tensor", "Tensor").replace("torch.Tensor", "Tensor")
    text = re.sub(r"\btorch\.", "M.", text)
    text = re.sub(r"\bkeyroute\.", "M.", text)
    return text


def error_of(fn: Callable[[], Any]) -> dict[str, Any]:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "msg": norm(str(e))}
    return {"error": None}


def dump(M: Any, qualname: str) -> list[str]:  # noqa: N803
    """_dispatch_dump lines plus the table lines that are not builtin backend fallbacks."""
    lines = norm(M._C._dispatch_dump(qualname)).splitlines()
    table = norm(M._C._dispatch_dump_table(qualname)).splitlines()
    return [ln for ln in lines if ln] + [
        ln for ln in table if not ln.endswith("[backend fallback]")
    ]


def drop(M: Any, ns: str) -> None:  # noqa: N803
    """Destroy every custom_op a case made in namespace ns."""
    mod = M._library.custom_ops
    libs = getattr(mod, "OPDEF_TO_LIB", None)
    if libs is not None:  # torch
        for q in [q for q in libs if q.startswith(ns + "::")]:
            libs.pop(q)._destroy()
            mod.OPDEFS.pop(q, None)
        return
    for q in [q for q in mod.OPDEFS if q.startswith(ns + "::")]:
        mod.OPDEFS.pop(q)._lib._destroy()


def tlist(t: Any) -> Any:
    return [round(float(v), 5) for v in t.detach().reshape(-1).tolist()]


# -- schemas ------------------------------------------------------------------------------------


def _schema_fns(M: Any) -> dict[str, tuple[Callable[..., Any], Any]]:  # noqa: N803
    T = M.Tensor

    def rms_norm(x: T, w: T, eps: float) -> T:
        return x

    def store_kv(cache: T, slots: T, value: T) -> None:
        return None

    def two_out(x: T) -> tuple[T, T]:
        return x, x

    def optional(x: T, bias: Optional[T] = None, scale: float = 1.0) -> T:  # noqa: UP045
        return x

    def lists(xs: list[T], dims: list[int], flag: bool = False) -> list[T]:
        return xs

    def kwonly(x: T, *, alpha: float = 0.5, mode: str = "sum") -> T:
        return x

    def two_mut(a: T, b: T, c: T) -> None:
        return None

    def with_device(n: int, device: M.device) -> T:
        return None

    return {
        "rms_norm": (rms_norm, ()),
        "store_kv": (store_kv, ("cache",)),
        "two_out": (two_out, ()),
        "optional": (optional, ()),
        "lists": (lists, ()),
        "kwonly": (kwonly, ()),
        "two_mut": (two_mut, ("a", "c")),
        "unknown": (two_mut, "unknown"),
        "with_device": (with_device, ()),
    }


@case("schema/custom_op")
def _schemas(M: Any) -> Any:  # noqa: N803
    ns = ns_of("schema")
    out = {}
    for name, (fn, mutates) in _schema_fns(M).items():
        op = M.library.custom_op(f"{ns}::{name}", fn, mutates_args=mutates)
        out[name] = norm(str(op._opoverload._schema)).replace(ns, "<ns>")
    drop(M, ns)
    return out


# -- registrations (dispatch dumps) --------------------------------------------------------------


@case("dump/functional_and_mutating")
def _dumps(M: Any) -> Any:  # noqa: N803
    ns = ns_of("dump")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::rms_norm", mutates_args=())
    def rms_norm(x: T, w: T, eps: float) -> T:
        return x * w

    @rms_norm.register_fake
    def _(x, w, eps):  # noqa: ANN001, ANN202
        return M.empty_like(x)

    @M.library.custom_op(f"{ns}::store_kv", mutates_args=("cache",))
    def store_kv(cache: T, slots: T, value: T) -> None:
        cache.index_copy_(0, slots, value)

    @M.library.custom_op(f"{ns}::cpu_only", mutates_args=(), device_types="cpu")
    def cpu_only(x: T) -> T:
        return x.clone()

    out = {
        n: [ln.replace(ns, "<ns>") for ln in dump(M, f"{ns}::{n}")]
        for n in ("rms_norm", "store_kv", "cpu_only")
    }
    drop(M, ns)
    return out


@case("dump/functional_api")
def _functional_dump(M: Any) -> Any:  # noqa: N803
    ns = ns_of("fapi")
    lib = M.library.Library(ns, "FRAGMENT")
    M.library.define(f"{ns}::scale", "(Tensor x, float s) -> Tensor", lib=lib)
    M.library.impl(f"{ns}::scale", "cpu", lambda x, s: x * s, lib=lib)
    out = {"after_impl": dump(M, f"{ns}::scale")}
    M.library.register_fake(f"{ns}::scale", lambda x, s: M.empty_like(x), lib=lib)
    out["after_fake"] = dump(M, f"{ns}::scale")
    M.library.register_autograd(
        f"{ns}::scale",
        lambda ctx, g: (g * ctx.s, None),
        setup_context=lambda ctx, inputs, output: setattr(ctx, "s", inputs[1]),
        lib=lib,
    )
    out["after_autograd"] = dump(M, f"{ns}::scale")
    x = M.tensor([1.0, 2.0], requires_grad=True)
    y = getattr(M.ops, ns).scale(x, 3.0)
    y.sum().backward()
    out["call"] = {"y": tlist(y), "grad": tlist(x.grad), "grad_fn": type(y.grad_fn).__name__}
    out["meta"] = list(getattr(M.ops, ns).scale(M.empty(2, 3, device="meta"), 2.0).shape)
    M.library.define(f"{ns}::double", "(Tensor x) -> Tensor", lib=lib)
    M.library.impl(f"{ns}::double", "default", lambda x: x * 2, lib=lib)
    out["default_impl"] = dump(M, f"{ns}::double")
    out["default_call"] = tlist(getattr(M.ops, ns).double(M.ones(2)))
    M.library.define(f"{ns}::kernel_api", "(Tensor x) -> Tensor", lib=lib)
    M.library.register_kernel(f"{ns}::kernel_api", "cpu", lambda x: x - 1, lib=lib)
    out["register_kernel"] = dump(M, f"{ns}::kernel_api")
    out["register_kernel_call"] = tlist(getattr(M.ops, ns).kernel_api(M.ones(2)))
    lib._destroy()
    return {
        k: [ln.replace(ns, "<ns>") for ln in v] if k in DUMP_KEYS else v for k, v in out.items()
    }


DUMP_KEYS = ("after_impl", "after_fake", "after_autograd", "default_impl", "register_kernel")


# -- calls --------------------------------------------------------------------------------------


@case("call/seed_program")
def _seed(M: Any) -> Any:  # noqa: N803
    ns = ns_of("seed")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::rms_norm", mutates_args=())
    def rms_norm(x: T, w: T, eps: float) -> T:
        return x * M.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w

    @rms_norm.register_fake
    def _(x, w, eps):  # noqa: ANN001, ANN202
        return M.empty_like(x)

    @M.library.custom_op(f"{ns}::store_kv", mutates_args=("cache",))
    def store_kv(cache: T, slots: T, value: T) -> None:
        cache.index_copy_(0, slots, value)

    ops = getattr(M.ops, ns)
    x = M.arange(8.0).reshape(2, 4)
    w = M.ones(4)
    y = ops.rms_norm(x, w, 1e-6)
    m = ops.rms_norm(M.empty(4096, 8192, device="meta"), M.empty(8192, device="meta"), 1e-6)
    cache = M.zeros(8, 4)
    v0 = cache._version
    r = ops.store_kv(cache, M.tensor([1, 5]), M.ones(2, 4))
    out = {
        "y": tlist(y),
        "y_type": type(y).__name__,
        "meta": [list(m.shape), str(m.device), str(m.dtype).split(".")[-1]],
        "store_returns": repr(r),
        "slots": cache.sum(dim=1).nonzero().flatten().tolist(),
        "cache_version": [v0, cache._version],
        "meta_store": repr(
            ops.store_kv(
                M.zeros(8, 4, device="meta"),
                M.tensor([1], device="meta"),
                M.ones(1, 4, device="meta"),
            )
        ),
    }
    drop(M, ns)
    return out


@case("call/version_counters")
def _versions(M: Any) -> Any:  # noqa: N803
    ns = ns_of("versions")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::write_two", mutates_args=("a", "c"))
    def write_two(a: T, b: T, c: T) -> None:
        a.zero_()  # bumps a once more (the kernel's own in-place op)

    a, b, c = M.ones(2), M.ones(2), M.ones(2)
    before = [a._version, b._version, c._version]
    write_two(a, b, c)
    after_one = [a._version, b._version, c._version]
    getattr(M.ops, ns).write_two(a, b, c=c)
    drop(M, ns)
    return {
        "before": before,
        "after_one": after_one,
        "after_two": [a._version, b._version, c._version],
    }


@case("call/autograd")
def _autograd(M: Any) -> Any:  # noqa: N803
    ns = ns_of("autograd")
    T = M.Tensor
    seen: dict[str, Any] = {}

    @M.library.custom_op(f"{ns}::mul", mutates_args=())
    def mul(x: T, y: T, k: float = 2.0) -> T:
        return x * y * k

    def setup_context(ctx, inputs, output):  # noqa: ANN001, ANN202
        seen["inputs"] = [type(v).__name__ if isinstance(v, M.Tensor) else v for v in inputs]
        seen["output"] = type(output).__name__
        x, y, k = inputs
        ctx.save_for_backward(x, y)
        ctx.k = k

    def backward(ctx, grad):  # noqa: ANN001, ANN202
        seen["needs_input_grad"] = list(ctx.needs_input_grad)
        x, y = ctx.saved_tensors
        return grad * y * ctx.k, grad * x * ctx.k, None

    mul.register_autograd(backward, setup_context=setup_context)
    x = M.tensor([1.0, 2.0], requires_grad=True)
    y = M.tensor([3.0, 4.0])
    out = mul(x, y)
    out.sum().backward()
    with M.no_grad():
        plain = mul(x, y)
    res = {
        "out": tlist(out),
        "requires_grad": out.requires_grad,
        "grad_fn": type(out.grad_fn).__name__,
        "grad": tlist(x.grad),
        "seen": seen,
        "no_grad_requires_grad": plain.requires_grad,
    }
    drop(M, ns)
    return res


@case("call/autograd_kwonly")
def _autograd_kwonly(M: Any) -> Any:  # noqa: N803
    ns = ns_of("kwonly")
    T = M.Tensor
    seen: dict[str, Any] = {}

    @M.library.custom_op(f"{ns}::scale", mutates_args=())
    def scale(x: T, *, s: float = 1.5) -> T:
        return x * s

    def setup_context(ctx, inputs, keyword_only_inputs, output):  # noqa: ANN001, ANN202
        seen["inputs"] = len(inputs)
        seen["keyword_only_inputs"] = dict(keyword_only_inputs)
        ctx.s = keyword_only_inputs["s"]

    scale.register_autograd(lambda ctx, g: g * ctx.s, setup_context=setup_context)
    x = M.tensor([1.0, 2.0], requires_grad=True)
    scale(x).sum().backward()
    g1 = tlist(x.grad)
    x.grad = None
    scale(x, s=3.0).sum().backward()
    drop(M, ns)
    return {"grad_default": g1, "grad_s3": tlist(x.grad), "seen": seen}


@case("call/missing_backward")
def _missing_backward(M: Any) -> Any:  # noqa: N803
    ns = ns_of("nobw")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::f", mutates_args=())
    def f(x: T) -> T:
        return x.clone()

    x = M.ones(2, requires_grad=True)
    y = f(x)
    res = {
        "requires_grad": y.requires_grad,
        "grad_fn": type(y.grad_fn).__name__,
        "backward": error_of(lambda: y.sum().backward()),
    }
    drop(M, ns)
    return res


@case("call/backward_wrong_count")
def _wrong_count(M: Any) -> Any:  # noqa: N803
    ns = ns_of("bwcount")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::f", mutates_args=())
    def f(x: T, y: T) -> T:
        return x * y

    f.register_autograd(lambda ctx, g: g)
    x = M.ones(2, requires_grad=True)
    res = error_of(lambda: f(x, M.ones(2)).sum().backward())
    drop(M, ns)
    return res


@case("call/register_kernel_and_redefine")
def _kernels(M: Any) -> Any:  # noqa: N803
    ns = ns_of("kernels")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::f", mutates_args=())
    def f(x: T) -> T:
        return x + 1

    x = M.zeros(2)
    res: dict[str, Any] = {"default": tlist(f(x))}

    @f.register_kernel("cpu")
    def _(x):  # noqa: ANN001, ANN202
        return x + 10

    res["cpu_kernel"] = tlist(f(x))
    with f.set_kernel_enabled("cpu", False):
        res["cpu_disabled"] = tlist(f(x))
    res["cpu_enabled_again"] = tlist(f(x))

    @M.library.custom_op(f"{ns}::f", mutates_args=())
    def f2(x: T) -> T:
        return x + 100

    res["redefined"] = tlist(getattr(M.ops, ns).f(x))
    res["redefined_dump"] = [ln.replace(ns, "<ns>") for ln in dump(M, f"{ns}::f")]
    drop(M, ns)
    return res


@case("call/multiple_outputs_and_trivial_fake")
def _multi(M: Any) -> Any:  # noqa: N803
    ns = ns_of("multi")
    T = M.Tensor

    @M.library.custom_op(f"{ns}::split2", mutates_args=())
    def split2(x: T) -> tuple[T, T]:
        return x[:1].clone(), x[1:].clone()

    @split2.register_fake
    def _(x):  # noqa: ANN001, ANN202
        return x.new_empty((1,)), x.new_empty((x.shape[0] - 1,))

    @M.library.custom_op(f"{ns}::fill", mutates_args=("out",))
    def fill(out: T, v: float) -> None:
        out.fill_(v)

    a, b = split2(M.arange(4.0))
    fa, fb = split2(M.empty(5, device="meta"))
    m = M.empty(3, device="meta")
    res = {
        "real": [tlist(a), tlist(b)],
        "meta": [list(fa.shape), list(fb.shape), str(fa.device)],
        "trivial_fake": repr(fill(m, 2.0)),
        "meta_version": m._version,
    }
    drop(M, ns)
    return res


# -- errors -------------------------------------------------------------------------------------


def _error_cases(M: Any, ns: str) -> dict[str, Callable[[], Any]]:  # noqa: N803
    T = M.Tensor
    C = M.library.custom_op

    def no_fake_meta() -> Any:
        @C(f"{ns}::nofake", mutates_args=())
        def nofake(x: T) -> T:
            return x.clone()

        return nofake(M.empty(3, device="meta"))

    def no_fake_fake() -> Any:
        import importlib

        mode_cls = importlib.import_module(M.__name__ + "._subclasses.fake_tensor").FakeTensorMode

        @C(f"{ns}::nofake2", mutates_args=())
        def nofake2(x: T) -> T:
            return x.clone()

        with mode_cls():
            return nofake2(M.empty(3))

    def mutates_unknown() -> Any:
        @C(f"{ns}::unk", mutates_args=("y",))
        def unk(x: T) -> T:
            return x.clone()

    def mutates_non_tensor() -> Any:
        @C(f"{ns}::nont", mutates_args=("n",))
        def nont(x: T, n: int) -> T:
            return x.clone()

    def mutates_bad_string() -> Any:
        @C(f"{ns}::badstr", mutates_args="cache")
        def badstr(x: T) -> T:
            return x.clone()

    def fake_returns_one_of_two() -> Any:
        @C(f"{ns}::twoout", mutates_args=())
        def twoout(x: T) -> tuple[T, T]:
            return x.clone(), x.clone()

        twoout.register_fake(lambda x: M.empty_like(x))
        return twoout(M.empty(3, device="meta"))

    def fake_returns_two_of_one() -> Any:
        @C(f"{ns}::oneout", mutates_args=())
        def oneout(x: T) -> T:
            return x.clone()

        oneout.register_fake(lambda x: (M.empty_like(x), M.empty_like(x)))
        return oneout(M.empty(3, device="meta"))

    def output_aliases_input() -> Any:
        @C(f"{ns}::alias", mutates_args=())
        def alias(x: T) -> T:
            return x

        return alias(M.ones(3))

    def output_is_view_of_input() -> Any:
        @C(f"{ns}::viewout", mutates_args=())
        def viewout(x: T) -> T:
            return x.view(-1)

        return viewout(M.ones(2, 2))

    def autograd_on_mutable() -> Any:
        @C(f"{ns}::mutable", mutates_args=("x",))
        def mutable(x: T) -> T:
            return x.clone()

        mutable.register_autograd(lambda ctx, g: g)

    def autograd_on_no_returns() -> Any:
        @C(f"{ns}::noret", mutates_args=())
        def noret(x: T) -> None:
            return None

        noret.register_autograd(lambda ctx, g: g)

    def kwarg_only_tensor() -> Any:
        @C(f"{ns}::kwt", mutates_args=())
        def kwt(x: T, *, y: T) -> T:
            return x.clone()

    def schema_mutates_mismatch() -> Any:
        @C(f"{ns}::sch", mutates_args=(), schema="(Tensor(a!) x) -> Tensor")
        def sch(x):  # noqa: ANN001, ANN202
            return x.clone()

    def device_types_without_tensors() -> Any:
        @C(f"{ns}::nodev", mutates_args=(), device_types="cpu")
        def nodev(n: int) -> T:
            return M.zeros(n)

    return {
        "no_fake_meta": no_fake_meta,
        "no_fake_fake": no_fake_fake,
        "mutates_unknown": mutates_unknown,
        "mutates_non_tensor": mutates_non_tensor,
        "mutates_bad_string": mutates_bad_string,
        "fake_returns_one_of_two": fake_returns_one_of_two,
        "fake_returns_two_of_one": fake_returns_two_of_one,
        "output_aliases_input": output_aliases_input,
        "output_is_view_of_input": output_is_view_of_input,
        "autograd_on_mutable": autograd_on_mutable,
        "autograd_on_no_returns": autograd_on_no_returns,
        "kwarg_only_tensor": kwarg_only_tensor,
        "schema_mutates_mismatch": schema_mutates_mismatch,
        "device_types_without_tensors": device_types_without_tensors,
    }


ERROR_NAMES = [
    "no_fake_meta",
    "no_fake_fake",
    "mutates_unknown",
    "mutates_non_tensor",
    "mutates_bad_string",
    "fake_returns_one_of_two",
    "fake_returns_two_of_one",
    "output_aliases_input",
    "output_is_view_of_input",
    "autograd_on_mutable",
    "autograd_on_no_returns",
    "kwarg_only_tensor",
    "schema_mutates_mismatch",
    "device_types_without_tensors",
]


def _error_case(name: str) -> Callable[[Any], Any]:
    def run(M: Any) -> Any:  # noqa: N803
        ns = ns_of("err_" + name)
        res = error_of(_error_cases(M, ns)[name])
        res["msg"] = res.get("msg", "").replace(ns, "<ns>") if res["error"] else None
        drop(M, ns)
        return res

    return run


for _n in ERROR_NAMES:
    CASES[f"error/{_n}"] = _error_case(_n)


# -- opcheck ------------------------------------------------------------------------------------


def _opcheck_result(r: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v if v == "SUCCESS" else {"error": type(v).__name__, "msg": norm(str(v))}
        for k, v in r.items()
    }


def _opcheck_ops(M: Any, ns: str) -> dict[str, tuple[Any, tuple[Any, ...]]]:  # noqa: N803
    T = M.Tensor
    C = M.library.custom_op
    M.manual_seed(0)

    @C(f"{ns}::good", mutates_args=())
    def good(x: T, y: T) -> T:
        return x * y

    good.register_fake(lambda x, y: M.empty_like(x))

    def bw(ctx, g):  # noqa: ANN001, ANN202
        x, y = ctx.saved_tensors
        return g * y, g * x

    good.register_autograd(
        bw, setup_context=lambda ctx, inputs, output: ctx.save_for_backward(*inputs)
    )

    @C(f"{ns}::undeclared_mutation", mutates_args=())
    def undeclared(x: T) -> T:
        x.add_(1)
        return x.clone()

    undeclared.register_fake(lambda x: M.empty_like(x))

    @C(f"{ns}::declared_mutation", mutates_args=("x",))
    def declared(x: T) -> None:
        x.add_(1)

    @C(f"{ns}::fake_shape", mutates_args=())
    def fake_shape(x: T) -> T:
        return x.sum(0)

    fake_shape.register_fake(lambda x: M.empty_like(x))

    @C(f"{ns}::fake_dtype", mutates_args=())
    def fake_dtype(x: T) -> T:
        return x.clone()

    fake_dtype.register_fake(lambda x: M.empty_like(x, dtype=M.float64))

    @C(f"{ns}::fake_stride", mutates_args=())
    def fake_stride(x: T) -> T:
        return x.clone()

    fake_stride.register_fake(lambda x: M.empty(tuple(x.shape)[::-1], dtype=x.dtype).t())

    @C(f"{ns}::fake_device", mutates_args=())
    def fake_device(x: T) -> T:
        return x.clone()

    fake_device.register_fake(lambda x: M.empty_like(x, device="meta"))

    @C(f"{ns}::no_fake", mutates_args=())
    def no_fake(x: T) -> T:
        return x.clone()

    @C(f"{ns}::no_backward", mutates_args=())
    def no_backward(x: T) -> T:
        return x.clone()

    no_backward.register_fake(lambda x: M.empty_like(x))

    return {
        "good": (good, (M.randn(3, requires_grad=True), M.randn(3))),
        "good_no_grad": (good, (M.randn(3), M.randn(3))),
        "undeclared_mutation": (undeclared, (M.randn(3),)),
        "declared_mutation": (declared, (M.randn(3),)),
        "fake_shape": (fake_shape, (M.randn(3, 2),)),
        "fake_dtype": (fake_dtype, (M.randn(3, 2),)),
        "fake_stride": (fake_stride, (M.randn(3, 2),)),
        "fake_device": (fake_device, (M.randn(3, 2),)),
        "no_fake": (no_fake, (M.randn(3),)),
        "no_backward": (no_backward, (M.randn(3, requires_grad=True),)),
    }


@case("opcheck/results")
def _opcheck(M: Any) -> Any:  # noqa: N803
    ns = ns_of("opcheck")
    ops = _opcheck_ops(M, ns)
    out = {}
    for name, (op, args) in ops.items():
        r = M.library.opcheck(op, args, raise_exception=False)
        out[name] = {
            k: (
                v.replace(ns, "<ns>")
                if isinstance(v, str)
                else {**v, "msg": v["msg"].replace(ns, "<ns>")}
            )
            for k, v in _opcheck_result(r).items()
        }
    op, args = ops["undeclared_mutation"]
    out["raised"] = error_of(lambda: M.library.opcheck(op, args))
    out["raised"]["msg"] = out["raised"]["msg"].replace(ns, "<ns>")
    out["subset"] = _opcheck_result(
        M.library.opcheck(
            ops["good"][0], ops["good"][1], test_utils=("test_schema", "test_faketensor")
        )
    )
    out["bad_test_utils"] = error_of(
        lambda: M.library.opcheck(ops["good"][0], ops["good"][1], test_utils="test_foo")
    )
    out["rtol_only"] = error_of(
        lambda: M.library.opcheck(ops["good"][0], ops["good"][1], rtol=1e-3)
    )
    out["not_an_op"] = error_of(lambda: M.library.opcheck(lambda x: x, (M.ones(1),)))
    drop(M, ns)
    return out
