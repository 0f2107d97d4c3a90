"""The engine's kernels against the reference rules and search (mancala.games.kalah, mancala.search)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import random_position, small_engine_cache  # noqa: F401 (an autouse fixture)

from mancala.engine import best_move, bridge
from mancala.engine import engine as E
from mancala.engine import search as S
from mancala.evaluation import score_difference
from mancala.games.kalah import PRESETS, SWAP, Capture, GameEnd, Kalah, KalahRules, Remaining, Sowing
from mancala.search import alphabeta


def random_rules(rng: random.Random, max_pits: int = 8, max_seeds: int = 9, choice: bool = True) -> KalahRules:
    """Any combination of rule options."""
    return KalahRules(
        pits=rng.randint(1, max_pits),
        seeds=rng.randint(0, max_seeds),
        capture=rng.choice(list(Capture)),
        empty_capture=rng.random() < 0.5,
        skip_origin=rng.random() < 0.5,
        end=rng.choice(list(GameEnd)),
        remaining=rng.choice(list(Remaining)),
        sowing=rng.choice(list(Sowing)) if choice else Sowing.COUNTER_CLOCKWISE,
        pie_rule=rng.random() < 0.3,
        no_first_extra_turn=rng.random() < 0.3,
        first=rng.randint(0, 1),
    )


def play_and_compare(game: Kalah, rng: random.Random, max_ply: int = 300) -> int:
    """Play a random game, checking the kernel's moves and boards at every step."""
    state = game.initial_state()
    moves = 0
    while not state.finished and state.ply < max_ply:
        legal = list(game.legal_moves(state))
        assert bridge.kernel_moves(game, state) == legal
        move = rng.choice(legal)
        after = game.apply(state, move)
        if move != SWAP:
            board, seat, over = bridge.kernel_apply(game, state, move)
            assert (board, seat, over) == (after.board, after.seat, after.finished), (game, state, move)
        state = after
        moves += 1
    return moves


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_kernel_plays_every_preset_like_the_reference(preset):
    rng = random.Random(preset)
    for pits, seeds in [(None, None), (3, 2), (6, 1), (2, 13)]:
        rules = (
            PRESETS[preset]
            if pits is None
            else KalahRules(**{**PRESETS[preset].to_dict(), "pits": pits, "seeds": seeds, "start": None})
        )
        rules = KalahRules.from_dict({k: v for k, v in rules.to_dict().items() if k != "start"})
        for _ in range(6):
            play_and_compare(Kalah(rules), rng)


def test_kernel_plays_random_rule_sets_like_the_reference():
    rng = random.Random(7)
    total = 0
    for _ in range(150):
        total += play_and_compare(Kalah(random_rules(rng)), rng)
    assert total > 3000


def test_kernel_handles_big_boards_and_many_seeds():
    rng = random.Random(3)
    for rules in [
        KalahRules(pits=20, seeds=1000),
        KalahRules(pits=20, seeds=3, sowing=Sowing.CHOICE),
        KalahRules(pits=1, seeds=1000, skip_origin=True),
    ]:
        play_and_compare(Kalah(rules), rng, max_ply=60)


def _plain(game: Kalah, state, depth: int) -> tuple[int, int]:
    n = game.rules.pits
    ctl = np.zeros(S.C_SIZE, dtype=np.int64)
    ctl[:9] = bridge.rules_array(game.rules)
    ws = np.zeros((depth * 4 * n + 50, S.workspace_columns(n, 1)), dtype=np.int64)
    root = bridge.relative_board(state)
    acc = int(root[n] - root[2 * n + 1])
    root[n] = root[2 * n + 1] = 0
    ws[0, : 2 * n + 2] = root
    v = S.plain_alphabeta(0, -S.BIG, S.BIG, depth, 0, 0, ws, ctl)
    return acc + int(v), int(ctl[S.C_NODES])


@pytest.mark.parametrize(
    "spec",
    [
        dict(),
        dict(empty_capture=True),
        dict(pits=4, seeds=3, sowing=Sowing.CHOICE),
        dict(capture=Capture.OPPOSITE_ONLY, end=GameEnd.MOVER_CANNOT_MOVE, remaining=Remaining.OPPONENT),
    ],
)
def test_plain_kernel_matches_reference_alphabeta_node_for_node(spec):
    game = Kalah(KalahRules(**spec))
    rng = random.Random(11)
    state = game.initial_state()
    for _ in range(rng.randint(2, 6)):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    for depth in (1, 2, 3):
        ref = alphabeta(game, state, depth, score_difference)
        assert _plain(game, state, depth) == (ref.value, ref.nodes)


def _exhaustive(game: Kalah, state) -> int:
    return alphabeta(game, state, 10_000, score_difference).value


def test_exact_values_match_exhaustive_reference_search_under_random_rules():
    rng = random.Random(5)
    checked = 0
    while checked < 30:
        rules = random_rules(rng, max_pits=3, max_seeds=2, choice=False)
        game = Kalah(rules)
        state = random_position(game, rng, rng.randint(0, 3))
        if state.finished:
            continue
        r = best_move(game, state, 30.0)
        assert r.algorithm == "engine(exact)"
        assert r.value == _exhaustive(game, state), (rules, state)
        assert r.move in game.legal_moves(state)
        checked += 1


