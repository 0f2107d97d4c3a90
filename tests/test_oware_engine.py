"""The Oware engine (mancala/engine/oware/) against the reference rules (mancala/games/oware.py),
evaluation (mancala/evaluation/oware.py) and alpha-beta (mancala/search/core.py): move for
move on seeded random games under every preset the engine plays, and equal search values
at depths 1..5 (deeper in sparse endgames, where repetitions are in reach)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from mancala.engine.oware import kernels as K
from mancala.engine.oware import search as S
from mancala.engine.oware.record import OWARE
from mancala.engine.oware.rules import rules_array, supports
from mancala.engine.support import engine_support
from mancala.errors import BadInput
from mancala.evaluation import EVALUATIONS, default_evaluation_name
from mancala.evaluation.oware import DEFAULT, HOUSE_CAP, PLAY, OwareWeights, final_value, make_evaluation
from mancala.games import make_game
from mancala.games.oware import PRESETS, EndSeeds, GrandSlam, Oware, OwareRules, OwareState, Repetition
from mancala.players import make_player
from mancala.search import alphabeta

ENGINE_PRESETS = ["abapa", "openspiel", "awari", "wari"]
#: other options the engine plays (every grand slam rule, the other ends, small boards)
OTHER_RULES = [
    OwareRules(grand_slam=GrandSlam.ILLEGAL_UNLESS_ONLY, cannot_move=EndSeeds.SPLIT),
    OwareRules(grand_slam=GrandSlam.OPPONENT_TAKES_REST, repetition=Repetition.NONE, must_feed=False),
    OwareRules(grand_slam=GrandSlam.LEAVE_LEFT, capture_counts=(2, 3, 4), multiple_capture=False),
    OwareRules(grand_slam=GrandSlam.LEAVE_RIGHT, skip_origin=False, cannot_move=EndSeeds.UNSCORED),
    OwareRules(houses=3, seeds=3, repetition=Repetition.SPLIT),
    OwareRules(houses=1, seeds=2),
]
#: evaluation weights with every term on (the default may leave some off)
ALL_TERMS = OwareWeights(row=0.25, targets=0.5, kroo=1.5, empty=0.75, threat=0.5, waiting=0.375)
#: ... and a house table of random values on a six-house board (every cell its own value)
_CELLS = random.Random(29)
WITH_TABLE = replace(ALL_TERMS, houses=tuple(round(_CELLS.uniform(-2, 2), 3) for _ in range(12 * (HOUSE_CAP + 1))))


def check_position(game: Oware, searcher: S.OwareSearcher, state: OwareState) -> int:
    """Assert that the kernels' legal moves, the positions after them (every end, the
    repetition against ``state.seen`` included), the terminal flags and the final scores
    equal the reference's; return the number of legal moves."""
    s = S.state_array(state)
    assert S.array_state(s, game.rules.houses) == state
    houses, children = searcher.children(state)
    moves = game.legal_moves(state)
    assert [m.house for m in moves] == list(houses), game.position_string(state)
    for move, child in zip(moves, children):
        after = game.apply(state, move)
        got = S.array_state(child, game.rules.houses)
        assert got == after and got.finished == after.finished, (game.position_string(state), str(move))
        end = after.last.end if after.last else None
        assert K.END_NAMES[child[K.S_END]] == end
        for seat in (0, 1):
            assert game.score(got, seat) == game.score(after, seat)
        if after.finished:
            mover = after.seat
            assert K.margin(child, searcher.rules) == game.score(after, mover)
            assert K.terminal_value(child, searcher.rules) == EVALUATIONS["oware"](game, after, mover)
    return len(moves)


