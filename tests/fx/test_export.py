# ruff: noqa: E501
"""keyroute.export: the exported program of a module with a buffer updated in forward, as
PyTorch 2.13 prints it (recorded text below), its signature, run_decompositions() (PyTorch's
core ATen graph, the buffer mutation as a leading output), module(), and the data-dependent
control-flow error."""

import pytest

import keyroute as torch
from keyroute.export import GuardOnDataDependentSymNode, export


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(4, 3)
        self.register_buffer("count", torch.zeros(3))

    def forward(self, x):
        self.count.add_(1)
        return torch.relu(self.l(x)) + self.count


# PyTorch 2.13: export(M(), (randn(2, 4),)).run_decompositions().graph_module.code
TORCH_DECOMPOSED = """


def forward(self, p_l_weight, p_l_bias, b_count, x):
    add = torch.ops.aten.add.Tensor(b_count, 1);  b_count = None
    permute = torch.ops.aten.permute.default(p_l_weight, [1, 0]);  p_l_weight = None
    addmm = torch.ops.aten.addmm.default(p_l_bias, x, permute);  p_l_bias = x = permute = None
    relu = torch.ops.aten.relu.default(addmm);  addmm = None
    add_1 = torch.ops.aten.add.Tensor(relu, add);  relu = None
    return (add, add_1)
    """

# PyTorch 2.13's signature printout (the program's, before decomposition).
TORCH_SIGNATURE = """# inputs
p_l_weight: PARAMETER target='l.weight'
p_l_bias: PARAMETER target='l.bias'
b_count: BUFFER target='count' persistent=True
x: USER_INPUT

# outputs
add: USER_OUTPUT"""


def test_exported_program_matches_pytorch():
    ep = export(M(), (torch.randn(2, 4),))
    assert str(ep.graph_signature) == TORCH_SIGNATURE
    g = ep.graph_signature
    assert g.parameters == ("l.weight", "l.bias") and g.buffers == ("count",)
    assert g.user_inputs == ("x",) and g.user_outputs == ("add",) and g.buffers_to_mutate == {}
    targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    assert targets == [
        "aten.add_.Tensor",
        "aten.linear.default",
        "aten.relu.default",
        "aten.add.Tensor",
    ]
    assert str(ep).startswith("ExportedProgram:\n    class GraphModule(torch.nn.Module):")


def test_run_decompositions_matches_pytorch():
    m = M()
    ep = export(m, (torch.randn(2, 4),)).run_decompositions()
    assert ep.graph_module.code == TORCH_DECOMPOSED
    assert ep.graph_signature.buffers_to_mutate == {"add": "count"}
    x = torch.randn(2, 4)
    before = m.count.clone()
    out = ep.module()(x)
    want = torch.relu(m.l(x)) + (before + 1)
    assert bool(((out - want).abs() < 1e-6).all())
    assert bool((m.count == before + 1).all())  # the buffer mutation is applied


def test_data_dependent_control_flow_names_the_line():
    class C(torch.nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x
            return -x

    with pytest.raises(
        GuardOnDataDependentSymNode, match=r"test_export.py:\d+ in forward, code: if x.sum\(\) > 0:"
    ):
        export(C(), (torch.randn(2),))


def test_bad_arguments():
    with pytest.raises(ValueError, match="Expecting `args` to be a tuple"):
        export(M(), torch.randn(2, 4))
