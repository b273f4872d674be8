# Source: pytorch/tutorials beginner_source/basics/saveloadrun_tutorial.py and
# recipes_source/recipes/saving_and_loading_a_general_checkpoint.py
# https://pytorch.org/tutorials/beginner/basics/saveloadrun_tutorial.html
# Changed: a small MLP instead of torchvision's VGG16 (no download); a temporary directory.
import os
import tempfile

import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
x = torch.randn(3, 8)
loss = net(x).pow(2).mean()
loss.backward()
optimizer.step()
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "model.pt")
    torch.save(
        {
            "epoch": 5,
            "model_state_dict": net.state_dict(),
            "optimizer_state_dict": optimizer.state_dict(),
            "loss": loss,
        },
        path,
    )
    model = Net()
    opt2 = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
    checkpoint = torch.load(path, weights_only=True)
    model.load_state_dict(checkpoint["model_state_dict"])
    opt2.load_state_dict(checkpoint["optimizer_state_dict"])
    print(checkpoint["epoch"], checkpoint["loss"])
    print(list(checkpoint["model_state_dict"].keys()))
    model.eval()
    print(torch.equal(model(x), net(x)))
    print(opt2.state_dict()["param_groups"])
    torch.save(net.state_dict(), os.path.join(d, "w.pth"))
    sd = torch.load(os.path.join(d, "w.pth"), weights_only=True)
    print({k: tuple(v.shape) for k, v in sd.items()})
