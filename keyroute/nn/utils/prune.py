"""torch.nn.utils.prune: a pruned parameter `name` becomes `name_orig` (the Parameter) plus a
buffer `name_mask`, and a forward pre-hook recomputes the attribute `name = name_orig *
name_mask` before each call, as PyTorch's. Pruning an already pruned parameter again
combines the methods in a PruningContainer: the new method masks only what the old mask kept
(unstructured: the kept entries; structured: the kept channels). Random methods draw from the
global generator as PyTorch's (rand_like, rand)."""

from __future__ import annotations

from typing import Any

import keyroute as _kr

__all__ = [
    "BasePruningMethod",
    "identity",
    "custom_from_mask",
    "random_unstructured",
    "l1_unstructured",
    "random_structured",
    "ln_structured",
    "global_unstructured",
    "remove",
    "is_pruned",
    "PruningContainer",
    "Identity",
    "CustomFromMask",
    "RandomUnstructured",
    "L1Unstructured",
    "RandomStructured",
    "LnStructured",
]


def _n_units(amount: Any, n: int) -> int:
    if isinstance(amount, int) and not isinstance(amount, bool):
        if amount < 0:
            raise ValueError(
                f"amount={amount} should either be a float in the range [0, 1] or a "
                "non-negative integer"
            )
        if amount > n:
            raise ValueError(
                f"amount={amount} should be smaller than the number of parameters to prune={n}"
            )
        return amount
    if not 0.0 <= amount <= 1.0:
        raise ValueError(
            f"amount={amount} should either be a float in the range [0, 1] or a "
            "non-negative integer"
        )
    return round(amount * n)


class BasePruningMethod:
    """A pruning method: compute_mask(t, default_mask) gives the new mask."""

    _tensor_name: str

    def __call__(self, module: Any, inputs: Any) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        # Abstract, as PyTorch's BasePruningMethod.compute_mask: each method says how it masks.
        raise NotImplementedError(f"{type(self).__name__} defines no compute_mask")

    def apply_mask(self, module: Any) -> Any:
        orig = getattr(module, self._tensor_name + "_orig")
        mask = getattr(module, self._tensor_name + "_mask")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(
        cls, module: Any, name: str, *args: Any, importance_scores: Any = None, **kw: Any
    ) -> Any:
        old = None
        for k, hook in list(module._forward_pre_hooks.items()):
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                old = hook
                del module._forward_pre_hooks[k]
        method: BasePruningMethod = cls(*args, **kw)
        method._tensor_name = name
        if old is not None:  # pruned before: the methods combine
            if isinstance(old, PruningContainer):
                old.add_pruning_method(method)
                method = old
            else:
                container = PruningContainer(old)
                container.add_pruning_method(method)
                method = container
        orig = getattr(module, name)  # (pruned before: the current, masked tensor)
        if importance_scores is not None and importance_scores.shape != orig.shape:
            raise AssertionError(
                f"importance_scores should have the same shape as parameter {name} of {module}"
            )
        if not isinstance(method, PruningContainer):
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = _kr.ones_like(orig)
        else:
            default_mask = (
                getattr(module, name + "_mask").detach().clone(memory_format=_kr.contiguous_format)
            )
        scores = importance_scores if importance_scores is not None else orig
        mask = method.compute_mask(scores.detach(), default_mask=default_mask)
        module.register_buffer(name + "_mask", mask)
        setattr(module, name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
        return method

    def remove(self, module: Any) -> None:
        """Make the pruning permanent: `name` becomes a Parameter holding orig * mask."""
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


class PruningContainer(BasePruningMethod):
    """The sequence of methods applied to one parameter; its mask is the last method's,
    computed on what the earlier ones kept."""

    def __init__(self, *args: Any) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method: Any) -> None:
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(
                "Can only add pruning methods acting on the parameter named "
                f"'{self._tensor_name}' to PruningContainer {self}. Found "
                f"'{method._tensor_name}'"
            )
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Any:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: int) -> BasePruningMethod:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        method = self._pruning_methods[-1]
        mask = default_mask.to(dtype=t.dtype)
        kind = method.PRUNING_TYPE
        if kind == "unstructured":
            slc: Any = default_mask == 1
        elif kind == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError(
                    'Pruning methods of PRUNING_TYPE "structured" need to have the attribute '
                    "`dim` defined."
                )
            n_dims = t.dim()
            dim = method.dim if method.dim >= 0 else n_dims + method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
            keep = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            parts: list[Any] = [slice(None)] * n_dims
            parts[dim] = keep
            slc = tuple(parts)
        elif kind == "global":
            slc = tuple([slice(None)] * len(t.shape))
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")
        partial = method.compute_mask(t[slc], default_mask=default_mask[slc])
        mask[slc] = partial.to(dtype=mask.dtype)
        return mask


