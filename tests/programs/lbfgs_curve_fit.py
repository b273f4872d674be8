# Source: the torch.optim documentation, "optimizer.step(closure)" (LBFGS re-evaluates the model)
# https://docs.pytorch.org/docs/stable/optim.html#optimizer-step-closure
# Changed: the closure loop of the docs applied to a least-squares fit of a damped sine
# (synthetic data, fixed seed), with LBFGS and its strong-Wolfe line search; losses printed
# to 6 decimals.
import torch
import torch.nn as nn

torch.manual_seed(0)
t = torch.linspace(0, 4, 200)
target = 1.5 * torch.exp(-0.5 * t) * torch.sin(3.0 * t + 0.3) + 0.02 * torch.randn(200)


class Damped(nn.Module):
    def __init__(self):
        super().__init__()
        self.amp = nn.Parameter(torch.tensor(1.0))
        self.decay = nn.Parameter(torch.tensor(0.3))
        self.freq = nn.Parameter(torch.tensor(2.8))
        self.phase = nn.Parameter(torch.tensor(0.0))

    def forward(self, t):
        return self.amp * torch.exp(-self.decay * t) * torch.sin(self.freq * t + self.phase)


model = Damped()
loss_fn = nn.MSELoss()
optimizer = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=20, line_search_fn="strong_wolfe")

for step in range(5):

    def closure():
        optimizer.zero_grad()
        output = model(t)
        loss = loss_fn(output, target)
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    print(f"step {step}: loss {loss.item():.6f}")

state = optimizer.state[optimizer.param_groups[0]["params"][0]]
print("function evaluations:", state["func_evals"], "iterations:", state["n_iter"])
for name, p in model.named_parameters():
    print(f"{name} = {p.item():.4f}")
