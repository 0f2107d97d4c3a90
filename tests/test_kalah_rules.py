"""One test per Kalah rule option, each on a small hand-built position.

Every expected board was worked out by hand from the rules (docs/rules.md) and
is written in board order (see ``mancala/games/kalah.py``)::

    (South pits 1..n, South store, North pits 1..n, North store)

so on a 3-pit board ``(a, b, c, S, d, e, f, N)``: South's pit i faces North's
pit 4-i (pit 1 faces North's pit 3, pit 2 faces pit 2, pit 3 faces pit 1).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mancala.errors import BadInput, IllegalMove
from mancala.games import PRESETS, make_game
from mancala.games.kalah import SWAP, Capture, GameEnd, Kalah, KalahMove, KalahRules, Remaining, Sowing


def kalah(**options) -> Kalah:
    return Kalah(KalahRules(**options))


def play(game: Kalah, state, *moves: str):
    """Apply moves written in the game's notation, one after another."""
    for text in moves:
        state = game.apply(state, game.parse_move(state, text))
    return state


def moves_text(game: Kalah, state) -> list[str]:
    return [str(m) for m in game.legal_moves(state)]


# --- board size and seed bounds --------------------------------------------------------------


@pytest.mark.parametrize("pits", [1, 2, 20])
def test_pits_from_1_to_20_are_accepted(pits):
    state = kalah(pits=pits, seeds=3).initial_state()
    assert state.board == (3,) * pits + (0,) + (3,) * pits + (0,)
    assert moves_text(kalah(pits=pits, seeds=3), state) == [str(p) for p in range(1, pits + 1)]


@pytest.mark.parametrize("pits", [0, -1, 21, 100])
def test_pits_outside_1_to_20_raise_bad_input(pits):
    with pytest.raises(BadInput, match="pits must be 1-20"):
        KalahRules(pits=pits)
    with pytest.raises(BadInput, match="pits must be 1-20"):
        make_game(f"kalah(pits={pits})")


@pytest.mark.parametrize("seeds", [-1, 1001])
def test_seeds_outside_0_to_1000_raise_bad_input(seeds):
    with pytest.raises(BadInput, match="seeds must be 0-1000"):
        KalahRules(seeds=seeds)
    with pytest.raises(BadInput, match="seeds must be 0-1000"):
        make_game(f"kalah(seeds={seeds})")


def test_zero_seeds_gives_a_game_that_is_over_at_the_start():
    game = kalah(seeds=0)
    state = game.initial_state()
    assert state.board == (0,) * 14
    assert game.is_terminal(state)
    assert game.legal_moves(state) == ()
    assert game.score(state, 0) == 0


def test_1000_seeds_on_20_pits_sow_24_full_laps_and_16_more():
    # 20 pits: South pits are cells 0-19, South's store 20, North's pits 21-40, North's
    # store 41 (skipped by South).  Pit 1's 1000 seeds go round the 41 cells 1..40, 0:
    # 1000 = 24 * 41 + 16, so every cell gets 24 and cells 1..16 one more.
    game = kalah(pits=20, seeds=1000)
    after = play(game, game.initial_state(), "1")
    expected = [24] + [1025] * 16 + [1024] * 3 + [24] + [1024] * 20 + [0]
    assert after.board == tuple(expected)
    assert sum(after.board) == 40 * 1000
    assert game.to_move(after) == 1  # the last seed fell in pit 17: no extra turn, no capture
    assert after.last.last_index == 16 and not after.last.capture


# --- explicit start positions -----------------------------------------------------------------


def test_explicit_start_position_with_south_to_move():
    game = kalah(pits=3, start=(1, 2, 3, 4, 5, 6, 7, 8), first=0)
    state = game.initial_state()
    assert state.board == (1, 2, 3, 4, 5, 6, 7, 8)
    assert game.to_move(state) == 0 and state.seat == 0
    assert moves_text(game, state) == ["1", "2", "3"]
    # pit 3's 3 seeds: South's store, North's pits 1 and 2
    after = play(game, state, "3")
    assert after.board == (1, 2, 0, 5, 6, 7, 7, 8)
    assert game.to_move(after) == 1


