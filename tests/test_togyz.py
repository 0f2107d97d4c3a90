"""Togyz Kumalak's rules: every verified test position of the specification (copied into
``tests/data/togyz_positions.json``, each checked in MancalaGames there), perft from the start,
the notations (house numbers, game records' two-digit moves, PlayStrategy's UCI moves and
FEN, the compact position string), the rule sets and the board sizes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mancala.errors import BadInput, IllegalMove
from mancala.games import make_game
from mancala.games.records import read_record_moves
from mancala.games.togyz import (
    TogyzKumalak,
    TogyzRules,
    read_fen,
    togyz_start_options,
    write_fen,
)

DATA = json.loads((Path(__file__).parent / "data" / "togyz_positions.json").read_text())["positions"]
GAME = TogyzKumalak()


@pytest.mark.parametrize("row", DATA, ids=[r["id"] for r in DATA])
def test_every_test_position_of_the_specification(row):
    state = GAME.parse_position(row["position"])
    assert GAME.position_string(state) == row["position"]
    assert [int(str(m)) for m in GAME.legal_moves(state)] == row["legal"]
    move = GAME.parse_move(state, str(row["move"]))
    assert GAME.parse_move(state, row["uci"]) == move
    assert GAME.uci(state, move) == row["uci"]
    after = GAME.apply(state, move)
    assert GAME.is_terminal(after) == row["terminal"]
    if "after" in row:
        assert GAME.position_string(after) == row["after"]
    else:
        assert after.kazans == tuple(row["final"]) and not any(after.houses)
    assert sum(after.houses) + sum(after.kazans) == 162


def perft(game, state, depth: int) -> int:
    """Leaves of the move tree ``depth`` plies deep (a finished game is a leaf)."""
    if depth == 0 or game.is_terminal(state):
        return 1
    return sum(perft(game, game.apply(state, m), depth - 1) for m in game.legal_moves(state))


@pytest.mark.slow
def test_perft_depth_7_from_the_start():
    assert perft(GAME, GAME.initial_state(), 7) == 3_003_052


def test_depth_2_is_73_because_eight_openings_capture():
    start = GAME.initial_state()
    replies = {str(m): len(GAME.legal_moves(GAME.apply(start, m))) for m in GAME.legal_moves(start)}
    assert replies == {"1": 9, **{str(k): 8 for k in range(2, 10)}}


def test_the_game_is_named_as_people_name_it():
    for name in ("togyz", "Togyzqumalaq", "toguz-korgool", "TogyzKumalak", "togyz(preset=federation)"):
        assert make_game(name) == GAME
    assert make_game("toguz_korgool(preset=pantusov)").rules == TogyzRules(
        tuzdik_forbid_last=False, stop_at_majority=False
    )


def test_playstrategy_fen_both_ways():
    fens = {
        "T-05": "10S,10S,10S,10S,11S,11S,2S,10S,10S/2S,11S,10S,10S,1S,11S,11S,11S,11S 0 0 N",
        "T-08": "1S,10S,1S,11S,1,12S,t,12S,12S/11S,1S,2S,11S,11S,3S,12S,4S,1S 25 22 N",
        "T-14": "6,t,2/1,1S,2S,3,2S,t,1S 78 78 S",
    }
    by_id = {r["id"]: r for r in DATA}
    for key, fen in fens.items():
        state = GAME.parse_position(fen)
        assert GAME.position_string(state) == by_id[key]["position"]
        assert GAME.fen(state).rsplit(" ", 1)[0] == fen
        assert write_fen(*read_fen(fen, 9), 9, 1) == fen + " 1"
    assert GAME.fen(GAME.initial_state()) == "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"


def test_game_records_two_digit_moves_say_where_the_last_stone_lands_and_what_it_did():
    start = GAME.initial_state()
    nine = GAME.parse_move(start, "98(10)")
    assert str(nine) == "9" and GAME.record_move(start, nine, GAME.apply(start, nine)) == "98(10)"
    assert GAME.parse_move(start, "98") == nine
    for wrong in ("97", "98(11)", "98X", "91(10)"):
        with pytest.raises(IllegalMove):
            GAME.parse_move(start, wrong)
    t05 = GAME.parse_position(next(r["position"] for r in DATA if r["id"] == "T-05"))
    one = GAME.parse_move(t05, "11X")
    after = GAME.apply(t05, one)
    assert GAME.record_move(t05, one, after) == "11X" and after.tuzdiks == (-1, 0)
    assert GAME.record_move(start, GAME.parse_move(start, "1"), GAME.apply(start, GAME.parse_move(start, "1"))) == "19"


def test_a_playok_record_we_write_reads_back_and_replays_to_the_same_end():
    rng = random.Random(7)
    state, states, words = GAME.initial_state(), [], []
    while not GAME.is_terminal(state) and len(words) < 400:
        move = rng.choice(GAME.legal_moves(state))
        after = GAME.apply(state, move)
        words.append(GAME.record_move(state, move, after))
        states.append(after)
        state = after
    body = " ".join(f"{i // 2 + 1}. {w}" if i % 2 == 0 else w for i, w in enumerate(words))
    text = f'[Event "test"]\n[Site "PlayOK"]\n[White "a"]\n[Black "b"]\n[WhiteElo "1500"]\n\n{body} *\n'
    headers, moves = read_record_moves(text)
    assert headers["Site"] == "PlayOK" and moves == words
    replay = GAME.initial_state()
    for word in moves:
        replay = GAME.apply(replay, GAME.parse_move(replay, word))
    assert replay == state
    # opened as a game: the players' names come with it (White is South, who moves first)
    from mancala.record import record_from_game_text

    record = record_from_game_text(text, "a PlayOK file")
    assert record is not None and record.people == ["a", "b"] and record.final_state() == state


def test_tuzdiks_obey_every_ban_over_random_games():
    rng = random.Random(11)
    made = 0
    for _ in range(60):
        state = GAME.initial_state()
        while not GAME.is_terminal(state):
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            t0, t1 = state.tuzdiks
            assert t0 == -1 or 9 <= t0 < 17  # on North's row, never North's house 9
            assert t1 == -1 or 0 <= t1 < 8
            assert -1 in (t0, t1) or t0 % 9 != t1 % 9
            assert all(state.houses[t] == 0 for t in (t0, t1) if t >= 0)
            assert sum(state.houses) + sum(state.kazans) == 162
            made += state.last is not None and state.last.tuzdik is not None
    assert made > 20


def test_pantusov_allows_a_tuzdik_in_house_9_and_plays_on_past_82():
    old = make_game("togyz(preset=pantusov)")
    t06 = next(r for r in DATA if r["id"] == "T-06")
    after = old.apply(old.parse_position(t06["position"]), old.parse_move(old.parse_position(t06["position"]), "9"))
    assert after.tuzdiks == (-1, 8) and after.kazans == (10, 13)
    t13 = next(r for r in DATA if r["id"] == "T-13")
    state = old.parse_position(t13["position"])
    after = old.apply(state, old.parse_move(state, "8"))
    assert not old.is_terminal(after) and after.kazans[0] == 86


def test_the_moves_are_explained_in_words():
    by_id = {r["id"]: r for r in DATA}

    def words(key: str) -> str:
        state = GAME.parse_position(by_id[key]["position"])
        move = GAME.parse_move(state, str(by_id[key]["move"]))
        return GAME.describe_move(state, move, GAME.apply(state, move))

    assert "captures 10 stones (an even count) from North's 8" in words("T-02")
    assert "make South's 1 North's tuzdik" in words("T-05")
    assert "house 9 cannot become a tuzdik" in words("T-06")
    assert "North already has a tuzdik" in words("T-07")
    assert "South's tuzdik has the same number" in words("T-08")
    assert "1 stone into North's tuzdik" in words("T-09")
    assert "North has no stones to move: game over, South takes every stone left" in words("T-14")
    assert "Final count: South 81, North 81." in words("T-15")


def sketch_move(n: int, position: tuple, house: int, forbid_last: bool = True) -> tuple:
    """An independent sketch of one move (§2, stone by stone, the federation's bans), on
    ``(houses, kazans, tuzdiks, seat)``; the game's own sowing counts laps at once."""
    houses, kazans, tuz, seat = list(position[0]), list(position[1]), list(position[2]), position[3]
    stones, houses[house] = houses[house], 0
    spot = house if stones > 1 else house + 1
    for k in range(stones):
        cell = (spot + k) % (2 * n)
        if cell in tuz:
            kazans[tuz.index(cell)] += 1
        else:
            houses[cell] += 1
    last = (spot + stones - 1) % (2 * n)
    if last // n != seat and last not in tuz:
        if houses[last] % 2 == 0:
            kazans[seat], houses[last] = kazans[seat] + houses[last], 0
        elif (
            houses[last] == 3
            and tuz[seat] < 0
            and (last % n != n - 1 or not forbid_last)
            and (tuz[1 - seat] < 0 or tuz[1 - seat] % n != last % n)
        ):
            kazans[seat], houses[last], tuz[seat] = kazans[seat] + 3, 0, last
    return tuple(houses), tuple(kazans), tuple(tuz), 1 - seat


def sketch_perft(n: int, position: tuple, depth: int) -> int:
    """Leaves of the sketch's move tree (the game ends at a majority or a row left empty)."""
    houses, kazans, _, seat = position
    mine = [h for h in range(seat * n, seat * n + n) if houses[h]]
    if depth == 0 or max(kazans) * 2 > sum(houses) + sum(kazans) or not mine:
        return 1
    return sum(sketch_perft(n, sketch_move(n, position, h), depth - 1) for h in mine)


def test_pantusov_perft_agrees_with_the_sketch_that_allows_house_9():
    old = make_game("togyz(preset=pantusov)")

    def leaves(position: tuple, depth: int) -> int:
        houses, _, _, seat = position
        mine = [h for h in range(seat * 9, seat * 9 + 9) if houses[h]]
        if depth == 0 or not mine:
            return 1
        return sum(leaves(sketch_move(9, position, h, forbid_last=False), depth - 1) for h in mine)

    assert perft(old, old.initial_state(), 5) == leaves(state_of(old.initial_state()), 5) == 43_135


def state_of(state) -> tuple:
    return state.houses, state.kazans, state.tuzdiks, state.seat


def test_the_rules_agree_with_an_independent_sketch_over_random_games_on_every_board_size():
    rng = random.Random(5)
    for n in range(2, 10):
        game = make_game(f"togyz(houses={n},stones={rng.randint(1, 12)})")
        for _ in range(15):
            state = game.initial_state()
            while not game.is_terminal(state):
                move = rng.choice(game.legal_moves(state))
                after = game.apply(state, move)
                expected = sketch_move(n, state_of(state), move.house)
                if not game.is_terminal(after):
                    assert state_of(after) == expected
                else:
                    assert game.final_stones(after, 0) + game.final_stones(after, 1) == 2 * n * game.rules.stones
                    assert game.score(after, 0) == (expected[1][0] + sum(expected[0][:n])) - (
                        expected[1][1] + sum(expected[0][n:])
                    )
                state = after


def test_small_boards_follow_the_rules_of_the_big_one():
    small = make_game("togyz(houses=5,stones=5)")
    start = small.initial_state()
    assert sum(start.houses) == 50 and small.position_string(start) == "5,5,5,5,5/5,5,5,5,5 0-0 S"
    assert [perft(small, start, d) for d in range(1, 5)] == [sketch_perft(5, state_of(start), d) for d in range(1, 5)]
    assert togyz_start_options("0,1,0,0,0/0,0,X,0,0 25-24 S") == {
        "houses": 5,
        "stones": 5,
        "start": "0,1,0,0,0/0,0,X,0,0 25-24 S",
    }
    state = make_game("togyz", **togyz_start_options("0,1,0,0,0/0,0,X,0,0 25-24 S")).initial_state()
    assert state.tuzdiks == (7, -1)


@pytest.mark.parametrize(
    "text",
    [
        "9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 S",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 W",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-1 S",
        "9,9,9,9,9,9,9,9,②/9,9,9,9,9,9,9,9,9 0-0 S",
        "X,X,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0-0 S",
        "9,9,9,9,9,9,9,9,X/9,9,9,9,9,9,9,9,9 9-0 S",
        "X,9,9,9,9,9,9,9,9/X,9,9,9,9,9,9,9,9 9-9 S",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0--0 S",
        "9" * 500,
        "99999999999,t/9S 0 0 S",
        "1S,²,9S/9S 0 0 S 1",
    ],
)
def test_a_bad_position_is_one_line_saying_what_was_expected(text):
    with pytest.raises(BadInput) as caught:
        GAME.parse_position(text)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300
