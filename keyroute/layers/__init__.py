"""The dispatch layers (one module per layer).

functorch.py: the functorch layers (dynamic layer stack, FuncTorchBatched, vmap's fallback).
"""
