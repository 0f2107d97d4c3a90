"""Togyz Kumalak endgame tables (mancala/engine/togyz/endgame.py): every entry of small builds
against an independent brute-force solver written here, the table's equation, the files
(checksum, resume), the ``db`` command and the exact answers of ``solve``."""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

from mancala.engine.togyz import endgame as E
from mancala.games.togyz import TogyzKumalak, TogyzRules, TogyzState


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache directory of its own."""
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    return tmp_path


# --- an independent solver: the game's own rules, every reachable position, attractors -------


def table_positions(rules: TogyzRules, max_stones: int):
    """Every position a table of ``max_stones`` holds, South to move, in table order: (tier,
    houses, tuzdiks as TogyzState keeps them).  Written from the key's description, not from
    the module's layout."""
    n = rules.houses
    allowed = [k for k in range(n) if not (rules.tuzdik_forbid_last and k == n - 1)]
    for s in range(max_stones + 1):
        for a in [-1, *allowed]:
            for b in [-1, *allowed]:
                if a != -1 and a == b:
                    continue
                t0 = a + n if a != -1 else -1
                free = [i for i in range(2 * n) if i not in (t0, b)]
                for comp in compositions(s, len(free)):
                    houses = [0] * (2 * n)
                    for i, c in zip(free, comp):
                        houses[i] = c
                    yield s, tuple(houses), (t0, b)


def compositions(s: int, parts: int):
    """Every way to put ``s`` stones in ``parts`` houses, in the table's rank order (the
    combinatorial number system of the bars' places)."""
    out = []
    for bars in itertools.combinations(range(s + parts - 1), parts - 1):
        comp, prev = [], -1
        for b in (*bars, s + parts - 1):
            comp.append(b - prev - 1)
            prev = b
        out.append(comp)
    # the table ranks by sum_j C(b_j, j+1) with b_j = j + h_0 + ... + h_j: sort by that
    from math import comb  # noqa: PLC0415

    def rank(comp):
        r, prefix = 0, 0
        for j in range(parts - 1):
            prefix += comp[j]
            r += comb(prefix + j, j + 1)
        return r

    return sorted(out, key=rank)


def brute_force(rules: TogyzRules, starts: list[tuple[tuple[int, ...], tuple[int, int]]]) -> dict:
    """The mover's margin from the board's stones under best play, played to the end, of
    every position reachable from ``starts`` (South to move), cycles a draw on the board:
    a value iteration over the whole game graph by threshold attractors, level by level
    (stones on the board).  Keys: (houses, tuzdiks, seat)."""
    game = TogyzKumalak(TogyzRules(houses=rules.houses, stones=20, tuzdik_forbid_last=rules.tuzdik_forbid_last,
                                   stop_at_majority=False))  # fmt: skip
    total = game.rules.total
    edges: dict = {}  # key -> list of (child key or None, South's gain, final South margin if over)
    seat_of: dict = {}
    queue: deque = deque()
    for houses, tuzdiks in starts:
        key = (houses, tuzdiks, 0)
        if key not in edges:
            edges[key] = None
            queue.append(key)
    while queue:
        key = queue.popleft()
        houses, tuzdiks, seat = key
        seat_of[key] = seat
        state = game.position(houses, (total - sum(houses), 0), tuzdiks, seat)
        out = []
        before = total - sum(houses)  # the kazans' difference: South holds every stone off the board
        if state.finished:
            out.append((None, 0, game.score(state, 0) - before))
        else:
            for move in game.legal_moves(state):
                child: TogyzState = game.apply(state, move)
                if child.finished:
                    out.append((None, 0, game.score(child, 0) - before))
                    continue
                ck = (child.houses, child.tuzdiks, child.seat)
                out.append((ck, child.kazans[0] - child.kazans[1] - before, None))
                if ck not in edges:
                    edges[ck] = None
                    queue.append(ck)
        edges[key] = out
    south: dict = {}  # South's margin from the board's stones
    levels: dict = {}
    for key in edges:
        levels.setdefault(sum(key[0]), []).append(key)
    for s in sorted(levels):
        level = levels[s]
        inside = set(level)
        exit_value: dict = {}
        for x in level:
            for i, (c, g, over) in enumerate(edges[x]):
                if c is None:
                    exit_value[x, i] = over
                elif c not in inside:
                    exit_value[x, i] = g + south[c]
        ts = sorted(set(exit_value.values()) | {0})
        value = {x: ts[0] for x in level}
        for t in ts[1:]:
            if t <= 0:  # staying is enough for South: all North cannot force below t
                holds = inside - attractor(level, inside, edges, exit_value, lambda v, t=t: v < t, 1)
            else:
                holds = attractor(level, inside, edges, exit_value, lambda v, t=t: v >= t, 0)
            for x in holds:
                value[x] = t
        south.update(value)
    return {k: (v if seat_of[k] == 0 else -v) for k, v in south.items()}


def attractor(level, inside, edges, exit_value, good, player: int) -> set:
    """The positions from which ``player`` forces play out of the level through an exit whose
    value ``good`` accepts."""
    parents: dict = {}
    waiting: dict = {}
    won: set = set()
    queue: deque = deque()
    for x in level:
        stays = [c for c, _, _ in edges[x] if c in inside]
        hits = sum(1 for i, (c, _, _) in enumerate(edges[x]) if (x, i) in exit_value and good(exit_value[x, i]))
        misses = len(edges[x]) - len(stays) - hits
        for c in stays:
            parents.setdefault(c, []).append(x)
        if x[2] == player:
            if hits:
                won.add(x)
                queue.append(x)
        elif misses == 0:
            waiting[x] = len(stays)
            if not stays:
                won.add(x)
                queue.append(x)
    while queue:
        c = queue.popleft()
        for x in parents.get(c, []):
            if x in won:
                continue
            if x[2] == player:
                won.add(x)
                queue.append(x)
            elif x in waiting:
                waiting[x] -= 1
                if waiting[x] == 0:
                    won.add(x)
                    queue.append(x)
    return won


def check_against_brute_force(rules: TogyzRules, stones: int) -> int:
    """Build the table and compare every entry; returns the entries compared."""
    table = E.build(rules, stones)
    positions = list(table_positions(rules, stones))
    assert len(positions) == table.values.size
    truth = brute_force(rules, [(h, t) for _, h, t in positions])
    for i, (_, houses, tuzdiks) in enumerate(positions):
        assert table.values[i] == truth[houses, tuzdiks, 0], (houses, tuzdiks)
        assert table.value(houses, tuzdiks, 0) == truth[houses, tuzdiks, 0]
    return len(positions)


@pytest.mark.parametrize(
    "rules, stones",
    [
        (TogyzRules(houses=3), 6),
        (TogyzRules(houses=3, tuzdik_forbid_last=False), 6),
        (TogyzRules(houses=4), 5),
        (TogyzRules(houses=9), 2),
    ],
)
def test_every_entry_matches_brute_force(cache, rules, stones):
    assert check_against_brute_force(rules, stones) > 0
