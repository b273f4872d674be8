"""PyTorch's dtypes by PyTorch's names, each mapped to a NumPy dtype (bfloat16 via ml_dtypes).

>>> float32, float32.itemsize, float32.is_floating_point
(keyroute.float32, 4, True)
>>> promote_types(uint8, int8)
keyroute.int16
>>> to_dtype(np.dtype("float64"))
keyroute.float64
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from .. import _naming

__all__ = [
    "dtype",
    "bool_",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "ALL_DTYPES",
    "to_dtype",
    "promote_types",
    "get_default_dtype",
    "set_default_dtype",
    "can_cast",
    "iinfo",
    "finfo",
]


#: c10 TypeMeta names of the element types, as PyTorch's C++ messages print them.
_CPP_NAMES = {
    "float32": "float",
    "float64": "double",
    "float16": "c10::Half",
    "bfloat16": "c10::BFloat16",
    "int64": "long int",
    "int32": "int",
    "int16": "short int",
    "int8": "signed char",
    "uint8": "unsigned char",
    "bool": "bool",
    "complex64": "c10::complex<float>",
    "complex128": "c10::complex<double>",
}


class dtype:  # noqa: N801 (PyTorch's name)
    """A tensor element type (torch.dtype): name, NumPy dtype, size and category."""

    __slots__ = (
        "name",
        "np",
        "itemsize",
        "is_floating_point",
        "is_complex",
        "is_signed",
        "category",
        "scalar_type",
        "_short",
        "_cpp",
        "__weakref__",
    )

    def __init__(self, name: str, np_dtype: object, scalar_type: int, short: str) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.is_complex = name.startswith("complex")
        self.is_floating_point = name.startswith(("float", "bfloat"))
        self.is_signed = name not in ("bool", "uint8")
        # 0 bool, 1 integral, 2 floating, 3 complex: PyTorch's promotion categories.
        self.category = (
            0 if name == "bool" else 3 if self.is_complex else 2 if self.is_floating_point else 1
        )
        self.scalar_type = scalar_type  # c10::ScalarType value (schemas print float32 as 6)
        self._short = short  # c10 name: Float, Long, ...
        # The C++ type name c10's TypeMeta prints ("Expected out tensor to have dtype long
        # int ..."): the one table of them.
        self._cpp = _CPP_NAMES.get(name, name)

    def __repr__(self) -> str:
        return f"{_naming.NAME}.{self.name}"

    __str__ = __repr__

    def __reduce__(self) -> str:
        return _PICKLE_NAMES[self.name]

    def to_real(self) -> dtype:
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self) -> dtype:
        return {"float32": complex64, "float64": complex128, "float16": complex64}.get(
            self.name, self
        )


bool_ = dtype("bool", np.bool_, 11, "Bool")
uint8 = dtype("uint8", np.uint8, 0, "Byte")
int8 = dtype("int8", np.int8, 1, "Char")
int16 = dtype("int16", np.int16, 2, "Short")
int32 = dtype("int32", np.int32, 3, "Int")
int64 = dtype("int64", np.int64, 4, "Long")
float16 = dtype("float16", np.float16, 5, "Half")
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, 15, "BFloat16")
float32 = dtype("float32", np.float32, 6, "Float")
float64 = dtype("float64", np.float64, 7, "Double")
complex64 = dtype("complex64", np.complex64, 9, "ComplexFloat")
complex128 = dtype("complex128", np.complex128, 10, "ComplexDouble")

ALL_DTYPES = (
    bool_,
    uint8,
    int8,
    int16,
    int32,
    int64,
    float16,
    bfloat16,
    float32,
    float64,
    complex64,
    complex128,
)
_PICKLE_NAMES = {d.name: ("bool_" if d.name == "bool" else d.name) for d in ALL_DTYPES}
_BY_NP: dict[np.dtype, dtype] = {d.np: d for d in ALL_DTYPES}
_BY_SCALAR_TYPE: dict[int, dtype] = {d.scalar_type: d for d in ALL_DTYPES}
_BY_NAME: dict[str, dtype] = {d.name: d for d in ALL_DTYPES}
_BY_NAME.update(
    float=float32,
    double=float64,
    half=float16,
    long=int64,
    int=int32,
    short=int16,
    cfloat=complex64,
    cdouble=complex128,
    bool_=bool_,
)


def to_dtype(x: object) -> dtype:
    """A keyroute dtype from a keyroute dtype, NumPy dtype/type, name or ScalarType number."""
    if isinstance(x, dtype):
        return x
    if isinstance(x, str):
        try:
            return _BY_NAME[x.removeprefix("torch.").removeprefix("keyroute.")]
        except KeyError:
            raise TypeError(f"unknown dtype name {x!r}") from None
    if isinstance(x, int) and not isinstance(x, bool):
        return _BY_SCALAR_TYPE[x]
    if x is bool:
        return bool_
    if x is int:
        return int64
    if x is float:
        return get_default_dtype()
    if x is complex:
        return complex64 if get_default_dtype() is float32 else complex128
    try:
        return _BY_NP[np.dtype(x)]  # type: ignore[call-overload]
    except (KeyError, TypeError):
        raise TypeError(f"keyroute has no dtype for {x!r}") from None


_SIZE_RANK = {"bool": 0, "uint8": 1, "int8": 1, "int16": 2, "int32": 3, "int64": 4}


def _promote(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if a is bool_:
        return b
    if b is bool_:
        return a
    if a.category == 1 and b.category == 1:
        if {a.name, b.name} == {"uint8", "int8"}:
            return int16
        return a if _SIZE_RANK[a.name] > _SIZE_RANK[b.name] else b
    if a.category != b.category:
        hi, lo = (a, b) if a.category > b.category else (b, a)
        if hi.category == 3 and lo is float64:
            return complex128
        return hi
    if a.category == 2:
        if {a.name, b.name} == {"float16", "bfloat16"}:
            return float32
        return a if a.itemsize > b.itemsize else b
    return complex128


_PROMOTE: dict[tuple[dtype, dtype], dtype] = {
    (a, b): _promote(a, b) for a in ALL_DTYPES for b in ALL_DTYPES
}


def promote_types(type1: dtype, type2: dtype) -> dtype:
    """torch.promote_types: the smallest dtype both can be converted to without losing category."""
    return _PROMOTE[(type1, type2)]


def can_cast(from_: dtype, to: dtype) -> bool:
    """torch.can_cast: no cast to a lower category (complex->float, float->int, int->bool)."""
    return from_.category <= to.category or (from_ is bool_)


_default_dtype = [float32]
#: Called after the default dtype changes (caches that depend on it register here).
DEFAULT_DTYPE_HOOKS: list = []


def get_default_dtype() -> dtype:
    return _default_dtype[0]


def set_default_dtype(d: dtype) -> None:
    d = to_dtype(d)
    if d not in (float32, float64, float16, bfloat16):
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _default_dtype[0] = d
    for hook in DEFAULT_DTYPE_HOOKS:
        hook()


class iinfo:  # noqa: N801
    """Integer limits, as torch.iinfo."""

    def __init__(self, d: dtype) -> None:
        info = np.iinfo(to_dtype(d).np)
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), d


class finfo:  # noqa: N801
    """Floating-point limits, as torch.finfo."""

    def __init__(self, d: dtype | None = None) -> None:
        d = to_dtype(d) if d is not None else get_default_dtype()
        info = ml_dtypes.finfo(d.np) if d is bfloat16 else np.finfo(d.np)
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = float(info.tiny)
        self.smallest_normal = self.tiny
        self.resolution = float(info.resolution)
        self.dtype = d