def test_explicit_start_position_with_north_to_move():
    game = kalah(pits=3, start=(1, 2, 3, 4, 5, 6, 7, 8), first=1)
    state = game.initial_state()
    assert state.board == (1, 2, 3, 4, 5, 6, 7, 8)
    assert game.to_move(state) == 1 and state.seat == 1
    # North's pit 1 (5 seeds): North pits 2, 3, North's store, South pits 1, 2
    after = play(game, state, "1")
    assert after.board == (2, 3, 3, 4, 0, 7, 8, 9)
    assert game.to_move(after) == 0


def test_explicit_start_position_of_wrong_length_or_negative_raises_bad_input():
    with pytest.raises(BadInput, match="needs 8 numbers"):
        KalahRules(pits=3, start=(1, 2, 3))
    with pytest.raises(BadInput, match="negative"):
        KalahRules(pits=3, start=(1, 2, 3, 0, -1, 2, 3, 0))
    assert make_game("kalah(pits=3,start=1 2 3 4 5 6 7 8,first=north)").initial_state().board == (
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
    )


# --- captures ------------------------------------------------------------------------------------

# South (1, 0, 2), North (3, 4, 5): South's pit 1 drops its seed into empty pit 2,
# which faces North's pit 2 (4 seeds).
CAPTURE_START = (1, 0, 2, 0, 3, 4, 5, 0)


def test_capture_none_leaves_the_seed_and_the_opposite_pit_alone():
    game = kalah(pits=3, start=CAPTURE_START, capture=Capture.NONE)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 1, 2, 0, 3, 4, 5, 0)
    assert not after.last.capture
    assert game.to_move(after) == 1


def test_capture_opposite_and_last_banks_both():
    game = kalah(pits=3, start=CAPTURE_START, capture=Capture.OPPOSITE_AND_LAST)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 0, 2, 5, 3, 0, 5, 0)
    assert after.last.capture and after.last.captured == 5
    assert game.to_move(after) == 1


def test_capture_opposite_only_banks_the_opposite_pit_and_leaves_the_last_seed():
    game = kalah(pits=3, start=CAPTURE_START, capture=Capture.OPPOSITE_ONLY)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 1, 2, 4, 3, 0, 5, 0)
    assert after.last.capture and after.last.captured == 4


def test_north_captures_from_south_row():
    # North's pit 1 (1 seed) lands in its empty pit 2, facing South's pit 2 (6 seeds).
    game = kalah(pits=3, start=(1, 6, 1, 0, 1, 0, 2, 0), first=1)
    after = play(game, game.initial_state(), "1")
    assert after.board == (1, 0, 1, 0, 0, 0, 2, 7)
    assert game.to_move(after) == 0


def test_landing_in_a_nonempty_own_pit_captures_nothing():
    game = kalah(pits=3, start=(1, 1, 2, 0, 3, 4, 5, 0))
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 2, 2, 0, 3, 4, 5, 0)
    assert not after.last.capture


# South (1, 0, 2), North (3, 0, 5): the last seed lands in pit 2, facing an empty pit.
EMPTY_CAPTURE_START = (1, 0, 2, 0, 3, 0, 5, 0)


def test_empty_capture_off_no_capture_when_the_opposite_pit_is_empty():
    game = kalah(pits=3, start=EMPTY_CAPTURE_START, empty_capture=False)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 1, 2, 0, 3, 0, 5, 0)
    assert not after.last.capture


def test_empty_capture_on_banks_the_capturing_seed():
    # Irving et al. and the homework: "capture of 0 + 1" (FORMAT.md, official case 1).
    game = kalah(pits=3, start=EMPTY_CAPTURE_START, empty_capture=True)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 0, 2, 1, 3, 0, 5, 0)
    assert after.last.capture and after.last.captured == 1


def test_empty_capture_with_opposite_only_takes_nothing_and_leaves_the_seed():
    # seed 003's starter code: the empty opposite pit is "captured", the seed stays.
    game = Kalah(KalahRules.from_dict({**PRESETS["cs151"].to_dict(), "pits": 3, "start": EMPTY_CAPTURE_START}))
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 1, 2, 0, 3, 0, 5, 0)
    assert after.last.capture and after.last.captured == 0


# --- skipping the origin pit on long laps -----------------------------------------------------

