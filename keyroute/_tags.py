"""torch.Tag: the operator tags of native_functions.yaml (`core`, `pointwise`, ...)."""

from __future__ import annotations

import enum

__all__ = ["Tag"]

Tag = enum.Enum(
    "Tag",
    [
        (name, i)
        for i, name in enumerate(
            [
                "core",
                "cudagraph_unsafe",
                "data_dependent_output",
                "dynamic_output_shape",
                "flexible_layout",
                "generated",
                "inplace",
                "inplace_view",
                "maybe_aliasing_or_mutating",
                "needs_contiguous_strides",
                "needs_exact_strides",
                "needs_fixed_stride_order",
                "nondeterministic_bitwise",
                "nondeterministic_seeded",
                "out",
                "out_variant",
                "pointwise",
                "pt2_compliant_tag",
                "reduction",
                "view_copy",
            ]
        )
    ],
    module="keyroute",
)
