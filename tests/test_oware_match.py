"""``benchmarks/oware_match.py``: the base's table cut to fewer seeds (what a larger table is
worth) and its options' errors."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from helpers import BENCHMARKS, benchmark_module

from mancala.engine.oware import endgame
from mancala.engine.oware import search as S
from mancala.engine.oware.endgame import MISSING
from mancala.engine.oware.rules import rules_array
from mancala.errors import BadInput
from mancala.evaluation.oware import OwareWeights
from mancala.games.oware import Oware

M = benchmark_module("oware_match")


def _boards(count: int, seeds: int, rng: random.Random) -> list[tuple[int, ...]]:
    out = []
    for _ in range(count):
        houses = [0] * 12
        for _ in range(seeds):
            houses[rng.randrange(12)] += 1
        out.append(tuple(houses))
    return out


def test_a_smaller_table_answers_as_the_table_up_to_its_seeds_and_not_beyond():
    """Cut to 4 seeds, the 6-seed table gives the same value to every board of up to 4 seeds,
    in the table's own probe and in the search's, and nothing for 5 or 6."""
    game = Oware()
    table = endgame.build(game.rules, 6)
    small = M.smaller_table(table, 4)
    assert small.max_seeds == 4 and small.values.base is not None  # a view, not a copy
    rng = random.Random(3)
    for seeds in range(7):
        for houses in _boards(20, seeds, rng):
            for seat in (0, 1):
                if seeds <= 4:
                    assert small.value(houses, seat) == table.value(houses, seat)
                else:
                    assert small.value(houses, seat) == MISSING
    state = game.position((0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0), (21, 23), 0)
    s = S.state_array(state)
    rules = rules_array(game.rules)
    full = S.table_value(s, rules, table.values, table.offsets, table.max_seeds)
    assert S.table_value(s, rules, small.values, small.offsets, small.max_seeds) == full
    crowded = S.state_array(game.position((0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 0, 1), (20, 23), 0))
    assert S.table_value(crowded, rules, small.values, small.offsets, small.max_seeds) == S.NO_VALUE


@pytest.mark.parametrize("seeds", [-1, 7])
def test_a_cut_beyond_the_table_is_refused(seeds):
    table = endgame.build(Oware().rules, 6)
    with pytest.raises(BadInput, match="0..6"):
        M.smaller_table(table, seeds)


def test_a_bad_option_is_one_line_and_exit_2():
    run = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "oware_match.py"),
            "--candidate",
            "nonsense=1",
            "--depth",
            "1",
            "--openings",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "oware_match: unknown Oware weight 'nonsense'; known: row, targets, kroo, empty, threat, waiting, "
        "or a weights file (*.json)"
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "cannot read Oware weights"),
        ('{"threat": 1, "colour": 2}', "expected an object of row, targets"),
        ("[1, 2]", "expected an object of row, targets"),
        ('{"threat": "high"}', "every weight must be a number"),
        ('{"houses": [1, "a"]}', "every weight must be a number"),
        ('{"houses": [0.5, 0.5, 0.5]}', "42 values per pair of houses, got 3"),
    ],
)
def test_a_bad_weights_file_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "w.json"
    path.write_text(text)
    with pytest.raises(BadInput, match=message) as caught:
        M.parse_weights(str(path))
    assert "\n" not in str(caught.value)


def test_a_weights_file_reads_back_what_the_fitter_wrote(tmp_path):
    F = benchmark_module("fit_oware_eval")
    table = tuple(round(0.01 * k, 3) for k in range(12 * 21))
    path = tmp_path / "w.json"
    F.write_json(path, {"threat": 1.0, "waiting": 0.5, "houses": list(table)})
    assert M.parse_weights(str(path)) == OwareWeights(threat=1.0, waiting=0.5, houses=table)
    with pytest.raises(BadInput, match="missing.json: cannot read"):
        M.parse_weights(str(tmp_path / "missing.json"))
    with pytest.raises(BadInput, match="threat: expected a number, got 'x'"):
        M.parse_weights("threat=x")
