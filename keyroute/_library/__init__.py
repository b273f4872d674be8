"""Custom operators (torch._library)."""
