"""OpenSpiel's bots as players: ``openspiel-mcts:sims=10000`` and ``openspiel-ab:depth=N``.

OpenSpiel's ``mancala`` is standard Kalah(6,4) (no capture from an empty opposite pit,
remaining seeds to their row's owner), so these players accept exactly our ``standard``
preset.  Our referee stays authoritative: the bot sees an OpenSpiel state kept in step
with ours (the moves played since its last turn are found by a short search from its
previous position, and replayed there), and its answer goes back through our rules.

Board mapping: OpenSpiel's cell ``i`` is our cell ``i - 1`` (mod 14): its 0 is North's
store, 1..6 South's pits, 7 South's store, 8..13 North's pits; South's pit ``p`` is action
``p``, North's pit ``p`` is action ``7 + p``.

* ``openspiel-mcts``: OpenSpiel's C++ ``MCTSBot`` with random roll-outs (options
  ``sims`` (default 1000), ``rollouts`` per leaf (1), ``uct`` (exploration constant, 2),
  ``seed``); ``solve`` is on (MCTS-Solver backs up proven wins and losses).
* ``openspiel-ab``: ``open_spiel.python.algorithms.minimax.alpha_beta_search`` to
  ``depth`` plies (default 6) with the store difference / 100 as its value (so a won
  game, worth 1, outranks any lead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mancala.errors import BadInput
from mancala.games.base import Game
from mancala.games.kalah import PRESETS, Kalah, KalahMove, KalahState
from mancala.players.registry import PlayerKind, register_kind
from mancala.players.spec import take_option


def _pyspiel():
    try:
        import pyspiel  # noqa: PLC0415
    except ImportError:
        raise BadInput("OpenSpiel players need the open_spiel package (pip install open_spiel)") from None
    return pyspiel


def check_standard(game: Any) -> None:
    """Raise :class:`BadInput` unless ``game`` is standard Kalah(6,4), OpenSpiel's mancala."""
    if game.name != "kalah" or game.rules != PRESETS["standard"]:
        raise BadInput(
            "OpenSpiel players play OpenSpiel's mancala only: standard Kalah(6,4) "
            "(--game kalah, no other preset or size)"
        )


def move_to_action(state: KalahState, move: KalahMove) -> int:
    """The OpenSpiel action of our ``move`` in ``state``."""
    assert move.pit is not None  # OpenSpiel's mancala has no swap
    return move.pit if state.seat == 0 else 7 + move.pit


def action_to_move(state: KalahState, action: int) -> KalahMove:
    """Our move for OpenSpiel ``action`` in ``state``."""
    return KalahMove(action if state.seat == 0 else action - 7)


def our_board(os_state) -> tuple[int, ...]:
    """The board of an OpenSpiel mancala state, in our cell order (see the module doc)."""
    cells = [int(x) for x in os_state.observation_tensor(0)[:14]]
    return tuple(cells[(i + 1) % 14] for i in range(14))


def find_path(game: Kalah, start: KalahState, target: KalahState) -> list[KalahMove] | None:
    """The moves that lead from ``start`` to ``target`` (``target.ply - start.ply`` of them),
    or None.  Stores never shrink, which prunes the search."""
    depth = target.ply - start.ply
    if depth < 0:
        return None
    goal = (target.store(0), target.store(1))

    def dfs(state: KalahState, left: int) -> list | None:
        if left == 0:
            return [] if (state.board == target.board and state.seat == target.seat) else None
        if state.finished or state.store(0) > goal[0] or state.store(1) > goal[1]:
            return None
        for move in game.legal_moves(state):
            rest = dfs(game.apply(state, move), left - 1)
            if rest is not None:
                return [move] + rest
        return None

    return dfs(start, depth)


