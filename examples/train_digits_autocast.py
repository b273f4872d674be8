"""Mixed-precision training on CPU: the digits MLP of examples/train_digits.py trained twice,
in float32 and under `torch.autocast("cpu", dtype=torch.bfloat16)` (matmuls in bfloat16,
the loss in float32, float32 master weights and gradients), to the same test accuracy.

    python examples/train_digits_autocast.py [--epochs 30] [--seed 0]

Needs scikit-learn (the `models` extra) for the data only; no download.
"""

from __future__ import annotations

import argparse
import importlib.util
import os

import keyroute as torch
import keyroute.nn.functional as F


def _digits_example():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "train_digits.py")
    spec = importlib.util.spec_from_file_location("train_digits", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def train(epochs: int = 30, batch_size: int = 64, lr: float = 3e-3, seed: int = 0,
          autocast: bool = True) -> dict:  # fmt: skip
    """Train; return {'losses', 'test_acc', 'logits_dtype', 'grad_dtype'}."""
    ex = _digits_example()
    torch.manual_seed(seed)
    x_train, y_train, x_test, y_test = ex.load_digits_split(seed)
    x_train, y_train = torch.from_numpy(x_train), torch.from_numpy(y_train)
    x_test, y_test = torch.from_numpy(x_test), torch.from_numpy(y_test)
    model = ex.make_model()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    n = len(x_train)
    losses = []
    logits_dtype = grad_dtype = None
    for _epoch in range(epochs):
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, batch_size):
            idx = perm[i : i + batch_size]
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                logits = model(x_train[idx])  # Linear runs in bfloat16 under autocast
                loss = F.cross_entropy(logits, y_train[idx])  # on the fp32 list: float32
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
            logits_dtype = logits.dtype
            grad_dtype = model[0].weight.grad.dtype
        losses.append(total / n)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        acc = ex.accuracy(model, x_test, y_test)
    return {"losses": losses, "test_acc": acc, "logits_dtype": logits_dtype,
            "grad_dtype": grad_dtype}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    full = train(args.epochs, seed=args.seed, autocast=False)
    mixed = train(args.epochs, seed=args.seed, autocast=True)
    print(f"float32:           final loss {full['losses'][-1]:.4f}, test accuracy "
          f"{full['test_acc']:.3f}")  # fmt: skip
    print(f"bfloat16 autocast: final loss {mixed['losses'][-1]:.4f}, test accuracy "
          f"{mixed['test_acc']:.3f} (logits {mixed['logits_dtype']}, weight grads "
          f"{mixed['grad_dtype']})")  # fmt: skip


if __name__ == "__main__":
    main()