def random_games(game: Oware, seed: int, games: int):
    """Every position of ``games`` seeded random playouts (a game runs to its end)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        while True:
            yield state
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))


def sparse_start(game: Oware, rng: random.Random) -> OwareState:
    """A position with few seeds on the board and both stores below half: repetitions and
    cannot-feed ends come quickly from there."""
    r = game.rules
    n = r.houses
    board = rng.randint(2, min(8, r.total))
    houses = [0] * (2 * n)
    for _ in range(board):
        houses[rng.randrange(2 * n)] += 1
    rest = r.total - board
    south = rest // 2 if r.stop_at_majority else rng.randint(0, rest)
    return game.position(houses, (south, rest - south), rng.randrange(2))


@pytest.mark.parametrize("preset", ENGINE_PRESETS)
def test_random_games_move_for_move(preset):
    game = Oware(PRESETS[preset])
    searcher = S.OwareSearcher(game, entries=1 << 4)
    ends: dict[str | None, int] = {}
    positions = 0
    for state in random_games(game, 1, 40):
        positions += 1
        check_position(game, searcher, state)
        if state.finished:
            ends[state.last.end if state.last else None] = ends.get(state.last.end if state.last else None, 0) + 1
    assert positions > 3000
    assert ends.get("no-move", 0) + ends.get("majority", 0) > 20


@pytest.mark.parametrize(
    "rules", OTHER_RULES, ids=["unless-only", "takes-rest", "leave-left", "leave-right", "3x3", "1x2"]
)
def test_random_games_other_rules(rules):
    game = Oware(rules)
    searcher = S.OwareSearcher(game, entries=1 << 4)
    for state in random_games(game, 2, 15):
        check_position(game, searcher, state)


@pytest.mark.parametrize("preset", ENGINE_PRESETS)
def test_sparse_endgames_repetitions_included(preset):
    game = Oware(PRESETS[preset])
    searcher = S.OwareSearcher(game, entries=1 << 4)
    rng = random.Random(4)
    ends: dict[str | None, int] = {}
    for _ in range(150):
        state = sparse_start(game, rng)
        for _ in range(60):
            check_position(game, searcher, state)
            if state.finished:
                end = state.last.end if state.last else "start"
                ends[end] = ends.get(end, 0) + 1
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert ends.get("repetition", 0) >= 5, ends


def _search_positions(game: Oware, count: int, seed: int, sparse: bool = False) -> list[OwareState]:
    rng = random.Random(seed)
    out: list[OwareState] = []
    while len(out) < count:
        state = sparse_start(game, rng) if sparse else game.initial_state()
        for _ in range(rng.randint(0, 20 if sparse else 120)):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            out.append(state)
    return out


@pytest.mark.parametrize("preset", ENGINE_PRESETS)
@pytest.mark.parametrize("mode", ["plain", "table", "table-no-pvs"])
def test_search_values_equal_reference_alphabeta(preset, mode):
    game = Oware(PRESETS[preset])
    evaluate = make_evaluation(ALL_TERMS)
    for state in _search_positions(game, 12, 3):
        for depth in range(1, 6):
            ref = alphabeta(game, state, depth, evaluate)
            searcher = S.OwareSearcher(
                game, ALL_TERMS, entries=1 << 12, use_table=mode != "plain", pvs=mode != "table-no-pvs"
            )
            value, house, complete, _ = searcher.run(state, depth)
            assert complete and value == ref.value, (game.position_string(state), depth)
            assert house in [m.house for m in game.legal_moves(state)]


@pytest.mark.parametrize("preset", ["abapa", "awari"])
def test_search_values_with_repetitions_in_reach(preset):
    """Sparse positions with a game history: repetitions end lines inside the search (the
    game's own ``seen`` included); with path keys the table keeps the values exact."""
    game = Oware(PRESETS[preset])
    plain = make_evaluation(ALL_TERMS)
    repeated = []

    def evaluate(game_, state_, player):  # counts the lines a repetition ended
        if state_.finished and state_.last is not None and state_.last.end == "repetition":
            repeated.append(state_)
        return plain(game_, state_, player)

    for state in _search_positions(game, 40, 6, sparse=True):
        searcher = S.OwareSearcher(game, ALL_TERMS, entries=1 << 12)
        for depth in (2, 4, 6, 8, 10):
            ref = alphabeta(game, state, depth, evaluate)
            value, _, complete, _ = searcher.run(state, depth)
            assert complete and value == ref.value, (game.position_string(state), depth)
    assert len(repeated) >= 20, len(repeated)  # 43 and 40 when written


def test_the_house_table_is_the_engines_bit_for_bit():
    """The kernels' evaluation with a house table is the Python evaluation's, for the mover
    and (negated exactly) for the other side, on every position of random games."""
    game = Oware()
    evaluate = make_evaluation(WITH_TABLE)
    w = S.weights_array(WITH_TABLE)
    rules = rules_array(game.rules)
    checked = 0
    for state in random_games(game, 17, 12):
        if state.finished:
            continue
        v = K.heuristic(S.state_array(state), rules, w)
        assert evaluate(game, state, state.seat) == v
        assert evaluate(game, state, 1 - state.seat) == -v
        checked += 1
    assert checked > 300


def test_the_house_table_reads_each_house_from_the_movers_side():
    """One cell per house: the mover's houses are rows 0..5 in sowing order, the opponent's
    rows 6..11; counts above the cap share the last column."""
    game = Oware()
    table = [0.0] * (12 * (HOUSE_CAP + 1))
    table[0 * (HOUSE_CAP + 1) + 4] = 1.0  # the mover's first house holding 4
    table[6 * (HOUSE_CAP + 1) + HOUSE_CAP] = 10.0  # the opponent's first house holding HOUSE_CAP or more
    table[11 * (HOUSE_CAP + 1) + 0] = 100.0  # the opponent's last house empty
    evaluate = make_evaluation(OwareWeights(houses=tuple(table)))
    houses = [4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    houses[6], houses[11] = 30, 0  # North's a holds 30 (over the cap), f is empty
    south = game.position(houses, (7, 7), 0)
    assert evaluate(game, south, 0) == 1.0 + 10.0 + 100.0  # the stores are level
    # North to move: its a (30) is row 0 (no cell for 30 there), South's A (4) row 6 (none for
    # 4 there), South's F (empty) row 11: only that cell counts
    north = game.position(houses, (7, 7), 1)
    assert evaluate(game, north, 1) == 100.0
    assert evaluate(game, north, 0) == -evaluate(game, north, 1)


def test_search_values_with_a_house_table_equal_reference_alphabeta():
    game = Oware(PRESETS["abapa"])
    evaluate = make_evaluation(WITH_TABLE)
    for state in _search_positions(game, 6, 31):
        for depth in range(1, 5):
            ref = alphabeta(game, state, depth, evaluate)
            value, _, complete, _ = S.OwareSearcher(game, WITH_TABLE, entries=1 << 12).run(state, depth)
            assert complete and value == ref.value, (game.position_string(state), depth)


def test_a_house_table_for_another_board_is_refused():
    with pytest.raises(BadInput, match="42 values per pair of houses, got 5"):
        OwareWeights(houses=(0.0,) * 5)
    with pytest.raises(BadInput, match="must be finite"):
        OwareWeights(threat=float("inf"))
    with pytest.raises(BadInput, match="must be finite"):
        OwareWeights(houses=(float("nan"),) * 42)
    small = Oware(OwareRules(houses=3, seeds=3))
    with pytest.raises(BadInput, match="house table for 6 houses a side on a board of 3"):
        S.OwareSearcher(small, WITH_TABLE)
    with pytest.raises(BadInput, match="house table for 6 houses a side on a board of 3"):
        make_evaluation(WITH_TABLE)(small, small.initial_state(), 0)


def test_default_evaluation_is_the_engines():
    assert default_evaluation_name(Oware()) == "oware"
    game = Oware()
    evaluate = EVALUATIONS["oware"]
    for state in _search_positions(game, 10, 9):
        for depth in (1, 3):
            searcher = S.OwareSearcher(game, DEFAULT, entries=1 << 10)
            assert searcher.run(state, depth)[0] == alphabeta(game, state, depth, evaluate).value


def test_wins_rank_above_estimates_with_their_true_margin():
    game = Oware()
    # South sows F (1 seed) into a (1 -> 2) and captures: 25 seeds, a majority: won by 25 - 21 + rows
    state = game.position([0, 0, 0, 0, 0, 1] + [1, 0, 0, 1, 0, 0], (23, 22), 0)
    result = S.search(game, state, None, max_depth=6)
    after = game.apply(state, result.move)
    assert after.finished and result.exact
    assert result.value == 1000.0 + game.score(after, 0) and result.value > 1000.0


def test_iterative_deepening_budgets_and_line():
    game = Oware()
    state = _search_positions(game, 1, 21)[0]
    result = S.search(game, state, None, max_depth=5)
    assert result.depth == 5 or result.exact
    assert result.value == alphabeta(game, state, result.depth, EVALUATIONS["oware"]).value
    assert 1 <= len(result.line) <= result.depth and result.line[0] == result.move
    for move in result.line:
        assert move in game.legal_moves(state)
        state = game.apply(state, move)
    limited = S.search(game, game.initial_state(), None, max_nodes=1)  # depth 1 always completes
    assert limited.depth == 1 and limited.move in game.legal_moves(game.initial_state())


def test_unsupported_rules_decline_and_best_falls_back():
    assert all(supports(PRESETS[p]) for p in ENGINE_PRESETS)
    assert not supports(OwareRules(skip_twelve=True)) and not supports(OwareRules(max_plies=100))
    with pytest.raises(BadInput):
        S.OwareSearcher(Oware(OwareRules(skip_twelve=True)))
    game = make_game("oware(skip_twelve=true)")
    player = make_player("best:depth=2")
    state = game.initial_state()
    assert player.choose(game, state) in game.legal_moves(state)
    assert not player.last.algorithm.startswith("oware-engine")
    assert not player.uses_engine(game)


def test_best_hint_and_timed_alphabeta_use_the_engine():
    assert engine_support("oware") is OWARE and OWARE.timed is not None
    game = make_game("oware")
    state = _search_positions(game, 1, 4)[0]
    for spec in ("best:time=0.2", "best:depth=4", "alphabeta:time=0.2", "expert"):
        player = make_player(spec)
        assert player.choose(game, state) in game.legal_moves(state)
        assert player.last.algorithm.startswith("oware-engine"), spec
    fixed = make_player("alphabeta:depth=2")
    fixed.choose(game, state)
    assert fixed.last.algorithm == "alphabeta"


def test_endgame_probe_hook_answers_first():
    game = Oware()
    state = game.initial_state()
    move = game.legal_moves(state)[2]
    result = S.search(game, state, None, max_depth=3, probe=lambda g, st: (move, 0.0))
    assert result.move == move and result.exact and result.nodes == 0


def test_search_from_a_finished_game():
    game = Oware()
    state = game.position([0] * 6 + [0, 0, 0, 0, 0, 1], (30, 17), 0)  # South cannot feed
    assert state.finished
    result = S.search(game, state, 1.0)
    assert result.move is None and result.value == 1000.0 + 30 - 18


def test_state_arrays_round_trip():
    for state in list(random_games(Oware(), 5, 3))[::7]:
        s = S.state_array(state)
        assert s.dtype == np.int64 and len(s) == K.S_SIZE
        assert S.array_state(s, 6) == state


def test_largest_board_and_most_seeds():
    """12 houses a side of 20 seeds (480 in all: the most a house, a store or a table key
    must hold), move for move through one random game, and a search."""
    game = Oware(OwareRules(houses=12, seeds=20))
    searcher = S.OwareSearcher(game, entries=1 << 4)
    assert sum(1 for state in random_games(game, 9, 1) if check_position(game, searcher, state) >= 0) > 500
    result = S.search(game, game.initial_state(), None, max_depth=4)
    assert result.depth == 4 and result.move in game.legal_moves(game.initial_state())


# --- the endgame table inside the search ---------------------------------------------------------


def table_positions(game: Oware, max_seeds: int, count: int, seed: int, least: int = 1) -> list[OwareState]:
    """``count`` unfinished positions with ``least`` to ``max_seeds`` seeds on the board and no
    store past half (random houses, stores and side to move), a few with a short history."""
    rng = random.Random(seed)
    out: list[OwareState] = []
    total = game.rules.total
    while len(out) < count:
        seeds = rng.randint(least, max_seeds)
        houses = [0] * (2 * game.rules.houses)
        for _ in range(seeds):
            houses[rng.randrange(len(houses))] += 1
        south = rng.randint(total - seeds - total // 2, total // 2)
        state = game.position(houses, (south, total - seeds - south), rng.randint(0, 1))
        for _ in range(rng.choice([0, 0, 3])):  # a history since the last capture, sometimes
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished and least <= sum(state.houses) <= max_seeds:
            out.append(state)
    return out


@pytest.mark.parametrize("preset", ["awari", "abapa"])
def test_the_search_values_table_positions_by_the_table(preset, tmp_path, monkeypatch):
    """With a table in the search, every position below the root within it is worth the
    table's value: the root's value is the best of ``exact.move_values`` (the mover's margin
    after each move, on the engine's scale) at every depth, and its move is one of the best."""
    from mancala.engine.oware import endgame, exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    game = Oware(PRESETS[preset])
    table = endgame.build(game.rules, 8)
    for state in table_positions(game, 8, 60, seed=len(preset)):
        values = exact.move_values(game, state, table)
        assert values is not None
        best = values[0][1]
        for depth in (1, 4):
            # the table's zeros too (under own-row repetition the play searches on from them)
            searcher = S.OwareSearcher(game, table_mode=S.TABLE_ENDS)
            result = S.search(game, state, None, max_depth=depth, table=table, searcher=searcher)
            assert result.value == final_value(best), game.position_string(state)
            assert dict(values)[result.move] == best, game.position_string(state)
            assert result.depth == 1  # every child is finished or in the table: proved at once
            # the table's values are exact only under split repetition (every child may have ended)
            labels = ["oware-engine(exact)"] + (["oware-engine(table)"] if preset == "abapa" else [])
            assert result.algorithm in labels


@pytest.mark.parametrize("preset", ["abapa", "awari"])
def test_the_tables_zeros_are_searched_on_in_their_mode(preset, tmp_path, monkeypatch):
    """``TABLE_BUT_ZERO``: a table's 0 (endless play, worth the rows when the position repeats
    under ``abapa``) is no value: the search goes on from it (a non-zero entry still ends
    it) and the root's probe leaves such a position to the search.  Play's mode follows the
    rules: under ``awari`` (a repetition splits the board) every entry is the value and ends
    the search; under ``abapa`` the table counts only at the horizon and the root's probe
    never answers."""
    from mancala.engine.oware import endgame, exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(exact, "_tables", {})  # the probe reads the table built here
    game = Oware(PRESETS[preset])
    table = endgame.build(game.rules, 8)
    own_row = preset == "abapa"
    assert S.table_mode(game.rules) == (S.TABLE_AT_HORIZON if own_row else S.TABLE_ENDS)
    zeros = nonzeros = 0
    for state in table_positions(game, 8, 80, seed=5):
        board = exact.board_value(table, state)
        but_zero = exact.probe_move(game, state, S.TABLE_BUT_ZERO)
        assert (exact.probe_move(game, state) is None) == own_row, game.position_string(state)
        if board == 0:
            zeros += 1
            assert but_zero is None, game.position_string(state)
        else:
            nonzeros += 1
            assert but_zero is not None and but_zero[1] == final_value(exact.best_move(game, state, table)[1])
    assert zeros >= 5 and nonzeros >= 5, (zeros, nonzeros)
    # a root whose every move leads to a 0 of the table: proved at depth 1 only where 0 counts
    for state in table_positions(game, 8, 400, seed=6):
        values = exact.move_values(game, state, table)
        assert values is not None
        children = [game.apply(state, move) for move, _ in values]
        if any(game.is_terminal(c) or exact.board_value(table, c) != 0 for c in children):
            continue
        for mode, proved in ((S.TABLE_ENDS, True), (S.TABLE_BUT_ZERO, False), (None, not own_row)):
            searcher = S.OwareSearcher(game, table_mode=mode)
            result = S.search(game, state, None, max_depth=6, table=table, searcher=searcher)
            assert (result.depth == 1) == proved, (mode, game.position_string(state))
        break
    else:
        raise AssertionError(f"no position of {preset} whose children are all valued 0")


def test_a_table_at_the_horizon_leaves_the_rules_value_where_the_search_ends(tmp_path, monkeypatch):
    """``TABLE_AT_HORIZON`` takes the table's entry only at the depth limit: where such a
    search is exact (every line ended within its depth) its value is the game's under the
    rules (repetitions by the rows), as a search with no table finds it, and it is no
    longer the table's estimate where the two differ."""
    from mancala.engine.oware import endgame  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    game = Oware(PRESETS["abapa"])
    table = endgame.build(game.rules, 6)
    compared = differ = 0
    for state in table_positions(game, 5, 200, seed=9):
        at_horizon = S.OwareSearcher(game, table_mode=S.TABLE_AT_HORIZON)
        horizon = S.search(game, state, None, max_depth=30, table=table, searcher=at_horizon, probe=lambda g, s: None)
        plain = S.search(game, state, None, max_depth=30, probe=lambda g, s: None)
        ends = S.search(
            game, state, None, max_depth=30, table=table, searcher=S.OwareSearcher(game, table_mode=S.TABLE_ENDS)
        )
        if horizon.exact and plain.exact:
            assert horizon.value == plain.value, game.position_string(state)
            assert horizon.algorithm == "oware-engine(exact)"
            compared += 1
            differ += ends.value != plain.value
    assert compared >= 40, compared
    assert differ >= 1, (compared, differ)  # the table's estimate is not the rules' value everywhere


def test_a_table_in_the_search_agrees_with_a_larger_table(tmp_path, monkeypatch):
    """Just above the table (7 or 8 seeds on a board whose table holds 6) a search with the
    table that proves its value finds the value of the 8-seed table (the game played to its
    end, as the tables count it)."""
    from mancala.engine.oware import endgame, exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    game = Oware(replace(PRESETS["awari"], stop_at_majority=False))
    big = endgame.build(game.rules, 8)
    small = endgame.build(game.rules, 6)  # its tiers read back from the cache
    proved = 0
    for state in table_positions(game, 8, 80, seed=3, least=7):
        result = S.search(game, state, None, max_depth=20, table=small)
        if result.exact:
            values = exact.move_values(game, state, big)
            assert values is not None
            assert result.value == final_value(values[0][1]), game.position_string(state)
            assert dict(values)[result.move] == values[0][1], game.position_string(state)
            proved += 1
    assert proved >= 8, proved


@pytest.mark.slow
def test_proofs_bound_the_value_and_meet_it(tmp_path, monkeypatch):
    """A proof by search down to a 5-seed table: at every depth its bounds hold the value of
    the 8-seed table (the game played to its end), and once they meet they are that value
    and the proof's move reaches it."""
    from mancala.engine.oware import endgame, exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    game = Oware(replace(PRESETS["awari"], stop_at_majority=False))
    big = endgame.build(game.rules, 8)
    small = endgame.build(game.rules, 5)
    proved = 0
    for state in table_positions(game, 8, 40, seed=11, least=6):
        values = exact.move_values(game, state, big)
        assert values is not None
        value = values[0][1]
        seen: list[tuple[int, int]] = []
        bounds = S.prove_value(
            game, state, small, max_depth=24, report=lambda d, lo, hi, n, seen=seen: seen.append((lo, hi))
        )
        assert seen and all(lo <= value <= hi for lo, hi in seen), game.position_string(state)
        assert [lo for lo, _ in seen] == sorted(lo for lo, _ in seen)  # bounds only tighten
        assert bounds.low <= value <= bounds.high
        if bounds.proven:
            assert bounds.low == value and dict(values)[bounds.move] == value, game.position_string(state)
            proved += 1
    assert proved >= 12, proved  # 16 of 40 meet by depth 24; endless play keeps the others apart


def test_proofs_without_a_table_still_bound_the_value():
    """With no table every leaf is a bound: on a 3-house board the bounds from the start hold
    the value of a complete table at every depth, tighten as the depth grows and meet it."""
    from mancala.engine.oware import endgame  # noqa: PLC0415

    game = Oware(replace(PRESETS["awari"], houses=3, seeds=2, stop_at_majority=False))
    full = endgame.build(game.rules, 12)
    state = game.initial_state()
    value = full.value(state.houses, state.seat)
    seen: list[tuple[int, int]] = []
    bounds = S.prove_value(game, state, None, max_depth=40, report=lambda d, lo, hi, n: seen.append((lo, hi)))
    assert len(seen) == bounds.depth > 1 and all(lo <= value <= hi for lo, hi in seen)
    assert bounds.proven and bounds.low == value == 3  # docs/oware.md: awari 3x2 is +3


def test_solve_proves_above_the_table_and_says_when_it_cannot(tmp_path, monkeypatch, capsys):
    """``mancala solve`` on a position above the cached table proves its value by search (the
    8-seed table's value, and its one best move), or, out of time, prints the bounds it
    reached; bad budgets are one line and exit 2."""
    from mancala.cli.main import main  # noqa: PLC0415
    from mancala.engine.oware import endgame, exact  # noqa: PLC0415

    spec = "oware(preset=awari,stop_at_majority=false)"
    game = make_game(spec)
    state = game.parse_position("1-1-1-1-0-1-1-0-0-0-0-1-18-23-S")  # 7 seeds
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path / "big"))
    values = exact.move_values(game, state, endgame.build(game.rules, 8))
    assert values is not None and [v for _, v in values] == [2, -2, -2, -2, -2]
    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path / "small"))
    endgame.build(game.rules, 5)
    exact.forget_tables()
    try:
        assert main(["solve", "--game", spec, "--position", game.position_string(state), "--seconds", "60"]) == 0
        out, err = capsys.readouterr()
        assert "value: +2 for South" in out and "(final seed difference with perfect play; exact)" in out
        assert "best move: A" in out and "proved: searched" in out and "5-seed endgame database" in out
        assert "depth 1: South's value" in err
        assert main(["solve", "--game", "oware(preset=awari,seeds=3)", "--seconds", "0.5", "--no-progress"]) == 0
        out, err = capsys.readouterr()
        assert "not proved within 0.5 s: South's value lies in" in out and err == ""
        for argv, words in (
            (["--game", "oware", "--seconds", "-1"], "--seconds must be more than 0"),
            (["--game", "oware", "--seconds", "nan"], "--seconds must be more than 0"),
            (["--game", "kalah", "--seconds", "5"], "Kalah's solver runs to the end"),
        ):
            assert main(["solve", *argv]) == 2
            err = capsys.readouterr().err
            assert words in err and len(err.strip().splitlines()) == 1, err
    finally:
        exact.forget_tables()


