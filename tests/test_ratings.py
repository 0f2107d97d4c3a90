"""Bradley–Terry ratings (mancala/ratings.py) against hand-computed cases."""

from __future__ import annotations

import math

import pytest

from mancala.arena.ratings import ELO, Z95, elo_difference, fit_bradley_terry, needs_ridge


def by_name(ratings):
    return {r.player: r for r in ratings}


def test_two_players_three_of_four():
    # A scores 3/4: p = 3/4, gap = ln 3 (natural) = 400 log10 3 Elo, split around mean 0.
    # Observed information of the gap: n p (1 - p) = 4 * 3/16 = 3/4, so var(gap) = 4/3 and
    # each centred rating has half the gap's standard deviation.
    r = by_name(fit_bradley_terry(["A", "B"], [("A", "B", 1), ("B", "A", 0), ("A", "B", 0), ("A", "B", 1)]))
    gap = 400 * math.log10(3)
    assert r["A"].elo == pytest.approx(gap / 2)
    assert r["B"].elo == pytest.approx(-gap / 2)
    assert r["A"].interval == pytest.approx(Z95 * math.sqrt(4 / 3) / 2 * ELO)
    assert r["A"].interval == pytest.approx(196.58, abs=0.01)
    assert (r["A"].games, r["A"].score) == (4, 0.75)


def test_draws_count_half():
    # one win and two draws = 2/3 of the points: gap ln 2
    r = by_name(fit_bradley_terry(["A", "B"], [("A", "B", 1), ("A", "B", 0.5), ("B", "A", 0.5)]))
    assert r["A"].elo - r["B"].elo == pytest.approx(400 * math.log10(2))
    assert elo_difference(2 / 3) == pytest.approx(400 * math.log10(2))


def test_three_players_joint_fit():
    # A-B 2:1, B-C 2:1, A-C 2:1 does not fit exactly; the likelihood equations say each
    # player's expected total equals its actual total.  A chain A>B>C with equal steps d
    # solves them: A: 3 = 3 sigma(d) + 3 sigma(2d), and B's total 3 = 3 sigma(d) + 3 (1 - sigma(d)).
    games = [
        ("A", "B", 1),
        ("A", "B", 1),
        ("A", "B", 0),
        ("B", "C", 1),
        ("B", "C", 1),
        ("B", "C", 0),
        ("A", "C", 1),
        ("A", "C", 1),
        ("A", "C", 0),
    ]
    r = by_name(fit_bradley_terry(["A", "B", "C"], games))
    d = (r["A"].elo - r["B"].elo) / ELO
    assert r["B"].elo == pytest.approx(0, abs=1e-6)
    assert r["B"].elo - r["C"].elo == pytest.approx(r["A"].elo - r["B"].elo)
    sigma = lambda x: 1 / (1 + math.exp(-x))  # noqa: E731
    assert 3 * sigma(d) + 3 * sigma(2 * d) == pytest.approx(4)  # A's 4 points of 6


def test_cycle_is_level_and_absent_player_unrated():
    games = [("A", "B", 1), ("B", "C", 1), ("C", "A", 1)]
    r = by_name(fit_bradley_terry(["A", "B", "C", "D"], games))
    for p in "ABC":
        assert r[p].elo == pytest.approx(0, abs=1e-9)
    assert r["D"].games == 0 and math.isinf(r["D"].interval)


def test_ridge_keeps_a_perfect_score_finite():
    games = [("A", "B", 1)] * 5
    assert needs_ridge(["A", "B"], games)
    assert not needs_ridge(["A", "B"], games + [("B", "A", 1)])
    r = by_name(fit_bradley_terry(["A", "B"], games, ridge=0.01))
    assert math.isfinite(r["A"].elo) and r["A"].elo > 400


def test_intervals_stay_right_with_many_games():
    # 6 players, every pair 120 games with even scores: the centred covariance is
    # (I - J/6) / (0.25 * 120 * 6), whatever the rounding in the Hessian's null direction
    names = list("ABCDEF")
    games = [(a, b, s) for i, a in enumerate(names) for b in names[i + 1 :] for s in (1, 0) * 60]
    for r in fit_bradley_terry(names, games):
        assert r.elo == pytest.approx(0, abs=1e-9)
        assert r.interval == pytest.approx(Z95 * math.sqrt((1 - 1 / 6) / (0.25 * 120 * 6)) * ELO)


def test_needs_ridge_when_a_group_beats_everyone_else():
    """No single player is perfect, but {A, B} never lost a point to {C, D}: the plain fit
    diverges, so the ridge is needed; one point taken back from the group makes it regular."""
    games = [
        ("A", "B", 1),
        ("B", "A", 1),
        ("C", "D", 1),
        ("D", "C", 1),
        ("A", "C", 1),
        ("B", "D", 1),
        ("A", "D", 1),
        ("B", "C", 1),
    ]
    assert needs_ridge(["A", "B", "C", "D"], games)
    assert not needs_ridge(["A", "B", "C", "D"], games + [("C", "A", 0.5)])
    rated = {r.player: r for r in fit_bradley_terry(["A", "B", "C", "D"], games, ridge=0.01)}
    assert rated["A"].elo > rated["C"].elo and rated["B"].elo > rated["D"].elo
