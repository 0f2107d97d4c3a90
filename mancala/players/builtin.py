"""The built-in players: a person, random, greedy, minimax, alpha-beta, and ``best``, our
strongest (the engines, where a game has one: :mod:`mancala.engine.support`).  Each kind registers itself
in the catalogue (:mod:`mancala.players.registry`) with the function that reads its spec."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from mancala.engine import readiness, table_builds
from mancala.engine.support import EngineSupport, engine_support
from mancala.errors import BadInput
from mancala.evaluation import EVALUATIONS, default_evaluation, default_evaluation_name
from mancala.evaluation.terms import check_evaluation, engine_weights, make_evaluation, parse_weights, weights_spec
from mancala.games.base import Game
from mancala.players.base import Memory
from mancala.players.registry import PlayerKind, option, register_kind
from mancala.players.spec import MAX_DEPTH, MAX_MOVE_SECONDS, ON_OFF
from mancala.search import SearchResult, alphabeta, greedy, minimax, random_move
from mancala.search.core import Evaluation
from mancala.search.deepening import iterative_deepening


def _evaluation(name: str | None, game: Game) -> Evaluation:
    if name is None:
        return default_evaluation(game)
    if name in EVALUATIONS:
        return EVALUATIONS[name]
    return make_evaluation(name)


# --- the engines, from the engine-support catalogue ------------------------------------------


def has_engine(game: Game, timed: bool = False) -> bool:
    """Whether ``game`` (its name and its rules) is searched by an engine of ours
    (:func:`mancala.engine.support.engine_support`); ``timed``: one that runs the timed
    alpha-beta with the game's own evaluation (``alphabeta:time=S``)."""
    record = engine_support(game.name)
    return record is not None and (not timed or record.timed is not None) and record.plays(game)


def best_move(game: Game, state, seconds: float = 1.0) -> Any:
    """Our strongest player's move within ``seconds``: the fast engines for Kalah, Bao and
    Oware, else iterative-deepening alpha-beta."""
    return best_search(game, state, seconds).move


def best_search(
    game: Game,
    state,
    seconds: float = 1.0,
    *,
    max_depth: int | None = None,
    max_nodes: int | None = None,
    evaluation: str | None = None,
    book: bool = True,
) -> SearchResult:
    """The search result behind :func:`best_move`; ``max_depth`` (turns) and ``max_nodes``
    bound the engine's search as well (a budget that means the same on a busy machine).
    ``evaluation`` (Kalah only: a term spec with a positive store weight, see
    :func:`mancala.evaluation.terms.engine_weights`) replaces the engine's leaf estimate.

    A position in the opening book of the game's rules (``book``, see :func:`book_answer`)
    is answered from the book, no search: on Kalah the solver's book (:mod:`mancala.engine.book`),
    an exact move, ``algorithm="book(exact)"``; on the other engines' games an opening tree
    (:mod:`mancala.engine.opening_tree`), ``"book"``.  Elsewhere the engine searches; once it
    proves the value (``"engine(exact)"``) its move keeps that value."""
    record = engine_support(game.name)
    if evaluation is not None and (record is None or not record.takes_terms):
        raise BadInput(
            f"best:eval= sets an engine's leaf evaluation, and {game.name}'s engine takes none: "
            f"use alphabeta:eval=SPEC there"
        )
    if record is not None and record.plays(game):
        found = book_answer(game, state, record, max_depth, max_nodes) if book else None
        if readiness.python_meanwhile(record):
            if found is not None:
                readiness.start_compile(record)
                return found
            evaluate = make_evaluation(evaluation) if evaluation is not None else default_evaluation(game)
            return python_search(game, state, record, seconds, max_depth, evaluate)
        if found is not None and found.algorithm == "book":  # an exact book is the record's own (Kalah's best)
            return found
        if book and max_depth is None:  # it reads the endgame table: the tiers a background build finished since
            table_builds.refresh(record, game)
        return record.best(game, state, seconds, max_depth, max_nodes, evaluation, book)
    return iterative_deepening(game, state, seconds, default_evaluation(game), max_depth=max_depth or 64)


def book_answer(
    game: Game, state, record: EngineSupport, max_depth: int | None = None, max_nodes: int | None = None
) -> SearchResult | None:
    """The move of the opening book of ``game``'s rules at ``state``, read in Python, or None
    when the position is not in the book: so the first moves of an engine's player are the
    book's even while its engine compiles.  An exact book (Kalah's solver book) answers
    ``"book(exact)"`` always; a searched book (an opening tree) answers ``"book"`` only to a
    player without a depth budget (the levels' depths keep their measured strength) whose
    node budget (if any) is no more than the search behind the book's move there."""
    if record.opening_book is None or game.is_terminal(state):
        return None
    answer = record.opening_book(game, state)
    if answer is None or not answer.line:
        return None
    if not answer.exact and (max_depth is not None or (max_nodes is not None and answer.nodes < max_nodes)):
        return None
    value = dict(answer.moves).get(answer.line[0])
    if value is None:
        return None
    line, here = [], state
    for word in answer.line:
        move = game.parse_move(here, word)
        line.append(move)
        here = game.apply(here, move)
    return SearchResult(line[0], value, tuple(line), 0, 0, "book(exact)" if answer.exact else "book")


