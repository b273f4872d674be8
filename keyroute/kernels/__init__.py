"""Backends: where a call ends. `cpu` computes with NumPy; `meta` computes metadata only.

Adding a backend is one module that registers kernels on its dispatch key (see
docs/architecture.md).
"""
