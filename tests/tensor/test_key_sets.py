"""The hot path's precomputed key sets are the ones PyTorch gives a dense tensor on the device.

`CPU_KEYS` and `META_KEYS` are constants the CPU and meta kernels stamp on every result, for
speed; the general rule is `keys_for_device`, which run-time backends use. They must agree, so
a tensor made by a CPU kernel carries the same keys as one made for the device."""

from __future__ import annotations

import keyroute
from keyroute.dispatcher.keys import DispatchKey
from keyroute.dispatcher.keyset import DispatchKeySet
from keyroute.tensor._tensor import CPU_KEYS, META_KEYS
from keyroute.tensor.subclass import keys_for_device


def test_cpu_keys_are_keys_for_the_cpu_device() -> None:
    assert CPU_KEYS == keys_for_device(keyroute.device("cpu"))
    assert keyroute.ones(2)._key_set == CPU_KEYS


def test_meta_keys_are_keys_for_the_meta_device() -> None:
    assert META_KEYS == keys_for_device(keyroute.device("meta"))
    assert keyroute.ones(2, device="meta")._key_set == META_KEYS


def test_cpu_key_set_as_pytorch_prints_it() -> None:
    # torch._C._dispatch_keys(torch.ones(2)) in PyTorch 2.13:
    # DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU, AutocastCPU)
    names = [k.name for k in DispatchKeySet.from_raw(CPU_KEYS)]
    assert names == ["CPU", "ADInplaceOrView", "AutogradCPU", "AutocastCPU"]
    assert DispatchKey.AutocastCPU.name in repr(keyroute._C._dispatch_keys(keyroute.ones(2)))
