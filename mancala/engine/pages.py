"""Big arrays backed by huge pages where the system offers them.

The engine's transposition table and endgame databases are hundreds of megabytes,
touched at random.  Backed by ordinary 4 kB pages, a fresh table costs one page fault
per 4 kB on first touch (2.3 s for an 800 MB table on the machine these figures come
from, 1.1 s to read a 343 MB database) and one TLB miss per probe; backed by 2 MB
pages (Linux transparent huge pages, asked for with ``madvise``) the same fill takes
0.13 s.  Where ``madvise`` is missing (another system, an old Python) the arrays are
plain numpy arrays: only the speed differs, never the contents.
"""

from __future__ import annotations

import mmap

import numpy as np

#: below this many bytes an ordinary array is as good (one huge page is 2 MB)
HUGE_MIN_BYTES = 4 << 20


def zeros(shape, dtype) -> np.ndarray:
    """A zero-filled array of ``shape`` and ``dtype``, on huge pages when it is big enough
    and the system allows (anonymous memory is zero-filled by the kernel)."""
    dt = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64)) if np.ndim(shape) else int(shape)
    nbytes = count * dt.itemsize
    advise = getattr(mmap, "MADV_HUGEPAGE", None)
    if nbytes < HUGE_MIN_BYTES or advise is None or not hasattr(mmap, "MAP_ANONYMOUS"):
        return np.zeros(shape, dtype=dt)
    try:
        region = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        region.madvise(advise)
    except (OSError, ValueError):
        return np.zeros(shape, dtype=dt)
    # the array keeps the mapping alive (it holds the buffer); unmapped when both are gone
    return np.frombuffer(region, dtype=dt, count=count).reshape(shape)
