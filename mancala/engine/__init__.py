"""Our engines: the fast Kalah engine (numba kernels, MTD(f) search, an exact solver, endgame
databases: this package's modules), Bao's (:mod:`.bao`), Oware's (:mod:`.oware`) and Togyz
Kumalak's (:mod:`.togyz`), each registering what it does for its game in the engine-support
catalogue (:mod:`.support`).

Importing the package first drops numba's cache entries compiled from other engine sources
than these (:mod:`.cache_stamp`: numba itself would keep a search compiled with old kernels).
It loads no numba: the records are light, and the Kalah engine's public
entry points (see ``docs/engine.md``) load on first use:

* :func:`prepare` / :func:`is_prepared` — load the kernels and this rule set's tables
  before a clock starts (searches call it themselves; a UI calls it to say so);
* :func:`best_move` — iterative deepening within a time budget;
* :func:`solve` — the exact value, a best move and a perfect line;
* :func:`analyse` — a value for every legal move, and the best line;
* :func:`set_memory_limit` / :func:`memory_in_use` — the engine's memory bound.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from mancala.engine.cache_stamp import keep_in_step

keep_in_step()  # before anything compiles: numba's cache entries of older sources go (see the module)

from mancala.engine import record as _kalah_record  # noqa: E402, F401 (registers Kalah's engine)
from mancala.engine.bao import record as _bao_record  # noqa: E402, F401 (registers Bao's engine)
from mancala.engine.oware import record as _oware_record  # noqa: E402, F401 (registers Oware's engine)
from mancala.engine.togyz import record as _togyz_record  # noqa: E402, F401 (registers Togyz Kumalak's engine)

if TYPE_CHECKING:
    from mancala.engine.engine import best_move, is_prepared, prepare
    from mancala.engine.solver import Analysis, MoveValue, SolveResult, analyse, solve
    from mancala.engine.tables import memory_in_use, memory_limit, set_memory_limit

#: the public names, by the module that defines them (loaded on first use: numba)
_PUBLIC = {
    "best_move": "mancala.engine.engine",
    "prepare": "mancala.engine.engine",
    "is_prepared": "mancala.engine.engine",
    "set_memory_limit": "mancala.engine.tables",
    "memory_limit": "mancala.engine.tables",
    "memory_in_use": "mancala.engine.tables",
    "solve": "mancala.engine.solver",
    "analyse": "mancala.engine.solver",
    "SolveResult": "mancala.engine.solver",
    "Analysis": "mancala.engine.solver",
    "MoveValue": "mancala.engine.solver",
}

__all__ = [
    "best_move",
    "prepare",
    "is_prepared",
    "solve",
    "analyse",
    "SolveResult",
    "Analysis",
    "MoveValue",
    "set_memory_limit",
    "memory_limit",
    "memory_in_use",
]


def __getattr__(name: str) -> Any:
    """A public name of the Kalah engine, its module loaded on first use."""
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)
