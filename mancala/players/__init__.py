"""Players: who chooses the moves.  The same players play every game.

A player is built from a short spec string (the CLI's ``--p1``/``--p2``) or
directly as an object::

    make_player("alphabeta:depth=6")        AlphaBetaPlayer(depth=6)
    make_player("minimax:depth=3,eval=material")
    make_player("alphabeta:time=0.05")      iterative deepening within 0.05 s a move
    make_player("hard")                     a difficulty level (beginner ... strongest, see LEVELS)
    make_player("best:time=2")              iterative deepening within 2 s a move (opening book first)
    make_player("best:nodes=2000000,book=off")   2 M engine nodes a move, no opening book
    make_player("best:nodes=20000,eval=store:1,extra:0.5")   the engine, leaves by evaluation terms
    make_player("random:seed=7"), make_player("greedy"), make_player("human")
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from mancala.errors import BadInput
from mancala.games.base import Game
from mancala.games.bao import Bao
from mancala.games.kalah import Kalah
from mancala.search import (EVALUATIONS, SearchResult, alphabeta, greedy, kalah_material, minimax,
                            random_move, score_difference)
from mancala.search.core import Evaluation, SearchAborted

#: the deepest search a player spec may ask for, in turns (deeper never finishes anyway)
MAX_DEPTH = 64
#: the most thinking time a player spec may ask for, per move (the ManKalah referee's whole game)
MAX_MOVE_SECONDS = 3600.0


@dataclass(frozen=True)
class Level:
    """A difficulty level: the player it is on Kalah and on the other games.

    Budgets are depths (turns) and engine nodes, never seconds alone, so a level plays the
    same on a busy machine; ``seconds`` only caps Python alpha-beta in wide games (Bao's
    middle game), where the depth is reached by iterative deepening.  The Kalah ladder
    was measured with ``mancala arena`` (docs/evaluation.md, "Difficulty levels")."""

    name: str
    kalah: str
    other: str
    seconds: float = 30.0


#: the evaluation the Python levels use on Kalah (docs/evaluation.md)
LEVEL_EVAL = "store:1,seeds:0.25,extra:0.5,threat:0.5"

#: difficulty levels, weakest first (seed 004 asked for easy, medium and hard).  Measured on
#: Kalah(6,4) with ``mancala arena`` (docs/evaluation.md, "Difficulty levels": Elo on one
#: joint scale, and the score against OpenSpiel's MCTS at 100 / 1000 / 5000 simulations):
#:
#:    beginner   random                     -832   0% /  0% /  0%
#:    easy       greedy                     -418  25% /  0% / 25%
#:    medium     alpha-beta depth 2, E      -205  70% / 40% / 10%
#:    hard       alpha-beta depth 4, E       +18  90% / 75% / 55%
#:    expert     engine, depth 5            +207 100% / 75% / 85%
#:    strongest  engine, 6,000,000 nodes, E +482   (100% vs 5000)
#:
#: Every step is more than 180 Elo and neighbours' 95% intervals do not overlap.
#: On Bao the levels are the Bao engine at depths 4, 8, 10 and 14 (docs/evaluation.md, "The
#: levels on Bao, measured": every step >= 100 Elo; depth 12 for strongest was only ~110
#: above depth 10, depth 14 is ~200 above).
LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("beginner", "random", "random", 1.0),
    Level("easy", "greedy", "greedy", 2.0),
    Level("medium", f"alphabeta:depth=2,eval={LEVEL_EVAL}", "alphabeta:depth=4", 5.0),
    Level("hard", f"alphabeta:depth=4,eval={LEVEL_EVAL}", "alphabeta:depth=8", 15.0),
    Level("expert", "best:depth=5", "alphabeta:depth=10", 30.0),
    Level("strongest", f"best:nodes=6000000,eval={LEVEL_EVAL}", "alphabeta:depth=14", 60.0),
)}
#: the most a level may think per move in wide games, in seconds
LEVEL_SECONDS = {name: lv.seconds for name, lv in LEVELS.items()}


@dataclass
class LevelPlayer:
    """A difficulty level: plays as its Kalah player on Kalah, its other player elsewhere."""

    level: Level
    spec: str = ""
    _players: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.spec = self.spec or self.level.name

    def player_for(self, game: Game) -> "Player":
        """The player this level is on ``game``."""
        key = isinstance(game, Kalah)
        if key not in self._players:
            p = make_player(self.level.kalah if key else self.level.other)
            if isinstance(p, SearchPlayer) and p.algorithm == "alphabeta" and not key:
                p.seconds = self.level.seconds
            self._players[key] = p
        return self._players[key]

    def choose(self, game: Game, state) -> Any:
        """The level's move."""
        player = self.player_for(game)
        self._last_player = player
        return player.choose(game, state)

    def memory(self) -> Memory:
        """The memories of the players this level has been so far (by ``kalah``/``other``)."""
        out = {("kalah" if key else "other"): player_memory(p) for key, p in self._players.items()}
        return {k: v for k, v in out.items() if v}

    def restore(self, memory: Memory) -> None:
        """Take up :meth:`memory` again (in another process)."""
        for name, inner in memory.items():
            key = name == "kalah"
            if key not in self._players:
                p = make_player(self.level.kalah if key else self.level.other)
                if isinstance(p, SearchPlayer) and p.algorithm == "alphabeta" and not key:
                    p.seconds = self.level.seconds
                self._players[key] = p
            restore_memory(self._players[key], inner)

    @property
    def last(self) -> SearchResult | None:
        """The search behind the last move chosen (None for players that do not search)."""
        return getattr(getattr(self, "_last_player", None), "last", None)


