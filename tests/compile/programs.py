"""Programs compiled in the tests (test_programs.py): each `name(torch) -> (fn, args)`, run
eagerly and compiled on fresh copies of the same inputs; results, mutated inputs and (for
inputs that require grad) gradients must agree. `torch` is keyroute (or PyTorch, live)."""


def _t(torch, *shape, seed=0, grad=False):
    g = torch.Generator().manual_seed(seed)
    t = torch.randn(*shape, generator=g)
    return t.requires_grad_(True) if grad else t


def _lib(torch):
    """The custom operators the programs use (defined once per library)."""
    if hasattr(_lib, "done"):
        return
    _lib.done = True

    @torch.library.custom_op("kr_compile::rms_norm", mutates_args=())
    def rms_norm(x: torch.Tensor, w: torch.Tensor, eps: float) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w

    @rms_norm.register_fake
    def _(x, w, eps):
        return torch.empty_like(x)

    @torch.library.custom_op("kr_compile::store_kv", mutates_args=("cache",))
    def store_kv(cache: torch.Tensor, slots: torch.Tensor, value: torch.Tensor) -> None:
        cache.index_copy_(0, slots, value)

    @store_kv.register_fake
    def _(cache, slots, value):
        return None


def pointwise_chain(torch):
    return (lambda x: (x.sin() * 2 + 1).exp().tanh() - x.abs().sqrt()), (_t(torch, 4, 5),)


def reductions(torch):
    def f(x):
        return x.sum(0), x.mean(-1, keepdim=True), x.amax(1), x.var(1), x.norm()

    return f, (_t(torch, 4, 6),)


def softmax_logsoftmax(torch):
    F = torch.nn.functional
    return (lambda x: (F.softmax(x, -1), F.log_softmax(x, 0))), (_t(torch, 3, 7),)


def matmul_bias_relu(torch):
    return (lambda x, w, b: torch.relu(x @ w.t() + b)), (
        _t(torch, 5, 8),
        _t(torch, 6, 8, seed=1),
        _t(torch, 6, seed=2),
    )


def batched_matmul(torch):
    return (lambda a, b: torch.bmm(a, b).softmax(-1)), (_t(torch, 2, 3, 4), _t(torch, 2, 4, 5))


def views_and_reshape(torch):
    def f(x):
        y = x.view(2, 3, 4).transpose(1, 2).reshape(8, 3)
        return y[1:5, ::2] * 3, x.flatten(), x.unsqueeze(0).expand(2, 6, 4).sum(0)

    return f, (_t(torch, 6, 4),)


def inplace_on_input(torch):
    def f(x, y):
        x.add_(1)
        x.mul_(y)
        return x.sum()

    return f, (_t(torch, 3, 4), _t(torch, 3, 4, seed=1))


def view_written_inplace(torch):
    def f(x):
        x[0].fill_(2.0)
        x[:, 1] += 1
        return x * 2

    return f, (_t(torch, 3, 4),)


def slice_assign(torch):
    def f(x, v):
        x[1:3] = v
        return x.cumsum(0)

    return f, (_t(torch, 5, 2), _t(torch, 2, 2, seed=1))


def index_copy_cache(torch):
    def f(cache, slots, v, q):
        cache.index_copy_(0, slots, v)
        return q @ cache.t()

    return f, (torch.zeros(8, 4), torch.tensor([1, 5]), _t(torch, 2, 4), _t(torch, 3, 4, seed=1))


def custom_rms_norm(torch):
    _lib(torch)
    return (lambda x, w: torch.ops.kr_compile.rms_norm(x, w, 1e-6).relu()), (
        _t(torch, 2, 16),
        _t(torch, 16, seed=1),
    )


def custom_store_kv(torch):
    _lib(torch)

    def f(cache, slots, v, q):
        torch.ops.kr_compile.store_kv(cache, slots, v)
        return q @ cache.t()

    return f, (torch.zeros(8, 4), torch.tensor([2, 6]), _t(torch, 2, 4), _t(torch, 3, 4, seed=1))


def scalar_args(torch):
    return (lambda x, a, b: x * a + b), (_t(torch, 3), 2.5, 3)


def kwargs_and_tuple(torch):
    def f(x, *, scale=1.0, pair=(1, 2)):
        return x * scale + pair[0], x - pair[1]

    return (lambda x: f(x, scale=2.0, pair=(3, 4))), (_t(torch, 4),)


def list_input(torch):
    return (lambda xs: torch.cat(xs, 0).sum(0)), ([_t(torch, 2, 3), _t(torch, 1, 3, seed=1)],)


def dict_output(torch):
    return (lambda x: {"a": x + 1, "b": [x * 2, 3]}), (_t(torch, 2),)


def factory_inside(torch):
    return (lambda x: x + torch.ones(3) * torch.arange(3)), (_t(torch, 2, 3),)


def dtype_cast(torch):
    return (lambda x: (x.to(torch.float64) * 2).to(torch.float32) + x.int()), (_t(torch, 4),)


