"""The dispatch layers: the interpreters that dispatch keys select, one module per layer.

A call computes its key set (the tensors' keys, plus the TLS include set, minus the exclude
set) and runs the kernel of the highest key; a layer's kernel does its work and redispatches
below its own key. This package holds every layer keyroute builds, in dispatch order (highest
priority first). The dispatcher itself (keys, key sets, TLS, operators, registration) is
keyroute/dispatcher/; the backends (the bottom of every chain) are keyroute/kernels/.

    key(s)                       module                what it does
    ---------------------------  --------------------  -------------------------------------------
    (every key below)            fallbacks.py          the backend fallbacks `import torch`
                                                       installs: fallthroughs (BackendSelect,
                                                       ADInplaceOrView, Autocast*, VmapMode), and
                                                       refusals naming each layer keyroute does
                                                       not build yet (FuncTorch*, Tracer...)
    PythonTLSSnapshot, Python    python.py             dispatch modes and `__torch_dispatch__`
                                                       subclasses (FakeTensorMode is such a mode:
                                                       keyroute/subclasses/fake_tensor.py)
    AutocastCPU (AutocastCUDA,   autocast.py           automatic mixed precision: PyTorch's CPU
    ... state only)                                    cast policies (lower_precision_fp, fp32,
                                                       promote) per operator, the weight-cast
                                                       cache; off = the key stays TLS-excluded
    FuncTorchDynamicLayer*,      functorch.py          torch.func: the dynamic layer stack (each
    FuncTorchBatched                                   transform a level), BatchedTensor and vmap's
                                                       batching rules with the per-sample fallback
    Functionalize                functionalize.py      programs without mutation: in-place ops to
                                                       functional ones plus write-back, views
                                                       replayed from their base (func.functionalize)
    Conjugate, Negative          mathbits.py           lazy conj / neg views: PyTorch's
                                                       MathOpFallback (materialize by clone,
                                                       write back in-place results, views pass)
    ZeroTensor                   zerotensor.py         _efficientzerotensor: writes refused, mul
                                                       stays zero, other ops see zeros
    Autograd<Backend>            autograd.py           record the graph: one kernel per aten
                                                       operator from the derivatives table
                                                       (keyroute/autograd/derivatives/), and the
                                                       fallback (with its warning node) for
                                                       custom operators; foreach_autograd.py: the
                                                       _foreach_* kernels (one node per list) and
                                                       the fused optimizer steps' passthrough
    ADInplaceOrView              inplace_or_view.py    version counters of in-place ops, base
                                                       tracking of views
    (bind hook, INFERENCE_BIT)   inference.py          inside inference_mode, fresh backend
                                                       results become inference tensors

Adding a layer: pick its key, write a module here with its kernels or a boxed fallback on that
key, and import it from keyroute/__init__.py. A key that already has a builtin fallback
(fallbacks.py) needs `Library.fallback(..., replace_builtin=True)`, which says so;
examples/new_layer.py is a complete layer in one file.
"""
