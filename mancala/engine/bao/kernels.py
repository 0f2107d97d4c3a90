"""Numba-compiled Bao la Kiswahili kernels: move generation, move play, evaluation.

The rules are those of :mod:`mancala.games.bao` (the reference: same legal moves in
the same order, same resulting positions, same never-ending moves, found by the same
exact repetition test and the same ``max_laps`` bound), and the evaluation is
:mod:`mancala.evaluation.bao`'s, to the last bit.  ``tests/test_bao_engine.py``
checks both move for move on random games.

A position is a 1-D ``int64`` array of ``S_SIZE`` cells (absolute, not mover-relative,
because the evaluation and the takasia rule look at both sides)::

    0 .. 15    South's holes in South's clockwise order (A1..A8, B8..B1)
    16 .. 31   North's holes in North's clockwise order
    S_STOCK+p  player p's stock          S_OWNS+p   1 while p owns his nyumba
    S_PLAYER   the player to move        S_TAKASIA  his takasia'd front hole (-1: none)
    S_MUST     the hole he must capture (rule takasia_forces_capture; -1: none)
    S_PLY      moves played              S_WINNER   the winner of a game ended by a capture (-1)
    S_FINISHED 1 when the game ended by a capture or at the ply limit

Rules are a small ``int64`` array (``R_*`` slots, built by :mod:`mancala.engine.bao.search`).

A move is a code ``hole | CW_BIT * clockwise | HOUSE_BIT * house``; whether it captures
and whether it is a namua move follow from the position (all moves of a position share
them), so the code with the position names a :class:`mancala.games.bao.BaoMove`.
"""

from __future__ import annotations

from numba import njit

# --- the position array -------------------------------------------------------
S_STOCK = 32
S_OWNS = 34
S_PLAYER = 36
S_TAKASIA = 37
S_MUST = 38
S_PLY = 39
S_WINNER = 40
S_FINISHED = 41
S_SIZE = 42

# --- the rules array ----------------------------------------------------------
R_TAX_SMALL = 0  # tax_small_house
R_SINGLETONS = 1  # 0 owned, 1 functional, 2 any
R_MTAJI_HOUSE = 2  # 0 first-capture, 1 stock-empty, 2 until-emptied
R_TAKASIA = 3  # the takasia rule
R_EXEMPT = 4  # takasia_exempt_singletons
R_FORCES = 5  # takasia_forces_capture
R_MAX_PLIES = 6
R_MAX_LAPS = 7
R_SIZE = 8

# --- evaluation weights (mancala.search.bao_eval.BaoWeights, in field order) ----
W_FRONT, W_BACK, W_STOCK, W_NAMUA_FRONT, W_THREAT_TO_MOVE, W_THREAT_WAITING, W_HOUSE, W_MOBILITY = range(8)
W_SIZE = 8
#: the value of a won game (minus the plies played), as in bao_eval
WIN = 10_000.0

# --- move codes -----------------------------------------------------------------
CW_BIT = 16
HOUSE_BIT = 32
#: the most legal moves a position can have (16 holes x 2 directions; namua: 24)
MAX_MOVES = 32

# --- simulate() results -----------------------------------------------------------
OK = 0
ENDLESS = 1  # the position repeated: the move never ends
ENDLESS_LIMIT = 2  # max_laps laps without ending or repeating: counted as never-ending

#: scratch cells simulate() needs (its ``ws`` argument)
WS_SIZE = 112
_ME, _OP, _ANCHOR, _SAVED = 0, 16, 32, 72


@njit(cache=True)
def _same(ws, base, j, d, own):
    """Whether the saved relay point at ``ws[base:]`` equals the current one."""
    if ws[base] != j or ws[base + 1] != d or ws[base + 2] != own:
        return False
    for k in range(32):
        if ws[base + 3 + k] != ws[_ME + k]:
            return False
    return True


