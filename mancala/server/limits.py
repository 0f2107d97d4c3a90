"""Rate limits: how many times one client may do a thing in a minute (``docs/protocol.md``,
"Limits"), on a clock that tests replace."""

from __future__ import annotations

import time
from collections import deque
from typing import Callable, Hashable


class RateLimit:
    """At most ``count`` events of each key (a client's address) in any ``window`` seconds:
    a sliding window over the times of its last events, read from ``clock``."""

    def __init__(self, count: int, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.count = count
        self.window = window
        self.clock = clock
        self._times: dict[Hashable, deque[float]] = {}

    def take(self, key: Hashable) -> float:
        """Count one event of ``key`` if it is within the limit and return 0; else count
        nothing and return the seconds until it would be."""
        now = self.clock()
        times = self._times.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.count:
            return max(0.0, times[0] + self.window - now)
        times.append(now)
        for other in [k for k, t in self._times.items() if not t or t[-1] <= now - self.window]:
            del self._times[other]  # keys quiet for a whole window: forgotten
        return 0.0


__all__ = ["RateLimit"]
