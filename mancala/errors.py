"""The project's own exceptions, with messages a user can act on.

This module imports nothing, so every layer (games included) may raise these.  Each protocol
has its own ``ProtocolError`` in its module (the server's and ManKalah's), both in this
hierarchy; the few exceptions outside it are signals that never leave their module (a search
cut short, a player quitting the terminal, a never-ending Bao move found).
"""


class MancalaError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalMove(MancalaError, ValueError):
    """A move that the rules do not allow in the given position (a ``ValueError``: a value
    that is wrong, whoever catches it)."""


class BadInput(MancalaError, ValueError):
    """Input (a file, an option, a spec string) that cannot be understood (a ``ValueError``)."""
