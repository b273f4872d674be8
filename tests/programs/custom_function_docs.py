# Source: PyTorch docs, "Extending torch.autograd" (LinearFunction, MulConstant) and gradcheck
# https://pytorch.org/docs/stable/notes/extending.html#extending-torch-autograd
# Changed: torch.manual_seed(0); gradcheck on 4x5 and 3x5 inputs (20x20, 30x20 there); results printed.
import torch
from torch.autograd import Function, gradcheck


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


torch.manual_seed(0)
linear = LinearFunction.apply
input = (
    torch.randn(4, 5, dtype=torch.double, requires_grad=True),
    torch.randn(3, 5, dtype=torch.double, requires_grad=True),
    None,
)
print(gradcheck(linear, input, eps=1e-6, atol=1e-4))
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = MulConstant.apply(x, 5.0)
y.sum().backward()
print(y, x.grad)
w = torch.ones(2, 3, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
out = linear(torch.ones(4, 3), w, b)
out.sum().backward()
print(out, w.grad, b.grad)
