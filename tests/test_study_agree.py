"""The board's three study tools — Hint, Analysis and Review — agree on a position: the
same best move, the same value and the same "exact" mark (issue 17, item 7).

They used to read three different searches: at the start of standard Kalah the hint said
"3, +8 (exact)" (the opening book), the analysis "best: 3 (+6 estimated)" (a bounded
search) and the review that opening 3 lost a seed against 6.  Now all three read one
table per position (:func:`mancala.analysis.position_values`), searched with a budget in
nodes, so that the same position and budget give the same answer in any process, whatever
the machine's load (issue 28).
"""

from __future__ import annotations

import pytest

from mancala import analysis as study
from mancala.analysis.values import MAX_TABLE_NODES
from mancala.games import make_game


def _position(spec: str, moves: list[str]):
    """The game of ``spec`` and its state after ``moves`` (given as text)."""
    game = make_game(spec)
    state = game.initial_state()
    played = []
    for text in moves:
        move = next(m for m in game.legal_moves(state) if str(m) == text)
        played.append(move)
        state = game.apply(state, move)
    return game, state, played


def _three_answers(game, state, played, seconds: float = 1.0):
    """The hint, the analysis and the review row of a move from ``state`` (the best move
    found, played after ``played``), with the budgets the page uses."""
    analysed = study.analysis(game, state, study.budget(game, study.ANALYSIS_SECONDS))
    hinted = study.hint(game, state, study.budget(game, seconds))
    best = next(m for m in game.legal_moves(state) if str(m) == hinted["move"])
    reviewed = study.review(game, played + [best], study.budget(game, study.REVIEW_SECONDS))["moves"][-1]
    return hinted, analysed, reviewed


def _assert_agree(hinted: dict, analysed: dict, reviewed: dict) -> None:
    top = analysed["moves"][0]
    assert hinted["move"] == top["move"] == reviewed["best"] == reviewed["move"]
    assert hinted["value"] == top["value"] == reviewed["best_value"] == reviewed["value"]
    assert hinted["exact"] == top["exact"] == reviewed["exact"]
    assert reviewed["loss"] == 0


@pytest.fixture(autouse=True)
def _fresh_tables():
    """Every test starts with no kept tables."""
    study.forget_positions()
    yield
    study.forget_positions()


def test_kalah_start_hint_analysis_and_review_agree_exactly():
    game, state, played = _position("kalah", [])
    hinted, analysed, reviewed = _three_answers(game, state, played)
    _assert_agree(hinted, analysed, reviewed)
    # the opening book proves the start: South wins by 8 with pit 3
    assert (hinted["move"], hinted["value"], hinted["exact"]) == ("3", 8, True)
    assert analysed["solved"] and analysed["summary"] == "perfect play: South wins by 8"
    assert "estimated" not in analysed["summary"]


def test_kalah_start_review_of_other_openings_uses_the_exact_values():
    game, state, _ = _position("kalah", [])
    table = {r["move"]: r for r in study.analysis(game, state, study.budget(game, 2.0))["moves"]}
    study.forget_positions()  # the review on its own reads the same values
    small = study.budget(game, study.REVIEW_SECONDS)
    for move in game.legal_moves(state):
        row = study.review(game, [move], small)["moves"][0]
        assert row["best"] == "3" and row["best_value"] == 8 and row["exact"]
        assert row["value"] == table[str(move)]["value"]
        assert row["loss"] == 8 - table[str(move)]["value"]
    # opening 6 is not better than 3: no loss is found for 3
    three = next(m for m in game.legal_moves(state) if str(m) == "3")
    assert study.review(game, [three], small)["moves"][0]["loss"] == 0


@pytest.mark.parametrize(
    ("spec", "moves"),
    [
        ("kalah", ["3"]),  # the middle of South's turn (in the book)
        ("kalah", ["3", "6", "2", "1", "4"]),  # past the book: the engine's values
        ("kalah(preset=empty-capture)", []),
        ("kalah(preset=ethiopian)", []),
        ("kalah(pits=4,seeds=3)", ["2"]),
    ],
)
def test_kalah_positions_agree(spec, moves):
    game, state, played = _position(spec, moves)
    _assert_agree(*_three_answers(game, state, played))


@pytest.mark.parametrize(
    ("spec", "moves"),
    [
        ("tictactoe", []),
        ("tictactoe", ["4", "0"]),
        ("bao", []),
    ],
)
def test_other_games_agree(spec, moves):
    game, state, played = _position(spec, moves)
    _assert_agree(*_three_answers(game, state, played))


def test_a_tictactoe_start_is_an_exact_draw_everywhere():
    game, state, played = _position("tictactoe", [])
    hinted, analysed, reviewed = _three_answers(game, state, played)
    assert hinted["value"] == 0 and hinted["exact"] and analysed["summary"] == "perfect play: a draw"
    assert reviewed["exact"] and reviewed["value"] == 0


@pytest.mark.parametrize(
    ("spec", "moves"),
    [
        ("kalah", ["3", "6", "2", "1", "4", "5"]),
        ("kalah(pits=4,seeds=3)", ["2", "4"]),
        ("oware", ["C", "a", "E", "a", "A", "d", "F", "a"]),  # the position of issue 28's two tabs
        ("bao", []),
        ("tictactoe", ["4"]),
    ],
)
def test_the_same_position_and_budget_give_the_same_answer_again(spec, moves):
    game, state, _ = _position(spec, moves)
    nodes = study.budget(game, 0.5)
    first = study.analysis(game, state, nodes)
    study.forget_positions()  # searched afresh, after the engine has searched other positions too
    study.analysis(game, game.initial_state(), nodes)
    study.forget_positions()
    again = study.analysis(game, state, nodes)
    assert again == first
    for row in first["moves"]:  # every estimate names its depth
        assert row["exact"] or row["depth"] >= 1


def test_a_larger_budget_serves_a_smaller_request():
    game, state, _ = _position("kalah", ["3", "6", "2", "1", "4"])
    big = study.position_values(game, state, study.budget(game, 1.0))
    assert study.position_values(game, state, study.budget(game, 0.1)) is big
    assert study.hint(game, state, study.budget(game, 0.1))["move"] == big.rows[0]["move"]


def test_an_absurd_time_is_the_largest_budget_and_a_tiny_one_the_smallest():
    game = make_game("tictactoe")
    assert study.budget(game, 1e308) == study.budget(game, float("inf")) == MAX_TABLE_NODES
    assert study.budget(game, 1e-9) == 1_000
