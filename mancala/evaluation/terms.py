"""Named evaluation terms, and evaluations built from weighted sums of them.

Every term is a small pure function ``term(game, state, player) -> float`` that measures
one feature of a position *for ``player``*, almost always as "mine minus the
opponent's", so a positive weight means "more of this is good".  A combination is
written as a spec::

    store:1,extra:0.5          (in a player spec: eval=store:1,extra:0.5 or store:1+extra:0.5)
    store                      (weight 1)

and built by :func:`make_evaluation`.  The named evaluations of
:data:`mancala.search.evaluation.EVALUATIONS` (``score``, ``material``, ``bao``,
``percent``) are still accepted as whole specs.

A finished game is scored the same way by every combination: ``±WIN`` plus the final
margin (Kalah) or the game's own evaluation (Bao), so no weighting ever prefers an
unfinished position to a won one, and all combinations agree on finished games.

Kalah terms (:data:`KALAH_TERMS`) and Bao terms (:data:`BAO_TERMS`) share one name
space per game: ``mobility`` means the Kalah term on Kalah and the Bao term on Bao.
The literature behind some terms:

* Divilly, O'Riordan and Hill, "Exploration and analysis of the evolution of strategies
  for Mancala variants", IEEE CIG 2013: heuristics H1 (hoard seeds in one pit), H2 (keep
  seeds on your side), H3 (have many moves), H4 (maximise your store), H5 (move from the
  pit nearest the opponent), H6 (keep the opponent's store small) -> ``hoard``, ``seeds``,
  ``mobility``, ``store`` (H4 and H6 together), ``near``.
* Irving, Donkers and Uiterwijk, "Solving Kalah", ICGA Journal 23(3), 2000: the store
  difference as the search's evaluation, and the observation that seeds on a side end in
  that side's store at the end -> ``endgame``, ``majority``.
* the CSE481 project's hand heuristics: prefer extra turns (``extra``), prevent and make steals
  (``threat``, ``exposure``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from mancala.errors import BadInput
from mancala.evaluation.bao import WIN as BAO_WIN
from mancala.evaluation.bao import _targets as bao_targets
from mancala.evaluation.bao import evaluate as bao_default
from mancala.games.bao import Bao
from mancala.games.base import Game
from mancala.games.catalogue import CATALOGUE, traits_of
from mancala.games.kalah import Capture, Kalah, KalahState, Remaining, Sowing

#: a finished Kalah game scores ``±KALAH_WIN`` plus its margin under every combination
KALAH_WIN = 1000.0

Term = Callable[[Any, Any, int], float]


# --- Kalah ------------------------------------------------------------------------------


def _rows(state: KalahState, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(my row, the opponent's row), each in its owner's numbering (pit 1 first)."""
    seat = state.player_seat(player)
    return state.row(seat), state.row(1 - seat)


def k_store(game: Kalah, state: KalahState, player: int) -> float:
    """Store difference: my store minus the opponent's (the game's own margin; Divilly H4+H6)."""
    return game.score(state, player)


def k_seeds(game: Kalah, state: KalahState, player: int) -> float:
    """Seeds still in my pits minus seeds in the opponent's pits (Divilly H2): under the
    usual end rule a row's seeds go to its owner, so they are half-banked."""
    mine, theirs = _rows(state, player)
    return sum(mine) - sum(theirs)


def k_empty(game: Kalah, state: KalahState, player: int) -> float:
    """Empty pits on my side minus on the opponent's (the starter code's "blank spaces"):
    empty pits are capture landing spots, but also a row running dry."""
    mine, theirs = _rows(state, player)
    return sum(1 for c in mine if c == 0) - sum(1 for c in theirs if c == 0)


def _reaches_store(row: tuple[int, ...], pit: int, n: int) -> bool:
    """Whether sowing pit ``pit`` (1-based) of ``row`` ends in its owner's store."""
    seeds = row[pit - 1]
    distance = n + 1 - pit
    return seeds > 0 and seeds % (2 * n + 1) == distance


def k_extra(game: Kalah, state: KalahState, player: int) -> float:
    """Moves that end in the mover's own store (extra turns) available to me minus to the
    opponent (the CSE481 project's "prefer play again")."""
    if game.rules.sowing is Sowing.CHOICE:
        return 0.0
    n = state.pits
    mine, theirs = _rows(state, player)
    return sum(1 for p in range(1, n + 1) if _reaches_store(mine, p, n)) - sum(
        1 for p in range(1, n + 1) if _reaches_store(theirs, p, n)
    )