class Player(Protocol):
    """Anything that picks a move for the player to move.

    A player crosses a process boundary as data only: its ``spec`` rebuilds it, and whatever
    it must remember from one move to the next is its :func:`player_memory` (plain data that
    :func:`restore_memory` takes up again).  Players whose memory is a live thing (an outside
    program's process) say ``portable = False``: they stay in the process that started them."""

    #: the spec string that rebuilds this player
    spec: str

    def choose(self, game: Game, state) -> Any:
        """A legal move for the player to move in ``state``."""
        ...


#: what a player carries from one move to the next, as plain data (JSON-ready: numbers,
#: strings, lists and dicts); empty for players that remember nothing
Memory = dict[str, Any]


def player_memory(player: Player) -> Memory:
    """What ``player`` must remember to go on playing in another process (``{}``: nothing)."""
    memory = getattr(player, "memory", None)
    return memory() if callable(memory) else {}


def restore_memory(player: Player, memory: Memory | None) -> Player:
    """``player`` (just built from its spec) with ``memory`` taken up again; returns it."""
    restore = getattr(player, "restore", None)
    if memory and callable(restore):
        restore(memory)
    return player


def is_portable(player: Player) -> bool:
    """Whether ``player`` can be rebuilt from its spec and memory in any process (outside
    programs cannot: their process holds the game)."""
    return bool(getattr(player, "portable", True))


def rebuild_player(spec: str, memory: Memory | None = None) -> Player:
    """The player of ``spec`` in the state ``memory`` describes: how a worker process, an
    arena worker or a Ray task takes up a player it was sent as data."""
    return restore_memory(make_player(spec), memory)


def default_evaluation(game: Game) -> Evaluation:
    """The evaluation a player uses when none is named: for Kalah, stores plus a quarter
    of the seeds on each side (it beat the plain store difference in matches, see
    docs/ai.md); for other games their own evaluation or margin."""
    if isinstance(game, Kalah):
        return kalah_material
    if isinstance(game, Bao):
        return EVALUATIONS["bao"]
    return score_difference


def _evaluation(name: str | None, game: Game) -> Evaluation:
    if name is None:
        return default_evaluation(game)
    if name in EVALUATIONS:
        return EVALUATIONS[name]
    from mancala.search.terms import make_evaluation  # noqa: PLC0415
    return make_evaluation(name)


@dataclass
class HumanPlayer:
    """A person; ``ask(game, state)`` (given by the UI) returns their move."""

    ask: Callable[[Game, Any], Any] | None = None
    spec: str = "human"

    def choose(self, game: Game, state) -> Any:
        """Ask the person through the UI's callback."""
        if self.ask is None:
            raise BadInput("a human player needs a user interface to ask for moves")
        return self.ask(game, state)


@dataclass
class RandomPlayer:
    """Uniformly random legal moves (reproducible with ``seed``)."""

    seed: int | None = None
    spec: str = "random"
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        if self.seed is not None:
            self.spec = f"random:seed={self.seed}"

    def choose(self, game: Game, state) -> Any:
        """A random legal move."""
        return random_move(game, state, self.rng)

    def memory(self) -> Memory:
        """The generator's state (so a game replays the same in any process)."""
        version, internal, gauss = self.rng.getstate()
        return {"rng": [version, list(internal), gauss]}

    def restore(self, memory: Memory) -> None:
        """Take up :meth:`memory` again; a memory that is not one of ours is one line."""
        try:
            version, internal, gauss = memory["rng"]
            self.rng.setstate((version, tuple(internal), gauss))
        except (KeyError, TypeError, ValueError) as e:
            raise BadInput(f"{self.spec}: cannot take up its memory ({e})") from None


