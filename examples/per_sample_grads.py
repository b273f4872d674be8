"""Per-sample gradients (PyTorch's torch.func "Per-sample-gradients" tutorial, on keyroute).

A small CNN on MNIST-shaped data; every sample's gradient of the loss with respect to every
parameter, two ways: a Python loop over samples (the naive way) and one vmap(grad(f)) call
over the batch, via functional_call. Run with `import torch` instead of keyroute and the
numbers agree.

    python examples/per_sample_grads.py
"""

from __future__ import annotations

import keyroute as torch
import keyroute.nn as nn
import keyroute.nn.functional as F  # noqa: N812
from keyroute.func import functional_call, grad, vmap


class SimpleCNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.fc1 = nn.Linear(16 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def loss_fn(predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.nll_loss(predictions, targets)


def per_sample_grads(batch_size: int = 8, seed: int = 0) -> dict:
    torch.manual_seed(seed)
    model = SimpleCNN()
    data = torch.randn(batch_size, 1, 14, 14)
    targets = torch.randint(10, (batch_size,))

    # The naive way: one backward per sample.
    def compute_grad(sample: torch.Tensor, target: torch.Tensor) -> list:
        loss = loss_fn(model(sample.unsqueeze(0)), target.unsqueeze(0))
        return torch.autograd.grad(loss, list(model.parameters()))

    looped = [compute_grad(data[i], targets[i]) for i in range(batch_size)]
    looped = [torch.stack(shards) for shards in zip(*looped)]

    # The torch.func way: the model as a function of its parameters, vmapped over the batch.
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def compute_loss(params: dict, buffers: dict, sample: torch.Tensor, target: torch.Tensor):
        predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
        return loss_fn(predictions, target.unsqueeze(0))

    ft_grads = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
    return {"looped": looped, "vmapped": [ft_grads[k] for k in params], "names": list(params)}


if __name__ == "__main__":
    out = per_sample_grads()
    for name, a, b in zip(out["names"], out["looped"], out["vmapped"]):
        err = float((a - b).abs().max())
        print(f"{name:12s} {tuple(b.shape)!s:20s} max |loop - vmap| = {err:.2e}")
