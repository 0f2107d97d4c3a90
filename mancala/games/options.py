"""Reading rule options given as text (spec strings, JSON) into their typed values.

Every game's rules dataclass parses its options with these, so ``true``/``yes``/``1``,
enum values and whole numbers are understood the same way everywhere, with the same
one-line errors.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from mancala.errors import BadInput

E = TypeVar("E", bound=Enum)


def enum_option(name: str, enum: type[E], value) -> E:
    """``value`` as a member of ``enum``, given the member or its value (``_`` read as ``-``)."""
    if isinstance(value, enum):
        return value
    text = str(value).strip()
    for candidate in (text, text.lower().replace("_", "-")):
        try:
            return enum(candidate)
        except ValueError:
            pass
    raise BadInput(f"{name} must be one of {', '.join(str(e.value) for e in enum)}; got {value!r}")


def bool_option(name: str, value) -> bool:
    """``value`` as a truth value: true/false, yes/no, on/off or 1/0."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise BadInput(f"{name} must be true or false; got {value!r}")


def int_option(name: str, value) -> int:
    """``value`` as a whole number."""
    if isinstance(value, bool):
        raise BadInput(f"{name} must be a whole number; got {value!r}")
    try:
        return int(str(value).strip()) if isinstance(value, str) else int(value)
    except (TypeError, ValueError):
        raise BadInput(f"{name} must be a whole number; got {value!r}") from None