def test_pie_rule_swap_is_taken_when_the_seat_is_bad():
    game = Kalah(KalahRules(pits=3, seeds=2, pie_rule=True, no_first_extra_turn=True))
    start = game.initial_state()
    for move in game.legal_moves(start):
        state = game.apply(start, move)
        assert state.swap_allowed
        r = best_move(game, state, 30.0)
        assert r.value == _exhaustive(game, state)
        if r.move == SWAP:
            assert r.value > 0
    r = best_move(game, start, 30.0)
    assert r.value == _exhaustive(game, start)


def test_node_budget_stops_the_search_and_keeps_the_last_complete_iteration():
    game = Kalah(KalahRules(pits=6, seeds=6))
    state = game.initial_state()
    r = best_move(game, state, 1000.0, max_nodes=50_000, use_db=False)
    assert r.nodes <= 50_000 + 2 * game.rules.pits
    assert r.algorithm.startswith("engine(depth")
    assert r.move in game.legal_moves(state)
    E.reset()
    again = best_move(game, state, 1000.0, max_depth=r.depth, use_db=False)
    assert (again.move, again.value, again.depth) == (r.move, r.value, r.depth)


def test_a_depth_the_budget_stops_still_plays_the_move_it_proved():
    # depth 6 prefers pit 5, depth 7 pit 6; 3,000 nodes complete depth 6 and stop depth 7
    # after a pass that failed high with pit 6: that move is played, depth 6's value kept
    game = Kalah()
    state = game.position([2, 1, 8, 0, 3, 3, 5, 8, 1, 0, 4, 7, 2, 4], 0)
    r = best_move(game, state, 1000.0, max_nodes=3_000, clock=lambda: 0.0)
    E.reset()
    six = best_move(game, state, 1000.0, max_depth=6)
    E.reset()
    seven = best_move(game, state, 1000.0, max_depth=7)
    assert (r.depth, r.value) == (6, six.value)
    assert str(six.move) == "5" and str(seven.move) == "6" and str(r.move) == "6"


def test_fake_clock_bounds_the_number_of_iterations():
    game = Kalah(KalahRules(pits=6, seeds=4))
    ticks = iter(range(1000))
    r = best_move(game, game.initial_state(), 5.0, clock=lambda: float(next(ticks)))
    # the clock reads 0 at the start and goes up by one per look: at most 5 iterations fit
    assert 1 <= r.depth <= 5


def test_max_depth_and_finished_positions():
    game = Kalah()
    r = best_move(game, game.initial_state(), 100.0, max_depth=2)
    assert r.depth == 2 and r.line[0] == r.move
    over = game.position([0] * 6 + [30] + [0] * 6 + [18], 0)
    done = best_move(game, over)
    assert done.move is None and done.value == 12


@pytest.mark.parametrize("shape,dtype", [((3, 4), np.int64), (10 << 20, np.uint8), ((1 << 18, 3), np.uint64)])
def test_big_arrays_are_zeroed_writable_and_shaped_like_numpy_ones(shape, dtype):
    """Tables and databases come from ``pages.zeros`` (huge pages when big enough): the
    same contents, shape and dtype as ``np.zeros``, and writable."""
    from mancala.engine import pages

    a = pages.zeros(shape, dtype)
    expected = np.zeros(shape, dtype=dtype)
    assert a.shape == expected.shape and a.dtype == expected.dtype and a.flags.writeable
    assert not a.any()
    a.flat[-1] = 7
    assert a.flat[-1] == 7 and int(a.sum()) == 7


def test_moves_are_ordered_table_move_extra_turns_then_by_seeds_gained_at_once():
    """The search's move order (the biggest lever of the solver's speed): the table's move,
    then extra turns (rightmost first), then by the seeds a move puts in the store or
    captures at once, right to left among equals."""
    game = Kalah(KalahRules(pits=6, seeds=4))
    ctl = np.zeros(S.C_SIZE, dtype=np.int64)
    ctl[: len(bridge.rules_array(game.rules))] = bridge.rules_array(game.rules)
    # South's pits 0..5, store 6, North's pits 7..12 (North's pit 12 faces South's pit 0)
    b = np.zeros(14, dtype=np.int64)
    b[0] = 2  # ends in pit 2 (empty), capturing the 5 seeds opposite: gains 6
    b[1] = 6  # passes the store: gains 1
    b[3] = 3  # ends in the store: extra turn
    b[4] = 1  # ends in pit 5 (not empty): gains 0
    b[5] = 1  # ends in the store: extra turn
    b[10] = 5  # opposite pit 2
    mv = np.zeros(12, dtype=np.int64)
    cnt = gen_moves_for(b, ctl, mv)
    scores = np.zeros(12, dtype=np.int64)
    S.order_moves(b, mv, cnt, scores, -1, ctl)
    assert list(mv[:cnt]) == [5, 3, 0, 1, 4]
    S.order_moves(b, mv, cnt, scores, 4, ctl)  # the table's move first
    assert list(mv[:cnt]) == [4, 5, 3, 0, 1]


def gen_moves_for(b, ctl, mv):
    """The kernels' legal moves of ``b`` (the mover South)."""
    from mancala.engine.kernels import gen_moves

    return gen_moves(b, ctl, mv)
