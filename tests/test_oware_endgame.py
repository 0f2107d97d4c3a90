"""Oware endgame databases (mancala/engine/oware): the ranking, the build against an
independent solver, invariants, the published counts, the cache and the CLI.

The independent solver (:func:`brute_force`) plays the rules of ``games/oware.py`` itself
(``Oware.apply``) over the explicit graph of every position, tier by tier, and finds each
tier's values by value iteration on a lower and an upper bound until nothing changes: a
different algorithm from the build's counting retrograde analysis with unmoves.  Its run on
the standard board is for up to 5 seeds here (seconds);
``MANCALA_OWARE_VERIFY_SEEDS=8`` runs it for 8 (minutes)."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace
from math import comb

import numpy as np
import pytest
from numba import njit

from mancala.cli.main import main
from mancala.engine.compositions import next_board, rank, tier_offsets, tier_size, unrank
from mancala.engine.oware import endgame as E
from mancala.engine.oware import exact
from mancala.engine.oware.rules import rules_array
from mancala.games.oware import PRESETS, EndSeeds, GrandSlam, Oware, OwareRules, position_key

VERIFY_SEEDS = int(os.environ.get("MANCALA_OWARE_VERIFY_SEEDS", "5"))


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Every test builds into its own empty cache."""
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    return tmp_path


def boards(p: int, s: int):
    """Every way to put ``s`` seeds in ``p`` houses."""
    if p == 1:
        yield (s,)
        return
    for h in range(s + 1):
        for rest in boards(p - 1, s - h):
            yield (h, *rest)


def brute_force(rules: OwareRules, max_seeds: int) -> dict[tuple[int, ...], int]:
    """Every position's value (South to move) by value iteration on the explicit game graph
    built with ``Oware.apply`` (see the module doc)."""
    game = Oware(replace(rules, stop_at_majority=False, max_plies=0))
    n, total = rules.houses, rules.total
    value: dict[tuple[int, ...], int] = {}
    for s in range(max_seeds + 1):
        tier = list(boards(2 * n, s))
        index = {b: i for i, b in enumerate(tier)}
        src, dst, reward, leaves = [], [], [], []
        fixed: dict[int, int] = {}
        for i, b in enumerate(tier):
            state = game.position(b, (total - s, 0), 0)
            if state.finished:  # no legal move: the rules share out the board
                fixed[i] = state.stores[0] - (total - s) - state.stores[1]
                continue
            for move in game.legal_moves(state):
                after = game.apply(state, move)
                gain = (after.stores[0] - state.stores[0]) - (after.stores[1] - state.stores[1])
                src.append(i)
                child = after.houses[n:] + after.houses[:n]
                if after.finished:
                    reward.append(gain + sum(after.row(0)) - sum(after.row(1)))
                    dst.append(0)
                    leaves.append(True)
                elif sum(child) < s:  # a capture: a smaller tier, solved already
                    reward.append(gain - value[child])
                    dst.append(0)
                    leaves.append(True)
                else:
                    reward.append(gain)
                    dst.append(index[child])
                    leaves.append(False)
        big = s + 1
        lo, hi = np.full(len(tier), -big), np.full(len(tier), big)
        fi = np.array(sorted(fixed), dtype=np.int64)
        fv = np.array([fixed[i] for i in fi], dtype=np.int64)
        lo[fi] = hi[fi] = fv
        a_src, a_dst, a_rew, a_leave = (np.array(x, dtype=np.int64) for x in (src, dst, reward, leaves))
        out = a_leave.astype(bool)
        while True:  # lo: what the mover can force; hi: what the opponent cannot stop
            new_lo, new_hi = np.full(len(tier), -big), np.full(len(tier), -big)
            np.maximum.at(new_lo, a_src, np.where(out, a_rew, a_rew - hi[a_dst]))
            np.maximum.at(new_hi, a_src, np.where(out, a_rew, a_rew - lo[a_dst]))
            new_lo[fi] = new_hi[fi] = fv
            if (new_lo == lo).all() and (new_hi == hi).all():
                break
            lo, hi = new_lo, new_hi
        # forced gains are finite strategies; what neither side can force is endless play: 0
        for b, x in zip(tier, np.where(lo > 0, lo, np.where(hi < 0, hi, 0))):
            value[b] = int(x)
    return value


