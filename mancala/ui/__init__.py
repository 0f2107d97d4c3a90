"""User interfaces: the terminal (and, later, the web)."""
