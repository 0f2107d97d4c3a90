"""Kalah's endgame databases (:mod:`mancala.engine.endgame`) as an engine's endgame tables
(:class:`mancala.engine.support.TableModule`): what a background build on first use
(:mod:`mancala.engine.table_builds`, issue 29 item 4) asks of them.

The players search with the database of :func:`~mancala.engine.endgame.play_seeds` (K = 16
for six pits, built in 1.3 s of one core before the first search), or with the largest one
already in the cache that fits the memory bound (:func:`mancala.engine.tables.database`).  A larger
one makes the proofs near the end come much sooner: at the positions where ``best`` at about
a second a move (2 M nodes) dropped points against the solver, K = 20 (226 M positions,
135 MB, about 10 s on two cores) let it prove or keep the exact value at every one
(docs/engine.md, "Dropped points").  So the first time a person plays a level that reads it,
K = :data:`BACKGROUND_SEEDS` is built in the background while play goes on.

A Kalah database is one file of every level ``0..K`` (a *tier* here is a level: the
positions with that many seeds in the pits): the progress counts levels as they are solved,
but the players read the new database only once its file is whole.  A build stopped midway
keeps nothing; the next one starts again (from the largest smaller file of the same entry
width, as :func:`~mancala.engine.endgame.obtain` always does).  ``mancala db build|check
--game kalah`` has its own path (:mod:`mancala.cli.db`: also on Ray), so the protocol's
``check_sample`` is not here."""

from __future__ import annotations

from math import comb
from pathlib import Path
from typing import Callable

from mancala.engine import bridge, endgame, tables
from mancala.engine.retrograde import TierReport
from mancala.errors import BadInput
from mancala.games.kalah import Kalah, KalahRules

TITLE = "Kalah"
UNIT = "seeds"
#: the size built in the background: the database a large solve builds too
#: (:data:`mancala.engine.endgame.SHARED_SEEDS`), about 10 s of two cores for six pits
BACKGROUND_SEEDS = endgame.SHARED_SEEDS


def has_tables(rules: KalahRules) -> bool:
    """Whether these rules have endgame databases: not when a position can come back
    (:attr:`KalahRules.positions_can_repeat`), as its level would not be acyclic."""
    return not rules.positions_can_repeat


def check_rules(rules: KalahRules, size: int) -> None:
    """Raise :class:`BadInput` (one line) when no database of ``size`` seeds is built for ``rules``."""
    if not has_tables(rules):
        raise BadInput("no Kalah endgame database under the choice-of-direction rule: its levels are not acyclic")
    if not 0 <= size <= endgame.MAX_K:
        raise BadInput(f"the seeds of a Kalah endgame database must be 0-{endgame.MAX_K}, got {size}")


def memory_limit() -> int:
    """Bytes a database of one rule set may take: its share of the engine's memory bound
    (:func:`mancala.engine.tables.database_room`), which the players must be able to load."""
    return tables.database_room()


def memory_needed(rules: KalahRules, size: int) -> int:
    """Bytes a build of ``size`` seeds needs at most: the packed database and the largest
    level's scratch (a signed byte a position)."""
    return endgame.nbytes(rules.pits, size) + tier_positions(rules, size)


def largest_buildable(rules: KalahRules, up_to: int) -> int:
    """The most seeds of a database built on first use for ``rules`` (the record's
    ``table_build``): at most ``up_to``, the rules' seeds on the board (a larger database holds
    nothing more) and the shared database's positions
    (:func:`~mancala.engine.endgame.shared_seeds`), and within the players' memory share; never
    less than the players' own K, which they build before their first search anyway
    (four pits or fewer: the build then finds it there, or makes the same file); -1 when none."""
    if not has_tables(rules):
        return -1
    room = memory_limit()
    total = sum(Kalah(rules).initial_state().board)
    k = endgame.shared_seeds(rules.pits, min(up_to, total), room)
    if endgame.nbytes(rules.pits, k) > room:
        k = -1
    own = min(endgame.players_seeds(rules.pits, total), total)
    return max(k, own) if endgame.nbytes(rules.pits, own) <= room else k


def seeds_on_disk(rules: KalahRules) -> int:
    """The seeds of the largest intact-looking database in the cache for ``rules`` that the
    players' memory share holds (-1: none): what :func:`mancala.engine.tables.database` loads."""
    if not has_tables(rules):
        return -1
    k = endgame.cached_seeds(bridge.play_key(rules), rules.pits, memory_limit())
    return k if k > 0 else -1


def tier_path(rules: KalahRules, tier: int) -> Path:
    """The cache file of the database of ``tier`` seeds (a Kalah database is one file)."""
    return endgame.cache_dir() / endgame.file_name(bridge.play_key(rules), tier)


def tier_positions(rules: KalahRules, tier: int) -> int:
    """The positions of level ``tier``: ``tier`` seeds over the ``2 x pits`` pits."""
    parts = 2 * rules.pits
    return comb(tier + parts - 1, parts - 1)


def build(
    rules: KalahRules, size: int, progress: bool | Callable[[TierReport], None] | None = None, memory: int | None = None
) -> endgame.Database:
    """The database of ``size`` seeds for ``rules``: from the cache, else built and saved
    (:func:`mancala.engine.endgame.obtain`); ``progress``, a callable, hears of each level
    (a :class:`~mancala.engine.retrograde.TierReport`), True draws a bar on a terminal."""
    check_rules(rules, size)
    need = memory_needed(rules, size)
    if memory is not None and need > memory:
        raise BadInput(f"the {size}-seed Kalah endgame database needs {need / 2**30:.2f} GiB, more than the bound")
    report = None
    if callable(progress):
        hear = progress

        def report(level: int, positions: int, seconds: float, loaded: bool) -> None:
            hear(TierReport(level, positions, seconds, loaded))

    return endgame.obtain(
        bridge.play_key(rules), bridge.rules_array(rules), size, progress=progress is True, report=report
    )


def load(rules: KalahRules, size: int) -> endgame.Database | None:
    """The database of ``size`` seeds from the cache, or None when it is not there whole."""
    check_rules(rules, size)
    return endgame.cached(bridge.play_key(rules), rules.pits, size)
