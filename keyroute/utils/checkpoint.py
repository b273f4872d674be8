"""torch.utils.checkpoint: activation checkpointing (recompute the forward during backward).

`use_reentrant=True` (PyTorch's default when the argument is omitted, with its warning) is a
custom Function: the forward runs without grad, and its backward reruns the function with grad
and backpropagates through the rerun. `use_reentrant=False` runs the forward with grad under
saved-tensor hooks that keep a placeholder per saved tensor; the first unpack in a backward
reruns the function (same RNG state) under hooks that collect the recomputed tensors, stopping
as soon as all are there (`early_stop`), and each placeholder unpacks to its recomputed tensor.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["checkpoint", "checkpoint_sequential", "noop_context_fn"]


def _torch() -> Any:
    import keyroute

    return keyroute


def noop_context_fn() -> tuple[Any, Any]:
    return contextlib.nullcontext(), contextlib.nullcontext()


def _check_backward_validity(inputs: Iterable[Any]) -> None:
    torch = _torch()
    if not any(isinstance(i, torch.Tensor) and i.requires_grad for i in inputs):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None", stacklevel=3
        )


def _get_function() -> Any:
    torch = _torch()

    class CheckpointFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, run_function: Callable[..., Any], preserve: bool, *args: Any) -> Any:
            _check_backward_validity(args)
            ctx.run_function = run_function
            ctx.preserve_rng_state = preserve
            if preserve:
                ctx.fwd_cpu_state = torch.get_rng_state()
            ctx.inputs = []
            ctx.tensor_indices = []
            tensors = []
            for i, a in enumerate(args):
                if isinstance(a, torch.Tensor):
                    tensors.append(a)
                    ctx.tensor_indices.append(i)
                    ctx.inputs.append(None)
                else:
                    ctx.inputs.append(a)
            ctx.save_for_backward(*tensors)
            with torch.no_grad():
                return run_function(*args)

        @staticmethod
        def backward(ctx: Any, *grads: Any) -> Any:
            inputs = list(ctx.inputs)
            for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
                inputs[i] = t
            detached = [
                a.detach().requires_grad_(a.requires_grad) if isinstance(a, torch.Tensor) else a
                for a in inputs
            ]
            state = torch.get_rng_state()
            try:
                if ctx.preserve_rng_state:
                    torch.set_rng_state(ctx.fwd_cpu_state)
                with torch.enable_grad():
                    outputs = ctx.run_function(*detached)
            finally:
                if ctx.preserve_rng_state:
                    torch.set_rng_state(state)
            if isinstance(outputs, torch.Tensor):
                outputs = (outputs,)
            pairs = [
                (o, g)
                for o, g in zip(outputs, grads)
                if isinstance(o, torch.Tensor) and o.requires_grad
            ]
            if not pairs:
                raise RuntimeError(
                    "none of output has requires_grad=True, this checkpoint() is not necessary"
                )
            torch.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
            return (None, None) + tuple(
                a.grad if isinstance(a, torch.Tensor) else None for a in detached
            )

    return CheckpointFunction


_function_cls: list[Any] = []


def __getattr__(name: str) -> Any:
    if name == "CheckpointFunction":
        return _checkpoint_function()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _checkpoint_function() -> Any:
    if not _function_cls:
        _function_cls.append(_get_function())
    return _function_cls[0]


class _StopRecomputation(Exception):  # noqa: N818 - internal signal, never escapes
    pass


class _Holder:
    """The placeholder a saved tensor packs to; its index in the frame's save order."""

    __slots__ = ("index", "__weakref__")

    def __init__(self, index: int) -> None:
        self.index = index


class _Frame:
    def __init__(self, recompute: Callable[[], None], early_stop: bool, check: bool) -> None:
        self.recompute = recompute
        self.early_stop = early_stop
        self.check = check
        self.count = 0  # tensors saved by the original forward
        self.meta: list[tuple[Any, ...]] = []
        self.recomputed: dict[int, dict[int, Any]] = {}  # graph task -> index -> tensor
        self.used: dict[int, set[int]] = {}


def _meta(x: Any) -> tuple[Any, ...]:
    return (tuple(x.shape), x.dtype, x.device)


