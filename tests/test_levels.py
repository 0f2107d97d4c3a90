"""Difficulty levels (players.LEVELS): budgets in depth and nodes, one player per game family."""

from __future__ import annotations

import pytest

from mancala.games import make_game
from mancala.players import LEVELS, BestPlayer, LevelPlayer, RandomPlayer, SearchPlayer, make_player


def test_levels_weakest_first_and_seed_004_names_kept():
    assert list(LEVELS) == ["beginner", "easy", "medium", "hard", "expert", "strongest"]


@pytest.mark.parametrize("name", list(LEVELS))
def test_each_level_is_a_depth_or_node_budget(name):
    player = make_player(name)
    assert isinstance(player, LevelPlayer) and player.spec == name
    kalah = player.player_for(make_game("kalah"))
    assert kalah.spec == make_player(LEVELS[name].spec_for("kalah")).spec
    if isinstance(kalah, BestPlayer):  # the engine: no clock in the budget
        assert kalah.depth or kalah.nodes
        assert kalah.seconds >= 1e6
    elif not isinstance(kalah, RandomPlayer):
        assert isinstance(kalah, SearchPlayer) and kalah.seconds is None
    bao = player.player_for(make_game("bao"))
    assert isinstance(bao, (SearchPlayer, RandomPlayer))


@pytest.mark.parametrize("name", ["beginner", "easy", "medium", "hard"])
def test_levels_play_legal_moves(name):
    game = make_game("kalah(pits=4,seeds=3)")
    state = game.initial_state()
    assert make_player(name).choose(game, state) in game.legal_moves(state)


@pytest.mark.parametrize("name", list(LEVELS))
def test_oware_has_its_own_ladder_on_the_engine(name):
    level = LEVELS[name]
    oware = make_game("oware")
    player = make_player(name).player_for(oware)
    assert player.spec == make_player(level.spec_for("oware")).spec
    assert level.ladder("oware") == "oware" and level.ladder("bao") == "other"
    if isinstance(player, BestPlayer):  # the engine: a depth or node budget, no clock
        assert (player.depth or player.nodes) and player.seconds >= 1e6
        assert player.uses_engine(oware)
    state = oware.initial_state()
    assert player.choose(oware, state) in oware.legal_moves(state)


def test_oware_rules_the_engine_declines_use_the_other_ladder():
    game = make_game("oware(skip_twelve=true)")
    player = make_player("strongest").player_for(game)
    assert isinstance(player, SearchPlayer) and player.spec == make_player(LEVELS["strongest"].other).spec
    assert player.seconds == LEVELS["strongest"].seconds
