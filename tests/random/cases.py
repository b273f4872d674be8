"""The random-stream cases: each a function of the module (torch or keyroute) returning the
values to compare bit for bit. tools/record_random.py runs them on PyTorch 2.13 and stores the
values in tests/data/random_streams.npz; tests/random/test_streams.py runs them on keyroute.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

CASES: dict[str, Callable[[Any], list[Any]]] = {}

SIZES = (0, 1, 2, 15, 16, 17, 100, 1000)
SHAPES = ((3, 5), (2, 3, 4), (4, 4), (1, 17), (5, 0, 3), (2, 1, 9))


def case(name: str) -> Callable[[Callable[[Any], list[Any]]], Callable[[Any], list[Any]]]:
    def deco(fn: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
        assert name not in CASES, name
        CASES[name] = fn
        return fn

    return deco


def _dt(M: Any, name: str) -> Any:  # noqa: N803
    return getattr(M, name)


def _reg(name: str, fn: Callable[[Any], list[Any]]) -> None:
    case(name)(fn)


# -- factories over sizes and dtypes

for _n in SIZES:
    for _d in ("float32", "float64", "float16", "bfloat16"):
        _reg(
            f"rand-{_n}-{_d}",
            lambda M, n=_n, d=_d: [M.manual_seed(n) and M.rand(n, dtype=_dt(M, d)), M.rand(3)],
        )
        _reg(
            f"randn-{_n}-{_d}",
            lambda M, n=_n, d=_d: [M.manual_seed(n) and M.randn(n, dtype=_dt(M, d)), M.randn(3)],
        )
    _reg(f"randint-{_n}", lambda M, n=_n: [M.manual_seed(n) and M.randint(0, 10, (n,))])
    _reg(f"randint-big-{_n}", lambda M, n=_n: [M.manual_seed(n) and M.randint(-5, 2**40, (n,))])
    _reg(f"randperm-{_n}", lambda M, n=_n: [M.manual_seed(n) and M.randperm(n)])
    _reg(
        f"normal_-{_n}",
        lambda M, n=_n: [
            M.manual_seed(n) and M.empty(n).normal_(0.5, 2.5),
            M.empty(n, dtype=M.float64).normal_(-1.0, 0.3),
        ],
    )
    _reg(
        f"uniform_-{_n}",
        lambda M, n=_n: [
            M.manual_seed(n) and M.empty(n).uniform_(-0.3, 0.7),
            M.empty(n, dtype=M.float64).uniform_(2.0, 5.5),
            M.empty(n, dtype=M.float16).uniform_(-1, 1),
        ],
    )
    _reg(
        f"bernoulli_-{_n}",
        lambda M, n=_n: [
            M.manual_seed(n) and M.empty(n).bernoulli_(0.3),
            M.bernoulli(M.rand(n, dtype=M.float64)),
            M.bernoulli(M.rand(n)),
            M.empty(n).bernoulli_(M.rand(n)),
        ],
    )
    _reg(
        f"exponential_-{_n}",
        lambda M, n=_n: [
            M.manual_seed(n) and M.empty(n).exponential_(),
            M.empty(n, dtype=M.float64).exponential_(2.5),
        ],
    )
    _reg(
        f"dists-{_n}",
        lambda M, n=_n: [
            M.manual_seed(n) and M.empty(n).cauchy_(0.5, 2.0),
            M.empty(n, dtype=M.float64).log_normal_(0.2, 0.5),
            M.empty(n).log_normal_(),
            M.empty(n).geometric_(0.3),
            M.empty(n, dtype=M.int64).geometric_(0.6),
        ],
    )
    _reg(
        f"like-{_n}",
        lambda M, n=_n: [
            M.manual_seed(n) and M.rand_like(M.empty(n)),
            M.randn_like(M.empty(n, dtype=M.float64)),
            M.randint_like(M.empty(n), 3, 9),
        ],
    )

for _s in SHAPES:
    _reg(
        f"shape-{'x'.join(map(str, _s))}",
        lambda M, s=_s: [
            M.manual_seed(7) and M.rand(*s),
            M.randn(*s),
            M.randn(*s, dtype=M.float64),
            M.randint(-3, 3, s),
            M.empty(*s).bernoulli_(0.5),
        ],
    )

# -- generators, caches and states


@case("generator-objects")
def _gen_objects(M: Any) -> list[Any]:  # noqa: N803
    g = M.Generator().manual_seed(123)
    h = M.Generator(device="cpu")
    return [
        M.rand(4, generator=g),
        M.randn(20, generator=g),
        M.randint(0, 100, (5,), generator=g),
        M.randint(7, (3,), generator=g),
        M.randperm(9, generator=g),
        M.empty(5).normal_(generator=g),
        M.rand(3, generator=h),
        M.tensor([g.initial_seed(), h.initial_seed()]),
    ]


@case("normal-cache")
def _normal_cache(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(11)
    out = [M.randn(1), M.randn(1), M.randn(3), M.randn(1, dtype=M.float64), M.randn(17)]
    out.append(M.get_rng_state())
    out.append(M.randn(5))
    return out


@case("rng-state-bytes")
def _state_bytes(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(0)
    a = M.get_rng_state()
    M.rand(1)
    b = M.get_rng_state()
    M.rand(700)
    c = M.get_rng_state()
    M.randn(3)
    d = M.get_rng_state()
    return [a, b, c, d]


@case("rng-state-restore")
def _state_restore(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(5)
    M.randn(7)
    s = M.get_rng_state()
    x = M.randn(9)
    M.set_rng_state(s)
    y = M.randn(9)
    g = M.Generator().manual_seed(3)
    st = g.get_state()
    a = M.rand(5, generator=g)
    g.set_state(st)
    b = M.rand(5, generator=g)
    return [x, y, a, b]


@case("fork-rng")
def _fork(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(9)
    with M.random.fork_rng():
        inner = M.rand(4)
    return [inner, M.rand(4)]


@case("seeds")
def _seeds(M: Any) -> list[Any]:  # noqa: N803
    out = []
    for s in (0, 1, 2**32 + 5, 2**63 - 1, -1, -(2**40), 2**64 - 1, 67280421310721):
        M.manual_seed(s)
        out.append(M.tensor([M.initial_seed() % 2**63]))
        out.append(M.rand(2))
    return out


# -- random_ and randint by dtype

_INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool")
_ALL = (*_INT_DTYPES, "float32", "float64", "float16", "bfloat16")

for _d in _ALL:
    _reg(
        f"random_-{_d}",
        lambda M, d=_d: [
            M.manual_seed(3) and M.empty(20, dtype=_dt(M, d)).random_(),
            M.empty(20, dtype=_dt(M, d)).random_(2),
            M.empty(20, dtype=_dt(M, d)).random_(0, 1 if d == "bool" else 100),
        ],
    )
    if _d != "bool":
        _reg(
            f"randint-{_d}",
            lambda M, d=_d: [M.manual_seed(4) and M.randint(0, 50, (33,), dtype=_dt(M, d))],
        )

_reg(
    "random_-full-range",
    lambda M: [M.manual_seed(1) and M.empty(10, dtype=M.int64).random_(-(2**63), None)],
)
_reg(
    "random_-from-none",
    lambda M: [
        M.manual_seed(2) and M.empty(10, dtype=M.int64).random_(5, None),
        M.empty(10, dtype=M.int32).random_(-7, None),
        M.empty(10, dtype=M.float32).random_(3, None),
    ],
)

# -- non-contiguous outputs (TensorIterator's memory order)


@case("noncontig")
def _noncontig(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(21)
    a = M.empty(6, 5).t().normal_()
    b = M.empty(40, 3)[:, 1].normal_(1.0, 2.0)
    c = M.empty(8, 6).t().uniform_(-2, 2)
    d = M.empty(4, 9)[:, ::2].bernoulli_(0.4)
    e = M.empty(5, 7, dtype=M.float64).t().exponential_()
    f = M.empty(5, 4, dtype=M.int64).t().random_(0, 1000)
    return [a, b, c, d, e, f]


# -- multinomial


@case("multinomial")
def _multinomial(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(13)
    p = M.tensor([0.1, 0.2, 0.3, 0.4, 0.0, 1.5])
    p2 = M.rand(4, 30)
    return [
        M.multinomial(p, 1),
        M.multinomial(p, 4),
        M.multinomial(p, 20, replacement=True),
        M.multinomial(p, 1, replacement=True),
        M.multinomial(p2, 5),
        M.multinomial(p2, 50, True),
        M.multinomial(p2.double(), 7, True),
        M.multinomial(p2.double(), 3),
        p2.multinomial(2),
    ]


# -- normal overloads


@case("normal-overloads")
def _normal_overloads(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(17)
    mean = M.arange(20.0)
    std = M.arange(20.0) / 10 + 0.1
    return [
        M.normal(mean, 0.5),
        M.normal(1.5, std),
        M.normal(mean, std),
        M.normal(2.0, 3.0, (4, 5)),
        M.normal(mean[:5], std[:5]),
        M.normal(0.0, 1.0, (3,), dtype=M.float64),
    ]


# -- nn: dropout, init, default module init


@case("dropout")
def _dropout(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(31)
    x = M.ones(4, 25)
    d = M.nn.Dropout(0.5)
    d.train()
    return [
        M.nn.functional.dropout(x, 0.3, training=True),
        d(x),
        M.nn.functional.dropout(M.ones(7, dtype=M.float64), 0.2),
        M.dropout(M.ones(3, 3), 0.5, True),
        M.native_dropout(M.ones(10), 0.4, True)[0],
    ]


@case("nn-init")
def _init(M: Any) -> list[Any]:  # noqa: N803
    init = M.nn.init
    M.manual_seed(41)
    out = []
    for shape in ((16, 8), (3, 5), (4, 3, 3, 3)):
        out.append(init.uniform_(M.empty(*shape), -0.1, 0.1))
        out.append(init.normal_(M.empty(*shape), 0.0, 0.02))
        out.append(init.xavier_uniform_(M.empty(*shape)))
        out.append(init.xavier_normal_(M.empty(*shape)))
        out.append(init.kaiming_uniform_(M.empty(*shape), a=math.sqrt(5)))
        out.append(init.kaiming_normal_(M.empty(*shape), mode="fan_out", nonlinearity="relu"))
    return out


@case("nn-init-trunc-normal")
def _init_trunc(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(43)
    g = M.Generator().manual_seed(5)
    return [
        M.nn.init.trunc_normal_(M.empty(10, 7), std=0.02),
        # a narrow window: PyTorch's uniform-candidate rejection branch
        M.nn.init.trunc_normal_(M.empty(300), mean=0.0, std=1.0, a=1.5, b=3.0),
        M.nn.init.trunc_normal_(M.empty(40, dtype=M.float64), mean=0.5, std=0.2, a=0, b=1),
        M.nn.init.trunc_normal_(M.empty(500), a=-0.5, b=0.5, generator=g),
    ]


@case("nn-modules")
def _modules(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(0)
    lin = M.nn.Linear(5, 3)
    conv = M.nn.Conv2d(2, 4, 3)
    emb = M.nn.Embedding(10, 4)
    return [lin.weight, lin.bias, conv.weight, conv.bias, emb.weight]


# -- long streams


@case("long-randn")
def _long_randn(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(2024)
    return [M.randn(5000), M.randn(2003, dtype=M.float64), M.rand(3001)]


@case("long-randperm")
def _long_randperm(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(99)
    return [M.randperm(5000).int()]


@case("long-mixed")
def _long_mixed(M: Any) -> list[Any]:  # noqa: N803
    g = M.Generator().manual_seed(77)
    out = []
    for n in (5, 16, 33, 1, 200, 7, 64):
        out.append(M.randn(n, generator=g))
        out.append(M.rand(n, generator=g, dtype=M.float64))
        out.append(M.randint(0, 2**30, (n,), generator=g))
    return out


# -- idioms of the runtime around a model


@case("sampler-seed-idiom")
def _sampler_seed(M: Any) -> list[Any]:  # noqa: N803
    # RandomSampler: a seed from the default generator, then randperm from a fresh generator.
    M.manual_seed(0)
    seed = int(M.empty((), dtype=M.int64).random_().item())
    g = M.Generator()
    g.manual_seed(seed)
    return [M.tensor([seed % 2**62]), M.randperm(10, generator=g), M.randperm(37, generator=g)]


@case("make-tensor")
def _make_tensor(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(6)
    mk = M.testing.make_tensor
    return [
        mk((4, 5), dtype=M.float32, device="cpu"),
        mk((3,), dtype=M.float64, device="cpu", low=-1, high=1),
        mk((6,), dtype=M.int64, device="cpu"),
        mk((2, 2), dtype=M.bool, device="cpu"),
    ]


# -- poisson (sample_poisson: product of uniforms below rate 10, PTRS from 10 up)


@case("poisson")
def _poisson(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(41)
    rates = M.tensor([0.0, 0.3, 1.0, 4.5, 9.99, 10.0, 12.5, 30.0, 250.0, 1e5])
    wide = M.linspace(0.0, 60.0, 240, dtype=M.float64).reshape(12, 20)
    g = M.Generator().manual_seed(5)
    return [
        M.poisson(rates),
        M.poisson(wide),
        M.poisson(wide.t()),  # rates in a transposed layout: the result is still row-major
        M.poisson(M.full((7,), 3.0, dtype=M.float16)),
        M.poisson(M.full((7,), 15.0, dtype=M.bfloat16)),
        M.poisson(M.full((2, 0), 1.0)),
        M.poisson(rates, generator=g),
        M.rand(4),  # the default stream continues where poisson left it
        M.rand(3, generator=g),
    ]


# -- binomial (sample_binomial: inversion below count * prob 10, BTRS from 10 up; prob > 0.5 by
# its complement)


@case("binomial")
def _binomial(M: Any) -> list[Any]:  # noqa: N803
    M.manual_seed(43)
    count = M.tensor([0.0, 1.0, 5.0, 10.0, 100.0, 1000.0, 20.0, 40.0, 7.0, 3.0, 1e6])
    prob = M.tensor([0.3, 0.5, 0.9, 0.99, 0.2, 0.6, 1.0, 0.0, 0.5, -0.5, 0.37])
    wide_count = M.linspace(0.0, 300.0, 120, dtype=M.float64).reshape(10, 12).round()
    wide_prob = M.linspace(0.01, 0.99, 120, dtype=M.float64).reshape(10, 12)
    g = M.Generator().manual_seed(9)
    return [
        M.binomial(count, prob),
        M.binomial(wide_count, wide_prob),
        M.binomial(wide_count.t(), wide_prob.t()),  # transposed: the result is still row-major
        M.binomial(M.full((3, 4), 50.0), M.tensor([0.1, 0.4, 0.6, 0.95])),  # prob broadcasts
        M.binomial(M.full((2, 0), 1.0), M.full((2, 0), 0.5)),
        M.binomial(count, prob, generator=g),
        M.binomial(M.full((6,), 2.5e4, dtype=M.float64), M.full((6,), 0.5, dtype=M.float64)),
        M.rand(4),  # the default stream continues where binomial left it
        M.rand(3, generator=g),
    ]
