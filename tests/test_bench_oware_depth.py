"""``benchmarks/bench_oware_depth.py``: our side of the depth measure searches as ``best`` does
(its weights and reductions), and its options change exactly what they name."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from helpers import BENCHMARKS, benchmark_module, random_position

from mancala.engine.oware import search as S
from mancala.errors import BadInput
from mancala.evaluation.oware import DEFAULT, PLAY, play_weights
from mancala.games.oware import Oware

M = benchmark_module("bench_oware_depth")


def test_the_default_settings_are_best_s_weights_and_reductions():
    game = Oware()
    settings = M.searcher_settings(game, "play", "")
    assert settings == {"weights": PLAY, "reductions": S.PLAY_REDUCTIONS, "reduce_two": S.PLAY_REDUCE_TWO}
    assert S.PLAY_REDUCTIONS > 0  # otherwise the node-for-node test could not tell the settings apart


def test_the_options_swap_the_weights_and_override_the_reductions():
    game = Oware()
    plain = M.searcher_settings(game, "default", "reductions=0,reduce_two=0")
    assert plain == {"weights": DEFAULT, "reductions": 0, "reduce_two": 0}


def test_our_search_at_a_depth_is_node_for_node_the_search_best_runs():
    """A fresh searcher with the default settings completes depth 9 in the nodes of the engine's
    own ``search`` called with ``best``'s arguments (no endgame table), and in a different count
    with the plain settings."""
    game = Oware()
    state = random_position(game, random.Random(29), 8)
    best = S.search(
        game, state, None, max_depth=9, weights=play_weights(6), reductions=S.PLAY_REDUCTIONS,
        reduce_two=S.PLAY_REDUCE_TWO, probe=lambda g, s: None,
    )  # fmt: skip
    depth, nodes, _ = M.ours(game, state, None, 9, M.searcher_settings(game, "play", ""))
    assert depth == best.depth == 9 and nodes == best.nodes
    _, plain_nodes, _ = M.ours(game, state, None, 9, M.searcher_settings(game, "default", "reductions=0"))
    assert plain_nodes != nodes


def test_a_search_setting_that_is_not_a_number_is_bad_input():
    with pytest.raises(BadInput, match="reductions: expected a whole number, got 'x'"):
        M.searcher_settings(Oware(), "play", "reductions=x")


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--positions", "0"], "--positions must be 1..10000, got 0"),
        (["--positions", "99999999999"], "--positions must be 1..10000"),
        (["--seconds", "-1"], "--seconds must be above 0"),
        (["--depth", "1000"], "--depth must be 1.."),
        (["--search", "bogus=1"], "unknown search setting 'bogus'"),
        (["--search", "reduce_two=x"], "reduce_two: expected a whole number"),
        (["--game", "kalah"], "--game must be an Oware rule set"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(argv, says):
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_oware_depth.py"), *argv],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and says in run.stderr and "Traceback" not in run.stderr
