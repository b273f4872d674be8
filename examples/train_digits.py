"""Train an MLP on scikit-learn's bundled handwritten digits (8x8 images, 10 classes), with
keyroute's autograd, nn and optim: a PyTorch training loop with its import lines changed.

    python examples/train_digits.py [--epochs 30] [--seed 0]

Needs scikit-learn (the `models` extra) for the data only; no download.
"""

from __future__ import annotations

import argparse

import numpy as np

import keyroute as torch
import keyroute.nn as nn
import keyroute.nn.functional as F
from keyroute.utils.progress import ProgressBar


def load_digits_split(seed: int = 0, test_fraction: float = 0.25):
    """(x_train, y_train, x_test, y_test) as float32 / int64 arrays, pixels scaled to [0, 1]."""
    from sklearn.datasets import load_digits

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(x))
    n_test = int(len(x) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def make_model() -> nn.Module:
    return nn.Sequential(
        nn.Linear(64, 128),
        nn.ReLU(),
        nn.Dropout(0.1),
        nn.Linear(128, 10),
    )


def accuracy(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(dim=1)
    model.train()
    return (pred == y).float().mean().item()


def train(
    epochs: int = 30,
    batch_size: int = 64,
    lr: float = 3e-3,
    seed: int = 0,
    show_progress: bool = True,
) -> dict:
    """Train and return {'losses': per-epoch mean loss, 'train_acc', 'test_acc'}."""
    torch.manual_seed(seed)
    x_train, y_train, x_test, y_test = load_digits_split(seed)
    xt, yt = torch.from_numpy(x_train), torch.from_numpy(y_train)
    xv, yv = torch.from_numpy(x_test), torch.from_numpy(y_test)

    model = make_model()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    steps_per_epoch = (len(x_train) + batch_size - 1) // batch_size
    bar = ProgressBar(epochs * steps_per_epoch, "steps") if show_progress else None
    losses: list[float] = []
    step = 0
    for epoch in range(epochs):
        order = torch.from_numpy(rng.permutation(len(x_train)))
        total = 0.0
        for i in range(steps_per_epoch):
            idx = order[i * batch_size : (i + 1) * batch_size]
            logits = model(xt[idx])
            loss = F.cross_entropy(logits, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            step += 1
            if bar is not None:
                bar(step, extra=f"epoch {epoch + 1}/{epochs} loss {loss.item():.4f}")
        losses.append(total / steps_per_epoch)
    return {
        "losses": losses,
        "train_acc": accuracy(model, xt, yt),
        "test_acc": accuracy(model, xv, yv),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    result = train(epochs=args.epochs, seed=args.seed)
    print(f"loss: first epoch {result['losses'][0]:.4f}, last epoch {result['losses'][-1]:.4f}")
    print(f"train accuracy {result['train_acc']:.2%}   test accuracy {result['test_acc']:.2%}")


if __name__ == "__main__":
    main()
