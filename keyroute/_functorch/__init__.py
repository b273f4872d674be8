"""functorch's graph transforms: functionalize, AOT Autograd (joint graphs and partitioners)."""
