"""Oware's rules (mancala/games/oware.py): the test positions of the rule specification
(tests/data/oware_positions.json, copied from oware-rules.md §4, where each was checked
against OpenSpiel or the spec's own simulator), OpenSpiel's perft counts, the options'
one-line errors, and lockstep agreement with OpenSpiel's ``oware`` over more than a million
random transitions (legal moves, board, stores, side to move, the end and the winner)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mancala.errors import BadInput, IllegalMove
from mancala.games import make_game
from mancala.games.oware import PRESETS, GrandSlam, Oware, OwareRules

DATA = json.loads((Path(__file__).resolve().parent / "data" / "oware_positions.json").read_text())
POSITIONS = DATA["positions"]


def game_of(entry: dict) -> Oware:
    """The game a test position is stated under (a preset and option overrides)."""
    options = ",".join(f"{k}={v}" for k, v in entry.get("options", {}).items())
    game = make_game(f"oware(preset={entry['rules']}{',' + options if options else ''})")
    assert isinstance(game, Oware)
    return game


def play(game: Oware, state, moves: str):
    """``state`` after the moves written as joined house letters (``FfEe``)."""
    for letter in moves:
        state = game.apply(state, game.parse_move(state, letter))
    return state


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_the_specification_positions(entry):
    game = game_of(entry)
    state = game.parse_position(entry["position"])
    if not game.is_terminal(state):  # a finished position is shown swept
        assert game.position_string(state) == entry["position"]
    assert "".join(str(m) for m in game.legal_moves(state)) == entry["legal"]
    if "terminal_before" in entry:
        assert game.is_terminal(state) == entry["terminal_before"]
        assert [game.score(state, 0), game.score(state, 1)] == entry["score_before"]
    if "move" in entry:
        after = play(game, state, entry["move"])
        assert game.position_string(after) == entry["after"]
        assert game.is_terminal(after) == entry["terminal"]
        if "score" in entry:
            assert [game.score(after, 0), game.score(after, 1)] == entry["score"]
        if "next_legal" in entry:
            assert "".join(str(m) for m in game.legal_moves(after)) == entry["next_legal"]


@pytest.mark.parametrize("entry", [p for p in POSITIONS if p.get("prefix")], ids=lambda p: p["id"])
def test_the_specification_positions_are_reached_from_the_start(entry):
    game = game_of(entry)
    assert game.position_string(play(game, game.initial_state(), entry["prefix"])) == entry["position"]


def test_the_repetition_game_ends_at_its_twelfth_cycle_move_and_not_before():
    game = make_game("oware")
    entry = next(p for p in POSITIONS if p["id"] == "O-12")
    state = play(game, game.initial_state(), entry["full_game"])
    assert not game.is_terminal(state)
    end = play(game, state, "A")
    assert game.is_terminal(end) and end.last.end == "repetition"
    assert (end.stores, game.score(end, 0)) == ((25, 23), 2)


@pytest.mark.slow
def test_perft_from_the_start_matches_openspiel_to_depth_seven():
    game = make_game("oware")

    def perft(state, depth: int) -> int:
        if depth == 0:
            return 1
        return sum(perft(game.apply(state, m), depth - 1) for m in game.legal_moves(state))

    assert [perft(game.initial_state(), d) for d in range(8)] == DATA["perft"]


def test_the_events_say_what_happened():
    game = make_game("oware")
    lap = game.parse_position("0-0-0-0-0-0-1-3-3-14-11-8-0-8-N")
    after = game.apply(lap, game.parse_move(lap, "d"))
    assert after.last.skipped_origin and after.last.captures == ((0, 2),)
    assert "skipping d" in game.describe_move(lap, after.last.move, after)
    slam = game.parse_position("1-1-1-0-0-0-1-3-5-5-5-12-0-14-N")
    after = game.apply(slam, game.parse_move(slam, "d"))
    assert after.last.grand_slam == "no-capture" and not after.last.captures
    assert "grand slam" in game.describe_move(slam, after.last.move, after)


def test_grand_slam_options():
    position = "1-1-1-0-0-0-1-3-5-5-5-12-0-14-N"

    def after_d(option: str):
        game = make_game(f"oware(grand_slam={option})")
        state = game.parse_position(position)
        return game, game.apply(state, game.parse_move(state, "d"))

    game, end = after_d("opponent-takes-rest")
    assert game.is_terminal(end) and end.stores == (28, 20) and end.last.end == "grand-slam"
    game, left = after_d("leave-left")
    assert [h for h, _ in left.last.captures] == [1, 0] and left.houses[2] == 2
    game, right = after_d("leave-right")
    assert [h for h, _ in right.last.captures] == [2, 1] and right.houses[0] == 2
    # illegal-unless-only: d is the grand slam; with other moves it is not legal
    game = make_game("oware(grand_slam=illegal-unless-only)")
    assert "d" not in [str(m) for m in game.legal_moves(game.parse_position(position))]
    # ... and when it is the only move it is played and captures
    only = game.parse_position("1-0-0-0-0-0-0-0-1-0-0-0-23-23-N")
    assert [str(m) for m in game.legal_moves(only)] == ["c"]
    with pytest.raises(IllegalMove, match="grand slam"):
        make_game("oware(grand_slam=illegal)").parse_move(game.parse_position(position), "d")


def test_cannot_move_unscored_and_split():
    position = "0-0-0-0-0-0-1-1-0-0-0-0-23-23-N"
    unscored = make_game("oware(cannot_move=unscored)").parse_position(position)
    assert unscored.finished and unscored.stores == (23, 23) and unscored.unscored == 2
    split = make_game("oware(cannot_move=split)").parse_position(position)
    assert split.stores == (24, 24) and split.unscored == 0


def test_a_must_feed_refusal_says_why():
    game = make_game("oware")
    state = game.parse_position("0-0-0-0-0-0-1-3-3-14-11-8-0-8-N")
    with pytest.raises(IllegalMove, match="must feed"):
        game.parse_move(state, "a")
    with pytest.raises(IllegalMove, match="empty"):
        game.parse_move(game.parse_position("1-0-7-7-1-6-2-7-6-0-6-5-0-0-N"), "d")
    with pytest.raises(IllegalMove, match="no house"):
        game.parse_move(game.initial_state(), "Z")


@pytest.mark.parametrize(
    "text, words",
    [
        ("4-4-4", "expected 12 houses"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-1-S", "48 seeds"),
        ("4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "S or N"),
        ("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S", "expected 12 houses"),
        ("4-4-4-4-4-4-4-4-4-4-4--4-0-0-S", "expected"),
    ],
)
def test_bad_position_strings_get_one_clear_line(text, words):
    with pytest.raises(BadInput, match=words):
        make_game("oware").parse_position(text)


@pytest.mark.parametrize(
    "spec, words",
    [
        ("oware(houses=0)", "houses must be 1-12"),
        ("oware(houses=99999999999)", "houses must be 1-12"),
        ("oware(seeds=21)", "seeds must be 1-20"),
        ("oware(grand_slam=maybe)", "grand_slam must be one of"),
        ("oware(capture_counts=2 x)", "whole number"),
        ("oware(preset=nope)", "presets: abapa"),
        ("oware(colour=red)", "unknown Oware option"),
        ("oware(max_plies=-1)", "max_plies"),
    ],
)
def test_bad_options_get_one_clear_line(spec, words):
    with pytest.raises(BadInput, match=words):
        make_game(spec)


def test_presets_round_trip_and_are_named():
    from mancala.games.catalogue import spec_of, title_of

    for name, rules in PRESETS.items():
        game = Oware(rules)
        assert make_game(spec_of(game)) == game
        assert title_of(game) == f"Oware ({name})"
        assert OwareRules.from_dict(rules.to_dict()) == rules
    assert PRESETS["abapa"].grand_slam is GrandSlam.NO_CAPTURE


def test_small_boards_play_to_an_end_with_seeds_conserved():
    for houses in range(1, 7):
        for seeds in range(1, 4):
            game = make_game(f"oware(houses={houses},seeds={seeds})")
            rng = random.Random(houses * 10 + seeds)
            for _ in range(20):
                state = game.initial_state()
                while not game.is_terminal(state):
                    state = game.apply(state, rng.choice(game.legal_moves(state)))
                assert sum(state.houses) + sum(state.stores) == 2 * houses * seeds


# --- lockstep with OpenSpiel -----------------------------------------------------------

#: OpenSpiel's oware aborts the process past 1000 plies (oware-rules.md §2.4): games are
#: cut before that
OPENSPIEL_PLY_CAP = 990


def openspiel_board(state) -> tuple[int, tuple[int, ...], tuple[int, int]]:
    """Side to move, houses and stores read from OpenSpiel's observation string."""
    mover, stores, houses = state.observation_string(0).split("|")
    s0, s1 = map(int, stores.split())
    return int(mover), tuple(map(int, houses.split())), (s0, s1)


