"""torch.nn.modules.rnn: RNNBase, RNN, LSTM, GRU and the cells RNNCell, LSTMCell, GRUCell.

The modules check their arguments and inputs as PyTorch's do, then call the aten recurrent
operators (aten/rnn.py): `lstm.input` for a padded batch, `lstm.data` for a PackedSequence.
Parameters are registered in PyTorch's order (weight_ih_l0, weight_hh_l0, bias_ih_l0,
bias_hh_l0, [weight_hr_l0], then `_reverse` ones, layer by layer) and initialised uniform in
+-1/sqrt(hidden_size), in that order, so a seed gives PyTorch's weights.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

from ..._api import creation as _creation
from ...aten.linalg import op as _op
from ...tensor._tensor import Tensor
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _permute(t: Tensor, perm: Tensor | None, dim: int = 1) -> Tensor:
    return t if perm is None else t.index_select(dim, perm)


class RNNBase(Module):
    """Base class of RNN, LSTM and GRU."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if (
            not isinstance(dropout, numbers.Number)
            or isinstance(dropout, bool)
            or not 0 <= dropout <= 1
        ):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        if dropout > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                f"dropout expects num_layers greater than 1, but got dropout={dropout} and "
                f"num_layers={num_layers}",
                stacklevel=2,
            )
        for name, v in (("bias", bias), ("batch_first", batch_first)):
            if not isinstance(v, bool):
                raise TypeError(f"{name} should be of type bool, got: {type(v).__name__}")
        for name, v in (("input_size", input_size), ("hidden_size", hidden_size)):
            if not isinstance(v, int):
                raise TypeError(f"{name} should be of type int, got: {type(v).__name__}")
            if v <= 0:
                raise ValueError(f"{name} must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        kw = {"device": device, "dtype": dtype}
        dirs = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(dirs):
                in_size = input_size if layer == 0 else real_hidden * dirs
                sfx = "_reverse" if direction == 1 else ""
                shapes = [
                    (f"weight_ih_l{layer}{sfx}", (gate_size, in_size)),
                    (f"weight_hh_l{layer}{sfx}", (gate_size, real_hidden)),
                ]
                if bias:
                    shapes += [
                        (f"bias_ih_l{layer}{sfx}", (gate_size,)),
                        (f"bias_hh_l{layer}{sfx}", (gate_size,)),
                    ]
                if proj_size > 0:
                    shapes.append((f"weight_hr_l{layer}{sfx}", (proj_size, hidden_size)))
                for name, shape in shapes:
                    setattr(self, name, Parameter(_creation.empty(shape, **kw)))
                names = [n for n, _ in shapes]
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Tensor]:
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """A no-op on CPU (cuDNN's weight buffer), as in PyTorch."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None:  # noqa: A002
        w_dtype = self._flat_weights[0].dtype
        if input.dtype != w_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({w_dtype}). "
                f"Convert input: input.to({w_dtype}), or convert model: model.to({input.dtype})"
            )
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(
                f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                f"{input.size(-1)}"
            )

    def get_expected_hidden_size(
        self,
        input: Tensor,  # noqa: A002
        batch_sizes: Tensor | None,
    ) -> tuple[int, int, int]:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        dirs = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * dirs, mini_batch, size)

    def check_hidden_size(
        self,
        hx: Tensor,
        expected: tuple[int, int, int],
        msg: str = "Expected hidden size {}, got {}",
    ) -> None:
        if tuple(hx.size()) != tuple(expected):
            raise RuntimeError(msg.format(expected, list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:  # noqa: A002
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx: Any, permutation: Tensor | None) -> Any:
        return _permute(hx, permutation)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # -- the shared forward of RNN and GRU (LSTM has two states) ---------------------------
    def _forward_one_state(self, input: Any, hx: Tensor | None, op_name: str) -> Any:  # noqa: A002
        dirs = 2 if self.bidirectional else 1
        packed = isinstance(input, PackedSequence)
        if packed:
            data, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch = int(batch_sizes[0])
            is_batched = True
        else:
            data, batch_sizes, sorted_indices, unsorted_indices = input, None, None, None
            if data.dim() not in (2, 3):
                raise ValueError(
                    f"{type(self).__name__}: Expected input to be 2D or 3D, got {data.dim()}D "
                    "tensor instead"
                )
            is_batched = data.dim() == 3
            if not is_batched:
                data = data.unsqueeze(0 if self.batch_first else 1)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(
                            "For unbatched 2-D input, hx should also be 2-D but got "
                            f"{hx.dim()}-D tensor"
                        )
                    hx = hx.unsqueeze(1)
            elif hx is not None and hx.dim() != 3:
                raise RuntimeError(
                    f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
                )
            max_batch = data.size(0) if self.batch_first else data.size(1)
        if hx is None:
            hx = _creation.zeros(
                (self.num_layers * dirs, max_batch, self.hidden_size), dtype=data.dtype
            )
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, batch_sizes)
        args = (self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                self.bidirectional)  # fmt: skip
        if packed:
            out, hidden = _op(f"{op_name}.data")(data, batch_sizes, hx, *args)
            return (
                PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices),
                self.permute_hidden(hidden, unsorted_indices),
            )
        out, hidden = _op(f"{op_name}.input")(data, hx, *args, self.batch_first)
        if not is_batched:
            out = out.squeeze(0 if self.batch_first else 1)
            hidden = hidden.squeeze(1)
        return out, hidden


class RNN(RNNBase):
    """Elman RNN: h_t = tanh (or relu)(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Any, hx: Tensor | None = None) -> Any:  # noqa: A002
        name = "rnn_tanh" if self.mode == "RNN_TANH" else "rnn_relu"
        return self._forward_one_state(input, hx, name)


