"""Numba-compiled Togyz Kumalak kernels: legal moves, sowing (the first stone back into the
origin, a single stone moving on, laps), stones into a tuzdik to its owner, the even capture,
the tuzdik and its three bans, the ends of the game, the leaf evaluation and perft.

The rules are those of :mod:`mancala.games.togyz` (the reference: the same legal moves in the
same order, the same position after each move, the same ends and the same final count) for
every board of 2-9 houses and every option of :class:`~mancala.games.togyz.TogyzRules` but
``max_plies`` (see :func:`mancala.engine.togyz.rules.supports`).  ``tests/test_togyz_engine.py``
checks them move for move on random games.

A position is a 1-D ``int64`` array of ``S_SIZE`` cells (absolute, like the reference)::

    0 .. 2n-1    the houses in sowing order (South's 0..n-1, North's n..2n-1); a tuzdik holds 0
    S_KAZAN+p    seat p's kazan             S_TUZ+p     seat p's tuzdik (a board index on the
                                                        opponent's row, or -1)
    S_SEAT       the seat to move           S_PLY       moves played
    S_FINISHED   1 once the game is over    S_END       why it ended (``END_*``)
    S_GAINED     stones the move that led here won by its last stone (a capture, or the 3 of
                 a tuzdik made): the search's move order

Rules are a small ``int64`` array (``R_*`` slots, :func:`mancala.engine.togyz.rules.rules_array`).
A move is the board index of the house sown, as :class:`~mancala.games.togyz.TogyzMove`'s.

(numba's cache of :mod:`mancala.engine.togyz.search`, which compiles these kernels into its
own functions, does not notice an edit of this file: delete
``mancala/engine/togyz/__pycache__/search.*.nb*`` after one.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

# --- the position array -------------------------------------------------------
MAX_HOUSES = 9
S_KAZAN = 18
S_TUZ = 20
S_SEAT = 22
S_PLY = 23
S_FINISHED = 24
S_END = 25
S_GAINED = 26
S_SIZE = 28

# --- why a game ended (S_END) ------------------------------------------------------
END_NONE = 0
END_MAJORITY = 1
END_NO_MOVE = 2
#: the reference's names of the ends, by code
END_NAMES = (None, "majority", "no-move")

# --- the rules array ----------------------------------------------------------
R_HOUSES = 0  # houses a side (2-9)
R_TOTAL = 1  # all the stones of the game
R_FORBID_LAST = 2  # no tuzdik in the opponent's last house
R_MAJORITY = 3  # the game stops once a kazan holds more than half
R_SIZE = 4

# --- evaluation weights (mancala.engine.togyz.search.TogyzWeights, in field order) ----
W_ROW = 0  # stones on one's own row (what a player can still sow, and takes if the other runs out)
W_MOVES = 1  # non-empty houses of one's own row (mobility)
W_TUZDIK = 2  # a tuzdik owned, scaled by the share of the stones still on the board
W_SIZE = 3
#: what a finished (or decided) game is worth beyond its margin: every win ranks above every estimate
WIN = 1000.0

#: the most legal moves a position can have
MAX_MOVES = MAX_HOUSES


@njit(cache=True)
def row_stones(s, n, seat):
    """The stones on ``seat``'s row."""
    total = 0
    for i in range(seat * n, seat * n + n):
        total += s[i]
    return total


@njit(cache=True)
def legal_moves(s, rules, moves):
    """The houses the player to move may sow (every house of its row holding stones, house 1
    first, as the reference), written into ``moves``; returns their number (0 in a finished
    game)."""
    if s[S_FINISHED] != 0:
        return 0
    n = rules[R_HOUSES]
    lo = s[S_SEAT] * n
    count = 0
    for h in range(lo, lo + n):
        if s[h] > 0:
            moves[count] = h
            count += 1
    return count


@njit(cache=True)
def landing_of(s, n2, origin):
    """The house the last stone sown from ``origin`` reaches."""
    count = s[origin]
    if count == 1:
        return origin + 1 if origin + 1 < n2 else 0
    return (origin + count - 1) % n2


@njit(cache=True)
def tuzdik_allowed(s, rules, seat, landing):
    """Whether 3 stones in ``landing`` (on the opponent's row) make ``seat``'s tuzdik: it has
    none yet, ``landing`` is not the last house (where the rules ban it), and the opponent's
    tuzdik is not the house of the same number."""
    n = rules[R_HOUSES]
    if s[S_TUZ + seat] != -1:
        return False
    if rules[R_FORBID_LAST] != 0 and landing % n == n - 1:
        return False
    other = s[S_TUZ + 1 - seat]
    return not (other != -1 and other % n == landing % n)


@njit(cache=True)
def finish(out, rules, end):
    """Make ``out`` a finished game that ended because of ``end``: a majority leaves the
    board as it is (the score adds each side's own row); a player with no stones to move
    leaves the rest to the other (each row to its owner's kazan)."""
    n = rules[R_HOUSES]
    if end == END_NO_MOVE:
        out[S_KAZAN] += row_stones(out, n, 0)
        out[S_KAZAN + 1] += row_stones(out, n, 1)
        for i in range(2 * n):
            out[i] = 0
    out[S_FINISHED] = 1
    out[S_END] = end


