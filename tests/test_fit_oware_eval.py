"""``benchmarks/fit_oware_eval.py``: the evaluation's terms as the fitter counts them, and
the least-squares fit recovering known weights from a tiny synthetic dataset."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import benchmark_module

from mancala.evaluation.oware import DEFAULT, HOUSE_CAP, PLAY, OwareWeights, make_evaluation
from mancala.games.oware import Oware, OwareState

F = benchmark_module("fit_oware_eval")


def _positions(count: int, seed: int):
    game = Oware()
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randint(0, 60)):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            out.append(state)
    return game, out


def test_features_are_the_evaluations_terms():
    """The evaluation of the mover is the store margin plus the features times the weights."""
    game, states = _positions(40, 3)
    weights = [DEFAULT, OwareWeights(row=0.5, targets=1.0, kroo=2.0, empty=-1.5, threat=0.25, waiting=0.75)]
    for w in weights:
        evaluate = make_evaluation(w)
        for state in states:
            expected = F.store_margin(state) + float(np.dot(F.features(game, state), w.as_tuple()))
            assert evaluate(game, state, state.seat) == pytest.approx(expected, abs=1e-9)


def test_fit_recovers_known_weights():
    """Labels made exactly from known weights are fitted back to them (and errors are 0)."""
    rng = np.random.default_rng(7)
    true = np.array([0.25, -0.5, 1.12, 2.16, 0.5, 0.75])
    x = rng.integers(-6, 7, size=(60, len(F.TERMS))).astype(float)
    y = x @ true
    w = F.fit(x, y)
    assert np.allclose(w, true, atol=1e-9)
    assert F.errors(x, y, w) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert F.weights_of(w) == OwareWeights(row=0.25, targets=-0.5, kroo=1.12, empty=2.16, threat=0.5, waiting=0.75)
    assert F.weights_text(F.weights_of(w)) == "row=0.25,targets=-0.5,kroo=1.12,empty=2.16,threat=0.5,waiting=0.75"


def test_errors_and_split():
    x = np.array([[1.0, 0, 0, 0, 0], [0, 1.0, 0, 0, 0]])
    y = np.array([1.0, 3.0])
    assert F.errors(x, y, [0, 0, 0, 0, 0]) == pytest.approx((np.sqrt(5.0), 2.0))
    held = F.split_games([1, 1, 2, 3, 4, 4, 5], 0.4, seed=1)
    assert len(held) == 2 and held <= {1, 2, 3, 4, 5}
    assert held == F.split_games([5, 4, 3, 2, 1], 0.4, seed=1)


def test_dataset_round_trip(tmp_path):
    """A written dataset loads back as the same samples."""
    game, states = _positions(3, 5)
    samples = [
        F.Sample(k, "exact", sum(s.houses), F.features(game, s), 1.5 * k, s.houses, s.stores, s.seat)
        for k, s in enumerate(states)
    ]
    path = tmp_path / "data.json"
    F.write_json(path, {"meta": {}, "samples": [s.__dict__ for s in samples]})
    assert F.load([str(path)]) == samples
    assert [p.name for p in tmp_path.iterdir()] == ["data.json"]


def test_sample_weights():
    """A weighted fit is the fit of the samples repeated by their (integer) weights."""
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 6, size=(12, len(F.TERMS))).astype(float)
    y = rng.normal(size=12)
    counts = rng.integers(1, 4, size=12)
    repeated = F.fit(np.repeat(x, counts, axis=0), np.repeat(y, counts))
    assert np.allclose(F.fit(x, y, counts.astype(float)), repeated, atol=1e-9)


def test_fits_and_cross_validation_on_exact_labels(capsys):
    """On labels made from known weights every fit finds them, held out or not."""
    known = OwareWeights(row=0.1, targets=1.0, kroo=1.5, empty=2.0, threat=0.5, waiting=0.25)
    rng = np.random.default_rng(11)
    samples = []
    for k in range(80):
        f = tuple(int(v) for v in rng.integers(-6, 7, size=len(F.TERMS)))
        label = float(np.dot(f, known.as_tuple()))
        samples.append(F.Sample(k // 4, "exact" if k % 3 == 0 else "selfplay", 20, f, label, (), (0, 0), 0))
    fitted = F.fits(samples)
    for name in ("fit-exact", "fit-selfplay", "fit-both", "fit-balanced"):
        assert fitted[name] == known
    assert F.report(samples, 0.25, seed=2)["fit-both"] == known
    F.cross_validate(samples, 4, seed=2)
    out = capsys.readouterr().out
    assert "4-fold cross-validation by game (20 games, 80 positions)" in out
    assert (
        "fit-both: row 0.10..0.10, targets 1.00..1.00, kroo 1.50..1.50, empty 2.00..2.00, threat 0.50..0.50, waiting 0.25..0.25"
        in out
    )
    row = out.split("cross-validation")[1].split("\nfit-both ")[1].split("\n")[0].split()
    fits_and_errors = ["0.10", "1.00", "1.50", "2.00", "0.50", "0.25"] + ["0.00/", "0.00"] * 3 + ["-"]
    assert row == fits_and_errors


def test_a_search_label_is_the_proved_worth_where_the_search_proves_it():
    """On boards of a few seeds the label search reaches every end: its label (what the board
    is worth to the mover) is the value the bounds search (``exact_label``) proves."""
    game = Oware()
    rng = random.Random(3)
    compared = 0
    for _ in range(12):
        houses = [0] * 12
        for _ in range(rng.randint(3, 7)):
            houses[rng.randrange(12)] += 1
        if not any(houses[:6]) or not any(houses[6:]):
            continue
        south = rng.randint(0, 48 - sum(houses))
        state = OwareState(tuple(houses), (south, 48 - sum(houses) - south), rng.randint(0, 1))
        proved = F.exact_label(game, state, 400_000, None)
        if proved is None:
            continue
        assert F.search_label(game, state, 400_000, None, PLAY) == proved, game.position_string(state)
        compared += 1
    assert compared >= 6, compared


def test_a_house_table_fit_recovers_the_evaluation_that_made_the_labels(tmp_path, capsys):
    """Labels made by an evaluation with an antisymmetric house table and a constant for
    the move (what the board is worth to the mover: the evaluation less the store margin) are
    fitted back: the fitted weights evaluate every position as the labels say, and the written
    file reads back as those weights."""
    game, states = _positions(400, 13)
    rng = random.Random(5)
    cells = [round(rng.uniform(-1, 1), 2) for _ in range(6 * (HOUSE_CAP + 1))]
    known = OwareWeights(threat=0.75, waiting=0.5, houses=tuple([c + 0.1 for c in cells] + [0.1 - c for c in cells]))
    evaluate = make_evaluation(known)
    samples = [
        F.Sample(k // 10, "search", sum(s.houses), F.features(game, s),
                 evaluate(game, s, s.seat) - F.store_margin(s), s.houses, s.stores, s.seat)
        for k, s in enumerate(states)
    ]  # fmt: skip
    fitted = F.fit_table(samples, "search", 1e-9, folds=4, seed=1)
    out = capsys.readouterr().out
    assert "400 search positions from 40 games" in out and "4-fold by game: RMSE" in out
    assert fitted.table_rows() == 12
    refit = make_evaluation(fitted)
    for s, sample in zip(states, samples):
        assert refit(game, s, s.seat) - F.store_margin(s) == pytest.approx(sample.label, abs=0.02)
    path = tmp_path / "w.json"
    F.main(["fit-table", "--data", str(_dataset(tmp_path, samples)), "--ridge", "1e-9", "--out", str(path)])
    assert benchmark_module("oware_match").parse_weights(str(path)) == fitted
    with pytest.raises(SystemExit, match="no positions of kind 'exact'"):
        F.fit_table(samples, "exact", 1.0, folds=0, seed=1)


def _dataset(folder, samples):
    path = folder / "data.json"
    F.write_json(path, {"meta": {}, "samples": [s.__dict__ for s in samples]})
    return path
