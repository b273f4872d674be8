"""The metadata caches give what a fresh computation gives.

Both the Meta backend's per-operator cache (keyroute/kernels/meta.py, Note [meta cache]) and
FakeTensorMode's dispatch cache (Note [fake cache]) are checked over every operator sample of
tests/ops (6000+ calls over every aten family): each sample runs with the cache off (fresh),
then twice with it on (a miss, then a hit on new tensors of the same metadata), and the three
answers must agree: outputs' dtype, shape, strides, offset, device and type, which input's
storage each output aliases, or the error's type and message. Hits are counted.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

import keyroute
from keyroute.kernels import meta as meta_backend
from keyroute.subclasses import FakeTensorMode
from tests.ops.harness import all_families, family_samples, rng_for, to_meta


def _describe(v: Any, inputs: list[Any]) -> Any:
    if isinstance(v, keyroute.Tensor):
        storage = getattr(v._data, "storage", None)
        aliases = [i for i, t in enumerate(inputs) if getattr(t._data, "storage", 0) is storage]
        return (
            type(v).__name__,
            str(v.dtype),
            tuple(v.shape),
            v.stride(),
            v.storage_offset(),
            str(v.device),
            tuple(aliases),
        )
    if isinstance(v, (list, tuple)):
        return [_describe(x, inputs) for x in v]
    return repr(v)


def _flat(v: Any, out: list[Any]) -> list[Any]:
    if isinstance(v, keyroute.Tensor):
        out.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _flat(x, out)
    return out


def _op(sample: Any) -> Any:
    overload = sample.op if "." in sample.op else sample.op + ".default"
    name, ov = overload.split(".", 1)
    return getattr(getattr(keyroute.ops.aten, name), ov)


def _run(sample: Any, convert: Any, mode: Any = None) -> Any:
    args, kwargs = sample.make(keyroute, rng_for(sample.id))
    args = tuple(convert(a) for a in args)
    kwargs = {k: convert(v) for k, v in kwargs.items()}
    inputs = _flat((args, kwargs), [])
    op = _op(sample)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if mode is not None:
                with mode:
                    out = op(*args, **kwargs)
            else:
                out = op(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 (errors are answers too)
        return ("error", type(e).__name__, str(e).split("\n")[0])
    return ("out", _describe(out, inputs), _describe(inputs, inputs))


@pytest.mark.parametrize("family", all_families())
def test_meta_cache_matches_fresh_computation(family: str) -> None:
    samples = [s for s in family_samples(family) if "no_meta" not in s.tags]
    convert = lambda v: to_meta(keyroute, v)  # noqa: E731
    bad = []
    meta_backend.cache_clear()
    for s in samples:
        prev = meta_backend.set_cache_enabled(False)
        try:
            fresh = _run(s, convert)
        finally:
            meta_backend.set_cache_enabled(prev)
        first = _run(s, convert)
        second = _run(s, convert)
        if not (fresh == first == second):
            bad.append(f"{s.id} ({s.op}): fresh {fresh}\n  miss {first}\n  hit {second}")
    assert not bad, f"{len(bad)} of {len(samples)} differ:\n" + "\n".join(bad[:10])
    info = meta_backend.cache_info()
    assert info["hits"] >= len(samples) // 4, info  # repeats hit (bypasses: factories, CPU scalars)


@pytest.mark.parametrize("family", all_families())
def test_fake_cache_matches_fresh_computation(family: str) -> None:
    samples = family_samples(family)
    bad = []
    hits_expected = 0
    FakeTensorMode.cache_clear()
    for s in samples:
        fresh = _run_fake(s, False)
        first = _run_fake(s, True)
        hits = FakeTensorMode.cache_hits
        second = _run_fake(s, True)
        if FakeTensorMode.cache_hits > hits:
            hits_expected += 1
        if not (fresh == first == second):
            bad.append(f"{s.id} ({s.op}): fresh {fresh}\n  miss {first}\n  hit {second}")
    assert not bad, f"{len(bad)} of {len(samples)} differ:\n" + "\n".join(bad[:10])
    assert hits_expected >= len(samples) // 4, (hits_expected, FakeTensorMode.cache_info())


def _run_fake(sample: Any, cache_enabled: bool) -> Any:
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    mode.cache_enabled = cache_enabled
    return _run(sample, lambda v: _fake(mode, v), mode)


def _fake(mode: FakeTensorMode, v: Any) -> Any:
    if isinstance(v, keyroute.Tensor):
        return mode.from_tensor(v)
    if isinstance(v, (list, tuple)):
        return type(v)(_fake(mode, x) for x in v)
    return v


def test_fake_cache_counts_hits_misses_and_bypasses() -> None:
    FakeTensorMode.cache_clear()
    mode = FakeTensorMode()
    with mode:
        x = keyroute.empty(8, 16)
        for _ in range(5):
            x + x
        x.add_(1)  # in-place: bypassed
    info = FakeTensorMode.cache_info()
    assert info.misses >= 1 and info.hits >= 4, info
    assert info.bypasses.get("uncacheable operator", 0) >= 1, info
    assert info.size >= 1
    FakeTensorMode.cache_clear()
    assert FakeTensorMode.cache_info() == (0, 0, {}, 0)


def test_fake_cache_keys_on_devices_and_default_dtype() -> None:
    FakeTensorMode.cache_clear()
    with FakeTensorMode():
        a = keyroute.empty(4)
        b = keyroute.empty(4, device="cuda:0")
        assert (a + 1).device == keyroute.device("cpu")
        assert (b + 1).device == keyroute.device("cuda", 0)  # same shapes, other device
        i = keyroute.empty(4, dtype=keyroute.int64)
        assert (i / 2).dtype == keyroute.float32
        prev = keyroute.get_default_dtype()
        keyroute.set_default_dtype(keyroute.float64)
        try:
            assert (i / 2).dtype == keyroute.float64  # a hit would say float32
        finally:
            keyroute.set_default_dtype(prev)


def test_meta_cache_view_outputs_share_the_input_storage() -> None:
    x = keyroute.empty(4, 6, device="meta")
    y = keyroute.empty(4, 6, device="meta")
    vx, vy = x.t(), y.t()  # the second is a cache hit
    assert vx._data.storage is x._data.storage and vy._data.storage is y._data.storage
    assert vy._base is y and vy.stride() == (1, 6)
    s1, s2 = x + x, y + y
    assert s1._data.storage is not s2._data.storage


def test_meta_cache_does_not_swallow_warnings() -> None:
    from keyroute.aten._meta_util import meta_like

    calls = []

    def warning_meta(self: Any, other: Any, alpha: Any = 1) -> Any:
        calls.append(1)
        warnings.warn("this meta function warns", UserWarning, stacklevel=2)
        return meta_like(self)

    kernel = meta_backend._cached_kernel(keyroute.ops.aten.add.Tensor, warning_meta)
    x = keyroute.empty(3, device="meta")
    for _ in range(3):
        with pytest.warns(UserWarning, match="this meta function warns"):
            out = kernel(x, x)
        assert out.shape == (3,)
    assert len(calls) >= 3  # never served from the cache


def test_meta_cache_is_bounded_and_skips_nan_keys() -> None:
    x = keyroute.empty(3, device="meta")
    meta_backend.cache_clear()
    for _ in range(3):
        x + float("nan")  # nan != nan: every call misses
    assert meta_backend.cache_info()["hits"] == 0
    for i in range(meta_backend.CACHE_LIMIT + 10):
        x + i
    cache = meta_backend._caches[keyroute.ops.aten.add.Tensor]
    assert len(cache) <= meta_backend.CACHE_LIMIT


def test_fake_cache_follows_a_new_meta_kernel() -> None:
    from keyroute.aten._meta_util import new_meta
    from keyroute.library import Library

    FakeTensorMode.cache_clear()
    mode = FakeTensorMode()
    with mode:
        x = keyroute.empty(3, 5)
        assert keyroute.sin(x).shape == (3, 5)
        assert keyroute.sin(x).shape == (3, 5)  # a hit
    lib = Library("aten", "IMPL")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Overriding a previously registered kernel"
            lib.impl("sin", lambda self: new_meta((7,), self.dtype), "Meta")
        with mode:
            assert keyroute.sin(x).shape == (7,)  # the registration dropped the cached answer
    finally:
        lib._destroy()
    with mode:
        assert keyroute.sin(x).shape == (3, 5)
