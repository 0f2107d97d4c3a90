"""The project's own exceptions, with messages a user can act on.

This module imports nothing, so every layer (games included) may raise these.
"""


class MancalaError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalMove(MancalaError):
    """A move that the rules do not allow in the given position."""


class BadInput(MancalaError):
    """Input (a file, an option, a spec string) that cannot be understood."""
