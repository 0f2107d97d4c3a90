"""The Togyz Kumalak engine (mancala/engine/togyz/) against the reference rules
(mancala/games/togyz.py) and alpha-beta (mancala/search/core.py): perft from the start, move
for move on seeded random games on every board size under both presets, equal search values
at small depths, the spec's positions, and the engine behind ``best``, the levels and the
analysis."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from mancala.engine.support import engine_support
from mancala.engine.togyz import kernels as K
from mancala.engine.togyz import search as S
from mancala.engine.togyz.record import LEVEL_BUDGETS, TOGYZ
from mancala.engine.togyz.rules import rules_array, supports
from mancala.errors import BadInput
from mancala.evaluation import togyz as E
from mancala.games import make_game
from mancala.games.togyz import PRESETS, TogyzKumalak, TogyzRules, TogyzState
from mancala.players import LEVELS, BestPlayer, make_player
from mancala.search import alphabeta

DATA = json.loads((Path(__file__).parent / "data" / "togyz_positions.json").read_text())["positions"]
#: leaves of the move tree from the start, depths 1-8 (../shared/togyz-kumalak-rules.md §4.1)
PERFT = [9, 73, 613, 5199, 43184, 360035, 3003052, 25166174]
#: weights with every term on (the default's, and others)
ALL_TERMS = E.TogyzWeights(row=0.25, moves=0.75, tuzdik=5.0)


def perft(game, state, depth: int) -> int:
    """The reference's perft (a finished game is a leaf)."""
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(perft(game, game.apply(state, m), depth - 1) for m in game.legal_moves(state))


def engine_perft(game: TogyzKumalak, state: TogyzState, depth: int) -> int:
    return int(K.perft(S.state_array(state), rules_array(game.rules), depth))


def test_perft_from_the_start():
    game = TogyzKumalak()
    assert [engine_perft(game, game.initial_state(), d) for d in range(1, 8)] == PERFT[:7]
    pantusov = TogyzKumalak(PRESETS["pantusov"])  # a tuzdik in house 9 parts the counts at depth 5
    assert [engine_perft(pantusov, pantusov.initial_state(), d) for d in range(1, 6)] == [9, 73, 613, 5199, 43135]


@pytest.mark.slow
def test_perft_depth_8_from_the_start():
    game = TogyzKumalak()
    assert engine_perft(game, game.initial_state(), 8) == PERFT[7]


@pytest.mark.parametrize("rules", [TogyzRules(houses=3, stones=3), TogyzRules(houses=5, stones=2)], ids=["3x3", "5x2"])
def test_perft_on_small_boards_equals_the_references(rules):
    """Small boards end within a few plies: finished games as leaves, majority and no-move."""
    game = TogyzKumalak(rules)
    state = game.initial_state()
    assert [engine_perft(game, state, d) for d in range(1, 7)] == [perft(game, state, d) for d in range(1, 7)]


def check_position(game: TogyzKumalak, searcher: S.TogyzSearcher, state: TogyzState) -> int:
    """Assert that the kernels' legal moves, the positions after them (every end), the
    terminal flags and the final scores equal the reference's; return the number of moves."""
    s = S.state_array(state)
    assert S.array_state(s, game.rules.houses) == state
    houses, children = searcher.children(state)
    moves = game.legal_moves(state)
    assert [m.house for m in moves] == list(houses), game.position_string(state)
    for move, child in zip(moves, children):
        after = game.apply(state, move)
        got = S.array_state(child, game.rules.houses)
        assert got == after and got.finished == after.finished, (game.position_string(state), str(move))
        assert after.last is not None
        assert K.END_NAMES[child[K.S_END]] == after.last.end
        assert child[K.S_GAINED] == after.last.gained - after.last.delivered[after.last.seat]
        for seat in (0, 1):
            assert game.score(got, seat) == game.score(after, seat)
        if after.finished:
            assert K.margin(child, searcher.rules) == game.score(after, after.seat)
    return len(moves)


