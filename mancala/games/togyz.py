"""Togyz Kumalak (Togyzqumalaq, Toguz Korgool): the federation's rules and Pantusov's older set.

Board.  ``TogyzState.houses`` lists the 2 x n houses in sowing order (n = 9 normally)::

                 North (seat 1)
       9   8   7   6   5   4   3   2   1      <- North's house numbers
      17  16  15  14  13  12  11  10   9      <- index
       0   1   2   3   4   5   6   7   8
       1   2   3   4   5   6   7   8   9      <- South's house numbers
                 South (seat 0)

Each player numbers their own houses 1..n from their own left, which is the sowing order;
after a player's house n comes the opponent's house 1 (``../shared/togyz-kumalak-rules.md``
§1.2: PlayStrategy's and MancalaGames' indices).  A move is the number of one of the mover's
houses (``7``); game records as players keep them write the origin and the landing house
(``76``), then ``(n)``, the mover's kazan after a capture, or ``X`` for a tuzdik made
(:func:`record_move`); PlayStrategy writes ``i1b2`` (:func:`uci_move`).

The rules (§2-3): lift every stone of an own house; a single stone moves to the next house,
otherwise the first stone goes back into the origin and one into each following house.
Stones sown into a tuzdik go to its owner's kazan.  If the last stone lands on the opponent's
row and makes an even count, those stones are captured; if it makes exactly 3, the house
becomes the mover's tuzdik (one per player, never the opponent's last house, never the
house with the same number as the opponent's tuzdik) and the 3 go to the mover's kazan.  The
game ends when a kazan holds more than half the stones, or when the player to move has no
stones: the other player then takes every stone left.  81-81 is a draw.

Positions may recur (the rules have no repetition rule): play goes on, to ``max_plies`` if set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from mancala.errors import BadInput, IllegalMove, is_whole_number
from mancala.games.base import RulesGame, Segment, layout_text
from mancala.games.catalogue import GameInfo, Traits, options_with_preset, register, spec_of
from mancala.games.options import RulesOptions, bool_option, int_option, start_option
from mancala.games.records import read_record_moves, result_mark, write_record

#: the most houses a side and stones a house the rules accept
MAX_HOUSES = 9
MAX_STONES = 20
#: the longest game ``max_plies`` may ask for
MAX_PLIES = 100_000
#: the longest position string or game record line read
MAX_TEXT = 400

#: a move of a game record: origin and landing house, then ``(n)`` or ``X``
_RECORD_MOVE = re.compile(r"[1-9][1-9](?:\([0-9]+\)|[Xx])?")


@dataclass(frozen=True)
class TogyzRules(RulesOptions):
    """Every Togyz Kumalak rule option, as immutable data (defaults: the federation's rules,
    as PlayStrategy and MancalaGames play them)."""

    OPTIONS_OF = "Togyz Kumalak"
    DEFAULT_NAME = "federation"

    #: houses a side (2-9); the tuzdik bans follow the board ("house 9" is the last house)
    houses: int = 9
    #: stones in each house at the start (1-20)
    stones: int = 9
    #: whether a tuzdik may not be made in the opponent's last house (house 9)
    tuzdik_forbid_last: bool = True
    #: whether the game ends as soon as a kazan holds more than half of the stones (82 of 162)
    stop_at_majority: bool = True
    #: the game ends after this many moves, each player taking the stones of their own row
    #: (0: no limit; the rules have none, positions may recur)
    max_plies: int = 0
    #: a start position other than the full board, as a position string
    #: (:meth:`TogyzKumalak.position_string`)
    start: str | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.houses <= MAX_HOUSES:
            raise BadInput(f"houses must be 2-{MAX_HOUSES}, got {self.houses}")
        if not 1 <= self.stones <= MAX_STONES:
            raise BadInput(f"stones must be 1-{MAX_STONES}, got {self.stones}")
        if not 0 <= self.max_plies <= MAX_PLIES:
            raise BadInput(f"max_plies must be 0 (no limit) to {MAX_PLIES:,}, got {self.max_plies}")
        if self.start is not None:
            houses, kazans, tuzdiks, seat = read_position(self.start, self.houses)
            object.__setattr__(self, "start", write_position(houses, kazans, tuzdiks, seat, self.houses))
            held = sum(houses) + sum(kazans)
            if held != self.total:
                raise BadInput(
                    f"a Togyz Kumalak start position holds {self.total} stones in all (houses and kazans); "
                    f"{self.start} holds {held}"
                )

    @property
    def total(self) -> int:
        """All the stones of the game (162)."""
        return 2 * self.houses * self.stones

    @classmethod
    def coerce_option(cls, name: str, value: Any) -> Any:
        """One option given as text (or JSON) as the field's type."""
        if name in ("tuzdik_forbid_last", "stop_at_majority"):
            return bool_option(name, value)
        if name == "start":
            return start_option(value)
        return int_option(name, value)