# Two pits a side: South's pit 1 holds 5 = 2n+1 seeds, North holds (1, 1).
LAP_START = (5, 0, 0, 1, 1, 0)


def test_skip_origin_off_the_lap_drops_a_seed_into_the_emptied_pit_and_captures():
    # cells 1, 2 (store), 3, 4, (North's store skipped), 0: the 5th seed lands in the
    # emptied origin, now holding 1 seed, and captures North's pit 2 (1 + 1 = 2 seeds).
    game = kalah(pits=2, start=LAP_START, skip_origin=False)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 1, 4, 2, 0, 0)
    assert after.last.last_index == 0 and after.last.capture and after.last.captured == 3


def test_skip_origin_on_the_lap_passes_over_the_emptied_pit():
    # cells 1, 2, 3, 4, then 1 again: no capture (pit 2 now holds 2).
    game = kalah(pits=2, start=LAP_START, skip_origin=True)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 2, 1, 2, 2, 0)
    assert after.last.last_index == 1 and not after.last.capture


@pytest.mark.parametrize("skip", [False, True])
def test_skip_origin_makes_no_difference_below_2n_plus_1_seeds(skip):
    game = kalah(pits=2, start=(4, 0, 0, 1, 1, 0), skip_origin=skip)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 1, 1, 2, 2, 0)


def test_skip_origin_on_many_laps_never_refills_the_origin():
    # 9 seeds over the 4-cell cycle 1, 2, 3, 4: two laps and one more seed.
    game = kalah(pits=2, start=(9, 0, 0, 1, 1, 0), skip_origin=True)
    after = play(game, game.initial_state(), "1")
    assert after.board == (0, 3, 2, 3, 3, 0)


# --- end of the game ----------------------------------------------------------------------------


def test_either_row_empty_ends_the_game_after_the_mover_empties_its_own_row():
    # South's pit 3 (2 seeds): its store and North's pit 1; South's row is now empty.
    game = kalah(pits=3, start=(0, 0, 2, 0, 1, 1, 1, 0), end=GameEnd.EITHER_ROW_EMPTY)
    after = play(game, game.initial_state(), "3")
    assert game.is_terminal(after)
    assert after.board == (0, 0, 0, 1, 0, 0, 0, 4)  # North's 4 seeds swept to its store
    assert game.legal_moves(after) == ()
    assert game.score(after, 0) == -3 and game.score(after, 1) == 3


def test_mover_cannot_move_rule_lets_the_opponent_play_on():
    game = kalah(pits=3, start=(0, 0, 2, 0, 1, 1, 1, 0), end=GameEnd.MOVER_CANNOT_MOVE)
    after = play(game, game.initial_state(), "3")
    assert not game.is_terminal(after)
    assert after.board == (0, 0, 0, 1, 2, 1, 1, 0)
    assert game.to_move(after) == 1
    assert moves_text(game, after) == ["1", "2", "3"]


# South (1, 0, 1), North (2, 2, 2): South's pit 3 ends in its store (extra turn), then pit 1
# captures North's pit 2 (2 + 1 seeds) and so empties South's own row.
CHAIN_START = (1, 0, 1, 0, 2, 2, 2, 0)


def test_either_row_empty_ends_the_game_inside_an_extra_turn_chain():
    game = kalah(pits=3, start=CHAIN_START, end=GameEnd.EITHER_ROW_EMPTY)
    mid = play(game, game.initial_state(), "3")
    assert mid.board == (1, 0, 0, 1, 2, 2, 2, 0) and game.to_move(mid) == 0
    assert mid.last.extra_turn and not game.is_terminal(mid)
    after = play(game, mid, "1")
    assert game.is_terminal(after)
    assert after.board == (0, 0, 0, 4, 0, 0, 0, 4)


def test_mover_cannot_move_rule_continues_after_the_chain_empties_a_row():
    game = kalah(pits=3, start=CHAIN_START, end=GameEnd.MOVER_CANNOT_MOVE)
    after = play(game, game.initial_state(), "3", "1")
    assert not game.is_terminal(after)
    assert after.board == (0, 0, 0, 4, 2, 0, 2, 0)
    assert game.to_move(after) == 1


