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


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules, stones",
    [
        (TogyzRules(houses=4), 6),
        (TogyzRules(houses=4, tuzdik_forbid_last=False), 6),
        (TogyzRules(houses=5), 5),
        (TogyzRules(houses=9), 3),
        (TogyzRules(houses=9, tuzdik_forbid_last=False), 3),
    ],
)
def test_every_entry_of_larger_builds_matches_brute_force(cache, rules, stones):
    assert check_against_brute_force(rules, stones) > 0


def test_cycles_are_drawn_on_the_board(cache):
    """Some positions only cycle with best play (margin 0 though the board is not empty), and
    the key's sizes are those of the module doc."""
    rules = TogyzRules(houses=3)
    table = E.build(rules, 6)
    positions = list(table_positions(rules, 6))
    assert any(v == 0 and s > 0 and any(h[:3]) for v, (s, h, _) in zip(table.values, positions))
    assert (
        len(E.configurations(TogyzRules())) == 73 and len(E.configurations(TogyzRules(tuzdik_forbid_last=False))) == 91
    )
    assert E.entries(TogyzRules(), 10) == 445_560_830
    assert E.tier_entries(TogyzRules(), 10) == 276_474_605


def test_the_equation_holds_and_a_wrong_entry_breaks_it(cache):
    rules = TogyzRules(houses=9)
    table = E.build(rules, 4)
    assert E.check_sample(table, 20_000) == dict.fromkeys(range(5), 0)
    table.values[table.offsets[3, 0] + 11] += 2
    assert E.check_sample(table, 100_000)[3] >= 1


def test_rule_sets_share_a_table_only_when_moves_agree():
    fed = TogyzRules()
    assert E.tier_path(fed, 4) == E.tier_path(TogyzRules(stones=5, stop_at_majority=False, max_plies=100), 4)
    assert E.tier_path(fed, 4) != E.tier_path(TogyzRules(tuzdik_forbid_last=False), 4)
    assert E.tier_path(fed, 4) != E.tier_path(TogyzRules(houses=8), 4)


def test_resume_after_an_interrupted_build(cache):
    rules = TogyzRules(houses=4)
    seen = []

    def stop_after_three(report):
        seen.append(report)
        if report.tier == 3:
            raise KeyboardInterrupt  # as Ctrl-C would, between tiers

    with pytest.raises(KeyboardInterrupt):
        E.build(rules, 5, progress=stop_after_three)
    assert E.load(rules, 3) is not None and E.load(rules, 4) is None
    reports = []
    table = E.build(rules, 5, progress=reports.append)
    assert [r.loaded for r in reports] == [True] * 4 + [False] * 2
    assert "loaded from the cache" in reports[0].line() and "M positions/s" in reports[-1].line()
    loaded = E.load(rules, 5)
    assert loaded is not None and (loaded.values == table.values).all()


def test_a_corrupt_file_is_refused_in_one_line(cache, capsys):
    from mancala.cli.main import main  # noqa: PLC0415

    rules = TogyzRules(houses=4)
    E.build(rules, 4)
    path = E.tier_path(rules, 4)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(E.CorruptTable) as err:
        E.load(rules, 4)
    assert str(path) in str(err.value) and "checksum" in str(err.value) and "\n" not in str(err.value)
    capsys.readouterr()
    assert main(["db", "check", "--game", "togyz(houses=4)", "--seeds", "4"]) == 2
    err_text = capsys.readouterr().err
    assert "checksum" in err_text and err_text.count("\n") == 1
    assert E.build(rules, 4).values.size == E.entries(rules, 4)  # a build makes it again
    assert E.load(rules, 4) is not None
    # a file of other rules put in this one's place is refused, naming what differs
    other = TogyzRules(houses=4, tuzdik_forbid_last=False)
    E.build(other, 2)
    E.tier_path(rules, 2).write_bytes(E.tier_path(other, 2).read_bytes())
    with pytest.raises(E.CorruptTable, match="its header's rules is not the one its name says"):
        E.load(rules, 2)


def test_the_memory_bound(cache):
    with pytest.raises(E.BadInput, match="GiB"):
        E.build(TogyzRules(), 10, memory=1 << 30)
    assert 2 << 30 < E.memory_needed(TogyzRules(), 10) < 3 << 30
    with pytest.raises(E.BadInput, match="0-40"):
        E.check_rules(TogyzRules(), 41)


