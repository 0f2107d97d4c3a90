"""The project's own exceptions, with messages a user can act on.

This module imports nothing, so every layer (games included) may raise these.  Each protocol
has its own ``ProtocolError`` in its module (the server's and ManKalah's), both in this
hierarchy; the few exceptions outside it are signals that never leave their module (a search
cut short, a player quitting the terminal, a never-ending Bao move found).  It also holds the
one reader of the whole numbers a user types (:func:`whole_number`) and the one way an error
message repeats what the user typed (:func:`echo`), so every layer words them alike.
"""


class MancalaError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalMove(MancalaError, ValueError):
    """A move that the rules do not allow in the given position (a ``ValueError``: a value
    that is wrong, whoever catches it)."""


class BadInput(MancalaError, ValueError):
    """Input (a file, an option, a spec string) that cannot be understood (a ``ValueError``)."""


#: the most characters of a user's text that an error message repeats (:func:`echo`)
ECHO_LIMIT = 40
#: the most digits of a whole number read (far above any count, size or port; ``int`` itself
#: refuses more than 4,300 with a ``ValueError``)
MAX_DIGITS = 100


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """``text`` as an error message repeats it: quoted (``repr``), and cut to its first
    ``limit`` characters and ``…`` when longer (a 100,000-character option is not echoed
    whole)."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"


def is_whole_number(text: str, *, signed: bool = False) -> bool:
    """Whether ``text`` is a whole number written in 1 to :data:`MAX_DIGITS` of the digits 0-9
    (after a ``-`` or ``+`` when ``signed``), so ``int(text)`` reads it.  The one test of the
    package: ``str.isdigit`` also accepts ``²``, ``⁴`` or ``①``, which ``int`` refuses, and
    ``int`` accepts other scripts' digits and ``1_000``."""
    if signed and text[:1] in ("-", "+"):
        text = text[1:]
    return len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def whole_number(text: str, what: str, *, signed: bool = False) -> int:
    """``text`` (blanks around it ignored) as a whole number written in the digits 0-9 (a sign
    first when ``signed``); raises :class:`BadInput` naming ``what`` (an option, a variable,
    a field) otherwise.  Every whole number a user types is read by this."""
    stripped = str(text).strip()
    if not is_whole_number(stripped, signed=signed):
        raise BadInput(f"{what} must be a whole number (at most {MAX_DIGITS} digits 0-9); got {echo(text)}")
    return int(stripped)