@njit(cache=True)
def _save(ws, base, j, d, own):
    ws[base] = j
    ws[base + 1] = d
    ws[base + 2] = own
    for k in range(32):
        ws[base + 3 + k] = ws[_ME + k]


@njit(cache=True)
def capture_target(s, m, o, i, d):
    """The front hole of the opponent (row at ``o``, his numbering) that a first lap of
    2..15 seeds from hole ``i`` of the mover's row (at ``m``) in direction ``d`` captures,
    or -1."""
    n = s[m + i]
    if n < 2 or n > 15:
        return -1
    j = (i + d * n) & 15
    if j < 8 and s[m + j] != 0 and s[o + 7 - j] != 0:
        return 7 - j
    return -1


@njit(cache=True)
def mtaji_targets(s, mover, other):
    """Bit mask of ``other``'s front holes (his numbering) that ``mover`` could capture
    with a first lap of 2..15 seeds in either direction."""
    m = mover * 16
    o = other * 16
    mask = 0
    for i in range(16):
        for d in (-1, 1):
            t = capture_target(s, m, o, i, d)
            if t >= 0:
                mask |= 1 << t
    return mask


@njit(cache=True)
def _takasia_target(out, rules, x, y):
    """After X's takasa (board ``out``): Y's takasia'd front hole, or -1 (rules §11)."""
    if mtaji_targets(out, y, x) != 0:
        return -1
    mask = mtaji_targets(out, x, y)
    if mask == 0 or (mask & (mask - 1)) != 0:
        return -1
    t = 0
    while not (mask >> t) & 1:
        t += 1
    b = y * 16
    if t == 4 and out[S_OWNS + y] != 0:
        return -1
    only_occupied = True
    only_two = True
    for k in range(8):
        if k != t:
            if out[b + k] != 0:
                only_occupied = False
            if out[b + k] >= 2:
                only_two = False
    if only_occupied:
        return -1
    if only_two and out[b + t] >= 2:
        return -1
    if out[b + t] == 1 and rules[R_EXEMPT] != 0:
        return -1
    return t