class GRU(RNNBase):
    """Gated recurrent unit (reset, update and new gates)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Any, hx: Tensor | None = None) -> Any:  # noqa: A002
        return self._forward_one_state(input, hx, "gru")


class LSTM(RNNBase):
    """Long short-term memory (input, forget, cell and output gates), with optional
    projection of the hidden state (proj_size)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Tensor, batch_sizes: Any) -> tuple[int, int, int]:  # noqa: A002
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        dirs = 2 if self.bidirectional else 1
        return (self.num_layers * dirs, mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden: Any, batch_sizes: Any) -> None:  # noqa: A002
        self.check_input(input, batch_sizes)
        self.check_hidden_size(
            hidden[0],
            self.get_expected_hidden_size(input, batch_sizes),
            "Expected hidden[0] size {}, got {}",
        )
        self.check_hidden_size(
            hidden[1],
            self.get_expected_cell_size(input, batch_sizes),
            "Expected hidden[1] size {}, got {}",
        )

    def permute_hidden(self, hx: Any, permutation: Tensor | None) -> Any:
        if permutation is None:
            return hx
        return _permute(hx[0], permutation), _permute(hx[1], permutation)

    def forward(self, input: Any, hx: Any = None) -> Any:  # noqa: A002
        dirs = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        packed = isinstance(input, PackedSequence)
        if packed:
            data, batch_sizes, sorted_indices, unsorted_indices = input
            max_batch = int(batch_sizes[0])
            is_batched = True
        else:
            data, batch_sizes, sorted_indices, unsorted_indices = input, None, None, None
            if data.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {data.dim()}D instead")
            is_batched = data.dim() == 3
            if not is_batched:
                data = data.unsqueeze(0 if self.batch_first else 1)
            max_batch = data.size(0) if self.batch_first else data.size(1)
        if hx is None:
            n = self.num_layers * dirs
            hx = (
                _creation.zeros((n, max_batch, real_hidden), dtype=data.dtype),
                _creation.zeros((n, max_batch, self.hidden_size), dtype=data.dtype),
            )
        else:
            if not packed:
                want = 3 if is_batched else 2
                if hx[0].dim() != want or hx[1].dim() != want:
                    kind = "batched 3-D" if is_batched else "unbatched 2-D"
                    raise RuntimeError(
                        f"For {kind} input, hx and cx should also be {want}-D but got "
                        f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors"
                    )
                if not is_batched:
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, batch_sizes)
        args = (self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                self.bidirectional)  # fmt: skip
        if packed:
            out, h, c = _op("lstm.data")(data, batch_sizes, list(hx), *args)
            return (
                PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices),
                self.permute_hidden((h, c), unsorted_indices),
            )
        out, h, c = _op("lstm.input")(data, list(hx), *args, self.batch_first)
        if not is_batched:
            out = out.squeeze(0 if self.batch_first else 1)
            h, c = h.squeeze(1), c.squeeze(1)
        return out, (h, c)


class RNNCellBase(Module):
    """Base class of the cells: weight_ih, weight_hh, bias_ih, bias_hh."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_creation.empty((num_chunks * hidden_size, input_size), **kw))
        self.weight_hh = Parameter(_creation.empty((num_chunks * hidden_size, hidden_size), **kw))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, **kw))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, **kw))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nl = getattr(self, "nonlinearity", "tanh")
        if nl != "tanh":
            s += f", nonlinearity={nl}"
        return s

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input: Tensor, hx: Any, n_states: int) -> tuple[Tensor, Any, bool]:  # noqa: A002
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for h in hx if n_states == 2 else (hx,):
                if h.dim() not in (1, 2):
                    raise ValueError(
                        f"{name}: Expected hidden to be 1D or 2D, got {h.dim()}D instead"
                    )
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            z = _creation.zeros((input.size(0), self.hidden_size), dtype=input.dtype)
            hx = (z, z) if n_states == 2 else z
        elif not is_batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if n_states == 2 else hx.unsqueeze(0)
        return input, hx, is_batched


class RNNCell(RNNCellBase):
    """One Elman RNN step."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, h, batched = self._prepare(input, hx, 1)
        if self.nonlinearity == "tanh":
            name = "rnn_tanh_cell"
        elif self.nonlinearity == "relu":
            name = "rnn_relu_cell"
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        ret = _op(name)(x, h, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c')."""

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
        dtype: Any = None,
    ) -> None:  # fmt: skip
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        x, h, batched = self._prepare(input, hx, 2)
        hy, cy = _op("lstm_cell")(
            x, list(h), self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh
        )
        if not batched:
            return hy.squeeze(0), cy.squeeze(0)
        return hy, cy


class GRUCell(RNNCellBase):
    """One GRU step."""

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
        dtype: Any = None,
    ) -> None:  # fmt: skip
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, h, batched = self._prepare(input, hx, 1)
        ret = _op("gru_cell")(x, h, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return ret if batched else ret.squeeze(0)
