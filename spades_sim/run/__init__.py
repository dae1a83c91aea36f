"""The run tier: blocks of hands or games on a backend, their totals, saved runs and records."""