def test_cli_builds_and_checks(cache, capsys):
    from mancala.cli.main import main  # noqa: PLC0415

    assert main(["db", "build", "--game", "togyz(houses=3)", "--seeds", "3"]) == 0
    out, err = capsys.readouterr()
    entries = E.entries(TogyzRules(houses=3), 3)
    assert "tier 3:" in err and f"{entries:,} positions built" in out and "Togyz Kumalak endgame database" in out
    assert main(["db", "check", "--game", "togyz(houses=3)", "--seeds", "3"]) == 0
    assert f"{entries:,} positions checked" in capsys.readouterr().out
    assert main(["db", "check", "--game", "togyz(houses=3)", "--seeds", "4"]) == 2
    assert "is built yet" in capsys.readouterr().err


# --- exact answers: solve, the record, the search ----------------------------------------------


def _game(houses: int = 4, majority: bool = False) -> TogyzKumalak:
    return TogyzKumalak(TogyzRules(houses=houses, stones=3, stop_at_majority=majority))


def test_solve_answers_exactly(cache, capsys):
    from mancala.cli.main import main  # noqa: PLC0415
    from mancala.engine.togyz import exact  # noqa: PLC0415

    game = _game()
    E.build(game.rules, 5)
    exact.forget_tables()
    try:
        position = "1,0,2,0/0,1,0,1 12-7 S"
        assert main(["solve", "--game", "togyz(houses=4,stones=3,stop_at_majority=false)", "--position", position]) == 0
        out = capsys.readouterr().out
        state = game.parse_position(position)
        truth = brute_force(game.rules, [(state.houses, state.tuzdiks)])
        want = 12 - 7 + truth[state.houses, state.tuzdiks, 0]
        assert f"value: {want:+d} for South (final stone difference with perfect play; exact)" in out
        assert "from the 5-stone endgame database" in out
    finally:
        exact.forget_tables()


def test_the_record_and_the_search_use_the_table(cache):
    from mancala.engine.support import engine_support  # noqa: PLC0415
    from mancala.engine.togyz import exact  # noqa: PLC0415
    from mancala.engine.togyz.search import TogyzSearcher, search  # noqa: PLC0415

    game = _game()
    table = E.build(game.rules, 5)
    exact.forget_tables()
    try:
        record = engine_support("togyz")
        assert record is not None and record.table_seeds is not None and record.exact is not None
        assert record.table_seeds(game) == 5
        position = "2,1,0,0/1,0,1,0 9-10 S"
        state = game.parse_position(position)
        answer = record.exact(game, state)
        assert answer is not None and answer.exact and answer.moves[0][0] == answer.line[0]
        truth = brute_force(game.rules, [(state.houses, state.tuzdiks)])
        best = answer.moves[0][1]
        assert best == -1 + truth[state.houses, state.tuzdiks, 0]
        hit = record.best(game, state, 1.0, None, None, None, True)
        assert hit.algorithm == "togyz-endgame(exact)" and hit.move == answer.moves[0][0]
        # below the root: with the table every child is valued exactly at depth 1
        searcher = TogyzSearcher(game)
        result = search(game, state, None, max_depth=1, searcher=searcher, table=table)
        assert searcher.table_hits > 0 and result.algorithm == "togyz-engine(exact)"
        assert result.value == (1000 + best if best > 0 else best - 1000 if best < 0 else 0)
        # under the majority stop (the same table) the result is exact, the margin may not be
        majority = _game(majority=True)
        answer = record.exact(majority, majority.parse_position(position))
        assert answer is not None and not answer.exact and "result is exact" in answer.note
    finally:
        exact.forget_tables()


def test_probe_in_the_search_equals_the_table(cache):
    """The search's in-place key (search.table_value) reads the entry the module's key gives,
    from both seats and with tuzdiks."""
    from mancala.engine.togyz import search as S  # noqa: PLC0415
    from mancala.engine.togyz.rules import rules_array  # noqa: PLC0415

    game = _game(houses=4)
    table = E.build(game.rules, 4)
    rng = np.random.default_rng(3)
    positions = list(table_positions(game.rules, 4))
    rules_arr = rules_array(game.rules)
    for k in rng.integers(0, len(positions), 300):
        s, houses, tuzdiks = positions[int(k)]
        for seat in (0, 1):
            if seat == 1:  # the same position seen from North: rows swapped, tuzdiks swapped
                n = 4
                houses = houses[n:] + houses[:n]
                tuzdiks = (tuzdiks[1] + n if tuzdiks[1] >= 0 else -1, tuzdiks[0] - n if tuzdiks[0] >= 0 else -1)
            state = TogyzState(houses, (20 - s, 4), tuzdiks, seat)
            arr = S.state_array(state)
            v = S.table_value(arr, rules_arr, table.values, table.offsets, table.layout.config, 4)
            want = table.value(houses, tuzdiks, seat)
            m = (20 - s - 4 if seat == 0 else 4 - (20 - s)) + want
            assert v == (1000 + m if m > 0 else m - 1000 if m < 0 else 0)
            assert want == table.values[int(k)]