def test_solve_with_no_table_names_the_largest_that_fits(tmp_path, monkeypatch, capsys):
    """With no table in the cache, ``solve`` names the build to make: the position's seeds when
    they fit the memory bound, else the largest table that does, above which it proves."""
    from mancala.cli.main import main  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("MANCALA_DB_MEMORY", str(4 * 10**9))  # 24 seeds need 3.6 GiB, 25 more than 4 GB
    assert main(["solve", "--game", "oware(seeds=3)"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("--seeds 24; mancala solve then proves this position by a search down to it"), err
    assert main(["solve", "--game", "oware", "--position", "1-0-0-2-0-1-1-0-0-0-1-1-20-21-S"]) == 2
    assert capsys.readouterr().err.strip().endswith("mancala db build --game 'oware' --seeds 7")
    monkeypatch.setenv("MANCALA_DB_MEMORY", "1000")
    assert main(["solve", "--game", "oware", "--position", "1-0-0-2-0-1-1-0-0-0-1-1-20-21-S"]) == 2
    assert "no larger one fits the memory bound ($MANCALA_DB_MEMORY)" in capsys.readouterr().err


@pytest.mark.processes
def test_ctrl_c_stops_a_proof_at_once(tmp_path, monkeypatch):
    """Ctrl-C during ``mancala solve``'s proof (kernels running, 36 seeds over a 3-seed table:
    it would go on for its whole budget) stops it at once, not after the depth under way (the
    kernels run in a worker thread; this one waits): one line, exit 130, and no line of the
    depth the key interrupted (an event, not a stopwatch: a busy machine only slows both)."""
    import os  # noqa: PLC0415
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from mancala.engine.oware import endgame  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    endgame.build(Oware(PRESETS["abapa"]).rules, 3)
    env = dict(os.environ)
    command = [sys.executable, "-m", "mancala", "solve", "--game", "oware(seeds=3)", "--seconds", "600"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        lines = []
        while not any(line.startswith("depth 17:") for line in lines):  # depth 18 takes many seconds
            line = proc.stderr.readline()
            assert line, "".join(lines)
            lines.append(line)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)  # a hang guard
        assert proc.returncode == 130 and err.strip().splitlines()[-1] == "mancala solve: interrupted", err
        assert not any(line.startswith("depth 18:") for line in err.splitlines()), err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_best_uses_the_table_in_its_search(tmp_path, monkeypatch):
    """``best`` (no depth budget) gives its search the cache's table; ``best:depth=`` does not."""
    from mancala.engine.oware import endgame, exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    game = Oware(PRESETS["awari"])
    endgame.build(game.rules, 4)
    exact.forget_tables()
    try:
        state = game.position([1, 0, 0, 2, 0, 1, 1, 0, 0, 0, 1, 0], (20, 22), 0)  # 6 seeds: above the table
        player = make_player("best:nodes=5000")
        player.choose(game, state)
        searched = S.search(
            game,
            state,
            None,
            max_nodes=5000,
            weights=PLAY,
            table=exact.table_for(game.rules),
            reductions=S.PLAY_REDUCTIONS,
            reduce_two=S.PLAY_REDUCE_TWO,
        )
        assert (player.last.move, player.last.value) == (searched.move, searched.value)
    finally:
        exact.forget_tables()


def test_late_move_reductions_search_fewer_nodes_and_only_without_a_depth_budget(tmp_path, monkeypatch):
    """Reductions reach a depth in fewer nodes (a middle-game position, a count no load
    changes); ``best:depth=`` searches without them and with ``DEFAULT`` (the reference's
    values), ``best:nodes=`` with them and ``PLAY`` (an empty cache: no endgame table)."""
    from mancala.engine.oware import exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    exact.forget_tables()
    game = Oware(PRESETS["abapa"])
    rng = random.Random(4)
    state = game.initial_state()
    for _ in range(10):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    plain = S.search(game, state, None, max_depth=11, searcher=S.OwareSearcher(game))
    reduced = S.search(game, state, None, max_depth=11, searcher=S.OwareSearcher(game, reductions=3))
    assert reduced.depth == plain.depth == 11
    assert reduced.nodes < 0.8 * plain.nodes
    assert reduced.move in game.legal_moves(state)
    by_depth = make_player("best:depth=6")
    by_depth.choose(game, state)
    assert by_depth.last.value == alphabeta(game, state, 6, make_evaluation(DEFAULT)).value
    by_nodes = make_player("best:nodes=20000")
    by_nodes.choose(game, state)
    searched = S.search(
        game,
        state,
        None,
        max_nodes=20000,
        weights=PLAY,
        reductions=S.PLAY_REDUCTIONS,
        reduce_two=S.PLAY_REDUCE_TWO,
        probe=lambda g, s: None,
    )
    unreduced = S.search(game, state, None, max_nodes=20000, reductions=0, probe=lambda g, s: None)
    assert (by_nodes.last.move, by_nodes.last.value) == (searched.move, searched.value)
    assert searched.depth > unreduced.depth


def test_a_kept_searcher_keeps_its_table_between_moves():
    """``keep=True`` searches with the process's searcher: its transposition table still
    holds the last search, so the same search again is no worse and visits fewer nodes;
    changing the endgame table in the search empties it."""
    from mancala.engine.oware import endgame  # noqa: PLC0415

    game = Oware()
    state = game.apply(game.initial_state(), game.legal_moves(game.initial_state())[3])
    first = S.search(game, state, None, max_depth=9, keep=True)
    again = S.search(game, state, None, max_depth=9, keep=True)
    fresh = S.search(game, state, None, max_depth=9)
    assert first.value == again.value == fresh.value and again.nodes < first.nodes
    with S.kept_searcher(game, DEFAULT, None) as kept:
        assert kept.tkey.any() and kept.ctl[S.C_TB_SEEDS] == -1
    table = endgame.OwareTable(game.rules, 0, np.zeros(1, dtype=np.int8), np.array([0, 1], dtype=np.int64))
    with S.kept_searcher(game, DEFAULT, table) as kept:
        assert not kept.tkey.any() and kept.ctl[S.C_TB_SEEDS] == 0


@pytest.mark.parametrize("rules", [PRESETS["abapa"], PRESETS["awari"], *OTHER_RULES[:4]], ids=str)
def test_the_threat_term_counts_the_best_capture(rules):
    """The ``threat`` term (kernels and Python alike) is the most seeds one move of the player
    to move captures, wherever must-feed does not bind (the opponent has seeds)."""
    from mancala.engine.oware.kernels import threat as kernel_threat  # noqa: PLC0415
    from mancala.evaluation.oware import threat  # noqa: PLC0415

    game = Oware(rules)
    rng = random.Random(5)
    arr = rules_array(rules)
    checked = 0
    for _ in range(30):
        state = game.initial_state()
        while not state.finished:
            seat = state.seat
            mine = threat(rules, state.houses, seat)
            for side in (0, 1):  # the waiting side's threat too (the ``waiting`` term)
                assert kernel_threat(S.state_array(state), arr, side) == threat(rules, state.houses, side)
            if sum(state.row(1 - seat)) > 0 and rules.grand_slam in (GrandSlam.NO_CAPTURE, GrandSlam.CAPTURE_ALL):
                gains = [game.apply(state, m).last.captured for m in game.legal_moves(state)]
                assert mine == max(gains), game.position_string(state)
                checked += 1
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert checked > 0 or rules.grand_slam not in (GrandSlam.NO_CAPTURE, GrandSlam.CAPTURE_ALL)


def test_helper_threads_search_beside_a_timed_search_and_stop_with_it():
    import threading

    game = make_game("oware")
    state = game.initial_state()
    for house in "CdFa":
        state = game.apply(state, game.parse_move(state, house))
    searcher = S.OwareSearcher(game, PLAY)
    result = S.search(game, state, 0.3, searcher=searcher, probe=lambda g, s: None, threads=2)
    assert result.move in game.legal_moves(state) and result.depth >= S.HELPER_DEPTH
    assert searcher.helper_nodes > 0  # the helper searched the iterations from HELPER_DEPTH on
    assert not [t for t in threading.enumerate() if t.name == "mancala-helper"]  # stopped with the search
    # a budget in nodes or depth never starts helpers: the same search, node for node
    by_nodes = [S.search(game, state, None, max_nodes=50_000, probe=lambda g, s: None, threads=2) for _ in range(2)]
    plain = S.search(game, state, None, max_nodes=50_000, probe=lambda g, s: None)
    assert by_nodes[0] == by_nodes[1] == plain


def test_helper_threads_stand_down_while_the_machine_is_busy(monkeypatch):
    game = make_game("oware")
    state = game.initial_state()
    for house in "CdFa":
        state = game.apply(state, game.parse_move(state, house))
    searcher = S.OwareSearcher(game, PLAY)
    # found busy before: the next timed searches run alone, counting down
    searcher.crowded = 2
    S.search(game, state, 0.2, searcher=searcher, probe=lambda g, s: None, threads=2)
    assert searcher.helper_nodes == 0 and searcher.crowded == 1
    S.search(game, state, 0.2, searcher=searcher, probe=lambda g, s: None, threads=2)
    assert searcher.helper_nodes == 0 and searcher.crowded == 0
    # a helped search during which the process got no more than a core (the CPU clock held
    # still: as on a machine whose cores other work holds) marks the machine busy
    monkeypatch.setattr(S.time, "process_time", lambda: 0.0)
    S.search(game, state, 0.2, searcher=searcher, probe=lambda g, s: None, threads=2)
    assert searcher.helper_nodes > 0 and searcher.crowded == S.CROWDED_SKIP


@pytest.mark.parametrize("text", ["0", "9", "two", "-1"])
def test_a_bad_thread_count_is_one_clear_line(monkeypatch, text):
    from mancala.engine.oware.record import search_threads

    monkeypatch.setenv("MANCALA_OWARE_THREADS", text)
    with pytest.raises(BadInput, match="MANCALA_OWARE_THREADS"):
        search_threads()
