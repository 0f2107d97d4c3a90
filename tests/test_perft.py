"""Move-tree counts ("perft") of the Kalah rules.

``perft(state, k)`` is the number of move sequences of exactly ``k`` moves from
``state``, one sowing (or swap) per move, so every move of an extra-turn chain is a
ply of its own.  A game that ends before ``k`` moves contributes nothing.

Where the expected numbers come from:

* ``STANDARD_PERFT`` (Kalah(6,4) from the start, standard rules) was produced by
  OpenSpiel's C++ ``mancala`` game; the test recomputes it with pyspiel, so the
  numbers are checked against that peer on every run.
* ``reference_children`` below is a deliberately plain Kalah written for this file
  only: two Python lists and two stores, seeds dropped one at a time around a
  ring of cells (the engine instead precomputes a cycle and sows whole laps at
  once), options read as plain flags.  It shares no code with
  ``mancala.games.kalah``.  It is first checked against pyspiel on the standard
  rules (perft counts and the exact leaf positions); for every other preset and
  option it is only as right as my reading of the rules, which is the same
  reading the engine was written from - so agreement there shows the engine does
  what the rules say, not that the reading itself is right (test_kalah_rules.py
  checks the reading on hand-computed positions).
* Invariants that need no reference: perft(1) equals the number of legal moves,
  and mirroring the board (swapping the rows, the stores and the side to move)
  leaves every count unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from mancala.games import PRESETS
from mancala.games.kalah import Kalah, KalahRules

pyspiel = pytest.importorskip("pyspiel")

#: perft(0..7) of Kalah(6,4), standard rules, from the start (computed with pyspiel)
STANDARD_PERFT = (1, 6, 35, 185, 942, 4690, 23233, 114430)


# --- the engine's perft -------------------------------------------------------------------------


def perft(game, state, k: int) -> int:
    if k == 0:
        return 1
    if game.is_terminal(state):
        return 0
    return sum(perft(game, game.apply(state, m), k - 1) for m in game.legal_moves(state))


def leaves(game, state, k: int, out: Counter | None = None) -> Counter:
    """Every (board, seat to move) reached by exactly k moves, with multiplicity."""
    out = Counter() if out is None else out
    if k == 0:
        out[(state.board, state.seat)] += 1
    elif not game.is_terminal(state):
        for m in game.legal_moves(state):
            leaves(game, game.apply(state, m), k - 1, out)
    return out


# --- OpenSpiel ------------------------------------------------------------------------------------


def spiel_board(state) -> tuple[int, ...]:
    """OpenSpiel's board in our order: its cell 0 is player 1's store, 1..6 player 0's pits,
    7 player 0's store, 8..13 player 1's pits; ours starts at player 0's pit 1."""
    cells = [int(x) for x in state.observation_tensor(0)[:14]]
    return tuple(cells[1:14] + cells[0:1])


def spiel_perft(state, k: int) -> int:
    if k == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += spiel_perft(child, k - 1)
    return total


def spiel_leaves(state, k: int, out: Counter) -> Counter:
    """Like :func:`leaves`, but OpenSpiel does not sweep a finished board, so only
    unfinished leaves are collected (and finished ones counted apart)."""
    if k == 0:
        if state.is_terminal():
            out["finished"] += 1
        else:
            out[(spiel_board(state), state.current_player())] += 1
    elif not state.is_terminal():
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            spiel_leaves(child, k - 1, out)
    return out


# --- the reference Kalah ------------------------------------------------------------------------


class Ref:
    """One reference position: rows[seat] lists that seat's pits 1..n, stores[seat] its store."""

    __slots__ = ("rows", "stores", "seat", "first_move", "turns", "can_swap", "over")

    def __init__(self, rows, stores, seat, first_move=True, turns=0, can_swap=False, over=False):
        self.rows, self.stores, self.seat = rows, stores, seat
        self.first_move, self.turns, self.can_swap, self.over = first_move, turns, can_swap, over

    def key(self):
        return (tuple(self.rows[0]) + (self.stores[0],) + tuple(self.rows[1]) + (self.stores[1],), self.seat)


def ref_from_board(board, seat, ply=0, turns=0, swap_allowed=False) -> Ref:
    n = (len(board) - 2) // 2
    return Ref(
        [list(board[:n]), list(board[n + 1 : 2 * n + 1])],
        [board[n], board[2 * n + 1]],
        seat,
        ply == 0,
        turns,
        swap_allowed,
    )


