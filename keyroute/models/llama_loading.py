"""Building a `Llama` from a GGUF file: the shape from its metadata, the module tree on the
meta device (nothing allocated), then the file's tensors assigned in place of the meta ones
(`load_state_dict(assign=True)`), and the tokenizer from the same metadata."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._api import creation as _creation
from ..tensor.device import Device
from .gguf_file import open_gguf

__all__ = ["load_gguf"]


def load_gguf(
    model_class: Any,
    path: str | Path | None = None,
    *,
    use_custom_ops: bool = True,
    quantized: bool = False,
    int8_dynamic_activation: bool = False,
    max_seq_len: int = 2048,
) -> Any:
    """`model_class` (Llama) built and loaded from the GGUF file at `path`."""
    from .llama_tokenizer import LlamaTokenizer

    if int8_dynamic_activation and not quantized:
        raise ValueError(
            "int8_dynamic_activation=True applies to quantized weights: pass quantized=True"
        )

    g = open_gguf(path)
    cfg = g.config
    with Device("meta"):
        model = model_class(cfg, use_custom_ops=use_custom_ops)
    state = {}
    for name in g.tensors:
        if quantized and g.tensors[name].ggml_type in (3, 8) and name != "embed_tokens.weight":
            from .quantized import quantized_tensor

            state[name] = quantized_tensor(g.tensors[name], int8_dynamic_activation)
        else:
            state[name] = _creation.from_numpy(g.dequantized(name))
    model.load_state_dict(state, strict=True, assign=True)
    embed = g.tensors["embed_tokens.weight"]
    if quantized and model.lm_head is None and embed.ggml_type in (3, 8):
        # The tied LM head reads the embedding's blocks quantized (the lookup stays float32):
        # it is a fifth of the weights a decode step reads.
        from ..nn.modules import Linear
        from ..nn.parameter import Parameter
        from .quantized import quantized_tensor

        with Device("meta"):
            head = Linear(cfg.hidden, cfg.vocab, bias=False)
        head.weight = Parameter(
            quantized_tensor(embed, int8_dynamic_activation), requires_grad=False
        )
        model.lm_head = head
    model.requires_grad_(False)
    model.tokenizer = LlamaTokenizer(g.metadata)
    model.setup_cache(min(max_seq_len, cfg.max_positions))
    return model