def assert_same(rules: OwareRules, max_seeds: int) -> int:
    table = E.build(rules, max_seeds)
    expected = brute_force(rules, max_seeds)
    wrong = [(b, v, table.value(b)) for b, v in expected.items() if table.value(b) != v]
    assert not wrong[:5], f"{len(wrong)} of {len(expected)} differ (board, brute force, table): {wrong[:5]}"
    return len(expected)


# --- ranking ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("houses", "seeds"), [(2, 5), (4, 4), (12, 3), (6, 6)])
def test_rank_numbers_a_tier_without_gaps(houses, seeds):
    board = np.zeros(houses, dtype=np.int64)
    board[-1] = seeds  # rank 0
    seen = set()
    for r in range(tier_size(houses, seeds)):
        assert rank(board, seeds) == r
        back = np.zeros(houses, dtype=np.int64)
        unrank(r, seeds, back)
        assert (back == board).all()
        seen.add(tuple(board))
        more = next_board(board)
    assert not more and len(seen) == tier_size(houses, seeds)


def test_the_published_counts():
    assert [tier_size(12, s) for s in (0, 1, 2, 12, 24)] == [1, 12, 78, 1_352_078, 417_225_900]
    assert all(tier_size(12, n) == comb(n + 11, 11) for n in range(49))
    offsets = tier_offsets(12, 12)
    assert offsets[-1] == comb(24, 12) == 2_704_156
    assert tier_offsets(12, 24)[-1] == 1_251_677_700


# --- the build against the independent solver ---------------------------------------------------


@pytest.mark.parametrize("preset", ["abapa", "awari", "wari"])
def test_standard_board_matches_the_brute_force_solver(preset):
    assert assert_same(PRESETS[preset], VERIFY_SEEDS) == comb(VERIFY_SEEDS + 12, 12)


VARIANTS = [
    OwareRules(houses=1, seeds=8),
    OwareRules(houses=2, seeds=4),
    OwareRules(houses=2, seeds=4, skip_origin=False),
    OwareRules(houses=2, seeds=4, must_feed=False, cannot_move=EndSeeds.UNSCORED),
    OwareRules(houses=3, seeds=4, grand_slam=GrandSlam.ILLEGAL_UNLESS_ONLY, cannot_move=EndSeeds.SPLIT),
    OwareRules(houses=3, seeds=4, grand_slam=GrandSlam.OPPONENT_TAKES_REST),
    OwareRules(houses=3, seeds=4, grand_slam=GrandSlam.LEAVE_LEFT, multiple_capture=False),
    OwareRules(houses=3, seeds=4, grand_slam=GrandSlam.LEAVE_RIGHT, capture_counts=(1, 2)),
    OwareRules(houses=3, seeds=4, grand_slam=GrandSlam.CAPTURE_ALL, capture_counts=(3, 4), skip_origin=False),
    OwareRules(houses=4, seeds=4, grand_slam=GrandSlam.ILLEGAL, must_feed=False),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.houses}h-{r.describe()}")
def test_small_variants_match_the_brute_force_solver(rules):
    seeds = {1: 8, 2: 8, 3: 7, 4: 5}[rules.houses]
    assert_same(rules, seeds)


@pytest.mark.parametrize("rules", [PRESETS["abapa"], *VARIANTS[2:]], ids=lambda r: f"{r.houses}h-{r.describe()}")
def test_unmoves_are_the_moves_backwards(rules):
    """Every non-capturing move of a tier, found forwards, is found once backwards."""
    n, p = rules.houses, 2 * rules.houses
    arr = rules_array(rules)
    seeds = 4 if n == 6 else 6
    b, child, scratch, parent, d = (np.zeros(p, dtype=np.int64) for _ in range(5))
    moves, out = np.zeros(n, dtype=np.int64), np.zeros(200, dtype=np.int64)
    forwards, backwards = Counter(), Counter()
    for r in range(tier_size(p, seeds)):
        unrank(r, seeds, b)
        for j in range(E.legal_moves(b, n, arr, moves, scratch)):
            captured, over, _ = E.play(b, moves[j], n, arr, child, scratch)
            if not captured and not over:
                forwards[rank(child, seeds), r] += 1
        E.rotate(b, n, d)
        for k in range(E.unmoves(d, seeds, arr, out, parent, scratch, child, moves)):
            backwards[r, int(out[k])] += 1
    assert forwards == backwards and sum(forwards.values()) > 0