def int_ops(torch):
    return (lambda a: (a * 3 + 1) // 2 % 5), (torch.arange(10),)


def comparisons_where(torch):
    return (lambda x, y: torch.where(x > y, x, y * 2) + (x == y).float()), (
        _t(torch, 6),
        _t(torch, 6, seed=1),
    )


def masked_fill(torch):
    return (lambda x: x.masked_fill(x < 0, 0.0).clamp(max=0.5)), (_t(torch, 3, 3),)


def gather_index(torch):
    return (lambda x, i: x.gather(1, i) + x[i[:, 0]].sum(1, keepdim=True)), (
        _t(torch, 4, 5),
        torch.tensor([[0], [2], [3], [1]]),
    )


def embedding_lookup(torch):
    F = torch.nn.functional
    return (lambda ids, w: F.embedding(ids, w).mean(1)), (
        torch.tensor([[1, 2], [0, 3]]),
        _t(torch, 5, 4),
    )


def rms_norm_decomposed(torch):
    def f(x, w):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w

    return f, (_t(torch, 4, 32), _t(torch, 32, seed=1))


def layer_norm_gelu(torch):
    F = torch.nn.functional
    return (lambda x, w, b: F.gelu(F.layer_norm(x, (8,), w, b))), (
        _t(torch, 3, 8),
        _t(torch, 8, seed=1),
        _t(torch, 8, seed=2),
    )


def silu_mlp(torch):
    F = torch.nn.functional

    def f(x, w1, w2, w3):
        return F.linear(F.silu(F.linear(x, w1)) * F.linear(x, w3), w2)

    return f, (
        _t(torch, 2, 8),
        _t(torch, 16, 8, seed=1),
        _t(torch, 8, 16, seed=2),
        _t(torch, 16, 8, seed=3),
    )


def attention(torch):
    F = torch.nn.functional

    def f(q, k, v):
        s = (q @ k.transpose(-1, -2)) / 2.0
        return F.softmax(s, -1) @ v

    return f, (_t(torch, 2, 4, 8), _t(torch, 2, 6, 8, seed=1), _t(torch, 2, 6, 8, seed=2))


def sdpa(torch):
    F = torch.nn.functional
    return (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)), (
        _t(torch, 1, 2, 4, 8),
        _t(torch, 1, 2, 4, 8, seed=1),
        _t(torch, 1, 2, 4, 8, seed=2),
    )


def rope(torch):
    def f(x, cos, sin):
        x1, x2 = x[..., :4], x[..., 4:]
        rot = torch.cat((-x2, x1), -1)
        return x * cos + rot * sin

    return f, (_t(torch, 2, 3, 8), _t(torch, 3, 8, seed=1), _t(torch, 3, 8, seed=2))


def linear_module(torch):
    torch.manual_seed(0)
    return torch.nn.Linear(4, 3), (_t(torch, 2, 4),)


def sequential_mlp(torch):
    torch.manual_seed(0)
    nn = torch.nn
    return nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 2)), (_t(torch, 3, 6),)


def module_with_buffer(torch):
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("count", torch.zeros(3))
            self.scale = 2.0

        def forward(self, x):
            self.count.add_(1)
            return x * self.scale + self.count

    return M(), (_t(torch, 3),)


def layer_norm_module(torch):
    torch.manual_seed(0)
    return torch.nn.LayerNorm(5), (_t(torch, 2, 5),)


def conv_module(torch):
    torch.manual_seed(0)
    return torch.nn.Conv2d(2, 3, 3, padding=1), (_t(torch, 1, 2, 5, 5),)


def dropout_eval(torch):
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))
    m.eval()
    return m, (_t(torch, 2, 4),)


def train_mlp(torch):
    F = torch.nn.functional

    def f(x, w1, b1, w2, target):
        h = torch.relu(F.linear(x, w1, b1))
        return F.cross_entropy(F.linear(h, w2), target)

    return f, (
        _t(torch, 4, 6),
        _t(torch, 8, 6, seed=1, grad=True),
        _t(torch, 8, seed=2, grad=True),
        _t(torch, 3, 8, seed=3, grad=True),
        torch.tensor([0, 2, 1, 0]),
    )


def train_pointwise(torch):
    return (lambda x: (x.sin() * x.exp()).sum()), (_t(torch, 5, grad=True),)


def train_rmsnorm_linear(torch):
    F = torch.nn.functional

    def f(x, g, w):
        h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g
        return F.silu(F.linear(h, w)).pow(2).mean()

    return f, (
        _t(torch, 3, 8, grad=True),
        _t(torch, 8, seed=1, grad=True),
        _t(torch, 4, 8, seed=2, grad=True),
    )


def train_module(torch):
    torch.manual_seed(0)
    nn = torch.nn
    return nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 1)), (_t(torch, 4, 5),)


def returns_input_view(torch):
    return (lambda x: (x.t(), x[1])), (_t(torch, 3, 2),)


def returns_input(torch):
    return (lambda x, y: (x, y + 1)), (_t(torch, 2), _t(torch, 2, seed=1))


def nested_call(torch):
    def helper(x):
        return x.relu() * 2

    return (lambda x: helper(x) + helper(-x)), (_t(torch, 4),)


def python_loop(torch):
    def f(x):
        for i in range(3):
            x = x * (i + 1) + x.mean()
        return x

    return f, (_t(torch, 4),)


def shape_dependent(torch):
    def f(x):
        if x.shape[0] > 2:
            return x.sum(0)
        return x * 2

    return f, (_t(torch, 3, 2),)


def break_item(torch):
    def f(x):
        s = x.sum().item()
        return x * s

    return f, (_t(torch, 3),)


def break_branch(torch):
    def f(x):
        if x.sum() > 0:
            return x.cos()
        return x.sin()

    return f, (_t(torch, 3),)


def bfloat16_math(torch):
    return (lambda x: (x.to(torch.bfloat16) * 3).float().sum(-1)), (_t(torch, 2, 8),)


CASES = {
    name: fn
    for name, fn in dict(globals()).items()
    if callable(fn) and not name.startswith("_") and getattr(fn, "__module__", "") == __name__
}


def no_grad_inside(torch):
    def f(x):
        with torch.no_grad():
            y = x * 2
        return x.sin() + y, y.requires_grad

    return f, (_t(torch, 3, grad=True),)


CASES["no_grad_inside"] = no_grad_inside
