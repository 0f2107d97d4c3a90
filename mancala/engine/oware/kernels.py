"""Numba-compiled Oware kernels: legal moves (must feed, grand slams), sowing (laps skip the
origin), capture chains, the ends of the game and the leaf evaluation.

The rules are those of :mod:`mancala.games.oware` (the reference: the same legal moves in
the same order, the same position after each move, the same ends and the same final count)
with every option of :class:`~mancala.games.oware.OwareRules` but ``skip_twelve`` and
``max_plies`` (see :func:`mancala.engine.oware.search.supports`).  ``tests/test_oware_engine.py``
checks them move for move on random games under every preset the engine plays.

A position is a 1-D ``int64`` array of ``S_SIZE`` cells (absolute, like the reference)::

    0 .. 2n-1    the houses in sowing order (South's 0..n-1, North's n..2n-1)
    S_STORE+p    seat p's store             S_SEAT      the seat to move
    S_PLY        moves played               S_FINISHED  1 once the game is over
    S_UNSCORED   seeds nobody scored        S_END       why it ended (``END_*``)
    S_CAPTURED   seeds the move that led here captured (a capture clears the repetition
                 history)

Rules are a small ``int64`` array (``R_*`` slots, built by :func:`mancala.engine.oware.rules.rules_array`).
A move is the board index of the house sown, as :class:`~mancala.games.oware.OwareMove`'s.

Repetition needs the positions since the last capture, which a position array does not
hold: :func:`play` leaves it to the caller (``repeated`` of :func:`settle`), so the search
keeps that history along its path.

(numba's cache of :mod:`mancala.engine.oware.search`, which compiles these kernels into its
own functions, does not notice an edit of this file: delete
``mancala/engine/oware/__pycache__/search.*.nb*`` after one.)
"""

from __future__ import annotations

from numba import njit

from mancala.evaluation.oware import HOUSE_CAP

# --- the position array -------------------------------------------------------
MAX_HOUSES = 12
S_STORE = 24
S_SEAT = 26
S_PLY = 27
S_FINISHED = 28
S_UNSCORED = 29
S_END = 30
S_CAPTURED = 31
S_SIZE = 32

# --- why a game ended (S_END) ------------------------------------------------------
END_NONE = 0
END_MAJORITY = 1
END_REPETITION = 2
END_NO_MOVE = 3
END_GRAND_SLAM = 4
#: the reference's names of the ends, by code
END_NAMES = (None, "majority", "repetition", "no-move", "grand-slam")

# --- the rules array ----------------------------------------------------------
R_HOUSES = 0  # houses per side
R_TOTAL = 1  # all the seeds of the game
R_SKIP_ORIGIN = 2  # a lap skips the origin
R_CAPTURE_MASK = 3  # bit c set: a house holding c seeds after the sowing is captured (c < 63)
R_MULTIPLE = 4  # the capture chain continues backwards
R_MUST_FEED = 5
R_GRAND_SLAM = 6  # GS_* code
R_CANNOT_MOVE = 7  # SEEDS_* code: where the seeds go when the mover has no legal move
R_REPETITION = 8  # REP_* code
R_MAJORITY = 9  # the game stops once a store holds more than half
R_SWEEP = 10  # the rows go to their owners at that stop too
R_SIZE = 12

# grand slam options (GrandSlam, in the reference's order)
GS_NO_CAPTURE = 0
GS_ILLEGAL = 1
GS_ILLEGAL_UNLESS_ONLY = 2
GS_CAPTURE_ALL = 3
GS_OPPONENT_TAKES_REST = 4
GS_LEAVE_LEFT = 5
GS_LEAVE_RIGHT = 6
# where seeds go at an end (EndSeeds); SEEDS_NONE: they stay on the board
SEEDS_OWN_ROW = 0
SEEDS_SPLIT = 1
SEEDS_UNSCORED = 2
SEEDS_NONE = 3
# repetition options (Repetition)
REP_OWN_ROW = 0
REP_SPLIT = 1
REP_NONE = 2

# --- evaluation weights (mancala.evaluation.oware.OwareWeights, in field order) ----
W_ROW = 0  # seeds in one's own row
W_TARGETS = 1  # opponent's houses holding 1 or 2 seeds (what a capture would find)
W_KROO = 2  # a house of 12 seeds or more (a lap that can capture on the way back)
W_EMPTY = 3  # opponent's empty houses (a player with few seeds in play runs out of moves)
W_THREAT = 4  # the most seeds the player to move can capture with one sowing
W_WAITING = 5  # ... and the side not to move could, were it its turn (counted against the mover)
W_SIZE = 6  # then, optionally, the house table (2n rows of HOUSE_CAP + 1 values, the mover's row first)
#: what a finished game is worth beyond its margin: every win ranks above every estimate
WIN = 1000.0