@dataclass
class SearchPlayer:
    """A player that searches: greedy, minimax or alpha-beta to a fixed depth (in turns)."""

    algorithm: str = "alphabeta"
    depth: int = 5
    evaluation: str | None = None
    spec: str = ""
    #: with alpha-beta: deepen iteratively up to ``depth`` but stop after this many seconds
    seconds: float | None = None
    last: SearchResult | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.algorithm not in ("greedy", "minimax", "alphabeta"):
            raise BadInput(f"unknown search {self.algorithm!r}")
        if not 1 <= self.depth <= MAX_DEPTH:
            raise BadInput(f"depth must be 1-{MAX_DEPTH} turns, got {self.depth}")
        if self.evaluation is not None and self.evaluation not in EVALUATIONS:
            from mancala.search.terms import check_evaluation  # noqa: PLC0415
            check_evaluation(self.evaluation, EVALUATIONS)
        self._evaluate = None
        if not self.spec:
            self.spec = self.algorithm if self.algorithm == "greedy" else f"{self.algorithm}:depth={self.depth}"
            if self.seconds is not None:
                self.spec += f",time={self.seconds:g}"
            if self.evaluation:  # last: a combined evaluation's own commas end the spec
                self.spec += ("," if ":" in self.spec else ":") + f"eval={self.evaluation}"

    def search(self, game: Game, state) -> SearchResult:
        """The full search result for ``state``."""
        if self._evaluate is None or self._evaluate[0] is not game:
            self._evaluate = (game, _evaluation(self.evaluation, game))
        evaluate = self._evaluate[1]
        if self.algorithm == "greedy":
            return greedy(game, state, evaluate)
        if self.algorithm == "minimax":
            return minimax(game, state, self.depth, evaluate)
        if self.seconds is not None:
            if isinstance(game, Bao) and self.evaluation in (None, "bao"):
                from mancala.engine.bao_search import search as bao_search  # noqa: PLC0415 (numba on demand)
                return bao_search(game, state, self.seconds, max_depth=self.depth)
            return iterative_deepening(game, state, self.seconds, evaluate, max_depth=self.depth)
        return alphabeta(game, state, self.depth, evaluate)

    def choose(self, game: Game, state) -> Any:
        """The searched move (the first of the principal line)."""
        self.last = self.search(game, state)
        return self.last.move


def iterative_deepening(game: Game, state, seconds: float, evaluate: Evaluation | None = None, *,
                        max_depth: int = 64, clock: Callable[[], float] = time.monotonic) -> SearchResult:
    """Alpha-beta at depth 1, 2, 3, ... until ``seconds`` run out; the result of the deepest
    complete iteration.  Depth 1 always completes.  Stops early once a search scored
    only finished games (its value is then exact)."""
    evaluate = evaluate or default_evaluation(game)
    deadline = clock() + seconds
    stop = lambda: clock() >= deadline  # noqa: E731
    cut_off = [False]  # whether the last search scored any unfinished position

    def scored(game_, state_, player_):
        if not game_.is_terminal(state_):
            cut_off[0] = True
        return evaluate(game_, state_, player_)

    best = alphabeta(game, state, 1, scored)
    for depth in range(2, max_depth + 1):
        if stop() or not cut_off[0]:
            break
        first = best.move

        def pv_first(game_, state_, moves, _root=state, _first=first):
            if state_ is _root and _first in moves:
                return (_first,) + tuple(m for m in moves if m != _first)
            return moves
        cut_off[0] = False
        try:
            result = alphabeta(game, state, depth, scored, order=pv_first, stop=stop)
        except SearchAborted:
            break
        best = SearchResult(result.move, result.value, result.line, result.nodes, depth,
                            "iterative-deepening")
    return best


def best_move(game: Game, state, seconds: float = 1.0) -> Any:
    """Our strongest player's move within ``seconds``: the fast engines for Kalah and Bao,
    else iterative-deepening alpha-beta."""
    return best_search(game, state, seconds).move


