"""autograd.Function under torch.func transforms (PyTorch's torch/_functorch/autograd_function.py).

While a transform is active (a level on the dynamic layer stack, or a forward-AD level), a
Function call goes through `custom_function_call`, with PyTorch's rules:

- the Function must override `setup_context` (the forward/ctx split is what lets a transform
  replay the pieces separately);
- under vmap it needs its own `vmap(info, in_dims, *args) -> (output, out_dims)` staticmethod or
  `generate_vmap_rule = True` (not both). With the staticmethod, the vmap level's call runs it
  on the unbatched values below that level; with the generated rule, the forward runs on the
  batched tensors (its operators meet the batching rules);
- under forward mode (jvp, jacfwd, forward_ad) its own `jvp` staticmethod gives the tangents.

keyroute records autograd on the physical (core) tensors beneath every vmap level (see
eager_transforms), so one call becomes one autograd node over the cores (`_CustomCall`). Its
backward runs the user's `backward` on the cores re-batched by fresh nested vmaps (each input's
and saved tensor's batch dims as in_dims: PyTorch's generated rule vmaps backward the same way),
so it works whether or not the forward's vmap levels are still alive. A gradient for an input
that was not batched at a level is summed over that level (PyTorch's `reductify`).

Forward mode is keyroute's double-vjp route: the tangent J t comes from differentiating the
pullback u -> J^T u against t. During that pullback (`forward_pull`), a Function's node pulls
back through the *transpose of its jvp* (jvp is linear in its tangents, so the vjp of
tangents -> jvp(ctx, tangents) at u is J^T u as the jvp formula defines J); the derivative of
that in u is the user's jvp itself. A Function without `jvp` raises PyTorch's error there.
"""

from __future__ import annotations

from typing import Any

from ..autograd.function import TRANSFORM_CALL, forward_pull, in_forward_pull
from ..layers.functorch import (
    BatchedTensor,
    VmapInfo,
    _below,
    _interpreter,
    _wrap_user,
    layer_stack,
    unwrap_at,
)
from ..tensor._tensor import Tensor

__all__ = ["custom_function_call", "forward_pull", "in_forward_pull"]

_DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


# ----------------------------------------------------------------------------- chains
def _chain(t: Any) -> tuple[list[tuple[int, int, int]], Any]:
    """[(level, bdim, size), ...] outermost wrapper first, and the core (plain) tensor."""
    chain = []
    while type(t) is BatchedTensor:
        d = t.__dict__
        v = d["_value"]
        chain.append((d["_level"], d["_bdim"], v.shape[d["_bdim"]]))
        t = v
    return chain, t


def _rewrap(core: Any, chain: list[tuple[int, int, int]]) -> Any:
    from ..layers.functorch import add_batch_dim

    for level, bdim, _ in reversed(chain):
        core = add_batch_dim(core, bdim, level)
    return core


def _run_nested(fn: Any, tensors: list[Any], chains: list[Any]) -> tuple[list[int], Any]:
    """fn(*tensors' logical values) under fresh nested vmaps (one per level the chains hold,
    lowest level outermost), every output with its batch dims in front: (levels, outputs)."""
    from .vmap import vmap

    levels = sorted({lv for ch in chains for lv, _, _ in ch})
    f = fn
    for lv in reversed(levels):
        dims = tuple(next((b for lvl, b, _ in ch if lvl == lv), None) for ch in chains)
        f = vmap(f, in_dims=dims, out_dims=0)
    return levels, f(*tensors)


def _to_core(g: Any, levels: list[int], chain: list[tuple[int, int, int]]) -> Any:
    """A gradient laid out [levels..., logical] as the core of a tensor with `chain`: levels
    the tensor is not batched at are summed, levels it is batched at but `g` lacks expanded,
    then each batch dim moved to the tensor's own position."""
    bdims = {lv: (b, n) for lv, b, n in chain}
    drop = [i for i, lv in enumerate(levels) if lv not in bdims]
    if drop:
        g = g.sum(drop)
    kept = [lv for lv in levels if lv in bdims]
    for lv in sorted(bdims):
        if lv not in kept:
            i = sum(1 for k in kept if k < lv)
            shape = list(g.shape)
            shape.insert(i, bdims[lv][1])
            g = g.unsqueeze(i).expand(shape)
            kept.insert(i, lv)
    for j in range(len(kept) - 1, -1, -1):
        b = bdims[kept[j]][0]
        if b:
            g = g.movedim(j, j + b)
    return g


# ----------------------------------------------------------------------------- ctx
class _UserCtx:
    """The ctx a Function's setup_context sees under a transform (its saves are kept per core)."""

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad
        self._to_save: tuple[Any, ...] = ()
        self._saved_for_forward: tuple[Any, ...] = ()
        self._non_differentiable: tuple[Any, ...] = ()
        self._dirty: tuple[Any, ...] = ()
        self._materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        self._saved_for_forward = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self._non_differentiable = tensors

    def mark_dirty(self, *tensors: Any) -> None:
        self._dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize_grads = value


