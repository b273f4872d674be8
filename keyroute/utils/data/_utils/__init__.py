"""The DataLoader's internals: collation, fetching, worker processes."""

from . import collate, fetch, worker  # noqa: F401