# --- invariants and exact values --------------------------------------------------------------


@pytest.mark.parametrize("preset", ["abapa", "awari"])
def test_every_entry_is_the_best_move_of_its_position(preset):
    """Range, the positions without a move, and v = max over moves (captured - v(child))."""
    rules = PRESETS[preset]
    table = E.build(rules, 6)
    n, arr = 6, rules_array(rules)
    b, child, scratch = (np.zeros(12, dtype=np.int64) for _ in range(3))
    moves = np.zeros(6, dtype=np.int64)
    for s in range(7):
        for r in range(tier_size(12, s)):
            unrank(r, s, b)
            v = int(table.values[table.offsets[s] + r])
            assert -s <= v <= s
            m = E.legal_moves(b, n, arr, moves, scratch)
            if m == 0:
                assert v == b[:6].sum() - b[6:].sum()  # cannot_move own-row: each side its row
                continue
            best = -99
            for j in range(m):
                captured, over, margin = E.play(b, moves[j], n, arr, child, scratch)
                best = max(best, margin if over else captured - table.value(child))
            assert v == best, (b, v, best)


def test_known_values():
    table = E.build(PRESETS["abapa"], 4)
    assert table.value((0,) * 12) == 0
    assert table.value((1,) + (0,) * 11) == 1  # A cannot feed: South ends the game, taking 1
    assert table.value((0,) * 5 + (1,) + (0,) * 6) == -1  # F feeds a; a cannot feed back
    # F captures a (3), North's f feeds A, South cannot feed: 3 + 1
    assert table.value((0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1)) == 4
    # seen from North: the same position rotated
    assert table.value((2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1), seat=1) == 4
    assert table.value((0,) * 7 + (5,) * 1 + (0,) * 4) is not None
    split = E.build(replace(PRESETS["abapa"], cannot_move=EndSeeds.SPLIT), 1)
    assert split.value((1,) + (0,) * 11) == 0


def test_probe_is_callable_from_compiled_code():
    table = E.build(PRESETS["awari"], 3)

    @njit
    def first_house_values(values, offsets):
        out = np.empty(5, dtype=np.int64)
        for k in range(5):
            board = np.zeros(12, dtype=np.int64)
            board[0] = k
            out[k] = E.probe(values, offsets, board)
        return out

    assert list(first_house_values(table.values, table.offsets)) == [0, 1, 2, 3, E.MISSING]


# --- play from the table: progress, not circles ---------------------------------------------


def _to_end(game: Oware, state, choose, limit: int = 400):
    """``state`` played on by ``choose(state) -> move`` for both sides until the game ends."""
    for _ in range(limit):
        if game.is_terminal(state):
            break
        state = game.apply(state, choose(state))
    return state