@njit(cache=True)
def play(s, rules, origin, out):
    """Sow ``origin`` (a legal move of ``s``) into ``out``: stones into a tuzdik to its
    owner's kazan, the even capture or the tuzdik of the last house, the side to move, the
    ply and the ends.  Returns the stones the last stone won (``out[S_GAINED]``)."""
    n = rules[R_HOUSES]
    n2 = 2 * n
    for k in range(S_SIZE):
        out[k] = s[k]
    seat = s[S_SEAT]
    count = out[origin]
    out[origin] = 0
    first = origin
    if count == 1:
        first = origin + 1 if origin + 1 < n2 else 0
    t0 = s[S_TUZ]
    t1 = s[S_TUZ + 1]
    laps = count // n2
    rest = count - laps * n2
    i = first
    for k in range(n2):
        add = laps + (1 if k < rest else 0)
        if add == 0:
            break
        if i == t0:
            out[S_KAZAN] += add
        elif i == t1:
            out[S_KAZAN + 1] += add
        else:
            out[i] += add
        i += 1
        if i == n2:
            i = 0
    landing = (first + count - 1) % n2
    gained = 0
    if landing // n != seat and landing != t0 and landing != t1:
        held = out[landing]
        if held % 2 == 0:
            gained = held
            out[landing] = 0
        elif held == 3 and tuzdik_allowed(s, rules, seat, landing):
            gained = 3
            out[landing] = 0
            out[S_TUZ + seat] = landing
        out[S_KAZAN + seat] += gained
    out[S_SEAT] = 1 - seat
    out[S_PLY] = s[S_PLY] + 1
    out[S_FINISHED] = 0
    out[S_END] = END_NONE
    out[S_GAINED] = gained
    if rules[R_MAJORITY] != 0 and 2 * max(out[S_KAZAN], out[S_KAZAN + 1]) > rules[R_TOTAL]:
        finish(out, rules, END_MAJORITY)
    elif row_stones(out, n, 1 - seat) == 0:
        finish(out, rules, END_NO_MOVE)
    return gained


@njit(cache=True)
def margin(s, rules):
    """The player to move's stones minus the opponent's (:meth:`TogyzKumalak.score`): the
    kazans, plus each row once the game is over."""
    p = s[S_SEAT]
    m = s[S_KAZAN + p] - s[S_KAZAN + 1 - p]
    if s[S_FINISHED] != 0:
        n = rules[R_HOUSES]
        m += row_stones(s, n, p) - row_stones(s, n, 1 - p)
    return m


@njit(cache=True)
def margin_value(m):
    """A final margin ``m`` on the search's scale: plus ``WIN`` for a win, minus for a loss."""
    if m > 0:
        return WIN + m
    if m < 0:
        return m - WIN
    return 0.0


@njit(cache=True)
def terminal_value(s, rules):
    """A finished game's value for the player to move: its final margin, plus ``WIN`` for a
    win (minus for a loss), so that every win ranks above every estimate."""
    return margin_value(margin(s, rules))


@njit(cache=True)
def heuristic(s, rules, w):
    """The estimate of an unfinished position for the player to move, kept simple:

    * the kazans' difference (stones won for good);
    * ``W_ROW`` x the difference of the stones on each side's own row;
    * ``W_MOVES`` x the difference of the non-empty houses of each row (mobility: a player
      with few houses to sow runs out of moves and gives the rest away);
    * ``W_TUZDIK`` x (a tuzdik of one's own minus the opponent's) x the share of the stones
      still on the board: a tuzdik collects a stone of every sowing that passes it, so it
      is worth a lot early and nothing once the board is empty.

    A kazan holding more than half of the stones has decided the game (kazans never lose
    stones): then ``WIN`` beyond the kazans' difference, as a finished game (under the
    ``stop_at_majority`` rules such a position is finished already)."""
    n = rules[R_HOUSES]
    p = s[S_SEAT]
    q = 1 - p
    total = rules[R_TOTAL]
    kp = s[S_KAZAN + p]
    kq = s[S_KAZAN + q]
    score = float(kp - kq)
    if 2 * kp > total:
        return WIN + score
    if 2 * kq > total:
        return score - WIN
    row_p = 0
    row_q = 0
    moves_p = 0
    moves_q = 0
    for k in range(n):
        a = s[p * n + k]
        b = s[q * n + k]
        row_p += a
        row_q += b
        if a > 0:
            moves_p += 1
        if b > 0:
            moves_q += 1
    score += w[W_ROW] * (row_p - row_q)
    score += w[W_MOVES] * (moves_p - moves_q)
    tuz = (1 if s[S_TUZ + p] != -1 else 0) - (1 if s[S_TUZ + q] != -1 else 0)
    if tuz != 0:
        score += w[W_TUZDIK] * tuz * (row_p + row_q) / total
    return score


@njit(cache=True)
def evaluate(s, rules, w):
    """The value of ``s`` for the player to move: :func:`terminal_value` for a finished game,
    else :func:`heuristic`."""
    if s[S_FINISHED] != 0:
        return terminal_value(s, rules)
    return heuristic(s, rules, w)


# --- perft ---------------------------------------------------------------------------------


@njit(cache=True)
def _perft(s, rules, depth, buf, mv):
    if depth == 0 or s[S_FINISHED] != 0:
        return 1
    moves = mv[depth]
    count = legal_moves(s, rules, moves)
    child = buf[depth]
    total = 0
    for k in range(count):
        play(s, rules, moves[k], child)
        if depth == 1:
            total += 1
        else:
            total += _perft(child, rules, depth - 1, buf, mv)
    return total


@njit(cache=True, nogil=True)
def perft(s, rules, depth):
    """The leaves of the move tree ``depth`` plies deep from ``s`` (a finished game is a
    leaf), as ``tests/test_togyz.py``'s perft counts them."""
    buf = np.zeros((depth + 1, S_SIZE), dtype=np.int64)
    mv = np.zeros((depth + 1, MAX_MOVES), dtype=np.int64)
    # typed (non-literal) arguments: literals in a recursive function's first call break numba's cache
    return _perft(s, rules, np.int64(depth), buf, mv)