def python_search(
    game: Game, state, record: EngineSupport, seconds: float, max_depth: int | None, evaluate: Evaluation
) -> SearchResult:
    """A move of an engine's player while that engine is not compiled yet: starts its compile
    in the background (once: :func:`mancala.engine.readiness.start_compile`) and searches in
    Python meanwhile, with ``evaluate``: iterative deepening to the player's depth, at most the
    record's ``python_depth``, within its ``seconds`` and at most
    :data:`~mancala.engine.readiness.FALLBACK_SECONDS` (a wall-clock bound under load too).
    Its ``algorithm`` is :data:`~mancala.engine.readiness.FALLBACK_ALGORITHM`, which says so."""
    readiness.start_compile(record)
    depth = min(max_depth or record.python_depth, record.python_depth)
    found = iterative_deepening(game, state, min(seconds, readiness.FALLBACK_SECONDS), evaluate, max_depth=depth)
    return replace(found, algorithm=readiness.FALLBACK_ALGORITHM)


def searched_in_python(result: SearchResult | None) -> bool:
    """Whether ``result`` came from the Python search an engine's player makes while its
    engine compiles (:func:`python_search`)."""
    return result is not None and result.algorithm == readiness.FALLBACK_ALGORITHM


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
    #: the evaluation built for the game last played (game, function): rebuilt for another game
    _evaluate: tuple[Any, Evaluation] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.algorithm not in ("greedy", "minimax", "alphabeta"):
            raise BadInput(f"unknown search {self.algorithm!r}")
        if not 1 <= self.depth <= MAX_DEPTH:
            raise BadInput(f"depth must be 1-{MAX_DEPTH} turns, got {self.depth}")
        if self.evaluation is not None and self.evaluation not in EVALUATIONS:
            check_evaluation(self.evaluation, EVALUATIONS)
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
            record = engine_support(game.name)
            if self.uses_engine(game) and record is not None and record.timed is not None:
                if readiness.python_meanwhile(record):
                    return python_search(game, state, record, self.seconds, self.depth, evaluate)
                return record.timed(game, state, self.seconds, self.depth)
            return iterative_deepening(game, state, self.seconds, evaluate, max_depth=self.depth)
        return alphabeta(game, state, self.depth, evaluate)

    def choose(self, game: Game, state) -> Any:
        """The searched move (the first of the principal line)."""
        self.last = self.search(game, state)
        return self.last.move

    def uses_engine(self, game: Game) -> bool:
        """Whether its timed alpha-beta runs on ``game``'s engine (Bao's levels do)."""
        return (
            self.seconds is not None
            and self.evaluation in (None, default_evaluation_name(game))
            and has_engine(game, timed=True)
        )

    def expected_seconds(self, game: Game) -> float | None:
        """Its time budget, when it has one."""
        return self.seconds


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
    #: the most a move may take in wall time whatever its depth or node budget (a level's
    #: bound under load: :class:`mancala.players.levels.Level`); None: none but ``seconds``
    cap: float | None = None

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise BadInput(f"time must be positive, got {self.seconds}")
        if (self.depth is not None and not 1 <= self.depth <= MAX_DEPTH) or (self.nodes is not None and self.nodes < 1):
            raise BadInput(f"best: depth must be 1-{MAX_DEPTH} turns and nodes at least 1")
        if self.evaluation is not None:
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
        self.last = best_search(
            game,
            state,
            self.seconds if self.cap is None else min(self.seconds, self.cap),
            max_depth=self.depth,
            max_nodes=self.nodes,
            evaluation=self.evaluation,
            book=self.book,
        )
        return self.last.move

    def uses_engine(self, game: Game) -> bool:
        """Whether ``game`` has an engine of ours that plays its rules (else it deepens in Python)."""
        return has_engine(game)

    def uses_table(self, game: Game) -> bool:
        """Whether its moves read an endgame table that ``game``'s engine builds in the
        background on first use (no depth budget and the book on: Oware's and Togyz Kumalak's
        ``strongest`` and ``best:time=``), so a person playing it starts that build."""
        return self.book and self.depth is None and table_builds.builds_table(engine_support(game.name), game)

    def expected_seconds(self, game: Game) -> float | None:
        """Its time budget, when its budget is time."""
        return self.seconds if self.seconds < 1e8 else None

    def wall_budget(self, game: Game) -> float | None:
        """The most it takes a move in wall time: its time budget, else its cap."""
        return self.expected_seconds(game) or self.cap


