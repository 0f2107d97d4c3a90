"""Properties that must hold everywhere: random playouts of every preset and of random
option mixes, and alpha-beta agreeing with minimax on random positions.

The expected legal moves are recomputed here straight from the board and the rule
text (pits holding seeds; under the choice rule pits holding two or more, both
directions, singles only when no pit holds more; ``swap`` only as the second
player's first move), not from the engine.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mancala.errors import IllegalMove
from mancala.evaluation import score_difference
from mancala.games import PRESETS
from mancala.games.kalah import SWAP, Capture, GameEnd, Kalah, KalahMove, KalahRules, Remaining, Sowing
from mancala.games.tictactoe import TicTacToe
from mancala.search import alphabeta, minimax

#: no random game may last longer than this many moves
MOVE_CAP = 5000


def snapshot(state) -> tuple:
    """Every field of a state, ``last`` included (equality ignores it)."""
    return tuple(getattr(state, f.name) for f in dataclasses.fields(state))


def expected_moves(rules: KalahRules, board: tuple, seat: int, swap: bool) -> list[KalahMove]:
    n = rules.pits
    row = board[0:n] if seat == 0 else board[n + 1 : 2 * n + 1]
    if rules.sowing is Sowing.CHOICE:
        least = 2 if any(c >= 2 for c in row) else 1
        moves = [KalahMove(p + 1, cw) for p in range(n) if row[p] >= least for cw in (False, True)]
    else:
        moves = [KalahMove(p + 1) for p in range(n) if row[p] > 0]
    return moves + ([SWAP] if swap else [])


def random_rules(rng: random.Random) -> KalahRules:
    return KalahRules(
        pits=rng.randint(1, 8),
        seeds=rng.randint(0, 6),
        first=rng.randint(0, 1),
        capture=rng.choice(list(Capture)),
        empty_capture=rng.random() < 0.5,
        skip_origin=rng.random() < 0.5,
        end=rng.choice(list(GameEnd)),
        remaining=rng.choice(list(Remaining)),
        sowing=rng.choice(list(Sowing)),
        pie_rule=rng.random() < 0.5,
        no_first_extra_turn=rng.random() < 0.5,
    )


def playout(rules: KalahRules, rng: random.Random) -> int:
    """Play one random game, checking every invariant after every move; return its length."""
    game = Kalah(rules)
    n = rules.pits
    state = game.initial_state()
    total = sum(state.board)
    assert total == (sum(rules.start) if rules.start else 2 * n * rules.seeds)
    turn, moves_this_turn = 0, 0
    for length in range(MOVE_CAP + 1):
        rows = (state.board[0:n], state.board[n + 1 : 2 * n + 1])
        assert sum(state.board) == total
        assert game.score(state, 0) == -game.score(state, 1)
        if game.is_terminal(state):
            assert rows == ((0,) * n, (0,) * n)
            assert game.legal_moves(state) == ()
            for pit in range(1, n + 1):
                try:
                    game.apply(state, KalahMove(pit))
                except IllegalMove:
                    pass
                else:
                    raise AssertionError("a finished game accepted a move")
            return length
        # an unfinished game: the end rule does not apply yet
        if rules.end is GameEnd.EITHER_ROW_EMPTY:
            assert any(rows[0]) and any(rows[1])
        else:
            assert any(rows[state.seat])
        assert game.to_move(state) == state.seat ^ int(state.swapped)
        swap = rules.pie_rule and turn == 1 and moves_this_turn == 0
        legal = list(game.legal_moves(state))
        assert legal == expected_moves(rules, state.board, state.seat, swap)
        move = rng.choice(legal)
        before = snapshot(state)
        after = game.apply(state, move)
        assert snapshot(state) == before  # the input is untouched
        assert game.apply(state, move) == after  # and applying is deterministic
        assert after.ply == state.ply + 1
        if move == SWAP:
            assert after.board == state.board and after.seat == state.seat
            assert game.to_move(after) != game.to_move(state)
        if game.to_move(after) != game.to_move(state) or game.is_terminal(after):
            turn, moves_this_turn = turn + 1, 0
        else:
            moves_this_turn += 1
        state = after
    raise AssertionError(f"a random game under {rules.describe()} lasted over {MOVE_CAP} moves")


def test_random_playouts_of_every_preset():
    rng = random.Random(2024)
    for name, rules in PRESETS.items():
        lengths = [playout(rules, rng) for _ in range(25)]
        assert min(lengths) > 0, name


def test_random_playouts_with_random_options():
    rng = random.Random(99)
    lengths = [playout(random_rules(rng), rng) for _ in range(400)]
    assert max(lengths) > 50  # some games were long enough to exercise laps and chains


def test_random_playouts_from_random_start_positions():
    rng = random.Random(5)
    for _ in range(150):
        base = random_rules(rng)
        n = base.pits
        start = tuple(rng.choice([0, 0, 1, 2, 3, 5, 2 * n + 1, 4 * n + 3]) for _ in range(2 * n + 2))
        playout(dataclasses.replace(base, start=start), rng)


def test_ethiopian_rules_allow_a_position_to_repeat():
    """The choice rule lets single seeds walk back and forth, so a game need not end.
    Four pits: South's single seed steps from pit 1 to pit 2 and back, North's likewise;
    neither ever lands opposite a seed, so nothing is captured (seed 001 states no
    repetition rule).  Arena code must therefore cap the length of Ethiopian games."""
    game = Kalah(
        KalahRules.from_dict({**PRESETS["ethiopian"].to_dict(), "pits": 4, "start": (1, 0, 0, 0, 5, 1, 0, 0, 0, 5)})
    )
    start = game.initial_state()
    state = start
    for text, board in (
        ("1R", (0, 1, 0, 0, 5, 1, 0, 0, 0, 5)),
        ("1R", (0, 1, 0, 0, 5, 0, 1, 0, 0, 5)),
        ("2L", (1, 0, 0, 0, 5, 0, 1, 0, 0, 5)),
        ("2L", (1, 0, 0, 0, 5, 1, 0, 0, 0, 5)),
    ):
        state = game.apply(state, game.parse_move(state, text))
        assert state.board == board and not game.is_terminal(state)
    assert (state.board, state.seat) == (start.board, start.seat) and state.ply == 4


# --- alpha-beta against minimax ----------------------------------------------------------------

SEARCH_PRESETS = ["standard", "empty-capture", "egyptian", "ethiopian", "no-stealing", "cs151"]


@st.composite
def kalah_positions(draw):
    name = draw(st.sampled_from(SEARCH_PRESETS))
    pits = draw(st.integers(2, 4 if name != "ethiopian" else 3))
    cells = draw(st.lists(st.integers(0, 5), min_size=2 * pits + 2, max_size=2 * pits + 2))
    game = Kalah(dataclasses.replace(PRESETS[name], pits=pits))
    return game, game.position(cells, draw(st.integers(0, 1)))


@st.composite
def tictactoe_positions(draw):
    game = TicTacToe()
    state = game.initial_state()
    for _ in range(draw(st.integers(2, 8))):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, draw(st.sampled_from(moves)))
    return game, state


def check_alphabeta_equals_minimax(game, state, depth):
    mm = minimax(game, state, depth, score_difference)
    ab = alphabeta(game, state, depth, score_difference)
    assert ab.value == mm.value
    assert ab.move == mm.move
    assert ab.nodes <= mm.nodes
    return mm, ab


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kalah_positions(), st.integers(2, 4))
def test_alphabeta_equals_minimax_on_random_kalah_positions(position, depth):
    game, state = position
    check_alphabeta_equals_minimax(game, state, depth)


@settings(max_examples=150, deadline=None)
@given(tictactoe_positions(), st.integers(2, 9))
def test_alphabeta_equals_minimax_on_random_tictactoe_positions(position, depth):
    game, state = position
    check_alphabeta_equals_minimax(game, state, depth)


def test_alphabeta_visits_fewer_nodes_than_minimax_on_most_positions():
    rng = random.Random(17)
    fewer = total = 0
    for _ in range(60):
        name = rng.choice(SEARCH_PRESETS)
        pits = rng.randint(3, 4)
        game = Kalah(dataclasses.replace(PRESETS[name], pits=pits))
        state = game.position([rng.randint(0, 5) for _ in range(2 * pits + 2)], rng.randint(0, 1))
        if game.is_terminal(state):
            continue
        mm, ab = check_alphabeta_equals_minimax(game, state, rng.randint(3, 4))
        total += 1
        fewer += ab.nodes < mm.nodes
    assert total >= 40
    assert fewer >= 0.8 * total