def _run_recompute(frame: _Frame, task: int) -> None:
    torch = _torch()
    got: dict[int, Any] = {}
    metas: list[tuple[Any, ...]] = []

    def pack(x: Any) -> Any:
        i = len(metas)
        metas.append(_meta(x))
        if i >= frame.count:
            raise RuntimeError(
                "torch.utils.checkpoint: trying to save more tensors during recomputation than "
                "during the original forward pass."
            )
        got[i] = x.detach()
        if frame.early_stop and len(got) == frame.count:
            raise _StopRecomputation
        return None

    def unpack(x: Any) -> Any:
        return x

    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            frame.recompute()
    except _StopRecomputation:
        pass
    if frame.check and len(metas) != frame.count:
        raise RuntimeError(
            "torch.utils.checkpoint: A different number of tensors was saved during the original "
            "forward and recomputation.\n"
            f"Number of tensors saved during forward: {frame.count}\n"
            f"Number of tensors saved during recomputation: {len(metas)}.\n"
        )
    if frame.check:
        bad = [i for i, m in enumerate(metas) if m != frame.meta[i]]
        if bad:
            lines = "".join(
                f"tensor at position {i}:\n"
                f"saved metadata: {_describe(frame.meta[i])}\n"
                f"recomputed metadata: {_describe(metas[i])}\n"
                for i in bad
            )
            raise RuntimeError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{lines}"
            )
    frame.recomputed[task] = got
    frame.used[task] = set()


def _describe(m: tuple[Any, ...]) -> str:
    shape, dtype, device = m
    return f"{{'shape': torch.Size({list(shape)}), 'dtype': {dtype}, 'device': {device}}}"


def _checkpoint_non_reentrant(
    function: Callable[..., Any],
    preserve: bool,
    context_fn: Callable[[], tuple[Any, Any]],
    determinism_check: str,
    early_stop: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    torch = _torch()
    from ..autograd.engine import current_graph_task_id

    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}"
        )
    forward_ctx, recompute_ctx = context_fn()
    rng = torch.get_rng_state() if preserve else None
    grad_enabled = torch.is_grad_enabled()

    def recompute() -> None:
        state = torch.get_rng_state()
        try:
            if rng is not None:
                torch.set_rng_state(rng)
            with torch.set_grad_enabled(grad_enabled), recompute_ctx:
                function(*args, **kwargs)
        finally:
            if rng is not None:
                torch.set_rng_state(state)

    frame = _Frame(recompute, early_stop, determinism_check == "default")

    def pack(x: Any) -> _Holder:
        frame.meta.append(_meta(x))
        frame.count += 1
        return _Holder(frame.count - 1)

    def unpack(holder: _Holder) -> Any:
        task = current_graph_task_id()
        if task not in frame.recomputed:
            _run_recompute(frame, task)
        used = frame.used[task]
        if holder.index in used:
            raise RuntimeError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already "
                "unpacked once. If you are calling ctx.saved_tensors in backward, make sure to do "
                "so only once. Otherwise please open an issue with details on your use case."
            )
        used.add(holder.index)
        out = frame.recomputed[task].pop(holder.index)
        if not frame.recomputed[task]:
            del frame.recomputed[task]
        return out

    with torch.autograd.graph.saved_tensors_hooks(pack, unpack), forward_ctx:
        return function(*args, **kwargs)


def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable[[], tuple[Any, Any]] = noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs: Any,
) -> Any:
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        return _checkpoint_function().apply(function, preserve, *args)
    return _checkpoint_non_reentrant(
        function, preserve, context_fn, determinism_check, early_stop, args, kwargs
    )


def checkpoint_sequential(
    functions: Any, segments: int, input: Any, use_reentrant: bool | None = None, **kwargs: Any
) -> Any:  # noqa: A002 - PyTorch's parameter name
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is not "
            "passed. use_reentrant=False is recommended, but if you need to preserve the current "
            "default behavior, you can pass use_reentrant=True. Refer to docs for more details "
            "on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    torch = _torch()
    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())

    def run(start: int, end: int) -> Callable[[Any], Any]:
        def forward(x: Any) -> Any:
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(
            run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve
        )
    return run(end + 1, len(functions) - 1)(input)
