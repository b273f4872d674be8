"""FlopCounterMode beyond the recorded counts: the table, custom formulas, registration errors,
display. (The counts and formulas against PyTorch's are the flops/* cases.)"""

from __future__ import annotations

import pytest

import keyroute
from keyroute.utils import flop_counter as fc
from keyroute.utils.flop_counter import FlopCounterMode, register_flop_formula
from tests.recorded_compare import recorded

from .cases import make_net

RECORDED = recorded("utils")


def test_table_rows_agree_with_the_counts() -> None:
    keyroute.manual_seed(0)
    net = make_net(keyroute)
    with FlopCounterMode(display=False, depth=3) as counter:
        net(keyroute.ones(2, 3, 6, 6))
    counts = counter.get_flop_counts()
    assert counts == RECORDED["flops/per_module"]["forward"]["by_module"]
    table = counter.get_table(2).splitlines()
    assert table[0].split() == ["Module", "FLOP", "%", "Total"]
    total = counter.get_total_flops()
    suffix = fc.get_suffix_str(total)
    rows = [ln for ln in table[2:] if not ln.strip().startswith("- ")]
    names = [ln.split()[0] for ln in rows]
    assert names == ["Net", "Net.conv"]  # depth 2: names with at most one dot; Global subsumed
    deeper = [ln.split()[0] for ln in counter.get_table(3).splitlines()[2:] if "- " not in ln]
    assert deeper == ["Net", "Net.blocks.0", "Net.blocks.1", "Net.conv"]
    for ln in rows:
        name, flops, pct = ln.split()
        assert flops == fc.convert_num_with_suffix(sum(counts[name].values()), suffix)
        assert pct == fc.convert_to_percent_str(sum(counts[name].values()), total)


def test_custom_mapping_counts_a_custom_op() -> None:
    @keyroute.library.custom_op("kx_flops_tests::gemm", mutates_args=())
    def gemm(a: keyroute.Tensor, b: keyroute.Tensor) -> keyroute.Tensor:
        return a @ b

    def formula(a_shape, b_shape, out_shape=None, **kwargs):  # noqa: ANN001, ANN202
        return 7

    try:
        mapping = {keyroute.ops.kx_flops_tests.gemm: formula}
        with FlopCounterMode(display=False, custom_mapping=mapping) as counter:
            gemm(keyroute.ones(2, 3), keyroute.ones(3, 4))
        # Its kernel runs aten.mm inside the handler, where the mode is off: not counted.
        assert counter.get_flop_counts()["Global"] == {"kx_flops_tests.gemm": 7}
    finally:
        from tests.library.cases import drop

        drop(keyroute, "kx_flops_tests")


def test_registering_a_formula_twice_is_refused() -> None:
    with pytest.raises(RuntimeError, match="duplicate registrations for aten::mm"):
        register_flop_formula("aten::mm")(lambda *a, **k: 0)
    with pytest.raises(ValueError, match="expected each target to be OpOverloadPacket"):
        register_flop_formula(3)(lambda *a, **k: 0)


def test_display_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    with FlopCounterMode():
        keyroute.ones(4, 8) @ keyroute.ones(8, 16)
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["Module", "FLOP", "%", "Total"]
    assert out[2].split() == ["Global", "1024.000", "100.00%"]  # PyTorch: K from 5 digits on
    assert out[3].split() == ["-", "aten.mm", "1024.000", "100.00%"]


def test_counter_leaves_no_mode_behind() -> None:
    from keyroute.utils.python_dispatch import _len_torch_dispatch_stack

    with pytest.raises(ValueError):
        with FlopCounterMode(display=False):
            raise ValueError
    assert _len_torch_dispatch_stack() == 0
