"""Python API of the random operators: torch.bernoulli / multinomial / normal / randint_like
and the Tensor methods of the distributions (exponential_, cauchy_, log_normal_, geometric_,
bernoulli, bernoulli_, multinomial, random_), with PyTorch's overloads."""

from __future__ import annotations

from typing import Any

from .._ops import ops
from ..tensor._tensor import Tensor
from . import function, method

aten = ops.aten


def _gen(fn: str, generator: Any) -> Any:
    from ..random import Generator

    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(
            f"{fn}(): argument 'generator' must be torch.Generator, not {type(generator).__name__}"
        )
    return generator


def _to_out(result: Tensor, out: Tensor | None) -> Tensor:
    if out is None:
        return result
    if list(out.shape) != list(result.shape):
        out.resize_(list(result.shape))
    return out.copy_(result)


@function
def bernoulli(
    input: Tensor, p: Any = None, *, generator: Any = None, out: Tensor | None = None
) -> Tensor:
    """Draw 0/1 per element with probability `input` (or the float `p`)."""
    g = _gen("bernoulli", generator)
    if p is None:
        return _to_out(aten.bernoulli.default(input, generator=g), out)
    if isinstance(p, Tensor):
        return _to_out(aten.bernoulli.Tensor(input, p, generator=g), out)
    return _to_out(aten.bernoulli.p(input, float(p), generator=g), out)


method(bernoulli)


@method
def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    g = _gen("bernoulli_", generator)
    if isinstance(p, Tensor):
        return aten.bernoulli_.Tensor(self, p, generator=g)
    return aten.bernoulli_.float(self, float(p), generator=g)


@function
def multinomial(
    input: Tensor,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Any = None,
    out: Tensor | None = None,
) -> Tensor:
    """Sample indices from the rows of `input` (unnormalised probabilities)."""
    g = _gen("multinomial", generator)
    if out is not None:
        return aten.multinomial.out(input, num_samples, replacement, generator=g, out=out)
    return aten.multinomial.default(input, num_samples, replacement, generator=g)


method(multinomial)


@function
def normal(
    mean: Any,
    std: Any = 1.0,
    size: Any = None,
    *,
    generator: Any = None,
    out: Tensor | None = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
) -> Tensor:
    """Normal samples with tensor or float mean and std (torch.normal's four overloads)."""
    g = _gen("normal", generator)
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        r = aten.normal.Tensor_Tensor(mean, std, generator=g)
    elif isinstance(mean, Tensor):
        r = aten.normal.Tensor_float(mean, float(std), generator=g)
    elif isinstance(std, Tensor):
        r = aten.normal.float_Tensor(float(mean), std, generator=g)
    else:
        if size is None:
            raise TypeError(
                "normal() received an invalid combination of arguments - got (float, float), "
                "but expected one of: (float mean, float std, tuple of ints size, *, "
                "torch.Generator generator = None, Tensor out = None, torch.dtype dtype = None, "
                "torch.layout layout = None, torch.device device = None, bool pin_memory = "
                "False, bool requires_grad = False)"
            )
        r = aten.normal.float_float(
            float(mean), float(std), list(size), generator=g, dtype=dtype, device=device
        )
        if requires_grad:
            r.requires_grad_(True)
    return _to_out(r, out)


@function
def randint_like(
    input: Tensor,
    low: Any = None,
    high: Any = None,
    *,
    generator: Any = None,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: bool | None = False,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    """Integers in [low, high) shaped like `input` (its dtype unless `dtype=`)."""
    g = _gen("randint_like", generator)
    if high is None:
        if low is None:
            raise TypeError('randint_like() missing 1 required positional arguments: "high"')
        low, high = 0, low
    low = 0 if low is None else int(low)
    kw = {"dtype": dtype, "device": device, "memory_format": memory_format}
    if g is not None:
        r = aten.randint_like.low_generator_dtype(input, low, int(high), generator=g, **kw)
    elif low == 0:
        r = aten.randint_like.default(input, int(high), **kw)
    else:
        r = aten.randint_like.low_dtype(input, low, int(high), **kw)
    if requires_grad:
        r.requires_grad_(True)
    return r


@method
def random_(self: Tensor, *args: Any, generator: Any = None, **kwargs: Any) -> Tensor:
    """random_(), random_(to), random_(from, to): PyTorch's three overloads."""
    g = _gen("random_", generator)
    if "from" in kwargs or "to" in kwargs:
        lo = kwargs.pop("from", args[0] if args else 0)
        hi = kwargs.pop("to", args[1] if len(args) > 1 else None)
        return getattr(aten.random_, "from")(self, int(lo), hi, generator=g)
    if len(args) == 2:
        hi = None if args[1] is None else int(args[1])
        return getattr(aten.random_, "from")(self, int(args[0]), hi, generator=g)
    if len(args) == 1:
        return aten.random_.to(self, int(args[0]), generator=g)
    return aten.random_.default(self, generator=g)


@method
def exponential_(self: Tensor, lambd: float = 1.0, *, generator: Any = None) -> Tensor:
    return aten.exponential_.default(self, float(lambd), generator=_gen("exponential_", generator))


@method
def cauchy_(
    self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator: Any = None
) -> Tensor:
    return aten.cauchy_.default(
        self, float(median), float(sigma), generator=_gen("cauchy_", generator)
    )


@method
def log_normal_(
    self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator: Any = None
) -> Tensor:
    return aten.log_normal_.default(
        self, float(mean), float(std), generator=_gen("log_normal_", generator)
    )


@method
def geometric_(self: Tensor, p: float, *, generator: Any = None) -> Tensor:
    return aten.geometric_.default(self, float(p), generator=_gen("geometric_", generator))


@function
def poisson(input: Tensor, generator: Any = None) -> Tensor:
    """One Poisson sample per element of `input` (the rates), as input's dtype."""
    return aten.poisson.default(input, _gen("poisson", generator))


@function
def binomial(count: Tensor, prob: Tensor, generator: Any = None) -> Tensor:
    """One binomial sample per element: successes in `count` trials of probability `prob`."""
    return aten.binomial.default(count, prob, _gen("binomial", generator))