#: the most legal moves a position can have
MAX_MOVES = MAX_HOUSES


@njit(cache=True)
def sow(s, rules, origin, out):
    """Copy ``s`` into ``out`` and sow the seeds of house ``origin`` there (no capture yet).
    Returns the landing house.  A lap of 2n seeds or more skips the origin when the rules
    say so; the seeds are spread a whole lap at a time."""
    n2 = 2 * rules[R_HOUSES]
    for k in range(S_SIZE):
        out[k] = s[k]
    seeds = out[origin]
    out[origin] = 0
    cycle = n2 - 1 if rules[R_SKIP_ORIGIN] != 0 else n2
    laps = seeds // cycle
    rest = seeds - laps * cycle
    i = origin
    for k in range(cycle):
        i += 1
        if i == n2:
            i = 0
        out[i] += laps + (1 if k < rest else 0)
    landing = origin + 1 + (seeds - 1) % cycle
    return landing - n2 if landing >= n2 else landing


@njit(cache=True)
def capture_chain(out, rules, seat, landing):
    """The capture a sowing that ended on ``landing`` makes: (lowest house of the chain,
    number of houses); the chain runs from ``landing`` backwards through the opponent's
    row while each house holds a capture count.  (0, 0): no capture."""
    n = rules[R_HOUSES]
    lo = (1 - seat) * n
    mask = rules[R_CAPTURE_MASK]
    i = landing
    count = 0
    while lo <= i < lo + n:
        c = out[i]
        if c >= 63 or not (mask >> c) & 1:
            break
        count += 1
        i -= 1
        if rules[R_MULTIPLE] == 0:
            break
    return landing - count + 1, count


@njit(cache=True)
def seeds_in(out, first, count):
    """The seeds in cells ``first .. first + count - 1`` of ``out``."""
    total = 0
    for i in range(first, first + count):
        total += out[i]
    return total


@njit(cache=True)
def _row_seeds(s, n, seat):
    total = 0
    for i in range(seat * n, seat * n + n):
        total += s[i]
    return total


@njit(cache=True)
def slams(s, rules, house, scratch):
    """Whether sowing ``house`` would capture every seed of the opponent's row (a grand slam)."""
    seat = s[S_SEAT]
    landing = sow(s, rules, house, scratch)
    first, count = capture_chain(scratch, rules, seat, landing)
    return count > 0 and _row_seeds(scratch, rules[R_HOUSES], 1 - seat) == seeds_in(scratch, first, count)


@njit(cache=True)
def legal_moves(s, rules, moves, scratch, first_only):
    """The houses the player to move may sow, in the reference's order (``A``/``a`` first),
    written into ``moves``; returns their number (0 in a finished game).  Must feed: an
    opponent with an empty row must be given seeds.  Grand slams are filtered as the
    rules say.  With ``first_only`` it stops at the first legal house (a cheap "can move")."""
    if s[S_FINISHED] != 0:
        return 0
    n = rules[R_HOUSES]
    seat = s[S_SEAT]
    lo = seat * n
    right = lo + n - 1
    starving = rules[R_MUST_FEED] != 0 and _row_seeds(s, n, 1 - seat) == 0
    gs = rules[R_GRAND_SLAM]
    filter_slams = gs == GS_ILLEGAL or gs == GS_ILLEGAL_UNLESS_ONLY
    count = 0
    slam_count = 0
    for h in range(lo, lo + n):
        seeds = s[h]
        if seeds == 0 or (starving and h + seeds <= right):
            continue
        if filter_slams and slams(s, rules, h, scratch):
            if gs == GS_ILLEGAL:
                continue
            # illegal unless only: kept aside (negative) until we know whether a fair move exists
            moves[count] = -1 - h
            count += 1
            slam_count += 1
            continue
        moves[count] = h
        count += 1
        if first_only:
            return count
    if slam_count > 0:
        fair = count - slam_count
        if fair > 0:  # the grand slams are illegal: drop them, keeping the order
            k = 0
            for j in range(count):
                if moves[j] >= 0:
                    moves[k] = moves[j]
                    k += 1
            count = k
        else:
            for j in range(count):
                moves[j] = -1 - moves[j]
    return count


