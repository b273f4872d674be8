"""PyTorch's "sparse functions": embedding and embedding_renorm_ (meta functions) and one_hot
(a decomposition)."""

from __future__ import annotations

from ...tensor.dtype import int32, int64
from .._define import composite, meta
from .._meta_util import check, new_meta, shape_of
from .._variants import out_variant, same_dtype
from ..linalg import op
from ._common import _strided

# ----------------------------------------------------------------------------- embedding


@meta(
    "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq="
    "False, bool sparse=False) -> Tensor"
)
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    check(weight.dim() == 2, "'weight' must be 2-D")
    check(
        indices._dtype in (int64, int32),
        f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
        f"Long, Int; but got torch.{indices._dtype._short}Tensor instead (while checking "
        f"arguments for embedding)",
    )
    return new_meta((*shape_of(indices), shape_of(weight)[1]), weight._dtype)


out_variant(
    "embedding.out(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq="
    "False, bool sparse=False, *, Tensor(a!) out) -> Tensor(a!)",
    "embedding",
    check=same_dtype,
)


@meta(
    "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> "
    "Tensor(a!)"
)
def embedding_renorm_(self, indices, max_norm, norm_type):
    check(self.dim() == 2, "'self' must be 2-D")
    check(
        indices._dtype in (int64, int32),
        f"Expected tensor for argument #2 'indices' to have one of the following scalar types: "
        f"Long, Int; but got torch.{indices._dtype._short}Tensor instead (while checking "
        f"arguments for embedding_renorm_)",
    )
    return self


# ----------------------------------------------------------------------------- one_hot


@composite("one_hot(Tensor self, int num_classes=-1) -> Tensor")
def one_hot(self, num_classes=-1):
    check(
        self._dtype is int64,
        "one_hot is only applicable to index tensor of type LongTensor.",
    )
    if self.is_meta:
        if num_classes == -1:
            raise RuntimeError("Tensor.item() cannot be called on meta tensors")
        index = op("arange")(num_classes, dtype=int64, device=self.device)
        return op("_to_copy")(op("eq.Tensor")(op("unsqueeze")(self, -1), index), dtype=int64)
    shape = list(shape_of(self))
    if self.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return op("empty.memory_format")([*shape, num_classes], dtype=int64, device=self.device)
    lo, hi = op("aminmax")(self)
    check(op("_local_scalar_dense")(lo) >= 0, "Class values must be non-negative.")
    top = op("_local_scalar_dense")(hi)
    if num_classes == -1:
        num_classes = top + 1
    else:
        check(num_classes > top, "Class values must be smaller than num_classes.")
    ret = op("zeros")([*shape, num_classes], dtype=int64, layout=_strided(), device=self.device)
    op("scatter_.value")(ret, -1, op("unsqueeze")(self, -1), 1)
    return ret