def best_search(game: Game, state, seconds: float = 1.0, *, max_depth: int | None = None,
                max_nodes: int | None = None, evaluation: str | None = None, book: bool = True) -> SearchResult:
    """The search result behind :func:`best_move`; ``max_depth`` (turns) and ``max_nodes``
    bound the engine's search as well (a budget that means the same on a busy machine).
    ``evaluation`` (Kalah only: a term spec with a positive store weight, see
    :func:`mancala.search.terms.engine_weights`) replaces the engine's leaf estimate.

    On Kalah, a position in the opening book of its rules (``book``, see
    :mod:`mancala.engine.book`: the solver's results for the first turns) is answered from
    the book: an exact move, ``algorithm="book(exact)"``, no search.  Elsewhere the engine
    searches; once it proves the value (``"engine(exact)"``) its move keeps that value."""
    if isinstance(game, Kalah):
        if book and not game.is_terminal(state):
            from mancala.engine.book import book_line, probe  # noqa: PLC0415
            hit = probe(game, state)
            if hit is not None:
                return SearchResult(hit[0], hit[1], book_line(game, state), 0, 0, "book(exact)")
        from mancala.engine import best_move as engine_best_move  # noqa: PLC0415 (loads numba only when needed)
        return engine_best_move(game, state, seconds, max_depth=max_depth, max_nodes=max_nodes,
                                evaluation=evaluation)
    if evaluation is not None:
        raise BadInput(f"best:eval= sets the Kalah engine's leaf evaluation, and {game.name} is not Kalah: "
                       f"use alphabeta:eval=SPEC there")
    if isinstance(game, Bao):
        from mancala.engine.bao_search import MAX_DEPTH, search as bao_search  # noqa: PLC0415
        return bao_search(game, state, seconds, max_depth=min(max_depth or MAX_DEPTH, MAX_DEPTH),
                          max_nodes=max_nodes)
    return iterative_deepening(game, state, seconds, max_depth=max_depth or 64)


@dataclass
class BestPlayer:
    """Our strongest player: a time budget per move instead of a depth; on Kalah it plays
    the opening book's exact moves at the start and the engine's exact moves once the
    engine proves the value within the budget (:func:`best_search`)."""

    seconds: float = 1.0
    spec: str = ""
    last: SearchResult | None = field(default=None, repr=False)
    #: budgets that do not depend on the machine's speed: turns, and engine nodes a move
    depth: int | None = None
    nodes: int | None = None
    #: the Kalah engine's leaf evaluation, a term spec (``store:1,extra:0.5``); None: its default
    evaluation: str | None = None
    #: whether positions in the opening book (Kalah) are played from it (``book=off`` in a spec)
    book: bool = True

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise BadInput(f"time must be positive, got {self.seconds}")
        if (self.depth is not None and not 1 <= self.depth <= MAX_DEPTH) or (self.nodes is not None and self.nodes < 1):
            raise BadInput(f"best: depth must be 1-{MAX_DEPTH} turns and nodes at least 1")
        if self.evaluation is not None:
            from mancala.search.terms import engine_weights, parse_weights, weights_spec  # noqa: PLC0415
            engine_weights(self.evaluation)
            self.evaluation = weights_spec(parse_weights(self.evaluation))
        if not self.spec:
            parts = [f"time={self.seconds:g}"] if self.depth is None and self.nodes is None else []
            parts += [f"depth={self.depth}"] if self.depth is not None else []
            parts += [f"nodes={self.nodes}"] if self.nodes is not None else []
            parts += [] if self.book else ["book=off"]
            parts += [f"eval={self.evaluation}"] if self.evaluation is not None else []  # last: its commas end the spec
            self.spec = "best:" + ",".join(parts)

    def choose(self, game: Game, state) -> Any:
        """The best move found within the budget."""
        self.last = best_search(game, state, self.seconds, max_depth=self.depth, max_nodes=self.nodes,
                                evaluation=self.evaluation, book=self.book)
        return self.last.move


@dataclass(frozen=True)
class PlayerKind:
    """One kind of player in the catalogue: what the CLI's help, the server's ``players``
    answer, the page's new-game form and the conformance tests are drawn from."""

    #: the kind's name, the first word of its specs
    name: str
    #: what it is, in a line
    text: str
    #: the spec the page offers for it
    spec: str
    #: a spec of this kind with a small budget (the conformance tests play it everywhere)
    quick: str
    #: its options (name, kind, default) as the new-game form shows them
    options: tuple[dict, ...] = ()
    #: a module it needs that is not a dependency of ours (None: always there)
    needs: str | None = None
    #: an AI (chooses its own moves) rather than a person or an empty seat
    ai: bool = True
    #: how the new-game form names its spec
    label: str = ""