@dataclass
class OpenSpielPlayer:
    """An OpenSpiel bot (``kind`` ``mcts`` or ``ab``) behind our player protocol."""

    kind: str = "mcts"
    sims: int = 1000
    rollouts: int = 1
    uct: float = 2.0
    depth: int = 6
    seed: int = 0
    spec: str = ""
    _shadow: Any = field(default=None, init=False, repr=False)
    _os_state: Any = field(default=None, init=False, repr=False)
    _bot: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in ("mcts", "ab"):
            raise BadInput(f"unknown OpenSpiel bot {self.kind!r}: openspiel-mcts or openspiel-ab")
        if not 1 <= self.sims <= 10_000_000 or not 1 <= self.rollouts <= 1000 or not 1 <= self.depth <= 40:
            raise BadInput("OpenSpiel bot: sims must be 1-10000000, rollouts 1-1000, depth 1-40")
        if self.uct <= 0:
            raise BadInput(f"OpenSpiel MCTS: uct must be positive, got {self.uct}")
        _pyspiel()
        if not self.spec:
            self.spec = (
                f"openspiel-mcts:sims={self.sims}" if self.kind == "mcts" else f"openspiel-ab:depth={self.depth}"
            )

    def check_game(self, game: Game) -> None:
        """Raise :class:`BadInput` unless this player can play ``game`` (before a tournament)."""
        check_standard(game)

    def reseed(self, seed: int) -> None:
        """Seed the bot's random numbers (the arena seeds each game from its key)."""
        self.seed = seed
        self._bot = None

    def _make_bot(self, os_game):
        pyspiel = _pyspiel()
        if self.kind == "mcts":
            evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, self.seed)
            return pyspiel.MCTSBot(os_game, evaluator, self.uct, self.sims, 1000, True, self.seed, False)
        return None

    def sync(self, game: Kalah, state: KalahState) -> None:
        """Bring the OpenSpiel state in step with ``state`` (:meth:`choose` does it; the path
        search from the bot's last position grows with the moves in between, so a caller
        replaying a long opening calls this after each of its moves)."""
        check_standard(game)
        self._sync(game, state)

    def _sync(self, game: Any, state: KalahState) -> None:
        """Bring the OpenSpiel state in step with ``state``."""
        pyspiel = _pyspiel()
        path = None
        if self._shadow is not None:
            path = find_path(game, self._shadow, state)
        if path is None:
            self._os_state = pyspiel.load_game("mancala").new_initial_state()
            self._shadow = game.initial_state()
            path = find_path(game, self._shadow, state)
            if path is None:
                raise BadInput("OpenSpiel players must start from the standard start position")
        for move in path:
            self._os_state.apply_action(move_to_action(self._shadow, move))
            self._shadow = game.apply(self._shadow, move)

    def choose(self, game: Game, state) -> KalahMove:
        """The bot's move in ``state`` (checked against our rules by the caller)."""
        check_standard(game)
        self._sync(game, state)
        os_state = self._os_state
        if self.kind == "mcts":
            if self._bot is None:
                self._bot = self._make_bot(os_state.get_game())
            action = self._bot.step(os_state)
        else:
            from open_spiel.python.algorithms.minimax import alpha_beta_search  # noqa: PLC0415 (OpenSpiel)

            me = os_state.current_player()

            def value(s) -> float:
                b = our_board(s)
                diff = b[6] - b[13]
                return (diff if me == 0 else -diff) / 100.0

            _, action = alpha_beta_search(os_state.get_game(), os_state.clone(), value, self.depth, me)
        move = action_to_move(state, int(action))
        if move in game.legal_moves(state):
            self._os_state.apply_action(int(action))
            self._shadow = game.apply(self._shadow, move)
        return move


def make_openspiel_player(kind: str, options: dict[str, str], spec: str) -> OpenSpielPlayer:
    """Build ``openspiel-mcts`` / ``openspiel-ab`` from its spec options (consumed from ``options``)."""

    def take(name: str, convert, default):
        return take_option(options, name, convert, default, spec)

    bot = kind.split("-", 1)[1]
    player = OpenSpielPlayer(
        bot,
        sims=take("sims", int, 1000),
        rollouts=take("rollouts", int, 1),
        uct=take("uct", float, 2.0),
        depth=take("depth", int, 6),
        seed=take("seed", int, 0),
    )
    if options:
        raise BadInput(f"player {spec!r}: unknown option(s) {', '.join(options)}")
    player.spec = spec.strip()
    return player


register_kind(
    PlayerKind(
        "openspiel-mcts",
        "OpenSpiel's Monte Carlo tree search (standard Kalah only)",
        "openspiel-mcts:sims=1000",
        "openspiel-mcts:sims=50",
        lambda spec, options, ask: make_openspiel_player("openspiel-mcts", options, spec),
        ({"name": "sims", "kind": "int", "default": 1000},),
        needs="pyspiel",
        label="OpenSpiel MCTS, 1000 simulations (standard Kalah)",
        rank=20,
    )
)
register_kind(
    PlayerKind(
        "openspiel-ab",
        "OpenSpiel's alpha-beta (standard Kalah only)",
        "openspiel-ab:depth=6",
        "openspiel-ab:depth=2",
        lambda spec, options, ask: make_openspiel_player("openspiel-ab", options, spec),
        ({"name": "depth", "kind": "int", "default": 6},),
        needs="pyspiel",
        label="OpenSpiel alpha-beta, depth 6 (standard Kalah)",
        rank=21,
    )
)