@njit(cache=True)
def finish(out, rules, end):
    """Make ``out`` a finished game that ended because of ``end`` (``END_*``), sharing the
    board's seeds out as the rules say for that end."""
    n2 = 2 * rules[R_HOUSES]
    n = rules[R_HOUSES]
    if end == END_MAJORITY:
        how = SEEDS_OWN_ROW if rules[R_SWEEP] != 0 else SEEDS_NONE
    elif end == END_REPETITION:
        how = SEEDS_SPLIT if rules[R_REPETITION] == REP_SPLIT else SEEDS_OWN_ROW
    elif end == END_NO_MOVE:
        how = rules[R_CANNOT_MOVE]
    else:
        how = SEEDS_NONE
    if how == SEEDS_OWN_ROW:
        out[S_STORE] += _row_seeds(out, n, 0)
        out[S_STORE + 1] += _row_seeds(out, n, 1)
    elif how == SEEDS_SPLIT:
        rest = _row_seeds(out, n, 0) + _row_seeds(out, n, 1)
        out[S_STORE] += rest // 2
        out[S_STORE + 1] += rest // 2
        out[S_UNSCORED] += rest % 2
    elif how == SEEDS_UNSCORED:
        out[S_UNSCORED] += _row_seeds(out, n, 0) + _row_seeds(out, n, 1)
    if how != SEEDS_NONE:
        for i in range(n2):
            out[i] = 0
    out[S_FINISHED] = 1
    out[S_END] = end


@njit(cache=True)
def play(s, rules, house, out):
    """Sow ``house`` (a legal move of ``s``) into ``out``: the capture chain, the grand slam
    option, the stores, the side to move and the ply, and the ends the move itself decides
    (a majority, a grand slam that hands the rest over).  Returns the seeds captured.
    The repetition and no-move ends are :func:`settle`'s (the first needs the history)."""
    n = rules[R_HOUSES]
    seat = s[S_SEAT]
    landing = sow(s, rules, house, out)
    first, count = capture_chain(out, rules, seat, landing)
    end = END_NONE
    if count > 0 and _row_seeds(out, n, 1 - seat) == seeds_in(out, first, count):
        gs = rules[R_GRAND_SLAM]
        if gs == GS_NO_CAPTURE:
            count = 0
        elif gs == GS_LEAVE_LEFT:  # the landing house (the chain's last) stays
            count -= 1
        elif gs == GS_LEAVE_RIGHT:  # the opponent's first house (the chain's lowest) stays
            first += 1
            count -= 1
        elif gs == GS_OPPONENT_TAKES_REST:
            end = END_GRAND_SLAM
    captured = 0
    for i in range(first, first + count):
        captured += out[i]
        out[i] = 0
    out[S_STORE + seat] += captured
    if end == END_GRAND_SLAM:
        out[S_STORE + 1 - seat] += _row_seeds(out, n, 0) + _row_seeds(out, n, 1)
        for i in range(2 * n):
            out[i] = 0
    out[S_SEAT] = 1 - seat
    out[S_PLY] = s[S_PLY] + 1
    out[S_CAPTURED] = captured
    out[S_FINISHED] = 0
    out[S_END] = END_NONE
    if end != END_NONE:
        finish(out, rules, end)
    elif rules[R_MAJORITY] != 0 and 2 * max(out[S_STORE], out[S_STORE + 1]) > rules[R_TOTAL]:
        finish(out, rules, END_MAJORITY)
    return captured


@njit(cache=True)
def settle(out, rules, repeated, moves, scratch):
    """After :func:`play`: end the game if the position repeats one since the last capture
    (``repeated``, the caller's test; ignored under repetition ``none``) or if the player to
    move now has no legal move, in the reference's order."""
    if out[S_FINISHED] != 0:
        return
    if repeated and rules[R_REPETITION] != REP_NONE:
        finish(out, rules, END_REPETITION)
    elif legal_moves(out, rules, moves, scratch, True) == 0:
        finish(out, rules, END_NO_MOVE)


@njit(cache=True)
def margin(s, rules):
    """The player to move's seeds minus the opponent's (:meth:`Oware.score`): the stores,
    plus each row once the game is over."""
    p = s[S_SEAT]
    m = s[S_STORE + p] - s[S_STORE + 1 - p]
    if s[S_FINISHED] != 0:
        n = rules[R_HOUSES]
        m += _row_seeds(s, n, p) - _row_seeds(s, n, 1 - p)
    return m


