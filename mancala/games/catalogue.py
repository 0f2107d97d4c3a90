"""The catalogue of games: every game registers itself here, in its own module, with what
the rest of the program needs to offer it — its name, title, a line of text, how to build it
from options given as text, its rules type (the frozen options dataclass, whose fields the
new-game form and ``--help`` list) and its named presets.

Everything outside ``games/`` asks the catalogue (or the game object) what a game is and
can do, never ``isinstance`` on a game class nor its name: a game declares what it is once,
in its :class:`Traits` (what python-chess puts on a variant class and OpenSpiel in its
``GameType``), and the optional methods it offers as :data:`CAPABILITIES`.  A new game is one
new module that calls :func:`register`, plus a line in ``games/__init__.py`` importing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from mancala.errors import BadInput, echo

#: the optional capabilities a game may declare (:attr:`Traits.capabilities`), each with the
#: methods it promises; the conformance suite holds every game to exactly what it declares
CAPABILITIES: dict[str, tuple[str, ...]] = {
    # a one-line position notation: ``position_string(state)`` and ``parse_position(text)``
    "position": ("position_string", "parse_position"),
    # which text of the picture shows which cell (:data:`mancala.games.base.Segment`):
    # ``layout(state, view=None)``, so a UI can mark the cells a move changed
    "layout": ("layout",),
    # how moves are written, in words, for a UI's help: ``move_help()``
    "move_help": ("move_help",),
    # players who may swap seats during a game (Kalah's pie rule): ``seat_name(seat)``
    "seat_names": ("seat_name",),
    # a winner not given by the score's sign (Bao's ends): ``winner(state)``
    "winner": ("winner",),
    # game records as players keep them outside this program (PlayOK's files):
    # ``read_game_text(text) -> (rules options, moves as text)`` (raises BadInput for a text
    # that is not such a record) and ``write_game_text(start, moves) -> text``
    "game_text": ("read_game_text", "write_game_text"),
}

#: what the values of a game's analysis count: the margin in its unit, an evaluation's
#: points, or the outcome alone (win, draw, loss)
VALUE_UNITS = ("seeds", "eval", "outcome")


@dataclass(frozen=True)
class Traits:
    """What a game is, declared once where it registers, for every layer above the rules:
    how the page draws it, what its values count, which evaluation plays it by default and
    which optional methods it offers.  Nothing outside ``games/`` tells games apart by name."""

    #: the board kind the page and the server's views draw (``kalah``: pits and two stores;
    #: ``oware``: two rows of houses; ``bao``: four rows; ``tictactoe``: a 3 x 3 grid; ``text``: the
    #: game's text picture with its moves as buttons)
    board: str = "text"
    #: the seat names of a board with two sides the page may turn (``("South", "North")``),
    #: or None for a board without sides
    sides: tuple[str, str] | None = None
    #: what a game's margin counts (``seeds``), or None when only the outcome counts
    margin_unit: str | None = None
    #: what the analysis' values count: one of :data:`VALUE_UNITS`
    value_unit: str = "outcome"
    #: the evaluation players use when none is named (a name of ``evaluation``'s
    #: ``EVALUATIONS``); None: the game's margin
    evaluation: str | None = None
    #: the family of weighted evaluation terms (``evaluation/terms.py``) players may combine,
    #: or None for a game without terms
    terms: str | None = None
    #: the evaluation of the teaching views (``mancala explain``, the search tree), chosen to
    #: read well in a lesson; None: :attr:`evaluation`
    teaching_evaluation: str | None = None
    #: whether positions may repeat forever (a random playout may then be cut short)
    may_repeat: bool = False
    #: the review's move classes by the least loss each takes, largest first
    #: (``(("blunder", 6), ("mistake", 3), ("inaccuracy", 1))``); None: those of the value unit
    #: (``mancala.analysis.MOVE_CLASSES``, docs/web.md)
    move_classes: tuple[tuple[str, float], ...] | None = None
    #: the optional capabilities it offers (keys of :data:`CAPABILITIES`)
    capabilities: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = set(self.capabilities) - set(CAPABILITIES)
        if unknown:
            raise ValueError(f"unknown capabilities {sorted(unknown)}; known: {', '.join(CAPABILITIES)}")
        if self.value_unit not in VALUE_UNITS:
            raise ValueError(f"value_unit must be one of {', '.join(VALUE_UNITS)}, got {self.value_unit!r}")


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
    #: what the game is, for the layers above the rules
    traits: Traits = field(default_factory=Traits)
    #: the rules options that start a game at a position written in the game's notation
    #: (``4-4-4-4-4-4-0-4-4-4-4-4-4-0-S`` -> ``{"pits": 6, "start": ..., "first": 0}``);
    #: None: the text itself as the rules' ``start`` option (when the rules have one).  Raises
    #: :class:`BadInput` saying what was expected
    start_options: Callable[[str], dict[str, Any]] | None = None
    #: how the rules' ``start`` option is written, for a form's placeholder
    start_text: str = "a position string (docs/web.md, Links)"
    #: where it stands in lists (the new-game form, help): lower first, then by registration
    rank: int = 100
    #: other names people use for it (``togyzqumalaq``), read as :attr:`name` everywhere a game
    #: is named (written as :func:`normalise_name` leaves them)
    aliases: tuple[str, ...] = ()


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


def has_capability(game_or_name: Any, capability: str) -> bool:
    """Whether a game declares ``capability`` (a key of :data:`CAPABILITIES`), and so offers
    its methods."""
    if capability not in CAPABILITIES:
        raise ValueError(f"unknown capability {capability!r}; known: {', '.join(CAPABILITIES)}")
    return capability in game_info(game_or_name).traits.capabilities


def traits_of(game_or_name: Any) -> Traits:
    """The traits of a game object or a game name."""
    return game_info(game_or_name).traits


def takes_start(info: GameInfo) -> bool:
    """Whether the game's rules take a start position (a ``start`` option)."""
    return info.rules is not None and "start" in getattr(info.rules, "__dataclass_fields__", {})


