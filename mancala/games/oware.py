"""Oware (Abapa, Awari, Wari): the reference rules, every named rule set as data.

Board.  ``OwareState.houses`` lists the 2 x n houses in sowing order (n = 6 normally)::

            North (seat 1)
      f    e    d    c    b    a          <- names
     11   10    9    8    7    6          <- index
 [North store]              [South store]
      0    1    2    3    4    5
      A    B    C    D    E    F
            South (seat 0)

South (seat 0) owns houses 0..n-1, written ``A``..``F``; North owns n..2n-1, written
``a``..``f``.  Seeds are sown in increasing index order (mod 2n): each player sows from their
own left to their own right, then into the opponent's row.  This is the numbering of
Aalina and OpenSpiel (``../shared/oware-rules.md`` §1); a game record is the house names run
together (``FfBe``) and a position is written as Aalina's diagram
``h0-h1-...-h11-southStore-northStore-S`` (:meth:`Oware.position_string`).

The rules (``oware-rules.md`` §2-3): lift every seed of an own house and sow one per house
(on a lap of 2n seeds or more the origin is skipped); if the last seed lands in the
opponent's row on a house now holding 2 or 3, those seeds are captured, and so is each
house before it in the opponent's row holding 2 or 3, up to the first that does not.  A
player must feed an opponent whose row is empty.  The game ends when a store holds more
than half the seeds, when a position repeats since the last capture, or when the player
to move has no legal move.  Every option the rule sets differ on is a field of
:class:`OwareRules`; :data:`PRESETS` names the rule sets people use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Sequence

from mancala.errors import BadInput, IllegalMove, is_whole_number
from mancala.games.base import RulesGame, Segment, layout_text
from mancala.games.catalogue import GameInfo, Traits, options_with_preset, register, spec_of
from mancala.games.options import RulesOptions, bool_option, enum_option, int_option, start_option
from mancala.games.records import read_record_moves, result_mark, write_record


class GrandSlam(Enum):
    """What a capture that would take every seed of the opponent's row does (a grand slam)."""

    #: the move is legal and captures nothing (Abapa, OpenSpiel, Aalina, MancalaGames)
    NO_CAPTURE = "no-capture"
    #: the move is illegal; a player whose every move is a grand slam cannot move (§3 item 3)
    ILLEGAL = "illegal"
    #: illegal unless every legal move is a grand slam; then it is played and captures as usual
    ILLEGAL_UNLESS_ONLY = "illegal-unless-only"
    #: the move captures everything (the opponent then usually cannot move)
    CAPTURE_ALL = "capture-all"
    #: the move captures everything and the opponent takes the seeds left in the mover's row;
    #: the game is over (MancalaGames' ``OPP_GETS_REMAIN``)
    OPPONENT_TAKES_REST = "opponent-takes-rest"
    #: every captured house is taken but the one farthest along the sowing (the landing house)
    LEAVE_LEFT = "leave-left"
    #: every captured house is taken but the first one of the opponent's row (``a`` or ``A``)
    LEAVE_RIGHT = "leave-right"


class EndSeeds(Enum):
    """Where the seeds still on the board go when the game ends that way."""

    #: each player adds the seeds of their own row to their store
    OWN_ROW = "own-row"
    #: each player gets half (the odd seed, if any, is nobody's)
    SPLIT = "split"
    #: nobody scores them
    UNSCORED = "unscored"


class Repetition(Enum):
    """What happens when a position (houses, stores, side to move) recurs since the last capture."""

    #: the game ends, each player takes the seeds of their own row (OpenSpiel, Aalina)
    OWN_ROW = "own-row"
    #: the game ends, the seeds on the board are split evenly (the odd one is nobody's)
    SPLIT = "split"
    #: nothing happens: play goes on (to ``max_plies``, if set)
    NONE = "none"


#: the most houses per side and seeds per house the rules accept
MAX_HOUSES = 12
MAX_SEEDS = 20
#: the longest game ``max_plies`` may ask for
MAX_PLIES = 100_000