class Identity(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return default_mask


class CustomFromMask(BasePruningMethod):
    PRUNING_TYPE = "global"

    def __init__(self, mask: Any) -> None:
        self.mask = mask

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return default_mask * self.mask.to(dtype=default_mask.dtype)


def _zero_top_k(t: Any, default_mask: Any, amount: Any, scores: Any, largest: bool) -> Any:
    # Both unstructured methods zero the k entries that rank first by their scores.
    k = _n_units(amount, t.numel())
    mask = default_mask.clone(memory_format=_kr.contiguous_format)
    if k != 0:
        idx = _kr.topk(scores().view(-1), k=k, largest=largest).indices
        mask.view(-1)[idx] = 0
    return mask


class RandomUnstructured(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: Any) -> None:
        self.amount = amount

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return _zero_top_k(t, default_mask, self.amount, lambda: _kr.rand_like(t), True)


class L1Unstructured(BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: Any) -> None:
        self.amount = amount

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return _zero_top_k(t, default_mask, self.amount, lambda: _kr.abs(t), False)


def _check_structured(t: Any, dim: int) -> None:
    if t.dim() <= 1:
        raise ValueError(
            "Structured pruning can only be applied to multidimensional tensors. Found tensor "
            f"of shape {t.shape} with {t.dim()} dims"
        )
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _channel_mask(t: Any, dim: int, keep: Any) -> Any:
    """ones on the channels `keep` (indices or a bool mask) of dim, zeros elsewhere."""
    mask = _kr.zeros_like(t)
    parts: list[Any] = [slice(None)] * len(t.shape)
    parts[dim] = keep
    mask[tuple(parts)] = 1
    return mask


class RandomStructured(BasePruningMethod):
    """Prune whole channels along `dim` at random (uniform draws, the smallest pruned)."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: Any, dim: int = -1) -> None:
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        _check_structured(t, self.dim)
        size = t.shape[self.dim]
        k = _n_units(self.amount, size)
        if k == 0:
            return default_mask
        prob = _kr.rand(size)
        threshold = _kr.kthvalue(prob, k=k).values
        mask = _channel_mask(t, self.dim, prob > threshold)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask


class LnStructured(BasePruningMethod):
    """Prune the channels along `dim` with the smallest L`n` norms."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: Any, n: Any, dim: int = -1) -> None:
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        _check_structured(t, self.dim)
        size = t.shape[self.dim]
        k = _n_units(self.amount, size)
        dims = list(range(t.dim()))
        dims.remove(dims[self.dim])
        norm = _kr.norm(t, p=self.n, dim=dims)
        top = _kr.topk(norm, k=size - k, largest=True)
        if k == 0:
            return default_mask
        mask = _channel_mask(t, self.dim, top.indices)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask


def identity(module: Any, name: str) -> Any:
    Identity.apply(module, name)
    return module


def custom_from_mask(module: Any, name: str, mask: Any) -> Any:
    CustomFromMask.apply(module, name, mask=mask)
    return module


def random_unstructured(module: Any, name: str, amount: Any) -> Any:
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: Any, name: str, amount: Any, importance_scores: Any = None) -> Any:
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Any, name: str, amount: Any, dim: int) -> Any:
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(
    module: Any, name: str, amount: Any, n: Any, dim: int, importance_scores: Any = None
) -> Any:
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(
    parameters: Any, pruning_method: Any, importance_scores: Any = None, **kwargs: Any
) -> None:
    """Prune the (module, name) parameters together: `pruning_method` (unstructured) ranks
    all their entries as one vector, then each parameter gets its part as a custom mask."""
    from collections.abc import Iterable

    from .convert_parameters import parameters_to_vector

    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    parameters = list(parameters)
    scores = importance_scores if importance_scores is not None else {}
    if not isinstance(scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    relevant = parameters_to_vector([scores.get((m, n), getattr(m, n)) for (m, n) in parameters])
    default_mask = parameters_to_vector(
        [getattr(m, n + "_mask", _kr.ones_like(getattr(m, n))) for (m, n) in parameters]
    )
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            f"{pruning_method} of type {method.PRUNING_TYPE}"
        )
    container.add_pruning_method(method)
    final = container.compute_mask(relevant, default_mask)
    pointer = 0
    for m, n in parameters:
        param = getattr(m, n)
        count = param.numel()
        custom_from_mask(m, n, mask=final[pointer : pointer + count].view_as(param))
        pointer += count


def remove(module: Any, name: str) -> Any:
    for k, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(
        f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed"
    )


def is_pruned(module: Any) -> bool:
    return any(
        isinstance(h, BasePruningMethod)
        for m in module.modules()
        for h in m._forward_pre_hooks.values()
    )
