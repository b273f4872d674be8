"""functorch's transforms on keyroute's dispatcher.

Graph transforms: functionalize.py (functionalize), AOT Autograd (joint graphs and partitioners).
torch.func's eager transforms (the layer is keyroute/layers/functorch.py): vmap.py (vmap),
batch_rules.py, nn_rules.py and linear_rule.py (batching rules), eager_transforms.py
(grad, vjp, jacrev, jvp, jacfwd, hessian, linearize), functional_call.py, pytree.py.
"""

from __future__ import annotations

from ..layers import functorch as _layer  # noqa: F401  (registers the layer's fallbacks)
from . import batch_rules as _batch_rules
from . import linear_rule as _linear_rule
from . import nn_rules as _nn_rules

_batch_rules._install()
_nn_rules._install()
_linear_rule._install()