def random_games(game: TogyzKumalak, seed: int, games: int, cap: int = 2000):
    """Every position of ``games`` seeded random playouts (to the end, or ``cap`` plies)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        for _ in range(cap):
            yield state
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))


#: board sizes and stones under both presets: the full board, small ones, laps (20 stones)
LOCKSTEP = [
    ("federation", 9, 9, 30),
    ("pantusov", 9, 9, 30),
    ("federation", 2, 3, 40),
    ("pantusov", 3, 5, 40),
    ("federation", 5, 5, 30),
    ("pantusov", 6, 4, 30),
    ("federation", 7, 20, 8),
    ("pantusov", 8, 2, 30),
    ("federation", 4, 12, 20),
]


@pytest.mark.parametrize(("preset", "houses", "stones", "games"), LOCKSTEP)
def test_random_games_move_for_move(preset, houses, stones, games):
    game = TogyzKumalak(TogyzRules.from_dict({**PRESETS[preset].to_dict(), "houses": houses, "stones": stones}))
    searcher = S.TogyzSearcher(game, entries=1 << 4)
    ends: dict[str | None, int] = {}
    tuzdiks = 0
    for state in random_games(game, houses * 100 + stones, games):
        check_position(game, searcher, state)
        tuzdiks += state.last is not None and state.last.tuzdik is not None
        if state.finished:
            end = state.last.end if state.last else None
            ends[end] = ends.get(end, 0) + 1
    assert sum(ends.values()) == games
    if preset == "federation" and houses == 9:
        assert ends.get("majority", 0) > 10 and tuzdiks > 20, (ends, tuzdiks)
    if preset == "pantusov":
        assert set(ends) == {"no-move"}


def test_every_test_position_of_the_specification():
    game = TogyzKumalak()
    searcher = S.TogyzSearcher(game, entries=1 << 4)
    for row in DATA:
        check_position(game, searcher, game.parse_position(row["position"]))


def reference_evaluation(weights: E.TogyzWeights):
    """The kernels' evaluation in Python, the same sums in the same order (bit-equal)."""

    def evaluate(game: TogyzKumalak, state: TogyzState, player: int) -> float:
        margin = game.score(state, player)
        if state.finished:
            return E.final_value(margin)
        total = game.rules.total
        if 2 * state.kazans[player] > total:
            return S.WIN + margin
        if 2 * state.kazans[1 - player] > total:
            return margin - S.WIN
        mine, theirs = state.row(player), state.row(1 - player)
        score = float(margin)
        score += weights.row * (sum(mine) - sum(theirs))
        score += weights.moves * (sum(1 for x in mine if x) - sum(1 for x in theirs if x))
        tuz = (state.tuzdiks[player] != -1) - (state.tuzdiks[1 - player] != -1)
        if tuz:
            score += weights.tuzdik * tuz * (sum(mine) + sum(theirs)) / total
        return score

    return evaluate


def search_positions(game: TogyzKumalak, count: int, seed: int, plies: int = 120) -> list[TogyzState]:
    rng = random.Random(seed)
    out: list[TogyzState] = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randint(0, plies)):
            if state.finished:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not state.finished:
            out.append(state)
    return out


@pytest.mark.parametrize("preset", ["federation", "pantusov"])
@pytest.mark.parametrize("mode", ["plain", "table", "table-no-pvs"])
def test_search_values_equal_reference_alphabeta(preset, mode):
    game = TogyzKumalak(PRESETS[preset])
    weights = ALL_TERMS if mode == "table" else E.SCORE
    evaluate = reference_evaluation(weights)
    for state in search_positions(game, 6, 3 + len(mode)):
        for depth in range(1, 5):
            ref = alphabeta(game, state, depth, evaluate)
            searcher = S.TogyzSearcher(
                game, weights, entries=1 << 12, use_table=mode != "plain", pvs=mode != "table-no-pvs"
            )
            value, house, complete, _ = searcher.run(state, depth)
            assert complete and value == ref.value, (game.position_string(state), depth)
            assert house in [m.house for m in game.legal_moves(state)]


def test_the_python_evaluation_is_the_engines_estimate():
    """``alphabeta`` (and greedy, minimax) on Togyz Kumalak use the ``togyz`` evaluation: the
    engine's default estimate, the same sums bit for bit, so the engine's default search and
    Python alpha-beta agree on every value."""
    from mancala.evaluation import default_evaluation, default_evaluation_name

    game = TogyzKumalak()
    assert default_evaluation_name(game) == "togyz" and default_evaluation(game) is E.evaluate
    assert K.WIN == E.WIN
    reference = reference_evaluation(E.DEFAULT)
    for state in search_positions(game, 40, 11, plies=160):
        for player in (0, 1):
            assert E.evaluate(game, state, player) == reference(game, state, player)
    for state in search_positions(game, 4, 12):
        for depth in (1, 2, 3):
            searcher = S.TogyzSearcher(game, E.DEFAULT, entries=1 << 12)
            value, _, complete, _ = searcher.run(state, depth)
            assert complete and value == alphabeta(game, state, depth, E.evaluate).value


