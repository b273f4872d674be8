"""The dispatcher core: keys, key sets, thread-local state, schemas, operators.

`dump_table("ns::op")` and `dump("ns::op")` print an operator's computed table and its
registrations in PyTorch's formats.
"""

from .dump import dump, dump_table

__all__ = ["dump", "dump_table"]
