"""PyTorch 2.13's public names (keyroute/_pytorch_names.txt, recorded by
tools/record_api_names.py): each exists in keyroute or is listed in known_missing.txt, which
may only shrink; a listed name raises a NotImplementedError naming it."""

from __future__ import annotations

import os

import pytest

from keyroute._missing import MissingFromKeyroute
from tools.record_api_names import MISSING_FILE, NAMESPACES, keyroute_objects, missing, read_names


def _listed() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {ns: [] for ns in NAMESPACES}
    with open(MISSING_FILE) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            ns, name = line.split()
            out[ns].append(name)
    return out


NAMES = read_names()
LISTED = _listed()


def test_names_are_recorded() -> None:
    assert os.path.exists(MISSING_FILE)
    assert len(NAMES["torch"]) > 500 and len(NAMES["Tensor"]) > 400


@pytest.mark.parametrize("ns", NAMESPACES)
def test_missing_list_is_exact(ns: str) -> None:
    now = set(missing(NAMES)[ns])
    listed = set(LISTED[ns])
    implemented = sorted(listed - now)
    assert not implemented, (
        f"{ns}: now implemented, remove from tests/api/known_missing.txt: {implemented[:20]}"
    )
    lost = sorted(now - listed)
    assert not lost, f"{ns}: PyTorch names keyroute lost (not in the list): {lost[:20]}"


@pytest.mark.parametrize("ns", NAMESPACES)
def test_missing_names_raise_not_implemented(ns: str) -> None:
    import keyroute

    # Tensor methods are looked up on an instance (the class attribute lookup is Python's).
    obj = keyroute.zeros(2) if ns == "Tensor" else keyroute_objects()[ns]
    for name in LISTED[ns]:
        with pytest.raises(NotImplementedError, match=name):
            getattr(obj, name)
        assert not hasattr(obj, name)  # also an AttributeError: hasattr/getattr(default) work


def test_tensor_method_missing_on_instances() -> None:
    import keyroute

    name = LISTED["Tensor"][0]
    with pytest.raises(MissingFromKeyroute, match=f"torch.Tensor.{name}"):
        getattr(keyroute.zeros(2), name)


def test_other_names_are_plain_attribute_errors() -> None:
    import keyroute

    with pytest.raises(AttributeError) as e:
        keyroute.not_a_pytorch_name  # noqa: B018
    assert not isinstance(e.value, NotImplementedError)
    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'nope'"):
        keyroute.zeros(1).nope  # noqa: B018
