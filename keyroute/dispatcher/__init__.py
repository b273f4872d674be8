"""The dispatcher core: keys, key sets, thread-local state, schemas, operators."""