@pytest.mark.parametrize(
    "houses, stones, value",
    # docs/togyz.md, "Small boards solved": South's final margin with best play from the start
    # under the federation's rules (the majority stop on), by engine/togyz/small.py
    [
        (2, 1, 0),
        (2, 2, 4),
        (2, 3, 6),
        (2, 4, 0),
        (2, 5, 0),
        (2, 6, 6),
        (2, 7, 0),
        (3, 1, -2),
        (3, 2, 4),
        (3, 3, 2),
        (4, 1, -4),
    ],
)
def test_the_majority_stop_keeps_the_result(cache, houses, stones, value):
    """The table leaves the stop at a majority out: from the start of each small board solved
    with it, the table's result (the sign of its margin) is the published one."""
    rules = TogyzRules(houses=houses, stones=stones)
    table = E.build(rules, 2 * houses * stones)
    start = TogyzKumalak(rules).initial_state()
    margin = table.value(start.houses, start.tuzdiks, 0)
    assert np.sign(margin) == np.sign(value)


@pytest.mark.slow
@pytest.mark.parametrize(
    "houses, stones, value, first",
    # docs/togyz.md, "Larger small boards, from the endgame tables": each first move's value
    [(3, 4, 0, {1: -8, 2: -4, 3: 0}), (4, 2, 8, {1: 0, 2: -8, 3: -4, 4: 8})],
)
def test_small_boards_beyond_the_python_solver_keep_their_published_values(cache, houses, stones, value, first):
    """The values of boards the Python solver cannot reach, from their tables: the start's and
    each first move's (a regression check of the published figures)."""
    from mancala.engine.togyz.exact import move_values  # noqa: PLC0415

    rules = TogyzRules(houses=houses, stones=stones)
    table = E.build(rules, 2 * houses * stones)
    game = TogyzKumalak(rules)
    start = game.initial_state()
    assert table.value(start.houses, start.tuzdiks, 0) == value
    moves = move_values(game, start, table)
    assert moves is not None and {m.house + 1: v for m, v in moves} == first


@pytest.mark.slow
def test_random_positions_of_the_full_board_match_brute_force(cache):
    """The 2 x 9 board's tiers of 5 and 6 stones, sampled: each position against the brute
    force over every position reachable from it."""
    rules = TogyzRules()
    table = E.build(rules, 6)
    lay = table.layout
    rng = np.random.default_rng(11)
    board = np.zeros(18, dtype=np.int64)
    free = np.zeros(18, dtype=np.int64)
    for s in (5, 6):
        size = int(lay.offsets[s + 1, 0] - lay.offsets[s, 0])
        for q in rng.integers(0, size, 12):
            c = E.position(int(q), s, 9, lay.offsets, lay.tuzdiks, board, free)
            houses = tuple(int(x) for x in board)
            tuzdiks = (int(lay.tuzdiks[c, 0]), int(lay.tuzdiks[c, 1]))
            truth = brute_force(rules, [(houses, tuzdiks)])
            assert table.values[lay.offsets[s, 0] + q] == truth[houses, tuzdiks, 0], (houses, tuzdiks)


def test_cli_refuses_a_build_above_the_memory_bound_in_one_line(cache, capsys):
    from mancala.cli.main import main  # noqa: PLC0415

    assert main(["db", "build", "--game", "togyz", "--seeds", "10", "--memory", "1"]) == 2
    err = capsys.readouterr().err.splitlines()  # the line saying what it builds, then one line of error
    assert len(err) == 2 and "needs about 2.0 GiB" in err[1] and "--memory" in err[1]
    assert main(["db", "build", "--game", "togyz", "--seeds", "41"]) == 2
    assert "0-40" in capsys.readouterr().err


def test_solve_without_a_table_says_what_to_build(cache, capsys):
    from mancala.cli.main import main  # noqa: PLC0415

    position = "2,0,1,0,0,3,0,0,0/0,1,0,X,2,0,1,0,0 76-76 S"
    assert main(["solve", "--game", "togyz", "--position", position]) == 2
    err = capsys.readouterr().err
    assert "mancala db build --game 'togyz' --seeds 10" in err and err.count("\n") == 1
    assert main(["solve", "--game", "togyz"]) == 2  # the start: beyond any table
    err = capsys.readouterr().err
    assert "162 stones on the board, more than the largest endgame table" in err and err.count("\n") == 1