@dataclass(frozen=True)
class OwareRules(RulesOptions):
    """Every Oware rule option, as immutable data (defaults: the Abapa tournament rules)."""

    OPTIONS_OF = "Oware"
    DEFAULT_NAME = "abapa"

    #: houses per side (1-12)
    houses: int = 6
    #: seeds in each house at the start (1-20)
    seeds: int = 4
    #: whether a lap of 2 x houses seeds or more skips the emptied origin house
    skip_origin: bool = True
    #: whether sowing also skips every house already holding 12 seeds or more (Ludii's
    #: "Awari (Suggested)"; off in every tournament rule set)
    skip_twelve: bool = False
    #: the counts a house must hold after the sowing to be captured
    capture_counts: tuple[int, ...] = (2, 3)
    #: whether the capture continues backwards through the opponent's row (the chain)
    multiple_capture: bool = True
    #: whether a player must give seeds to an opponent whose row is empty
    must_feed: bool = True
    #: what a capture of every seed of the opponent's row does
    grand_slam: GrandSlam = GrandSlam.NO_CAPTURE
    #: where the board's seeds go when the player to move has no legal move (under must
    #: feed: cannot feed the opponent); with ``own-row`` that player takes them all
    cannot_move: EndSeeds = EndSeeds.OWN_ROW
    #: what a position recurring since the last capture does
    repetition: Repetition = Repetition.OWN_ROW
    #: whether the game ends as soon as a store holds more than half of all seeds (25 of 48)
    stop_at_majority: bool = True
    #: whether the rows are swept into their owners' stores at that end too (OpenSpiel does;
    #: the result is the same, the board shown is not)
    sweep_at_majority: bool = False
    #: the game ends after this many moves, each player taking their own row (0: no limit)
    max_plies: int = 0
    #: a start position other than the full board, as a position string
    #: (``0-0-0-0-0-0-1-3-3-14-11-8-0-8-N``, see :meth:`Oware.position_string`)
    start: str | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.houses <= MAX_HOUSES:
            raise BadInput(f"houses must be 1-{MAX_HOUSES}, got {self.houses}")
        if not 1 <= self.seeds <= MAX_SEEDS:
            raise BadInput(f"seeds must be 1-{MAX_SEEDS}, got {self.seeds}")
        counts = tuple(sorted(set(self.capture_counts)))
        object.__setattr__(self, "capture_counts", counts)
        if not counts or any(not 1 <= c <= 2 * MAX_HOUSES * MAX_SEEDS for c in counts):
            raise BadInput(f"capture_counts must be one or more whole numbers from 1, got {self.capture_counts!r}")
        if not 0 <= self.max_plies <= MAX_PLIES:
            raise BadInput(f"max_plies must be 0 (no limit) to {MAX_PLIES:,}, got {self.max_plies}")
        if self.start is not None:
            houses, stores, _ = read_position_string(self.start, self.houses)
            object.__setattr__(self, "start", self.start.strip()[:-1] + self.start.strip()[-1].upper())
            if sum(houses) + sum(stores) != self.total:
                raise BadInput(
                    f"an Oware start position holds {self.total} seeds in all (houses and stores); "
                    f"{self.start} holds {sum(houses) + sum(stores)}"
                )

    @property
    def total(self) -> int:
        """All the seeds of the game."""
        return 2 * self.houses * self.seeds

    @classmethod
    def coerce_option(cls, name: str, value):
        """One option given as text (or JSON) as the field's type."""
        return _coerce_option(name, value)


_ENUMS = {"grand_slam": GrandSlam, "cannot_move": EndSeeds, "repetition": Repetition}
_BOOLS = {"skip_origin", "skip_twelve", "multiple_capture", "must_feed", "stop_at_majority", "sweep_at_majority"}


def _coerce_option(name: str, value):
    """One option given as text (or JSON) as the field's type."""
    if name in _ENUMS:
        return enum_option(name, _ENUMS[name], value)
    if name in _BOOLS:
        return bool_option(name, value)
    if name == "start":
        return start_option(value)
    if name == "capture_counts":
        words = value.replace(",", " ").split() if isinstance(value, str) else value
        if not isinstance(words, (list, tuple)):
            raise BadInput(f"capture_counts must be whole numbers such as '2 3'; got {value!r}")
        return tuple(int_option("capture_counts", w) for w in words)
    return int_option(name, value)


#: The named rule sets (``../shared/oware-rules.md`` §2.4 gives the sources of each).
PRESETS: dict[str, OwareRules] = {
    # The Oware Society's Abapa tournament rules (also the World Oware Federation's, Aalina's
    # and PlayStrategy's): grand slam legal but captures nothing; who cannot feed ends the
    # game and takes the rest; a repeated position ends it, each side taking its own row.
    "abapa": OwareRules(),
    # OpenSpiel's `oware`: the same game; the rows are swept into the stores at every end.
    "openspiel": OwareRules(sweep_at_majority=True),
    # The rules of Romein and Bal's solution of Awari (2002) as secondary sources give them:
    # grand slams capture, a repeated position splits the seeds on the board evenly.
    "awari": OwareRules(grand_slam=GrandSlam.CAPTURE_ALL, repetition=Repetition.SPLIT),
    # (Ludii's "Awari (Suggested)", sowing that also skips houses of 12 or more, is the option
    # skip_twelve=true, not a preset: the spec offers it only as a named option.)
    # Ludii's "Wari (Observed)" (Bennett 1927): a move must leave the opponent seeds (so a
    # grand slam is illegal), no stop at 25: play runs until a player cannot move.
    "wari": OwareRules(grand_slam=GrandSlam.ILLEGAL, stop_at_majority=False),
}