@njit(cache=True)
def simulate(s, rules, hole, d, house, capture, out, ws):
    """Play the move (``hole``, direction ``d`` = +1/-1, ``house``, ``capture``) from ``s``
    (assumed to meet the start conditions, as the reference's ``_simulate``) and write the
    position after it into ``out``.  Returns (status, decision): ``OK`` or ``ENDLESS`` /
    ``ENDLESS_LIMIT``; ``decision``: the move reached the functional nyumba in a namua
    capture (stop or play the house)."""
    p = s[S_PLAYER]
    q = 1 - p
    for k in range(16):
        ws[_ME + k] = s[p * 16 + k]
        ws[_OP + k] = s[q * 16 + k]
    own_p = s[S_OWNS + p]
    own_q = s[S_OWNS + q]
    namua = s[S_STOCK + p] > 0
    if not namua and capture and rules[R_MTAJI_HOUSE] == 0:
        own_p = 0
        own_q = 0
    decision = False
    winner = -1
    i = hole
    # kinds: 0 sow/tax/relay/house, 1 capture
    kind_capture = False
    if namua:
        ws[_ME + i] += 1
    if namua and capture:
        t = 7 - i
        n = ws[_OP + t]
        ws[_OP + t] = 0
        if t == 4:
            own_q = 0
        kind_capture = True
        start = (0 if d == 1 else 7) - d
    else:
        tax = False
        if namua and i == 4 and s[S_OWNS + p] != 0:
            if s[p * 16 + 4] >= 6:
                tax = True
            elif rules[R_TAX_SMALL] != 0:
                tax = True
                for k in range(8):
                    if k != 4 and ws[_ME + k] != 0:
                        tax = False
        if tax:
            n = 2
            ws[_ME + 4] -= 2
            if ws[_ME + 4] == 0:
                own_p = 0
        else:
            n = ws[_ME + i]
            ws[_ME + i] = 0
            if i == 4:
                own_p = 0
        start = i
    takasia = s[S_TAKASIA]
    anchor_set = False
    saved_set = False
    check_at = 1
    relays = 0
    laps = 0
    max_laps = rules[R_MAX_LAPS]
    j = 0
    while True:
        if n >= 16:
            full = n // 16
            rest = n - 16 * full
            for k in range(16):
                ws[_ME + k] += full
            pos = start
            for _ in range(rest):
                pos = (pos + d) & 15
                ws[_ME + pos] += 1
            if rest == 0:
                pos = start & 15
        elif d == 1:
            for k in range(start + 1, start + n + 1):
                ws[_ME + (k & 15)] += 1
            pos = (start + n) & 15
        else:
            for k in range(start - n, start):
                ws[_ME + (k & 15)] += 1
            pos = (start - n) & 15
        j = pos
        laps += 1
        if kind_capture:
            empty = True
            for k in range(8):
                if ws[_OP + k] != 0:
                    empty = False
                    break
            if empty:
                winner = p
                break
        if ws[_ME + j] == 1:
            break
        if capture and j < 8 and ws[_OP + 7 - j] != 0:
            t = 7 - j
            n = ws[_OP + t]
            ws[_OP + t] = 0
            if t == 4:
                own_q = 0
            if j <= 1:
                d = 1
            elif j >= 6:
                d = -1
            kind_capture = True
            start = (0 if d == 1 else 7) - d
            anchor_set = False
            continue
        kind_capture = False
        if namua and j == 4 and own_p != 0 and ws[_ME + 4] >= 6:
            if not capture:
                break
            decision = True
            if not house:
                break
            anchor_set = False
        elif not capture and j == takasia:
            break
        if not anchor_set:
            _save(ws, _ANCHOR, j, d, own_p)
            anchor_set = True
        elif _same(ws, _ANCHOR, j, d, own_p):
            return ENDLESS, decision
        relays += 1
        if saved_set and _same(ws, _SAVED, j, d, own_p):
            return ENDLESS, decision
        if max_laps > 0 and laps >= max_laps:
            return ENDLESS_LIMIT, decision
        if relays == check_at:
            _save(ws, _SAVED, j, d, own_p)
            saved_set = True
            check_at *= 2
        n = ws[_ME + j]
        ws[_ME + j] = 0
        if j == 4:
            own_p = 0
        start = j

    if namua and rules[R_MTAJI_HOUSE] == 1 and s[S_STOCK + p] == 1:
        own_p = 0
    # the position after the move (the reference's _build)
    for k in range(16):
        out[p * 16 + k] = ws[_ME + k]
        out[q * 16 + k] = ws[_OP + k]
    out[S_STOCK + p] = s[S_STOCK + p] - 1 if s[S_STOCK + p] > 0 else 0
    out[S_STOCK + q] = s[S_STOCK + q]
    out[S_OWNS + p] = own_p
    out[S_OWNS + q] = own_q
    out[S_PLAYER] = q
    tk = -1
    must = -1
    if winner < 0:
        if not capture and rules[R_TAKASIA] != 0 and out[S_STOCK] == 0 and out[S_STOCK + 1] == 0:
            tk = _takasia_target(out, rules, p, q)
        if rules[R_FORCES] != 0 and takasia >= 0:
            must = takasia
        front = False
        for k in range(8):
            if ws[_ME + k] != 0:
                front = True
                break
        if not front:
            winner = q
    out[S_TAKASIA] = tk
    out[S_MUST] = must
    ply = s[S_PLY] + 1
    out[S_PLY] = ply
    out[S_WINNER] = winner
    finished = winner >= 0
    if not finished and rules[R_MAX_PLIES] > 0 and ply >= rules[R_MAX_PLIES]:
        finished = True
    out[S_FINISHED] = 1 if finished else 0
    return OK, decision


