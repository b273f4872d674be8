"""grad, grad_and_value, vjp, jacrev, jvp, jacfwd, hessian, linearize (torch.func's eager
transforms) as grad levels on the dynamic layer stack.

A grad level lifts its differentiable inputs into fresh autograd inputs of its own: a new
leaf, or, for a tensor already differentiable at an outer level, an alias (`view_as`) whose
gradient is this level's alone (so `grad(lambda y: x * y)(x)` is x, as PyTorch's; no
perturbation confusion). Autograd runs under `enable_grad` whatever the global mode (PyTorch's
NOTE [grad and vjp interaction with no_grad]). Inside vmap levels an input is first
materialized as batched at every active vmap level and lifted at its physical (core) tensor:
the one physical backward then yields every sample's gradient (independent samples), which is
how `vmap(grad(f))` costs one batched backward. Cotangents that are themselves batched (as in
`vmap(vjp_fn)`, which jacrev uses) flow through the autograd engine as BatchedTensors, their
backward formulas meeting the batching rules.

Forward mode (jvp, jacfwd, forward_ad) takes the "double vjp" route: the vjp is linear in its
cotangent u, so differentiating u -> J^T u against a tangent t gives J t, for every operator
whose backward formula is itself differentiable (PyTorch derives many forward formulas from
the backward ones in the same spirit).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .._ops import ops as _ops
from ..autograd import grad as _autograd_grad
from ..autograd._meta import set_requires_grad as _set_requires_grad
from ..autograd.grad_mode import enable_grad, is_grad_enabled
from ..layers.functorch import (
    BatchedTensor,
    _cut,
    _uncut,
    add_batch_dim,
    layer_stack,
    pop_layer,
    push_layer,
)
from ..tensor._tensor import Tensor
from ..utils._pytree import SUPPORTED_NODES, tree_flatten, tree_map, tree_unflatten
from .autograd_function import forward_pull

_aten = _ops.aten

__all__ = [
    "grad",
    "grad_and_value",
    "vjp",
    "jacrev",
    "jvp",
    "jacfwd",
    "hessian",
    "linearize",
]


# ----------------------------------------------------------------------------- argnums
def _wrap_argnum(argnum: Any, n: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < n:
        return argnum
    if -n <= argnum < 0:
        return argnum + n
    raise RuntimeError(f"Got argnum={argnum}, but only {n} positional inputs")


def _norm_argnums(argnums: Any, n: int) -> Any:
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, n)
    if isinstance(argnums, tuple):
        out = tuple(_wrap_argnum(a, n) for a in argnums)
        if len(out) == 0:
            raise RuntimeError("argnums must be non-empty")
        if len(set(out)) != len(out):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
        return out
    raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")


# ----------------------------------------------------------------------------- lifting
def _wrappers(t: Any) -> tuple[list[tuple[int, int]], Any]:
    """[(level, bdim), ...] outermost first, and the core (plain) tensor."""
    chain = []
    while type(t) is BatchedTensor:
        d = t.__dict__
        chain.append((d["_level"], d["_bdim"]))
        t = d["_value"]
    return chain, t


def _rewrap(core: Any, chain: list[tuple[int, int]]) -> Any:
    for level, bdim in reversed(chain):
        core = add_batch_dim(core, bdim, level)
    return core


def _rewrap_under(g: Any, chain: list[tuple[int, int]]) -> Any:
    """Wrap a core gradient in its input's levels, below any newer (higher) levels `g` is
    batched at already (a vmap over vjp_fn): wrappers nest with the highest level outside."""
    top = max((lv for lv, _ in chain), default=0)
    if type(g) is BatchedTensor and g.__dict__["_level"] > top:
        d = g.__dict__
        v = d["_value"] if d["_bdim"] == 0 else d["_value"].movedim(d["_bdim"], 0)
        inner = _rewrap_under(v, [(lv, b + 1) for lv, b in chain])
        return add_batch_dim(inner, 0, d["_level"])
    return _rewrap(g, chain)


def _materialize(t: Any, vmaps: list[Any]) -> Any:
    """`t` batched at every level in `vmaps` (descending), unbatched levels expanded."""
    if not vmaps:
        return t
    interp = vmaps[0]
    if type(t) is BatchedTensor and t.__dict__["_level"] == interp.level:
        d = t.__dict__
        return add_batch_dim(_materialize(d["_value"], vmaps[1:]), d["_bdim"], interp.level)
    inner = _materialize(t, vmaps[1:])
    saved = _cut(interp.level)
    try:
        # expand adds the new leading dimension itself (one view, no unsqueeze first)
        expanded = inner.expand([interp.batch_size, *inner.shape])
    finally:
        _uncut(saved)
    return add_batch_dim(expanded, 0, interp.level)


class _Lifted:
    """The differentiable inputs of one grad level: their cores and wrapper chains."""

    def __init__(self) -> None:
        self.cores: list[Any] = []
        self.chains: list[list[tuple[int, int]]] = []
        self.aliased = False
        # the vmap levels around this grad level, innermost first (the stack does not change
        # while the inputs are lifted)
        self.vmaps = [i for i in reversed(layer_stack()) if i.kind == "vmap"]

    def lift(self, x: Any) -> Any:
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        vmaps = self.vmaps
        fresh = False
        if vmaps:
            y = _materialize(x, vmaps)
            # An input unbatched at the innermost vmap gets a new expanded view as its core:
            # that view is this level's own already (no detach needed to make it a leaf).
            fresh = _wrappers(y)[1] is not _wrappers(x)[1]
            x = y
        chain, core = _wrappers(x)
        if core.requires_grad:
            core = core.view_as(core)
            self.aliased = True
        elif fresh:
            _set_requires_grad(core, True)
        else:
            core = core.detach().requires_grad_()
        self.cores.append(core)
        self.chains.append(chain)
        return _rewrap(core, chain)

    def grads(self, outputs: list[Any], cotangents: list[Any], create: bool) -> list[Any]:
        outs, cots = [], []
        for o, c in zip(outputs, cotangents):
            _, oc = _wrappers(o)
            if not oc.requires_grad:
                continue
            outs.append(oc)
            # None: the ones of grad's scalar output, made at its core directly (no batched
            # new_ones then expand per level)
            cots.append(_aten.ones_like.default(oc) if c is None else _match(c, o))
        if outs:
            gs = _autograd_grad(
                outs, self.cores, cots, retain_graph=True, create_graph=create, allow_unused=True
            )
        else:
            gs = [None] * len(self.cores)
        result = []
        for g, core, chain in zip(gs, self.cores, self.chains):
            if g is None:
                g = core.detach().new_zeros(core.shape)
            result.append(_rewrap_under(g, chain))
        return result


def _match(cot: Any, out: Any) -> Any:
    """The cotangent for `out`'s core tensor: each of `out`'s levels peeled from `cot` (its
    batch dim moved to `out`'s) or, where `cot` is unbatched, expanded over that level. Levels
    `out` lacks (a vmap over vjp_fn) stay wrapped: the engine runs on BatchedTensors there."""
    chain, _ = _wrappers(out)
    c = cot
    for level, bdim in chain:
        if type(c) is BatchedTensor and c.__dict__["_level"] == level:
            d = c.__dict__
            v, b = d["_value"], d["_bdim"]
            c = v if b == bdim else v.movedim(b, bdim)
        else:
            size = next(i.batch_size for i in layer_stack() if i.level == level)
            shape = list(c.shape)
            shape.insert(bdim, size)
            c = c.unsqueeze(bdim).expand(shape)
    return c


def _outer_grad_level(level: int) -> bool:
    return any(i.kind == "grad" and i.level < level for i in layer_stack())


def _map(fn: Callable[[Any], Any], tree: Any) -> Any:
    """tree_map, without the pytree walk for the two common argument forms: one tensor, and a
    plain dict of tensors (a module's parameters); the same leaves in the same order."""
    if isinstance(tree, Tensor) and type(tree) not in SUPPORTED_NODES:
        return fn(tree)
    if type(tree) is dict and all(
        isinstance(v, Tensor) and type(v) not in SUPPORTED_NODES for v in tree.values()
    ):
        return {k: fn(v) for k, v in tree.items()}
    return tree_map(fn, tree)


def _detached(t: Any) -> Any:
    """`t` detached, at its core (one plain detach, its vmap wrappers rebuilt): what a batched
    detach would do level by level. A tensor that needs no grad is returned as it is."""
    if not isinstance(t, Tensor) or not t.requires_grad:
        return t
    chain, core = _wrappers(t)
    return _rewrap(core.detach(), chain) if chain else core.detach()


def _finish(x: Any, create: bool) -> Any:
    if not create:
        return _map(_detached, x)
    return x


# ----------------------------------------------------------------------------- grad
def grad_and_value(
    func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """(gradient of func's scalar output w.r.t. args[argnums], output) (torch.func)."""
    return _grad_and_value(func, argnums, has_aux, want_value=True)


def _grad_and_value(
    func: Callable[..., Any], argnums: Any, has_aux: bool, want_value: bool
) -> Callable[..., Any]:
    """grad_and_value; without `want_value` (grad) the output is not detached for returning."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        interp = push_layer("grad", prev_grad_mode=is_grad_enabled())
        try:
            with enable_grad():
                nums = _norm_argnums(argnums, len(args))
                lifted = _Lifted()
                args_l = list(args)
                for i in (nums,) if isinstance(nums, int) else nums:
                    args_l[i] = _map(lifted.lift, args[i])
                output = func(*args_l, **kwargs)
                aux = None
                if has_aux:
                    if not (isinstance(output, tuple) and len(output) == 2):
                        raise RuntimeError(
                            "grad_and_value(f)(*args): output of function f should be a tuple: "
                            "(output, aux) if has_aux is True"
                        )
                    output, aux = output
                if not isinstance(output, Tensor):
                    raise RuntimeError(
                        f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                        f"{type(output)}"
                    )
                if output.dim() != 0:
                    raise RuntimeError(
                        f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, "
                        f"got tensor with {output.dim()} dims. Maybe you wanted to use the vjp "
                        f"or jacrev APIs instead?"
                    )
                create = lifted.aliased or _outer_grad_level(interp.level)
                flat = lifted.grads([output], [None], create)
                it = iter(flat)
                if isinstance(nums, int):
                    g = _map(lambda _: next(it), args[nums])
                else:
                    g = tuple(_map(lambda _: next(it), args[i]) for i in nums)
                g = _finish(g, create)
                if not want_value and not has_aux:
                    return g, None
                output = _finish(output, create)
                if has_aux:
                    return g, (output, _finish(aux, create))
                return g, output
        finally:
            pop_layer(interp)

    return wrapper


def grad(func: Callable[..., Any], argnums: Any = 0, has_aux: bool = False) -> Callable[..., Any]:
    """The gradient of func's scalar output w.r.t. args[argnums] (torch.func.grad)."""
    gv = _grad_and_value(func, argnums, has_aux, want_value=False)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return wrapper


# ----------------------------------------------------------------------------- vjp
def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """(func(*primals), vjp_fn[, aux]): vjp_fn(cotangents) gives the cotangents' pullback."""
    return _vjp(func, primals, has_aux, keep_graph=False)


def _vjp(func: Callable[..., Any], primals: Any, has_aux: bool, keep_graph: bool) -> Any:
    interp = push_layer("grad", prev_grad_mode=is_grad_enabled())
    try:
        with enable_grad():
            lifted = _Lifted()
            diff = tree_map(lifted.lift, primals)
            out = func(*diff)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise RuntimeError(
                        "vjp(f, *primals): output of function f should be a tuple: (output, aux) "
                        "if has_aux is True"
                    )
                out, aux = out
            flat_out, out_spec = tree_flatten(out)
            _check_outputs(flat_out, "vjp(f, *primals)")
            for o in flat_out:
                if not (o.is_floating_point() or o.is_complex()):
                    raise RuntimeError(
                        f"vjp(f, ...): All outputs of f must be floating-point or complex "
                        f"Tensors, got Tensor with dtype {o.dtype}"
                    )
            create = keep_graph or lifted.aliased or _outer_grad_level(interp.level)
    finally:
        pop_layer(interp)

    def vjp_fn(cotangents: Any) -> Any:
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError(
                f"Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {_pprint(cot_spec)}, primal output: "
                f"{_pprint(out_spec)}"
            )
        with enable_grad():
            flat = lifted.grads(flat_out, flat_cot, create or _any_grad_level())
        it = iter(flat)
        result = tree_map(lambda _: next(it), primals)
        return _finish(result, create or _any_grad_level())

    results = _finish(out, create)
    if has_aux:
        return results, vjp_fn, _finish(aux, create)
    return results, vjp_fn


def _any_grad_level() -> bool:
    return any(i.kind == "grad" for i in layer_stack())


def _pprint(spec: Any) -> str:
    return str(spec).replace("\n", "").replace("  ", " ")


def _check_outputs(flat: list[Any], api: str) -> None:
    if not flat:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output")
    for o in flat:
        if not isinstance(o, Tensor):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                f"{type(o)}"
            )


# ----------------------------------------------------------------------------- jacrev
def _eye_rows(out: Any) -> Any:
    """The standard basis of `out`'s space, one basis tensor per row: (numel, *out.shape)."""
    from .._api import creation as _creation

    n = out.numel()
    eye = _creation.eye(n, dtype=out.dtype) if n else out.new_zeros([0, 0])
    return eye.view([n, *out.shape])


def jacrev(
    func: Callable[..., Any],
    argnums: Any = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
    _preallocate_and_copy: bool = False,
) -> Callable[..., Any]:
    """The Jacobian of func w.r.t. args[argnums] by reverse mode: vmap over vjp's standard
    basis cotangents (torch.func.jacrev)."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")
    from .vmap import vmap

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _norm_argnums(argnums, len(args))
        numlist = (nums,) if isinstance(nums, int) else nums

        def inner(*diff: Any) -> Any:
            full = list(args)
            for i, d in zip(numlist, diff):
                full[i] = d
            return func(*full, **kwargs)

        primals = tuple(args[i] for i in numlist)
        res = _vjp(inner, primals, has_aux, keep_graph=False)
        out, vjp_fn = res[0], res[1]
        flat_out, out_spec = tree_flatten(out)
        flat_in, in_spec = tree_flatten(primals)
        rows: list[list[Any]] = []  # rows[k][j]: d out_k / d in_j
        for k, o in enumerate(flat_out):
            basis = _eye_rows(o)

            def pull(b: Any, k: int = k) -> Any:
                cots = [b if j == k else fo.new_zeros(fo.shape) for j, fo in enumerate(flat_out)]
                return tree_flatten(vjp_fn(tree_unflatten(cots, out_spec)))[0]

            if o.numel() == 0:
                per_in = [x.new_zeros([0, *x.shape]) for x in flat_in]
            else:
                per_in = vmap(pull, chunk_size=chunk_size)(basis)
            rows.append([g.view([*o.shape, *x.shape]) for g, x in zip(per_in, flat_in)])
        jac = [tree_unflatten(r, in_spec) for r in rows]
        jac = [j[0] if isinstance(nums, int) else j for j in jac]
        result = tree_unflatten(jac, out_spec)
        if has_aux:
            return result, res[2]
        return result

    return wrapper


# ----------------------------------------------------------------------------- forward mode
def jvp(
    func: Callable[..., Any],
    primals: Any,
    tangents: Any,
    *,
    strict: bool = False,
    has_aux: bool = False,
) -> Any:
    """(func(*primals), J @ tangents) (torch.func.jvp), by the double-vjp route."""
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{api}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    flat_p, p_spec = tree_flatten(primals)
    flat_t, t_spec = tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(
            f"{api}: Expected primals and tangents to have the same python structure. For "
            f"example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {p_spec} and tangents with structure {t_spec}"
        )
    for kind, flat in (("primals", flat_p), ("tangents", flat_t)):
        for x in flat:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{api}: Expected {kind} to only contain Tensors, got {type(x)}")
    res = _vjp(func, primals, has_aux, keep_graph=True)
    out, vjp_fn = res[0], res[1]
    flat_out, out_spec = tree_flatten(out)
    with enable_grad():
        # The cotangent u lives at the outputs' core (physical) tensors: the vjp is linear in
        # it, and differentiating the pulled-back cores against the tangents gives J t there.
        u_cores, us, chains = [], [], []
        for o in flat_out:
            chain, core = _wrappers(o)
            uc = core.detach().new_zeros(core.shape).requires_grad_()
            u_cores.append(uc)
            us.append(_rewrap(uc, chain))
            chains.append(chain)
        with forward_pull():
            pulled = tree_flatten(vjp_fn(tree_unflatten(us, out_spec)))[0]
        outs, cots = [], []
        for p, t in zip(pulled, flat_t):
            _, pc = _wrappers(p)
            if pc.requires_grad:
                outs.append(pc)
                cots.append(_match(t, p))
        if outs:
            outs_t = _autograd_grad(
                outs, u_cores, cots, allow_unused=True, create_graph=_any_grad_level()
            )
        else:
            outs_t = [None] * len(u_cores)
    tangents_out = [
        _rewrap_under(t, chain) if t is not None else o.new_zeros(o.shape)
        for t, o, chain in zip(outs_t, flat_out, chains)
    ]
    primal_out = tree_unflatten([o.detach() if not _any_grad_level() else o for o in flat_out],
                                out_spec)  # fmt: skip
    tangent_out = tree_unflatten(tangents_out, out_spec)
    if has_aux:
        return primal_out, tangent_out, res[2]
    return primal_out, tangent_out


def jacfwd(
    func: Callable[..., Any],
    argnums: Any = 0,
    has_aux: bool = False,
    *,
    randomness: str = "error",
) -> Callable[..., Any]:
    """The Jacobian by forward mode: jvp over the inputs' standard basis (torch.func.jacfwd).
    Its values are the Jacobian's, as jacrev's; the columns are pushed one at a time."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _norm_argnums(argnums, len(args))
        numlist = (nums,) if isinstance(nums, int) else nums
        primals = tuple(args[i] for i in numlist)

        def inner(*diff: Any) -> Any:
            full = list(args)
            for i, d in zip(numlist, diff):
                full[i] = d
            return func(*full, **kwargs)

        flat_in, in_spec = tree_flatten(primals)
        out = inner(*primals)
        aux = None
        if has_aux:
            out, aux = out
        flat_out, out_spec = tree_flatten(out)
        cols: list[list[Any]] = [[] for _ in flat_out]  # cols[k][j]
        f2 = (lambda *d: inner(*d)[0]) if has_aux else inner
        from .vmap import vmap

        for j, x in enumerate(flat_in):
            # One jvp per basis tangent of input j, vmapped over the basis (PyTorch's push_jvp).
            def push(e: Any, j: int = j) -> Any:
                tans = [e if i == j else y.new_zeros(y.shape) for i, y in enumerate(flat_in)]
                return tuple(tree_flatten(jvp(f2, primals, tree_unflatten(tans, in_spec))[1])[0])

            if x.numel():
                per_out = vmap(push, randomness=randomness)(_eye_rows(x))
            else:
                per_out = tuple(o.new_zeros([0, *o.shape]) for o in flat_out)
            for k, o in enumerate(flat_out):
                cols[k].append(per_out[k].movedim(0, -1).reshape([*o.shape, *x.shape]))
        jac = [tree_unflatten(c, in_spec) for c in cols]
        jac = [j[0] if isinstance(nums, int) else j for j in jac]
        result = tree_unflatten(jac, out_spec)
        if has_aux:
            return result, aux
        return result

    return wrapper


def hessian(func: Callable[..., Any], argnums: Any = 0) -> Callable[..., Any]:
    """jacfwd(jacrev(func)) as PyTorch's: forward-over-reverse."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """(func(*primals), jvp_fn): jvp_fn(*tangents) is jvp at the primals (torch.func.linearize)."""
    out = func(*primals)

    def jvp_fn(*tangents: Any) -> Any:
        return jvp(func, primals, tangents)[1]

    return _finish(out, False), jvp_fn