def _best_capture(game: Kalah, row: tuple[int, ...], other: tuple[int, ...]) -> int:
    """The most seeds one move of ``row``'s owner captures now (single lap sowings only).

    ``other`` is the opponent's row in its own numbering: my pit i faces its pit n+1-i.
    """
    rules = game.rules
    if rules.capture is Capture.NONE or rules.sowing is Sowing.CHOICE:
        return 0
    n = len(row)
    best = 0
    for pit in range(1, n + 1):
        seeds = row[pit - 1]
        if seeds == 0 or seeds >= 2 * n + 1:
            continue
        land = pit + seeds
        if land > n:  # passes the store: lands on my side again only after a full lap
            continue
        if row[land - 1] != 0:
            continue
        facing = other[n - land]
        if facing == 0 and not rules.empty_capture:
            continue
        gain = facing + (1 if rules.capture is Capture.OPPOSITE_AND_LAST else 0)
        best = max(best, gain)
    return best


def k_threat(game: Kalah, state: KalahState, player: int) -> float:
    """My largest capture available now minus the opponent's (the CSE481 project's "steal" and
    "prevent the steal", weighted by the seeds at stake)."""
    mine, theirs = _rows(state, player)
    return _best_capture(game, mine, theirs) - _best_capture(game, theirs, mine)


def k_exposure(game: Kalah, state: KalahState, player: int) -> float:
    """Seeds of mine facing an empty opponent pit (a capture spot) minus the same for the
    opponent: seeds exposed to a capture.  A positive weight would reward exposure, so
    this term takes a negative weight."""
    mine, theirs = _rows(state, player)
    n = len(mine)
    return sum(mine[i] for i in range(n) if theirs[n - 1 - i] == 0) - sum(
        theirs[i] for i in range(n) if mine[n - 1 - i] == 0
    )


def k_near(game: Kalah, state: KalahState, player: int) -> float:
    """Seeds near the store: each of my seeds weighted by its pit's closeness to my store
    (pit n counts 1, pit 1 counts 1/n), minus the same for the opponent.  Seeds near the
    store reach it soon and cannot be overtaken (Divilly H5, read the other way)."""
    mine, theirs = _rows(state, player)
    n = len(mine)
    return (sum(c * (i + 1) for i, c in enumerate(mine)) - sum(c * (i + 1) for i, c in enumerate(theirs))) / n


def k_hoard(game: Kalah, state: KalahState, player: int) -> float:
    """Seeds in my fullest pit minus in the opponent's (Divilly H1, "hoard seeds in one
    pit"): a big pit is a reserve of moves late in the game."""
    mine, theirs = _rows(state, player)
    return max(mine) - max(theirs)


def k_mobility(game: Kalah, state: KalahState, player: int) -> float:
    """Non-empty pits (moves) of mine minus of the opponent's (Divilly H3)."""
    mine, theirs = _rows(state, player)
    return sum(1 for c in mine if c) - sum(1 for c in theirs if c)


def k_endgame(game: Kalah, state: KalahState, player: int) -> float:
    """Who gets what remains: the seeds on the board go to their row's owner (or to the
    opponent under ``remaining=opponent``) when a row runs out, so this is the row
    difference signed by that rule, scaled by how far the game has gone (the share of all
    seeds already banked): worth little at the start, nearly a store seed at the end."""
    mine, theirs = _rows(state, player)
    on_board = sum(mine) + sum(theirs)
    total = on_board + state.store(0) + state.store(1)
    if total == 0:
        return 0.0
    sign = 1 if game.rules.remaining is Remaining.OWNER else -1
    return sign * (sum(mine) - sum(theirs)) * (1 - on_board / total)


def k_starve(game: Kalah, state: KalahState, player: int) -> float:
    """Who runs out first: +1 when the opponent's row holds fewer seeds than it has pits
    (it is about to run dry and the game to end) and mine does not, -1 the other way.
    Signed by the end rule: running out hands the other row's seeds to its owner."""
    mine, theirs = _rows(state, player)
    n = len(mine)
    low_me, low_them = sum(mine) < n, sum(theirs) < n
    return float(low_them - low_me) * (1 if game.rules.remaining is Remaining.OWNER else -1)


def k_majority(game: Kalah, state: KalahState, player: int) -> float:
    """+1 when my store already holds more than half of all seeds (the game is won
    whatever happens), -1 when the opponent's does, else 0 (Irving et al.'s early cut)."""
    seat = state.player_seat(player)
    total = sum(state.board)
    if 2 * state.store(seat) > total:
        return 1.0
    if 2 * state.store(1 - seat) > total:
        return -1.0
    return 0.0


#: Kalah terms by name
KALAH_TERMS: dict[str, Term] = {
    "store": k_store,
    "seeds": k_seeds,
    "empty": k_empty,
    "extra": k_extra,
    "threat": k_threat,
    "exposure": k_exposure,
    "near": k_near,
    "hoard": k_hoard,
    "mobility": k_mobility,
    "endgame": k_endgame,
    "starve": k_starve,
    "majority": k_majority,
}


