"""torch.nn.functional, family by family (keyroute/nn/functional.py re-exports each module's
names): norms, attention, losses, activations, pooling and padding."""
