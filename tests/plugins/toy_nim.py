"""A toy game registered from the tests, never shipped: Nim with one pile, take 1 to
``most`` stones, whoever takes the last stone wins.  It lives only in this file: the
conformance suite, the CLI and the server must take it with no edit anywhere else (the tests
name this module in ``$MANCALA_GAMES``, so worker processes load it too)."""

from __future__ import annotations

from dataclasses import dataclass

from mancala.errors import BadInput, IllegalMove
from mancala.games.catalogue import GameInfo, register
from mancala.games.options import int_option


@dataclass(frozen=True)
class NimRules:
    """The pile and the most stones a move takes."""

    stones: int = 7
    most: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.stones <= 100 or not 1 <= self.most <= 10:
            raise BadInput("nim: stones must be 0-100 and most 1-10")

    def to_dict(self) -> dict:
        """Every option."""
        return {"stones": self.stones, "most": self.most}

    @classmethod
    def from_dict(cls, data: dict) -> "NimRules":
        """Rules from options (text or numbers)."""
        unknown = set(data) - {"stones", "most"}
        if unknown:
            raise BadInput(f"unknown nim option(s) {', '.join(sorted(unknown))}")
        return cls(**{k: int_option(k, v) for k, v in data.items()})

    def describe(self) -> str:
        """The options that differ from the defaults."""
        return ", ".join(f"{k}={v}" for k, v in self.to_dict().items() if v != getattr(NimRules, k)) or "standard"


@dataclass(frozen=True)
class NimState:
    """Stones left and the player to move."""

    stones: int
    player: int = 0


class Nim:
    """One-pile Nim."""

    name = "toynim"

    def __init__(self, rules: NimRules | None = None) -> None:
        self.rules = rules or NimRules()

    def __eq__(self, other) -> bool:
        return isinstance(other, Nim) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash(self.rules)

    def initial_state(self) -> NimState:
        """The whole pile, first player to move."""
        return NimState(self.rules.stones)

    def to_move(self, state: NimState) -> int:
        """Whose turn it is."""
        return state.player

    def legal_moves(self, state: NimState) -> list[int]:
        """How many stones may be taken."""
        return list(range(1, min(self.rules.most, state.stones) + 1))

    def apply(self, state: NimState, move: int) -> NimState:
        """Take ``move`` stones."""
        if move not in self.legal_moves(state):
            raise IllegalMove(f"take 1 to {min(self.rules.most, state.stones)} stones, not {move}")
        return NimState(state.stones - move, 1 - state.player)

    def is_terminal(self, state: NimState) -> bool:
        """No stone left."""
        return state.stones == 0

    def score(self, state: NimState, player: int) -> int:
        """+1 for the player who took the last stone, once the pile is empty."""
        if state.stones:
            return 0
        return 1 if state.player != player else -1

    def parse_move(self, state: NimState, text: str) -> int:
        """A number of stones."""
        try:
            move = int(str(text).strip())
        except ValueError:
            raise IllegalMove(f"{text!r} is not a number of stones") from None
        self.apply(state, move)
        return move

    def render(self, state: NimState) -> str:
        """The pile."""
        return f"{state.stones} stones: " + "|" * state.stones

    def describe_move(self, before: NimState, move: int, after: NimState) -> str:
        """Who took what."""
        return f"{self.player_name(before.player)} takes {move}."

    def player_name(self, player: int, state: NimState | None = None) -> str:
        """First and Second."""
        return ("First", "Second")[player]


register(
    GameInfo(
        "toynim",
        "Toy Nim",
        "one-pile Nim, a toy game registered by the tests",
        lambda options: Nim(NimRules.from_dict(options)),
        NimRules,
    )
)