def test_mover_cannot_move_rule_plays_on_while_only_the_opponent_row_is_empty():
    # North's row is empty but South is to move: the game goes on (it is over at once
    # under the either-row rule).  South banks a seed (extra turn), then sows into its own
    # row; North is then to move with an empty row, so the game ends and South sweeps.
    start = (2, 0, 1, 0, 0, 0, 0, 0)
    assert kalah(pits=3, start=start).initial_state().board == (0, 0, 0, 3, 0, 0, 0, 0)
    game = kalah(pits=3, start=start, end=GameEnd.MOVER_CANNOT_MOVE)
    state = game.initial_state()
    assert not game.is_terminal(state)
    mid = play(game, state, "3")
    assert mid.board == (2, 0, 0, 1, 0, 0, 0, 0)
    assert game.to_move(mid) == 0 and not game.is_terminal(mid)
    after = play(game, mid, "1")
    assert game.is_terminal(after)
    assert after.board == (0, 0, 0, 3, 0, 0, 0, 0)


def test_mover_cannot_move_rule_ends_the_game_when_the_player_to_move_has_no_seeds():
    game = kalah(pits=3, start=(1, 2, 0, 0, 0, 0, 0, 3), first=1, end=GameEnd.MOVER_CANNOT_MOVE)
    state = game.initial_state()
    assert game.is_terminal(state)
    assert state.board == (0, 0, 0, 3, 0, 0, 0, 3)


# --- remaining seeds --------------------------------------------------------------------------


def test_remaining_seeds_go_to_their_owner():
    game = kalah(pits=3, start=(0, 0, 2, 0, 1, 1, 1, 0), remaining=Remaining.OWNER)
    after = play(game, game.initial_state(), "3")
    assert after.board == (0, 0, 0, 1, 0, 0, 0, 4)


def test_remaining_seeds_go_to_the_owner_opponent():
    game = kalah(pits=3, start=(0, 0, 2, 0, 1, 1, 1, 0), remaining=Remaining.OPPONENT)
    after = play(game, game.initial_state(), "3")
    assert after.board == (0, 0, 0, 5, 0, 0, 0, 0)
    assert game.score(after, 0) == 5


# --- direction of sowing ------------------------------------------------------------------------


def test_counter_clockwise_sowing_offers_pits_only_and_rejects_a_direction():
    game = kalah(pits=3, start=(2, 1, 3, 0, 1, 0, 2, 0))
    state = game.initial_state()
    assert moves_text(game, state) == ["1", "2", "3"]
    with pytest.raises(IllegalMove, match="counter-clockwise only"):
        game.parse_move(state, "1L")


# South (2, 1, 3), North (1, 0, 2) under the Ethiopian rules.
CHOICE_START = (2, 1, 3, 0, 1, 0, 2, 0)