@njit(cache=True)
def terminal_value(s, rules):
    """A finished game's value for the player to move: its true final margin, plus ``WIN``
    for a win (minus for a loss), so that every win ranks above every estimate."""
    return margin_value(margin(s, rules))


@njit(cache=True)
def margin_value(m):
    """A final margin ``m`` on the search's scale: plus ``WIN`` for a win, minus for a loss
    (:func:`mancala.evaluation.oware.final_value`)."""
    if m > 0:
        return WIN + m
    if m < 0:
        return m - WIN
    return 0.0


@njit(cache=True)
def threat(s, rules, p):
    """The most seeds one sowing of seat ``p`` captures, by counting (no copy of the board):
    every non-empty house of ``p``'s row, must-feed aside; a capture of the opponent's whole
    row counts only under ``capture-all`` grand slams."""
    n = rules[R_HOUSES]
    p2 = 2 * n
    lo = (1 - p) * n
    mask = rules[R_CAPTURE_MASK]
    cycle = p2 - 1 if rules[R_SKIP_ORIGIN] != 0 else p2
    row = _row_seeds(s, n, 1 - p)
    most = 0
    for h in range(p * n, p * n + n):
        c = s[h]
        if c == 0:
            continue
        laps = c // cycle
        rest = c - laps * cycle
        landing = h + 1 + (c - 1) % cycle
        if landing >= p2:
            landing -= p2
        if not lo <= landing < lo + n:
            continue
        taken = 0
        sown = row + laps * n  # the opponent's row after the sowing
        for j in range(lo, lo + n):
            k = j - h - 1
            if k < 0:
                k += p2
            if k < rest:
                sown += 1
        i = landing
        while lo <= i < lo + n:
            k = i - h - 1
            if k < 0:
                k += p2
            x = s[i] + laps + (1 if k < rest else 0)
            if x >= 63 or not (mask >> x) & 1:
                break
            taken += x
            i -= 1
            if rules[R_MULTIPLE] == 0:
                break
        if taken == sown and rules[R_GRAND_SLAM] != GS_CAPTURE_ALL:
            taken = 0
        if taken > most:
            most = taken
    return most


@njit(cache=True)
def heuristic(s, rules, w):
    """The estimate of an unfinished position for the player to move: the store margin plus
    the weighted terms of :class:`mancala.evaluation.oware.OwareWeights` (each "mine minus the
    opponent's"; the same sums in the same order as the Python evaluation, so bit-equal)."""
    n = rules[R_HOUSES]
    p = s[S_SEAT]
    q = 1 - p
    score = float(s[S_STORE + p] - s[S_STORE + q])
    if w[W_ROW] != 0.0:
        score += w[W_ROW] * (_row_seeds(s, n, p) - _row_seeds(s, n, q))
    if w[W_TARGETS] != 0.0 or w[W_KROO] != 0.0 or w[W_EMPTY] != 0.0:
        mine_t = 0
        theirs_t = 0
        mine_k = 0
        theirs_k = 0
        mine_e = 0
        theirs_e = 0
        for k in range(n):
            a = s[p * n + k]
            b = s[q * n + k]
            if 1 <= b <= 2:
                mine_t += 1
            if 1 <= a <= 2:
                theirs_t += 1
            if a >= 12:
                mine_k += 1
            if b >= 12:
                theirs_k += 1
            if b == 0:
                mine_e += 1
            if a == 0:
                theirs_e += 1
        score += w[W_TARGETS] * (mine_t - theirs_t)
        score += w[W_KROO] * (mine_k - theirs_k)
        score += w[W_EMPTY] * (mine_e - theirs_e)
    if w[W_THREAT] != 0.0:
        score += w[W_THREAT] * threat(s, rules, p)
    if w[W_WAITING] != 0.0:
        score -= w[W_WAITING] * threat(s, rules, q)
    if w.shape[0] > W_SIZE:
        p2 = 2 * n
        for j in range(p2):
            house = p * n + j
            if house >= p2:
                house -= p2
            c = min(s[house], HOUSE_CAP)
            score += w[W_SIZE + j * (HOUSE_CAP + 1) + c]
    return score


@njit(cache=True)
def evaluate(s, rules, w):
    """The value of ``s`` for the player to move: :func:`terminal_value` for a finished game,
    else :func:`heuristic`."""
    if s[S_FINISHED] != 0:
        return terminal_value(s, rules)
    return heuristic(s, rules, w)
