"""``python -m mancala``: the same as the ``mancala`` command."""

from mancala.cli.main import entry

entry()
