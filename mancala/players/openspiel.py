"""OpenSpiel's bots as players: ``openspiel-mcts:sims=10000`` and ``openspiel-ab:depth=N``,
on the games OpenSpiel has too (:data:`OPENSPIEL_GAMES`):

* Kalah: OpenSpiel's ``mancala`` is standard Kalah(6,4) (no capture from an empty opposite
  pit, remaining seeds to their row's owner), so the players accept exactly our
  ``standard`` preset.  Board mapping: OpenSpiel's cell ``i`` is our cell ``i - 1`` (mod
  14): its 0 is North's store, 1..6 South's pits, 7 South's store, 8..13 North's pits;
  South's pit ``p`` is action ``p``, North's pit ``p`` is action ``7 + p``.
* Oware: OpenSpiel's ``oware`` is our ``abapa``/``openspiel`` rules, any houses per side and
  seeds per house (its two parameters); action ``k`` is the mover's house ``k`` (``A``+k or
  ``a``+k).  OpenSpiel's oware aborts the process past 1000 moves (its roll-outs too), so
  the players refuse to move after move 600 (one clear error) rather than take the
  process down.

Our referee stays authoritative: the bot sees an OpenSpiel state kept in step with ours
(the moves played since its last turn are found by a short search from its previous
position, and replayed there), and its answer goes back through our rules.

* ``openspiel-mcts``: OpenSpiel's C++ ``MCTSBot`` with random roll-outs (options
  ``sims`` (default 1000), ``rollouts`` per leaf (1), ``uct`` (exploration constant, 2),
  ``seed``); ``solve`` is on (MCTS-Solver backs up proven wins and losses).
* ``openspiel-ab``: ``open_spiel.python.algorithms.minimax.alpha_beta_search`` to
  ``depth`` plies (default 6) with the store difference / 100 as its value (so a won
  game, worth 1, outranks any lead).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from mancala.errors import BadInput
from mancala.games.base import Game
from mancala.games.kalah import PRESETS, Kalah, KalahMove, KalahState
from mancala.games.oware import PRESETS as OWARE_PRESETS
from mancala.games.oware import OwareMove, OwareRules
from mancala.players.registry import PlayerKind, register_kind
from mancala.players.spec import take_option


def _pyspiel():
    try:
        import pyspiel  # noqa: PLC0415
    except ImportError:
        raise BadInput("OpenSpiel players need the open_spiel package (pip install open_spiel)") from None
    return pyspiel


@dataclass(frozen=True)
class OpenSpielGame:
    """How one of our games is played through OpenSpiel."""

    #: OpenSpiel's game string for our game
    load: Callable[[Any], str]
    #: whether our game (its rules) is exactly OpenSpiel's game
    accepts: Callable[[Any], bool]
    #: what a refused game is told
    refusal: str
    #: our move -> OpenSpiel's action, in our state
    to_action: Callable[[Any, Any], int]
    #: OpenSpiel's action -> our move, in our state
    to_move: Callable[[Any, int], Any]
    #: South's lead in seeds read from an OpenSpiel state (alpha-beta's leaf value)
    lead: Callable[[Any], int]
    #: the last move number the bot plays in a game (None: no limit)
    max_moves: int | None = None


def _kalah_lead(os_state) -> int:
    b = our_board(os_state)
    return b[6] - b[13]


def _oware_accepts(game: Any) -> bool:
    rules = getattr(game, "rules", None)
    if not isinstance(rules, OwareRules):  # (OpenSpiel's oware speaks Oware's rules)
        return False
    same = replace(rules, houses=6, seeds=4, sweep_at_majority=False)
    return same == OWARE_PRESETS["abapa"]


def _oware_lead(os_state) -> int:
    _, stores, _ = os_state.observation_string(0).split("|")
    south, north = map(int, stores.split())
    return south - north


#: our games (and rule sets) OpenSpiel has: the first entry that accepts a game plays it
OPENSPIEL_GAMES: tuple[OpenSpielGame, ...] = (
    OpenSpielGame(
        load=lambda game: "mancala",
        accepts=lambda game: game == Kalah(PRESETS["standard"]),
        refusal="standard Kalah (6 pits of 4 seeds; no other rules or size)",
        to_action=lambda state, move: move_to_action(state, move),
        to_move=lambda state, action: action_to_move(state, action),
        lead=_kalah_lead,
    ),
    OpenSpielGame(
        load=lambda game: f"oware(num_houses_per_player={game.rules.houses},num_seeds_per_house={game.rules.seeds})",
        accepts=_oware_accepts,
        refusal="Oware under the abapa or openspiel rules (any houses and seeds), from the start",
        to_action=lambda state, move: move.house - state.seat * state.size,
        to_move=lambda state, action: OwareMove(state.seat * state.size + action, state.size),
        lead=_oware_lead,
        max_moves=600,
    ),
)


def openspiel_game(game: Any) -> OpenSpielGame:
    """How ``game`` is played through OpenSpiel; raises :class:`BadInput` for a game (or
    rules) OpenSpiel does not have."""
    entry = next((e for e in OPENSPIEL_GAMES if e.accepts(game)), None)
    if entry is None:
        known = "; ".join(e.refusal for e in OPENSPIEL_GAMES)
        raise BadInput(f"OpenSpiel players play only the games OpenSpiel has: {known}")
    return entry


def check_standard(game: Any) -> None:
    """Raise :class:`BadInput` unless OpenSpiel has ``game`` (see :data:`OPENSPIEL_GAMES`)."""
    openspiel_game(game)


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


def find_path(game: Any, start: Any, target: Any) -> list | None:
    """The moves that lead from ``start`` to ``target`` (``target.ply - start.ply`` of them),
    or None.  Stores never shrink, which prunes the search."""
    depth = target.ply - start.ply
    if depth < 0:
        return None
    goal = (target.store(0), target.store(1))

    def dfs(state: Any, left: int) -> list | None:
        if left == 0:
            return [] if state == target else None
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
    _shadow_game: Any = field(default=None, init=False, repr=False)
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

    def sync(self, game: Any, state: Any) -> None:
        """Bring the OpenSpiel state in step with ``state`` (:meth:`choose` does it; the path
        search from the bot's last position grows with the moves in between, so a caller
        replaying a long opening calls this after each of its moves)."""
        check_standard(game)
        self._sync(game, state)

    def _sync(self, game: Any, state: Any) -> None:
        """Bring the OpenSpiel state in step with ``state``."""
        pyspiel = _pyspiel()
        adapter = openspiel_game(game)
        path = None
        if self._shadow is not None and self._shadow_game == game:
            path = find_path(game, self._shadow, state)
        if path is None:
            self._os_state = pyspiel.load_game(adapter.load(game)).new_initial_state()
            self._shadow, self._shadow_game = game.initial_state(), game
            path = find_path(game, self._shadow, state)
            if path is None:
                raise BadInput("OpenSpiel players must start from the standard start position")
        for move in path:
            self._os_state.apply_action(adapter.to_action(self._shadow, move))
            self._shadow = game.apply(self._shadow, move)

    def choose(self, game: Game, state) -> Any:
        """The bot's move in ``state`` (checked against our rules by the caller)."""
        adapter = openspiel_game(game)
        if adapter.max_moves is not None and state.ply >= adapter.max_moves - 1:
            raise BadInput(
                f"OpenSpiel's {adapter.load(game)} stops at {adapter.max_moves} moves "
                f"(it aborts past them); this game is at move {state.ply + 1}"
            )
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
                diff = adapter.lead(s)
                return (diff if me == 0 else -diff) / 100.0

            _, action = alpha_beta_search(os_state.get_game(), os_state.clone(), value, self.depth, me)
        move = adapter.to_move(state, int(action))
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