_EVALS = {"name": "eval", "kind": "choice", "values": ["score", "material", "percent", "bao"]}

#: the player kinds, in the order the new-game form lists them (levels are :data:`LEVELS`)
PLAYER_KINDS: dict[str, PlayerKind] = {k.name: k for k in (
    PlayerKind("human", "you, at this board", "human", "human", ai=False, label="You (at this board)"),
    PlayerKind("best", "our strongest player within a time per move (the engine for Kalah and Bao)",
               "best:time=1", "best:depth=2", ({"name": "time", "kind": "float", "default": 1.0},),
               label="AI — best (1 s a move)"),
    PlayerKind("greedy", "the move that scores best now", "greedy", "greedy", label="Greedy"),
    PlayerKind("random", "random legal moves", "random", "random:seed=1",
               ({"name": "seed", "kind": "int", "default": None},), label="Random"),
    PlayerKind("alphabeta", "alpha-beta search to a depth in turns", "alphabeta:depth=4", "alphabeta:depth=2",
               ({"name": "depth", "kind": "int", "default": 4}, _EVALS), label="Alpha-beta, depth 4"),
    PlayerKind("minimax", "plain minimax to a depth in turns", "minimax:depth=3", "minimax:depth=1",
               ({"name": "depth", "kind": "int", "default": 3}, _EVALS), label="Minimax, depth 3"),
    PlayerKind("openspiel-mcts", "OpenSpiel's Monte Carlo tree search (standard Kalah only)",
               "openspiel-mcts:sims=1000", "openspiel-mcts:sims=50",
               ({"name": "sims", "kind": "int", "default": 1000},), needs="pyspiel",
               label="OpenSpiel MCTS, 1000 simulations (standard Kalah)"),
    PlayerKind("openspiel-ab", "OpenSpiel's alpha-beta (standard Kalah only)", "openspiel-ab:depth=6",
               "openspiel-ab:depth=2", ({"name": "depth", "kind": "int", "default": 6},), needs="pyspiel",
               label="OpenSpiel alpha-beta, depth 6 (standard Kalah)"),
)}


def kind_available(kind: PlayerKind) -> bool:
    """Whether ``kind`` can be played here (its outside package is installed)."""
    if kind.needs is None:
        return True
    import importlib.util  # noqa: PLC0415
    return importlib.util.find_spec(kind.needs) is not None


def player_choices() -> list[tuple[str, str]]:
    """(spec, label) of every player the new-game form offers, in its order: a person, the
    levels weakest first, then each AI kind that can be played here."""
    kinds = [k for k in PLAYER_KINDS.values() if kind_available(k)]
    return ([(k.spec, k.label) for k in kinds if not k.ai] + [(name, f"AI — {name}") for name in LEVELS]
            + [(k.spec, k.label) for k in kinds if k.ai])


def ai_specs(quick: bool = False) -> list[str]:
    """Every AI a user can choose by name: the levels, then one spec of each AI kind that can
    be played here (``quick``: their small-budget specs)."""
    kinds = [k for k in PLAYER_KINDS.values() if k.ai and kind_available(k)]
    return list(LEVELS) + [k.quick if quick else k.spec for k in kinds]


def uses_engine(player: Player, game: Game) -> bool:
    """Whether ``player`` searches ``game`` with a compiled engine: its first move in a process
    loads the engine, and on a machine that never ran it, compiles it first (a minute or more)."""
    if isinstance(player, LevelPlayer):
        return uses_engine(player.player_for(game), game)
    if isinstance(player, BestPlayer):
        return isinstance(game, (Kalah, Bao))
    if isinstance(player, SearchPlayer):
        return player.seconds is not None and isinstance(game, Bao) and player.evaluation in (None, "bao")
    return False


def expected_seconds(player: Player, game: Game) -> float | None:
    """The most ``player`` may think about a move of ``game`` when it has a time budget
    (what a person waiting is told); None when its budget is depth or nodes, not time."""
    if isinstance(player, LevelPlayer):
        return expected_seconds(player.player_for(game), game)
    if isinstance(player, BestPlayer):
        return player.seconds if player.seconds < 1e8 else None
    if isinstance(player, SearchPlayer):
        return player.seconds
    return None


