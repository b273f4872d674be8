"""Dispatch-mode, tensor-subclass, FLOP-counter and schema-check cases shared between PyTorch
(the oracle) and keyroute.

A case is ``case(M) -> JSON-able result`` with ``M`` the ``torch`` or the ``keyroute`` module.
``tools/record_extension.py`` records them with torch in ``tests/data/extension_utils.json``;
``tests/utils/test_recorded.py`` runs them with keyroute and compares.
"""

import importlib
from collections.abc import Callable
from typing import Any

from tests.library.cases import error_of, norm, tlist

CASES: dict[str, Callable[[Any], Any]] = {}


def case(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    def deco(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        CASES[name] = fn
        return fn

    return deco


def pd(M: Any) -> Any:  # noqa: N803
    return importlib.import_module(M.__name__ + ".utils._python_dispatch")


def flop_counter(M: Any) -> Any:  # noqa: N803
    return importlib.import_module(M.__name__ + ".utils.flop_counter")


def schema_check_mode(M: Any) -> Any:  # noqa: N803
    if M.__name__ == "torch":
        return importlib.import_module("torch._subclasses.schema_check_mode").SchemaCheckMode
    return importlib.import_module("keyroute.utils.schema_check").SchemaCheckMode


def describe(v: Any, M: Any) -> Any:  # noqa: N803
    """A JSON-able picture of an argument as a handler receives it."""
    if isinstance(v, M.Tensor):
        return f"{type(v).__name__}{list(v.shape)}"
    if isinstance(v, (list, tuple)):
        return [describe(x, M) for x in v]
    if isinstance(v, (int, float, bool, str)) or v is None:
        return v
    return norm(str(v))


def logging_mode(M: Any, log: list[Any], tag: str = "", detail: bool = False) -> Any:  # noqa: N803
    stack_len = pd(M)._len_torch_dispatch_stack

    class Log(pd(M).TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            kwargs = kwargs or {}
            if detail:
                log.append(
                    [
                        str(func),
                        [t.__name__ for t in types],
                        describe(list(args), M),
                        {k: describe(v, M) for k, v in sorted(kwargs.items())},
                    ]
                )
            elif tag:
                log.append([tag, str(func), stack_len()])
            else:
                log.append(str(func))
            return func(*args, **kwargs)

    return Log()


# -- modes --------------------------------------------------------------------------------------


@case("mode/nested_order_and_reentrancy")
def _nested(M: Any) -> Any:  # noqa: N803
    log: list[Any] = []
    with logging_mode(M, log, "outer"):
        with logging_mode(M, log, "inner"):
            x = M.ones(2) + 1
        y = x * 3
    outside = M.ones(1)
    return {"log": log, "values": tlist(y), "outside_type": type(outside).__name__}


@case("mode/handler_calls_ops")
def _handler_calls(M: Any) -> Any:  # noqa: N803
    seen: list[str] = []

    class Doubling(pd(M).TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            seen.append(str(func))
            out = func(*args, **(kwargs or {}))
            if isinstance(out, M.Tensor) and out.is_floating_point():
                return M.mul(out, 2)  # the mode is off in here: not intercepted again
            return out

    with Doubling():
        y = M.ones(3) + 1
    return {"seen": seen, "y": tlist(y)}


@case("mode/func_attributes")
def _func_attributes(M: Any) -> Any:  # noqa: N803
    out = {}
    ops = M.ops.aten
    for f in (
        ops.add.Tensor,
        ops.mm.default,
        ops.sum.dim_IntList,
        ops.ones.default,
        ops.relu_.default,
    ):
        p = f.overloadpacket
        out[str(f)] = [
            str(f),
            repr(f),
            f.__name__,
            str(p),
            repr(p),
            p.__name__,
            str(f._schema),
            f.name(),
            f.namespace,
            f._opname,
            f._overloadname,
            type(f).__name__ == "OpOverload" or type(f).__name__.startswith("OpOverload"),
        ]
    return out


@case("mode/arguments_as_boxed")
def _boxed(M: Any) -> Any:  # noqa: N803
    log: list[Any] = []
    a = M.ones(2, 3)
    w = M.ones(4, 3)
    with logging_mode(M, log, detail=True):
        M.sum(a, dim=1, keepdim=True)
        M.sum(a, 1)
        a.to(M.float64)
        M.nn.functional.linear(a, w)
        M.add(a, a, alpha=2)
        a * 2
        a.view(3, 2)
        M.cat([a, a], 1)
        M.softmax(a, -1)
        a.transpose(0, 1).contiguous()
    return log


@case("mode/factory_kwargs")
def _factory(M: Any) -> Any:  # noqa: N803
    log: list[Any] = []
    with logging_mode(M, log, detail=True):
        M.ones(2)
        M.zeros(2, dtype=M.int64)
        M.empty_like(M.ones(1))
    return log


@case("mode/seed_rmsnorm_sequence")
def _rmsnorm(M: Any) -> Any:  # noqa: N803
    M.manual_seed(0)
    x = M.randn(2, 16)
    w = M.ones(16)
    lin = M.nn.Linear(16, 32, bias=False)
    log: list[str] = []
    with logging_mode(M, log):
        h = x * M.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
        M.nn.functional.silu(lin(h))
    return log


@case("mode/backward_sequence")
def _backward_seq(M: Any) -> Any:  # noqa: N803
    a = M.ones(2, 3, requires_grad=True)
    log: list[str] = []
    with logging_mode(M, log):
        (a * 2).sum().backward()
    return log


@case("mode/backward_sequence_tensor_tensor")
def _backward_seq2(M: Any) -> Any:  # noqa: N803
    a = M.ones(2, 3, requires_grad=True)
    b = M.full((2, 3), 3.0, requires_grad=True)
    log: list[str] = []
    with logging_mode(M, log):
        (a * b).sum().backward()
    return {"log": log, "grads": [tlist(a.grad), tlist(b.grad)]}


@case("mode/sdpa_counts")
def _sdpa_counts(M: Any) -> Any:  # noqa: N803
    q = k = v = M.randn(1, 8, 128, 64)
    log: list[str] = []
    with logging_mode(M, log):
        M.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    return log


@case("mode/stack_api")
def _stack_api(M: Any) -> Any:  # noqa: N803
    P = pd(M)
    seen: list[Any] = []

    class Probe(P.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            seen.append(
                [str(func), P._len_torch_dispatch_stack(), P._get_current_dispatch_mode() is None]
            )
            return func(*args, **(kwargs or {}))

    out = {"outside": [P._len_torch_dispatch_stack(), P._get_current_dispatch_mode() is None]}
    with Probe() as m:
        out["inside"] = [
            P._len_torch_dispatch_stack(),
            P._get_current_dispatch_mode() is m,
            len(P._get_current_dispatch_mode_stack()),
        ]
        M.ones(1)
        with P._pop_mode_temporarily() as popped:
            out["popped"] = [popped is m, P._len_torch_dispatch_stack()]
            M.ones(1)
    out["seen"] = seen
    out["after"] = P._len_torch_dispatch_stack()
    return out


@case("mode/handler_error_restores_state")
def _handler_error(M: Any) -> Any:  # noqa: N803
    P = pd(M)

    class Boom(P.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN202
            raise ValueError(f"boom in {func}")

    err = None
    with Boom():
        err = error_of(lambda: M.ones(2))
        depth = P._len_torch_dispatch_stack()
    return {
        "error": err,
        "depth_inside": depth,
        "after": P._len_torch_dispatch_stack(),
        "works_after": tlist(M.ones(2) + 1),
    }


# -- tensor subclasses --------------------------------------------------------------------------


def logging_tensor_class(M: Any, log: list[str]) -> type:  # noqa: N803
    """PyTorch's LoggingTensor pattern: a wrapper subclass holding an inner tensor."""

    def unwrap(v: Any) -> Any:
        if isinstance(v, LoggingTensor):
            return v.elem
        if isinstance(v, (list, tuple)):
            return type(v)(unwrap(x) for x in v)
        return v

    def wrap(v: Any) -> Any:
        if isinstance(v, M.Tensor) and not isinstance(v, LoggingTensor):
            return LoggingTensor(v)
        if isinstance(v, (list, tuple)):
            return type(v)(wrap(x) for x in v)
        return v

    class LoggingTensor(M.Tensor):
        elem: Any
        if hasattr(M._C, "_disabled_torch_function_impl"):
            __torch_function__ = M._C._disabled_torch_function_impl

        @staticmethod
        def __new__(cls, elem, requires_grad=False):  # noqa: ANN001, ANN205
            r = M.Tensor._make_wrapper_subclass(
                cls,
                elem.size(),
                strides=elem.stride(),
                storage_offset=elem.storage_offset(),
                dtype=elem.dtype,
                layout=elem.layout,
                device=elem.device,
                requires_grad=requires_grad,
            )
            r.elem = elem.detach() if r.requires_grad else elem
            return r

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            kwargs = kwargs or {}
            out = func(*unwrap(args), **{k: unwrap(v) for k, v in kwargs.items()})
            log.append(f"{func} {describe(list(args), M)} types={[t.__name__ for t in types]}")
            return wrap(out)

    return LoggingTensor


@case("subclass/logging_tensor_forward")
def _logging_forward(M: Any) -> Any:  # noqa: N803
    log: list[str] = []
    LT = logging_tensor_class(M, log)
    x = LT(M.tensor([1.0, 2.0, 3.0]))
    y = x * 2 + 1
    w = LT(M.ones(2, 3))
    u = w.t()
    s = M.ones(3) + LT(M.ones(3))
    keys = norm(str(M._C._dispatch_keys(x)))
    return {
        "log": log,
        "meta": [
            type(x).__name__,
            list(x.shape),
            str(x.dtype).split(".")[-1],
            str(x.device),
            x.requires_grad,
            x.is_leaf,
            keys,
        ],
        "y": [type(y).__name__, tlist(y.elem)],
        "t": [type(u).__name__, list(u.shape), list(u.stride()), list(u.elem.stride())],
        "mixed": type(s).__name__,
    }


@case("subclass/logging_tensor_backward")
def _logging_backward(M: Any) -> Any:  # noqa: N803
    log: list[str] = []
    LT = logging_tensor_class(M, log)
    x = LT(M.tensor([1.0, 2.0, 3.0]), requires_grad=True)
    y = x * 2 + 1
    fn = type(y.grad_fn).__name__
    y.sum().backward()
    return {"grad_fn": fn, "grad": [type(x.grad).__name__, tlist(x.grad.elem)], "log": log}


@case("subclass/with_mode")
def _subclass_and_mode(M: Any) -> Any:  # noqa: N803
    sub_log: list[str] = []
    mode_log: list[Any] = []
    LT = logging_tensor_class(M, sub_log)
    x = LT(M.ones(2))
    with logging_mode(M, mode_log, detail=True):
        y = x + 1
    return {"mode": mode_log, "subclass": sub_log, "type": type(y).__name__}


@case("subclass/not_implemented")
def _not_implemented(M: Any) -> Any:  # noqa: N803
    class Refuse(M.Tensor):
        @staticmethod
        def __new__(cls, elem):  # noqa: ANN001, ANN205
            return M.Tensor._make_wrapper_subclass(cls, elem.size(), dtype=elem.dtype)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            return NotImplemented

    r = Refuse(M.ones(2))
    res = error_of(lambda: M.ops.aten.add.Tensor(r, 1))
    res["msg"] = res["msg"].split("\n")[0] if res["msg"] else None
    return res


@case("subclass/not_implemented_binary_operator")
def _not_implemented_operator(M: Any) -> Any:  # noqa: N803
    class Refuse(M.Tensor):
        @staticmethod
        def __new__(cls, elem):  # noqa: ANN001, ANN205
            return M.Tensor._make_wrapper_subclass(cls, elem.size(), dtype=elem.dtype)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):  # noqa: ANN001, ANN206
            return NotImplemented

    r = Refuse(M.ones(2))
    return error_of(lambda: r + 1)


# -- FLOP counter -------------------------------------------------------------------------------


def _counts(M: Any, fn: Callable[[], Any], **kw: Any) -> Any:  # noqa: N803
    with flop_counter(M).FlopCounterMode(display=False, **kw) as fc:
        fn()
    return {
        "total": fc.get_total_flops(),
        "by_module": {
            m: {str(k): v for k, v in d.items()} for m, d in fc.get_flop_counts().items()
        },
    }


def _flop_cases(M: Any) -> dict[str, Callable[[], Any]]:  # noqa: N803
    F = M.nn.functional
    o = M.ones
    return {
        "mm": lambda: o(4, 8) @ o(8, 16),
        "bmm": lambda: M.bmm(o(3, 4, 5), o(3, 5, 6)),
        "addmm": lambda: M.addmm(o(4, 6), o(4, 5), o(5, 6)),
        "baddbmm": lambda: M.baddbmm(o(2, 4, 6), o(2, 4, 5), o(2, 5, 6)),
        "matmul_3d_2d": lambda: o(2, 3, 4) @ o(4, 5),
        "linear": lambda: F.linear(o(3, 4), o(5, 4), o(5)),
        "conv1d": lambda: F.conv1d(o(2, 3, 10), o(4, 3, 3)),
        "conv2d_stride_padding": lambda: F.conv2d(
            o(2, 3, 8, 8), o(6, 3, 3, 3), stride=2, padding=1
        ),
        "conv2d_groups": lambda: F.conv2d(o(1, 4, 6, 6), o(4, 2, 3, 3), groups=2),
        "convolution_transposed": lambda: M.ops.aten.convolution.default(
            o(1, 4, 5, 5), o(4, 3, 3, 3), None, [2, 2], [0, 0], [1, 1], True, [0, 0], 1
        ),
        "sdpa_cpu": lambda: F.scaled_dot_product_attention(
            o(1, 2, 8, 4), o(1, 2, 8, 4), o(1, 2, 8, 4)
        ),
        "sdpa_cpu_causal": lambda: F.scaled_dot_product_attention(
            o(1, 8, 128, 64), o(1, 8, 128, 64), o(1, 8, 128, 64), is_causal=True
        ),
        "sdpa_math_path": lambda: F.scaled_dot_product_attention(
            o(2, 2, 8, 4), o(2, 2, 6, 4), o(2, 2, 6, 5)
        ),
    }


def _flop_case(name: str) -> Callable[[Any], Any]:
    def run(M: Any) -> Any:  # noqa: N803
        return _counts(M, _flop_cases(M)[name])

    return run


for _n in (
    "mm",
    "bmm",
    "addmm",
    "baddbmm",
    "matmul_3d_2d",
    "linear",
    "conv1d",
    "conv2d_stride_padding",
    "conv2d_groups",
    "convolution_transposed",
    "sdpa_cpu",
    "sdpa_cpu_causal",
    "sdpa_math_path",
):
    CASES[f"flops/{_n}"] = _flop_case(_n)


@case("flops/backward")
def _flops_backward(M: Any) -> Any:  # noqa: N803
    F = M.nn.functional

    def conv() -> None:
        x = M.ones(2, 3, 8, 8, requires_grad=True)
        w = M.ones(4, 3, 3, 3, requires_grad=True)
        F.conv2d(x, w).sum().backward()

    def conv_weight_only() -> None:
        w = M.ones(4, 3, 3, 3, requires_grad=True)
        F.conv2d(M.ones(2, 3, 8, 8), w, stride=2).sum().backward()

    def mm() -> None:
        a = M.ones(4, 8, requires_grad=True)
        (a @ M.ones(8, 16, requires_grad=True)).sum().backward()

    return {
        "conv": _counts(M, conv),
        "conv_weight_only": _counts(M, conv_weight_only),
        "mm": _counts(M, mm),
    }


@case("flops/sdpa_backward")
def _flops_sdpa_backward(M: Any) -> Any:  # noqa: N803
    def run() -> None:
        q = M.ones(1, 2, 8, 4, requires_grad=True)
        M.nn.functional.scaled_dot_product_attention(q, q, q).sum().backward()

    return _counts(M, run)


def make_net(M: Any) -> Any:  # noqa: N803
    class Block(M.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.attn = M.nn.Linear(8, 8)
            self.mlp = M.nn.Sequential(M.nn.Linear(8, 16), M.nn.ReLU(), M.nn.Linear(16, 8))

        def forward(self, x):  # noqa: ANN001, ANN202
            return self.mlp(self.attn(x))

    class Net(M.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = M.nn.Conv2d(3, 2, 3)
            self.blocks = M.nn.ModuleList([Block(), Block()])

        def forward(self, x):  # noqa: ANN001, ANN202
            h = self.conv(x).flatten(1)[:, :8]
            for b in self.blocks:
                h = b(h)
            return h

    return Net()


@case("flops/per_module")
def _flops_modules(M: Any) -> Any:  # noqa: N803
    M.manual_seed(0)
    net = make_net(M)
    x = M.ones(2, 3, 6, 6)
    return {
        "forward": _counts(M, lambda: net(x)),
        "forward_backward": _counts(M, lambda: net(x).sum().backward()),
    }


@case("flops/formulas")
def _formulas(M: Any) -> Any:  # noqa: N803
    fc = flop_counter(M)
    return {
        "mm_flop": fc.mm_flop((4, 8), (8, 16)),
        "addmm_flop": fc.addmm_flop((4, 16), (4, 8), (8, 16)),
        "bmm_flop": fc.bmm_flop((3, 4, 5), (3, 5, 6)),
        "baddbmm_flop": fc.baddbmm_flop((3, 4, 6), (3, 4, 5), (3, 5, 6)),
        "conv_flop_count": fc.conv_flop_count((2, 3, 8, 8), (6, 3, 3, 3), (2, 6, 6, 6)),
        "conv_flop_count_transposed": fc.conv_flop_count(
            (1, 4, 5, 5), (4, 3, 3, 3), (1, 3, 11, 11), True
        ),
        "sdpa_flop_count": fc.sdpa_flop_count((2, 8, 128, 64), (2, 8, 256, 64), (2, 8, 256, 32)),
        "sdpa_flop_count_gqa": fc.sdpa_flop_count((1, 8, 16, 64), (1, 2, 32, 64), (1, 2, 32, 64)),
        "sdpa_backward_flop_count": fc.sdpa_backward_flop_count(
            (2, 8, 128, 32), (2, 8, 128, 64), (2, 8, 256, 64), (2, 8, 256, 32)
        ),
        "sdpa_flop_count_bad": error_of(
            lambda: fc.sdpa_flop_count((1, 3, 4, 8), (1, 2, 4, 8), (1, 2, 4, 8))
        ),
        "mm_flop_bad": error_of(lambda: fc.mm_flop((4, 8), (7, 16))),
    }


@case("flops/display_and_mods_warning")
def _flops_misc(M: Any) -> Any:  # noqa: N803
    import warnings

    fc_mod = flop_counter(M)
    net = M.nn.Linear(4, 4)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        counter = fc_mod.FlopCounterMode(net, display=False)
    with counter:
        net(M.ones(2, 4))
    return {
        "warnings": [str(x.message) for x in w],
        "total": counter.get_total_flops(),
        "modules": sorted(counter.get_flop_counts()),
    }


# -- schema check -------------------------------------------------------------------------------


@case("schema_check/violations")
def _schema_check(M: Any) -> Any:  # noqa: N803
    SCM = schema_check_mode(M)
    lib = M.library.Library("kx_schema_check", "FRAGMENT")
    lib.define("sneaky(Tensor x) -> Tensor")

    def sneaky(x):  # noqa: ANN001, ANN202
        x.add_(1)
        return x.clone()

    lib.impl("sneaky", sneaky, "CPU")
    lib.define("aliasing(Tensor x) -> Tensor")
    lib.impl("aliasing", lambda x: x.view(-1), "CPU")
    lib.define("aliasing2(Tensor x, Tensor y) -> Tensor")
    lib.impl("aliasing2", lambda x, y: y.view(-1), "CPU")
    lib.define("returns_input(Tensor self) -> Tensor")
    lib.impl("returns_input", lambda x: x, "CPU")
    lib.define("two_views(Tensor x) -> (Tensor, Tensor)")
    lib.impl("two_views", lambda x: (x.clone().view(-1), x.clone()), "CPU")
    lib.define("outputs_alias(Tensor x) -> (Tensor, Tensor)")

    def outputs_alias(x):  # noqa: ANN001, ANN202
        y = x.clone()
        return y, y.view(-1)

    lib.impl("outputs_alias", outputs_alias, "CPU")
    lib.define("honest(Tensor(a!) x) -> Tensor(a!)")

    def honest(x):  # noqa: ANN001, ANN202
        x.add_(1)
        return x

    lib.impl("honest", honest, "CPU")
    lib.define("view_ok(Tensor(a) x) -> Tensor(a)")
    lib.impl("view_ok", lambda x: x.view(-1), "CPU")
    lib.define("slice_other_half(Tensor x) -> Tensor")
    lib.impl("slice_other_half", lambda x: x.clone()[2:], "CPU")
    ops = M.ops.kx_schema_check

    def run(fn: Callable[[], Any]) -> Any:
        mode = SCM()
        res = error_of(lambda: _in(mode, fn))
        res["ops"] = list(mode.ops)
        res["mutated"] = [list(m) for m in mode.mutated]
        res["aliasing"] = [list(a) for a in mode.aliasing]
        if res["error"]:
            res["msg"] = res["msg"].split("\n")[0]
        return res

    out = {
        "sneaky": run(lambda: ops.sneaky(M.ones(2))),
        "aliasing": run(lambda: ops.aliasing(M.ones(2))),
        "aliasing2": run(lambda: ops.aliasing2(M.ones(2), M.ones(2))),
        "returns_input": run(lambda: ops.returns_input(M.ones(2))),
        "two_views": run(lambda: ops.two_views(M.ones(2))),
        "outputs_alias": run(lambda: ops.outputs_alias(M.ones(2))),
        "honest": run(lambda: ops.honest(M.ones(2))),
        "view_ok": run(lambda: ops.view_ok(M.ones(2))),
        "slice": run(lambda: ops.slice_other_half(M.ones(4))),
        "aten": run(
            lambda: (
                M.ones(2, 3).t().add_(1),
                M.ones(3).relu_(),
                M.ones(2).view(2, 1),
                M.ones(3).unsqueeze(0).squeeze(0),
                M.add(M.ones(1), 1),
            )
        ),
    }
    lib._destroy()
    return out


def _in(mode: Any, fn: Callable[[], Any]) -> Any:
    with mode:
        return fn()


@case("schema_check/custom_op_undeclared_mutation")
def _schema_check_custom(M: Any) -> Any:  # noqa: N803
    from tests.library.cases import drop

    SCM = schema_check_mode(M)
    T = M.Tensor

    @M.library.custom_op("kx_schema_check_cop::cop", mutates_args=())
    def cop(x: T) -> T:
        x.mul_(2)
        return x + 1

    res = error_of(lambda: _in(SCM(), lambda: cop(M.ones(2))))
    drop(M, "kx_schema_check_cop")
    return res