def _sparse_positions(game: Oware, count: int, seed: int, most: int):
    """Seeded random positions of 3..``most`` seeds, the stores nearly even, either side to move."""
    rng = random.Random(seed)
    while count:
        seeds = rng.randint(3, most)
        houses = [0] * 12
        for _ in range(seeds):
            houses[rng.randrange(12)] += 1
        rest = game.rules.total - seeds
        state = game.position(tuple(houses), (rest // 2, rest - rest // 2), rng.randint(0, 1))
        if not game.is_terminal(state):
            count -= 1
            yield state


def reference_plies(game: Oware, table, state) -> dict:
    """:func:`exact.conversion_plies` written again over ``Oware.apply`` (the rules' own
    moves and ends): a breadth-first graph of every position reachable without a capture
    (a move onto the game's history ends it by repetition), solved by relaxing ranks until
    nothing changes."""
    me, seeds = state.seat, sum(state.houses)

    def mine_value(child):  # the root mover's margin from the board and stores after a move
        if game.is_terminal(child):
            return game.score(child, me)
        after = exact.board_value(table, child)
        stores = child.stores[me] - child.stores[1 - me]
        return stores + after if child.seat == me else stores - after

    keep = exact.move_values(game, state, table)[0][1]
    history = state.seen | {position_key(state.houses, state.seat)}
    nodes: dict = {}  # key -> (mine, successor keys, converts at once, never)
    first: dict = {}
    queue, seen = [state], {position_key(state.houses, state.seat)}
    while queue:
        node = queue.pop(0)
        mine, succ, converts, never = node.seat == me, [], False, False
        for move in game.legal_moves(node):
            child = game.apply(node, move)
            value = mine_value(child)
            if mine and value != keep:
                continue
            key = position_key(child.houses, child.seat)
            if key in history:  # the game's own history: the move ends it by repetition
                never = never or not mine
                continue
            if game.is_terminal(child) or sum(child.houses) < seeds or value > keep:
                converts = True
                first.setdefault(move, None) if node is state else None
                continue
            succ.append(key)
            if node is state:
                first[move] = key
            if key not in seen:
                seen.add(key)  # explored afresh: the forced line never repeats itself
                queue.append(game.position(child.houses, child.stores, child.seat))
        nodes[position_key(node.houses, node.seat)] = (mine, succ, converts and (mine or not succ), never)
    ranks = {k: 1 for k, (mine, succ, now, never) in nodes.items() if now and not never}
    changed = True
    while changed:
        changed = False
        for k, (mine, succ, now, never) in nodes.items():
            if now or never or not succ:
                continue
            got = [ranks[c] for c in succ if c in ranks]
            rank = (min(got) if got else None) if mine else (max(got) if len(got) == len(succ) else None)
            if rank is not None and ranks.get(k, rank + 2) > rank + 1:
                ranks[k] = rank + 1
                changed = True
    return {m: 0 if k is None else ranks[k] for m, k in first.items() if k is None or k in ranks}


@pytest.mark.slow
def test_conversion_plies_match_a_reference_over_the_rules():
    """The kernel's soonest converting moves are those of the reference's whole graph, and
    no move of the kernel's converts sooner than the reference says (it may say later, or
    nothing, of slower moves: the kernel stops exploring once the soonest is known)."""
    game = Oware(replace(PRESETS["awari"], stop_at_majority=False))
    table = E.build(game.rules, 7)
    proved = 0
    for state in _sparse_positions(game, 120, seed=5, most=7):
        got, full = exact.conversion_plies(game, state, table), reference_plies(game, table, state)
        # the kernel stops once the root is proved: its soonest moves are the reference's
        fastest = {m: p for m, p in full.items() if p == min(full.values())}
        assert {m: p for m, p in got.items() if p == min(got.values())} == fastest, game.position_string(state)
        assert all(full[m] <= p for m, p in got.items())
        proved += bool(got)
    assert proved > 60


def test_best_moves_convert_where_the_first_best_move_circles():
    """South to move keeps +8 by every one of three moves; always taking the first of them
    goes round until the position repeats (+1, the board split); the converting move wins
    the value."""
    game = Oware(replace(PRESETS["awari"], stop_at_majority=False))
    table = E.build(game.rules, 8)
    state = game.parse_position("2-1-0-1-2-0-0-0-1-0-0-0-21-20-S")
    values = exact.move_values(game, state, table)
    assert [v for _, v in values[:3]] == [8, 8, 8]
    circled = _to_end(game, state, lambda s: exact.move_values(game, s, table)[0][0])
    assert (circled.last.end, game.score(circled, 0)) == ("repetition", 1)
    plies = exact.conversion_plies(game, state, table)
    assert sorted(plies.values()) == [10, 10, 22]
    assert exact.best_move(game, state, table) in {(m, 8) for m, p in plies.items() if p == 10}
    line = exact.perfect_line(game, state, table, limit=400)
    end = _to_end(game, state, lambda s: exact.best_move(game, s, table)[0])
    assert game.score(end, 0) == 8 and end.last.end != "repetition"
    assert len(line) == end.ply - state.ply


def test_the_answer_names_the_converting_move_first(cache):
    """``mancala solve``, the page and the hint read the engine record's exact answer: its best move (the
    first of its values) is its perfect line's first move, the one that converts."""
    from mancala.engine.oware.record import exact_answer

    game = Oware(replace(PRESETS["awari"], stop_at_majority=False))
    E.build(game.rules, 8)
    exact.forget_tables()
    try:
        reordered = 0
        for state in _sparse_positions(game, 150, seed=2, most=8):
            answer = exact_answer(game, state)
            assert answer is not None and answer.moves[0][0] == answer.line[0]
            assert answer.moves[0][1] == max(v for _, v in answer.moves)
            reordered += answer.moves[0][0] != exact.move_values(game, state)[0][0]
        assert reordered > 0  # positions where the first of the equal moves is not the converting one
    finally:
        exact.forget_tables()


def test_table_play_reaches_the_table_value():
    """Under ``awari`` (exact tables) both sides playing the table's best moves end the game
    with exactly the value the table gives: nobody circles out of a forced gain."""
    game = Oware(replace(PRESETS["awari"], stop_at_majority=False))
    table = E.build(game.rules, 8)
    for state in _sparse_positions(game, 150, seed=1, most=8):
        want = exact.move_values(game, state, table)[0][1]
        end = _to_end(game, state, lambda s: exact.best_move(game, s, table)[0])
        assert game.score(end, state.seat) == want, game.position_string(state)


# --- the cache ---------------------------------------------------------------------------------


def test_a_build_is_cached_resumed_and_extended(cache):
    rules = PRESETS["awari"]
    seen = []

    def stop_after_three(report):
        seen.append(report)
        if report.tier == 3:
            raise KeyboardInterrupt  # as Ctrl-C would, between tiers

    with pytest.raises(KeyboardInterrupt):
        E.build(rules, 6, progress=stop_after_three)
    assert E.load(rules, 3) is not None and E.load(rules, 4) is None
    reports = []
    table = E.build(rules, 6, progress=reports.append)
    assert [r.loaded for r in reports] == [True] * 4 + [False] * 3
    assert "positions loaded from the cache" in reports[0].line() and "M positions/s" in reports[-1].line()
    loaded = E.load(rules, 6)
    assert loaded is not None and (loaded.values == table.values).all()
    # openspiel and abapa differ only where the tables do not: one table
    assert E.tier_path(PRESETS["abapa"], 5) == E.tier_path(PRESETS["openspiel"], 5) != E.tier_path(rules, 5)


def test_a_corrupt_file_is_refused_in_one_line(cache):
    rules = PRESETS["abapa"]
    E.build(rules, 5)
    path = E.tier_path(rules, 5)
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(E.CorruptTable) as err:
        E.load(rules, 5)
    assert str(path) in str(err.value) and "checksum" in str(err.value) and "\n" not in str(err.value)
    assert E.build(rules, 5).value((1,) + (0,) * 11) == 1  # a build makes it again
    assert E.load(rules, 5) is not None


def test_an_unwritable_cache_is_one_line(cache, monkeypatch, capsys):
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(cache / "a-file"))
    (cache / "a-file").write_text("not a folder")
    assert main(["db", "build", "--seeds", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "cannot cache the Oware endgame table" in err[1]


def test_the_memory_bound_and_unsupported_rules():
    with pytest.raises(E.BadInput, match="GiB"):
        E.build(PRESETS["abapa"], 30, memory=1 << 30)
    with pytest.raises(E.BadInput, match="skip_twelve"):
        E.build(OwareRules(skip_twelve=True), 3)
    assert E.memory_needed(PRESETS["abapa"], 24) < 4 << 30


# --- the command line -------------------------------------------------------------------------


def test_cli_builds_and_checks(capsys):
    assert main(["db", "build", "--game", "oware(preset=awari)", "--seeds", "4"]) == 0
    out, err = capsys.readouterr()
    assert "tier 4: 1,365 positions" in err and "1,820 positions built" in out
    assert main(["db", "check", "--game", "oware(preset=awari)", "--seeds", "4"]) == 0
    assert "1,820 positions checked" in capsys.readouterr().out
    table = E.load(PRESETS["awari"], 4)
    assert table is not None and E.check_sample(table, 100) == dict.fromkeys(range(5), 0)
    table.values[table.offsets[3] + 7] += 2  # a wrong entry: it, and the positions moving to it, fail
    assert E.check_sample(table, 10_000)[3] >= 1


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["db", "build", "--game", "tictactoe", "--seeds", "4"], "built for Kalah, Oware and Togyz Kumalak"),
        (["db", "build", "--seeds", "-1"], "--seeds must be"),
        (["db", "build", "--game", "oware(skip_twelve=true)", "--seeds", "4"], "skip_twelve"),
        (["db", "build", "--game", "oware(nonsense=1)", "--seeds", "4"], "nonsense"),
        (["db", "check", "--game", "oware", "--seeds", "9"], "is built yet"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