def lockstep(houses: int, seeds: int, transitions: int, seed: int) -> int:
    """Play random games in our ``oware(preset=openspiel)`` and OpenSpiel's ``oware`` side by
    side until ``transitions`` moves were compared; returns the number of games."""
    pyspiel = pytest.importorskip("pyspiel")
    ours = make_game(f"oware(preset=openspiel,houses={houses},seeds={seeds})")
    theirs = pyspiel.load_game(f"oware(num_houses_per_player={houses},num_seeds_per_house={seeds})")
    rng = random.Random(seed)
    done = games = 0
    while done < transitions:
        games += 1
        state, other = ours.initial_state(), theirs.new_initial_state()
        while True:
            legal = ours.legal_moves(state)
            if ours.is_terminal(state):
                assert other.is_terminal(), f"game {games}: we ended, OpenSpiel did not"
                expected = [float((ours.score(state, p) > 0) - (ours.score(state, p) < 0)) for p in (0, 1)]
                assert other.returns() == expected, f"game {games}: winner differs"
                break
            assert not other.is_terminal(), f"game {games}: OpenSpiel ended, we did not"
            assert other.current_player() == state.seat
            assert [m.house - state.seat * houses for m in legal] == other.legal_actions(), f"game {games}: legal moves"
            if state.ply >= OPENSPIEL_PLY_CAP:
                break
            move = rng.choice(legal)
            state = ours.apply(state, move)
            other.apply_action(move.house - (1 - state.seat) * houses)
            done += 1
            mover, board, stores = openspiel_board(other)
            assert board == state.houses and stores == state.stores, f"game {games}, ply {state.ply}: board"
            if not state.finished:
                assert mover == state.seat
    return games