def test_recurring_positions_end_in_the_depth_limit():
    """Positions recur (no repetition rule): from one that recurs in a random game the search
    still stops at its depth, with alpha-beta's value (a cycle is an estimate, not exact)."""
    game = TogyzKumalak(TogyzRules(houses=3, stones=2, stop_at_majority=False))
    evaluate = reference_evaluation(E.SCORE)
    found = []
    rng = random.Random(5)
    while len(found) < 4:
        state, seen = game.initial_state(), {}
        while not state.finished and len(found) < 4:
            key = (state.houses, state.kazans, state.tuzdiks, state.seat)
            if key in seen:
                found.append(state)
                break
            seen[key] = state
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    for state in found:
        searcher = S.TogyzSearcher(game, E.SCORE, entries=1 << 14)
        assert searcher.run(state, 9)[0] == alphabeta(game, state, 9, evaluate).value
        result = S.search(game, state, None, max_depth=40, weights=E.SCORE)
        assert result.depth == 40 and not result.exact and result.move in game.legal_moves(state)


def test_best_plays_legal_moves_and_wins_at_once():
    game = make_game("togyz")
    start = game.initial_state()
    result = S.search(game, start, None, max_depth=6)
    assert result.move in game.legal_moves(start) and result.depth == 6
    t13 = game.parse_position("14,0,X,1,1,1,0,3,1/17,2,6,5,7,1,3,1,2 68-29 S")  # the spec's T-13
    won = game.apply(t13, game.parse_move(t13, "8"))
    assert won.finished and won.kazans == (86, 29)
    for spec in ("best:depth=1", "best:depth=6", "best:nodes=20000", "best:time=0.3"):
        player = make_player(spec)
        assert str(player.choose(game, t13)) == "8", spec
        assert player.last.value == S.WIN + game.score(won, 0) and player.last.algorithm.startswith("togyz-engine")


def test_best_finds_the_capture_that_is_clearly_best():
    """South's house 2 (10 stones) ends on North's house 2 (9 + 1 = 10): a capture of 10;
    every other move captures at most 2 and leaves North nothing better."""
    game = make_game("togyz")
    state = game.parse_position("1,10,1,1,1,1,1,1,1/1,9,1,1,1,1,1,1,1 60-67 S")
    after = game.apply(state, game.parse_move(state, "2"))
    assert after.kazans[0] == 70  # the capture the test is about
    for spec in ("best:depth=1", "best:depth=4", "best:nodes=50000"):
        assert str(make_player(spec).choose(game, state)) == "2", spec


def test_best_hint_levels_and_timed_alphabeta_use_the_engine():
    assert engine_support("togyz") is TOGYZ and TOGYZ.timed is not None and TOGYZ.plays(make_game("togyz"))
    game = make_game("togyz")
    state = search_positions(game, 1, 4)[0]
    for spec in ("best:time=0.2", "best:depth=4", "alphabeta:time=0.2", "medium", "hard"):
        player = make_player(spec)
        assert player.choose(game, state) in game.legal_moves(state)
        assert player.last.algorithm.startswith("togyz-engine"), spec
    fixed = make_player("alphabeta:depth=2")
    fixed.choose(game, state)
    assert fixed.last.algorithm == "alphabeta"


@pytest.mark.parametrize("name", list(LEVELS))
def test_levels_have_their_own_ladder_on_the_engine(name):
    level = LEVELS[name]
    game = make_game("togyz")
    assert level.ladder_for(game) == "togyz" and level.spec_for("togyz") == LEVEL_BUDGETS[name]
    player = make_player(name).player_for(game)
    if isinstance(player, BestPlayer):  # the engine: a depth or node budget, no clock
        assert (player.depth or player.nodes) and player.seconds >= 1e6
        assert player.uses_engine(game)
    state = game.initial_state()
    assert player.choose(game, state) in game.legal_moves(state)


def test_unsupported_rules_decline_and_best_falls_back():
    assert all(supports(rules) for rules in PRESETS.values())
    assert not supports(TogyzRules(max_plies=100))
    with pytest.raises(BadInput):
        S.TogyzSearcher(TogyzKumalak(TogyzRules(max_plies=100)))
    game = make_game("togyz(houses=3,stones=2,max_plies=40)")
    player = make_player("best:depth=2")
    state = game.initial_state()
    assert player.choose(game, state) in game.legal_moves(state)
    assert not player.last.algorithm.startswith("togyz-engine")
    assert not player.uses_engine(game)
    assert LEVELS["hard"].ladder_for(game) == "other"


