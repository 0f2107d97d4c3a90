"""The player spec grammar: ``kind[:key=value,...]`` (``alphabeta:depth=6``,
``best:nodes=20000,eval=store:1,extra:0.5``), and the bounds every kind's options share."""

from __future__ import annotations

import re
from typing import Any, Callable

from mancala.errors import BadInput, echo, whole_number

#: the deepest search a player spec may ask for, in turns (deeper never finishes anyway)
MAX_DEPTH = 64
#: the most thinking time a player spec may ask for, per move (the ManKalah referee's whole game)
MAX_MOVE_SECONDS = 3600.0


def parse_player_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``kind:key=value,...`` into the kind and its options."""
    m = re.fullmatch(r"\s*([a-z-]+)\s*(?::(.*))?", spec, flags=re.I)
    if not m:
        raise BadInput(
            f"cannot read player {echo(spec)}: expected e.g. human, random, greedy, "
            f"minimax:depth=4, alphabeta:depth=6, beginner, easy, medium, hard, expert, strongest, best:time=1"
        )
    options: dict[str, str] = {}
    last = None
    for part in filter(None, (p.strip() for p in (m.group(2) or "").split(","))):
        if "=" not in part and last == "eval":  # eval=store:1,extra:0.5: more weighted terms
            options["eval"] += "," + part
            continue
        if "=" not in part:
            raise BadInput(f"cannot read {echo(part)} in player {echo(spec)}: expected key=value")
        key, value = part.split("=", 1)
        last = key.strip().lower()
        options[last] = value.strip()
    return m.group(1).lower(), options


def take_option(options: dict[str, str], name: str, convert: Callable[[str], Any], default, spec: str):
    """Remove option ``name`` from a player spec's ``options`` and convert it (``default`` when
    absent; ``int`` reads it by :func:`~mancala.errors.whole_number`); a value that does not
    convert is one line naming the player ``spec``."""
    if name not in options:
        return default
    value = options.pop(name)
    if convert is int:
        return whole_number(value, f"player {echo(spec)}: {name}", signed=True)
    try:
        return convert(value)
    except ValueError:
        raise BadInput(f"player {echo(spec)}: {name} must be a number; got {echo(value)}") from None


#: the words a spec's on/off option takes
ON_OFF = {"on": True, "yes": True, "1": True, "true": True, "off": False, "no": False, "0": False, "false": False}