# --- Bao --------------------------------------------------------------------------------


def b_front(game: Bao, state, player: int) -> float:
    """Seeds in my front row minus the opponent's (the seeds that capture and are captured)."""
    return sum(state.holes[player][:8]) - sum(state.holes[1 - player][:8])


def b_back(game: Bao, state, player: int) -> float:
    """Seeds in my back row minus the opponent's (safe from capture)."""
    return sum(state.holes[player][8:]) - sum(state.holes[1 - player][8:])


def b_stock(game: Bao, state, player: int) -> float:
    """Seeds in my stock minus the opponent's (front-row seeds still to come)."""
    return state.stock[player] - state.stock[1 - player]


def b_nyumba(game: Bao, state, player: int) -> float:
    """A functional nyumba (house) of mine minus the opponent's, during namua only."""
    if not (state.stock[0] or state.stock[1]):
        return 0.0
    return float(state.functional(player)) - float(state.functional(1 - player))


def _bao_captures(state, player: int) -> int:
    me, op = state.holes[player], state.holes[1 - player]
    return bao_targets(me, op, state.stock[player] > 0)


def b_threat(game: Bao, state, player: int) -> float:
    """The largest capture open to the side to move, for it (+ if that is me, - if not):
    captures are compulsory, so it is about to happen."""
    if state.player == player:
        return _bao_captures(state, player)
    return -_bao_captures(state, 1 - player)


def b_waiting(game: Bao, state, player: int) -> float:
    """The largest capture open to the side *not* to move (+ for me, - for the opponent)."""
    if state.player == player:
        return -_bao_captures(state, 1 - player)
    return _bao_captures(state, player)


def b_captures(game: Bao, state, player: int) -> float:
    """Front holes from which I can capture now minus the opponent's (capture options)."""

    def count(p: int) -> int:
        me, op = state.holes[p], state.holes[1 - p]
        if state.stock[p]:
            return sum(1 for i in range(8) if me[i] and op[7 - i])
        return sum(
            1
            for i in range(16)
            if 2 <= me[i] <= 15
            for d in (-1, 1)
            if (j := (i + d * me[i]) & 15) < 8 and me[j] and op[7 - j]
        )

    return count(player) - count(1 - player)


def b_mobility(game: Bao, state, player: int) -> float:
    """Holes with two or more seeds (they can start a mtaji move), mine minus the opponent's."""
    return sum(1 for x in state.holes[player] if x >= 2) - sum(1 for x in state.holes[1 - player] if x >= 2)


#: Bao terms by name
BAO_TERMS: dict[str, Term] = {
    "front": b_front,
    "back": b_back,
    "stock": b_stock,
    "nyumba": b_nyumba,
    "threat": b_threat,
    "waiting": b_waiting,
    "captures": b_captures,
    "mobility": b_mobility,
}

#: every term name, for error messages
ALL_TERMS = sorted(set(KALAH_TERMS) | set(BAO_TERMS))


# --- combinations -----------------------------------------------------------------------


def parse_weights(spec: str) -> tuple[tuple[str, float], ...]:
    """``"store:1,extra:0.5"`` (or with ``+`` between terms) as ((name, weight), ...)."""
    parts = [p.strip() for p in re.split(r"[,+\s]+", spec.strip()) if p.strip()]
    if not parts:
        raise BadInput("an evaluation spec needs at least one term, e.g. store:1,extra:0.5")
    out = []
    for part in parts:
        name, _, weight = part.partition(":")
        name = name.strip().lower()
        if name not in ALL_TERMS:
            raise BadInput(f"unknown evaluation term {name!r} in {spec!r}; terms: {', '.join(ALL_TERMS)}")
        try:
            w = float(weight) if weight.strip() else 1.0
        except ValueError:
            raise BadInput(f"evaluation term {part!r}: the weight must be a number") from None
        out.append((name, w))
    return tuple(out)


def weights_spec(weights) -> str:
    """The canonical spec text of ((name, weight), ...): ``store:1,extra:0.5``."""
    return ",".join(f"{n}:{w:g}" for n, w in weights)


#: the engine's leaf weights are integers in this fraction of the store weight
ENGINE_RESOLUTION = 64
#: the largest weight relative to the store weight the engine takes (keeps its sums far from overflow)
ENGINE_MAX_RATIO = 1000
#: Kalah terms the engine cannot evaluate, and why
ENGINE_REFUSED = {
    "majority": "it needs the stores' contents, which the engine's boards and tables leave out "
    "(its values are relative to the store difference)"
}


