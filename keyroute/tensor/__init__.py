"""Tensors: the Tensor type, dtypes, devices, layouts, storage."""
