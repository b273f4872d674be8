"""Work beyond one process: dask-backed tensors on a dask.distributed cluster, and MiniLM
embeddings with the batches spread over its workers.

Starts a local cluster of two worker processes (or uses the one DASK_SCHEDULER_ADDRESS
names), then
1. computes silu(x @ w).sum() on a chunked dask tensor: the graph is built by keyroute's
   operators and runs on the workers; only the scalar comes back;
2. embeds sentences with one task per batch and checks them against the single-process run.

    python examples/dask_embed.py
"""

from __future__ import annotations

import os

import numpy as np

import keyroute as torch
import keyroute.dask
import keyroute.nn.functional as F
from keyroute.dask.embed import encode, local_cluster
from keyroute.models import minilm

SENTENCES = [
    "A man is eating food.",
    "A man is eating a piece of bread.",
    "The girl is carrying a baby.",
    "A man is riding a horse.",
    "A woman is playing violin.",
    "Two men pushed carts through the woods.",
    "A man is riding a white horse on an enclosed ground.",
    "A monkey is playing drums.",
    "Someone in a gorilla costume is playing a set of drums.",
    "The cat sits on the mat.",
]


def main() -> None:
    address = os.environ.get("DASK_SCHEDULER_ADDRESS")
    if address:
        from distributed import Client

        client, own = Client(address, set_as_default=False), False
    else:
        client, own = local_cluster(2), True
    try:
        with keyroute.dask.use(client):
            x = keyroute.dask.from_numpy(
                np.linspace(-1, 1, 4096 * 64, dtype=np.float32).reshape(4096, 64), chunks=(512, 64)
            )
            w = torch.linspace(-0.5, 0.5, 64 * 16).reshape(64, 16).to("dask")
            y = F.silu(x @ w).sum()
            print("graph built on", y.device, "| blocks of x:", x._data.array.numblocks)
            ref = F.silu(x.cpu() @ w.cpu()).sum().item()
            print("silu(x @ w).sum() on the cluster matches the CPU:", abs(y.item() - ref) < 1e-3)
        emb = encode(SENTENCES, batch_size=4, client=client)
        single = minilm.encode(SENTENCES, batch_size=4)
        print(
            f"embeddings {emb.shape}, same as the single-process run:", np.array_equal(emb, single)
        )
    finally:
        client.close()
        if own:
            client.cluster.close()


if __name__ == "__main__":
    main()
