"""keyroute.export (torch.export): `export(module, args)` -> ExportedProgram.

The program is the module's forward traced at the PreDispatch key on fake tensors (PyTorch
2.13's training IR: `aten.linear`, in-place ops kept), with parameters and buffers lifted as
the first inputs (`p_l_weight`, `b_count`, then the user inputs by name). `run_decompositions()`
functionalizes it and lowers it to the core ATen opset; buffers the program mutates become
leading outputs (BUFFER_MUTATION), as PyTorch's.

Data-dependent control flow (`if x.sum() > 0:`) fails with GuardOnDataDependentSymNode naming
the source line.
"""

from ._program import (
    ExportedProgram,
    ExportGraphSignature,
    GuardOnDataDependentSymNode,
    InputKind,
    InputSpec,
    OutputKind,
    OutputSpec,
    export,
)
from ._serialize import load, save

__all__ = [
    "ExportedProgram",
    "ExportGraphSignature",
    "GuardOnDataDependentSymNode",
    "InputKind",
    "InputSpec",
    "OutputKind",
    "OutputSpec",
    "export",
    "save",
    "load",
]
