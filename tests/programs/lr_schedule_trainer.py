# Source: the torch.optim documentation, "How to adjust learning rate" (chaining ExponentialLR
# and MultiStepLR, scheduler.step() once per epoch after optimizer.step())
# https://docs.pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate
# Changed: the docs' loop applied to a small MLP on synthetic MNIST-shaped data (fixed seed,
# 256 images of 28x28, 10 classes), 12 epochs of 8 batches; a warm-up LinearLR in a
# SequentialLR and a ReduceLROnPlateau on a second optimizer; values printed to 4 decimals.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import (
    ExponentialLR,
    LinearLR,
    MultiStepLR,
    ReduceLROnPlateau,
    SequentialLR,
)

torch.manual_seed(0)
images = torch.rand(256, 1, 28, 28)
labels = torch.randint(0, 10, (256,))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scheduler1 = SequentialLR(
    optimizer,
    [LinearLR(optimizer, start_factor=0.25, total_iters=3), ExponentialLR(optimizer, gamma=0.9)],
    milestones=[3],
)
scheduler2 = MultiStepLR(optimizer, milestones=[6, 9], gamma=0.5)

head = nn.Linear(10, 10)
optimizer2 = torch.optim.Adam(head.parameters(), lr=0.01)
plateau = ReduceLROnPlateau(optimizer2, factor=0.5, patience=1)

for epoch in range(12):
    total = 0.0
    for i in range(8):
        x, y = images[i * 32 : (i + 1) * 32], labels[i * 32 : (i + 1) * 32]
        optimizer.zero_grad()
        optimizer2.zero_grad()
        out = model(x)
        loss = F.nll_loss(out, y)
        loss2 = F.cross_entropy(head(out.detach()), y)
        (loss + loss2).backward()
        optimizer.step()
        optimizer2.step()
        total += loss.item()
    scheduler1.step()
    scheduler2.step()
    plateau.step(round(total / 8, 1))
    lr = scheduler2.get_last_lr()[0]
    lr2 = optimizer2.param_groups[0]["lr"]
    print(f"epoch {epoch}: loss {total / 8:.4f} lr {lr:.6f} head lr {lr2:.6f}")