def engine_weights(spec: str) -> tuple[tuple[str, int], ...]:
    """The Kalah engine's integer leaf weights for ``spec`` (``store:1,extra:0.5``): each
    other term's weight divided by the store weight, in ``1/ENGINE_RESOLUTION`` (rounded;
    a term named twice adds up).

    The engine's values are store differences plus the leaf estimate, so the store
    weight is the unit and must be positive.  Terms it cannot compute, weights that
    round to 0 and weights over ``ENGINE_MAX_RATIO`` store weights are one-line
    :class:`BadInput` errors (no numba needed: players check their spec with this)."""
    weights = parse_weights(spec)
    bad = [n for n, _ in weights if n not in KALAH_TERMS]
    if bad:
        raise BadInput(f"the engine evaluates Kalah terms only ({', '.join(KALAH_TERMS)}), not {', '.join(bad)}")
    for name, _ in weights:
        if name in ENGINE_REFUSED:
            raise BadInput(f"the engine cannot use evaluation term {name}: {ENGINE_REFUSED[name]}")
    store = sum(w for n, w in weights if n == "store")
    if not store > 0:
        raise BadInput(
            f"evaluation {spec!r} for the engine needs a positive store weight (e.g. store:1,...): "
            f"its values are store differences and the other terms count in store seeds"
        )
    out: dict[str, int] = {}
    for name, w in weights:
        if name == "store" or w == 0:
            continue
        ratio = w / store
        q = round(ratio * ENGINE_RESOLUTION)
        if q == 0 or abs(ratio) > ENGINE_MAX_RATIO:
            raise BadInput(
                f"evaluation term {name}:{w:g} for the engine must be 1/{ENGINE_RESOLUTION} to "
                f"{ENGINE_MAX_RATIO} times the store weight ({store:g}) in size"
            )
        out[name] = out.get(name, 0) + q
    return tuple((n, q) for n, q in out.items() if q)


def make_evaluation(spec: str):
    """The evaluation ``sum(weight * term)`` named by ``spec`` (see the module doc).

    The terms are looked up by the game at each call's first use (Kalah or Bao); a
    term a game does not have is a :class:`BadInput`.  Finished games score ±WIN plus
    the margin, whatever the weights.
    """
    weights = parse_weights(spec)
    cache: dict[type, tuple] = {}

    def resolve(game: Game) -> tuple:
        family = TERM_FAMILIES.get(traits_of(game).terms or "")
        if family is None:
            known = ", ".join(info.title for info in CATALOGUE.values() if info.traits.terms in TERM_FAMILIES)
            raise BadInput(f"evaluation terms are defined for {known}, not {game.name}")
        missing = [n for n, _ in weights if n not in family.terms]
        if missing:
            raise BadInput(
                f"{game.name} has no evaluation term {', '.join(missing)}; its terms: {', '.join(family.terms)}"
            )
        return family.end, tuple((family.terms[n], w) for n, w in weights if w)

    def evaluate(game: Game, state, player: int) -> float:
        resolved = cache.get(type(game))
        if resolved is None:
            resolved = cache[type(game)] = resolve(game)
        end, terms = resolved
        if game.is_terminal(state):
            return end(game, state, player)
        return sum(w * f(game, state, player) for f, w in terms)

    return evaluate


def check_evaluation(spec: str, named: dict) -> None:
    """Raise :class:`BadInput` unless ``spec`` is a named evaluation or a valid term spec."""
    if spec not in named:
        parse_weights(spec)


__all__ = [
    "KALAH_TERMS",
    "BAO_TERMS",
    "ALL_TERMS",
    "KALAH_WIN",
    "BAO_WIN",
    "parse_weights",
    "weights_spec",
    "make_evaluation",
    "check_evaluation",
    "engine_weights",
    "ENGINE_RESOLUTION",
]


def margin_end(game: Game, state, player: int) -> float:
    """A finished game's value: its margin, plus :data:`KALAH_WIN` for a win (minus for a
    loss), so that any win outranks every estimate."""
    margin = game.score(state, player)
    return margin + (KALAH_WIN if margin > 0 else -KALAH_WIN if margin < 0 else 0.0)


@dataclass(frozen=True)
class TermFamily:
    """The terms a family of games shares, and how its finished games score."""

    #: term name -> term function ``(game, state, player) -> float``
    terms: dict[str, Callable[..., float]]
    #: a finished game's value for ``player`` (whatever the weights)
    end: Callable[[Any, Any, int], float]


#: the term families, by the name a game's traits give (``Traits.terms``): Kalah's ends score
#: their margin; Bao's own evaluation scores its ends (Bao has no margin in seeds)
TERM_FAMILIES = {"kalah": TermFamily(KALAH_TERMS, margin_end), "bao": TermFamily(BAO_TERMS, bao_default)}