@njit(cache=True)
def _try(s, rules, hole, d, house, capture, codes, children, k, endless, ne, ws):
    """Simulate one candidate; on success record it at ``k``.  Returns (k, ne, decision)."""
    status, decision = simulate(s, rules, hole, d, house, capture, children[k], ws)
    code = hole | (CW_BIT if d == 1 else 0) | (HOUSE_BIT if house else 0)
    if status != OK:
        if ne < endless.shape[0]:
            endless[ne] = code | (status << 8)
        return k, ne + 1, decision
    if house and not decision:
        return k, ne, decision
    codes[k] = code
    return k + 1, ne, decision


@njit(cache=True)
def gen_moves(s, rules, codes, children, endless, ws, first_only):
    """Every legal move of ``s`` in the reference's order: codes into ``codes``, the
    positions after them into ``children`` rows.  Never-ending candidates go into
    ``endless`` (``code | status << 8``).  Returns (count, never-ending count, capture).
    With ``first_only`` it stops at the first legal move (a cheap "can move" test)."""
    k = 0
    ne = 0
    if s[S_FINISHED] != 0:
        return 0, 0, False
    p = s[S_PLAYER]
    q = 1 - p
    m = p * 16
    o = q * 16
    if s[S_STOCK + p] > 0:
        any_cap = False
        for i in range(8):
            if s[m + i] != 0 and s[o + 7 - i] != 0:
                any_cap = True
                break
        if any_cap:
            for i in range(8):
                if s[m + i] != 0 and s[o + 7 - i] != 0:
                    for di in range(2):
                        if i <= 1:
                            if di == 1:
                                continue
                            d = 1
                        elif i >= 6:
                            if di == 1:
                                continue
                            d = -1
                        else:
                            d = 1 if di == 0 else -1
                        before = k
                        k, ne, decision = _try(s, rules, i, d, False, True, codes, children, k, endless, ne, ws)
                        if first_only and k > 0:
                            return k, ne, True
                        if k > before and decision:
                            k, ne, decision = _try(s, rules, i, d, True, True, codes, children, k, endless, ne, ws)
            return k, ne, True
        n_occ = 0
        all_single = True
        for i in range(8):
            if s[m + i] != 0:
                n_occ += 1
                if s[m + i] != 1:
                    all_single = False
        only0 = n_occ == 1 and s[m] != 0
        only7 = n_occ == 1 and s[m + 7] != 0
        functional = s[S_OWNS + p] != 0 and s[m + 4] >= 6
        free = n_occ == 1 or all_single
        rule = rules[R_SINGLETONS]
        singles_ok = rule == 2 or (rule == 0 and s[S_OWNS + p] != 0) or (rule == 1 and functional)
        for i in range(8):
            if s[m + i] == 0:
                continue
            if not free and ((i == 4 and functional) or not (s[m + i] >= 2 or singles_ok)):
                continue
            for d in (-1, 1):
                if (only0 and d == -1) or (only7 and d == 1):
                    continue
                k, ne, decision = _try(s, rules, i, d, False, False, codes, children, k, endless, ne, ws)
                if first_only and k > 0:
                    return k, ne, False
        return k, ne, False

    # mtaji: captures first
    must = s[S_MUST]
    targets = mtaji_targets(s, p, q)
    must_found = must >= 0 and ((targets >> must) & 1) != 0
    if targets != 0:
        for i in range(16):
            for d in (-1, 1):
                t = capture_target(s, m, o, i, d)
                if t < 0 or (must_found and t != must):
                    continue
                k, ne, decision = _try(s, rules, i, d, False, True, codes, children, k, endless, ne, ws)
                if first_only and k > 0:
                    return k, ne, True
        return k, ne, True
    front_two = False
    n_occ = 0
    for i in range(8):
        if s[m + i] >= 2:
            front_two = True
        if s[m + i] != 0:
            n_occ += 1
    only0 = n_occ == 1 and s[m] != 0
    only7 = n_occ == 1 and s[m + 7] != 0
    lo, hi = (0, 8) if front_two else (8, 16)
    takasia = s[S_TAKASIA]
    for i in range(lo, hi):
        if s[m + i] < 2 or (front_two and i == takasia):
            continue
        for d in (-1, 1):
            if i < 8 and ((only0 and d == -1) or (only7 and d == 1)):
                continue
            k, ne, decision = _try(s, rules, i, d, False, False, codes, children, k, endless, ne, ws)
            if first_only and k > 0:
                return k, ne, False
    return k, ne, False


