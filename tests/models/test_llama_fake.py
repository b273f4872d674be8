"""The SmolLM2 shape on fake tensors and in `keyroute plan`: the custom operators' fake
implementations carry the KV-cached prefill and decode with nothing allocated."""

from __future__ import annotations

import pytest
from keyroute._subclasses.fake_tensor import FakeTensor, FakeTensorMode

import keyroute
from keyroute.cli import main
from keyroute.models.llama import LLAMA_CONFIGS, Llama

SMOLLM2 = LLAMA_CONFIGS["smollm2-135m"]


@pytest.mark.parametrize("custom", [True, False])
def test_cached_steps_on_fake_tensors(custom: bool) -> None:
    with FakeTensorMode():
        m = Llama(SMOLLM2, use_custom_ops=custom)
        m.setup_cache(64)
        assert isinstance(m.layers[0].self_attn.k_cache, FakeTensor)
        assert tuple(m.layers[0].self_attn.k_cache.shape) == (1, 3, 64, 64)
        with keyroute.no_grad():
            for ids, start, last in [((1, 10), 0, True), ((1, 1), 10, True), ((1, 4), 11, False)]:
                out = m(keyroute.zeros(*ids, dtype=keyroute.int64), start_pos=start, last_only=last)
                assert isinstance(out, FakeTensor)
                assert tuple(out.shape) == (1, 1 if last else ids[1], 49152)
            with pytest.raises(ValueError, match="do not fit the cache of 64 positions"):
                m(keyroute.zeros(1, 2, dtype=keyroute.int64), start_pos=63)


def test_plan_smollm2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--config", "smollm2-135m", "--dtype", "float32", "--seq", "128"]) == 0
    out = capsys.readouterr().out
    # 49152 x 576 tied embedding + 30 x (4 x 576 x 576 ... grouped: q, o 576x576; k, v 192x576;
    # gate, up, down 1536x576; two norms) + the final norm
    per_layer = 2 * 576 * 576 + 2 * 192 * 576 + 3 * 1536 * 576 + 2 * 576
    assert 49152 * 576 + 30 * per_layer + 576 == 134_515_008
    assert "parameters          134,515,008 (0.13 B)" in out
    assert "30 layers, hidden 576, ffn 1536, 9 heads (3 KV), vocab 49152" in out
