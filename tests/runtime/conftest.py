"""Fixtures for the runtime-module tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from keyroute import _naming


@pytest.fixture
def torch_names() -> Iterator[None]:
    """keyroute printing its names as `torch.` (as under `keyroute run`), restored after."""
    _naming.set_name("torch")
    try:
        yield
    finally:
        _naming.set_name("keyroute")
