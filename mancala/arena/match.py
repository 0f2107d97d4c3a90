"""Playing games between players: one game, or a match of many with seats swapped.

>>> from mancala.games import make_game
>>> from mancala.players import make_player
>>> record = play_game(make_game("kalah"), [make_player("greedy"), make_player("random:seed=1")])
>>> record.game.is_terminal(record.final_state())
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from mancala.errors import IllegalMove
from mancala.games.base import Game
from mancala.players import Player, RandomPlayer, make_player
from mancala.record import GameRecord

#: called after every move with (record, state before, move, state after)
MoveCallback = Callable[[GameRecord, Any, Any, Any], None]


def play_game(
    game: Game,
    players: Sequence[Player],
    record: GameRecord | None = None,
    on_move: MoveCallback | None = None,
    max_moves: int = 10_000,
) -> GameRecord:
    """Play to the end (or ``max_moves`` more moves) and return the game record.

    ``players[p]`` chooses for player ``p``; a record passed in is continued.
    """
    record = record or GameRecord(game, [p.spec for p in players])
    follow_record(players, record)
    state = record.final_state()
    for _ in range(max_moves):
        if game.is_terminal(state):
            break
        player = players[game.to_move(state)]
        move = player.choose(game, state)
        if move not in game.legal_moves(state):
            raise IllegalMove(f"player {player.spec} chose {move}, which is not legal")
        after = game.apply(state, move)
        record.moves.append(move)
        if on_move is not None:
            on_move(record, state, move, after)
        state = after
    return record


def follow_record(players: Sequence[Player], record: GameRecord) -> None:
    """Walk players that keep their own copy of the game (OpenSpiel's: ``sync``) through the
    moves ``record`` already holds (an opening, a resumed game), one position at a time:
    left to find their way to a position many moves on, they search for the path, which
    takes exponentially longer with the moves in between (minutes after 10)."""
    syncs = [sync for sync in (getattr(p, "sync", None) for p in players) if callable(sync)]
    if syncs and record.moves:
        for state in record.states()[1:]:
            for sync in syncs:
                sync(record.game, state)


@dataclass
class Tally:
    """Games between two players ``a`` and ``b``, counted from ``a``'s side: its wins, draws
    and losses, and its final margins added up."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    margin: float = 0

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """a's share of the points (win 1, draw 1/2)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


@dataclass
class MatchResult(Tally):
    """Totals of a match between two player specs (``a`` and ``b``), seats alternating."""

    records: list[GameRecord] = field(default_factory=list, repr=False)

    @property
    def wins_a(self) -> int:
        """a's wins."""
        return self.wins

    @property
    def wins_b(self) -> int:
        """b's wins."""
        return self.losses

    @property
    def margin_a(self) -> float:
        """a's final margins added up."""
        return self.margin

    def score_a(self) -> float:
        """a's share of the points (win 1, draw 1/2)."""
        return self.score


def random_opening(game: Game, plies: int, seed: int) -> list:
    """``plies`` random legal moves from the start (fewer if the game ends), reproducible by ``seed``."""
    rng = RandomPlayer(seed)
    return play_game(game, [rng, rng], max_moves=plies).moves


def play_match(
    game: Game,
    spec_a: str,
    spec_b: str,
    games: int = 2,
    opening_plies: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> MatchResult:
    """``games`` games between two players, ``a`` moving first in the even-numbered ones.

    With ``opening_plies``, each pair of games starts from the same random opening of that
    many moves, played once with each seating: deterministic players then meet in many
    different positions, and neither gets the luckier side of an opening.
    """
    result = MatchResult(spec_a, spec_b)
    for i in range(games):
        a, b = make_player(spec_a), make_player(spec_b)
        seats = (a, b) if i % 2 == 0 else (b, a)
        opening = random_opening(game, opening_plies, seed=i // 2) if opening_plies else []
        record = play_game(game, seats, GameRecord(game, [seats[0].spec, seats[1].spec], list(opening)))
        final = record.final_state()
        margin_a = game.score(final, 0 if i % 2 == 0 else 1)
        result.margin += margin_a
        if margin_a > 0:
            result.wins += 1
        elif margin_a < 0:
            result.losses += 1
        else:
            result.draws += 1
        result.records.append(record)
        if progress is not None:
            progress(i + 1, games)
    return result
