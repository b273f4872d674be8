"""The step loop of the optimizers written as PyTorch's `_single_tensor_<name>` functions.

PyTorch's Adamax, NAdam and RAdam (and others) share one shape of step: run the closure with
grad enabled, then under no_grad, per parameter group, collect the parameters with a
gradient (creating their state on the first step), read the group's hyper-parameters once,
and update each parameter from its gradient, negated when `maximize`. That loop is written
here once; each optimizer gives the three pieces that differ:

- `_init_group(group)`: the parameters with a gradient, their state created;
- `_hyper(group)`: the group's hyper-parameters as the update reads them (a Tensor lr read
  once per group, as PyTorch's `_to_scalar`);
- `_update(p, grad, state, group, hyper)`: the update of one parameter.

The order of the aten calls a dispatch mode sees is PyTorch's: the negated gradient first,
then the update (which starts with `step += 1`).
"""

from __future__ import annotations

from typing import Any

from ..autograd.grad_mode import no_grad
from ..tensor._tensor import Tensor
from . import _common as c
from .optimizer import Optimizer

__all__ = ["SingleTensorOptimizer"]


class SingleTensorOptimizer(Optimizer):
    """An Optimizer whose step is the per-parameter loop above."""

    #: The name of its foreach step in optim/_foreach_more.py, if it has one.
    _foreach: str | None = None

    # The three pieces each optimizer defines (the module docstring); this class has none.
    def _init_group(self, group: dict[str, Any]) -> list[Tensor]:
        raise NotImplementedError(f"{type(self).__name__} defines no _init_group")

    def _hyper(self, group: dict[str, Any]) -> Any:
        raise NotImplementedError(f"{type(self).__name__} defines no _hyper")

    def _update(
        self, p: Tensor, grad: Tensor, state: dict[str, Any], group: dict[str, Any], hyper: Any
    ) -> None:
        raise NotImplementedError(f"{type(self).__name__} defines no _update")

    def step(self, closure: Any = None) -> Any:
        loss = c.call_closure(closure)
        with no_grad():
            for group in self.param_groups:
                params = self._init_group(group)
                c.check_capturable(self, params, group)
                if params and group.get("foreach") and self._foreach is not None:
                    from . import _foreach_more  # PyTorch's _multi_tensor_<name>

                    getattr(_foreach_more, self._foreach)(self, params, group)
                    continue
                hyper = self._hyper(group)
                for p in params:
                    grad = p.grad if not group["maximize"] else -p.grad
                    self._update(p, grad, self.state[p], group, hyper)
        return loss