@dataclass(frozen=True)
class OwareMove:
    """Sowing from ``house`` (board index, 0..2n-1); written as its letter (``C``, ``d``)."""

    house: int
    #: houses per side (for the letter); not part of the move's identity
    houses: int = field(default=6, compare=False)

    def __str__(self) -> str:
        return house_name(self.houses, self.house)


def house_name(houses: int, index: int) -> str:
    """``A``.. for South's houses, ``a``.. for North's (board index ``index``)."""
    return chr(ord("A") + index) if index < houses else chr(ord("a") + index - houses)


@dataclass(frozen=True)
class OwareEvent:
    """What the move that produced a state did, for people and the board to show."""

    move: OwareMove
    seat: int
    #: seeds lifted from the origin
    sown: int
    #: board index of the last seed
    landing: int
    #: whether the sowing lapped the board and skipped its origin
    skipped_origin: bool
    #: the captured houses, in the order taken (landing house first), with their seeds
    captures: tuple[tuple[int, int], ...] = ()
    #: a grand slam, and what the rules made of it (``GrandSlam`` value), else None
    grand_slam: str | None = None
    #: why the game ended with this move (``majority``, ``repetition``, ``no-move``,
    #: ``grand-slam``, ``max-plies``), else None
    end: str | None = None

    @property
    def captured(self) -> int:
        """Seeds captured."""
        return sum(s for _, s in self.captures)


@dataclass(frozen=True)
class OwareState:
    """An immutable Oware position.  Equality is the position (houses, stores, side to move,
    whether it is over); :attr:`seen` (the positions since the last capture, which the
    repetition rule needs) and :attr:`last` are how we got here."""

    houses: tuple[int, ...]
    stores: tuple[int, int]
    #: seat to move: 0 South, 1 North (in a finished game: who would have moved)
    seat: int
    #: moves played so far
    ply: int = 0
    finished: bool = False
    #: seeds that left the board unscored at the end (``split``'s odd seed, ``unscored``)
    unscored: int = 0
    #: the positions (:func:`position_key`) since the last capture, this one included
    seen: frozenset = field(default=frozenset(), compare=False, repr=False)
    #: the move that led here, with what it did
    last: OwareEvent | None = field(default=None, compare=False, repr=False)

    @property
    def size(self) -> int:
        """Houses per side."""
        return len(self.houses) // 2

    def row(self, seat: int) -> tuple[int, ...]:
        """The houses of ``seat``, its ``A``/``a`` first."""
        n = self.size
        return self.houses[seat * n : seat * n + n]

    def store(self, seat: int) -> int:
        """Seeds captured by ``seat``."""
        return self.stores[seat]