def test_search_from_a_finished_game_and_the_analysis_values():
    game = make_game("togyz")
    t14 = game.parse_position("0,1,2,0,0,0,2,X,1/0,0,X,0,0,0,0,0,0 78-78 S")  # the spec's T-14
    after = game.apply(t14, game.parse_move(t14, "7"))
    assert after.finished
    result = S.search(game, after, 1.0)
    assert result.move is None and result.value == E.final_value(game.score(after, after.seat))
    assert TOGYZ.values is not None
    rows, line = TOGYZ.values(game, t14, 20_000)
    by_move = {r["move"]: r for r in rows}
    assert by_move["7"]["value"] == 4 and by_move["7"]["exact"]  # 83-79
    assert sorted(by_move) == sorted(str(m) for m in game.legal_moves(t14))
    assert line[0] == rows[0]["move"]


def test_state_arrays_round_trip_and_the_line_is_legal():
    game = TogyzKumalak()
    for state in list(random_games(game, 5, 2))[::11]:
        s = S.state_array(state)
        assert s.dtype == np.int64 and len(s) == K.S_SIZE
        assert S.array_state(s, 9) == state
    state = search_positions(game, 1, 21)[0]
    result = S.search(game, state, None, max_depth=5)
    assert 1 <= len(result.line) <= result.depth and result.line[0] == result.move
    for move in result.line:
        assert move in game.legal_moves(state)
        state = game.apply(state, move)
    limited = S.search(game, game.initial_state(), None, max_nodes=1)  # depth 1 always completes
    assert limited.depth == 1 and limited.move in game.legal_moves(game.initial_state())


def test_the_terminal_and_match_play_the_levels_on_the_engine(monkeypatch, capsys):
    """``mancala play`` (two AIs, piped) and ``mancala match`` search with the engine at a level."""
    from mancala.cli.main import main  # noqa: PLC0415

    searched: list[str] = []
    search = S.search

    def counting(*args, **kwargs):
        result = search(*args, **kwargs)
        searched.append(result.algorithm)
        return result

    monkeypatch.setattr(S, "search", counting)
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    assert main(["play", "--game", "togyz(houses=5,stones=5)", "--p1", "hard", "--p2", "beginner"]) == 0
    assert "Game over." in capsys.readouterr().out
    assert searched and all(a.startswith("togyz-engine") for a in searched)
    searched.clear()
    assert main(["match", "--game", "togyz(houses=5,stones=5)", "medium", "easy", "--games", "2"]) == 0
    assert "2 games" in capsys.readouterr().out
    assert searched and all(a.startswith("togyz-engine") for a in searched)


def test_a_kazan_past_half_is_a_win_where_the_game_goes_on():
    """Under Pantusov's rules (no stop at 82) a capture to 90 does not end the game, but the
    search counts it as won (kazans never lose stones): a win's value, not an exact one."""
    game = make_game("togyz(preset=pantusov)")
    state = game.parse_position("1,10,1,1,1,1,1,1,1/1,9,1,1,1,1,1,1,1 80-47 S")
    after = game.apply(state, game.parse_move(state, "2"))
    assert after.kazans == (90, 47) and not after.finished
    result = S.search(game, state, None, max_depth=3)
    assert str(result.move) == "2" and result.value >= S.WIN + 90 - 47 - 20 and not result.exact
    assert TOGYZ.value_scale(result.value) == result.value - S.WIN


def test_late_move_reductions_search_fewer_nodes_and_only_without_a_depth_budget(tmp_path, monkeypatch):
    """Reductions reach a depth in far fewer nodes (a count no load changes); ``best:depth=``
    searches without them, ``best:nodes=`` with the play setting (an empty cache: no table)."""
    from mancala.engine.togyz import exact  # noqa: PLC0415

    monkeypatch.setenv("MANCALA_CACHE_DIR", str(tmp_path))
    exact.forget_tables()
    game = make_game("togyz")
    rng = random.Random(5)
    state = game.initial_state()
    for _ in range(12):
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    plain = S.search(game, state, None, max_depth=8, searcher=S.TogyzSearcher(game))
    reduced = S.search(game, state, None, max_depth=8, searcher=S.TogyzSearcher(game, reductions=3))
    assert reduced.depth == plain.depth == 8
    assert reduced.nodes < 0.7 * plain.nodes
    assert reduced.move in game.legal_moves(state)
    by_depth = make_player("best:depth=4")
    by_depth.choose(game, state)
    assert by_depth.last.value == S.search(game, state, None, max_depth=4, reductions=0).value
    by_nodes = make_player("best:nodes=20000")
    by_nodes.choose(game, state)
    searched = S.search(game, state, None, max_nodes=20000, reductions=S.PLAY_REDUCTIONS)
    assert (by_nodes.last.move, by_nodes.last.value) == (searched.move, searched.value)
    deeper = S.search(game, state, None, max_nodes=20000, reductions=3)
    assert deeper.depth > S.search(game, state, None, max_nodes=20000, reductions=0).depth