def parse_player_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``kind:key=value,...`` into the kind and its options."""
    m = re.fullmatch(r"\s*([a-z-]+)\s*(?::(.*))?", spec, flags=re.I)
    if not m:
        raise BadInput(f"cannot read player {spec!r}: expected e.g. human, random, greedy, "
                       f"minimax:depth=4, alphabeta:depth=6, beginner, easy, medium, hard, expert, strongest, best:time=1")
    options = {}
    last = None
    for part in filter(None, (p.strip() for p in (m.group(2) or "").split(","))):
        if "=" not in part and last == "eval":  # eval=store:1,extra:0.5: more weighted terms
            options["eval"] += "," + part
            continue
        if "=" not in part:
            raise BadInput(f"cannot read {part!r} in player {spec!r}: expected key=value")
        key, value = part.split("=", 1)
        last = key.strip().lower()
        options[last] = value.strip()
    return m.group(1).lower(), options


def take_option(options: dict[str, str], name: str, convert: Callable[[str], Any], default, spec: str):
    """Remove option ``name`` from a player spec's ``options`` and convert it (``default`` when
    absent); a value that does not convert is one line naming the player ``spec``."""
    if name not in options:
        return default
    try:
        return convert(options.pop(name))
    except ValueError:
        raise BadInput(f"player {spec!r}: {name} must be a number") from None


#: the words a spec's on/off option takes
ON_OFF = {"on": True, "yes": True, "1": True, "true": True, "off": False, "no": False, "0": False, "false": False}


def make_player(spec: str, ask: Callable | None = None) -> Player:
    """The player described by ``spec`` (see the module doc); ``ask`` serves humans."""
    if spec.strip().lower().startswith("command:"):  # an external ManKalah agent: the rest is its command
        from mancala.mankalah import make_command_player  # noqa: PLC0415
        return make_command_player(spec.strip())
    if spec.strip().lower().startswith("module:"):  # module:path/to/file.py[:Class][,key=value]
        from mancala.external.starter import make_module_player  # noqa: PLC0415
        return make_module_player(spec)
    kind, opts = parse_player_spec(spec)

    def take(name: str, convert, default):
        return take_option(opts, name, convert, default, spec)

    if kind == "human":
        player: Player = HumanPlayer(ask)
    elif kind == "random":
        player = RandomPlayer(take("seed", int, None))
    elif kind == "greedy":
        player = SearchPlayer("greedy", 1, opts.pop("eval", None))
    elif kind in ("minimax", "alphabeta", "ab"):
        seconds = take("time", float, None)  # a time budget: iterative deepening up to depth (default 64)
        if seconds is not None and (kind == "minimax" or not 0 < seconds <= MAX_MOVE_SECONDS):
            raise BadInput(f"player {spec!r}: time=S needs alphabeta: and more than 0, at most "
                           f"{MAX_MOVE_SECONDS:g} seconds a move")
        player = SearchPlayer("alphabeta" if kind == "ab" else kind, take("depth", int, 4 if seconds is None else 64),
                              opts.pop("eval", None), seconds=seconds)
    elif kind in LEVELS:
        player = LevelPlayer(LEVELS[kind])
    elif kind in ("openspiel-mcts", "openspiel-ab"):
        from mancala.external.openspiel import make_openspiel_player  # noqa: PLC0415
        return make_openspiel_player(kind, opts, spec)
    elif kind == "best":
        depth, nodes = take("depth", int, None), take("nodes", int, None)
        # a depth or node budget alone is not cut short by the clock (it means the same everywhere)
        default_time = 1.0 if depth is None and nodes is None else 1e9
        if "time" in opts:
            seconds = take("time", float, default_time)
            if not 0 < seconds <= MAX_MOVE_SECONDS:
                raise BadInput(f"player {spec!r}: time must be more than 0 and at most {MAX_MOVE_SECONDS:g} "
                               f"seconds a move, got {seconds:g}")
        else:
            seconds = default_time
        book = ON_OFF.get(opts.pop("book", "on").lower())
        if book is None:
            raise BadInput(f"player {spec!r}: book must be on or off")
        player = BestPlayer(seconds, depth=depth, nodes=nodes, evaluation=opts.pop("eval", None), book=book)
    else:
        raise BadInput(f"unknown player {kind!r}: choose human, random, greedy, minimax:depth=N, "
                       f"alphabeta:depth=N, {', '.join(LEVELS)}, best:time=S|depth=N|nodes=N[,book=off][,eval=SPEC], "
                       f"openspiel-mcts:sims=N, openspiel-ab:depth=N or module:file.py[:Class]")
    if opts:
        raise BadInput(f"player {spec!r}: unknown option(s) {', '.join(opts)}")
    return player
