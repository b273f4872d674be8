"""Per-tensor autograd state: requires_grad (a bit in the key set), AutogradMeta, versions.

`Tensor._autograd_meta` is None for a tensor autograd has never touched; otherwise an
AutogradMeta with its grad, grad_fn, output_nr, hooks and view metadata.
`Tensor._version_counter` is the version counter, created on first need and shared by a base
and all its views.
"""

from __future__ import annotations

from typing import Any

from ..dispatcher.keyset import REQUIRES_GRAD_BIT

__all__ = [
    "AutogradMeta",
    "VersionCounter",
    "autograd_meta",
    "set_requires_grad",
    "version_counter",
    "bump_version",
    "INFERENCE_VERSION",
]


class VersionCounter:
    """How many times a storage's contents were changed in place (shared with views)."""

    __slots__ = ("version",)

    def __init__(self) -> None:
        self.version = 0


class _InferenceVersionCounter(VersionCounter):
    """Inference tensors track no version: reading or bumping it raises PyTorch's errors."""

    __slots__ = ()


INFERENCE_VERSION = _InferenceVersionCounter()


class AutogradMeta:
    """Autograd metadata of one tensor.

    Defaults live on the class (no __slots__): every recorded operator creates one of these for
    its output and sets two fields, so creation stores only what differs from the defaults.
    """

    grad: Any = None
    grad_fn: Any = None
    output_nr = 0
    hooks: list[Any] | None = None
    post_accumulate_hooks: list[Any] | None = None
    retains_grad = False
    name: str | None = None
    creation_meta = 0  # CreationMeta: 0 DEFAULT, see layers/inplace_or_view.py
    view_base_requires_grad = False
    grad_accumulator: Any = None
    is_view_of_multi_output = False


def autograd_meta(t: Any) -> AutogradMeta:
    ag = t._autograd_meta
    if ag is None:
        ag = t._autograd_meta = AutogradMeta()
    return ag


def version_counter(t: Any) -> VersionCounter:
    vc = t._version_counter
    if vc is None:
        if t.is_inference():
            vc = INFERENCE_VERSION
        else:
            vc = VersionCounter()
        t._version_counter = vc
    return vc


def bump_version(t: Any) -> None:
    vc = t._version_counter
    if vc is None:
        vc = version_counter(t)
    if vc is INFERENCE_VERSION:
        raise RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details."
        )
    vc.version += 1


def set_requires_grad(t: Any, flag: bool) -> None:
    """Tensor.requires_grad_: leaves only; floating point and complex only."""
    if flag:
        if not (t._dtype.is_floating_point or t._dtype.is_complex):
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        if t.is_inference():
            from .grad_mode import is_inference_mode_enabled

            if not is_inference_mode_enabled():
                raise RuntimeError(
                    "Setting requires_grad=True on inference tensor outside InferenceMode is not "
                    "allowed."
                )
        t._key_set |= REQUIRES_GRAD_BIT
        return
    ag = t._autograd_meta
    if ag is not None and ag.grad_fn is not None:
        raise RuntimeError(
            "you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use "
            "var_no_grad = var.detach()."
        )
    t._key_set &= ~REQUIRES_GRAD_BIT