def ref_children(rules: KalahRules, st: Ref) -> list[Ref]:
    if st.over:
        return []
    n = len(st.rows[0])
    me = st.seat
    out = []
    own = st.rows[me]
    if rules.sowing.value == "choice":
        least = 2 if max(own) >= 2 else 1
        starts = [(p, d) for p in range(n) if own[p] >= least for d in (1, -1)]
    else:
        starts = [(p, 1) for p in range(n) if own[p] > 0]
    for pit, direction in starts:
        out.append(ref_sow(rules, st, pit, direction))
    if st.can_swap:
        out.append(Ref([r[:] for r in st.rows], st.stores[:], me, False, st.turns + 1, False))
    return out


def ref_sow(rules: KalahRules, st: Ref, pit: int, direction: int) -> Ref:
    n = len(st.rows[0])
    me, you = st.seat, 1 - st.seat
    rows = [st.rows[0][:], st.rows[1][:]]
    stores = st.stores[:]
    # the ring the mover sows around, counter-clockwise: own pits, own store, opponent's
    # pits (the opponent's store is not on it)
    ring = [("pit", me, i) for i in range(n)] + [("store", me, 0)] + [("pit", you, i) for i in range(n)]
    hand = rows[me][pit]
    rows[me][pit] = 0
    at = pit
    while hand:
        at = (at + direction) % len(ring)
        if rules.skip_origin and at == pit:
            continue
        kind, side, i = ring[at]
        if kind == "store":
            stores[side] += 1
        else:
            rows[side][i] += 1
        hand -= 1
    kind, side, i = ring[at]
    extra = kind == "store" and not (rules.no_first_extra_turn and st.first_move)
    if kind == "pit" and side == me and rows[me][i] == 1 and rules.capture.value != "none":
        facing = n - 1 - i
        if rows[you][facing] > 0 or rules.empty_capture:
            stores[me] += rows[you][facing]
            rows[you][facing] = 0
            if rules.capture.value == "opposite+last":
                stores[me] += 1
                rows[me][i] = 0
    nxt = me if extra else you
    if rules.end.value == "either-row-empty":
        over = sum(rows[0]) == 0 or sum(rows[1]) == 0
    else:
        over = sum(rows[nxt]) == 0
    if over:
        for side in (0, 1):
            to = side if rules.remaining.value == "owner" else 1 - side
            stores[to] += sum(rows[side])
            rows[side] = [0] * n
    can_swap = rules.pie_rule and st.turns == 0 and not extra and not over
    return Ref(rows, stores, nxt, False, st.turns + (0 if extra else 1), can_swap, over)


def ref_perft(rules, st: Ref, k: int) -> int:
    if k == 0:
        return 1
    return sum(ref_perft(rules, c, k - 1) for c in ref_children(rules, st))


def ref_leaves(rules, st: Ref, k: int, out: Counter) -> Counter:
    if k == 0:
        out[st.key()] += 1
    else:
        for c in ref_children(rules, st):
            ref_leaves(rules, c, k - 1, out)
    return out


def ref_of(state) -> Ref:
    ref = ref_from_board(state.board, state.seat, state.ply, state.turns, state.swap_allowed)
    ref.over = state.finished
    return ref


# --- positions ------------------------------------------------------------------------------------


def walk(game, state, rng: random.Random, moves: int):
    """Play up to ``moves`` random moves (stopping before the game would end)."""
    for _ in range(moves):
        options = [m for m in game.legal_moves(state) if not game.is_terminal(game.apply(state, m))]
        if not options:
            break
        state = game.apply(state, rng.choice(options))
    return state


def positions(game, seed: int):
    """The start, two random middle-game positions, and one with a long lap to sow."""
    rng = random.Random(seed)
    start = game.initial_state()
    out = [start, walk(game, start, rng, 6), walk(game, start, rng, 15)]
    n = game.rules.pits
    big = [rng.randrange(0, 4) for _ in range(2 * n + 2)]
    big[rng.randrange(n)] = 2 * n + 1 + rng.randrange(2 * n + 3)  # one South pit laps the board
    big[n + 1 + rng.randrange(n)] = 4 * n + 3  # and one North pit twice
    out.append(game.position(big, 0))
    return out


# --- tests: the standard rules against OpenSpiel ---------------------------------------------


def test_standard_perft_from_the_start_matches_openspiel():
    spiel_start = pyspiel.load_game("mancala").new_initial_state()
    for k in range(7):
        assert spiel_perft(spiel_start, k) == STANDARD_PERFT[k]
    game = Kalah(PRESETS["standard"])
    start = game.initial_state()
    for k in range(7):
        assert perft(game, start, k) == STANDARD_PERFT[k], k


