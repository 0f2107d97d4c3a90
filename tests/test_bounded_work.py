"""Every request bounded (issue 33): ``mancala explain`` and ``mancala solve`` measure what
they are asked for first and refuse in one line past a stated limit, unless ``--no-limit``."""

from __future__ import annotations

import math

import pytest

from mancala.cli.explain import MAX_EXPLAIN_NODES
from mancala.cli.main import main
from mancala.engine.solver import MAX_SOLVE_POSITIONS, solve_positions
from mancala.evaluation.basic import teaching_evaluation
from mancala.games import make_game
from mancala.search.explain import explain_nodes


def test_explain_refuses_a_tree_past_its_node_limit_in_one_line(capsys):
    assert main(["explain", "--depth", "12"]) == 2  # issue 33: 133 MB in 120 s, and on
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert f"more than {MAX_EXPLAIN_NODES:,} nodes" in err and "--no-limit" in err


def test_explain_prints_a_tree_within_the_limit_and_counts_it_as_it_prints_it(capsys):
    game = make_game("tictactoe")
    nodes = explain_nodes(game, game.initial_state(), 9, teaching_evaluation(game), MAX_EXPLAIN_NODES)
    assert nodes == 18_297  # tic-tac-toe's whole tree: the default, within the limit
    assert main(["explain", "--game", "tictactoe"]) == 0
    assert f"{nodes} nodes visited" in capsys.readouterr().out
    assert explain_nodes(game, game.initial_state(), 9, teaching_evaluation(game), nodes - 1) is None


def test_explain_no_limit_lifts_the_limit(capsys):
    assert main(["explain", "--game", "kalah(pits=2,seeds=2)", "--depth", "12", "--no-limit"]) == 0
    assert "nodes visited" in capsys.readouterr().out


@pytest.mark.parametrize("pits,seeds", [(6, 6), (20, 1000), (6, 5)])
def test_solve_refuses_a_proof_larger_than_kalah_6_4_in_one_line(pits, seeds, capsys):
    assert main(["solve", "--pits", str(pits), "--seeds", str(seeds), "--no-progress"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "more than the 1.4e+12 of standard Kalah(6,4)" in err and "--no-limit" in err


def test_the_solve_estimate_is_the_positions_the_seeds_in_the_pits_can_form():
    state = make_game("kalah").initial_state()
    assert solve_positions(state) == MAX_SOLVE_POSITIONS == math.comb(60, 12)  # (6,4) itself: allowed
    assert solve_positions(make_game("kalah(pits=6,seeds=5)").initial_state()) > 10 * MAX_SOLVE_POSITIONS
    assert solve_positions(make_game("kalah(pits=4,seeds=3)").initial_state()) == math.comb(32, 8)


def test_a_review_s_search_is_bounded_in_all_however_long_the_game():
    from mancala.server.app import REVIEW_TOTAL_SECONDS, review_seconds
    from mancala.server.protocol import ProtocolError

    assert review_seconds(0.2, 80) == 0.2  # a usual game: the budget asked
    assert review_seconds(5.0, 80) == 2.0  # clamped as before
    assert review_seconds(0.2, 1829) * 1829 == pytest.approx(REVIEW_TOTAL_SECONDS)  # issue 33's endless game
    with pytest.raises(ProtocolError, match="review: 15,001 moves are more than a review may value"):
        review_seconds(0.2, 15_001)
