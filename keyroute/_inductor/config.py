"""keyroute._inductor.config (torch._inductor.config): the code generator's knobs.

`cpu_backend` chooses what fusible groups become, as PyTorch's `cpu_backend` ("cpp",
"triton", "halide") does: "numba" (the default when numba, the `compile` extra, imports)
writes each group of fused pointwise ops and last-dimension reductions as one numba loop
nest; "numpy" keeps every node a NumPy call (out= buffers, no loop fusion). Per compile:
`keyroute.compile(fn, backend="inductor", options={"cpu_backend": "numpy"})`.
"""

from __future__ import annotations

import importlib.util

#: "numba" or "numpy" (see the module docstring). None: numba when it is installed.
cpu_backend: str | None = None
#: numba's on-disk cache of compiled kernels (cache=True); PyTorch's cache dir is
#: /tmp/torchinductor_<user>. None: KEYROUTE_CACHE_DIR or <tmp>/keyroute_inductor_<user>.
cache_dir: str | None = None


def numba_available() -> bool:
    return importlib.util.find_spec("numba") is not None


def resolve_cpu_backend(options: dict[str, object] | None) -> str:
    """The backend one compile uses: options["cpu_backend"], else the config, else numba
    when installed. Asking for numba without it falls back to NumPy with a warning."""
    want = (options or {}).get("cpu_backend", cpu_backend)
    if want is None:
        return "numba" if numba_available() else "numpy"
    if want not in ("numba", "numpy"):
        raise ValueError(f"cpu_backend must be 'numba' or 'numpy', got {want!r}")
    if want == "numba" and not numba_available():
        import warnings

        warnings.warn(
            "keyroute._inductor: cpu_backend='numba' needs numba (pip install "
            "'keyroute[compile]'); generating NumPy code instead",
            stacklevel=3,
        )
        return "numpy"
    return str(want)
