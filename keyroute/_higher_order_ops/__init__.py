"""Higher-order operators (torch._higher_order_ops): operators that take functions or other
operators (`cond`, `auto_functionalized`, `auto_functionalized_v2`)."""

from .auto_functionalize import auto_functionalized, auto_functionalized_v2
from .cond import cond
from .hop import HigherOrderOperator

__all__ = ["HigherOrderOperator", "auto_functionalized", "auto_functionalized_v2", "cond"]