def _make_bot(kind: str, spec: str, options: dict, ask: Any) -> Any:
    """The player of one of OpenSpiel's bots (a player kind's factory)."""
    return make_openspiel_player(kind, options, spec)


#: OpenSpiel's two bots as player kinds: (kind, what it is, its option and default, the
#: tests' small value, how the form and the title name it)
_BOTS = (
    ("openspiel-mcts", "Monte Carlo tree search", "sims", 1000, 50, "MCTS, {} simulations", "OpenSpiel MCTS {sims}"),
    ("openspiel-ab", "alpha-beta", "depth", 6, 2, "alpha-beta, depth {}", "OpenSpiel alpha-beta, depth {depth}"),
)
for _rank, (_kind, _what, _option, _default, _quick, _label, _title) in enumerate(_BOTS, 20):
    register_kind(
        PlayerKind(
            _kind,
            f"OpenSpiel's {_what} (standard Kalah and Oware)",
            f"{_kind}:{_option}={_default}",
            f"{_kind}:{_option}={_quick}",
            functools.partial(_make_bot, _kind),
            ({"name": _option, "kind": "int", "default": _default},),
            needs="pyspiel",
            label=f"OpenSpiel {_label.format(_default)} (standard Kalah, Oware)",
            title=_title,
            rank=_rank,
            plays=lambda game: any(e.accepts(game) for e in OPENSPIEL_GAMES),
        )
    )