def start_options_of(info: GameInfo, text: str) -> dict[str, Any]:
    """The rules options that start ``info``'s game at the position ``text`` (written as its
    ``position_string`` writes it); raises :class:`BadInput` for a game without a position
    notation its rules can start from."""
    if info.start_options is not None:
        return info.start_options(text)
    if not takes_start(info):
        raise BadInput(f"{info.name} has no position notation: open it by its moves instead")
    return {"start": text}


def normalise_name(name: str) -> str:
    """A game's registry name as a user may write it (``Tic-Tac-Toe`` -> ``tictactoe``)."""
    return name.strip().lower().replace("-", "").replace("_", "")


def find_game(name: str) -> GameInfo | None:
    """The catalogue entry a game name (or one of its aliases) names, written any way
    :func:`normalise_name` reads, or None."""
    key = normalise_name(name)
    info = CATALOGUE.get(key)
    if info is None:
        info = next((i for i in CATALOGUE.values() if key in i.aliases), None)
    return info


def game_info(game_or_name: Any) -> GameInfo:
    """The catalogue entry of a game object or a game name."""
    name = game_or_name if isinstance(game_or_name, str) else getattr(game_or_name, "name", None)
    info = find_game(str(name))
    if info is None:
        raise BadInput(f"unknown game {echo(name)}; known games: {', '.join(CATALOGUE)}")
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
        raise BadInput(f"unknown {info.title} preset {echo(preset)}; presets: {', '.join(info.presets)}")
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
    options = game.rules.to_dict()
    if options.get("start") is not None:  # a game from a set position (a link): its rules, then where it starts
        rules = {k: v for k, v in options.items() if k != "start"}
        preset = next(
            (name for name, r in info.presets.items() if {**r.to_dict(), "start": None} == {**rules, "start": None}),
            None,
        )
        default = info.rules().to_dict()
        differ = [f"{k}={option_text(v)}" for k, v in rules.items() if v != default[k]]
        described = preset or ", ".join(differ)
        return f"{info.title} ({described + ', ' if described else ''}from a set position)"
    preset = next((name for name, rules in info.presets.items() if rules == game.rules), None)
    described = preset or game.rules.describe()
    if not info.presets and described == "standard":
        return info.title
    return f"{info.title} ({described})"
