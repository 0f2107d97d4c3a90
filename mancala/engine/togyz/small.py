"""Small Togyz Kumalak boards solved from their start: every position reachable from the start
(houses, kazans, tuzdiks, side to move) valued exactly by retrograde analysis, as the final
margin for South with best play from both sides.

The rules have no repetition rule and positions recur, so a solution needs a convention for
play that never ends; ours (docs/togyz.md, "Repetition") is the retrograde analysis' natural
one: a cycle neither side can force its way out of is a draw on the stones still on the board,
which are split evenly (the margin is the kazans' difference).

How.  Kazans never lose stones, so the positions fall into *levels* of equal kazans, and a move
either stays in its level (it captures nothing and sows nothing into a tuzdik) or leaves it for
a level of more stones in the kazans, or ends the game.  Levels are solved from the fullest
kazans down.  Inside a level every way out has a known value and play that stays forever is
worth the level's kazan difference D; for each candidate value t (the exits' values and D) the
positions where South can make sure of at least t are an attractor: South's attractor to the
exits worth t or more when D < t (staying is then bad for South), else every position outside
North's attractor to the exits worth less than t.  A position's value is the largest such t.
This is exact for every position, cycles included, under the convention.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from mancala.errors import BadInput

#: the most positions :func:`solve_small` explores before it refuses (the game's own rules in
#: Python expand about 25,000 positions a second: 3 x 3 stones takes about 12 s)
MAX_POSITIONS = 400_000

#: a position: houses, kazans, tuzdiks, side to move, finished
Key = tuple[tuple[int, ...], tuple[int, int], tuple[int, int], int, bool]


def position_key(state: Any) -> Key:
    """What identifies a position for the solution (the move count and history do not)."""
    return (state.houses, state.kazans, state.tuzdiks, state.seat, state.finished)


@dataclass(frozen=True)
class SmallSolution:
    """A small board solved: the value of its start and of each first move (South's final
    margin with best play), and how big the game is."""

    #: the game spec solved (``togyz(houses=3,stones=2)``)
    spec: str
    #: South's final margin with best play from the start
    value: int
    #: each first move of South's (house number) and the value after it
    first_moves: dict[str, int]
    #: positions reachable from the start (finished ones included)
    positions: int
    #: positions whose best play never ends (a cycle neither side can leave with profit)
    drawn_by_cycles: int


def solve_small(game: Any, progress: Callable[[str], None] | None = None, limit: int = MAX_POSITIONS) -> SmallSolution:
    """Solve ``game`` (a small Togyz Kumalak board) from its start; raises :class:`BadInput`
    when more than ``limit`` positions are reachable."""
    from mancala.games.catalogue import spec_of  # noqa: PLC0415 (the spec only names the result)

    start = game.initial_state()
    children, terminal = _explore(game, start, limit, progress)
    values = dict(terminal)
    levels: dict[tuple[int, int], list[Key]] = {}
    for key in children:
        levels.setdefault(key[1], []).append(key)
    cycles = 0
    for kazans in sorted(levels, key=lambda k: -(k[0] + k[1])):
        solved, endless = _solve_level(levels[kazans], kazans[0] - kazans[1], children, values)
        values.update(solved)
        cycles += endless
    root = position_key(start)
    first = {move: values[child] for move, child in children.get(root, [])}
    return SmallSolution(spec_of(game), values[root], first, len(values), cycles)


def _explore(
    game: Any, start: Any, limit: int, progress: Callable[[str], None] | None
) -> tuple[dict[Key, list[tuple[str, Key]]], dict[Key, int]]:
    """Every position reachable from ``start``: the moves of each running one (as
    ``(house number, child)``) and the final margin of each finished one."""
    children: dict[Key, list[tuple[str, Key]]] = {}
    terminal: dict[Key, int] = {}
    queue = deque([start])
    seen = {position_key(start)}
    while queue:
        state = queue.popleft()
        key = position_key(state)
        if game.is_terminal(state):
            terminal[key] = game.score(state, 0)
            continue
        moves = []
        for move in game.legal_moves(state):
            after = game.apply(state, move)
            child = position_key(after)
            moves.append((str(move), child))
            if child not in seen:
                seen.add(child)
                if len(seen) > limit:
                    raise BadInput(f"more than {limit:,} positions are reachable: too big a board to solve this way")
                queue.append(after)
        children[key] = moves
        if progress is not None and len(seen) % 50_000 == 0:
            progress(f"{len(seen):,} positions found")
    return children, terminal


def _solve_level(
    level: list[Key], stay: int, children: dict[Key, list[tuple[str, Key]]], known: dict[Key, int]
) -> tuple[dict[Key, int], int]:
    """The values of the positions of one level (equal kazans), given the values of every
    position outside it; ``stay``: South's margin when play never leaves the level.  Also
    returns how many positions end up worth ``stay`` by play that stays."""
    inside = set(level)
    exits = {known[c] for p in level for _, c in children[p] if c not in inside}
    thresholds = sorted(exits | {stay})
    value = {p: thresholds[0] for p in level}
    for t in thresholds[1:]:
        holds = _south_makes_sure(level, inside, children, known, stay, t)
        if not holds:
            break
        for p in holds:
            value[p] = t
    at_stay = [p for p in level if value[p] == stay]
    if not at_stay:
        return value, 0
    south = _attractor(level, inside, children, lambda v: v >= stay, known, player=0)
    north = _attractor(level, inside, children, lambda v: v <= stay, known, player=1)
    return value, sum(1 for p in at_stay if p not in south and p not in north)


def _south_makes_sure(
    level: list[Key],
    inside: set[Key],
    children: dict[Key, list[tuple[str, Key]]],
    known: dict[Key, int],
    stay: int,
    t: int,
) -> set[Key]:
    """The positions of the level from which South can make sure of a final margin of at
    least ``t``."""
    if stay >= t:  # staying is good enough for South: everything North cannot force below t
        return inside - _attractor(level, inside, children, lambda v: v < t, known, player=1)
    return _attractor(level, inside, children, lambda v: v >= t, known, player=0)


def _attractor(
    level: list[Key],
    inside: set[Key],
    children: dict[Key, list[tuple[str, Key]]],
    good: Callable[[int], bool],
    known: dict[Key, int],
    player: int,
) -> set[Key]:
    """The positions from which ``player`` can force play out of the level through an exit
    whose value is ``good``: the player to move needs one such move, the other has no move
    that avoids them."""
    parents: dict[Key, list[Key]] = {}
    waiting: dict[Key, int] = {}
    won: set[Key] = set()
    queue: deque[Key] = deque()
    for p in level:
        moves = children[p]
        stays = [c for _, c in moves if c in inside]
        hits = sum(1 for _, c in moves if c not in inside and good(known[c]))
        misses = len(moves) - len(stays) - hits
        for c in stays:
            parents.setdefault(c, []).append(p)
        if p[3] == player:
            if hits:
                won.add(p)
                queue.append(p)
        elif misses == 0:  # the other side has no exit that avoids: it must run out of stays
            waiting[p] = len(stays)
            if not stays:
                won.add(p)
                queue.append(p)
    while queue:
        c = queue.popleft()
        for p in parents.get(c, []):
            if p in won:
                continue
            if p[3] == player:
                won.add(p)
                queue.append(p)
            elif p in waiting:
                waiting[p] -= 1
                if waiting[p] == 0:
                    won.add(p)
                    queue.append(p)
    return won
