"""The programs whose torch.profiler tables keyroute's profiler must reproduce.

Each program is Python source run with `torch` bound to the library under test (torch when
recording with tools/record_profiler.py, keyroute in the tests); it profiles its region of
interest into `prof` with `torch.profiler.profile`. The seed programs in examples/ are profiled
whole (their `import keyroute` lines mapped to `import torch` for the recording).
"""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

_MLP = """
torch.manual_seed(0)
F = torch.nn.functional
model = torch.nn.Sequential(
    torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)
)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x, y = torch.randn(5, 8), torch.tensor([0, 1, 2, 3, 0])

def step():
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()

step()  # the first step creates AdamW's state; profile a steady one
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
    step()
"""

_SGD = """
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(6, 6), torch.nn.Tanh(), torch.nn.Linear(6, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x, y = torch.randn(4, 6), torch.randn(4, 1)

def step():
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()

step()
with torch.profiler.profile() as prof:
    step()
"""

_ELEMENTWISE = """
a = torch.arange(12.0).reshape(3, 4)
b = torch.ones(3, 4)
with torch.profiler.profile() as prof:
    c = a + b
    d = a * 2
    e = torch.matmul(a, b.t())
    f = (c - d).abs().sum()
    g = torch.cat([a, b], dim=0)
    h = a[1:, ::2]
    i = torch.where(a > 5, a, b)
    j = e.softmax(-1).max(dim=1)
"""

_AUTOGRAD_FAN = """
torch.manual_seed(0)
w = torch.randn(3, 3, requires_grad=True)
x = torch.randn(2, 3)
with torch.profiler.profile() as prof:
    h = x @ w
    out = (h * h).sum() + h.mean() + w.exp().sum()
    out.backward()
"""

_RECORD_FUNCTION = """
x = torch.ones(4)
with torch.profiler.profile() as prof:
    with torch.profiler.record_function("outer"):
        y = x + 1
        with torch.profiler.record_function("inner"):
            z = y * 3
    w = z.sum()
"""

_SCHEDULE = """
x = torch.ones(3)
sched = torch.profiler.schedule(wait=1, warmup=1, active=2, repeat=1)
with torch.profiler.profile(schedule=sched) as prof:
    for _ in range(6):
        y = (x + 1).relu()
        prof.step()
"""

_CUSTOM_OP = """
@torch.library.custom_op("profdemo::scale_add", mutates_args=())
def scale_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return x * alpha + y

@scale_add.register_fake
def _(x, y, alpha):
    return torch.empty_like(x)

a, b = torch.ones(2, 3), torch.ones(2, 3)
with torch.profiler.profile() as prof:
    out = torch.ops.profdemo.scale_add(a, b, 2.0)
    out2 = scale_add(out, b, 0.5)
"""

_DISPATCH_MODE = """
from_mode = []

class Count(torch.utils._python_dispatch.TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        from_mode.append(str(func))
        return func(*args, **(kwargs or {}))

x = torch.randn(2, 4)
lin = torch.nn.Linear(4, 3)
with torch.profiler.profile() as prof:
    with Count():
        y = torch.nn.functional.silu(lin(x)).sum()
"""

_NN_LAYERS = """
torch.manual_seed(0)
emb = torch.nn.Embedding(10, 8)
ln = torch.nn.LayerNorm(8)
drop = torch.nn.Dropout(0.5)
drop.eval()
ids = torch.tensor([[1, 2, 3], [4, 5, 0]])
with torch.profiler.profile() as prof:
    with torch.no_grad():
        h = ln(emb(ids))
        h = drop(torch.nn.functional.gelu(h))
        p = torch.nn.functional.softmax(h, dim=-1)
"""