def test_reference_kalah_matches_openspiel_from_random_positions():
    """The reference sowing is trusted for the other presets only because it agrees with
    OpenSpiel here: same counts and same unfinished leaf positions."""
    rules = PRESETS["standard"]
    game = pyspiel.load_game("mancala")
    rng = random.Random(7)
    for length in (0, 3, 9, 17, 25):
        state = game.new_initial_state()
        for _ in range(length):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        ref = ref_from_board(spiel_board(state), state.current_player())
        for k in range(1, 5):
            assert ref_perft(rules, ref, k) == spiel_perft(state, k)
        theirs = spiel_leaves(state, 4, Counter())
        ours = ref_leaves(rules, ref, 4, Counter())
        finished = sum(c for key, c in ours.items() if not any(key[0][:6]) or not any(key[0][7:13]))
        unfinished = Counter({key: c for key, c in ours.items() if any(key[0][:6]) and any(key[0][7:13])})
        assert theirs.pop("finished", 0) == finished
        assert unfinished == theirs


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_perft_matches_the_reference_kalah(name):
    rules = PRESETS[name]
    game = Kalah(rules)
    depth = 3 if rules.sowing.value == "choice" or rules.pits > 6 else 4
    for state in positions(game, seed=len(name)):
        ref = ref_of(state)
        assert leaves(game, state, 2) == ref_leaves(rules, ref, 2, Counter())
        for k in range(1, depth + 1):
            assert perft(game, state, k) == ref_perft(rules, ref, k), (name, state.board, k)


OPTION_MIXES = [
    dict(capture="none", skip_origin=True, end="no-move"),
    dict(capture="opposite", empty_capture=True, remaining="opponent"),
    dict(empty_capture=True, skip_origin=True, end="no-move", remaining="opponent"),
    dict(sowing="choice", skip_origin=True, end="no-move"),
    dict(sowing="choice", capture="opposite+last", empty_capture=True, remaining="opponent"),
    dict(pie_rule=True, no_first_extra_turn=True, capture="none", first=1),
    dict(pie_rule=True, sowing="choice", end="no-move"),
]


@pytest.mark.parametrize("pits, seeds", [(1, 3), (2, 2), (3, 3), (4, 1), (5, 2)])
@pytest.mark.parametrize("mix", range(len(OPTION_MIXES)))
def test_perft_matches_the_reference_kalah_with_mixed_options(pits, seeds, mix):
    rules = KalahRules.from_dict({**OPTION_MIXES[mix], "pits": pits, "seeds": seeds})
    game = Kalah(rules)
    for state in positions(game, seed=pits * 10 + mix):
        ref = ref_of(state)
        assert leaves(game, state, 3) == ref_leaves(rules, ref, 3, Counter())
        for k in range(1, 5):
            assert perft(game, state, k) == ref_perft(rules, ref, k), (rules.describe(), state.board, k)


# --- tests: invariants ----------------------------------------------------------------------------


def mirrored(game, state):
    n = state.pits
    b = state.board
    return game.position(b[n + 1 :] + b[: n + 1], 1 - state.seat)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_perft_1_is_the_number_of_legal_moves(name):
    game = Kalah(PRESETS[name])
    for state in positions(game, seed=3):
        assert perft(game, state, 1) == len(game.legal_moves(state))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_perft_is_unchanged_by_mirroring_the_board(name):
    """South to move on a board counts exactly as North to move on the board turned round."""
    game = Kalah(PRESETS[name])
    depth = 3 if PRESETS[name].sowing.value == "choice" or PRESETS[name].pits > 6 else 4
    for state in positions(game, seed=11):
        state = game.position(state.board, state.seat)  # a fresh start: no swap, first move
        other = mirrored(game, state)
        for k in range(1, depth + 1):
            assert perft(game, state, k) == perft(game, other, k)


def test_ethiopian_perft_from_the_start_by_hand():
    """Kalah(6,4) Ethiopian: every pit holds 4, so 6 pits x 2 directions = 12 first moves;
    every reply also has 12 (North's pits still all hold 4 or more), and no first move
    ends in the store (4 seeds from pit 3 reach the store, but only sowing right: 3R)."""
    game = Kalah(PRESETS["ethiopian"])
    start = game.initial_state()
    assert perft(game, start, 1) == 12
    # 3R (pit 3 counter-clockwise) ends in the store: South moves again with pits 1, 2, 4, 5, 6
    # (2 seeds or more) x 2 directions = 10 moves; the other 11 first moves give North 12.
    assert perft(game, start, 2) == 11 * 12 + 10


def test_mankalah_perft_from_the_start_by_hand():
    """Kalah(7,7) with the pie rule: 7 first moves, none earns an extra turn (pit 1 would),
    then North has its 7 full pits or the swap."""
    game = Kalah(PRESETS["mankalah"])
    start = game.initial_state()
    assert perft(game, start, 1) == 7
    assert perft(game, start, 2) == 7 * 8
    no_pie = Kalah(replace(PRESETS["mankalah"], pie_rule=False))
    assert perft(no_pie, no_pie.initial_state(), 2) == 7 * 7