#: The named rule sets (``../shared/togyz-kumalak-rules.md`` §2.6 gives the sources).
PRESETS: dict[str, TogyzRules] = {
    # The federation's rules, as PlayStrategy, MancalaGames and PlayOK play them: no tuzdik in
    # house 9 nor opposite the opponent's, one a player; 82 stones win; 81-81 is a draw.
    "federation": TogyzRules(),
    # Ludii's older set after Pantusov (1906): no house-9 ban and no stop at 82; play runs
    # until a player cannot move.
    "pantusov": TogyzRules(tuzdik_forbid_last=False, stop_at_majority=False),
}


@dataclass(frozen=True)
class TogyzMove:
    """Sowing from ``house`` (board index, 0..2n-1); written as the mover's house number
    (``1``..``9``)."""

    house: int
    #: houses a side (for the number); not part of the move's identity
    houses: int = field(default=9, compare=False)

    def __str__(self) -> str:
        return str(self.house % self.houses + 1)


@dataclass(frozen=True)
class TogyzEvent:
    """What the move that produced a state did, for people and the board to show."""

    move: TogyzMove
    seat: int
    #: stones lifted from the origin
    sown: int
    #: board index of the house the last stone reached
    landing: int
    #: stones that fell into each player's tuzdik during the sowing (South's, North's)
    delivered: tuple[int, int] = (0, 0)
    #: the house captured (board index) and its stones, else None
    capture: tuple[int, int] | None = None
    #: the board index of the tuzdik this move made, else None
    tuzdik: int | None = None
    #: why 3 stones in the last house made no tuzdik (``owned``, ``last-house``,
    #: ``opposite``), else None
    refused: str | None = None
    #: why the game ended with this move (``majority``, ``no-move``, ``max-plies``), else None
    end: str | None = None

    @property
    def gained(self) -> int:
        """Stones the mover's kazan gained (captures, a tuzdik made, stones into its tuzdik)."""
        taken = self.capture[1] if self.capture else 0
        return taken + (3 if self.tuzdik is not None else 0) + self.delivered[self.seat]


@dataclass(frozen=True)
class TogyzState:
    """An immutable Togyz Kumalak position: the houses (a tuzdik holds 0), the kazans, each
    player's tuzdik (a board index on the opponent's row, or -1), the side to move.  Equality
    is the position; :attr:`last` is how we got here."""

    houses: tuple[int, ...]
    kazans: tuple[int, int]
    #: each player's tuzdik: the board index of the house on the opponent's row, or -1
    tuzdiks: tuple[int, int]
    #: seat to move: 0 South, 1 North (in a finished game: who would have moved)
    seat: int
    #: moves played so far
    ply: int = 0
    finished: bool = False
    #: the move that led here, with what it did
    last: TogyzEvent | None = field(default=None, compare=False, repr=False)

    @property
    def size(self) -> int:
        """Houses a side."""
        return len(self.houses) // 2

    def row(self, seat: int) -> tuple[int, ...]:
        """The houses of ``seat``, its house 1 first."""
        n = self.size
        return self.houses[seat * n : seat * n + n]

    def tuzdik_owner(self, index: int) -> int | None:
        """The player whose tuzdik house ``index`` is, or None."""
        if index == self.tuzdiks[0]:
            return 0
        if index == self.tuzdiks[1]:
            return 1
        return None


def seat_name(seat: int) -> str:
    """``South`` (seat 0, moves first) or ``North``."""
    return "South" if seat == 0 else "North"


def house_label(n: int, index: int) -> str:
    """A house as people name it: its owner's name and number (``North's 3``)."""
    return f"{seat_name(index // n)}'s {index % n + 1}"


