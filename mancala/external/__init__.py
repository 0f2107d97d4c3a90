"""Players from outside: OpenSpiel bots, and Python modules written against seed 003's starter API."""
