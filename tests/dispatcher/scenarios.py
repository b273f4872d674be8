"""Dispatcher conformance scenarios, shared between PyTorch (the oracle) and keyroute.

A scenario is a plain function ``scenario(M) -> JSON-able result`` where ``M`` is either the
``torch`` module or the ``keyroute`` module (keyroute mirrors PyTorch's Python API names).
``tools/record_dispatch.py`` runs every scenario with ``M = torch`` and stores the normalized
results in ``tests/data/dispatch_conformance.json``; ``tests/dispatcher/test_conformance.py``
runs the same scenarios with ``M = keyroute`` and compares.

This module imports neither torch nor keyroute. Every scenario works in its own operator
namespaces (``kr_<hash of the scenario name>[_suffix]``, printed as ``<ns>`` in results) and
destroys every ``Library`` it creates, so scenarios are independent and can run in any order
in one process.

Result conventions
------------------
* A kernel appends its label (``"CPU"``, ``"CIA"``, ...) to a log and returns its first tensor
  argument; a call's result is the list of labels reached, or, when it raises,
  ``{"labels": [...], "error": <exception type name>, "msg": <first line of the message>}``
  (``labels`` omitted when empty).
* Dump text is normalized: ``<path>:<line>`` becomes ``<user>`` when the file is this module
  (or ``<string>``) and ``<builtin>`` otherwise; scenario namespaces become ``<ns>``.
* ``{"__table__": [lines]}`` is a raw ``_dispatch_dump_table``; :func:`normalize` rewrites it
  relative to the baseline table (the table of an operator without kernels) as
  ``{"__table_diff__": [lines not in the baseline, in order] + ["-Key" for baseline keys absent]}``.
  The same baseline (the recorded one) is used for torch and keyroute results, so the
  compaction is symmetric.
* ``"torch_stale": true`` marks a registration order for which PyTorch's *runtime* dispatch table
  was stale (``_dispatch_check_invariants`` failed: CEA registered after CIA does not refresh
  the Autograd*/NestedTensor* slots). ``"calls"`` then holds what torch really ran and
  ``"calls_computed"`` what it runs once the table is refreshed (= what the dump says).
  keyroute follows the computed table, so :func:`keyroute_expectation` expects
  ``calls_computed`` from it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import warnings
from collections.abc import Callable
from typing import Any

# ---------------------------------------------------------------------------------------------
# Key names and short labels
# ---------------------------------------------------------------------------------------------

SHORT = {
    "CIA": "CompositeImplicitAutograd",
    "CEA": "CompositeExplicitAutograd",
    "CEANF": "CompositeExplicitAutogradNonFunctional",
    "CIANested": "CompositeImplicitAutogradNestedTensor",
    "FTBD": "FuncTorchBatchedDecomposition",
}

ALIAS_KEYS = [
    "Autograd",
    "CompositeImplicitAutograd",
    "FuncTorchBatchedDecomposition",
    "CompositeImplicitAutogradNestedTensor",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
]

# Kernels on these keys re-enter the operator below autograd, like a real autograd kernel.
_AUTOGRAD_LABELS = {
    "Autograd",
    "AutogradCPU",
    "AutogradCUDA",
    "AutogradMeta",
    "AutogradOther",
    "AutogradNestedTensor",
    "AutogradPrivateUse1",
}

# Keys probed with _dispatch_has_kernel_for_dispatch_key & co. (passed as strings).
PROBE_KEYS = [
    "CPU",
    "CUDA",
    "Meta",
    "AutogradCPU",
    "AutogradMeta",
    "AutogradOther",
    "AutogradNestedTensor",
    "NestedTensorCPU",
    "FPGA",
    "QuantizedCPU",
    "SparseCPU",
    "FuncTorchBatched",
    "Autograd",
    "CompositeImplicitAutograd",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
    "CompositeImplicitAutogradNestedTensor",
]

# Call contexts of the registration-grid scenarios (tensor creation, context around the call).
CALL_CONTEXTS = [
    "cpu",
    "cpu_grad",
    "meta",
    "meta_grad",
    "inference_tensor",
    "in_inference_mode",
    "below_autograd",
    "below_adinplace",
]


def full_name(label: str) -> str:
    return SHORT.get(label, label)


# ---------------------------------------------------------------------------------------------
# Text normalization
# ---------------------------------------------------------------------------------------------

_USER_BASENAMES = {"scenarios.py"}
_USER_PSEUDO = {"<string>", "<stdin>"}

# "path":123  (C++ INTERNAL ASSERT style)
_QUOTED_LOC = re.compile(r'"([^"\n]+)":(\d+)')
# path:123 where path is absolute, relative with a slash, or <string>
_PLAIN_LOC = re.compile(
    r"(?<![\w<>])((?:[A-Za-z]:[\\/]|/|\.{1,2}[\\/]|[\w.+-]+[\\/])[^\s:\"'()\[\]]*|<string>|<stdin>):(\d+)"
)


def _loc_token(path: str) -> str:
    if path in _USER_PSEUDO:
        return "<user>"
    base = re.split(r"[\\/]", path)[-1]
    return "<user>" if base in _USER_BASENAMES else "<builtin>"


def normalize_text(text: str, namespaces: list[str] | tuple[str, ...] = ()) -> str:
    """Normalize file locations and scenario namespaces in a piece of text."""
    text = _QUOTED_LOC.sub(lambda m: _loc_token(m.group(1)), text)
    text = _PLAIN_LOC.sub(lambda m: _loc_token(m.group(1)), text)
    for ns in sorted(set(namespaces), key=len, reverse=True):
        text = text.replace(ns, "<ns>")
    return text


def first_line(exc: BaseException) -> str:
    """First non-blank line of the exception message (some torch messages start with a newline)."""
    for ln in str(exc).splitlines():
        if ln.strip():
            return ln
    return ""


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x))


def table_diff(lines: list[str], baseline: list[str]) -> list[str]:
    """Compact a table (list of lines) relative to ``baseline`` (list of lines).

    Lines equal to a baseline line are dropped; runs of consecutive remaining lines with the
    same text after ``Key: `` are merged into ``K1,K2,...: text``; baseline keys that have no
    line at all are listed at the end as ``-K1,K2,...``.
    """
    base_set = set(baseline)
    keys = {ln.split(":", 1)[0] for ln in lines}
    out: list[str] = []
    run_keys: list[str] = []
    run_val: str | None = None
    for ln in lines:
        if ln in base_set:
            continue
        k, _, v = ln.partition(": ")
        if run_val is not None and v == run_val:
            run_keys.append(k)
            continue
        if run_val is not None:
            out.append(",".join(run_keys) + ": " + run_val)
        run_keys, run_val = [k], v
    if run_val is not None:
        out.append(",".join(run_keys) + ": " + run_val)
    missing = [ln.split(":", 1)[0] for ln in baseline if ln.split(":", 1)[0] not in keys]
    if missing:
        out.append("-" + ",".join(missing))
    return out


def normalize(result: Any, baseline: list[str] | None = None) -> Any:
    """JSON round-trip ``result`` and compact every ``{"__table__": lines}`` against ``baseline``.

    Applied identically to torch's and keyroute's results (with the recorded baseline).
    """

    def walk(x: Any) -> Any:
        if isinstance(x, dict):
            if (
                set(x) == {"__table__"}
                and isinstance(x["__table__"], list)
                and baseline is not None
            ):
                return {"__table_diff__": table_diff(x["__table__"], baseline)}
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    return walk(_jsonable(result))


def keyroute_expectation(recorded: Any) -> Any:
    """What keyroute must produce for a recorded torch result.

    Wherever torch's runtime table was stale (``torch_stale``), keyroute must behave like the
    computed table: ``calls`` is replaced by ``calls_computed``.
    """
    if isinstance(recorded, dict):
        d = {k: keyroute_expectation(v) for k, v in recorded.items()}
        if d.pop("torch_stale", False):
            d["calls"] = d.pop("calls_computed")
        else:
            d.pop("calls_computed", None)
        return d
    if isinstance(recorded, list):
        return [keyroute_expectation(v) for v in recorded]
    return recorded


# ---------------------------------------------------------------------------------------------
# Scenario context
# ---------------------------------------------------------------------------------------------


def ns_for(name: str) -> str:
    return "kr_" + hashlib.sha1(name.encode()).hexdigest()[:12]


class _Ctx:
    def __init__(self, M: Any, name: str):
        self.M = M
        self.C = M._C
        self.name = name
        self.base = ns_for(name)
        self.namespaces: list[str] = [self.base]
        self.libs: list[Any] = []
        self.log: list[Any] = []

    # -- namespaces / libraries ---------------------------------------------------------------
    def ns(self, suffix: str = "") -> str:
        n = self.base + suffix
        if n not in self.namespaces:
            self.namespaces.append(n)
        return n

    def lib(self, ns: str, kind: str = "FRAGMENT", *args: Any) -> Any:
        lib = self.M.library.Library(ns, kind, *args)
        self.libs.append(lib)
        return lib

    def destroy(self, lib: Any) -> None:
        if lib in self.libs:
            self.libs.remove(lib)
        lib._destroy()

    def close(self) -> None:
        while self.libs:
            lib = self.libs.pop()
            try:
                lib._destroy()
            except Exception:  # noqa: BLE001 - best effort cleanup
                pass

    # -- helpers ------------------------------------------------------------------------------
    def text(self, s: str) -> str:
        return normalize_text(s, self.namespaces)

    def err(self, e: BaseException) -> dict:
        return {"error": type(e).__name__, "msg": self.text(first_line(e))}

    def key(self, name: str) -> Any:
        return self.C._dispatch_key_parse(name)

    def ks(self, *names: str) -> Any:
        out = None
        for n in names:
            s = self.C.DispatchKeySet(self.key(n))
            out = s if out is None else (out | s)
        return out

    def kname(self, k: Any) -> str:
        return self.C._dispatch_key_name(k)

    def op(self, ns: str, name: str = "foo", overload: str | None = None) -> Any:
        packet = getattr(getattr(self.M.ops, ns), name)
        return packet if overload is None else getattr(packet, overload)

    def table(self, qualname: str) -> dict:
        txt = self.C._dispatch_dump_table(qualname)
        return {"__table__": [self.text(ln) for ln in txt.splitlines() if ln.strip()]}

    def dump(self, qualname: str) -> list[str]:
        txt = self.C._dispatch_dump(qualname)
        return [self.text(ln) for ln in txt.splitlines() if ln.strip()]

    def call(self, thunk: Callable[[], Any]) -> Any:
        self.log.clear()
        try:
            thunk()
        except Exception as e:  # noqa: BLE001
            r = self.err(e)
            if self.log:
                r = {"labels": list(self.log), **r}
            self.log.clear()
            return r
        out = list(self.log)
        self.log.clear()
        return out

    def attempt(self, thunk: Callable[[], Any]) -> Any:
        """Run thunk; return {"ok": <jsonable value or None>} or the error dict."""
        try:
            v = thunk()
        except Exception as e:  # noqa: BLE001
            return self.err(e)
        if v is None or isinstance(v, (bool, int, float, str)):
            return {"ok": v}
        return {"ok": self.text(repr(v))}

    # -- kernels ------------------------------------------------------------------------------
    def kernel(self, label: str, ns: str, opname: str = "foo") -> Callable:
        log = self.log
        if label in _AUTOGRAD_LABELS:
            M = self.M

            def autograd_kernel(*args: Any, **kwargs: Any) -> Any:
                log.append(label)
                with M._C._AutoDispatchBelowAutograd():
                    return getattr(getattr(M.ops, ns), opname)(*args, **kwargs)

            return autograd_kernel

        def kernel(*args: Any, **kwargs: Any) -> Any:
            log.append(label)
            return args[0]

        return kernel

    def keyset_kernel(self, label: str, ns: str, redispatch: bool, opname: str = "foo") -> Callable:
        """A with_keyset=True kernel: logs "label repr(keyset)"; optionally redispatches below its
        own key: ``keyset & _dispatch_keyset_full_after(keyset.highestPriorityTypeId())``."""
        log = self.log
        C = self.C
        ctx = self

        def kernel(keyset: Any, *args: Any, **kwargs: Any) -> Any:
            log.append(label + " " + ctx.text(repr(keyset)))
            if redispatch:
                below = keyset & C._dispatch_keyset_full_after(keyset.highestPriorityTypeId())
                return ctx.op(ns, opname, "default").redispatch(below, *args, **kwargs)
            return args[0]

        return kernel

    # -- stale runtime table (torch only) -----------------------------------------------------
    def torch_stale(self, qualname: str) -> bool:
        if getattr(self.M, "__name__", "") != "torch":
            return False
        try:
            self.C._dispatch_check_invariants(qualname)
        except RuntimeError:
            return True
        return False

    def refresh(self, ns: str, opname: str = "foo") -> None:
        """Force torch to recompute every CIA-covered slot (register + destroy a CIA kernel)."""
        tmp = self.M.library.Library(ns, "FRAGMENT")
        try:
            tmp.impl(opname, lambda *a, **k: a[0], "CompositeImplicitAutograd")
        finally:
            tmp._destroy()
        if self.torch_stale(f"{ns}::{opname}"):
            raise AssertionError(f"refresh did not fix the runtime table of {ns}::{opname}")


def _probe(ctx: _Ctx, qualname: str, keys: list[str]) -> dict:
    """has_kernel / has_computed_kernel / is_fallthrough per key, as a 3-char string."""
    C = ctx.C
    out = {}
    for k in keys:
        s = ""
        for fn in (
            C._dispatch_has_kernel_for_dispatch_key,
            C._dispatch_has_computed_kernel_for_dispatch_key,
            C._dispatch_kernel_for_dispatch_key_is_fallthrough,
        ):
            try:
                s += "1" if fn(qualname, k) else "0"
            except Exception:  # noqa: BLE001
                s += "E"
        out[k] = s
    return out


# ---------------------------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------------------------


def _one_call(ctx: _Ctx, ns: str, opname: str, c: str) -> Any:
    """Create the input tensor for call context ``c`` and call the operator in that context."""
    M = ctx.M
    C = ctx.C

    def f(x: Any) -> Any:
        return ctx.op(ns, opname)(x)

    if c == "cpu":
        x = M.randn(2)
        return ctx.call(lambda: f(x))
    if c == "cpu_grad":
        x = M.randn(2, requires_grad=True)
        return ctx.call(lambda: f(x))
    if c == "meta":
        x = M.empty(2, device="meta")
        return ctx.call(lambda: f(x))
    if c == "meta_grad":
        x = M.empty(2, device="meta", requires_grad=True)
        return ctx.call(lambda: f(x))
    if c == "inference_tensor":
        with M.inference_mode():
            x = M.randn(2)
        return ctx.call(lambda: f(x))
    if c == "in_inference_mode":
        x = M.randn(2)

        def in_inference() -> Any:
            with M.inference_mode():
                return f(x)

        return ctx.call(in_inference)
    if c == "below_autograd":
        x = M.randn(2, requires_grad=True)

        def below_autograd() -> Any:
            with C._AutoDispatchBelowAutograd():
                return f(x)

        return ctx.call(below_autograd)
    if c == "below_adinplace":
        x = M.randn(2, requires_grad=True)

        def below_adinplace() -> Any:
            with C._AutoDispatchBelowADInplaceOrView():
                return f(x)

        return ctx.call(below_adinplace)
    if c.startswith("include:") or c.startswith("include_grad:"):
        # call with a (requires_grad) CPU tensor under _IncludeDispatchKeyGuard(key)
        kind, key = c.split(":", 1)
        x = M.randn(2, requires_grad=True) if kind == "include_grad" else M.randn(2)
        k = ctx.key(key)

        def included() -> Any:
            with C._IncludeDispatchKeyGuard(k):
                return f(x)

        return ctx.call(included)
    if c.startswith("slot:"):
        # redispatch straight to the slot of one runtime key
        key = c.split(":", 1)[1]
        x = M.randn(2)
        ks = ctx.ks(key)
        return ctx.call(lambda: ctx.op(ns, opname, "default").redispatch(ks, x))
    raise ValueError(c)  # pragma: no cover - scenario definition error


def _run_calls(ctx: _Ctx, ns: str, contexts: list[str], opname: str = "foo") -> dict:
    return {c: _one_call(ctx, ns, opname, c) for c in contexts}


# ---------------------------------------------------------------------------------------------
# Registration runs (shared by the table / fallthrough / autogradother / combo groups)
# ---------------------------------------------------------------------------------------------


def _parse_reg(tok: str) -> tuple[str, str, str]:
    """'CPU' / 'k:CPU' -> kernel, 'ft:CPU' -> fallthrough, 'ks:CPU' -> with_keyset kernel."""
    how, _, label = tok.rpartition(":")
    how = {"": "k", "k": "k", "ft": "ft", "ks": "ks"}[how]
    return how, label, full_name(label)


def _register_all(ctx: _Ctx, lib: Any, ns: str, regs: list[str]) -> dict:
    errors = {}
    for tok in regs:
        how, label, key = _parse_reg(tok)
        try:
            if how == "ft":
                lib.impl("foo", ctx.M.library.fallthrough_kernel, key)
            elif how == "ks":
                lib.impl(
                    "foo", ctx.keyset_kernel(label, ns, redispatch=False), key, with_keyset=True
                )
            else:
                lib.impl("foo", ctx.kernel(label, ns), key)
        except Exception as e:  # noqa: BLE001
            errors[tok] = ctx.err(e)
    return errors


def _one_order(
    ctx: _Ctx,
    suffix: str,
    regs: list[str],
    contexts: list[str],
    probe: bool,
    schema: str = "foo(Tensor x) -> Tensor",
) -> dict:
    ns = ctx.ns(suffix)
    q = f"{ns}::foo"
    lib = ctx.lib(ns)
    lib.define(schema)
    res: dict[str, Any] = {"order": list(regs)}
    errors = _register_all(ctx, lib, ns, regs)
    if errors:
        res["errors"] = errors
    res["table"] = ctx.table(q)
    res["dump"] = ctx.dump(q)
    if probe:
        res["probe"] = _probe(ctx, q, PROBE_KEYS)
    res["calls"] = _run_calls(ctx, ns, contexts)
    if ctx.torch_stale(q):
        res["torch_stale"] = True
        ctx.refresh(ns)
        res["calls_computed"] = _run_calls(ctx, ns, contexts)
    ctx.destroy(lib)
    return res


def _same_or(a: Any, b: Any) -> Any:
    return "same" if a == b else b


def _orders_result(ctx: _Ctx, orders: list[list[str]], contexts: list[str]) -> dict:
    """Run the first order in full, then each other order; fields equal to the first order's
    are recorded as "same". Calls are compared with what the first order runs per its *computed*
    table (``calls_computed`` when torch's runtime table was stale), so that "same" means the
    same thing for torch and for keyroute."""
    first = _one_order(ctx, "_o0", orders[0], contexts, probe=True)
    ref_calls = first["calls_computed"] if first.get("torch_stale") else first["calls"]
    out = {"canonical": first, "perms": []}
    for i, order in enumerate(orders[1:], 1):
        r = _one_order(ctx, f"_o{i}", order, contexts, probe=False)
        for field in ("errors", "table", "dump"):
            if field in r or field in first:
                r[field] = _same_or(first.get(field), r.get(field))
        r["calls"] = _same_or(ref_calls, r["calls"])
        if "calls_computed" in r:
            r["calls_computed"] = _same_or(ref_calls, r["calls_computed"])
        out["perms"].append(r)
    return out


# ---------------------------------------------------------------------------------------------
# Scenario registry
# ---------------------------------------------------------------------------------------------

SCENARIOS: dict[str, Callable[[Any], Any]] = {}


def _add(name: str, body: Callable[[_Ctx], Any]) -> None:
    if name in SCENARIOS:
        raise ValueError(f"duplicate scenario name {name}")

    def scenario(M: Any, _name: str = name, _body: Callable[[_Ctx], Any] = body) -> Any:
        ctx = _Ctx(M, _name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return _body(ctx)
            finally:
                ctx.close()

    scenario.__name__ = "scenario_" + re.sub(r"\W", "_", name)
    scenario.__qualname__ = scenario.__name__
    SCENARIOS[name] = scenario


def group_of(name: str) -> str:
    return name.split("/", 1)[0]


# =============================================================================================
# 1. table/: every subset of 8 registration keys, canonical order + 2 seeded permutations
# =============================================================================================

TABLE_KEYS = ["CPU", "CUDA", "Meta", "AutogradCPU", "Autograd", "CIA", "CEA", "CEANF"]
# Canonical order: CEA/CEANF before CIA (torch's runtime table is then never stale) and Meta
# before CIA (torch.library refuses a Meta impl once a CIA kernel exists).
CANONICAL_ORDER = ["CEANF", "CEA", "CPU", "CUDA", "Meta", "AutogradCPU", "Autograd", "CIA"]


def permutations_for(name: str, labels: list[str], n: int = 2) -> list[list[str]]:
    out = []
    for i in range(n):
        rng = random.Random(f"{name}#{i}")
        out.append(rng.sample(list(labels), len(labels)))
    return out


def _table_scenario(labels: list[str]) -> Callable[[_Ctx], Any]:
    def body(ctx: _Ctx) -> Any:
        canon = sorted(labels, key=CANONICAL_ORDER.index)
        orders = [canon] + permutations_for(ctx.name, canon)
        return _orders_result(ctx, orders, CALL_CONTEXTS)

    return body


for _mask in range(256):
    _labels = [k for i, k in enumerate(TABLE_KEYS) if _mask >> i & 1]
    _add("table/" + ("+".join(_labels) or "none"), _table_scenario(_labels))


# =============================================================================================
# 2. baseline/: operator without kernels, unknown operators, impl without def
# =============================================================================================


def _baseline_empty(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    q = f"{ns}::foo"
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    txt = ctx.C._dispatch_dump_table(q)
    return {
        # the full table, uncompacted: this is the baseline every other table is compared to
        "table_full": [ctx.text(ln) for ln in txt.splitlines() if ln.strip()],
        "dump": ctx.dump(q),
        "probe": _probe(ctx, q, PROBE_KEYS),
        "calls": _run_calls(ctx, ns, CALL_CONTEXTS),
    }


_add("baseline/empty_op", _baseline_empty)


def _baseline_unknown(ctx: _Ctx) -> Any:
    q = f"{ctx.ns()}::nonexistent"
    C = ctx.C
    return {
        "dump": ctx.attempt(lambda: C._dispatch_dump(q)),
        "dump_table": ctx.attempt(lambda: C._dispatch_dump_table(q)),
        "has_kernel": ctx.attempt(lambda: C._dispatch_has_kernel_for_dispatch_key(q, "CPU")),
        "has_computed": ctx.attempt(
            lambda: C._dispatch_has_computed_kernel_for_dispatch_key(q, "CPU")
        ),
        # (torch 2.13 segfaults on _dispatch_kernel_for_dispatch_key_is_fallthrough here)
        "ops_attr": ctx.attempt(lambda: ctx.op(ctx.ns(), "nonexistent")),
    }


_add("baseline/unknown_op", _baseline_unknown)


def _baseline_impl_only(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    q = f"{ns}::foo"
    lib = ctx.lib(ns)
    r = {"impl": ctx.attempt(lambda: lib.impl("foo", ctx.kernel("CPU", ns), "CPU"))}
    r["dump"] = ctx.dump(q)
    r["table"] = ctx.table(q)
    r["probe"] = _probe(ctx, q, ["CPU", "Meta", "CompositeImplicitAutograd"])
    # defining the schema afterwards attaches it to the existing registrations
    r["define_after"] = ctx.attempt(lambda: lib.define("foo(Tensor x) -> Tensor"))
    r["dump_after_define"] = ctx.dump(q)
    r["calls_after_define"] = _run_calls(ctx, ns, ["cpu", "cpu_grad", "meta"])
    ctx.destroy(lib)
    r["dump_after_destroy"] = ctx.attempt(lambda: ctx.C._dispatch_dump(q))
    return r


_add("baseline/impl_only", _baseline_impl_only)


def _baseline_schemas(ctx: _Ctx) -> Any:
    """Dumps of a few schemas / alias analysis kinds (no kernels)."""
    ns = ctx.ns()
    lib = ctx.lib(ns)
    out = {}
    for i, (schema, kw) in enumerate(
        [
            ("foo(Tensor x) -> Tensor", {}),
            ("foo.ov(Tensor x, int y=3, *, float z=1.5) -> Tensor", {}),
            ("bar(Tensor(a) x) -> Tensor(a)", {}),
            ("baz(Tensor(a!) x) -> Tensor(a!)", {}),
            ("qux(Tensor x) -> (Tensor, Tensor)", {}),
            ("cons(Tensor x) -> Tensor", {"alias_analysis": "CONSERVATIVE"}),
            ("fs(Tensor x) -> Tensor", {"alias_analysis": "FROM_SCHEMA"}),
            ("nothing() -> ()", {}),
        ]
    ):
        r = {"define": ctx.attempt(lambda schema=schema, kw=kw: lib.define(schema, **kw))}
        qual = ns + "::" + schema.split("(", 1)[0]
        r["dump"] = ctx.dump(qual)
        out[f"{i}:{schema}"] = r
    return out


_add("baseline/schemas", _baseline_schemas)


# =============================================================================================
# 3. fallthrough/ , autogradother/ , nested/ , batched/ , combo/: explicit registration lists
# =============================================================================================


def _regs_scenario(regs: list[str], contexts: list[str], perms: int = 0) -> Callable[[_Ctx], Any]:
    def body(ctx: _Ctx) -> Any:
        orders = [list(regs)] + (permutations_for(ctx.name, regs, perms) if perms else [])
        if perms:
            return _orders_result(ctx, orders, contexts)
        return _one_order(ctx, "_o0", orders[0], contexts, probe=True)

    return body


FALLTHROUGH_CASES = [
    ["ft:CPU"],
    ["ft:CPU", "CIA"],
    ["ft:CPU", "CEA"],
    ["ft:CPU", "CEANF"],
    ["ft:CPU", "Meta"],
    ["ft:CPU", "CUDA"],
    ["ft:CPU", "AutogradCPU"],
    ["ft:CPU", "ft:AutogradCPU", "CIA"],
    ["ft:CPU", "ft:Meta", "CEA"],
    ["ft:AutogradCPU", "CPU"],
    ["ft:AutogradCPU", "CPU", "Autograd"],
    ["ft:AutogradCPU", "CPU", "Meta", "Autograd"],
    ["ft:AutogradCPU", "CIA"],
    ["ft:AutogradCPU", "CPU", "CIA"],
    ["ft:AutogradMeta", "CPU", "Meta", "Autograd"],
    ["ft:Autograd", "CPU"],
    ["ft:Autograd", "CPU", "Meta"],
    ["ft:Autograd", "CIA"],
    ["ft:Autograd", "CEA"],
    ["ft:Autograd", "AutogradCPU", "CPU"],
    ["ft:ADInplaceOrView", "CPU"],
    ["ADInplaceOrView", "CPU"],
    ["ADInplaceOrView", "CPU", "AutogradCPU"],
    ["ADInplaceOrView", "CIA"],
    ["ft:Meta", "CEA"],
    ["ft:Meta", "CPU", "CIA"],
    ["ft:CUDA", "CPU"],
    ["ft:AutogradOther", "CIA"],
    ["ft:FPGA", "CIA"],
    ["ft:NestedTensorCPU", "CIA"],
    ["ft:AutocastCPU", "CPU"],
    ["ft:BackendSelect", "CPU"],
    ["CPU", "ft:CPU"],
    ["ft:CPU", "CPU"],
    ["ft:CIA"],
    ["ft:CEA"],
    ["ft:CEANF"],
    ["ft:CIA", "CPU"],
    ["ft:CEA", "CPU"],
    ["ft:Autograd", "ft:CPU", "CIA"],
]

for _regs in FALLTHROUGH_CASES:
    _add("fallthrough/" + ",".join(_regs), _regs_scenario(_regs, CALL_CONTEXTS))


_AO_SLOTS = [
    "slot:AutogradOther",
    "slot:FPGA",
    "slot:QuantizedCPU",
    "slot:SparseCPU",
    "slot:SparseCsrCPU",
    "slot:MkldnnCPU",
    "slot:NestedTensorCPU",
    "slot:AutogradNestedTensor",
]
AUTOGRADOTHER_CASES = [
    ["FPGA", "CIA"],
    ["Vulkan", "CIA"],
    ["Metal", "CIA"],
    ["CustomRNGKeyId", "CIA"],
    ["MkldnnCPU", "CIA"],
    ["QuantizedCPU", "CIA"],
    ["QuantizedCUDA", "CIA"],
    ["SparseCPU", "CIA"],
    ["SparseCsrCPU", "CIA"],
    ["FPGA"],
    ["FPGA", "CPU", "CIA"],
    ["FPGA", "Autograd", "CIA"],
    ["CEA", "FPGA", "CIA"],
    ["CEA", "FPGA"],
    ["CEANF", "FPGA", "CIA"],
    ["FPGA", "AutogradOther", "CIA"],
    ["QuantizedCPU", "AutogradOther", "CIA"],
    ["AutogradOther", "CIA"],
    ["AutogradOther", "CPU"],
    ["SparseCPU", "AutogradCPU", "CIA"],
    ["NestedTensorCPU", "CIA"],
    ["ft:QuantizedCPU", "CIA"],
    ["CPU", "CIA"],
]
for _regs in AUTOGRADOTHER_CASES:
    _add(
        "autogradother/" + ",".join(_regs),
        _regs_scenario(_regs, ["cpu", "cpu_grad", "inference_tensor"] + _AO_SLOTS),
    )

_NESTED_SLOTS = [
    "slot:NestedTensorCPU",
    "slot:NestedTensorMeta",
    "slot:AutogradNestedTensor",
    "slot:AutogradCPU",
    "slot:CPU",
]
NESTED_CASES = [
    ["CIANested"],
    ["CIANested", "CIA"],
    ["CIANested", "NestedTensorCPU"],
    ["CIANested", "AutogradNestedTensor"],
    ["CIANested", "CEA"],
    ["CIANested", "CEA", "CIA"],
    ["CIANested", "Autograd"],
    ["CIANested", "CPU"],
    ["CIA", "AutogradNestedTensor"],
    ["CIA", "NestedTensorCPU", "AutogradNestedTensor"],
    ["NestedTensorCPU"],
    ["ft:CIANested", "CIA"],
]
for _regs in NESTED_CASES:
    _add("nested/" + ",".join(_regs), _regs_scenario(_regs, ["cpu", "cpu_grad"] + _NESTED_SLOTS))

BATCHED_CASES = [
    ["FTBD"],
    ["FTBD", "FuncTorchBatched"],
    ["FTBD", "CIA"],
    ["FTBD", "CEA", "CPU"],
    ["FuncTorchBatched", "CPU"],
]
for _regs in BATCHED_CASES:
    _add(
        "batched/" + ",".join(_regs),
        _regs_scenario(_regs, ["cpu", "cpu_grad", "slot:FuncTorchBatched", "slot:CPU"]),
    )

# Cases modelled on upstream test/test_dispatch.py (computed-table tests), with 3 seeded orders.
COMBO_CASES = [
    ["CPU", "XLA", "Autograd", "AutogradCPU", "CIA"],  # test_computed_table (catch-all -> CIA)
    ["CPU", "CIA", "ft:AutogradCPU"],  # ..._with_cpu_math_autogradcpu_fallthrough
    ["CIA"],  # ..._with_math
    ["CPU", "CIA"],  # ..._with_cpu_math
    ["Autograd"],  # ..._with_autograd
    ["CPU", "Autograd", "CIA"],  # ..._with_cpu_autograd_math
    ["CIA", "FPGA"],  # ..._with_ambiguous_autogradother
    ["CPU", "CEA"],  # ..._with_cpu_defaultbackend
    ["CPU", "Autograd", "CEA"],  # ..._with_cpu_autograd_defaultbackend
    ["CPU", "Autograd", "CIA", "CEA"],  # ..._with_cpu_autograd_math_defaultbackend
    ["XLA", "AutogradXLA", "CEANF", "CIA"],
    ["Lazy", "CEANF", "CEA"],
    ["PrivateUse1", "AutogradPrivateUse1", "CIA"],
    ["Meta", "CEA", "CIA", "Autograd"],
    ["CIA", "CEA", "CIANested"],
    ["CIA", "CEA", "FPGA"],
    ["CIA", "CEA", "NestedTensorCPU"],
    ["CIA", "CEANF", "CEA", "AutogradCPU"],
]
for _regs in COMBO_CASES:
    _add("combo/" + ",".join(_regs), _regs_scenario(_regs, CALL_CONTEXTS, perms=2))


# =============================================================================================
# 4. fallback/: backend fallbacks (namespace "_")
# =============================================================================================


def _fallback_fn(ctx: _Ctx, label: str, with_keyset: bool) -> Callable:
    """A boxed fallback that records what it receives (never touches tensor contents)."""
    log = ctx.log
    M = ctx.M

    def describe(v: Any) -> Any:
        if isinstance(v, M.Tensor):
            return "Tensor"
        if isinstance(v, (bool, int, float, str)) or v is None:
            return v
        return type(v).__name__

    def fb(*args: Any, **kwargs: Any) -> Any:
        args = list(args)
        entry: dict[str, Any] = {"label": label}
        if with_keyset:
            entry["keyset"] = ctx.text(repr(args.pop(0)))
        op = args.pop(0)
        entry["op"] = ctx.text(str(op))
        entry["op_name"] = ctx.text(op.name())
        entry["args"] = [describe(a) for a in args]
        entry["kwargs"] = {k: describe(v) for k, v in sorted(kwargs.items())}
        log.append(entry)
        for a in args:
            if isinstance(a, M.Tensor):
                return a
        return None

    return fb


_FB_SCHEMA = "foo(Tensor x, int y=3, *, float z=1.5) -> Tensor"


def _fallback_basic(key: str, with_keyset: bool) -> Callable[[_Ctx], Any]:
    def body(ctx: _Ctx) -> Any:
        M, C = ctx.M, ctx.C
        ns = ctx.ns()
        lib = ctx.lib(ns)
        lib.define(_FB_SCHEMA)
        lib.define("bar(Tensor x) -> Tensor")
        lib.define("baz(Tensor x) -> Tensor")
        lib.impl("bar", ctx.kernel("CPU", ns, "bar"), "CPU")
        lib.impl("baz", ctx.kernel("CEA", ns, "baz"), "CompositeExplicitAutograd")
        fb = ctx.lib("_", "IMPL")
        r: dict[str, Any] = {
            "register": ctx.attempt(
                lambda: fb.fallback(
                    _fallback_fn(ctx, "fallback", with_keyset), key, with_keyset=with_keyset
                )
            )
        }
        r["tables"] = {n: ctx.table(f"{ns}::{n}") for n in ("foo", "bar", "baz")}
        k = ctx.key(key)
        x = M.randn(2)
        xg = M.randn(2, requires_grad=True)
        foo = ctx.op(ns, "foo")

        def under(thunk: Callable[[], Any]) -> Callable[[], Any]:
            def g() -> Any:
                with C._IncludeDispatchKeyGuard(k):
                    return thunk()

            return g

        r["calls"] = {
            "foo(x)": ctx.call(under(lambda: foo(x))),
            "foo(x,5)": ctx.call(under(lambda: foo(x, 5))),
            "foo(x,3)": ctx.call(under(lambda: foo(x, 3))),
            "foo(x,z=2.0)": ctx.call(under(lambda: foo(x, z=2.0))),
            "foo(x,y=4)": ctx.call(under(lambda: foo(x, y=4))),
            "foo(x,3,z=1.5)": ctx.call(under(lambda: foo(x, 3, z=1.5))),
            "foo(xg)": ctx.call(under(lambda: foo(xg))),
            "foo.default(x,6)": ctx.call(under(lambda: ctx.op(ns, "foo", "default")(x, 6))),
            "bar(x)": ctx.call(under(lambda: ctx.op(ns, "bar")(x))),
            "baz(x)": ctx.call(under(lambda: ctx.op(ns, "baz")(x))),
            "no_guard_foo(x)": ctx.call(lambda: foo(x)),
            "no_guard_bar(x)": ctx.call(lambda: ctx.op(ns, "bar")(x)),
        }
        ctx.destroy(fb)
        r["table_after_destroy"] = ctx.table(f"{ns}::foo")
        r["calls_after_destroy"] = {"foo(x)": ctx.call(under(lambda: foo(x)))}
        return r

    return body


for _key in ["PrivateUse1", "PrivateUse2", "PrivateUse3"]:
    for _wk in (False, True):
        _add(f"fallback/basic:{_key}" + (":with_keyset" if _wk else ""), _fallback_basic(_key, _wk))


def _fallback_autograd_pu2(ctx: _Ctx) -> Any:
    """Fallback on AutogradPrivateUse2 (with keyset) redispatching below itself."""
    M, C = ctx.M, ctx.C
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    lib.impl("foo", ctx.kernel("CPU", ns), "CPU")
    log = ctx.log

    def fb(keyset: Any, op: Any, *args: Any) -> Any:
        log.append("fallback " + ctx.text(repr(keyset)))
        below = keyset & C._dispatch_keyset_full_after(keyset.highestPriorityTypeId())
        log.append("below " + ctx.text(repr(below)))
        return op.redispatch(below, *args)

    fbl = ctx.lib("_", "IMPL")
    r = {"register": ctx.attempt(lambda: fbl.fallback(fb, "AutogradPrivateUse2", with_keyset=True))}
    r["table"] = ctx.table(f"{ns}::foo")
    x = M.randn(2)
    xg = M.randn(2, requires_grad=True)
    k = ctx.key("AutogradPrivateUse2")
    foo = ctx.op(ns, "foo")

    def under(t: Any) -> Callable[[], Any]:
        def g() -> Any:
            with C._IncludeDispatchKeyGuard(k):
                return foo(t)

        return g

    r["calls"] = {"x": ctx.call(under(x)), "xg": ctx.call(under(xg))}
    lib.impl("foo", ctx.kernel("PrivateUse2", ns), "PrivateUse2")
    r["calls_with_pu2_kernel"] = {"x": ctx.call(under(x)), "xg": ctx.call(under(xg))}
    return r


_add("fallback/autograd_private_use2_redispatch", _fallback_autograd_pu2)


def _fallback_duplicate(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    q = f"{ns}::foo"
    a = ctx.lib("_", "IMPL")
    b = ctx.lib("_", "IMPL")
    r = {
        "first": ctx.attempt(lambda: a.fallback(_fallback_fn(ctx, "A", False), "PrivateUse1")),
        "second": ctx.attempt(lambda: b.fallback(_fallback_fn(ctx, "B", False), "PrivateUse1")),
        "second_same_lib": ctx.attempt(
            lambda: a.fallback(_fallback_fn(ctx, "A2", False), "PrivateUse1")
        ),
    }
    r["table"] = ctx.table(q)
    x = ctx.M.randn(2)
    k = ctx.key("PrivateUse1")

    def g() -> Any:
        with ctx.C._IncludeDispatchKeyGuard(k):
            return ctx.op(ns)(x)

    r["call"] = ctx.call(g)
    ctx.destroy(b)
    r["table_after_destroy_b"] = ctx.table(q)
    ctx.destroy(a)
    r["table_after_destroy_a"] = ctx.table(q)
    c = ctx.lib("_", "IMPL")
    r["third_after_destroy"] = ctx.attempt(
        lambda: c.fallback(_fallback_fn(ctx, "C", False), "PrivateUse1")
    )
    r["call_third"] = ctx.call(g)
    return r


_add("fallback/duplicate", _fallback_duplicate)


def _fallback_fallthrough(ctx: _Ctx) -> Any:
    M, C = ctx.M, ctx.C
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    lib.define("bar(Tensor x) -> Tensor")
    lib.define("baz(Tensor x) -> Tensor")
    lib.impl("foo", ctx.kernel("CPU", ns, "foo"), "CPU")
    lib.impl("bar", ctx.kernel("PrivateUse1", ns, "bar"), "PrivateUse1")
    lib.impl("bar", ctx.kernel("CPU", ns, "bar"), "CPU")
    fb = ctx.lib("_", "IMPL")
    r = {"register": ctx.attempt(lambda: fb.fallback(M.library.fallthrough_kernel, "PrivateUse1"))}
    r["tables"] = {n: ctx.table(f"{ns}::{n}") for n in ("foo", "bar", "baz")}
    r["probe_foo"] = _probe(ctx, f"{ns}::foo", ["PrivateUse1", "CPU"])
    x = M.randn(2)
    k = ctx.key("PrivateUse1")

    def under(n: str) -> Callable[[], Any]:
        def g() -> Any:
            with C._IncludeDispatchKeyGuard(k):
                return ctx.op(ns, n)(x)

        return g

    r["calls"] = {n: ctx.call(under(n)) for n in ("foo", "bar", "baz")}
    return r


_add("fallback/fallthrough_private_use1", _fallback_fallthrough)


def _fallback_key(key: str) -> Callable[[_Ctx], Any]:
    """Register a fallback on `key` (alias keys register key by key, not atomically)."""

    def body(ctx: _Ctx) -> Any:
        M = ctx.M
        ns = ctx.ns()
        lib = ctx.lib(ns)
        lib.define("foo(Tensor x) -> Tensor")
        q = f"{ns}::foo"
        fb = ctx.lib("_", "IMPL")
        r = {
            "register": ctx.attempt(lambda: fb.fallback(_fallback_fn(ctx, "fallback", False), key))
        }
        r["table"] = ctx.table(q)
        x = M.randn(2)
        r["call_cpu"] = ctx.call(lambda: ctx.op(ns)(x))
        ctx.destroy(fb)
        r["table_after_destroy"] = ctx.table(q)
        return r

    return body


for _key in [
    "CompositeImplicitAutograd",
    "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional",
    "CompositeImplicitAutogradNestedTensor",
    "FuncTorchBatchedDecomposition",
    "Autograd",
    "Meta",
    "ADInplaceOrView",
    "AutogradCPU",
    "CPU",
    "Undefined",
    "",
    "Dense",
    "AutogradFunctionality",
    "NotAKey",
]:
    _add(f"fallback/key:{_key or 'empty'}", _fallback_key(_key))


def _fallback_bad_ns(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    r = {}
    lib = ctx.lib(ns)
    r["fragment_ns"] = ctx.attempt(
        lambda: lib.fallback(_fallback_fn(ctx, "x", False), "PrivateUse1")
    )
    r["impl_lib_ns"] = ctx.attempt(
        lambda: ctx.lib(ns, "IMPL").fallback(_fallback_fn(ctx, "x", False), "PrivateUse1")
    )
    r["fragment_underscore"] = ctx.attempt(lambda: ctx.lib("_", "FRAGMENT"))
    r["def_underscore"] = ctx.attempt(lambda: ctx.lib("_", "DEF"))
    return r


_add("fallback/bad_namespace", _fallback_bad_ns)


# =============================================================================================
# 5. regerr/: registration errors and ordering facts
# =============================================================================================


def _reg_error_case(steps: Callable[[_Ctx, Any, str], dict]) -> Callable[[_Ctx], Any]:
    def body(ctx: _Ctx) -> Any:
        ns = ctx.ns()
        lib = ctx.lib(ns)
        lib.define("foo(Tensor x) -> Tensor")
        before = ctx.dump(f"{ns}::foo")
        r = steps(ctx, lib, ns)
        r["dump_before"] = before
        r["dump_after"] = ctx.dump(f"{ns}::foo")
        return r

    return body


def _k(ctx: _Ctx, ns: str, label: str) -> Callable:
    return ctx.kernel(label, ns)


_add(
    "regerr/define_twice",
    _reg_error_case(
        lambda ctx, lib, ns: {
            "same": ctx.attempt(lambda: lib.define("foo(Tensor x) -> Tensor")),
            "other_args": ctx.attempt(lambda: lib.define("foo(Tensor x, Tensor y) -> Tensor")),
            "other_lib": ctx.attempt(lambda: ctx.lib(ns).define("foo(Tensor x) -> Tensor")),
            "overload": ctx.attempt(lambda: lib.define("foo.ov(Tensor x) -> Tensor")),
            "overload_twice": ctx.attempt(lambda: lib.define("foo.ov(Tensor x) -> Tensor")),
            "dump_ov": ctx.dump(f"{ns}::foo.ov"),
        }
    ),
)

_add(
    "regerr/define_variants",
    _reg_error_case(
        lambda ctx, lib, ns: {
            "qualified_other_ns": ctx.attempt(
                lambda: lib.define("kr_other_ns::q2(Tensor x) -> Tensor")
            ),
            "overload_default": ctx.attempt(lambda: lib.define("q3.default(Tensor x) -> Tensor")),
            "alias_conservative": ctx.attempt(
                lambda: lib.define("q4(Tensor x) -> Tensor", alias_analysis="CONSERVATIVE")
            ),
            "alias_pure": ctx.attempt(
                lambda: lib.define("q5(Tensor x) -> Tensor", alias_analysis="PURE_FUNCTION")
            ),
            "alias_bogus": ctx.attempt(
                lambda: lib.define("q6(Tensor x) -> Tensor", alias_analysis="BOGUS")
            ),
            "dump_q4": ctx.dump(f"{ns}::q4"),
            "dump_q5": ctx.dump(f"{ns}::q5"),
        }
    ),
)

_BAD_SCHEMAS = [
    "bar(Tensor x -> Tensor",
    "bar(Tensor x) ->",
    "bar(Tensor x) Tensor",
    "bar(Tensr x) -> Tensor",
    "(Tensor x) -> Tensor",
    "bar",
    "bar(Tensor x, int y=3, Tensor z) -> Tensor",
    "bar(Tensor x, float y=inf) -> Tensor",
    "bar(Tensor(a x) -> Tensor",
    "bar.(Tensor x) -> Tensor",
    "bar(Tensor x) -> Tensor garbage",
    "",
]


def _bad_schemas(ctx: _Ctx, lib: Any, ns: str) -> dict:
    r = {s or "<empty>": ctx.attempt(lambda s=s: lib.define(s)) for s in _BAD_SCHEMAS}
    r["dump_bar"] = ctx.dump(f"{ns}::bar")  # "bar(Tensor x) -> Tensor garbage" is accepted
    return r


_add("regerr/schema_parse_errors", _reg_error_case(_bad_schemas))


def _impl_keys(ctx: _Ctx, lib: Any, ns: str) -> dict:
    out = {}
    for key in [
        "NotAKey",
        "CatchAll",
        "Math",
        "DefaultBackend",
        "QuantizedMeta",
        "AutogradHIP",
        "cpu",
        " CPU",
    ]:
        out[key] = ctx.attempt(lambda key=key: lib.impl("foo", _k(ctx, ns, key), key))
    out["table"] = ctx.table(f"{ns}::foo")
    return out


_add("regerr/impl_unparsable_keys", _reg_error_case(_impl_keys))


def _impl_key_as(key: str) -> Callable[[_Ctx], Any]:
    def steps(ctx: _Ctx, lib: Any, ns: str) -> dict:
        r = {"impl": ctx.attempt(lambda: lib.impl("foo", _k(ctx, ns, "K"), key))}
        q = f"{ns}::foo"
        r["table"] = ctx.table(q)
        r["probe"] = _probe(
            ctx,
            q,
            ["CompositeImplicitAutograd", "Dense", "AutogradFunctionality", "CPU", "AutogradCPU"],
        )
        r["calls"] = _run_calls(ctx, ns, ["cpu", "cpu_grad", "meta"])
        return r

    return _reg_error_case(steps)


for _key in [
    "",
    "Undefined",
    "Dense",
    "AutogradFunctionality",
    "Sparse",
    "Quantized",
    "NestedTensor",
]:
    _add(f"regerr/impl_key:{_key or 'empty'}", _impl_key_as(_key))


def _impl_undefined_op(ctx: _Ctx, lib: Any, ns: str) -> dict:
    r = {
        "undefined_name": ctx.attempt(lambda: lib.impl("nope", _k(ctx, ns, "CPU"), "CPU")),
        "undefined_overload": ctx.attempt(lambda: lib.impl("foo.nope", _k(ctx, ns, "CPU"), "CPU")),
        "qualified_same_ns": ctx.attempt(lambda: lib.impl(f"{ns}::foo", _k(ctx, ns, "CPU"), "CPU")),
        "qualified_other_ns": ctx.attempt(
            lambda: lib.impl("kr_other_ns::foo", _k(ctx, ns, "CPU"), "CPU")
        ),
    }
    r["dump_nope"] = ctx.dump(f"{ns}::nope")
    r["dump_foo_nope"] = ctx.dump(f"{ns}::foo.nope")
    return r


_add("regerr/impl_undefined_op", _reg_error_case(_impl_undefined_op))


def _meta_after_cia(ctx: _Ctx, lib: Any, ns: str) -> dict:
    r = {
        "cia": ctx.attempt(
            lambda: lib.impl("foo", _k(ctx, ns, "CIA"), "CompositeImplicitAutograd")
        ),
        "meta": ctx.attempt(lambda: lib.impl("foo", _k(ctx, ns, "Meta"), "Meta")),
        "meta_other_lib": ctx.attempt(lambda: ctx.lib(ns).impl("foo", _k(ctx, ns, "Meta"), "Meta")),
        "meta_qualified": ctx.attempt(lambda: lib.impl(f"{ns}::foo", _k(ctx, ns, "Meta"), "Meta")),
        "autograd_meta": ctx.attempt(
            lambda: lib.impl("foo", _k(ctx, ns, "AutogradMeta"), "AutogradMeta")
        ),
        "cpu": ctx.attempt(lambda: lib.impl("foo", _k(ctx, ns, "CPU"), "CPU")),
    }
    r["calls"] = _run_calls(ctx, ns, ["cpu", "meta", "meta_grad"])
    return r


_add("regerr/meta_after_cia", _reg_error_case(_meta_after_cia))


def _meta_before_cia(ctx: _Ctx, lib: Any, ns: str) -> dict:
    r = {
        "meta": ctx.attempt(lambda: lib.impl("foo", _k(ctx, ns, "Meta"), "Meta")),
        "cia": ctx.attempt(
            lambda: lib.impl("foo", _k(ctx, ns, "CIA"), "CompositeImplicitAutograd")
        ),
        "meta_again": ctx.attempt(lambda: lib.impl("foo", _k(ctx, ns, "Meta2"), "Meta")),
    }
    r["calls"] = _run_calls(ctx, ns, ["cpu", "meta", "meta_grad"])
    return r


_add("regerr/meta_before_cia", _reg_error_case(_meta_before_cia))


def _meta_after_cia_overload(ctx: _Ctx, lib: Any, ns: str) -> dict:
    """The Meta check looks at the named overload only."""
    lib.define("foo.ov(Tensor x) -> Tensor")
    return {
        "cia_default": ctx.attempt(
            lambda: lib.impl("foo", _k(ctx, ns, "CIA"), "CompositeImplicitAutograd")
        ),
        "meta_ov": ctx.attempt(lambda: lib.impl("foo.ov", _k(ctx, ns, "Meta"), "Meta")),
        "cia_ov": ctx.attempt(
            lambda: lib.impl("foo.ov", _k(ctx, ns, "CIA"), "CompositeImplicitAutograd")
        ),
        "meta_ov_again": ctx.attempt(lambda: lib.impl("foo.ov", _k(ctx, ns, "Meta"), "Meta")),
        "dump_ov": ctx.dump(f"{ns}::foo.ov"),
    }


_add("regerr/meta_after_cia_overload", _reg_error_case(_meta_after_cia_overload))


def _override(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    q = f"{ns}::foo"
    l1 = ctx.lib(ns)
    l1.define("foo(Tensor x) -> Tensor")
    l1.impl("foo", ctx.kernel("CPU_old", ns), "CPU")
    l2 = ctx.lib(ns)
    l2.impl("foo", ctx.kernel("CPU_new", ns), "CPU")
    r = {"dump_2": ctx.dump(q), "table_2": ctx.table(q), "calls_2": _run_calls(ctx, ns, ["cpu"])}
    l3 = ctx.lib(ns)
    l3.impl("foo", ctx.kernel("CPU_newest", ns), "CPU")
    r["dump_3"] = ctx.dump(q)
    r["calls_3"] = _run_calls(ctx, ns, ["cpu"])
    ctx.destroy(l2)  # destroy the middle one: newest stays active
    r["dump_destroy_middle"] = ctx.dump(q)
    r["calls_destroy_middle"] = _run_calls(ctx, ns, ["cpu"])
    ctx.destroy(l3)  # destroy the newest: the oldest is active again
    r["dump_destroy_newest"] = ctx.dump(q)
    r["calls_destroy_newest"] = _run_calls(ctx, ns, ["cpu"])
    # same library twice
    l1.impl("foo", ctx.kernel("CPU_same_lib", ns), "CPU")
    r["dump_same_lib"] = ctx.dump(q)
    r["calls_same_lib"] = _run_calls(ctx, ns, ["cpu"])
    return r


_add("regerr/override_and_restore", _override)


def _override_alias(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    q = f"{ns}::foo"
    l1 = ctx.lib(ns)
    l1.define("foo(Tensor x) -> Tensor")
    l1.impl("foo", ctx.kernel("CIA_old", ns), "CompositeImplicitAutograd")
    l1.impl("foo", ctx.kernel("CPU", ns), "CPU")
    l2 = ctx.lib(ns)
    l2.impl("foo", ctx.kernel("CIA_new", ns), "")
    r = {
        "dump": ctx.dump(q),
        "table": ctx.table(q),
        "calls": _run_calls(ctx, ns, ["cpu", "cpu_grad", "meta"]),
    }
    ctx.destroy(l2)
    r["dump_after"] = ctx.dump(q)
    r["table_after"] = ctx.table(q)
    r["calls_after"] = _run_calls(ctx, ns, ["cpu", "cpu_grad", "meta"])
    return r


_add("regerr/override_alias_and_restore", _override_alias)


def _override_fallthrough(ctx: _Ctx) -> Any:
    """A fallthrough overriding a kernel, then destroyed: the kernel is back."""
    ns = ctx.ns()
    q = f"{ns}::foo"
    l1 = ctx.lib(ns)
    l1.define("foo(Tensor x) -> Tensor")
    l1.impl("foo", ctx.kernel("CPU", ns), "CPU")
    l1.impl("foo", ctx.kernel("CIA", ns), "CompositeImplicitAutograd")
    l2 = ctx.lib(ns)
    l2.impl("foo", ctx.M.library.fallthrough_kernel, "CPU")
    r = {
        "dump": ctx.dump(q),
        "table": ctx.table(q),
        "calls": _run_calls(ctx, ns, ["cpu", "cpu_grad"]),
    }
    r["probe"] = _probe(ctx, q, ["CPU"])
    ctx.destroy(l2)
    r["dump_after"] = ctx.dump(q)
    r["table_after"] = ctx.table(q)
    r["calls_after"] = _run_calls(ctx, ns, ["cpu", "cpu_grad"])
    r["probe_after"] = _probe(ctx, q, ["CPU"])
    return r


_add("regerr/override_fallthrough_and_restore", _override_fallthrough)


def _destroy_def_lib(ctx: _Ctx) -> Any:
    """Destroying the library holding the def leaves the impls from other libraries."""
    ns = ctx.ns()
    q = f"{ns}::foo"
    d = ctx.lib(ns)
    d.define("foo(Tensor x) -> Tensor")
    i = ctx.lib(ns)
    i.impl("foo", ctx.kernel("CPU", ns), "CPU")
    r = {"dump": ctx.dump(q)}
    ctx.destroy(d)
    r["dump_after_destroy_def"] = ctx.dump(q)
    r["ops_attr_after"] = ctx.attempt(lambda: ctx.op(ns) and None)
    d2 = ctx.lib(ns)
    r["redefine"] = ctx.attempt(lambda: d2.define("foo(Tensor x) -> Tensor"))
    r["dump_redefined"] = ctx.dump(q)
    r["calls_redefined"] = _run_calls(ctx, ns, ["cpu"])
    ctx.destroy(i)
    r["dump_after_destroy_impl"] = ctx.dump(q)
    return r


_add("regerr/destroy_def_library", _destroy_def_lib)


def _two_def_libraries(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    r = {}
    a = ctx.lib(ns, "DEF")
    r["first_def"] = ctx.attempt(lambda: a.define("foo(Tensor x) -> Tensor"))
    r["second_DEF"] = ctx.attempt(lambda: ctx.lib(ns, "DEF"))
    r["fragment_ok"] = ctx.attempt(lambda: ctx.lib(ns, "FRAGMENT") and None)
    r["impl_ok"] = ctx.attempt(lambda: ctx.lib(ns, "IMPL") and None)
    r["bogus_kind"] = ctx.attempt(lambda: ctx.lib(ns, "BOGUS"))
    r["dump"] = ctx.dump(f"{ns}::foo")
    ctx.destroy(a)
    ns2 = ctx.ns("_b")
    r["DEF_after_destroy"] = ctx.attempt(lambda: ctx.lib(ns, "DEF") and None)
    r["aten_DEF"] = ctx.attempt(lambda: ctx.lib("aten", "DEF"))
    r["other_ns_DEF"] = ctx.attempt(lambda: ctx.lib(ns2, "DEF") and None)
    return r


_add("regerr/two_def_libraries", _two_def_libraries)


def _impl_library_with_key(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    q = f"{ns}::foo"
    d = ctx.lib(ns)
    d.define("foo(Tensor x) -> Tensor")
    i = ctx.lib(ns, "IMPL", "CPU")
    r = {
        "impl_default_key": ctx.attempt(lambda: i.impl("foo", ctx.kernel("CPU", ns))),
        "impl_same_key": ctx.attempt(lambda: i.impl("foo", ctx.kernel("CPU2", ns), "CPU")),
        "impl_other_key": ctx.attempt(lambda: i.impl("foo", ctx.kernel("Meta", ns), "Meta")),
        "define_in_impl": ctx.attempt(lambda: i.define("bar(Tensor x) -> Tensor")),
    }
    r["dump"] = ctx.dump(q)
    r["calls"] = _run_calls(ctx, ns, ["cpu", "meta"])
    return r


_add("regerr/impl_library_with_dispatch_key", _impl_library_with_key)


def _fallthrough_on_composite_call(ctx: _Ctx) -> Any:
    """fallthrough registered on CIA: dump shows it; a call reaching it asserts."""
    ns = ctx.ns()
    q = f"{ns}::foo"
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    r = {
        "impl": ctx.attempt(
            lambda: lib.impl("foo", ctx.M.library.fallthrough_kernel, "CompositeImplicitAutograd")
        )
    }
    r["dump"] = ctx.dump(q)
    r["table"] = ctx.table(q)
    r["calls"] = _run_calls(ctx, ns, ["cpu", "cpu_grad", "meta", "slot:CPU"])
    return r


_add("regerr/fallthrough_on_cia_call", _fallthrough_on_composite_call)


def _with_keyset_on_composites(ctx: _Ctx) -> Any:
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    r = {
        "impl": ctx.attempt(
            lambda: lib.impl(
                "foo",
                ctx.keyset_kernel("CIA", ns, False),
                "CompositeImplicitAutograd",
                with_keyset=True,
            )
        )
    }
    r["dump"] = ctx.dump(f"{ns}::foo")
    r["calls"] = _run_calls(ctx, ns, CALL_CONTEXTS)
    return r


_add("regerr/with_keyset_cia_dump", _with_keyset_on_composites)


# =============================================================================================
# 6. keys/ , keyset/ , tensor/ , tls/
# =============================================================================================

ALL_KEY_INTS = list(range(0, 156))


def _key_names(ctx: _Ctx) -> Any:
    C = ctx.C
    out = {}
    for i in ALL_KEY_INTS + [156, 200, 255]:
        r: dict[str, Any] = {}
        try:
            k = C.DispatchKey(i)
        except Exception as e:  # noqa: BLE001
            out[str(i)] = ctx.err(e)
            continue
        r["int"] = int(k)
        r["name"] = ctx.attempt(lambda k=k: C._dispatch_key_name(k)).get("ok")
        r["eq_self"] = k == C.DispatchKey(i)
        out[str(i)] = r
    return out


_add("keys/names", _key_names)


def _key_enum_members(ctx: _Ctx) -> Any:
    """Names that are attributes of DispatchKey (torch's pybind enum lacks some keys)."""
    C = ctx.C
    names = sorted(_all_names(ctx))
    return {
        n: (int(getattr(C.DispatchKey, n)) if hasattr(C.DispatchKey, n) else None) for n in names
    }


def _all_names(ctx: _Ctx) -> list[str]:
    C = ctx.C
    names = []
    for i in ALL_KEY_INTS:
        try:
            names.append(C._dispatch_key_name(C.DispatchKey(i)))
        except Exception:  # noqa: BLE001
            pass
    return list(dict.fromkeys(names))


_add("keys/enum_members", _key_enum_members)

EXTRA_PARSE_NAMES = [
    "",
    "CatchAll",
    "Math",
    "DefaultBackend",
    "Autograd",
    "autograd",
    "cpu",
    "CPU ",
    " CPU",
    "Cpu",
    "XLA",
    "AutogradXLA",
    "AutogradHIP",
    "AutogradVE",
    "AutogradIPU",
    "AutogradPrivateUse2",
    "AutogradPrivateUse3",
    "QuantizedMeta",
    "QuantizedHIP",
    "QuantizedXLA",
    "SparseMeta",
    "SparseXLA",
    "SparseCsrMeta",
    "SparseCsrLazy",
    "NestedTensorMeta",
    "NestedTensorXLA",
    "StartOfDenseBackends",
    "EndOfFunctionalityKeys",
    "EndOfRuntimeBackendKeys",
    "EndOfAliasKeys",
    "UnknownUnknown",
    "QuantizedUndefined",
    "SparseUndefined",
    "AutogradUndefined",
    "PrivateUse1_PreAutograd",
    "PreAutograd",
    "LazyTensor",
    "MkldnnCPU",
    "MKLDNN",
    "Mkldnn",
    "Tracer",
    "Fake",
    "Python",
    "TESTING_ONLY_GenericWrapper",
    "TESTING_ONLY_GenericMode",
    "FuncTorchBatchedDecomposition",
    "CompositeImplicitAutogradNestedTensor",
    "CompositeExplicitAutogradNonFunctional",
    "AutocastCPU",
    "AutocastXLA",
    "AutocastMTIA",
    "Dense",
    "Sparse",
    "SparseCsr",
    "Quantized",
    "NestedTensor",
    "AutogradFunctionality",
    "Functionality",
    "Undefined",
    "junk",
    "CPU,CUDA",
    "0",
    "49",
]


def _key_parse(ctx: _Ctx) -> Any:
    C = ctx.C
    names = list(dict.fromkeys(_all_names(ctx) + EXTRA_PARSE_NAMES))
    out = {}
    for n in names:
        try:
            out[n] = int(C._dispatch_key_parse(n))
        except Exception as e:  # noqa: BLE001
            out[n] = ctx.err(e)
    return out


_add("keys/parse", _key_parse)


def _alias_expansion(alias: str) -> Callable[[_Ctx], Any]:
    def body(ctx: _Ctx) -> Any:
        C = ctx.C
        a = ctx.key(alias)
        included = []
        errors = {}
        for i in ALL_KEY_INTS:
            k = C.DispatchKey(i)
            try:
                if C._dispatch_is_included_in_alias(k, a):
                    included.append(f"{i}:{ctx.kname(k)}")
            except Exception as e:  # noqa: BLE001
                errors[str(i)] = ctx.err(e)
        r: dict[str, Any] = {"included": included}
        if errors:
            r["errors"] = errors
        return r

    return body


for _alias in ALIAS_KEYS + ["CPU", "AutogradCPU", "Undefined", "Dense", "AutogradFunctionality"]:
    _add(f"keys/alias:{_alias}", _alias_expansion(_alias))


def _backend_from_autograd(ctx: _Ctx) -> Any:
    C = ctx.C
    out = {}
    for i in ALL_KEY_INTS:
        k = C.DispatchKey(i)
        try:
            out[f"{i}:{ctx.kname(k)}"] = ctx.text(
                repr(C._dispatch_get_backend_keyset_from_autograd(k))
            )
        except Exception as e:  # noqa: BLE001
            out[f"{i}:{ctx.kname(k)}"] = ctx.err(e)
    return out


_add("keys/backend_keyset_from_autograd", _backend_from_autograd)


class _KsRec:
    """Records keysets compactly: each keyset becomes ``[raw_repr, "<int>:<highest key name>"]``
    and ``reprs`` maps ``str(raw_repr)`` to ``repr(keyset)`` once (``str`` is checked to equal
    ``repr``). A scenario returns ``{"values": ..., "reprs": rec.reprs}``."""

    def __init__(self, ctx: _Ctx):
        self.ctx = ctx
        self.reprs: dict[str, str] = {}

    def __call__(self, ks: Any) -> list:
        C = self.ctx.C
        raw = ks.raw_repr()
        r = repr(ks)
        self.reprs.setdefault(str(raw), r)
        out: list = [raw, None]
        h = ks.highestPriorityTypeId()
        out[1] = f"{int(h)}:{C._dispatch_key_name(h)}"
        if self.reprs[str(raw)] != r:
            out.append("repr differs for equal raw: " + r)
        if str(ks) != r:
            out.append("str: " + str(ks))
        return out


def _keyset_singles(ctx: _Ctx) -> Any:
    C = ctx.C
    rec = _KsRec(ctx)
    out = {}
    for i in ALL_KEY_INTS:
        k = C.DispatchKey(i)
        try:
            out[f"{i}:{ctx.kname(k)}"] = rec(C.DispatchKeySet(k))
        except Exception as e:  # noqa: BLE001
            out[f"{i}:{ctx.kname(k)}"] = ctx.err(e)
    return {"values": out, "reprs": rec.reprs}


_add("keyset/singles", _keyset_singles)

KEYSET_SAMPLE = [
    "Undefined",
    "CPU",
    "CUDA",
    "Meta",
    "PrivateUse1",
    "FPGA",
    "MkldnnCPU",
    "QuantizedCPU",
    "SparseCUDA",
    "SparseCsrMeta",
    "NestedTensorCPU",
    "BackendSelect",
    "Python",
    "Functionalize",
    "ADInplaceOrView",
    "AutogradOther",
    "AutogradCPU",
    "AutogradCUDA",
    "AutogradMeta",
    "AutogradNestedTensor",
    "AutocastCPU",
    "FuncTorchBatched",
    "PythonDispatcher",
    "Dense",
    "AutogradFunctionality",
]


def _keyset_pairs(op: str) -> Callable[[_Ctx], Any]:
    def body(ctx: _Ctx) -> Any:
        rec = _KsRec(ctx)
        out = {}
        for a in KEYSET_SAMPLE:
            for b in KEYSET_SAMPLE:
                if op == "or" and KEYSET_SAMPLE.index(b) < KEYSET_SAMPLE.index(a):
                    continue
                try:
                    A, B = ctx.ks(a), ctx.ks(b)
                    if op == "or":
                        out[f"{a}|{b}"] = rec(A | B)
                    elif op == "sub":
                        out[f"({a}|{b})-{b}"] = rec((A | B) - B)
                    elif op == "and":
                        out[f"({a}|CPU)&{b}"] = rec((A | ctx.ks("CPU")) & B)
                    elif op == "remove":
                        out[f"({a}|{b}).remove({b})"] = rec((A | B).remove(ctx.key(b)))
                    elif op == "add":
                        s = A.add(ctx.key(b))
                        out[f"{a}.add({b})"] = rec(s) + [A.raw_repr()]
                    elif op == "has":
                        out[f"({a}|CUDA).has({b})"] = (A | ctx.ks("CUDA")).has(ctx.key(b))
                except Exception as e:  # noqa: BLE001
                    out[f"{op}:{a}:{b}"] = ctx.err(e)
        return {"values": out, "reprs": rec.reprs} if rec.reprs else {"values": out}

    return body


for _op in ["or", "sub", "and", "remove", "add", "has"]:
    _add(f"keyset/pairs:{_op}", _keyset_pairs(_op))


def _keyset_misc(ctx: _Ctx) -> Any:
    C = ctx.C
    ks = ctx.ks
    krec = _KsRec(ctx)
    out: dict[str, Any] = {}

    def rec(name: str, thunk: Callable[[], Any]) -> None:
        try:
            s = thunk()
            out[name] = krec(s) if isinstance(s, C.DispatchKeySet) else s
        except Exception as e:  # noqa: BLE001
            out[name] = ctx.err(e)

    rec("full", lambda: C._dispatch_keyset_full())
    rec("triple CPU|AutogradCUDA|Meta", lambda: ks("CPU", "AutogradCUDA", "Meta"))
    rec("cross product", lambda: ks("AutogradCPU", "CUDA", "QuantizedCPU", "SparseCPU"))
    rec("(CPU|AutogradCPU)-CPU", lambda: ks("CPU", "AutogradCPU") - ks("CPU"))
    rec("(CPU|AutogradCPU)-AutogradCPU", lambda: ks("CPU", "AutogradCPU") - ks("AutogradCPU"))
    rec(
        "(CPU|AutogradCUDA).has(AutogradCPU)",
        lambda: ks("CPU", "AutogradCUDA").has(ctx.key("AutogradCPU")),
    )
    rec("CPU.has(CUDA)", lambda: ks("CPU").has(ctx.key("CUDA")))
    rec("CPU.has(Undefined)", lambda: ks("CPU").has(ctx.key("Undefined")))
    rec("CPU.has(Dense)", lambda: ks("CPU").has(ctx.key("Dense")))
    rec("CPU.has(CIA)", lambda: ks("CPU").has(ctx.key("CompositeImplicitAutograd")))
    rec("CIA keyset", lambda: ks("CompositeImplicitAutograd"))
    rec("Autograd keyset", lambda: ks("Autograd"))
    rec("eq", lambda: ks("CPU") == ks("CPU"))
    rec("ne", lambda: ks("CPU") != ks("CUDA"))
    rec(
        "eq_cross",
        lambda: ks("AutogradCPU", "CUDA") == ks("CPU", "CUDA", "AutogradCPU", "AutogradCUDA"),
    )
    rec("empty_from_sub", lambda: ks("CPU") - ks("CPU"))
    rec("empty_eq_from_sub", lambda: (ks("CPU") - ks("CPU")) == (ks("CUDA") - ks("CUDA")))
    rec("and_backend_only", lambda: ks("CPU") & ks("AutogradCPU"))
    rec("or_chain_all_autograd", lambda: ks("AutogradOther", "AutogradCPU", "AutogradNestedTensor"))
    rec("Dense|AutogradFunctionality", lambda: ks("Dense", "AutogradFunctionality"))
    rec("Dense|CUDA", lambda: ks("Dense", "CUDA"))
    rec("AutogradFunctionality|Meta", lambda: ks("AutogradFunctionality", "Meta"))
    rec("from_raw_repr(65537)", lambda: C.DispatchKeySet.from_raw_repr(65537))
    rec("from_raw_repr(2**36+1)", lambda: C.DispatchKeySet.from_raw_repr(2**36 + 1))
    rec("from_raw_repr(0)", lambda: C.DispatchKeySet.from_raw_repr(0))
    rec("from_raw_repr(2**15)", lambda: C.DispatchKeySet.from_raw_repr(2**15))
    rec("from_raw_repr(1)", lambda: C.DispatchKeySet.from_raw_repr(1))
    rec("from_raw_repr(2**62-1)", lambda: C.DispatchKeySet.from_raw_repr(2**62 - 1))
    return {"values": out, "reprs": krec.reprs}


_add("keyset/misc", _keyset_misc)


def _full_after(ctx: _Ctx) -> Any:
    C = ctx.C
    rec = _KsRec(ctx)
    out = {}
    for i in ALL_KEY_INTS:
        k = C.DispatchKey(i)
        try:
            out[f"{i}:{ctx.kname(k)}"] = rec(C._dispatch_keyset_full_after(k))
        except Exception as e:  # noqa: BLE001
            out[f"{i}:{ctx.kname(k)}"] = ctx.err(e)
    return {"values": out, "reprs": rec.reprs}


_add("keyset/full_after", _full_after)


def _tensor_keys(ctx: _Ctx) -> Any:
    M, C = ctx.M, ctx.C
    out = {}

    def rec(name: str, thunk: Callable[[], Any]) -> None:
        try:
            out[name] = repr(C._dispatch_keys(thunk()))
        except Exception as e:  # noqa: BLE001
            out[name] = ctx.err(e)

    rec("randn", lambda: M.randn(2))
    rec("randn_grad", lambda: M.randn(2, requires_grad=True))
    rec("empty_meta", lambda: M.empty(2, device="meta"))
    rec("empty_meta_grad", lambda: M.empty(2, device="meta", requires_grad=True))

    def inf() -> Any:
        with M.inference_mode():
            return M.randn(2)

    def inf_meta() -> Any:
        with M.inference_mode():
            return M.empty(2, device="meta")

    def nograd() -> Any:
        with M.no_grad():
            return M.randn(2)

    def inf_false() -> Any:
        with M.inference_mode(False):
            return M.randn(2)

    rec("inference", inf)
    rec("inference_meta", inf_meta)
    rec("no_grad", nograd)
    rec("inference_mode_false", inf_false)
    return out


_add("tensor/dispatch_keys", _tensor_keys)


def _tensor_view_keys(ctx: _Ctx) -> Any:
    M, C = ctx.M, ctx.C
    x = M.randn(2, requires_grad=True)
    out = {
        "view": ctx.attempt(lambda: repr(C._dispatch_keys(x.view(2)))),
        "detach": ctx.attempt(lambda: repr(C._dispatch_keys(x.detach()))),
    }
    with M.inference_mode():
        y = M.randn(2)
        out["inference_view"] = ctx.attempt(lambda: repr(C._dispatch_keys(y.view(2))))
    return out


_add("tensor/view_keys", _tensor_view_keys)


def _tls_snapshot(ctx: _Ctx) -> list[str]:
    C = ctx.C
    return [repr(C._dispatch_tls_local_include_set()), repr(C._dispatch_tls_local_exclude_set())]


def _tls_case(make: Callable[[_Ctx], Any]) -> Callable[[_Ctx], Any]:
    """TLS before / inside / after a context manager, and after an exception inside it."""

    def body(ctx: _Ctx) -> Any:
        r: dict[str, Any] = {"before": _tls_snapshot(ctx)}
        with make(ctx):
            r["inside"] = _tls_snapshot(ctx)
        r["after"] = _tls_snapshot(ctx)
        try:
            with make(ctx):
                raise KeyError("boom")
        except KeyError:
            pass
        r["after_exception"] = _tls_snapshot(ctx)
        return r

    return body


TLS_CASES: dict[str, Callable[[_Ctx], Any]] = {
    "inference_mode": lambda c: c.M.inference_mode(),
    "inference_mode_false": lambda c: c.M.inference_mode(False),
    "no_grad": lambda c: c.M.no_grad(),
    "set_grad_enabled_false": lambda c: c.M.set_grad_enabled(False),
    "below_autograd": lambda c: c.C._AutoDispatchBelowAutograd(),
    "below_adinplace": lambda c: c.C._AutoDispatchBelowADInplaceOrView(),
    "exclude:CPU": lambda c: c.C._ExcludeDispatchKeyGuard(c.ks("CPU")),
    "exclude:AutogradCPU": lambda c: c.C._ExcludeDispatchKeyGuard(c.ks("AutogradCPU")),
    "exclude:AutogradCPU|CUDA": lambda c: c.C._ExcludeDispatchKeyGuard(c.ks("AutogradCPU", "CUDA")),
    "exclude:ADInplaceOrView": lambda c: c.C._ExcludeDispatchKeyGuard(c.ks("ADInplaceOrView")),
    "exclude:AutocastCPU": lambda c: c.C._ExcludeDispatchKeyGuard(c.ks("AutocastCPU")),
    "exclude:Python": lambda c: c.C._ExcludeDispatchKeyGuard(c.ks("Python")),
    "exclude:full_after_AutogradCPU": lambda c: c.C._ExcludeDispatchKeyGuard(
        c.C._dispatch_keyset_full_after(c.key("AutogradCPU"))
    ),
    "include:PrivateUse1": lambda c: c.C._IncludeDispatchKeyGuard(c.key("PrivateUse1")),
    "include:FPGA": lambda c: c.C._IncludeDispatchKeyGuard(c.key("FPGA")),
    "include:AutogradCPU": lambda c: c.C._IncludeDispatchKeyGuard(c.key("AutogradCPU")),
    "include:ADInplaceOrView": lambda c: c.C._IncludeDispatchKeyGuard(c.key("ADInplaceOrView")),
    "include:BackendSelect": lambda c: c.C._IncludeDispatchKeyGuard(c.key("BackendSelect")),
    "include:Python": lambda c: c.C._IncludeDispatchKeyGuard(c.key("Python")),
    "include:Undefined": lambda c: c.C._IncludeDispatchKeyGuard(c.key("Undefined")),
}
for _n, _mk in TLS_CASES.items():
    _add(f"tls/{_n}", _tls_case(_mk))


def _tls_nested(ctx: _Ctx) -> Any:
    M, C = ctx.M, ctx.C
    r: dict[str, Any] = {"default": _tls_snapshot(ctx)}
    with M.inference_mode():
        r["inference"] = _tls_snapshot(ctx)
        with M.inference_mode(False):
            r["inference>inference_false"] = _tls_snapshot(ctx)
        r["inference_after_inner"] = _tls_snapshot(ctx)
        with C._AutoDispatchBelowADInplaceOrView():
            r["inference>below_adinplace"] = _tls_snapshot(ctx)
    with C._AutoDispatchBelowAutograd():
        with C._AutoDispatchBelowADInplaceOrView():
            r["below_autograd>below_adinplace"] = _tls_snapshot(ctx)
        r["below_autograd_after_inner"] = _tls_snapshot(ctx)
    with C._IncludeDispatchKeyGuard(ctx.key("PrivateUse1")):
        with C._ExcludeDispatchKeyGuard(ctx.ks("PrivateUse1")):
            r["include_pu1>exclude_pu1"] = _tls_snapshot(ctx)
        with C._IncludeDispatchKeyGuard(ctx.key("PrivateUse1")):
            r["include_pu1>include_pu1"] = _tls_snapshot(ctx)
        r["include_pu1_after_inner"] = _tls_snapshot(ctx)
    with C._ExcludeDispatchKeyGuard(ctx.ks("AutogradCPU")):
        with C._AutoDispatchBelowAutograd():
            r["exclude_agcpu>below_autograd"] = _tls_snapshot(ctx)
        r["exclude_agcpu_after_inner"] = _tls_snapshot(ctx)
    with M.no_grad():
        with M.inference_mode():
            r["no_grad>inference"] = _tls_snapshot(ctx)
    r["end"] = _tls_snapshot(ctx)
    return r


_add("tls/nested", _tls_nested)


def _tls_calls(ctx: _Ctx) -> Any:
    """Which kernel a call reaches under each guard (kernels on six keys, none redispatching
    except AutogradCPU / AutogradOther)."""
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    for label in ["CPU", "AutogradCPU", "ADInplaceOrView", "PrivateUse1", "FPGA", "AutogradOther"]:
        lib.impl("foo", ctx.kernel(label, ns), label)
    M = ctx.M
    x = M.randn(2)
    xg = M.randn(2, requires_grad=True)
    f = ctx.op(ns)
    out = {}

    def under(cm: Callable[[], Any], t: Any) -> Callable[[], Any]:
        def g() -> Any:
            with cm():
                return f(t)

        return g

    for name, mk in TLS_CASES.items():
        out[name] = [
            ctx.call(under(lambda mk=mk: mk(ctx), x)),
            ctx.call(under(lambda mk=mk: mk(ctx), xg)),
        ]
    return out


_add("tls/calls_under_guards", _tls_calls)


def _tls_calls_keyset(ctx: _Ctx) -> Any:
    """Keysets received under each guard: AutogradCPU / ADInplaceOrView kernels redispatch below
    themselves; CPU and CEA kernels stop the chain."""
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    for label, key, red in [
        ("AutogradCPU", "AutogradCPU", True),
        ("ADInplaceOrView", "ADInplaceOrView", True),
        ("CPU", "CPU", False),
        ("CEA", "CompositeExplicitAutograd", False),
    ]:
        lib.impl("foo", ctx.keyset_kernel(label, ns, red), key, with_keyset=True)
    M = ctx.M
    x = M.randn(2)
    xg = M.randn(2, requires_grad=True)
    xm = M.empty(2, device="meta")
    f = ctx.op(ns)
    out = {}

    def under(cm: Callable[[], Any], t: Any) -> Callable[[], Any]:
        def g() -> Any:
            with cm():
                return f(t)

        return g

    for name, mk in TLS_CASES.items():
        if name == "include:Python":
            continue  # would reach torch's Python fallback with no mode active
        out[name] = [ctx.call(under(lambda mk=mk: mk(ctx), t)) for t in (x, xg, xm)]
    return out


_add("tls/calls_keyset_under_guards", _tls_calls_keyset)


# =============================================================================================
# 7. withkeyset/: kernels receiving the dispatch keyset, redispatch chains
# =============================================================================================


def _ks_chain(regs: list[tuple[str, bool]], contexts: list[str]) -> Callable[[_Ctx], Any]:
    """regs: (label, redispatch_below_self) - every kernel is registered with_keyset=True."""

    def body(ctx: _Ctx) -> Any:
        ns = ctx.ns()
        q = f"{ns}::foo"
        lib = ctx.lib(ns)
        lib.define("foo(Tensor x) -> Tensor")
        errors = {}
        for label, red in regs:
            try:
                lib.impl(
                    "foo", ctx.keyset_kernel(label, ns, red), full_name(label), with_keyset=True
                )
            except Exception as e:  # noqa: BLE001
                errors[label] = ctx.err(e)
        r: dict[str, Any] = {}
        if errors:
            r["errors"] = errors
        r["table"] = ctx.table(q)
        r["calls"] = _run_calls(ctx, ns, contexts)
        return r

    return body


_KS_CONTEXTS = CALL_CONTEXTS + ["include:PrivateUse1", "include_grad:PrivateUse1"]
WITHKEYSET_CASES = {
    "AutogradCPU>CPU": [("AutogradCPU", True), ("CPU", False)],
    "AutogradCPU>ADInplaceOrView>CPU": [
        ("AutogradCPU", True),
        ("ADInplaceOrView", True),
        ("CPU", False),
    ],
    "Autograd>CEA": [("Autograd", True), ("CEA", False)],
    "Autograd>CPU,Meta": [("Autograd", True), ("CPU", False), ("Meta", False)],
    "Autograd>CIA": [("Autograd", True), ("CIA", False)],
    "CIA": [("CIA", False)],
    "CEA": [("CEA", False)],
    "CEANF": [("CEANF", False)],
    "ADInplaceOrView>CIA": [("ADInplaceOrView", True), ("CIA", False)],
    "PrivateUse1>CPU": [("PrivateUse1", True), ("CPU", False)],
    "AutogradPrivateUse1>PrivateUse1>CPU": [
        ("AutogradPrivateUse1", True),
        ("PrivateUse1", True),
        ("CPU", False),
    ],
    "AutocastCPU>CPU": [("AutocastCPU", True), ("CPU", False)],
    "BackendSelect>CPU": [("BackendSelect", True), ("CPU", False)],
    "AutogradCPU>nothing": [("AutogradCPU", True)],
}
for _n, _regs in WITHKEYSET_CASES.items():
    _add(f"withkeyset/{_n}", _ks_chain(_regs, _KS_CONTEXTS))


def _explicit_redispatch(ctx: _Ctx) -> Any:
    """op.default.redispatch(keyset, x) with hand-built keysets."""
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    for label in ["CPU", "Meta", "AutogradCPU", "PrivateUse1", "FPGA", "QuantizedCPU"]:
        lib.impl("foo", ctx.keyset_kernel(label, ns, False), label, with_keyset=True)
    lib.impl(
        "foo", ctx.keyset_kernel("CIA", ns, False), "CompositeImplicitAutograd", with_keyset=True
    )
    x = ctx.M.randn(2)
    op = ctx.op(ns, "foo", "default")
    ks = ctx.ks
    C = ctx.C
    cases = {
        "CPU": lambda: ks("CPU"),
        "CPU|AutogradCPU": lambda: ks("CPU", "AutogradCPU"),
        "AutogradCPU": lambda: ks("AutogradCPU"),
        "CPU|Meta": lambda: ks("CPU", "Meta"),
        "CPU|PrivateUse1": lambda: ks("CPU", "PrivateUse1"),
        "Meta|AutogradCPU": lambda: ks("Meta", "AutogradCPU"),
        "FPGA": lambda: ks("FPGA"),
        "FPGA|CPU": lambda: ks("FPGA", "CPU"),
        "QuantizedCPU|CPU": lambda: ks("QuantizedCPU", "CPU"),
        "empty(CPU-CPU)": lambda: ks("CPU") - ks("CPU"),
        "CUDA": lambda: ks("CUDA"),
        "NestedTensorCPU": lambda: ks("NestedTensorCPU"),
        "AutogradOther": lambda: ks("AutogradOther"),
        "ADInplaceOrView|CPU": lambda: ks("ADInplaceOrView", "CPU"),
        "full_after(AutogradCPU)&(CPU|AutogradCPU)": lambda: (
            ks("CPU", "AutogradCPU") & C._dispatch_keyset_full_after(ctx.key("AutogradCPU"))
        ),
    }
    out = {}
    for n, mk in cases.items():
        out[n] = ctx.call(lambda mk=mk: op.redispatch(mk(), x))
    return out


_add("withkeyset/explicit_redispatch", _explicit_redispatch)


def _packet_redispatch(ctx: _Ctx) -> Any:
    """redispatch is an OpOverload method; the packet does not have it."""
    ns = ctx.ns()
    lib = ctx.lib(ns)
    lib.define("foo(Tensor x) -> Tensor")
    lib.define("foo.ov(Tensor x) -> Tensor")
    lib.impl("foo", ctx.kernel("CPU", ns), "CPU")
    lib.impl("foo.ov", ctx.kernel("CPU_ov", ns), "CPU")
    x = ctx.M.randn(2)
    return {
        "packet_redispatch": ctx.attempt(lambda: ctx.op(ns).redispatch),
        "ov_call": ctx.call(lambda: ctx.op(ns, "foo", "ov")(x)),
        "ov_redispatch": ctx.call(lambda: ctx.op(ns, "foo", "ov").redispatch(ctx.ks("CPU"), x)),
        "default_call": ctx.call(lambda: ctx.op(ns, "foo", "default")(x)),
        "overloads": ctx.attempt(lambda: sorted(ctx.op(ns).overloads())),
        "str_default": ctx.text(str(ctx.op(ns, "foo", "default"))),
        "name_default": ctx.text(ctx.op(ns, "foo", "default").name()),
        "name_ov": ctx.text(ctx.op(ns, "foo", "ov").name()),
    }


_add("withkeyset/opoverload_api", _packet_redispatch)


GROUP_ORDER = [
    "baseline",
    "table",
    "fallthrough",
    "autogradother",
    "nested",
    "batched",
    "combo",
    "fallback",
    "regerr",
    "keys",
    "keyset",
    "tensor",
    "tls",
    "withkeyset",
]


def scenario_names() -> list[str]:
    return list(SCENARIOS)


def run_scenario(name: str, M: Any) -> Any:
    return SCENARIOS[name](M)


__all__ = [
    "SCENARIOS",
    "normalize",
    "normalize_text",
    "keyroute_expectation",
    "table_diff",
    "run_scenario",
    "group_of",
    "ns_for",
    "permutations_for",
]

if os.environ.get("KR_SCENARIOS_DEBUG"):  # pragma: no cover
    print(len(SCENARIOS), "scenarios")