@pytest.mark.slow
def test_lockstep_with_openspiel_over_a_million_transitions():
    games = lockstep(6, 4, 1_000_000, seed=2026)
    assert games > 1000


@pytest.mark.parametrize("houses, seeds", [(6, 3), (3, 2), (4, 1), (2, 3), (1, 4), (5, 5)])
def test_lockstep_with_openspiel_on_other_boards(houses, seeds):
    lockstep(houses, seeds, 20_000, seed=houses * 100 + seeds)


def test_openspiel_players_play_oware_in_step_with_our_referee():
    pytest.importorskip("pyspiel")
    from mancala.players import make_player

    game = make_game("oware(houses=4,seeds=3)")
    bots = [make_player("openspiel-mcts:sims=50"), make_player("openspiel-ab:depth=2")]
    rng = random.Random(5)
    state = game.initial_state()
    while not game.is_terminal(state):
        move = bots[state.seat].choose(game, state) if state.ply % 3 else rng.choice(game.legal_moves(state))
        state = game.apply(state, move)  # our rules referee: an illegal answer would raise
    with pytest.raises(BadInput, match="Oware under the abapa or openspiel rules"):
        bots[0].choose(make_game("oware(preset=awari)"), make_game("oware(preset=awari)").initial_state())


def test_skip_twelve_sowing_passes_houses_of_twelve_or_more():
    game = make_game("oware(skip_twelve=true)")
    # F holds 3 and a (index 6) holds 12, so the seeds go to b, c and d, which then hold 2
    # each: d, c and b are captured, and the chain stops at a
    state = game.parse_position("0-0-0-0-0-3-12-1-1-1-0-0-14-16-S")
    after = game.apply(state, game.parse_move(state, "F"))
    assert game.position_string(after) == "0-0-0-0-0-0-12-0-0-0-0-0-20-16-N"
    assert [h for h, _ in after.last.captures] == [9, 8, 7]
    plain = make_game("oware")  # without the option a takes a seed: the seeds reach a, b, c only
    start = plain.parse_position("0-0-0-0-0-3-12-1-1-1-0-0-14-16-S")
    assert plain.position_string(play(plain, start, "F")) == "0-0-0-0-0-0-13-0-0-1-0-0-18-16-N"


