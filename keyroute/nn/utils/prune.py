"""torch.nn.utils.prune (a first part): a pruned parameter `name` becomes `name_orig` (the
Parameter) plus a buffer `name_mask`, and a forward pre-hook recomputes the attribute
`name = name_orig * name_mask` before each call, as PyTorch's. Here: identity,
custom_from_mask, random_unstructured, l1_unstructured, remove, is_pruned."""

from __future__ import annotations

from typing import Any

import keyroute as _kr

__all__ = [
    "BasePruningMethod",
    "identity",
    "custom_from_mask",
    "random_unstructured",
    "l1_unstructured",
    "remove",
    "is_pruned",
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
        method = cls(*args, **kw)
        method._tensor_name = name
        orig = getattr(module, name)
        if importance_scores is not None and importance_scores.shape != orig.shape:
            raise AssertionError(
                f"importance_scores should have the same shape as parameter {name} of {module}"
            )
        if name + "_orig" in module._parameters:
            default_mask = getattr(module, name + "_mask").detach().clone()
            for k, hook in list(module._forward_pre_hooks.items()):
                if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                    del module._forward_pre_hooks[k]
            orig = getattr(module, name + "_orig")
        else:
            default_mask = _kr.ones_like(orig)
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
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


class Identity(BasePruningMethod):
    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return default_mask


class CustomFromMask(BasePruningMethod):
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
    def __init__(self, amount: Any) -> None:
        self.amount = amount

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return _zero_top_k(t, default_mask, self.amount, lambda: _kr.rand_like(t), True)


class L1Unstructured(BasePruningMethod):
    def __init__(self, amount: Any) -> None:
        self.amount = amount

    def compute_mask(self, t: Any, default_mask: Any) -> Any:
        return _zero_top_k(t, default_mask, self.amount, lambda: _kr.abs(t), False)


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
