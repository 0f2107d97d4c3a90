"""Bao la Kiswahili (Zanzibar tournament rules, de Voogt as formalised by Donkers).

Section numbers ``§n`` below refer to the rules text the project follows, which
``docs/bao.md`` cites; it explains the rules in short and every option.

Board layout.  Each player owns two rows of eight holes: the *front* row (next
to the opponent) and the *back* row.  ``BaoState.holes[p]`` lists player
``p``'s 16 holes in that player's **clockwise** sowing order, as seen by the
player (the same indexing as Donkers' engine)::

    index   0   1   2   3   4   5   6   7 |  8   9  10  11  12  13  14  15
    name   A1  A2  A3  A4  A5  A6  A7  A8 | B8  B7  B6  B5  B4  B3  B2  B1

``A`` is the front row, ``B`` the back row (North writes ``a``/``b``); holes
are numbered 1-8 from the owner's left.  ``+1`` (mod 16) is clockwise: right
along the front row, round the right end into the back row, left along it and
up into A1 again; ``-1`` is anticlockwise.  Sowing never leaves the mover's
own 16 holes.  Front hole ``i`` faces the opponent's front hole ``7 - i``
(A1 faces a8, A5 faces a4).  The kichwa are A1 and A8 (indices 0 and 7), the
kimbi A2 and A7 (1 and 6), the nyumba (house) is A5 (index 4).

South (player 0) owns the bottom rows and moves first; North is player 1.
Diagrams are drawn from South's side, rows top to bottom: North back (b8..b1),
North front (a8..a1), South front (A1..A8), South back (B1..B8).

Move notation (Donkers / de Voogt): ``<row><hole><dir><house><takasa>``,
e.g. ``A5R>``, ``B2L``, ``A6L*``; North in lower case (``a6L*``).

* ``L``/``R``: the way the hand moves along the start hole's row, seen by the
  mover.  Front row: ``R`` = clockwise, ``L`` = anticlockwise; back row:
  ``L`` = clockwise, ``R`` = anticlockwise.
* In a namua capture the letter names the kichwa the captured seeds enter
  (``L`` = left kichwa, sown clockwise; ``R`` = right kichwa, anticlockwise);
  it is left out when the kichwa is forced (captures from A1, A2, A7, A8).
* ``>``: the player plays the house (safari) when the move reaches his
  functional nyumba with nothing to capture (namua).
* ``*``: a takasa (a move that does not start with a capture); ``**``: a
  takasa that takasias the opponent (§2.3, §11), printed so and accepted only there.

The row letter may be left out when reading (front row), and so may ``*``
(whether a move captures is decided by the position).  The row letter's case names
the side (A/B South, a/b North): the other side's letters are refused.  A move is the player's
whole choice; everything after it (captures, relays, direction changes) is
forced, and :attr:`BaoState.last` records what happened.

Never-ending moves are illegal (Donkers' rule 1.5a).  They are found exactly, by a
repeated position at a lap boundary, except that a move which has neither ended
nor repeated after ``BaoRules.max_laps`` laps (a million by default) counts as
never-ending: some repeat only after hundreds of millions of laps.  Options where
the sources disagree are fields of :class:`BaoRules`, with our choices as defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum

from mancala.errors import BadInput, IllegalMove, echo, is_whole_number
from mancala.games.base import RulesGame, Segment, layout_text
from mancala.games.catalogue import GameInfo, Traits, register
from mancala.games.options import bool_option, enum_option, int_option, start_option

SOUTH, NORTH = 0, 1
#: index of the nyumba (A5) in a player's 16 holes
NYUMBA = 4
#: sowing directions: +1 clockwise, -1 anticlockwise (as the mover sees them)
CW, ACW = 1, -1
#: seeds each player has in stock at the start
START_STOCK = 22
#: the start position of each player (South and North alike): 6 in A5, 2 in A6 and A7
START_HOLES = (0, 0, 0, 0, 6, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#: laps kept in a move's record (BaoEvent.laps); the count (BaoEvent.lap_count) is always exact
MAX_RECORDED_LAPS = 1000

PLAYER_NAMES = ("South", "North")


class SingletonRule(Enum):
    """When a namua takasa may start from a hole holding a single seed (rules §14 #4).

    In every reading singletons are allowed when no front hole holds two or more.
    """

    #: while the mover still owns his nyumba, with any number of seeds (Donkers 2.4c, de Voogt 2001)
    OWNED = "owned"
    #: only while the nyumba is functional: owned with 6 or more (Board Game Arena, AbstractPlay)
    FUNCTIONAL = "functional"
    #: always (Nierse: any hole "with one or more seeds")
    ANY = "any"


class MtajiHouse(Enum):
    """What becomes of a nyumba still owned when the mtaji stage begins (rules §14 #6).

    In every reading the nyumba has no namua privileges in mtaji (no stop, no tax,
    no start ban); while owned it cannot be takasia'd.
    """

    #: owned until emptied or captured, or until the first capture of the mtaji stage
    #: (by either player) ends both players' ownership (Donkers 2.5a, 3.2)
    FIRST_CAPTURE = "first-capture"
    #: ownership ends when the owner's stock runs out (Donkers' engine)
    STOCK_EMPTY = "stock-empty"
    #: owned until emptied or captured (Board Game Arena, AbstractPlay)
    UNTIL_EMPTIED = "until-emptied"


@dataclass(frozen=True)
class BaoRules:
    """The options of Bao where the sources disagree (``docs/bao.md``); defaults are our choices."""

    #: §14 #3: an owned nyumba with fewer than 6 seeds, the only occupied front hole in namua,
    #: is taxed (2 seeds sown, Donkers' engine) instead of being sown out like any hole (Donkers' text)
    tax_small_house: bool = False
    #: §14 #4: when a namua takasa may start from a single seed
    singletons: SingletonRule = SingletonRule.OWNED
    #: §14 #6: the nyumba in the mtaji stage
    mtaji_house: MtajiHouse = MtajiHouse.FIRST_CAPTURE
    #: §11: the takasia rule at all (off: no hole is ever blocked)
    takasia: bool = True
    #: §14 #9: a hole holding a single seed cannot be takasia'd (de Voogt 2001; off = Donkers' engine)
    takasia_exempt_singletons: bool = True
    #: §14 #11: after a takasia the blocking player must capture the blocked hole on his next
    #: move when he can (K.I.B.A., Board Game Arena, AbstractPlay)
    takasia_forces_capture: bool = False
    #: engineering, not a rule (§13): the game is adjudicated a draw after this many plies
    #: (0: never)
    max_plies: int = 1000
    #: engineering, not a rule (§13): a move that has neither ended nor repeated after this
    #: many laps counts as never-ending (0: no limit).  Repetition is found exactly below it,
    #: but some never-ending moves repeat only after more than 10^8 laps.
    max_laps: int = 1_000_000
    #: a start position other than the usual one, as a position string
    #: (see :meth:`Bao.position_string`), or None for the usual start
    start: str | None = None

    def __post_init__(self) -> None:
        for name in ("max_plies", "max_laps"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise BadInput(f"{name} must be a whole number >= 0 (0 = no limit), got {echo(value)}")
        if self.start is not None:  # checked under these rules, and written the one way
            object.__setattr__(self, "start", write_position(read_position(self.start, self)))

    def to_dict(self) -> dict:
        """A JSON-ready dict of every option (enums by value)."""
        return {
            name: (v.value if isinstance(v, Enum) else v) for name in _RULE_DEFAULTS for v in (getattr(self, name),)
        }

    @classmethod
    def from_dict(cls, data: dict) -> "BaoRules":
        """Rules from :meth:`to_dict` output or text options (``{"singletons": "any"}``)."""
        kwargs = {}
        for name, value in data.items():
            key = str(name).strip().replace("-", "_")
            if key not in _RULE_DEFAULTS:
                raise BadInput(f"unknown Bao option {echo(name)}; known: {', '.join(_RULE_DEFAULTS)}")
            kwargs[key] = _coerce_option(key, value)
        return cls(**kwargs)

    def describe(self) -> str:
        """The options that differ from the defaults, as ``key=value`` text."""
        default = BaoRules().to_dict()
        parts = [f"{k}={v}" for k, v in self.to_dict().items() if v != default[k]]
        return ", ".join(parts) or "standard"


_RULE_DEFAULTS = {name: f.default for name, f in BaoRules.__dataclass_fields__.items()}
_ENUM_OPTIONS = {"singletons": SingletonRule, "mtaji_house": MtajiHouse}


def _coerce_option(name: str, value):
    """Turn an option value given as text (or JSON) into the field's type."""
    if name in _ENUM_OPTIONS:
        return enum_option(name, _ENUM_OPTIONS[name], value)
    if name in ("max_plies", "max_laps"):
        return int_option(name, value)
    if name == "start":
        return start_option(value)
    return bool_option(name, value)


# --- moves ----------------------------------------------------------------


def hole_name(player: int, index: int) -> str:
    """``A1``..``A8``, ``B8``..``B1`` for South's indices 0..15; lower case for North."""
    name = f"A{index + 1}" if index < 8 else f"B{16 - index}"
    return name.lower() if player == NORTH else name


@dataclass(frozen=True)
class BaoMove:
    """A player's whole choice for one move.

    ``hole`` is the start hole (0..15, the player's own indexing; for a namua move the
    front hole the stock seed goes into).  ``direction`` is the direction of the first
    lap: +1 clockwise, -1 anticlockwise; in a namua capture it is the direction of the
    captured seeds (+1 from the left kichwa, -1 from the right one).  ``capture``: the
    move starts with a capture (else it is a takasa).  ``namua``: the mover still had
    stock.  ``house``: play the house (``>``) when the decision point comes.
    """

    player: int
    hole: int
    direction: int
    capture: bool
    namua: bool
    house: bool = False
    #: the takasa takasias the opponent (written ``**``); set on the moves the rules
    #: generate, and not part of a move's identity (equality and hashing ignore it)
    takasia: bool = field(default=False, compare=False)

    @property
    def letter(self) -> str:
        """The direction letter as written (``""`` when the kichwa of a namua capture is forced)."""
        if self.capture and self.namua:
            if self.hole in (0, 1, 6, 7):
                return ""
            return "L" if self.direction == CW else "R"
        if self.hole < 8:
            return "R" if self.direction == CW else "L"
        return "L" if self.direction == CW else "R"

    def __str__(self) -> str:
        return (
            hole_name(self.player, self.hole)
            + self.letter
            + (">" if self.house else "")
            + ("" if self.capture else "**" if self.takasia else "*")
        )


class End(Enum):
    """Why a move ended."""

    EMPTY_HOLE = "empty hole"
    HOUSE_STOP = "stopped in nyumba"
    TAKASA_HOUSE = "takasa stops in functional nyumba"
    TAKASIA = "takasa stops in takasia'd hole"
    WIN = "opponent front row empty"


@dataclass(frozen=True)
class Lap:
    """One sowing of a move, on the mover's side.

    ``kind``: ``sow`` (the first sowing of a takasa or mtaji move), ``tax`` (the two seeds
    taken from the nyumba), ``capture`` (captured seeds, entered at a kichwa), ``relay``
    (endelea: the contents of the hole where the last lap ended) or ``house`` (the nyumba
    played: safari).  The seeds go into ``first``, ``first + direction``, ... and the last
    one into ``last`` (hole indices of the mover, mod 16).  ``captured`` is the opponent's
    hole emptied for a capture lap.
    """

    kind: str
    first: int
    direction: int
    seeds: int
    last: int
    captured: int | None = None

    def holes(self) -> tuple[int, ...]:
        """Every hole a seed of this lap was dropped into, in order (repeats for 16+ seeds)."""
        return tuple((self.first + k * self.direction) & 15 for k in range(self.seeds))


@dataclass(frozen=True)
class BaoEvent:
    """What the move that produced a state did (for players and UIs)."""

    move: BaoMove
    player: int
    #: (opponent hole, seeds) for each capture, in order
    captures: tuple[tuple[int, int], ...]
    #: the laps, in order (only the first MAX_RECORDED_LAPS of a very long move)
    laps: tuple[Lap, ...]
    #: how many laps the move had
    lap_count: int
    #: seeds sown in all the laps
    seeds_sown: int
    end: End
    #: the player's own hole where the last lap ended
    end_hole: int
    #: the house was played (safari)
    house_played: bool = False
    #: the move stopped in the functional nyumba (capture move, player chose to stop)
    house_stopped: bool = False
    #: the namua tax was paid (two seeds sown from the nyumba)
    taxed: bool = False
    #: players whose nyumba ownership ended with this move
    houses_lost: tuple[int, ...] = ()
    #: the opponent's front hole this move takasia'd, if any
    takasia: int | None = None
    #: the winner, when the move emptied the opponent's front row
    winner: int | None = None


@dataclass(frozen=True)
class BaoState:
    """An immutable Bao position.  Equality ignores :attr:`last` (how we got here)."""

    #: holes[p] = player p's 16 holes in his own clockwise order (see the module doc)
    holes: tuple[tuple[int, ...], tuple[int, ...]]
    #: seeds in each player's stock
    stock: tuple[int, int]
    #: whether each player still owns his nyumba
    owns: tuple[bool, bool]
    #: the player to move (0 South, 1 North)
    player: int
    #: the front hole (0..7) of the player to move that is takasia'd for this move
    takasia: int | None = None
    #: (rule ``takasia_forces_capture``) the opponent's hole the player to move must capture
    must_capture: int | None = None
    #: moves played so far
    ply: int = 0
    #: set when a move emptied the opponent's front row; the loss of a player who
    #: cannot move is found by :meth:`Bao.is_terminal` / :meth:`Bao.winner`
    winner: int | None = None
    #: the game ended by a capture or was adjudicated a draw at the ply limit
    finished: bool = False
    #: the move that led here and what it did
    last: BaoEvent | None = field(default=None, compare=False, repr=False)
    #: cache of the legal moves' outcomes (per rules), filled on first use
    _cache: tuple | None = field(default=None, init=False, compare=False, repr=False)

    @property
    def namua(self) -> bool:
        """Whether the player to move is in the namua stage (has stock)."""
        return self.stock[self.player] > 0

    def front(self, player: int) -> tuple[int, ...]:
        """``player``'s front row, A1..A8 in his own numbering."""
        return self.holes[player][:8]

    def functional(self, player: int) -> bool:
        """Whether ``player``'s nyumba is functional: owned and holding 6 or more."""
        return self.owns[player] and self.holes[player][NYUMBA] >= 6

    def seeds(self) -> int:
        """Seeds on the board and in stock (64 in a real game)."""
        return sum(self.holes[0]) + sum(self.holes[1]) + self.stock[0] + self.stock[1]


@dataclass
class _Outcome:
    """The result of simulating one legal move (the board after it and what it did)."""

    holes: tuple
    owns: tuple
    event: BaoEvent
    decision: bool


class NeverEnding(Exception):
    """Raised inside the simulator for a move that never ends: ``proven`` when the position
    repeated, else the move reached the rules' ``max_laps`` without ending or repeating."""

    def __init__(self, laps: int, proven: bool) -> None:
        super().__init__(f"{'repeats' if proven else 'has not ended'} after {laps} laps")
        self.laps = laps
        self.proven = proven


# --- the game -------------------------------------------------------------


def _mtaji_capture_targets(mover, other) -> set[int]:
    """The opponent's front holes (indices in the opponent's own order) that ``mover`` could
    capture with a first lap of 2-15 seeds in either direction (boards in each player's order)."""
    targets = set()
    for i in range(16):
        n = mover[i]
        if 2 <= n <= 15:
            for d in (ACW, CW):
                j = (i + d * n) & 15
                if j < 8 and mover[j] and other[7 - j]:
                    targets.add(7 - j)
    return targets


class Bao(RulesGame):
    """Bao la Kiswahili under the given rules; implements :class:`mancala.games.base.Game`."""

    name = "bao"
    rules_class = BaoRules
    rules: BaoRules

    # --- positions ------------------------------------------------------------

    def initial_state(self) -> BaoState:
        """6 seeds in each nyumba, 2 in each of the two holes to its right, 22 in each stock
        (or the rules' start position)."""
        if self.rules.start is not None:
            return read_position(self.rules.start, self.rules)
        return BaoState(
            holes=(START_HOLES, START_HOLES), stock=(START_STOCK, START_STOCK), owns=(True, True), player=SOUTH
        )

    def position(
        self,
        south,
        north,
        *,
        to_move: int = SOUTH,
        stock=(0, 0),
        owns=None,
        takasia=None,
        must_capture: int | None = None,
        ply: int = 0,
    ) -> BaoState:
        """A position from each player's 16 holes (own clockwise order, see the module doc).

        ``owns`` defaults to both nyumba owned in namua (some stock left) and none in mtaji.
        ``takasia`` is the blocked front hole of the player to move (index 0..7 or a name such
        as ``"a4"``); ``must_capture`` the opponent's hole the player to move must capture
        (rule ``takasia_forces_capture``).  Seed totals other than 64 are accepted (test positions).
        """
        holes = (tuple(int(x) for x in south), tuple(int(x) for x in north))
        if any(len(h) != 16 for h in holes):
            raise BadInput("each player has 16 holes: give 16 numbers per side")
        if any(x < 0 for h in holes for x in h):
            raise BadInput("a hole cannot hold a negative number of seeds")
        stock = (int(stock[0]), int(stock[1]))
        if min(stock) < 0:
            raise BadInput("a stock cannot be negative")
        if to_move not in (SOUTH, NORTH):
            raise BadInput(f"the player to move is 0 (South) or 1 (North), got {to_move!r}")
        if owns is None:
            owns = (True, True) if any(stock) else (False, False)
        if isinstance(takasia, str):
            takasia = parse_hole(takasia)
            if takasia >= 8:
                raise BadInput("only a front-row hole can be takasia'd")
        winner = None
        finished = False
        for p in (SOUTH, NORTH):
            if not any(holes[p][:8]):
                winner, finished = 1 - p, True
        return BaoState(
            holes=holes,
            stock=stock,
            owns=(bool(owns[0]), bool(owns[1])),
            player=to_move,
            takasia=takasia,
            must_capture=must_capture,
            ply=ply,
            winner=winner,
            finished=finished,
        )

    def from_diagram(self, text: str, **kwargs) -> BaoState:
        """A position from a diagram drawn from South's side: four rows of eight numbers
        (North back, North front, South front, South back), separated by new lines or ``/``.
        Keyword arguments as for :meth:`position`."""
        rows = [r.split() for r in re.split(r"[/\n]", text) if r.strip()]
        if len(rows) != 4 or any(len(r) != 8 for r in rows):
            raise BadInput("a Bao diagram is 4 rows of 8 numbers (North back, North front, South front, South back)")
        try:
            nb, nf, sf, sb = ([int(x) for x in r] for r in rows)
        except ValueError:
            raise BadInput("a Bao diagram holds whole numbers only") from None
        south = sf + sb[::-1]
        north = nf[::-1] + nb
        return self.position(south, north, **kwargs)

    @staticmethod
    def diagram(state: BaoState) -> str:
        """The four rows as drawn from South's side, joined with `` / ``."""
        s, n = state.holes
        rows = [n[8:16], n[7::-1], s[0:8], s[15:7:-1]]
        return " / ".join(" ".join(str(x) for x in r) for r in rows)

    def position_string(self, state: BaoState) -> str:
        """The whole position on one line (``docs/bao.md``, "Position strings"): the four rows
        of the diagram, holes joined by ``-``, then the stocks, the side to move, the nyumba
        owned and, when set, the takasia'd hole (and the hole that must be captured), all
        joined by ``/``; the start is :data:`START_POSITION`.  :meth:`parse_position` reads it."""
        return write_position(state)

    def parse_position(self, text: str) -> BaoState:
        """The state written by :meth:`position_string` (the game's history starting there, ply
        0); raises :class:`BadInput` naming the field that is wrong and what was expected."""
        return read_position(text, self.rules)

    # --- protocol -------------------------------------------------------------

    def to_move(self, state: BaoState) -> int:
        return state.player

    def legal_moves(self, state: BaoState) -> tuple[BaoMove, ...]:
        """Every legal move, ordered by start hole (A1..A8, B8..B1), then direction."""
        return tuple(self._outcomes(state))

    def apply(self, state: BaoState, move: BaoMove) -> BaoState:
        """The position after ``move``; raises IllegalMove when it is not legal."""
        outcome = self._outcomes(state).get(move)
        if outcome is None:
            raise IllegalMove(self._illegal_reason(state, move))
        return self._build(state, move, outcome)

    def is_terminal(self, state: BaoState) -> bool:
        """Over when a front row was emptied, the ply limit was reached, or the player to
        move has no legal (finite) move."""
        return state.finished or not self._outcomes(state)

    def winner(self, state: BaoState) -> int | None:
        """The winner of a finished game (None while running or for a ply-limit draw)."""
        if state.finished:
            return state.winner
        if not self._outcomes(state):
            return 1 - state.player
        return None

    def score(self, state: BaoState, player: int) -> int:
        """+1 if ``player`` has won, -1 if lost, 0 while running (or a ply-limit draw)."""
        w = self.winner(state)
        if w is None:
            return 0
        return 1 if w == player else -1

    def player_name(self, player: int, state: BaoState | None = None) -> str:
        """South or North (players never change seats in Bao)."""
        return PLAYER_NAMES[player]

    def move_help(self) -> str:
        """Bao notation, in short (for a UI's ``help``; rules §2.3)."""
        return (
            "Bao moves: <row><hole><direction><house><takasa>, e.g. A6L*, B2L, A5R>. "
            "Row: A your front row, B your back row (South writes A/B, North a/b; the row may be left out "
            "in the front row). Hole: 1-8 from your left. Direction: the way your hand moves along that "
            "row as you see it, L or R (in a namua capture: the kichwa, left or right, the captured seeds "
            "enter; left out when it is forced). '>': play the house (safari) when the move reaches your "
            "nyumba. '*': a takasa (a move without a capture; may be left out), '**' a takasa that "
            "takasias your opponent. Only legal moves are listed at the prompt."
        )

    def parse_move(self, state: BaoState, text: str) -> BaoMove:
        """The legal move written ``text`` (e.g. ``A5R>``, ``B2L``, ``7L*``, ``a6L``)."""
        raw = text.strip()
        m = re.fullmatch(r"([AaBb]?)\s*([1-8])\s*([LlRr]?)\s*(>?)\s*(\*{0,2})\s*(>?)", raw)
        moves = self._outcomes(state)
        if state.finished or not moves:
            raise IllegalMove("the game is over: no move is legal")
        if not m:
            raise IllegalMove(
                f"{raw!r} is not a Bao move: write row (A/B), hole (1-8), direction (L/R), "
                f"'>' to play the house, '*' for a takasa, e.g. A6L*; {self._expected(state)}"
            )
        row, num, letter, house1, stars, house2 = m.groups()
        if row and row.isupper() != (state.player == SOUTH):
            mine = "A/B" if state.player == SOUTH else "a/b"
            raise IllegalMove(
                f"{raw}: {row} is a row of {PLAYER_NAMES[1 - state.player]}; "
                f"{PLAYER_NAMES[state.player]} is to move and writes its rows {mine} "
                f"(e.g. {hole_name(state.player, 5)}); {self._expected(state)}"
            )
        index = int(num) - 1 if row.upper() in ("", "A") else 16 - int(num)
        letter = letter.upper()
        house = bool(house1 or house2)
        name = hole_name(state.player, index)
        same_hole = [mv for mv in moves if mv.hole == index]
        for mv, why in self._endless(state):
            if mv.hole == index and mv.house == house and (mv.letter == letter or not same_hole):
                what = (
                    "its sowing repeats forever"
                    if why.proven
                    else f"it has not ended after {why.laps} laps, the limit max_laps"
                )
                raise IllegalMove(f"{mv} would never end ({what}), so it is illegal; {self._expected(state)}")
        if not same_hole:
            raise IllegalMove(self._start_reason(state, index) + "; " + self._expected(state))
        capture = same_hole[0].capture
        if stars and capture:
            raise IllegalMove(
                f"a capture is possible, and capturing is compulsory: {raw} is written as a "
                f"takasa (*); {self._expected(state)}"
            )
        if letter:
            cands = [mv for mv in same_hole if mv.letter == letter]
            if not cands and capture and state.namua and index in (0, 1, 6, 7):
                side = "left" if index in (0, 1) else "right"
                raise IllegalMove(
                    f"a capture from {name} must enter the {side} kichwa; write {name} "
                    f"without a direction; {self._expected(state)}"
                )
            if not cands:
                raise IllegalMove(
                    f"{name} cannot be played {'left' if letter == 'L' else 'right'} here; {self._expected(state)}"
                )
        else:
            cands = same_hole
            if len({mv.letter for mv in cands}) > 1:
                raise IllegalMove(f"say which way to play {name}: L or R; {self._expected(state)}")
        chosen = [mv for mv in cands if mv.house == house]
        if not chosen:
            if house:
                raise IllegalMove(
                    f"{raw}: the move never has to decide about the house, so '>' does not "
                    f"apply; {self._expected(state)}"
                )
            raise IllegalMove(f"{raw}: this move must play the house ('>'); {self._expected(state)}")
        if stars == "**" and not chosen[0].takasia:
            raise IllegalMove(
                f"{raw}: '**' marks a takasa that takasias the opponent, and {chosen[0]} does "
                f"not; write {chosen[0]}; {self._expected(state)}"
            )
        return chosen[0]

    def render(self, state: BaoState, view: int | None = None) -> str:
        """The board as the player to move (or ``view``) sees it, with hole names.

        The viewer's rows are at the bottom, front row next to the opponent; the owned
        nyumba is shown as ``[n]``, a takasia'd hole as ``n!``.
        """
        return layout_text(self.layout(state, view))

    def layout(self, state: BaoState, view: int | None = None) -> list[list[Segment]]:
        """The board of :meth:`render` as segments naming the hole each number shows,
        ``(player, "A5")`` (see :data:`mancala.games.base.Segment`)."""
        me = state.player if view is None else view
        op = 1 - me
        w = max(2, max(len(str(x)) for h in state.holes for x in h))

        def cell(p, i):
            v = str(state.holes[p][i]).rjust(w)
            if i == NYUMBA and state.owns[p]:
                return f"[{v}]"
            if state.takasia is not None and p == state.player and i == state.takasia:
                return f" {v}!"
            return f" {v} "

        def row(label, p, idx):
            out: list[Segment] = [(f"  {label}  ", None)]
            for k, i in enumerate(idx):
                out += [(" " if k else "", None), (cell(p, i), (p, hole_name(p, i)))]
            return out

        def numbers(nums):
            return [("     " + " ".join(f" {str(n).rjust(w)} " for n in nums), None)]

        def info(p):
            house = (
                "owned" + (" (functional)" if state.functional(p) else " (not functional, under 6)")
                if state.owns[p]
                else "lost"
            )
            stage = "namua" if state.stock[p] else "mtaji"
            return (
                f"{PLAYER_NAMES[p]} ({'a/b' if p == NORTH else 'A/B'}): stock {state.stock[p]}, {stage}, "
                f"nyumba {hole_name(p, NYUMBA)} {house}"
            )

        ob, of_ = ("b", "a") if op == NORTH else ("B", "A")
        mb, mf = ("b", "a") if me == NORTH else ("B", "A")
        lines = [
            [(info(op), None)],
            numbers(range(8, 0, -1)),
            row(ob, op, range(8, 16)),
            row(of_, op, range(7, -1, -1)),
            [("     " + "-" * (8 * (w + 3) - 1), None)],
            row(mf, me, range(0, 8)),
            row(mb, me, range(15, 7, -1)),
            numbers(range(1, 9)),
            [(info(me), None)],
        ]
        if self.is_terminal(state):
            w_ = self.winner(state)
            lines.append(
                [("Game over: " + (f"{PLAYER_NAMES[w_]} wins." if w_ is not None else "draw (ply limit)."), None)]
            )
        else:
            lines.append([(f"{PLAYER_NAMES[state.player]} to move.", None)])
        return lines

    def describe_move(self, before: BaoState, move: BaoMove, after: BaoState) -> str:
        """What the move did, in words (from ``after.last``)."""
        ev = after.last
        if ev is None:
            return f"{PLAYER_NAMES[move.player]} plays {move}."
        return self.describe_event(ev)

    def describe_event(self, ev: BaoEvent) -> str:
        p, q = ev.player, 1 - ev.player
        who = PLAYER_NAMES[p]
        move = ev.move
        parts = []
        if ev.captures:
            caps = ", ".join(f"{n} from {hole_name(q, h)}" for h, n in ev.captures)
            parts.append(f"captures {caps}")
        else:
            parts.append("takasa (no capture)")
        if ev.taxed:
            parts.append("pays the tax: 2 seeds from the nyumba")
        first_dir = "clockwise" if ev.laps[0].direction == CW else "anticlockwise"
        turns = sum(1 for a, b in zip(ev.laps, ev.laps[1:]) if a.direction != b.direction)
        dir_text = first_dir + (f", direction reversed {turns}x at a kichwa" if turns else "")
        sown = ev.seeds_sown
        parts.append(
            f"{ev.lap_count} lap{'s' if ev.lap_count != 1 else ''} ({sown} seed{'s' if sown != 1 else ''}, {dir_text})"
        )
        if ev.house_played:
            parts.append("plays the house (safari)")
        for lost in ev.houses_lost:
            parts.append(f"{PLAYER_NAMES[lost]} loses the nyumba")
        end = {
            End.EMPTY_HOLE: f"ends in {hole_name(p, ev.end_hole)} (was empty)",
            End.HOUSE_STOP: f"stops in the nyumba {hole_name(p, ev.end_hole)} (house kept)",
            End.TAKASA_HOUSE: f"takasa ends in the functional nyumba {hole_name(p, ev.end_hole)}",
            End.TAKASIA: f"ends in the takasia'd hole {hole_name(p, ev.end_hole)}",
            End.WIN: f"{PLAYER_NAMES[q]}'s front row is empty: {who} wins",
        }[ev.end]
        parts.append(end)
        if ev.takasia is not None:
            parts.append(f"takasia: {PLAYER_NAMES[q]} may not empty {hole_name(q, ev.takasia)} next move")
        return f"{who} plays {move}: " + "; ".join(parts) + "."

    # --- move generation ------------------------------------------------------

    def _outcomes(self, state: BaoState) -> dict:
        """{legal move: _Outcome}, computed once per state (and rules)."""
        cache = state._cache
        if cache is not None and cache[0] is self.rules:
            return cache[1]
        endless: list = []
        outcomes = {} if state.finished else self._generate(state, endless)
        object.__setattr__(state, "_cache", (self.rules, outcomes, tuple(endless)))
        return outcomes

    def never_ending_moves(self, state: BaoState) -> tuple[BaoMove, ...]:
        """The moves that would be legal but never end, and are therefore illegal (§13)."""
        return tuple(move for move, _ in self._endless(state))

    def _endless(self, state: BaoState) -> tuple:
        """(move, why) of the moves that never end, computed with the outcomes."""
        self._outcomes(state)
        assert state._cache is not None  # filled by _outcomes
        return state._cache[2]

    def _generate(self, state: BaoState, endless: list) -> dict:
        p = state.player
        me, op = state.holes[p], state.holes[1 - p]
        out: dict = {}

        def add(move):
            try:
                res = self._simulate(state, move)
            except NeverEnding as e:
                endless.append((move, e))
                return None
            if move.house and not res.decision:
                return None
            if self._takasia_after(state, move, res) is not None:
                move = replace(move, takasia=True)
            out[move] = res
            return res

        if state.stock[p] > 0:  # namua
            caps = [i for i in range(8) if me[i] and op[7 - i]]
            if caps:
                for i in caps:
                    dirs = (CW,) if i <= 1 else (ACW,) if i >= 6 else (CW, ACW)
                    for d in dirs:
                        # a stop variant that never ends never reached the house, and
                        # neither would its safari twin
                        first = add(BaoMove(p, i, d, True, True))
                        if first is not None and first.decision:
                            add(BaoMove(p, i, d, True, True, True))
                return out
            occ = [i for i in range(8) if me[i]]
            functional = state.owns[p] and me[NYUMBA] >= 6
            if len(occ) == 1 or all(me[i] == 1 for i in occ):
                starts = occ
            else:
                rule = self.rules.singletons
                singles_ok = (
                    rule is SingletonRule.ANY
                    or (rule is SingletonRule.OWNED and state.owns[p])
                    or (rule is SingletonRule.FUNCTIONAL and functional)
                )
                starts = [i for i in occ if not (i == NYUMBA and functional) and (me[i] >= 2 or singles_ok)]
            for i in starts:
                for d in (ACW, CW):
                    if occ == [0] and d == ACW or occ == [7] and d == CW:
                        continue  # lone kichwa towards the back row
                    add(BaoMove(p, i, d, False, True))
            return out

        captures = [
            (i, d, 7 - j)
            for i in range(16)
            if 2 <= me[i] <= 15
            for d in (ACW, CW)
            for j in ((i + d * me[i]) & 15,)
            if j < 8 and me[j] and op[7 - j]
        ]
        if captures:
            if state.must_capture is not None and any(t == state.must_capture for _, _, t in captures):
                captures = [c for c in captures if c[2] == state.must_capture]
            for i, d, _ in captures:
                add(BaoMove(p, i, d, True, False))
            return out
        if any(me[i] >= 2 for i in range(8)):
            starts = [i for i in range(8) if me[i] >= 2 and i != state.takasia]
        else:
            starts = [i for i in range(8, 16) if me[i] >= 2]
        occ = [i for i in range(8) if me[i]]
        for i in starts:
            for d in (ACW, CW):
                if i < 8 and (occ == [0] and d == ACW or occ == [7] and d == CW):
                    continue
                add(BaoMove(p, i, d, False, False))
        return out

    def _simulate(self, state: BaoState, move: BaoMove) -> _Outcome:
        """Play ``move`` out (assumed to satisfy the start conditions); raise NeverEnding."""
        p, q = move.player, 1 - move.player
        me = list(state.holes[p])
        op = list(state.holes[q])
        owns = [state.owns[0], state.owns[1]]
        owned_before = tuple(owns)
        namua = state.stock[p] > 0
        capturing = move.capture
        i, d = move.hole, move.direction
        if not namua and capturing and self.rules.mtaji_house is MtajiHouse.FIRST_CAPTURE:
            owns = [False, False]
        captures = []
        taxed = house_played = house_stopped = decision = False
        winner = None

        if namua:
            me[i] += 1
        if namua and capturing:
            t = 7 - i
            n, op[t] = op[t], 0
            captures.append((t, n))
            if t == NYUMBA:
                owns[q] = False
            kind, start = "capture", (0 if d == CW else 7) - d
        elif (
            namua
            and i == NYUMBA
            and state.owns[p]
            and (
                state.holes[p][NYUMBA] >= 6
                or (self.rules.tax_small_house and not any(me[k] for k in range(8) if k != NYUMBA))
            )
        ):
            n = 2
            me[NYUMBA] -= 2
            taxed = True
            if me[NYUMBA] == 0:
                owns[p] = False
            kind, start = "tax", i
        else:
            n, me[i] = me[i], 0
            if i == NYUMBA:
                owns[p] = False
            kind, start = "sow", i

        takasia = state.takasia
        laps = []
        lap_count = sown = 0
        # Never-ending moves are found exactly, in constant memory, by comparing the position
        # at each relay point (lap boundary) with two saved ones: (a) the first relay point
        # after the latest capture or house play (a move that never ends often returns to
        # it), and (b) Brent's cycle finder: the position at relay number 2^k, compared with
        # every later one until the next power of two replaces it.
        anchor = saved = None
        check_at = 1
        max_laps = self.rules.max_laps
        relays = 0
        while True:
            if n >= 16:
                full, n_rest = divmod(n, 16)
                for k in range(16):
                    me[k] += full
                pos = start
                for _ in range(n_rest):
                    pos = (pos + d) & 15
                    me[pos] += 1
                if n_rest == 0:
                    pos = start & 15
            elif d == CW:
                for k in range(start + 1, start + n + 1):
                    me[k & 15] += 1
                pos = (start + n) & 15
            else:
                for k in range(start - n, start):
                    me[k & 15] += 1
                pos = (start - n) & 15
            j = pos
            sown += n
            lap_count += 1
            if lap_count <= MAX_RECORDED_LAPS:
                laps.append(Lap(kind, (start + d) & 15, d, n, j, captures[-1][0] if kind == "capture" else None))
            if kind == "capture" and not any(op[:8]):
                winner = p
                end = End.WIN
                break
            if me[j] == 1:
                end = End.EMPTY_HOLE
                break
            if capturing and j < 8 and op[7 - j]:
                t = 7 - j
                n, op[t] = op[t], 0
                captures.append((t, n))
                if t == NYUMBA:
                    owns[q] = False
                if j <= 1:
                    d = CW
                elif j >= 6:
                    d = ACW
                kind, start = "capture", (0 if d == CW else 7) - d
                anchor = None
                continue
            if namua and j == NYUMBA and owns[p] and me[NYUMBA] >= 6:
                if not capturing:
                    end = End.TAKASA_HOUSE
                    break
                decision = True
                if not move.house:
                    house_stopped = True
                    end = End.HOUSE_STOP
                    break
                house_played = True
                kind = "house"
                anchor = None
            elif not capturing and j == takasia:
                end = End.TAKASIA
                break
            else:
                kind = "relay"
            own = owns[p]
            if anchor is None:
                anchor = (j, d, own, me[:], op[:])
            elif j == anchor[0] and d == anchor[1] and own == anchor[2] and me == anchor[3] and op == anchor[4]:
                raise NeverEnding(lap_count, True)
            relays += 1
            if (
                saved is not None
                and j == saved[0]
                and d == saved[1]
                and own == saved[2]
                and me == saved[3]
                and op == saved[4]
            ):
                raise NeverEnding(lap_count, True)
            if lap_count >= max_laps > 0:
                raise NeverEnding(lap_count, False)
            if relays == check_at:
                saved = (j, d, own, me[:], op[:])
                check_at *= 2
            n, me[j] = me[j], 0
            if j == NYUMBA:
                owns[p] = False
            start = j

        if namua and self.rules.mtaji_house is MtajiHouse.STOCK_EMPTY and state.stock[p] == 1:
            owns[p] = False
        lost = tuple(x for x in (SOUTH, NORTH) if owned_before[x] and not owns[x])
        holes = (tuple(me), tuple(op)) if p == SOUTH else (tuple(op), tuple(me))
        event = BaoEvent(
            move=move,
            player=p,
            captures=tuple(captures),
            laps=tuple(laps),
            lap_count=lap_count,
            seeds_sown=sown,
            end=end,
            end_hole=j,
            house_played=house_played,
            house_stopped=house_stopped,
            taxed=taxed,
            houses_lost=lost,
            winner=winner,
        )
        return _Outcome(holes, tuple(owns), event, decision)

    def _build(self, state: BaoState, move: BaoMove, out: _Outcome) -> BaoState:
        p, q = state.player, 1 - state.player
        stock = list(state.stock)
        if stock[p]:
            stock[p] -= 1
        event = out.event
        must = None
        takasia = self._takasia_after(state, move, out)
        if takasia is not None:
            event = replace(event, takasia=takasia, move=replace(event.move, takasia=True))
        if event.winner is None:
            if self.rules.takasia_forces_capture and state.takasia is not None:
                must = state.takasia
        if event.winner is None and not any(out.holes[p][:8]):
            # cannot happen under these rules (§8.2c); a guard so that an empty front row
            # always ends the game as rule 1.2 says
            event = replace(event, winner=q)
        ply = state.ply + 1
        finished = event.winner is not None
        if not finished and self.rules.max_plies and ply >= self.rules.max_plies:
            finished = True
        return BaoState(
            holes=out.holes,
            stock=(stock[0], stock[1]),
            owns=out.owns,
            player=q,
            takasia=takasia,
            must_capture=must,
            ply=ply,
            winner=event.winner,
            finished=finished,
            last=event,
        )

    def _takasia_after(self, state: BaoState, move: BaoMove, out: _Outcome) -> int | None:
        """The opponent's front hole ``move`` (with outcome ``out``) takasias, or None: only a
        takasa that does not win, once both stocks are empty after it (§11)."""
        p = state.player
        stock_after = (state.stock[p] - 1 if state.stock[p] else 0, state.stock[1 - p])
        if move.capture or not self.rules.takasia or out.event.winner is not None or stock_after != (0, 0):
            return None
        return self._takasia_target(out.holes[p], out.holes[1 - p], out.owns[1 - p])

    def _takasia_target(self, mx, my, y_owns: bool) -> int | None:
        """After X's takasa (boards mx, my): Y's front hole that is takasia'd, or None (§11)."""
        # 1. Y must have no capture
        if _mtaji_capture_targets(my, mx):
            return None
        # 2. exactly one of Y's front holes that X could capture next move
        targets = _mtaji_capture_targets(mx, my)
        if len(targets) != 1:
            return None
        t = targets.pop()
        if t == NYUMBA and y_owns:
            return None
        occupied = [k for k in range(8) if my[k]]
        if occupied == [t]:
            return None
        if [k for k in range(8) if my[k] >= 2] == [t]:
            return None
        if my[t] == 1 and self.rules.takasia_exempt_singletons:
            return None
        return t

    # --- messages ---------------------------------------------------------------

    def _expected(self, state: BaoState) -> str:
        moves = self.legal_moves(state)
        if not moves:
            return "the game is over"
        return "legal moves are " + ", ".join(str(m) for m in moves)

    def _start_reason(self, state: BaoState, index: int) -> str:
        p = state.player
        me = state.holes[p]
        name = hole_name(p, index)
        moves = self.legal_moves(state)
        if moves and moves[0].capture:
            return f"a capture is possible and capturing is compulsory; {name} does not start one"
        if state.namua:
            if index >= 8:
                return f"in the namua stage every move starts in the front row, not {name}"
            if me[index] == 0:
                return f"{name} is empty: the stock seed goes into an occupied front hole"
            if index == NYUMBA and state.functional(p):
                return f"the functional nyumba {name} may only start a takasa when it is the only occupied front hole"
            if me[index] == 1:
                return f"{name} holds a single seed, which may not start a takasa while other holes hold 2 or more"
        else:
            if me[index] < 2:
                return f"{name} holds {me[index]} seed{'s' if me[index] != 1 else ''}: in mtaji a move needs 2 or more"
            if index == state.takasia:
                return f"{name} is takasia'd: it may not be emptied this move"
            if index >= 8:
                return f"a takasa must start in the front row while a front hole holds 2 or more; {name} is in the back row"
        return f"no legal move starts from {name}"

    def _illegal_reason(self, state: BaoState, move) -> str:
        if self.is_terminal(state):
            return "the game is over: no move is legal"
        if not isinstance(move, BaoMove):
            return f"{move!r} is not a Bao move; {self._expected(state)}"
        if move.player != state.player:
            return f"it is {PLAYER_NAMES[state.player]}'s move; {self._expected(state)}"
        if not any(m.hole == move.hole for m in self.legal_moves(state)):
            return self._start_reason(state, move.hole) + "; " + self._expected(state)
        return f"{move} is not legal here; {self._expected(state)}"


# --- position strings -----------------------------------------------------

#: the start position as :meth:`Bao.position_string` writes it
START_POSITION = "0-0-0-0-0-0-0-0/0-2-2-6-0-0-0-0/0-0-0-0-6-2-2-0/0-0-0-0-0-0-0-0/22-22/S/Hh"

#: the rows of a diagram, as South sees the board, top to bottom
_ROWS = (
    "North's back row (b8..b1)",
    "North's front row (a8..a1)",
    "South's front row (A1..A8)",
    "South's back row (B1..B8)",
)

_POSITION_FORMAT = (
    "4 rows of 8 counts (North back b8..b1, North front a8..a1, South front A1..A8, South back B1..B8; "
    "counts joined by '-'), the stocks (South-North), S or N to move, the nyumba owned (Hh, H, h or -) "
    "and optionally the takasia'd hole, all joined by '/', e.g. " + START_POSITION
)


def write_position(state: BaoState) -> str:
    """``state`` as a position string (see :meth:`Bao.position_string`)."""
    s, n = state.holes
    rows = [n[8:16], n[7::-1], s[0:8], s[15:7:-1]]
    fields = ["-".join(map(str, r)) for r in rows]
    fields.append(f"{state.stock[0]}-{state.stock[1]}")
    fields.append("SN"[state.player])
    fields.append(("H" if state.owns[0] else "") + ("h" if state.owns[1] else "") or "-")
    if state.takasia is not None or state.must_capture is not None:
        fields.append(hole_name(state.player, state.takasia) if state.takasia is not None else "-")
    if state.must_capture is not None:
        fields.append(hole_name(1 - state.player, state.must_capture))
    return "/".join(fields)


def read_position(text: str, rules: BaoRules) -> BaoState:
    """The state a position string writes, checked under ``rules`` (the history starts there:
    ply 0); raises :class:`BadInput` with one line naming the field that is wrong."""
    raw = str(text).strip()
    shown = raw if len(raw) <= 90 else raw[:87] + "..."

    def bad(why: str) -> BadInput:
        return BadInput(f"cannot read Bao position {shown!r}: {why}")

    parts = [p.strip() for p in raw.split("/")]
    if len(parts) < 7 or len(parts) > 9:
        raise bad(f"expected 7 to 9 fields joined by '/', got {len(parts)}: {_POSITION_FORMAT}")
    rows = []
    for name, part in zip(_ROWS, parts[:4]):
        counts = re.split(r"\s*[-,\s]\s*", part)
        if len(counts) != 8 or not all(is_whole_number(c) for c in counts):
            raise bad(f"{name} must be 8 whole numbers joined by '-', got {part!r}")
        rows.append([int(c) for c in counts])
    stocks = re.split(r"\s*[-,\s]\s*", parts[4])
    if len(stocks) != 2 or not all(is_whole_number(c) for c in stocks):
        raise bad(f"the stocks must be two whole numbers, South's then North's, e.g. 22-22; got {parts[4]!r}")
    side = parts[5].upper()
    if side not in ("S", "N"):
        raise bad(f"the side to move must be S or N, got {parts[5]!r}")
    player = "SN".index(side)
    houses = parts[6]
    if houses != "-" and (not houses or any(c not in "Hh" for c in houses) or len(set(houses)) != len(houses)):
        raise bad(f"the nyumba owned must be Hh (both), H (South's), h (North's) or - (neither), got {houses!r}")
    owns = ("H" in houses, "h" in houses)
    nb, nf, sf, sb = rows
    south = sf + sb[::-1]
    north = nf[::-1] + nb
    for p, holes in ((SOUTH, south), (NORTH, north)):
        if owns[p] and holes[NYUMBA] == 0:
            raise bad(
                f"{PLAYER_NAMES[p]}'s nyumba {hole_name(p, NYUMBA)} is empty, so {PLAYER_NAMES[p]} cannot own it "
                f"(an emptied nyumba is lost): leave out {'H' if p == SOUTH else 'h'}"
            )
    if not any(south[:8]) and not any(north[:8]):
        raise bad("both front rows are empty: every game ends before that")
    takasia = _read_hole(parts[7], player, "the takasia'd hole", bad) if len(parts) > 7 else None
    if takasia is not None:
        mover = south if player == SOUTH else north
        if not rules.takasia:
            raise bad("these rules have no takasia (takasia=false), so no hole can be takasia'd")
        if takasia >= 8:
            raise bad(f"only a front hole can be takasia'd, not {hole_name(player, takasia)}")
        if int(stocks[0]) or int(stocks[1]):
            raise bad("a takasia happens only once both stocks are empty (the mtaji stage)")
        if mover[takasia] == 0:
            raise bad(f"the takasia'd hole {hole_name(player, takasia)} is empty: only a hole with seeds is takasia'd")
    must = _read_hole(parts[8], 1 - player, "the hole that must be captured", bad) if len(parts) > 8 else None
    if must is not None:
        if not rules.takasia_forces_capture:
            raise bad("only the rule takasia_forces_capture names a hole that must be captured")
        if must >= 8:
            raise bad(f"only a front hole can be captured, not {hole_name(1 - player, must)}")
    return Bao(rules).position(
        south,
        north,
        to_move=player,
        stock=(int(stocks[0]), int(stocks[1])),
        owns=owns,
        takasia=takasia,
        must_capture=must,
    )


def _read_hole(text: str, player: int, what: str, bad) -> int | None:
    """A hole of ``player`` named in a position string (``-``: none)."""
    if text == "-":
        return None
    m = re.fullmatch(r"([AaBb])([1-8])", text)
    if not m or m.group(1).isupper() != (player == SOUTH):
        rows = "A/B" if player == SOUTH else "a/b"
        raise bad(
            f"{what} must be a hole of {PLAYER_NAMES[player]} ({rows} and 1-8, e.g. {hole_name(player, 3)}) or -, got {text!r}"
        )
    return parse_hole(text)


def parse_hole(text: str) -> int:
    """A hole name (``A5``, ``b3``; case ignored) as an index 0..15 in its owner's order."""
    m = re.fullmatch(r"\s*([AaBb])([1-8])\s*", text)
    if not m:
        raise BadInput(f"{text!r} is not a hole name: row A/B (a/b for North) and number 1-8, e.g. A5")
    k = int(m.group(2))
    return k - 1 if m.group(1).upper() == "A" else 16 - k


def bao_from_options(options: dict[str, str] | None = None) -> Bao:
    """A Bao game from text options, as a game spec gives them (``singletons=any``, ...)."""
    return Bao(BaoRules.from_dict(dict(options or {})))


#: Bao in the game catalogue
BAO = register(
    GameInfo(
        "bao",
        "Bao la Kiswahili",
        "Bao la Kiswahili, Zanzibar rules (options: singletons, mtaji_house, tax_small_house, takasia, "
        "takasia_exempt_singletons, takasia_forces_capture, max_plies, max_laps, start)",
        bao_from_options,
        BaoRules,
        seeds=lambda state: sum(map(sum, state.holes)) + sum(state.stock),
        traits=Traits(
            board="bao",
            sides=("South", "North"),
            value_unit="eval",
            evaluation="bao",
            terms="bao",
            capabilities=frozenset({"position", "winner", "layout", "move_help"}),
        ),
        rank=1,
    )
)