class TogyzKumalak(RulesGame):
    """Togyz Kumalak under the given rules (``TogyzKumalak()`` is the federation's);
    implements :class:`mancala.games.base.Game`."""

    name = "togyz"
    rules_class = TogyzRules
    rules: TogyzRules

    # --- protocol --------------------------------------------------------

    def initial_state(self) -> TogyzState:
        """Every house holding the rules' stones, South to move (or the rules' start)."""
        r = self.rules
        if r.start is not None:
            return self.parse_position(r.start)
        return self.position(tuple([r.stones] * (2 * r.houses)), (0, 0), (-1, -1), 0)

    def position(self, houses, kazans, tuzdiks, seat: int, ply: int = 0) -> TogyzState:
        """A state with these houses, kazans, tuzdiks and side to move, finished if the rules
        say so; raises :class:`BadInput` for a board the rules cannot reach."""
        r = self.rules
        n = r.houses
        houses = tuple(int(h) for h in houses)
        kazans = (int(kazans[0]), int(kazans[1]))
        tuzdiks = (int(tuzdiks[0]), int(tuzdiks[1]))
        if len(houses) != 2 * n:
            raise BadInput(f"a Togyz Kumalak board of {n} houses a side needs {2 * n} houses, got {len(houses)}")
        if any(h < 0 for h in houses) or min(kazans) < 0:
            raise BadInput("a house or kazan cannot hold a negative number of stones")
        if sum(houses) + sum(kazans) != r.total:
            raise BadInput(
                f"a Togyz Kumalak position holds {r.total} stones in all (houses and kazans); "
                f"this one holds {sum(houses) + sum(kazans)}"
            )
        if seat not in (0, 1):
            raise BadInput(f"the side to move must be 0 (South) or 1 (North), got {seat}")
        for owner, t in enumerate(tuzdiks):
            if t == -1:
                continue
            if not (1 - owner) * n <= t < (2 - owner) * n:
                raise BadInput(f"{seat_name(owner)}'s tuzdik must be a house of {seat_name(1 - owner)}'s row")
            if r.tuzdik_forbid_last and t % n == n - 1:
                raise BadInput(f"a tuzdik cannot be house {n}, the last house of a row")
            if houses[t]:
                raise BadInput(f"{seat_name(owner)}'s tuzdik ({house_label(n, t)}) must hold no stones")
        if -1 not in tuzdiks and tuzdiks[0] % n == tuzdiks[1] % n:
            raise BadInput("the two tuzdiks cannot be houses with the same number")
        state = TogyzState(houses, kazans, tuzdiks, seat, ply=ply)
        if r.stop_at_majority and max(kazans) * 2 > r.total:
            return self._finish(state, "majority")
        if not any(state.row(seat)):
            return self._finish(state, "no-move")
        return state

    def to_move(self, state: TogyzState) -> int:
        """The seat to move (players never change seats)."""
        return state.seat

    def legal_moves(self, state: TogyzState) -> tuple[TogyzMove, ...]:
        """The mover's houses holding stones, house 1 first (there is no must-feed rule)."""
        if state.finished:
            return ()
        n = state.size
        lo = state.seat * n
        return tuple(TogyzMove(h, n) for h in range(lo, lo + n) if state.houses[h])

    def apply(self, state: TogyzState, move: TogyzMove) -> TogyzState:
        """Sow ``move`` and return the new state; raises IllegalMove when it is not legal."""
        if not isinstance(move, TogyzMove) or move not in self.legal_moves(state):
            raise IllegalMove(self._illegal_reason(state, move))
        return self._play(state, move.house)

    def is_terminal(self, state: TogyzState) -> bool:
        """Whether the game is over."""
        return state.finished

    def score(self, state: TogyzState, player: int) -> int:
        """``player``'s stones minus the opponent's: the kazans, plus each side's own row once
        the game is over (a majority ends it with stones still on the board)."""
        return self.final_stones(state, player) - self.final_stones(state, 1 - player)

    def final_stones(self, state: TogyzState, seat: int) -> int:
        """The stones ``seat`` ends with: its kazan, plus its row once the game is over."""
        return state.kazans[seat] + (sum(state.row(seat)) if state.finished else 0)

    def player_name(self, player: int, state: TogyzState | None = None) -> str:
        """``South`` (moves first, "white") or ``North``."""
        return seat_name(player)

    def move_help(self) -> str:
        """How moves are written (for a UI's ``help``)."""
        n = self.rules.houses
        return (
            f"Togyz Kumalak moves: the number of one of your houses, 1-{n}, counted from your left; "
            f"its stones are sown to the right, the first back into the house itself, and on into "
            f"your opponent's row. Game records' two-digit moves (76, 25X, 98(10)) and PlayStrategy's "
            f"(i1b2) are read too."
        )

    def parse_move(self, state: TogyzState, text: str) -> TogyzMove:
        """A move from the mover's house number (``7``), a game record's two digits with
        what they claim (``76``, ``98(10)``, ``25X``: checked against the position), or
        PlayStrategy's ``i1b2``."""
        t = text.strip()
        n = state.size
        m = re.fullmatch(r"([1-9])([1-9])?(?:\(([0-9]+)\)|([Xx]))?", t)
        u = re.fullmatch(r"([a-i])([12])([a-i])([12])", t.lower())
        if m and (m.group(2) or not (m.group(3) or m.group(4))):
            move = self._own_house(state, int(m.group(1)), t)
            if m.group(2):
                self._check_record_claims(state, move, int(m.group(2)), m.group(3), m.group(4), t)
            return move
        if u:
            origin = _uci_index(n, u.group(1), u.group(2))
            if origin is None or origin // n != state.seat:
                raise IllegalMove(f"{t!r} does not start on {seat_name(state.seat)}'s row; {self._expected(state)}")
            move = TogyzMove(origin, n)
            self._check_legal(state, move)
            dest = _uci_index(n, u.group(3), u.group(4))
            if dest != self.landing(state.houses, origin):
                raise IllegalMove(f"{t!r}: a sowing from {move} does not end on {u.group(3)}{u.group(4)}")
            return move
        raise IllegalMove(f"{t!r} is not a Togyz Kumalak move: {self._expected(state)}")

    def _own_house(self, state: TogyzState, number: int, text: str) -> TogyzMove:
        n = state.size
        if not 1 <= number <= n:
            raise IllegalMove(f"there is no house {number} (houses are 1-{n}); {self._expected(state)}")
        move = TogyzMove(state.seat * n + number - 1, n)
        self._check_legal(state, move)
        return move

    def _check_legal(self, state: TogyzState, move: TogyzMove) -> None:
        if move not in self.legal_moves(state):
            raise IllegalMove(self._illegal_reason(state, move))

    def _check_record_claims(
        self, state: TogyzState, move: TogyzMove, landing: int, kazan: str | None, mark: str | None, text: str
    ) -> None:
        """A record's two-digit move says where the last stone lands and what it did: check it."""
        after = self._play(state, move.house)
        event = after.last
        assert event is not None
        n = state.size
        if event.landing % n + 1 != landing:
            raise IllegalMove(
                f"{text!r}: a sowing from house {move} ends on house {event.landing % n + 1}, not {landing}"
            )
        if kazan is not None and (event.capture is None or after.kazans[event.seat] != int(kazan)):
            raise IllegalMove(
                f"{text!r}: this move makes the mover's kazan {after.kazans[event.seat]} with "
                f"{'a capture' if event.capture else 'no capture'}, not a capture to {kazan}"
            )
        if mark and event.tuzdik is None:
            raise IllegalMove(f"{text!r}: this move makes no tuzdik")

    def render(self, state: TogyzState) -> str:
        """The board as South sees it: North's row on top (house 9 to 1), kazans between."""
        return layout_text(self.layout(state))

    def layout(self, state: TogyzState, view: int | None = None) -> list[list[Segment]]:
        """The board of :meth:`render` as segments naming the cell each number shows
        (``(seat, "3")`` for a house, ``(seat, "kazan")``); a tuzdik is drawn ``X``."""
        n = state.size
        w = max(2, max(len(str(c)) for c in state.houses))

        def cell(i: int) -> str:
            return "X".rjust(w) if state.tuzdik_owner(i) is not None else str(state.houses[i]).rjust(w)

        def row(seat: int, order) -> list[Segment]:
            out: list[Segment] = [("  ", None)]
            for k, i in enumerate(order):
                out += [(" " if k else "", None), (f"({cell(i)})", (seat, str(i % n + 1)))]
            return out

        def numbers(order) -> str:
            return "  " + " ".join(str(i % n + 1).center(w + 2) for i in order)

        north, south = range(2 * n - 1, n - 1, -1), range(n)
        lines: list[list[Segment]] = [
            [(numbers(north) + "   North", None)],
            row(1, north),
            [
                ("  kazans: North ", None),
                (f"[{state.kazans[1]}]", (1, "kazan")),
                ("  South ", None),
                (f"[{state.kazans[0]}]", (0, "kazan")),
            ],
            row(0, south),
            [(numbers(south) + "   South", None)],
        ]
        owned = [f"{seat_name(s)}'s is {house_label(n, t)}" for s, t in enumerate(state.tuzdiks) if t >= 0]
        if owned:
            lines.append([("  X = a tuzdik: " + "; ".join(owned), None)])
        return lines

    def describe_move(self, before: TogyzState, move: TogyzMove, after: TogyzState) -> str:
        """What the move did, in words; a game-ending move also gives the final count."""
        text = self.describe_event(after.last) if after.last else f"{move} played."
        if after.finished:
            text += f" Final count: South {self.final_stones(after, 0)}, North {self.final_stones(after, 1)}."
        return text

    def describe_event(self, event: TogyzEvent) -> str:
        """The move's effect, e.g. ``North plays 1: 10 stones, the last on South's 1 (3):
        a tuzdik for North, +3.``"""
        n = self.rules.houses
        who, other = seat_name(event.seat), seat_name(1 - event.seat)
        parts = [f"{event.sown} stone{'s' if event.sown != 1 else ''}, the last on {house_label(n, event.landing)}"]
        for owner in (0, 1):
            if event.delivered[owner]:
                k = event.delivered[owner]
                parts.append(
                    f"{k} stone{'s' if k != 1 else ''} into {seat_name(owner)}'s tuzdik, to {seat_name(owner)}'s kazan"
                )
        if event.capture:
            parts.append(f"captures {event.capture[1]} stones (an even count) from {house_label(n, event.capture[0])}")
        if event.tuzdik is not None:
            parts.append(
                f"3 stones make {house_label(n, event.tuzdik)} {who}'s tuzdik: +3, and every stone sown there is {who}'s"
            )
        if event.refused:
            parts.append(_REFUSED_WORDS[event.refused].format(who=who, other=other, n=n))
        if event.end:
            parts.append(_END_WORDS[event.end].format(who=who, other=other))
        return f"{who} plays {event.move}: " + "; ".join(parts) + "."

    # --- notation --------------------------------------------------------

    def position_string(self, state: TogyzState) -> str:
        """The spec's compact position: each row in its owner's house order, ``X`` for a
        tuzdik, the kazans and the side to move
        (``9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 S``)."""
        return write_position(state.houses, state.kazans, state.tuzdiks, state.seat, state.size)

    def parse_position(self, text: str) -> TogyzState:
        """The state :meth:`position_string` wrote (or PlayStrategy's FEN); raises
        :class:`BadInput` saying what was expected."""
        if len(str(text).split()) in (4, 5):
            houses, kazans, tuzdiks, seat = read_fen(text, self.rules.houses)
        else:
            houses, kazans, tuzdiks, seat = read_position(text, self.rules.houses)
        return self.position(houses, kazans, tuzdiks, seat)

    def fen(self, state: TogyzState) -> str:
        """PlayStrategy's FEN of ``state`` (§1.3)."""
        return write_fen(state.houses, state.kazans, state.tuzdiks, state.seat, state.size, state.ply // 2 + 1)

    def uci(self, state: TogyzState, move: TogyzMove) -> str:
        """PlayStrategy's move string (origin and the house of the last stone, ``i1b2``)."""
        n = state.size
        return _uci_key(n, move.house) + _uci_key(n, self.landing(state.houses, move.house))

    def record_move(self, before: TogyzState, move: TogyzMove, after: TogyzState) -> str:
        """The move as game records write it: origin and landing house numbers, then
        ``(n)`` (the mover's kazan after a capture) or ``X`` (a tuzdik made)."""
        event = after.last
        assert event is not None and event.move == move
        n = before.size
        text = f"{move.house % n + 1}{event.landing % n + 1}"
        if event.tuzdik is not None:
            return text + "X"
        if event.capture is not None:
            return text + f"({after.kazans[event.seat]})"
        return text

    def read_game_text(self, text: str) -> tuple[dict[str, Any], list[str]]:
        """The rules options (a ``[Position "…"]`` header's start) and the moves of a game
        record as PlayOK and 9qum.com write it (:func:`read_record_moves`); raises
        :class:`BadInput` for a text that is not one."""
        headers, moves = read_record_moves(text)
        if not moves or not all(_RECORD_MOVE.fullmatch(m) for m in moves):
            odd = next((m for m in moves if not _RECORD_MOVE.fullmatch(m)), None)
            what = f"{odd[:20]!r} is not a move such as 76, 98(10) or 25X" if odd else "it holds no moves"
            raise BadInput(f"not a Togyz Kumalak game record: {what}")
        options = togyz_start_options(headers["Position"]) if "Position" in headers else {}
        return options, moves

    def write_game_text(
        self, start: TogyzState, moves: Sequence[TogyzMove], names: Sequence[str | None] = (None, None)
    ) -> str:
        """``moves`` played from ``start`` as a PlayOK-style record: headers (the people who
        played, ``White`` for South and ``Black`` for North as PlayOK names them; the start
        position when it is not the usual one), numbered pairs of two-digit moves with ``(n)``
        and ``X`` (``1. ...`` when North moves first), then the result."""
        state, words = start, []
        for move in moves:
            after = self.apply(state, move)
            words.append(self.record_move(state, move, after))
            state = after
        result = result_mark(state.finished, self.score(state, 0))
        headers = [("Event", "mancala"), ("Game", spec_of(self)), ("Result", result)]
        if start != self.position(tuple([self.rules.stones] * len(start.houses)), (0, 0), (-1, -1), 0):
            headers.append(("Position", self.position_string(start)))
        return write_record(headers, words, start.seat == 1, result, names)

    # --- the rules ---------------------------------------------------------

    def landing(self, houses: tuple[int, ...], origin: int) -> int:
        """The house the last stone sown from ``origin`` reaches."""
        size = len(houses)
        count = houses[origin]
        return (origin + 1) % size if count == 1 else (origin + count - 1) % size

    def _play(self, state: TogyzState, origin: int) -> TogyzState:
        r = self.rules
        n = state.size
        size = 2 * n
        seat = state.seat
        cells = list(state.houses)
        kazans = list(state.kazans)
        tuzdiks = state.tuzdiks
        count = cells[origin]
        cells[origin] = 0
        first = (origin + 1) % size if count == 1 else origin
        delivered = [0, 0]
        # every house gets count // size stones, the first count % size from ``first`` one more
        laps, rest = divmod(count, size)
        for k in range(size):
            i = (first + k) % size
            add = laps + (1 if k < rest else 0)
            owner = 0 if i == tuzdiks[0] else 1 if i == tuzdiks[1] else None
            if owner is None:
                cells[i] += add
            else:
                delivered[owner] += add
        kazans[0] += delivered[0]
        kazans[1] += delivered[1]
        landing = (first + count - 1) % size
        capture: tuple[int, int] | None = None
        tuzdik: int | None = None
        refused: str | None = None
        if landing // n != seat and landing not in tuzdiks:
            held = cells[landing]
            if held % 2 == 0:
                capture = (landing, held)
                kazans[seat] += held
                cells[landing] = 0
            elif held == 3:
                refused = self._tuzdik_refusal(tuzdiks, seat, landing, n)
                if refused is None:
                    tuzdik = landing
                    kazans[seat] += 3
                    cells[landing] = 0
                    tuzdiks = (landing, tuzdiks[1]) if seat == 0 else (tuzdiks[0], landing)
        after = TogyzState(tuple(cells), (kazans[0], kazans[1]), tuzdiks, 1 - seat, state.ply + 1)
        end: str | None = None
        if r.stop_at_majority and max(kazans) * 2 > r.total:
            end = "majority"
        elif not any(after.row(1 - seat)):
            end = "no-move"
        elif r.max_plies and after.ply >= r.max_plies:
            end = "max-plies"
        event = TogyzEvent(
            TogyzMove(origin, n), seat, count, landing, (delivered[0], delivered[1]), capture, tuzdik, refused, end
        )
        if end is not None:
            after = self._finish(after, end)
        return replace(after, last=event)

    def _tuzdik_refusal(self, tuzdiks: tuple[int, int], seat: int, landing: int, n: int) -> str | None:
        """Why 3 stones in ``landing`` make no tuzdik for ``seat`` (§2.4), or None."""
        if tuzdiks[seat] != -1:
            return "owned"
        if self.rules.tuzdik_forbid_last and landing % n == n - 1:
            return "last-house"
        if tuzdiks[1 - seat] != -1 and tuzdiks[1 - seat] % n == landing % n:
            return "opposite"
        return None

    def _finish(self, state: TogyzState, end: str) -> TogyzState:
        """``state`` as the end of the game: each row's stones to its owner's kazan (when a
        player cannot move, every stone left is on the other's row: they take them all); a
        majority leaves the board as it is (the spec's T-13, PlayStrategy)."""
        if end == "majority":
            return replace(state, finished=True)
        kazans = (state.kazans[0] + sum(state.row(0)), state.kazans[1] + sum(state.row(1)))
        return replace(state, houses=(0,) * len(state.houses), kazans=kazans, finished=True)

    # --- messages ------------------------------------------------------------

    def _expected(self, state: TogyzState) -> str:
        moves = self.legal_moves(state)
        if not moves:
            return "the game is over"
        return "legal moves are " + ", ".join(str(m) for m in moves)

    def _illegal_reason(self, state: TogyzState, move: object) -> str:
        if state.finished:
            return "the game is over: no move is legal"
        if not isinstance(move, TogyzMove):
            return f"{move!r} is not a Togyz Kumalak move; {self._expected(state)}"
        n = state.size
        if not state.seat * n <= move.house < state.seat * n + n:
            return f"{move} is not one of {seat_name(state.seat)}'s houses; {self._expected(state)}"
        if state.tuzdik_owner(move.house) is not None:
            return f"house {move} is {seat_name(1 - state.seat)}'s tuzdik; {self._expected(state)}"
        return f"house {move} is empty; {self._expected(state)}"


_REFUSED_WORDS = {
    "owned": "3 stones, but {who} already has a tuzdik: no second one",
    "last-house": "3 stones, but house {n} cannot become a tuzdik",
    "opposite": "3 stones, but {other}'s tuzdik has the same number: no tuzdik",
}

_END_WORDS = {
    "majority": "more than half of the stones: game over",
    "no-move": "{other} has no stones to move: game over, {who} takes every stone left",
    "max-plies": "the move limit is reached: game over, each player takes their own row",
}


# --- positions as text ---------------------------------------------------------


def write_position(houses, kazans, tuzdiks, seat: int, n: int) -> str:
    """The spec's compact position string (§1.3): ``S1,…,Sn/N1,…,Nn kS-kN T``, ``X`` for a
    tuzdik house."""

    def row(owner: int) -> str:
        cells = range(owner * n, owner * n + n)
        return ",".join("X" if i in tuzdiks else str(houses[i]) for i in cells)

    return f"{row(0)}/{row(1)} {kazans[0]}-{kazans[1]} {'SN'[seat]}"


def _number(text: str, what: str, whole: str) -> int:
    if not is_whole_number(text):
        raise BadInput(
            f"cannot read Togyz Kumalak position {whole[:80]!r}: {what} must be a whole number, got {text[:20]!r}"
        )
    return int(text)


def read_position(text: str, n: int) -> tuple[list[int], tuple[int, int], tuple[int, int], int]:
    """The houses, kazans, tuzdiks and side to move of a compact position string for ``n``
    houses a side (an ``X`` on a row is the tuzdik of that row's opponent); raises
    :class:`BadInput` saying what was expected."""
    text = str(text).strip()
    expected = f"{n} houses of South, '/', {n} of North (X for a tuzdik), the kazans as 'kS-kN' and S or N"
    parts = text.replace("+", " ").split()
    if len(text) > MAX_TEXT or len(parts) != 3 or parts[0].count("/") != 1:
        raise BadInput(f"cannot read Togyz Kumalak position {text[:80]!r}: expected {expected}")
    rows = parts[0].split("/")
    houses: list[int] = []
    tuzdiks = [-1, -1]
    for owner, cells in enumerate(rows):
        words = cells.split(",")
        if len(words) != n:
            raise BadInput(
                f"cannot read Togyz Kumalak position {text[:80]!r}: {seat_name(owner)}'s row needs {n} houses, got {len(words)}"
            )
        for k, w in enumerate(words):
            if w.strip().upper() == "X":
                if tuzdiks[1 - owner] != -1:
                    raise BadInput(
                        f"cannot read Togyz Kumalak position {text[:80]!r}: {seat_name(owner)}'s row has two tuzdiks"
                    )
                tuzdiks[1 - owner] = owner * n + k
                houses.append(0)
            else:
                houses.append(_number(w.strip(), "a house", text))
    kazan_words = parts[1].split("-")
    if len(kazan_words) != 2:
        raise BadInput(
            f"cannot read Togyz Kumalak position {text[:80]!r}: the kazans are written 'kS-kN', got {parts[1][:20]!r}"
        )
    kazans = (_number(kazan_words[0], "a kazan", text), _number(kazan_words[1], "a kazan", text))
    if parts[2].upper() not in ("S", "N"):
        raise BadInput(f"cannot read Togyz Kumalak position {text[:80]!r}: the side to move must be S or N")
    return houses, kazans, (tuzdiks[0], tuzdiks[1]), "SN".index(parts[2].upper())


def write_fen(houses, kazans, tuzdiks, seat: int, n: int, number: int = 1) -> str:
    """PlayStrategy's FEN (§1.3): North's houses n→1, '/', South's 1→n; ``<k>S`` a house of k
    stones, ``t`` a tuzdik, a digit a run of empty houses; the kazans, ``S``/``N``, the move
    number."""

    def rank(order) -> str:
        out: list[str] = []
        empty = 0
        for i in order:
            if i not in tuzdiks and houses[i] == 0:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append("t" if i in tuzdiks else f"{houses[i]}S")
        if empty:
            out.append(str(empty))
        return ",".join(out)

    return f"{rank(range(2 * n - 1, n - 1, -1))}/{rank(range(n))} {kazans[0]} {kazans[1]} {'SN'[seat]} {number}"


def read_fen(text: str, n: int) -> tuple[list[int], tuple[int, int], tuple[int, int], int]:
    """The houses, kazans, tuzdiks and side to move of a PlayStrategy FEN; raises
    :class:`BadInput` saying what was expected."""
    text = str(text).strip()
    parts = text.split()
    if len(text) > MAX_TEXT or len(parts) not in (4, 5) or parts[0].count("/") != 1:
        raise BadInput(
            f"cannot read FEN {text[:80]!r}: expected '<North n..1>/<South 1..n> <South kazan> <North kazan> S|N [move]'"
        )

    def rank(word: str, owner: int) -> list[int | None]:
        cells: list[int | None] = []
        for item in word.split(","):
            if re.fullmatch(r"[0-9]+S", item):
                cells.append(int(item[:-1]))
            elif item == "t":
                cells.append(None)
            elif is_whole_number(item) and 0 < int(item) <= n:
                cells += [0] * int(item)
            else:
                raise BadInput(
                    f"cannot read FEN {text[:80]!r}: {item[:20]!r} is not '<k>S', 't' or a run of empty houses"
                )
            if len(cells) > n:
                break
        if len(cells) != n:
            raise BadInput(f"cannot read FEN {text[:80]!r}: {seat_name(owner)}'s row needs {n} houses")
        return cells

    north = rank(parts[0].split("/")[0], 1)[::-1]
    south = rank(parts[0].split("/")[1], 0)
    houses: list[int] = []
    tuzdiks = [-1, -1]
    for owner, row in ((0, south), (1, north)):
        for k, c in enumerate(row):
            if c is None:
                if tuzdiks[1 - owner] != -1:
                    raise BadInput(f"cannot read FEN {text[:80]!r}: {seat_name(owner)}'s row has two tuzdiks")
                tuzdiks[1 - owner] = owner * n + k
            houses.append(c or 0)
    kazans = (_number(parts[1], "a kazan", text), _number(parts[2], "a kazan", text))
    if parts[3].upper() not in ("S", "N"):
        raise BadInput(f"cannot read FEN {text[:80]!r}: the side to move must be S or N")
    return houses, kazans, (tuzdiks[0], tuzdiks[1]), "SN".index(parts[3].upper())


def _uci_key(n: int, index: int) -> str:
    """PlayStrategy's square of a house: South's house k is file k, rank 1; North's house k
    is file n+1-k, rank 2 (``a1``..``i1``, ``i2``..``a2``)."""
    if index < n:
        return f"{chr(ord('a') + index)}1"
    return f"{chr(ord('a') + 2 * n - 1 - index)}2"


def _uci_index(n: int, file: str, rank: str) -> int | None:
    k = ord(file) - ord("a")
    if k >= n:
        return None
    return k if rank == "1" else 2 * n - 1 - k


def togyz_start_options(text: str) -> dict[str, Any]:
    """The rules options (``houses``, ``stones``, ``start``) that start Togyz Kumalak at the
    position ``text`` (the compact string of :meth:`TogyzKumalak.position_string`); raises
    :class:`BadInput` saying what was expected."""
    text = text.strip()
    rows = text.replace("+", " ").split()[0] if text.split() else ""
    if rows.count("/") != 1:
        raise BadInput(
            f"cannot read Togyz Kumalak position {text[:80]!r}: expected South's houses, '/', North's "
            "(X for a tuzdik), the kazans and S or N, e.g. 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 S"
        )
    n = len(rows.split("/")[0].split(","))
    if not 2 <= n <= MAX_HOUSES:
        raise BadInput(f"a Togyz Kumalak row has 2-{MAX_HOUSES} houses, this position has {n}")
    houses, kazans, _, _ = read_position(text, n)
    total = sum(houses) + sum(kazans)
    if total % (2 * n) or not 1 <= total // (2 * n) <= MAX_STONES:
        raise BadInput(
            f"a Togyz Kumalak position of {n} houses a side holds 2 x {n} x (stones a house) in all; "
            f"this one holds {total}"
        )
    return {"houses": n, "stones": total // (2 * n), "start": text}


def _togyz_from_options(options: dict[str, str]) -> TogyzKumalak:
    return TogyzKumalak(TogyzRules.from_dict(options_with_preset(TOGYZ, options)))


#: Togyz Kumalak in the game catalogue
TOGYZ = register(
    GameInfo(
        "togyz",
        "Togyz Kumalak",
        "Togyz Kumalak (Togyzqumalaq, Toguz Korgool): 2 x 9 houses, 162 stones, even captures and the tuzdik "
        "(options: preset, houses, stones, ...)",
        _togyz_from_options,
        TogyzRules,
        PRESETS,
        "federation",
        seeds=lambda state: sum(state.houses) + sum(state.kazans),
        traits=Traits(
            board="togyz",
            sides=("South", "North"),
            margin_unit="stones",
            value_unit="seeds",
            evaluation="togyz",
            may_repeat=True,
            capabilities=frozenset({"position", "layout", "move_help", "game_text"}),
        ),
        start_options=togyz_start_options,
        start_text="a position such as 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 S (X for a tuzdik)",
        aliases=("togyzkumalak", "togyzqumalaq", "toguzkorgool", "toguzkumalak"),
        rank=3,
    )
)