@njit(cache=True)
def _largest_target(s, me, op, namua):
    """The largest number of seeds ``me`` can capture with the first capture of a move."""
    m = me * 16
    o = op * 16
    best = 0
    if namua:
        for i in range(8):
            if s[m + i] != 0 and s[o + 7 - i] > best:
                best = s[o + 7 - i]
        return best
    for i in range(16):
        n = s[m + i]
        if 2 <= n <= 15:
            for d in (-1, 1):
                j = (i + d * n) & 15
                if j < 8 and s[m + j] != 0 and s[o + 7 - j] > best:
                    best = s[o + 7 - j]
    return best


@njit(cache=True)
def terminal_value(s, can_move):
    """The value of a finished game for the player to move (0.0 for a ply-limit draw);
    ``can_move`` False means the player to move has no legal move and loses."""
    if s[S_FINISHED] != 0:
        w = s[S_WINNER]
        if w < 0:
            return 0.0
        value = WIN - s[S_PLY]
        return value if w == s[S_PLAYER] else -value
    return -(WIN - s[S_PLY])


@njit(cache=True)
def heuristic(s, w):
    """bao_eval's score of an unfinished position for the player to move (bit-exact)."""
    p = s[S_PLAYER]
    q = 1 - p
    m = p * 16
    o = q * 16
    my_front = 0
    op_front = 0
    my_all = 0
    op_all = 0
    my_mob = 0
    op_mob = 0
    for k in range(16):
        a = s[m + k]
        b = s[o + k]
        my_all += a
        op_all += b
        if k < 8:
            my_front += a
            op_front += b
        if a >= 2:
            my_mob += 1
        if b >= 2:
            op_mob += 1
    score = (
        w[W_FRONT] * (my_front - op_front)
        + w[W_BACK] * ((my_all - my_front) - (op_all - op_front))
        + w[W_STOCK] * (s[S_STOCK + p] - s[S_STOCK + q])
    )
    if s[S_STOCK + p] != 0 or s[S_STOCK + q] != 0:
        score += w[W_NAMUA_FRONT] * (my_front - op_front)
        if w[W_HOUSE] != 0.0:
            fp = 1 if (s[S_OWNS + p] != 0 and s[m + 4] >= 6) else 0
            fq = 1 if (s[S_OWNS + q] != 0 and s[o + 4] >= 6) else 0
            score += w[W_HOUSE] * (fp - fq)
    if w[W_THREAT_TO_MOVE] != 0.0 or w[W_THREAT_WAITING] != 0.0:
        mine = _largest_target(s, p, q, s[S_STOCK + p] > 0)
        theirs = _largest_target(s, q, p, s[S_STOCK + q] > 0)
        score += w[W_THREAT_TO_MOVE] * mine - w[W_THREAT_WAITING] * theirs
    if w[W_MOBILITY] != 0.0:
        score += w[W_MOBILITY] * (my_mob - op_mob)
    return score


@njit(cache=True)
def evaluate(s, rules, w, codes, children, endless, ws):
    """bao_eval's value of ``s`` for the player to move, terminal positions included
    (the "no legal move" test simulates candidates until one ends).  Returns
    (value, terminal)."""
    if s[S_FINISHED] != 0:
        return terminal_value(s, True), True
    k, ne, cap = gen_moves(s, rules, codes, children, endless, ws, True)
    if k == 0:
        return terminal_value(s, False), True
    return heuristic(s, w), False
