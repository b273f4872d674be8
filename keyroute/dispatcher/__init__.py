"""The dispatcher core: keys, key sets, thread-local state, schemas, operators.

`dump_table("ns::op")` and `dump("ns::op")` print an operator's computed table and its
registrations in PyTorch's formats. `register_key` and `register_backend` add dispatch keys and
backend components at run time (open_keys.py).
"""

from .dump import dump, dump_table
from .open_keys import register_backend, register_key

__all__ = ["dump", "dump_table", "register_backend", "register_key"]
