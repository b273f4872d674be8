"""keyroute._dispatch (torch._dispatch): the Python dispatcher."""