# --- the kinds ---------------------------------------------------------------------------------


def _human(spec: str, options: dict[str, str], ask: Callable | None) -> HumanPlayer:
    return HumanPlayer(ask)


def _random(spec: str, options: dict[str, str], ask: Callable | None) -> RandomPlayer:
    return RandomPlayer(option(spec, options, "seed", int, None))


def _greedy(spec: str, options: dict[str, str], ask: Callable | None) -> SearchPlayer:
    return SearchPlayer("greedy", 1, options.pop("eval", None))


def _searcher(kind: str) -> Callable[[str, dict[str, str], Callable | None], SearchPlayer]:
    def make(spec: str, options: dict[str, str], ask: Callable | None) -> SearchPlayer:
        seconds = option(spec, options, "time", float, None)  # a time budget: deepening up to depth (default 64)
        if seconds is not None and (kind == "minimax" or not 0 < seconds <= MAX_MOVE_SECONDS):
            raise BadInput(
                f"player {spec!r}: time=S needs alphabeta: and more than 0, at most {MAX_MOVE_SECONDS:g} seconds a move"
            )
        return SearchPlayer(
            kind,
            option(spec, options, "depth", int, 4 if seconds is None else 64),
            options.pop("eval", None),
            seconds=seconds,
        )

    return make


def _best(spec: str, options: dict[str, str], ask: Callable | None) -> BestPlayer:
    depth, nodes = option(spec, options, "depth", int, None), option(spec, options, "nodes", int, None)
    # a depth or node budget alone is not cut short by the clock (it means the same everywhere)
    default_time = 1.0 if depth is None and nodes is None else 1e9
    if "time" in options:
        seconds = option(spec, options, "time", float, default_time)
        if not 0 < seconds <= MAX_MOVE_SECONDS:
            raise BadInput(
                f"player {spec!r}: time must be more than 0 and at most {MAX_MOVE_SECONDS:g} "
                f"seconds a move, got {seconds:g}"
            )
    else:
        seconds = default_time
    book = ON_OFF.get(options.pop("book", "on").lower())
    if book is None:
        raise BadInput(f"player {spec!r}: book must be on or off")
    return BestPlayer(seconds, depth=depth, nodes=nodes, evaluation=options.pop("eval", None), book=book)


_EVALS = {"name": "eval", "kind": "choice", "values": ["score", "material", "percent", "bao", "oware"]}

register_kind(
    PlayerKind(
        "human",
        "you, at this board",
        "human",
        "human",
        _human,
        ai=False,
        label="You (at this board)",
        rank=0,
        title="Human",
    )
)
register_kind(
    PlayerKind(
        "best",
        "our strongest player within a time per move (the engine for Kalah, Bao and Oware)",
        "best:time=1",
        "best:depth=2",
        _best,
        ({"name": "time", "kind": "float", "default": 1.0},),
        label="AI — best (1 s a move)",
        title="Best AI, depth {depth}|Best AI, {nodes} nodes|Best AI, {time} s a move",
        rank=1,
    )
)
register_kind(
    PlayerKind(
        "greedy",
        "the move that scores best now",
        "greedy",
        "greedy",
        _greedy,
        label="Greedy",
        rank=2,
        title="Greedy AI",
    )
)
register_kind(
    PlayerKind(
        "random",
        "random legal moves",
        "random",
        "random:seed=1",
        _random,
        ({"name": "seed", "kind": "int", "default": None},),
        label="Random",
        title="Random AI",
        rank=3,
    )
)
#: the two depth-limited searches as player kinds: (algorithm, what it is, default depth, the
#: tests' depth, its name in lists, aliases)
_SEARCHES = (
    ("alphabeta", "alpha-beta search", 4, 2, "Alpha-beta", ("ab",)),
    ("minimax", "plain minimax", 3, 1, "Minimax", ()),
)
for _rank, (_algorithm, _what, _depth, _quick, _name, _aliases) in enumerate(_SEARCHES, 4):
    register_kind(
        PlayerKind(
            _algorithm,
            f"{_what} to a depth in turns",
            f"{_algorithm}:depth={_depth}",
            f"{_algorithm}:depth={_quick}",
            _searcher(_algorithm),
            ({"name": "depth", "kind": "int", "default": _depth}, _EVALS),
            label=f"{_name}, depth {_depth}",
            title=f"{_name} AI, depth {{depth}}",
            aliases=_aliases,
            rank=_rank,
        )
    )