def ethiopian(start, **more) -> Kalah:
    data = {**PRESETS["ethiopian"].to_dict(), "pits": len(start) // 2 - 1, "start": start, **more}
    return Kalah(KalahRules.from_dict(data))


def test_choice_sowing_offers_both_directions_and_bans_single_seed_pits():
    game = ethiopian(CHOICE_START)
    state = game.initial_state()
    assert moves_text(game, state) == ["1R", "1L", "3R", "3L"]
    with pytest.raises(IllegalMove, match="single seed"):
        game.parse_move(state, "2R")
    with pytest.raises(IllegalMove):
        game.apply(state, KalahMove(2, True, True))


@pytest.mark.parametrize(
    "move, board",
    [
        ("1R", (0, 2, 4, 0, 1, 0, 2, 0)),  # pits 2 and 3
        ("1L", (0, 1, 3, 0, 1, 1, 3, 0)),  # North's store skipped: North's pits 3 and 2
        ("3R", (2, 1, 0, 1, 2, 1, 2, 0)),  # South's store, North's pits 1 and 2
        ("3L", (3, 2, 0, 0, 1, 0, 3, 0)),  # pits 2, 1, then North's pit 3
    ],
)
def test_choice_sowing_each_direction(move, board):
    game = ethiopian(CHOICE_START)
    after = play(game, game.initial_state(), move)
    assert after.board == board
    assert game.to_move(after) == 1


def test_clockwise_sowing_reaches_own_store_after_the_opponent_row_for_an_extra_turn():
    # pit 3 clockwise with 6 seeds: pits 2, 1, North's 3, 2, 1, then South's store.
    game = ethiopian((0, 0, 6, 0, 1, 1, 1, 0))
    after = play(game, game.initial_state(), "3L")
    assert after.board == (1, 1, 0, 1, 2, 2, 2, 0)
    assert after.last.extra_turn and game.to_move(after) == 0


def test_clockwise_sowing_captures_in_an_empty_own_pit():
    # pit 3 clockwise with 2 seeds: pits 2 and 1; pit 1 was empty and faces North's pit 3.
    game = ethiopian((0, 0, 2, 0, 1, 1, 4, 0))
    after = play(game, game.initial_state(), "3L")
    assert after.board == (1, 1, 0, 4, 1, 1, 0, 0)  # opposite only: the last seed stays


def test_choice_sowing_allows_singles_when_every_nonempty_pit_holds_one_seed():
    game = ethiopian((1, 0, 1, 0, 2, 2, 2, 0))
    state = game.initial_state()
    assert moves_text(game, state) == ["1R", "1L", "3R", "3L"]
    after = play(game, state, "1L")
    assert after.board == (0, 0, 1, 0, 2, 2, 3, 0)


def test_choice_sowing_parses_a_bare_pit_number_as_counter_clockwise():
    game = ethiopian(CHOICE_START)
    state = game.initial_state()
    assert game.parse_move(state, "3") == KalahMove(3, False)
    assert str(game.parse_move(state, "3l")) == "3L"


# --- the pie rule --------------------------------------------------------------------------------


def test_pie_rule_swap_is_only_the_second_player_first_move():
    game = kalah(pits=3, seeds=3, pie_rule=True)
    state = game.initial_state()
    assert "swap" not in moves_text(game, state)
    with pytest.raises(IllegalMove, match="swap"):
        game.apply(state, SWAP)
    # South's pit 1 ends in its store: South moves again, still no swap for anyone.
    mid = play(game, state, "1")
    assert mid.board == (0, 4, 4, 1, 3, 3, 3, 0)
    assert game.to_move(mid) == 0 and "swap" not in moves_text(game, mid)
    # South's pit 2 passes the turn: North may now swap instead of sowing.
    second = play(game, mid, "2")
    assert second.board == (0, 0, 5, 2, 4, 4, 3, 0)
    assert moves_text(game, second) == ["1", "2", "3", "swap"]
    # If North sows instead, the swap never comes back.
    later = play(game, second, "3")  # North's store, South's pits 1 and 2
    assert later.board == (1, 1, 5, 2, 4, 4, 0, 1)
    assert game.to_move(later) == 0 and "swap" not in moves_text(game, later)
    later = play(game, later, "1")
    assert game.to_move(later) == 1 and "swap" not in moves_text(game, later)


def test_pie_rule_swap_changes_owners_not_the_board():
    game = kalah(pits=3, seeds=3, pie_rule=True)
    second = play(game, game.initial_state(), "1", "2")
    assert game.score(second, 0) == 2 and game.score(second, 1) == -2
    swapped = play(game, second, "swap")
    assert swapped.board == second.board
    assert swapped.swapped and swapped.seat == 1
    # the original first player (player 0) now sits North and is to move
    assert game.to_move(swapped) == 0
    assert swapped.player_seat(0) == 1 and swapped.player_seat(1) == 0
    # scores follow the players: player 0 now owns North's store (0), player 1 South's (2)
    assert game.score(swapped, 0) == -2 and game.score(swapped, 1) == 2
    assert moves_text(game, swapped) == ["1", "2", "3"]
    # player 0 sows North's pit 1 (4 seeds): North's 2, 3, store, South's pit 1
    after = play(game, swapped, "1")
    assert after.board == (1, 0, 5, 2, 0, 5, 4, 1)
    assert game.to_move(after) == 1 and after.seat == 0
    assert game.score(after, 0) == -1 and game.score(after, 1) == 1
    assert "swap" not in moves_text(game, after)


def test_swap_is_illegal_without_the_pie_rule():
    game = kalah(pits=3, seeds=3)
    second = play(game, game.initial_state(), "2")
    assert "swap" not in moves_text(game, second)
    with pytest.raises(IllegalMove):
        game.parse_move(second, "swap")


# --- the first move never earns an extra turn ------------------------------------------------


def test_first_move_never_earns_an_extra_turn():
    game = kalah(pits=3, seeds=3, no_first_extra_turn=True)
    after = play(game, game.initial_state(), "1")  # last seed in South's store
    assert after.board == (0, 4, 4, 1, 3, 3, 3, 0)
    assert game.to_move(after) == 1 and not after.last.extra_turn
    # later moves into the store do earn one: North's pit 1 ends in North's store
    again = play(game, after, "1")
    assert again.board == (0, 4, 4, 1, 0, 4, 4, 1)
    assert game.to_move(again) == 1 and again.last.extra_turn


def test_first_move_earns_an_extra_turn_without_the_option():
    game = kalah(pits=3, seeds=3, no_first_extra_turn=False)
    after = play(game, game.initial_state(), "1")
    assert game.to_move(after) == 0 and after.last.extra_turn


def test_mankalah_first_move_into_the_store_hands_north_the_swap():
    game = make_game("kalah(preset=mankalah)")
    state = game.initial_state()
    assert state.board == (7,) * 7 + (0,) + (7,) * 7 + (0,)
    after = play(game, state, "1")  # 7 seeds from pit 1: pits 2-7 and the store
    assert after.board == (0, 8, 8, 8, 8, 8, 8, 1) + (7,) * 7 + (0,)
    assert game.to_move(after) == 1
    assert moves_text(game, after) == ["1", "2", "3", "4", "5", "6", "7", "swap"]


# --- presets ---------------------------------------------------------------------------------------


def test_presets_have_the_documented_options():
    d = KalahRules()
    assert PRESETS["standard"] == d
    assert PRESETS["stealing"] == d
    assert PRESETS["empty-capture"] == KalahRules(empty_capture=True)
    assert PRESETS["homework"] == KalahRules(empty_capture=True)
    assert PRESETS["egyptian"] == KalahRules(capture=Capture.OPPOSITE_ONLY)
    assert PRESETS["ethiopian"] == KalahRules(capture=Capture.OPPOSITE_ONLY, sowing=Sowing.CHOICE)
    assert PRESETS["no-stealing"] == KalahRules(capture=Capture.NONE)
    assert PRESETS["cs151"] == KalahRules(capture=Capture.OPPOSITE_ONLY, empty_capture=True)
    assert PRESETS["mankalah"] == KalahRules(pits=7, seeds=7, pie_rule=True, no_first_extra_turn=True)
    assert set(PRESETS) == {
        "standard",
        "stealing",
        "empty-capture",
        "homework",
        "egyptian",
        "ethiopian",
        "no-stealing",
        "cs151",
        "mankalah",
    }


def test_preset_options_can_be_overridden_from_a_spec():
    game = make_game("kalah(preset=egyptian,pits=5)")
    assert game.rules == KalahRules(pits=5, capture=Capture.OPPOSITE_ONLY)
    with pytest.raises(BadInput, match="unknown Kalah preset"):
        make_game("kalah(preset=nonesuch)")


# --- positions that cannot come back (what the engine's endgame databases rest on) ---------


def reachable_cycle(game: Kalah) -> bool:
    """Whether some position reachable from the start can come back (a depth-first search
    over every reachable position, looking for a move back onto the path)."""
    key = lambda state: (state.board, state.seat, state.swapped, state.swap_allowed)  # noqa: E731
    start = game.initial_state()
    on_path, done = {key(start)}, set()
    stack = [(start, iter(game.legal_moves(start)))]
    while stack:
        state, moves = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            on_path.discard(key(state))
            done.add(key(state))
            continue
        after = game.apply(state, move)
        if key(after) in on_path:
            return True
        if key(after) not in done and not game.is_terminal(after):
            on_path.add(key(after))
            stack.append((after, iter(game.legal_moves(after))))
    return False


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_no_position_comes_back_unless_sowing_may_go_either_way(preset):
    game = Kalah(replace(PRESETS[preset], pits=3, seeds=2))
    assert reachable_cycle(game) == game.rules.positions_can_repeat
