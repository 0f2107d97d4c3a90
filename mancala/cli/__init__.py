"""The one command, ``mancala``: :func:`main` reads the subcommand and hands it to its module
(:mod:`.main` for play, match, explain, solve and analyse; :mod:`.arena`, :mod:`.book`,
:mod:`.homework`; the server's, the agent's and the ManKalah commands register themselves)."""

from mancala.cli.main import entry, main

__all__ = ["entry", "main"]