# The MiniLM forward (all-MiniLM-L6-v2's shapes: 6 layers, hidden 384, 12 heads, 1536 inner),
# written with torch.nn modules exactly as keyroute.models.minilm's BertModel and embed_batch;
# the weights' values do not change which operators run, so it uses the modules' own init.
_MINILM = """
torch.manual_seed(0)
nn, F = torch.nn, torch.nn.functional
H, HEADS, INNER, LAYERS = 384, 12, 1536, 6

class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(H, H), nn.Linear(H, H), nn.Linear(H, H)
        self.o, self.ln1 = nn.Linear(H, H), nn.LayerNorm(H, eps=1e-12)
        self.i, self.out = nn.Linear(H, INNER), nn.Linear(INNER, H)
        self.ln2 = nn.LayerNorm(H, eps=1e-12)

    def forward(self, x, mask):
        b, s, h = x.shape
        split = lambda t: t.view(b, s, HEADS, H // HEADS).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        ctx = ctx.transpose(1, 2).reshape(b, s, h)
        a = self.ln1(self.o(ctx) + x)
        return self.ln2(self.out(F.gelu(self.i(a))) + a)

class Bert(nn.Module):
    def __init__(self):
        super().__init__()
        self.word = nn.Embedding(30522, H, padding_idx=0)
        self.pos = nn.Embedding(512, H)
        self.types = nn.Embedding(2, H)
        self.ln = nn.LayerNorm(H, eps=1e-12)
        self.layers = nn.ModuleList([Layer() for _ in range(LAYERS)])

    def forward(self, input_ids, attention_mask):
        token_type_ids = torch.zeros_like(input_ids)
        positions = torch.arange(input_ids.shape[1])[None, :]
        x = self.word(input_ids) + self.pos(positions) + self.types(token_type_ids)
        x = self.ln(x)
        keep = attention_mask[:, None, None, :].to(x.dtype)
        mask = (1.0 - keep) * torch.finfo(x.dtype).min
        for layer in self.layers:
            x = layer(x, mask)
        return x

model = Bert().eval()
ids = torch.tensor([[101, 1037, 2158, 2003, 2652, 1037, 2858, 1012, 102],
                    [101, 2619, 3248, 2019, 6602, 1012, 102, 0, 0]])
mask = (ids != 0).long()
with torch.no_grad():
    model(ids, mask)  # warm
    with torch.profiler.profile() as prof:
        tokens = model(ids, mask)
        m = mask[:, :, None].to(tokens.dtype)
        pooled = (tokens * m).sum(1) / m.sum(1).clamp(min=1e-9)
        emb = F.normalize(pooled, p=2, dim=1)
"""


def _example(name: str, stop_at: str | None = None) -> str:
    """A seed program profiled whole (up to the line starting with stop_at)."""
    src = (EXAMPLES / name).read_text(encoding="utf-8")
    if stop_at is not None:
        src = src[: src.index(stop_at)]
    body = "\n".join("    " + line for line in src.splitlines())
    return (
        "import contextlib, io\n"
        "with torch.profiler.profile() as prof, contextlib.redirect_stdout(io.StringIO()):\n"
        f"{body}\n"
    )


def programs() -> dict[str, str]:
    return {
        "mlp_adamw_step": _MLP,
        "mlp_sgd_step": _SGD,
        "elementwise": _ELEMENTWISE,
        "autograd_fan_in": _AUTOGRAD_FAN,
        "record_function": _RECORD_FUNCTION,
        "schedule": _SCHEDULE,
        "custom_op": _CUSTOM_OP,
        "dispatch_mode": _DISPATCH_MODE,
        "nn_layers": _NN_LAYERS,
        "minilm_forward": _MINILM,
        "seed_custom_ops": _example("custom_ops.py", stop_at="\ndef block"),
        "seed_dispatch_keys": _example("dispatch_keys.py"),
        "seed_log_aten_ops": _example("log_aten_ops.py"),
        "seed_meta_model": _example("meta_model.py"),
        "seed_sdpa_ops": _example("sdpa_ops.py"),
    }


def to_torch(src: str) -> str:
    """The program for PyTorch: keyroute's import lines and module names mapped to torch's."""
    return (
        src.replace("import keyroute as torch", "import torch")
        .replace("keyroute.", "torch.")
        .replace("from keyroute", "from torch")
    )


def summarize(events) -> dict:  # noqa: ANN001
    """Operator names and call counts (never times) of a profile's events: `all` counts every
    event, `top` the events with no parent, `edges` parent>child pairs under top-level events."""
    full: dict[str, int] = {}
    top: dict[str, int] = {}
    edges: dict[str, int] = {}
    for e in events:
        full[e.name] = full.get(e.name, 0) + 1
        parent = e.cpu_parent
        if parent is None:
            top[e.name] = top.get(e.name, 0) + 1
        elif parent.cpu_parent is None:
            k = f"{parent.name}>{e.name}"
            edges[k] = edges.get(k, 0) + 1
    return {"all": full, "top": top, "edges": edges}


def run(src: str, torch_module) -> dict:  # noqa: ANN001
    # FakeTensorMode's dispatch cache outlives modes and profiles (in both libraries), and a hit
    # records fewer events than a miss: start every program from an empty cache, as the
    # recording (one fresh process) did
    import importlib

    importlib.import_module(
        f"{torch_module.__name__}._subclasses.fake_tensor"
    ).FakeTensorMode.cache_clear()
    namespace = {"torch": torch_module, "__name__": "__profiled__"}
    exec(compile(src, "<profiled program>", "exec"), namespace)
    return summarize(namespace["prof"].events())