def position_key(houses: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """What the repetition rule compares (stores cannot change between captures)."""
    return (*houses, seat)


class Oware(RulesGame):
    """Oware under the given rules (``Oware()`` is Abapa); implements
    :class:`mancala.games.base.Game`."""

    name = "oware"
    rules_class = OwareRules
    rules: OwareRules

    # --- protocol --------------------------------------------------------

    def initial_state(self) -> OwareState:
        """Every house holding the rules' seeds, South to move (or the rules' start position)."""
        r = self.rules
        if r.start is not None:
            return self.parse_position(r.start)
        return self.position(tuple([r.seeds] * (2 * r.houses)), (0, 0), 0)

    def position(self, houses, stores, seat: int, ply: int = 0) -> OwareState:
        """A state with these houses, stores and side to move (the game's history starting
        here), finished if the rules say so; raises :class:`BadInput` for a board that does
        not hold the rules' seeds."""
        r = self.rules
        houses = tuple(int(h) for h in houses)
        stores = (int(stores[0]), int(stores[1]))
        if len(houses) != 2 * r.houses:
            raise BadInput(f"an Oware board of {r.houses} houses a side needs {2 * r.houses} houses, got {len(houses)}")
        if any(h < 0 for h in houses) or min(stores) < 0:
            raise BadInput("a house or store cannot hold a negative number of seeds")
        if sum(houses) + sum(stores) != r.total:
            raise BadInput(
                f"an Oware position holds {r.total} seeds in all (houses and stores); "
                f"this one holds {sum(houses) + sum(stores)}"
            )
        if seat not in (0, 1):
            raise BadInput(f"the side to move must be 0 (South) or 1 (North), got {seat}")
        state = OwareState(houses, stores, seat, ply=ply, seen=frozenset([position_key(houses, seat)]))
        if max(stores) * 2 > r.total and r.stop_at_majority:
            return self._finish(state, "majority")
        if not self._legal_houses(houses, seat):
            return self._finish(state, "no-move")
        return state

    def to_move(self, state: OwareState) -> int:
        """The seat to move (players never change seats in Oware)."""
        return state.seat

    def legal_moves(self, state: OwareState) -> tuple[OwareMove, ...]:
        """The mover's houses that may be sown, ``A`` (or ``a``) first."""
        if state.finished:
            return ()
        n = self.rules.houses
        return tuple(OwareMove(h, n) for h in self._legal_houses(state.houses, state.seat))

    def apply(self, state: OwareState, move: OwareMove) -> OwareState:
        """Sow ``move`` and return the new state; raises IllegalMove when it is not legal."""
        if not isinstance(move, OwareMove) or move not in self.legal_moves(state):
            raise IllegalMove(self._illegal_reason(state, move))
        return self._play(state, move.house)

    def is_terminal(self, state: OwareState) -> bool:
        """Whether the game is over."""
        return state.finished

    def score(self, state: OwareState, player: int) -> int:
        """``player``'s seeds minus the opponent's: the stores, plus each side's own row once
        the game is over (the seed difference every program agrees on, §3.1)."""
        mine, theirs = state.stores[player], state.stores[1 - player]
        if state.finished:
            mine += sum(state.row(player))
            theirs += sum(state.row(1 - player))
        return mine - theirs

    def player_name(self, player: int, state: OwareState | None = None) -> str:
        """``South`` (moves first) or ``North``."""
        return seat_name(player)

    def move_help(self) -> str:
        """How moves are written (for a UI's ``help``)."""
        n = self.rules.houses
        last = chr(ord("A") + n - 1)
        return (
            f"Oware moves: the letter of one of your houses, A-{last} for South and "
            f"a-{last.lower()} for North, counted from your left; its seeds are sown to the right "
            f"and on into your opponent's row. Game records' two-digit moves (64, 62(25)) are read too."
        )

    def parse_move(self, state: OwareState, text: str) -> OwareMove:
        """A move from its letter (either case names the mover's house), its number from
        the mover's left (``1``..), or a game record's two digits with what they claim
        (``64``: from house 6 to house 4 of the row it ends on; ``53(20)``: a capture that
        brings the mover's store to 20; checked against the position)."""
        t = text.strip()
        n = self.rules.houses
        record = re.fullmatch(r"([1-9])([1-9])(?:\(([0-9]{1,4})\))?", t) if n <= 9 else None
        if record:
            move = self.parse_move(state, record.group(1))
            self._check_record_claims(state, move, int(record.group(2)), record.group(3), t)
            return move
        if re.fullmatch(r"[A-Za-z]", t):
            k = ord(t.lower()) - ord("a")
        elif is_whole_number(t):
            k = int(t) - 1
        else:
            raise IllegalMove(f"{t!r} is not an Oware move: {self._expected(state)}")
        if not 0 <= k < n:
            raise IllegalMove(
                f"there is no house {t!r} (houses are {self._letters(state.seat)}); {self._expected(state)}"
            )
        move = OwareMove(state.seat * n + k, n)
        if move not in self.legal_moves(state):
            raise IllegalMove(self._illegal_reason(state, move))
        return move

    def _check_record_claims(
        self, state: OwareState, move: OwareMove, landing: int, store: str | None, text: str
    ) -> None:
        """A record's two-digit move says where the last seed lands and, after a capture,
        the mover's store: check it."""
        after = self._play(state, move.house)
        event = after.last
        assert event is not None
        n = state.size
        if event.landing % n + 1 != landing:
            raise IllegalMove(
                f"{text!r}: a sowing from house {move} ends on house {event.landing % n + 1}, not {landing}"
            )
        if store is not None and (not event.captures or after.stores[event.seat] != int(store)):
            raise IllegalMove(
                f"{text!r}: this move makes the mover's store {after.stores[event.seat]} with "
                f"{'a capture' if event.captures else 'no capture'}, not a capture to {store}"
            )

    def record_move(self, before: OwareState, move: OwareMove, after: OwareState) -> str:
        """The move as game records write it (PlayOK, Wikimanqala): origin and landing house
        numbers, each counted from its row's owner's left, then ``(n)``, the mover's store
        after a capture."""
        event = after.last
        assert event is not None and event.move == move
        n = before.size
        text = f"{move.house % n + 1}{event.landing % n + 1}"
        return text + f"({after.stores[event.seat]})" if event.captures else text

    def read_game_text(self, text: str) -> tuple[dict[str, Any], list[str]]:
        """The rules options (a ``[Position "…"]`` header's start) and the moves of a game
        record as PlayOK writes it (:func:`mancala.games.records.read_record_moves`); raises
        :class:`BadInput` for a text that is not one."""
        headers, moves = read_record_moves(text)
        odd = next((m for m in moves if not _RECORD_MOVE.fullmatch(m)), None)
        if not moves or odd is not None:
            what = f"{odd[:20]!r} is not a move such as 64 or 53(20)" if odd else "it holds no moves"
            raise BadInput(f"not an Oware game record: {what}")
        options = oware_start_options(headers["Position"]) if "Position" in headers else {}
        return options, moves

    def write_game_text(
        self, start: OwareState, moves: Sequence[OwareMove], names: Sequence[str | None] = (None, None)
    ) -> str:
        """``moves`` played from ``start`` as a PlayOK-style record: headers (the people who
        played, ``White`` for South; the start position when it is not the usual one),
        numbered pairs of two-digit moves with ``(n)`` after a capture, then the result."""
        state, words = start, []
        for move in moves:
            after = self.apply(state, move)
            words.append(self.record_move(state, move, after))
            state = after
        result = result_mark(state.finished, self.score(state, 0))
        headers = [("Event", "mancala"), ("Game", spec_of(self)), ("Result", result)]
        usual = state_of_rules(self.rules)
        if (start.houses, start.stores, start.seat) != usual:
            headers.append(("Position", self.position_string(start)))
        return write_record(headers, words, start.seat == 1, result, names)

    def render(self, state: OwareState) -> str:
        """The board as South sees it: North's row on top (``f``..``a``), stores at the ends."""
        return layout_text(self.layout(state))

    def layout(self, state: OwareState, view: int | None = None) -> list[list[Segment]]:
        """The board of :meth:`render` as segments naming the cell each number shows
        (``(seat, "C")`` for a house, ``(seat, "store")``)."""
        n = state.size
        w = max(2, max(len(str(c)) for c in state.houses))
        sw = max(len(str(s)) for s in state.stores) + 2
        pad = " " * (sw + 1)

        def row(seat: int, order) -> list[Segment]:
            out: list[Segment] = [(pad, None)]
            for k, i in enumerate(order):
                out += [(" " if k else "", None), (f"({str(state.houses[i]).rjust(w)})", (seat, house_name(n, i)))]
            return out

        inner = n * (w + 3) - 1
        names = lambda order: pad + " ".join(house_name(n, i).center(w + 2) for i in order)  # noqa: E731
        north, south = range(2 * n - 1, n - 1, -1), range(n)
        middle = ("  North store".ljust(max(0, inner - 13)) + "South store  ") if inner >= 28 else " " * inner
        lines: list[list[Segment]] = [
            [(names(north) + "   North", None)],
            row(1, north),
            [
                (f"[{state.stores[1]}]".ljust(sw), (1, "store")),
                (" ", None),
                (middle, None),
                (" ", None),
                (f"[{state.stores[0]}]", (0, "store")),
            ],
            row(0, south),
            [(names(south) + "   South", None)],
        ]
        if inner < 28:
            lines.append([("stores: North's on the left, South's on the right", None)])
        return lines

    def describe_move(self, before: OwareState, move: OwareMove, after: OwareState) -> str:
        """What the move did, in words; a game-ending move also gives the final count."""
        text = self.describe_event(after.last) if after.last else f"{move} played."
        if after.finished:
            text += f" Final count: South {self.final_seeds(after, 0)}, North {self.final_seeds(after, 1)}."
        return text

    def describe_event(self, event: OwareEvent) -> str:
        """The move's effect, e.g. ``North plays d: 14 seeds, a lap skipping d; captures 2 (A).``"""
        n = self.rules.houses
        who = seat_name(event.seat)
        parts = [f"{event.sown} seed{'s' if event.sown != 1 else ''}"]
        if event.skipped_origin:
            parts[0] += f", lapping the board and skipping {event.move}"
        if event.captures:
            houses = ", ".join(f"{house_name(n, h)} {s}" for h, s in event.captures)
            parts.append(f"captures {event.captured} ({houses})")
        if event.grand_slam:
            parts.append(_GRAND_SLAM_WORDS[event.grand_slam])
        if event.end:
            parts.append(_END_WORDS[event.end].format(other=seat_name(1 - event.seat), who=who))
        return f"{who} plays {event.move}: " + "; ".join(parts) + "."

    # --- notation --------------------------------------------------------

    def position_string(self, state: OwareState) -> str:
        """Aalina's diagram: the houses in index order, South's and North's stores, the side
        to move (``4-4-4-4-4-4-4-4-4-4-4-4-0-0-S``)."""
        return "-".join(map(str, (*state.houses, *state.stores))) + "-" + "SN"[state.seat]

    def parse_position(self, text: str) -> OwareState:
        """The state written by :meth:`position_string` (the game's history starting there);
        raises :class:`BadInput` saying what was expected."""
        houses, stores, seat = read_position_string(text, self.rules.houses)
        return self.position(houses, stores, seat)

    def final_seeds(self, state: OwareState, seat: int) -> int:
        """The seeds ``seat`` ends with: its store, plus its row once the game is over."""
        return state.stores[seat] + (sum(state.row(seat)) if state.finished else 0)

    # --- the rules ---------------------------------------------------------

    def sowing(self, houses: tuple[int, ...], origin: int) -> tuple[list[int], int, bool]:
        """The houses after sowing from ``origin`` (before any capture), the landing house,
        and whether a lap skipped the origin."""
        r = self.rules
        size = 2 * r.houses
        cells = list(houses)
        seeds = cells[origin]
        cells[origin] = 0
        if r.skip_twelve:
            return self._sow_one_by_one(cells, origin, seeds)
        cycle = [(origin + k) % size for k in range(1, size)]
        if not r.skip_origin:
            cycle.append(origin)
        laps, rest = divmod(seeds, len(cycle))
        for c in cycle:
            cells[c] += laps
        for c in cycle[:rest]:
            cells[c] += 1
        return cells, cycle[(seeds - 1) % len(cycle)], r.skip_origin and seeds >= size

    def _sow_one_by_one(self, cells: list[int], origin: int, seeds: int) -> tuple[list[int], int, bool]:
        """Sowing that skips houses holding 12 or more (and the origin, under skip_origin);
        when every house is to be skipped the seeds left go back to the origin."""
        size = len(cells)
        i, skipped = origin, False
        while seeds:
            for _ in range(size):
                i = (i + 1) % size
                if i == origin and self.rules.skip_origin:
                    skipped = True
                    continue
                if cells[i] < 12 or i == origin:
                    break
            else:
                cells[origin] += seeds
                return cells, origin, skipped
            cells[i] += 1
            seeds -= 1
        return cells, i, skipped

    def capture_chain(self, cells: list[int], seat: int, landing: int) -> list[int]:
        """The houses a sowing that ended on ``landing`` captures, landing house first."""
        r = self.rules
        n = r.houses
        lo = (1 - seat) * n
        chain = []
        i = landing
        while lo <= i < lo + n and cells[i] in r.capture_counts:
            chain.append(i)
            if not r.multiple_capture:
                break
            i -= 1
        return chain

    def _is_grand_slam(self, cells: list[int], seat: int, chain: list[int]) -> bool:
        n = self.rules.houses
        lo = (1 - seat) * n
        return bool(chain) and sum(cells[lo : lo + n]) == sum(cells[i] for i in chain)

    def _feeds(self, houses: tuple[int, ...], seat: int, house: int) -> bool:
        """Whether sowing ``house`` puts a seed in the opponent's row."""
        n = self.rules.houses
        if self.rules.skip_twelve:
            cells, _, _ = self.sowing(houses, house)
            lo = (1 - seat) * n
            return any(cells[lo + k] > houses[lo + k] for k in range(n))
        right = seat * n + n - 1
        return house + houses[house] > right

    def _legal_houses(self, houses: tuple[int, ...], seat: int) -> list[int]:
        r = self.rules
        n = r.houses
        own = [h for h in range(seat * n, seat * n + n) if houses[h]]
        lo = (1 - seat) * n
        if r.must_feed and not any(houses[lo : lo + n]):
            own = [h for h in own if self._feeds(houses, seat, h)]
        if r.grand_slam in (GrandSlam.ILLEGAL, GrandSlam.ILLEGAL_UNLESS_ONLY):
            fair = [h for h in own if not self._slams(houses, seat, h)]
            if fair or r.grand_slam is GrandSlam.ILLEGAL:
                own = fair
        return own

    def _slams(self, houses: tuple[int, ...], seat: int, house: int) -> bool:
        cells, landing, _ = self.sowing(houses, house)
        return self._is_grand_slam(cells, seat, self.capture_chain(cells, seat, landing))

    def _play(self, state: OwareState, house: int) -> OwareState:
        r = self.rules
        n = r.houses
        seat = state.seat
        sown = state.houses[house]
        cells, landing, skipped = self.sowing(state.houses, house)
        chain = self.capture_chain(cells, seat, landing)
        stores = list(state.stores)
        slam: str | None = None
        end: str | None = None
        if self._is_grand_slam(cells, seat, chain):
            slam = r.grand_slam.value
            if r.grand_slam is GrandSlam.NO_CAPTURE:
                chain = []
            elif r.grand_slam is GrandSlam.LEAVE_LEFT:
                chain = chain[1:]
            elif r.grand_slam is GrandSlam.LEAVE_RIGHT:
                chain = chain[:-1]
        captures = tuple((i, cells[i]) for i in chain)
        for i, seeds in captures:
            stores[seat] += seeds
            cells[i] = 0
        if slam == GrandSlam.OPPONENT_TAKES_REST.value:
            stores[1 - seat] += sum(cells)
            cells = [0] * (2 * n)
            end = "grand-slam"
        houses = tuple(cells)
        next_seat = 1 - seat
        key = position_key(houses, next_seat)
        seen = frozenset([key]) if captures else state.seen | {key}
        after = OwareState(houses, (stores[0], stores[1]), next_seat, state.ply + 1, False, state.unscored, seen)
        if end is None:
            if r.stop_at_majority and max(stores) * 2 > r.total:
                end = "majority"
            elif not captures and key in state.seen and r.repetition is not Repetition.NONE:
                end = "repetition"
            elif not self._legal_houses(houses, next_seat):
                end = "no-move"
            elif r.max_plies and after.ply >= r.max_plies:
                end = "max-plies"
        event = OwareEvent(OwareMove(house, n), seat, sown, landing, skipped, captures, slam, end)
        if end is not None:
            after = self._finish(after, end)
        return replace(after, last=event)

    def _finish(self, state: OwareState, end: str) -> OwareState:
        """``state`` as the end of the game, the board's seeds shared as ``end`` says."""
        r = self.rules
        how = {
            "majority": EndSeeds.OWN_ROW if r.sweep_at_majority else None,
            "repetition": EndSeeds.SPLIT if r.repetition is Repetition.SPLIT else EndSeeds.OWN_ROW,
            "no-move": r.cannot_move,
            "max-plies": EndSeeds.OWN_ROW,
            "grand-slam": None,
        }[end]
        houses, stores, unscored = list(state.houses), list(state.stores), state.unscored
        rest = sum(houses)
        if how is EndSeeds.OWN_ROW:
            stores = [stores[s] + sum(state.row(s)) for s in (0, 1)]
        elif how is EndSeeds.SPLIT:
            stores = [s + rest // 2 for s in stores]
            unscored += rest % 2
        elif how is EndSeeds.UNSCORED:
            unscored += rest
        if how is not None:
            houses = [0] * len(houses)
        return replace(state, houses=tuple(houses), stores=(stores[0], stores[1]), finished=True, unscored=unscored)

    # --- messages ------------------------------------------------------------

    def _letters(self, seat: int) -> str:
        n = self.rules.houses
        return f"{house_name(n, seat * n)}-{house_name(n, seat * n + n - 1)}"

    def _expected(self, state: OwareState) -> str:
        moves = self.legal_moves(state)
        if not moves:
            return "the game is over"
        return "legal moves are " + ", ".join(str(m) for m in moves)

    def _illegal_reason(self, state: OwareState, move) -> str:
        if state.finished:
            return "the game is over: no move is legal"
        if not isinstance(move, OwareMove):
            return f"{move!r} is not an Oware move; {self._expected(state)}"
        n = self.rules.houses
        if not state.seat * n <= move.house < state.seat * n + n:
            return f"{move} is not one of {seat_name(state.seat)}'s houses; {self._expected(state)}"
        if not state.houses[move.house]:
            return f"house {move} is empty; {self._expected(state)}"
        opponent = state.row(1 - state.seat)
        if self.rules.must_feed and not any(opponent) and not self._feeds(state.houses, state.seat, move.house):
            return f"{seat_name(1 - state.seat)} has no seeds and {move} does not reach them (must feed); {self._expected(state)}"
        return f"{move} would capture every seed of {seat_name(1 - state.seat)} (a grand slam), which these rules forbid; {self._expected(state)}"


def read_position_string(text: str, houses: int) -> tuple[list[int], list[int], int]:
    """The houses, stores and side to move of a position string for ``houses`` houses a side
    (``h0-...-h(2n-1)-southStore-northStore-S``); raises :class:`BadInput` saying what was
    expected."""
    text = str(text).strip()
    parts = text.split("-")
    expected = f"{2 * houses} houses, South's store, North's store and S or N, joined by '-'"
    if len(parts) != 2 * houses + 3 or len(text) > 200:
        raise BadInput(f"cannot read Oware position {text[:80]!r}: expected {expected}")
    if parts[-1].upper() not in ("S", "N"):
        raise BadInput(f"cannot read Oware position {text!r}: the side to move must be S or N")
    if not all(is_whole_number(p) for p in parts[:-1]):
        raise BadInput(f"cannot read Oware position {text!r}: expected {expected}")
    numbers = [int(p) for p in parts[:-1]]
    return numbers[: 2 * houses], numbers[2 * houses :], "SN".index(parts[-1].upper())


def seat_name(seat: int) -> str:
    """``South`` (seat 0) or ``North``."""
    return "South" if seat == 0 else "North"


_GRAND_SLAM_WORDS = {
    "no-capture": "a grand slam (it would take every seed of the opponent), so nothing is captured",
    "illegal": "a grand slam",
    "illegal-unless-only": "a grand slam, allowed as the only kind of move left",
    "capture-all": "a grand slam: every seed of the opponent is taken",
    "opponent-takes-rest": "a grand slam: the opponent takes the seeds left on the board",
    "leave-left": "a grand slam, so the last house reached is left",
    "leave-right": "a grand slam, so the opponent's first house is left",
}

_END_WORDS = {
    "majority": "more than half of the seeds: game over",
    "repetition": "the position repeats: game over, the seeds on the board are shared out",
    "no-move": "{other} has no legal move (nothing can feed, or nothing to sow): game over, the seeds left are shared out",
    "max-plies": "the move limit is reached: game over",
    "grand-slam": "game over",
}


#: a game record's move: two digits (houses 1-6, or up to 9 on a bigger board), ``(n)`` after a capture
_RECORD_MOVE = re.compile(r"[1-9][1-9](?:\([0-9]{1,4}\))?")


def state_of_rules(rules: OwareRules) -> tuple[tuple[int, ...], tuple[int, int], int]:
    """The houses, stores and side to move of the usual start of ``rules`` (every house
    holding ``seeds``, South to move), whatever start the rules set."""
    return (tuple([rules.seeds] * (2 * rules.houses)), (0, 0), 0)


def oware_start_options(text: str) -> dict[str, Any]:
    """The rules options (``houses``, ``start``) that start Oware at the position ``text``
    (as :meth:`Oware.position_string` writes it; the rules check the rest when the game is
    built); raises :class:`BadInput` saying what was expected."""
    text = text.strip()
    parts = text.split("-")
    if len(parts) < 5 or len(parts) % 2 == 0:
        raise BadInput(
            f"cannot read Oware position {text[:80]!r}: expected the houses (A.. then a..), South's store, "
            "North's store and S or N, joined by '-', e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"
        )
    return {"houses": (len(parts) - 3) // 2, "start": text}


def _oware_from_options(options: dict[str, str]) -> Oware:
    return Oware(OwareRules.from_dict(options_with_preset(OWARE, options)))


#: Oware in the game catalogue
OWARE = register(
    GameInfo(
        "oware",
        "Oware",
        "Oware (Abapa, Awari, Wari): 2 x 6 houses, captures of 2 and 3 (options: preset, houses, seeds, grand_slam, ...)",
        _oware_from_options,
        OwareRules,
        PRESETS,
        "abapa",
        seeds=lambda state: sum(state.houses) + sum(state.stores) + state.unscored,
        traits=Traits(
            board="oware",
            sides=("South", "North"),
            margin_unit="seeds",
            value_unit="seeds",
            evaluation="oware",
            may_repeat=True,
            capabilities=frozenset({"position", "layout", "move_help", "game_text"}),
        ),
        start_options=oware_start_options,
        rank=2,
    )
)
