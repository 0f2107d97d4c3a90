"""The catalogue of player kinds: every kind registers itself, in its own module, with its
options, the spec the new-game form offers, a small-budget spec for the conformance tests,
and the function that builds it from a spec.  :func:`make_player` reads a spec and asks the
catalogue; the CLI's help, the server's ``players`` answer and the page's form are drawn
from :data:`PLAYER_KINDS` (and the levels, :data:`mancala.players.levels.LEVELS`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.util import find_spec
from typing import Any, Callable

from mancala.errors import BadInput, echo
from mancala.players.base import Memory, Player, restore_memory
from mancala.players.spec import parse_player_spec, take_option

#: builds a player from its spec (the whole text), its options (consumed as read) and the
#: UI's ask callback (for people)
Factory = Callable[[str, dict[str, str], Callable | None], Player]


@dataclass(frozen=True)
class PlayerKind:
    """One kind of player in the catalogue."""

    #: the kind's name, the first word of its specs
    name: str
    #: what it is, in a line
    text: str
    #: the spec the page offers for it
    spec: str
    #: a spec of this kind with a small budget (the conformance tests play it everywhere)
    quick: str
    #: builds the player (see :data:`Factory`)
    make: Factory
    #: its options (name, kind, default) as the new-game form shows them
    options: tuple[dict, ...] = ()
    #: a module it needs that is not a dependency of ours (None: always there)
    needs: str | None = None
    #: an AI (chooses its own moves) rather than a person
    ai: bool = True
    #: how the new-game form names its spec
    label: str = ""
    #: a difficulty level (listed among the levels, not among the kinds)
    level: bool = False
    #: the rest of the spec after ``name:`` is free text (a command, a file), not key=value
    raw: bool = False
    #: offered by the new-game form (outside programs are typed in as specs instead)
    listed: bool = True
    #: other names of the kind (``ab`` for ``alphabeta``)
    aliases: tuple[str, ...] = ()
    #: where it stands in lists (the new-game form, help): lower first, then by registration
    rank: int = 100
    #: how the page names a player of this kind: a format with its options (``{time}``,
    #: ``{depth}``; their defaults when the spec leaves them out), ``{rest}`` for a raw kind's text;
    #: alternatives split by ``|`` (the first whose options the spec names is used)
    title: str = ""
    #: which games it can play (a game -> whether it plays it); None: every game
    plays: Callable[[Any], bool] | None = None


#: the registered player kinds, by name, in the order the new-game form lists them
PLAYER_KINDS: dict[str, PlayerKind] = {}
_NAMES: dict[str, PlayerKind] = {}


def register_kind(kind: PlayerKind) -> PlayerKind:
    """Add ``kind`` to the catalogue (its module does it once, when imported); the catalogue
    stays in :attr:`PlayerKind.rank` order, whatever order modules are imported in."""
    PLAYER_KINDS[kind.name] = kind
    ordered = sorted(PLAYER_KINDS.values(), key=lambda k: k.rank)
    PLAYER_KINDS.clear()
    PLAYER_KINDS.update((k.name, k) for k in ordered)
    for name in (kind.name, *kind.aliases):
        _NAMES[name] = kind
    return kind


def kind_available(kind: PlayerKind) -> bool:
    """Whether ``kind`` can be played here (its outside package is installed)."""
    return kind.needs is None or find_spec(kind.needs) is not None


def make_player(spec: str, ask: Callable | None = None) -> Player:
    """The player described by ``spec`` (``kind[:key=value,...]``, see :mod:`mancala.players`);
    ``ask`` serves people.  An unknown kind or option is one line naming the choices."""
    if not isinstance(spec, str) or not spec.strip():
        raise BadInput("a player spec is empty: name a player, e.g. human, medium or alphabeta:depth=4")
    head = spec.strip().split(":", 1)[0].strip().lower()
    kind = _NAMES.get(head)
    if kind is not None and kind.raw:
        return kind.make(spec.strip(), {}, ask)
    name, options = parse_player_spec(spec)
    kind = _NAMES.get(name)
    if kind is None:
        raise BadInput(f"unknown player {echo(name)}: choose {', '.join(_choices_text())}")
    player = kind.make(spec, options, ask)
    if options:
        raise BadInput(f"player {echo(spec)}: unknown option(s) {echo(', '.join(options))}")
    return player


def _choices_text() -> list[str]:
    """How each kind is written, for an error message (``alphabeta:depth=...``)."""
    out = []
    for k in PLAYER_KINDS.values():
        if k.raw:
            out.append(f"{k.name}:...")
        elif k.options and not k.level:
            out.append(f"{k.name}:{k.options[0]['name']}=...")
        else:
            out.append(k.name)
    return out


def _compact(value: str) -> str:
    """An option's value as a title shows it: ``100000`` is ``100k``, ``2000000`` ``2M``."""
    try:
        number = float(value)
    except ValueError:
        return value
    if number.is_integer():
        whole = int(number)
        for size, suffix in ((1_000_000, "M"), (1_000, "k")):
            if whole >= size and whole % (size // 10) == 0:
                return f"{whole / size:g}{suffix}"
        return str(whole)
    return f"{number:g}"


def player_title(spec: str) -> str:
    """A player's name as people read it, from its spec: ``medium`` is "Medium AI",
    ``best:time=1`` "Best AI, 1 s a move", ``openspiel-mcts:sims=100000`` "OpenSpiel MCTS 100k".
    Options the kind's title does not name follow it (", eval bao"); a spec that cannot be read
    is returned as it is."""
    text = spec.strip() if isinstance(spec, str) else str(spec)
    head = text.split(":", 1)[0].strip().lower()
    kind = _NAMES.get(head)
    if kind is not None and kind.raw:
        rest = text.split(":", 1)[1].strip() if ":" in text else ""
        return kind.title.format(rest=rest) if kind.title else text
    try:
        name, options = parse_player_spec(text)
    except BadInput:
        return text
    kind = _NAMES.get(name)
    if kind is None or not kind.title:
        return text
    values = {o["name"]: str(o["default"]) for o in kind.options if o.get("default") is not None}
    values.update(options)
    # alternatives (``|``): the first whose options the spec names, else the first the defaults fill
    choices = [(alt, set(re.findall(r"{(\w+)}", alt))) for alt in kind.title.split("|")]
    chosen = next((c for c in choices if c[1] and c[1] <= options.keys()), None)
    chosen = chosen or next((c for c in choices if c[1] <= values.keys()), None)
    if chosen is None:  # an option without a default left out of the spec: the title cannot say it
        return text
    title, named = chosen
    title = title.format(**{k: _compact(v) for k, v in values.items() if k in named})
    extra = [f"{k} {v}" for k, v in options.items() if k not in named]
    return ", ".join([title, *extra])


def rebuild_player(spec: str, memory: Memory | None = None) -> Player:
    """The player of ``spec`` in the state ``memory`` describes: how a worker process, an
    arena worker or a Ray task takes up a player it was sent as data."""
    return restore_memory(make_player(spec), memory)


def player_choices() -> list[tuple[str, str]]:
    """(spec, label) of every player the new-game form offers, in its order: a person, the
    levels weakest first, then each AI kind that can be played here."""
    kinds = [k for k in PLAYER_KINDS.values() if k.listed and kind_available(k)]
    return (
        [(k.spec, k.label) for k in kinds if not k.ai]
        + [(k.spec, k.label) for k in kinds if k.level]
        + [(k.spec, k.label) for k in kinds if k.ai and not k.level]
    )


def ai_specs(quick: bool = False) -> list[str]:
    """Every AI a user can choose by name: the levels, then one spec of each AI kind that can
    be played here (``quick``: their small-budget specs); outside programs excluded."""
    kinds = [k for k in PLAYER_KINDS.values() if k.ai and k.listed and kind_available(k)]
    return [k.spec for k in kinds if k.level] + [k.quick if quick else k.spec for k in kinds if not k.level]


def option(spec: str, options: dict[str, str], name: str, convert: Callable, default):
    """Take option ``name`` out of a spec's ``options`` (see :func:`take_option`)."""
    return take_option(options, name, convert, default, spec)
