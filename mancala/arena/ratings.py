"""Ratings from game results: a Bradley–Terry model fitted on all games jointly, on the Elo scale.

Each player ``i`` has a strength ``theta_i``; the expected score of ``i`` against ``j`` is
``1 / (1 + exp(theta_j - theta_i))``.  A game scores 1, 1/2 or 0 for its first player, and
a draw counts as half a win for each side (the usual treatment in BayesElo-free fits).
The maximum-likelihood strengths are found by Newton's method; ratings are shown on the
Elo scale (``400 / ln 10`` per unit of ``theta``) and centred on a mean of 0.

The 95% intervals come from the observed information (the Hessian of the log-likelihood):
its pseudo-inverse is the covariance of the centred estimates, and each rating's interval
is ±1.96 standard deviations.  When one player won or lost every game the maximum is at
infinity; a small ``ridge`` penalty (a Gaussian prior on ``theta``) keeps it finite.

Hand check: two players, A scores 3 of 4 against B.  The fit gives p = 3/4, so the gap is
``400 log10(3) = 190.8`` Elo (A +95.4, B −95.4), and the gap's variance is
``1 / (n p (1-p)) = 4/3`` (natural units), an interval of ±1.96 · 200.6 / 2 for each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

#: Elo points per natural unit of strength
ELO = 400.0 / math.log(10.0)
#: two-sided 95% normal quantile
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Rating:
    """One player's fitted rating (Elo scale, mean 0) and its 95% interval half-width."""

    player: str
    elo: float
    interval: float
    games: int
    score: float

    @property
    def low(self) -> float:
        """Lower end of the 95% interval."""
        return self.elo - self.interval

    @property
    def high(self) -> float:
        """Upper end of the 95% interval."""
        return self.elo + self.interval


def fit_bradley_terry(
    players: Sequence[str], games: Iterable[tuple[str, str, float]], *, ridge: float = 0.0, iterations: int = 100
) -> list[Rating]:
    """Ratings of ``players`` from ``games`` ``(a, b, score of a)``; see the module doc.

    Players with no game keep rating 0 and an infinite interval.
    """
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    a_idx, b_idx, s = [], [], []
    for a, b, score in games:
        a_idx.append(index[a])
        b_idx.append(index[b])
        s.append(float(score))
    a_arr, b_arr, s_arr = np.array(a_idx, dtype=int), np.array(b_idx, dtype=int), np.array(s)
    theta = np.zeros(n)
    played = np.bincount(np.concatenate([a_arr, b_arr]), minlength=n) if len(s) else np.zeros(n, int)
    active = played > 0
    # the strengths are defined up to a common shift: fix it with the mean of the players who
    # played (J/k adds 1 to the Hessian's eigenvalue along that direction, which the gradient
    # never has), so the system is regular and inv(H + J/k) - J/k is the centred covariance
    k = max(int(active.sum()), 1)
    centre = np.outer(active, active) / k
    inactive = np.diag((~active).astype(float))
    hess = np.zeros((n, n))
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(theta[b_arr] - theta[a_arr]))
        grad = np.zeros(n)
        np.add.at(grad, a_arr, s_arr - p)
        np.add.at(grad, b_arr, p - s_arr)
        grad -= ridge * theta
        w = p * (1 - p)
        hess = np.zeros((n, n))
        np.add.at(hess, (a_arr, a_arr), w)
        np.add.at(hess, (b_arr, b_arr), w)
        np.add.at(hess, (a_arr, b_arr), -w)
        np.add.at(hess, (b_arr, a_arr), -w)
        hess += ridge * np.diag(active.astype(float))
        step = np.linalg.solve(hess + centre + inactive, grad)
        step = np.clip(step, -3.0, 3.0)
        theta = theta + step
        theta[active] -= theta[active].mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    cov = np.linalg.inv(hess + centre + inactive) - centre
    out = []
    for p_name, i in index.items():
        if not active[i]:
            out.append(Rating(p_name, 0.0, math.inf, 0, 0.0))
            continue
        mine = a_arr == i
        theirs = b_arr == i
        points = float(s_arr[mine].sum() + (1 - s_arr[theirs]).sum())
        out.append(
            Rating(
                p_name,
                float(theta[i] * ELO),
                float(Z95 * math.sqrt(max(cov[i, i], 0.0)) * ELO),
                int(played[i]),
                points / int(played[i]),
            )
        )
    return out


def needs_ridge(players: Sequence[str], games: Sequence[tuple[str, str, float]]) -> bool:
    """Whether the plain fit diverges: the maximum-likelihood ratings exist only when every
    group of players scored some point against the rest (Ford's condition: the graph "a took a
    point from b" is strongly connected among the players who played), not only when no
    single player won or lost every game."""
    took: dict[str, set[str]] = {p: set() for p in players}
    for a, b, s in games:
        if s > 0:
            took[a].add(b)
        if s < 1:
            took[b].add(a)
    active = [p for p in players if any(p in t for t in took.values()) or took[p]]
    if not active:
        return False

    def reach(start: str, edges: dict[str, set[str]]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for q in edges[todo.pop()] - seen:
                seen.add(q)
                todo.append(q)
        return seen

    back: dict[str, set[str]] = {p: set() for p in players}
    for a, bs in took.items():
        for b in bs:
            back[b].add(a)
    return not (set(active) <= reach(active[0], took) and set(active) <= reach(active[0], back))


def elo_difference(score: float) -> float:
    """The Elo gap that makes ``score`` (0..1, exclusive) the expected score."""
    return ELO * math.log(score / (1 - score))
