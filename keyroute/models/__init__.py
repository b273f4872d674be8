"""Models built from keyroute.nn: Llama (planning and small real runs), MiniLM (sentence
embeddings with real weights)."""
