"""Reading rule options given as text (spec strings, JSON) into their typed values.

Every game's rules dataclass parses its options with these, so ``true``/``yes``/``1``,
enum values and whole numbers are understood the same way everywhere, with the same
one-line errors.
"""

from __future__ import annotations

import operator
from dataclasses import fields
from enum import Enum
from typing import Any, TypeVar

from mancala.errors import BadInput, echo, whole_number

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
    raise BadInput(f"{name} must be one of {', '.join(str(e.value) for e in enum)}; got {echo(value)}")


def bool_option(name: str, value) -> bool:
    """``value`` as a truth value: true/false, yes/no, on/off or 1/0."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise BadInput(f"{name} must be true or false; got {echo(value)}")


def start_option(value) -> str | None:
    """A ``start`` option (a position string) as given, or None for none (``""``, ``none``)."""
    return None if value is None or str(value).strip().lower() in ("", "none") else str(value)


def int_option(name: str, value) -> int:
    """``value`` as a whole number: an ``int``, or text read by :func:`~mancala.errors.whole_number`
    (the digits 0-9, a sign allowed)."""
    if isinstance(value, str):
        return whole_number(value, name, signed=True)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if not isinstance(value, bool) and hasattr(value, "__index__"):
        return operator.index(value)  # an int, numpy's too
    raise BadInput(f"{name} must be a whole number; got {echo(value)}")


class RulesOptions:
    """``to_dict``/``from_dict`` for a game's frozen rules dataclass, written once: every
    option as JSON (enums by value, tuples as lists) and back, each value read by the class's
    :meth:`coerce_option`; an unknown option is a one-line :class:`BadInput` naming
    :attr:`OPTIONS_OF` and the known ones."""

    #: whose options these are, for messages (``Kalah``)
    OPTIONS_OF = "game"
    #: how :meth:`describe` names the rules when every option has its default (``abapa``)
    DEFAULT_NAME = "standard"

    def describe(self) -> str:
        """The options that differ from the defaults, as ``key=value`` text (lists written
        with spaces, truth values as true/false), or :attr:`DEFAULT_NAME` when none does."""
        data, default = self.to_dict(), type(self)().to_dict()
        parts = [f"{k}={_option_text(v)}" for k, v in data.items() if v != default[k]]
        return ", ".join(parts) or self.DEFAULT_NAME

    @classmethod
    def coerce_option(cls, name: str, value: Any) -> Any:
        """One option given as text (or JSON) as the field's type (each game says how)."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """A JSON-ready dict of every option (enums by value, tuples as lists)."""
        out = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = (
                value.value if isinstance(value, Enum) else (list(value) if isinstance(value, tuple) else value)
            )
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Any:
        """Rules from :meth:`to_dict` output (or any subset of its keys), values as text or JSON."""
        known = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        kwargs = {}
        for name, value in data.items():
            if name not in known:
                raise BadInput(f"unknown {cls.OPTIONS_OF} option {echo(name)}; known: {', '.join(known)}")
            kwargs[name] = cls.coerce_option(name, value)
        return cls(**kwargs)


def _option_text(value: Any) -> str:
    """One option's JSON value as :meth:`RulesOptions.describe` writes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)
