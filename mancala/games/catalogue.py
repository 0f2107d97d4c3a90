"""The catalogue of games: every game registers itself here, in its own module, with what
the rest of the program needs to offer it — its name, title, a line of text, how to build it
from options given as text, its rules type (the frozen options dataclass, whose fields the
new-game form and ``--help`` list) and its named presets.

Everything outside ``games/`` asks the catalogue (or the game object) what a game is and
can do, never ``isinstance`` on a game class: a new game is one new module that calls
:func:`register`, plus a line in ``games/__init__.py`` importing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from mancala.errors import BadInput


@dataclass(frozen=True)
class GameInfo:
    """One game of the catalogue."""

    #: the registry name, the first word of a game spec (``kalah``)
    name: str
    #: how people call it (``Kalah``, ``Bao la Kiswahili``)
    title: str
    #: one line for ``--help`` and the new-game form
    text: str
    #: the game from its options as text (``{"pits": "4"}``); raises :class:`BadInput`
    make: Callable[[dict[str, str]], Any]
    #: the frozen options type (``to_dict``/``from_dict``/``describe``), or None for a game
    #: without options
    rules: type | None = None
    #: named presets of the rules (``standard``, ``empty-capture``, ...)
    presets: Mapping[str, Any] = field(default_factory=dict)
    #: the preset the game starts from when none is named
    default_preset: str | None = None
    #: the seeds in a position, all of them (board, stores, hands), for a game whose seeds
    #: are only ever moved, never created or destroyed (None: not such a game)
    seeds: Callable[[Any], int] | None = None
    #: whether a game may repeat positions forever (a random playout may then be cut short)
    may_repeat: bool = False
    #: where it stands in lists (the new-game form, help): lower first, then by registration
    rank: int = 100


#: the registered games, by name, in the order they registered
CATALOGUE: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    """Add ``info`` to the catalogue (a game module does it once, when imported); the
    catalogue stays in :attr:`GameInfo.rank` order, whatever order modules are imported in."""
    CATALOGUE[info.name] = info
    ordered = sorted(CATALOGUE.values(), key=lambda i: i.rank)
    CATALOGUE.clear()
    CATALOGUE.update((i.name, i) for i in ordered)
    return info


#: the environment variable naming modules of more games (comma-separated), imported with
#: the built-in ones in every process (worker processes included)
PLUGINS_VARIABLE = "MANCALA_GAMES"


def load_plugins() -> None:
    """Import the game modules of installed packages (entry point group ``mancala.games``)
    and those named in ``$MANCALA_GAMES``: each registers its game on import."""
    import importlib  # noqa: PLC0415 (plugins are rare: keep the import off the common path)
    import os  # noqa: PLC0415
    from importlib.metadata import entry_points  # noqa: PLC0415

    names = [e.value for e in entry_points(group="mancala.games")]
    names += [n.strip() for n in os.environ.get(PLUGINS_VARIABLE, "").split(",") if n.strip()]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as e:  # noqa: BLE001 (a plugin's own failure: say which, in one line)
            raise BadInput(
                f"the game module {name!r} (from {PLUGINS_VARIABLE} or an installed package) "
                f"could not be loaded: {type(e).__name__}: {e}"
            ) from None


def normalise_name(name: str) -> str:
    """A game's registry name as a user may write it (``Tic-Tac-Toe`` -> ``tictactoe``)."""
    return name.strip().lower().replace("-", "").replace("_", "")


def game_info(game_or_name: Any) -> GameInfo:
    """The catalogue entry of a game object or a game name."""
    name = game_or_name if isinstance(game_or_name, str) else getattr(game_or_name, "name", None)
    info = CATALOGUE.get(normalise_name(str(name)))
    if info is None:
        raise BadInput(f"unknown game {name!r}; known games: {', '.join(CATALOGUE)}")
    return info


def options_with_preset(info: GameInfo, options: dict[str, str]) -> dict[str, Any]:
    """``options`` on top of the preset they name (key ``preset``, else the default one)."""
    options = dict(options)
    if not info.presets:
        if "preset" in options:
            raise BadInput(f"{info.name} has no presets")
        return options
    preset = str(options.pop("preset", info.default_preset)).strip().lower()
    if preset not in info.presets:
        raise BadInput(f"unknown {info.title} preset {preset!r}; presets: {', '.join(info.presets)}")
    data = info.presets[preset].to_dict()
    data.update(options)
    return data


def option_text(value: Any) -> str:
    """One option's value as a game spec writes it (lists space-separated, true/false)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value))
    return str(value)


def spec_of(game: Any) -> str:
    """The spec string that rebuilds ``game``: its name, and the options that differ from
    its rules' defaults (``kalah(pits=4,empty_capture=true)``)."""
    info = game_info(game)
    if info.rules is None:
        return info.name
    default = info.rules().to_dict()
    parts = [f"{key}={option_text(value)}" for key, value in game.rules.to_dict().items() if value != default[key]]
    return f"{info.name}({','.join(parts)})" if parts else info.name


def title_of(game: Any) -> str:
    """How a game is shown: its title, with the preset its rules match or the options that
    differ from the defaults (``Kalah (standard)``, ``Bao la Kiswahili (singletons=any)``)."""
    info = game_info(game)
    if info.rules is None:
        return info.title
    preset = next((name for name, rules in info.presets.items() if rules == game.rules), None)
    described = preset or game.rules.describe()
    if not info.presets and described == "standard":
        return info.title
    return f"{info.title} ({described})"
