"""The named evaluation terms (mancala/search/terms.py) on hand-made positions, and eval specs."""

from __future__ import annotations

import pytest

from mancala.errors import BadInput
from mancala.evaluation.terms import BAO_TERMS, KALAH_TERMS, KALAH_WIN, make_evaluation, parse_weights
from mancala.games import make_game
from mancala.players import make_player

# South pits 1..6, South store, North pits 1..6, North store (North's pit p faces South's 7-p)
BOARD = (0, 3, 0, 1, 2, 1, 10, 4, 0, 2, 0, 5, 6, 7)


@pytest.fixture
def position():
    game = make_game("kalah")
    return game, game.position(BOARD, 0)


def term(name, game, state, player=0):
    return KALAH_TERMS[name](game, state, player)


def test_kalah_terms_by_hand(position):
    game, s = position
    assert term("store", game, s) == 10 - 7
    assert term("seeds", game, s) == 7 - 17
    assert term("empty", game, s) == 2 - 2
    assert term("mobility", game, s) == 4 - 4
    # pit p is n+1-p sowings from the store.  South: pit 5 holds 2 (distance 2) and pit 6 holds 1
    # (distance 1): two extra turns.  North (4,0,2,0,5,6): none matches its distance (6,5,4,3,2,1)
    assert term("extra", game, s) == 2 - 0
    # South's captures: pit 2 (3 seeds) ends in pit 5 (holds 1): no; pit 4 (1) ends in pit 5 (not
    # empty); pits 5 and 6 end in the store.  So none.  North: pit 1 (4 seeds) ends in its pit 5 (5): no;
    # pit 3 (2) ends in its pit 5: no; pit 5 (5) passes the store.  None either.
    assert term("threat", game, s) == 0
    # seeds facing an empty opposite pit: South pit 2 (3) faces North 5 (5): no; South 4 (1) faces
    # North 3 (2); South 5 (2) faces North 2 (0) -> 2; South 6 (1) faces North 1 (4).  North pit 2 (0),
    # North 4 (0) face South 5 and 3: North's exposed seeds: North 1 (4) faces South 6 (1); North 3 (2)
    # faces South 4 (1); North 5 (5) faces South 2 (3); North 6 (6) faces South 1 (0) -> 6
    assert term("exposure", game, s) == 2 - 6
    assert term("near", game, s) == pytest.approx(((3 * 2 + 1 * 4 + 2 * 5 + 1 * 6) - (4 + 2 * 3 + 5 * 5 + 6 * 6)) / 6)
    assert term("hoard", game, s) == 3 - 6
    assert term("endgame", game, s) == pytest.approx((7 - 17) * (17 / 41))
    assert term("starve", game, s) == 0
    assert term("majority", game, s) == 0
    # the opponent's view is the negation for every "mine minus theirs" term
    for name in KALAH_TERMS:
        assert term(name, game, s, 1) == pytest.approx(-term(name, game, s, 0)), name


def test_capture_threat_and_empty_capture():
    game = make_game("kalah")
    # South pit 1 (2 seeds) or pit 2 (1) ends in empty pit 3, facing North pit 4 with 5 seeds: 5 + the
    # capturing seed.  North pit 2 (1) ends in its empty pit 3, facing South pit 4 (1 seed): 1 + 1
    board = (2, 1, 0, 1, 1, 1, 0, 1, 1, 0, 5, 1, 1, 0)
    s = game.position(board, 0)
    assert KALAH_TERMS["threat"](game, s, 0) == 6 - 2
    # with North pit 4 empty South captures nothing, except under empty_capture (the lone seed)
    board = (2, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 5)
    s = game.position(board, 0)
    assert KALAH_TERMS["threat"](game, s, 0) == 0 - 2
    ec = make_game("kalah(preset=empty-capture)")
    assert KALAH_TERMS["threat"](ec, ec.position(board, 0), 0) == 1 - 2


def test_specs_and_terminal_scores(position):
    game, s = position
    ev = make_evaluation("store:1,extra:0.5")
    assert ev(game, s, 0) == 3 + 0.5 * 2
    assert make_evaluation("store+extra:0.5")(game, s, 0) == 4
    assert parse_weights("store") == (("store", 1.0),)
    won = game.position((0,) * 6 + (30,) + (1,) * 6 + (12,), 0)  # South's row is empty: finished
    assert won.finished
    assert ev(game, won, 0) == KALAH_WIN + (30 - 18)
    assert ev(game, won, 1) == -(KALAH_WIN + 12)
    for bad in ("", "nope:1", "store:x"):
        with pytest.raises(BadInput):
            parse_weights(bad)


def test_player_specs_take_weighted_evals(position):
    game, s = position
    p = make_player("alphabeta:depth=2,eval=store:1,extra:0.5")
    assert p.spec == "alphabeta:depth=2,eval=store:1,extra:0.5"
    assert make_player(p.spec).spec == p.spec
    assert p.choose(game, s) in game.legal_moves(s)
    for old in ("score", "material"):  # the named evaluations still work
        assert make_player(f"alphabeta:depth=2,eval={old}").choose(game, s) in game.legal_moves(s)
    with pytest.raises(BadInput):
        make_player("alphabeta:depth=2,eval=store:1,bogus:2")
    with pytest.raises(BadInput):  # a Bao term on Kalah is found out when the game is known
        make_player("greedy:eval=nyumba").choose(game, s)


def test_bao_terms_symmetric_at_start_and_played():
    game = make_game("bao")
    s = game.initial_state()
    for name, f in BAO_TERMS.items():
        assert f(game, s, 0) == pytest.approx(-f(game, s, 1)), name
    assert BAO_TERMS["front"](game, s, 0) == sum(s.holes[0][:8]) - sum(s.holes[1][:8])
    p = make_player("alphabeta:depth=1,eval=front:1,back:1,stock:0.8,nyumba:3,threat:1.6,waiting:0.6,captures:0.2")
    assert p.choose(game, s) in game.legal_moves(s)
