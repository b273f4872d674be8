"""Tools built on the dispatcher: dispatch modes, counters, memory planning."""
