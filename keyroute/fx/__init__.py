"""keyroute.fx: graphs of operator calls (torch.fx's API).

`Graph` and `Node` hold the program, `GraphModule` runs its generated code (`.code`,
`print_readable()`), `Interpreter`/`Transformer` walk it, `symbolic_trace` records a Module's
forward on Proxies, and `experimental.proxy_tensor.make_fx` records the aten calls that reach
the Python key.
"""

from ._symbolic_trace import Tracer, symbolic_trace, wrap
from .graph import Graph
from .graph_module import GraphModule
from .interpreter import Interpreter, Transformer
from .node import Node, map_arg
from .proxy import Proxy

__all__ = [
    "Graph",
    "GraphModule",
    "Interpreter",
    "Node",
    "Proxy",
    "Tracer",
    "Transformer",
    "map_arg",
    "symbolic_trace",
    "wrap",
]