# --- game records as players keep them (PlayOK's two-digit moves) ----------------------------


def test_two_digit_record_moves_say_where_the_last_seed_lands_and_what_a_capture_brings():
    game = Oware()
    start = game.initial_state()
    # South's house 6 (F) with 4 seeds: a, b, c, d of North's row: it ends on North's house 4
    move = game.parse_move(start, "64")
    assert move == game.parse_move(start, "F")
    after = game.apply(start, move)
    assert game.record_move(start, move, after) == "64"
    with pytest.raises(IllegalMove, match="ends on house 4, not 5"):
        game.parse_move(start, "65")
    with pytest.raises(IllegalMove, match="no capture, not a capture to 3"):
        game.parse_move(start, "64(3)")
    # a capture: the record says the mover's store after it, and a wrong total is refused
    position = game.position(tuple([0, 0, 0, 0, 0, 2] + [1, 1, 0, 0, 0, 1]), (21, 22), 0)
    take = game.parse_move(position, "F")
    taken = game.apply(position, take)
    assert game.record_move(position, take, taken) == "62(25)"  # a and b, 2 seeds each
    assert game.parse_move(position, "62(25)") == take
    with pytest.raises(IllegalMove, match="makes the mover's store 25 with a capture, not a capture to 24"):
        game.parse_move(position, "62(24)")


def test_a_playok_oware_record_reads_back_with_names_and_replays_to_the_same_end():
    from mancala.record import GameRecord, record_from_game_text, record_text

    game = Oware()
    rng = random.Random(5)
    state, moves = game.initial_state(), []
    while not game.is_terminal(state) and len(moves) < 300:
        move = rng.choice(game.legal_moves(state))
        moves.append(move)
        state = game.apply(state, move)
    record = GameRecord(game, ["human", "human"], moves, people=["Kofi", "Ama"])
    text = record_text(record)
    assert '[White "Kofi"]' in text and '[Black "Ama"]' in text and "1. " in text
    back = record_from_game_text(text, "the copied text")
    assert back is not None and back.moves == moves and back.people == ["Kofi", "Ama"]
    # as PlayOK writes it (no [Game] header of ours): read as Oware, not as Togyz Kumalak
    body = text.split("\n\n", 1)[1]
    foreign = f'[Site "PlayOK"]\n[White "kofi"]\n[Black "ama"]\n\n{body}'
    again = record_from_game_text(foreign, "a PlayOK file")
    assert again is not None and again.game.name == "oware" and again.final_state() == state
    assert again.people == ["kofi", "ama"]