class _ReplayCtx:
    """The ctx of a replayed backward/jvp: the user's attributes, saved tensors re-batched."""

    def __init__(self, user: _UserCtx, saved: tuple[Any, ...]) -> None:
        self.__dict__.update(
            {k: v for k, v in user.__dict__.items() if not k.startswith("_to_save")}
        )
        self.saved_tensors = saved
        self.saved_variables = saved


# ----------------------------------------------------------------------------- the call
class _Plan:
    """What one Function call under transforms remembers for its backward and jvp."""

    def __init__(self, cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.cls = cls
        self.args = args
        self.kwargs = kwargs
        self.positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        parts = [_chain(args[i]) for i in self.positions]
        self.in_chains = [p[0] for p in parts]
        self.cores = [p[1] for p in parts]
        self.out_chains: list[Any] = []
        self.single = True
        self.user_ctx: _UserCtx | None = None
        self.saved: list[tuple[Any, Any]] = []  # (chain, index into the node's saved) or (None, x)
        self.saved_fwd: list[tuple[Any, Any]] = []

    # -------------------------------------------------------------- forward
    def forward(self, node: Any) -> tuple[Any, ...]:
        cls, args = self.cls, self.args
        needs = tuple(isinstance(a, Tensor) and _chain(a)[1].requires_grad for a in args)
        ctx = self.user_ctx = _UserCtx(needs)
        custom_setup = _has_setup_context(cls)
        vmap_level = _top_vmap_level(args)
        if vmap_level and _overrides(cls, "vmap"):
            output = self._user_vmap(vmap_level)
        elif custom_setup:
            output = cls.forward(*args, **self.kwargs)
        else:
            output = cls.forward(ctx, *args, **self.kwargs)
        if custom_setup:
            cls.setup_context(ctx, args, output)
        self.single = not isinstance(output, tuple)
        outs = (output,) if self.single else output
        out_cores = []
        for o in outs:
            if isinstance(o, Tensor):
                chain, core = _chain(o)
                self.out_chains.append(chain)
                out_cores.append(core)
            else:
                self.out_chains.append(None)
                out_cores.append(o)
        to_save = []
        for t in ctx._to_save:
            if isinstance(t, Tensor):
                chain, core = _chain(t)
                self.saved.append((chain, len(to_save)))
                to_save.append(core)
            else:
                self.saved.append((None, t))
        node.save_for_backward(*to_save)
        for t in ctx._saved_for_forward:
            self.saved_fwd.append(_chain(t) if isinstance(t, Tensor) else (None, t))
        node.mark_non_differentiable(
            *[_chain(t)[1] for t in ctx._non_differentiable if isinstance(t, Tensor)]
        )
        node.set_materialize_grads(ctx._materialize_grads)
        return tuple(out_cores)

    def _user_vmap(self, level: int) -> Any:
        interp = _interpreter(level)
        info = VmapInfo(interp.batch_size, interp.randomness)
        values, in_dims = [], []
        for a in self.args:
            v, d = unwrap_at(a, level) if isinstance(a, Tensor) else (a, None)
            values.append(v)
            in_dims.append(d)
        with _below(level):
            out, out_dims = self.cls.vmap(info, tuple(in_dims), *values, **self.kwargs)
        return _wrap_user(out, out_dims, level)

    # -------------------------------------------------------------- backward
    def _saved_cores(self, node: Any) -> tuple[list[Any], list[Any]]:
        cores = node.saved_tensors
        tensors, chains = [], []
        for chain, ref in self.saved:
            if chain is not None:
                tensors.append(cores[ref])
                chains.append(chain)
        return tensors, chains

    def _replay_saved(self, entries: list[tuple[Any, Any]], logical: list[Any]) -> tuple[Any, ...]:
        it = iter(logical)
        return tuple(next(it) if chain is not None else x for chain, x in entries)

    def backward(self, node: Any, gcores: tuple[Any, ...]) -> tuple[Any, ...]:
        if in_forward_pull():
            return self._pull_through_jvp(gcores)
        saved_t, saved_c = self._saved_cores(node)
        grads = [g for g, ch in zip(gcores, self.out_chains) if ch is not None]
        g_chains = [ch for ch in self.out_chains if ch is not None]
        n_g = len(grads)
        nones: list[bool] = []
        user = self.user_ctx
        entries = [(ch, None) if ch is not None else (None, x) for ch, x in self.saved]

        def run(*ts: Any) -> Any:
            gs, saved = ts[:n_g], ts[n_g:]
            ctx = _ReplayCtx(user, self._replay_saved(entries, list(saved)))
            res = self.cls.backward(ctx, *gs)
            res = res if isinstance(res, tuple) else (res,)
            nones[:] = [r is None for r in res]
            return tuple(r for r in res if r is not None)

        levels, out = _run_nested(run, [*grads, *saved_t], [*g_chains, *saved_c])
        return self._input_grads(levels, list(out), nones)

    def _input_grads(self, levels: list[int], out: list[Any], nones: list[bool]) -> tuple[Any, ...]:
        it = iter(out)
        per_arg = [None if none else next(it) for none in nones]
        result: list[Any] = []
        for k, pos in enumerate(self.positions):
            g = per_arg[pos] if pos < len(per_arg) else None
            result.append(None if g is None else _to_core(g, levels, self.in_chains[k]))
        return tuple(result)

    def _pull_through_jvp(self, gcores: tuple[Any, ...]) -> tuple[Any, ...]:
        from ..autograd import grad as autograd_grad
        from ..autograd.grad_mode import enable_grad

        cls = self.cls
        if not _overrides(cls, "jvp"):
            raise NotImplementedError(
                "You must implement the jvp function for custom autograd.Function to use it "
                "with forward mode AD."
            )
        user = self.user_ctx
        fwd_t = [core for ch, core in self.saved_fwd if ch is not None]
        fwd_c = [ch for ch, _ in self.saved_fwd if ch is not None]
        entries = [(ch, None) if ch is not None else (None, x) for ch, x in self.saved_fwd]
        n_in = len(self.cores)
        nargs = len(self.args)
        positions = self.positions
        with enable_grad():
            tts = [c.detach().new_zeros(c.shape).requires_grad_() for c in self.cores]

            def run(*ts: Any) -> Any:
                tangents: list[Any] = [None] * nargs
                for pos, t in zip(positions, ts[:n_in]):
                    tangents[pos] = t
                ctx = _ReplayCtx(user, self._replay_saved(entries, list(ts[n_in:])))
                res = cls.jvp(ctx, *tangents)
                return res if isinstance(res, tuple) else (res,)

            levels, out_t = _run_nested(run, [*tts, *fwd_t], [*self.in_chains, *fwd_c])
            outs, cots = [], []
            for t, ch, g in zip(out_t, self.out_chains, gcores):
                if ch is not None and t is not None and g is not None and t.requires_grad:
                    outs.append(_to_core(t, levels, ch))
                    cots.append(g)
            if not outs:
                return (None,) * n_in
            gs = autograd_grad(outs, tts, cots, create_graph=True, allow_unused=True)
        return tuple(gs)


_CALL_CLS: list[type] = []


def _call_function() -> type:
    """The autograd Function over the cores (made once, on first use: Function imports late)."""
    if _CALL_CLS:
        return _CALL_CLS[0]
    from ..autograd.function import Function

    class CustomFunctionCall(Function):
        _functorch_transparent = True

        @staticmethod
        def forward(ctx: Any, plan: _Plan, *cores: Any) -> Any:
            ctx.plan = plan
            return plan.forward(ctx)

        @staticmethod
        def backward(ctx: Any, *gcores: Any) -> Any:
            return (None, *ctx.plan.backward(ctx, gcores))

    _CALL_CLS.append(CustomFunctionCall)
    return CustomFunctionCall


# ----------------------------------------------------------------------------- checks
def _overrides(cls: type, name: str) -> bool:
    from ..autograd.function import Function

    return getattr(cls, name) is not getattr(Function, name)


def _has_setup_context(cls: type) -> bool:
    from ..autograd.function import Function

    return cls.setup_context is not Function.setup_context


def _top_vmap_level(args: tuple[Any, ...]) -> int:
    level = 0
    for a in args:
        if type(a) is BatchedTensor:
            lv = a.__dict__["_level"]
            interp = _interpreter(lv)
            if lv > level and interp is not None and interp.kind == "vmap":
                level = lv
    return level


def _check(cls: type) -> None:
    stack = layer_stack()
    if stack and not _has_setup_context(cls):
        raise RuntimeError(
            "In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
            "jacrev, ...), it must override the setup_context staticmethod. " + _DOCS
        )
    if any(i.kind == "vmap" for i in stack):
        has_vmap = _overrides(cls, "vmap")
        if cls.generate_vmap_rule and has_vmap:
            raise RuntimeError(
                f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True "
                f"and an overridden vmap staticmethod. Please set generate_vmap_rule=False or "
                f"delete the overridden vmap staticmethod to avoid ambiguity. " + _DOCS
            )
        if not cls.generate_vmap_rule and not has_vmap:
            raise RuntimeError(
                f"You tried to vmap over {cls.__name__}, but it does not have vmap support. "
                f"Please override and implement the vmap staticmethod or set "
                f"generate_vmap_rule=True. " + _DOCS
            )


def custom_function_call(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Function.apply while a transform is active: one autograd node over the core tensors."""
    _check(cls)
    plan = _Plan(cls, args, kwargs)
    out_cores = _call_function().apply(plan, *plan.cores)
    if not isinstance(out_cores, tuple):
        out_cores = (out_cores,)
    outs = tuple(
        _rewrap(c, ch) if ch is not None and isinstance(c, Tensor) else c
        for c, ch in zip(out_cores, plan.out_chains)
    )
    return outs[0] if plan.single else outs


TRANSFORM_CALL.append(custom_function_call)
