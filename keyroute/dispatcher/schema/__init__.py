"""Operator schemas: PyTorch's FunctionSchema grammar, its data model and its printer.

A schema string looks like ``ns::name.overload(Type name=default, *, ...) -> Returns``.
:func:`parse_schema` turns one into a :class:`FunctionSchema` whose ``str()`` is exactly what
``str(torch._C.parse_schema(text))`` gives in PyTorch 2.13, and whose attributes mirror the
Python attributes of ``torch._C.FunctionSchema`` / ``torch._C.Argument`` / ``torch._C._AliasInfo``.

Example::

    >>> s = parse_schema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    >>> s.name, s.overload_name, s.arguments[2].default_value
    ('aten::add', 'Tensor', 1)
    >>> str(s)
    'aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor'

The lexer, the error messages (with PyTorch's ``~~~~ <--- HERE`` highlight) and the printer
follow PyTorch's behaviour, quirks included (see ``docs`` of the individual functions).
Parsed schemas are cached by text and shared: treat every object here as immutable.

The package, in reading order: ``schema_type.py`` (argument kinds, ``SchemaType``,
``SchemaParseError``), ``model.py`` (``AliasInfo``, defaults, ``Argument``, ``FunctionSchema``
and their printers), ``lexer.py`` (tokens, literals, the error highlight) and ``parser.py`` (the
parser and the cached public entry points).
"""

from __future__ import annotations

from .model import AliasInfo, Argument, DeviceDefault, FunctionSchema
from .parser import parse_name, parse_schema, parse_schema_or_name
from .schema_type import (
    OPT_TENSOR,
    OPT_TENSOR_LIST,
    OTHER,
    TENSOR,
    TENSOR_LIST,
    SchemaParseError,
    SchemaType,
)

__all__ = [
    "TENSOR",
    "OPT_TENSOR",
    "TENSOR_LIST",
    "OPT_TENSOR_LIST",
    "OTHER",
    "AliasInfo",
    "Argument",
    "DeviceDefault",
    "FunctionSchema",
    "SchemaParseError",
    "SchemaType",
    "parse_name",
    "parse_schema",
    "parse_schema_or_name",
]

# The public classes keep the module path they have always printed with (tracebacks, reprs,
# pickles): ``keyroute.dispatcher.schema.SchemaParseError``, as before the package split.
for _cls in (AliasInfo, Argument, DeviceDefault, FunctionSchema, SchemaParseError, SchemaType):
    _cls.__module__ = __name__
del _cls
