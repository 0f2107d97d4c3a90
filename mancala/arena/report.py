"""Reports of a tournament's results file: per-pairing tables, ratings and a plot.

``write_report(results, base)`` writes ``base.md`` (the tables, in Markdown) and
``base.png`` (ratings with 95% intervals beside the score matrix) and returns the text.

Only our own reports are ever replaced.  Each report carries a mark: the Markdown file's
first line is :data:`MD_MARK`, the PNG has a ``Software`` text chunk :data:`PNG_MARK`.
A file already at ``base.md`` or ``base.png`` without the mark is somebody else's, and
:func:`check_report_paths` (called before a tournament starts, and again before the
report is written) refuses with one line naming it: the user moves it away or chooses
another results name; we never write elsewhere behind their back.  Reports written
before the mark existed are still recognised: a Markdown file that starts with the
report's ``game:`` line and holds its pairing table, and a Matplotlib PNG beside such a
Markdown report.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from mancala.arena.match import Tally
from mancala.arena.ratings import Rating, fit_bradley_terry, needs_ridge
from mancala.atomic import StagedFile, file_head, refuse_foreign, write_atomically, write_problem
from mancala.errors import BadInput


@dataclass
class PairingSummary(Tally):
    """Totals of one pairing, from its first player's (``a``'s) side."""

    forfeits: int = 0

    @property
    def mean_margin(self) -> float:
        """a's mean final margin."""
        return self.margin / self.games if self.games else 0.0


def players_in(results: Sequence[dict]) -> list[str]:
    """The players, in order of first appearance."""
    seen: dict[str, None] = {}
    for r in results:
        for p in r["pairing"]:
            seen.setdefault(p, None)
    return list(seen)


def summarize(results: Sequence[dict]) -> list[PairingSummary]:
    """One summary per pairing, in order of first appearance."""
    table: dict[tuple[str, str], PairingSummary] = {}
    for r in results:
        a, b = r["pairing"]
        s = table.setdefault((a, b), PairingSummary(a, b))
        pts = r["points_a"]
        if pts == 1:
            s.wins += 1
        elif pts == 0:
            s.losses += 1
        else:
            s.draws += 1
        s.margin += r.get("margin_a", 0)
        s.forfeits += r.get("forfeit") is not None
    return list(table.values())


def ratings(results: Sequence[dict]) -> tuple[list[Rating], float]:
    """Bradley–Terry ratings of every player (see :mod:`mancala.arena.ratings`) and the ridge used."""
    players = players_in(results)
    games = [(r["pairing"][0], r["pairing"][1], r["points_a"]) for r in results]
    ridge = 0.01 if needs_ridge(players, games) else 0.0
    return fit_bradley_terry(players, games, ridge=ridge), ridge


def score_matrix(results: Sequence[dict], players: Sequence[str]) -> list[list[float | None]]:
    """``m[i][j]``: player i's score against player j (None when they did not meet)."""
    pts: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
    for r in results:
        a, b = r["pairing"]
        pts[a, b][0] += r["points_a"]
        pts[a, b][1] += 1
        pts[b, a][0] += 1 - r["points_a"]
        pts[b, a][1] += 1
    return [[(pts[p, q][0] / pts[p, q][1]) if pts[p, q][1] else None for q in players] for p in players]


def report_text(results: Sequence[dict]) -> str:
    """The report in Markdown: pairings (W/D/L, score, mean margin) and ratings."""
    if not results:
        return "no games yet\n"
    games = sorted({r["game"] for r in results})
    machines = sorted({(r.get("machine") or {}).get("host", "?") for r in results})
    loads = [float(x) for r in results if (x := (r.get("machine") or {}).get("load")) is not None]
    lines = [
        f"game: {', '.join(games)}; {len(results)} games"
        + (f"; machine load average {min(loads):.1f}-{max(loads):.1f}" if loads else "")
        + f"; hosts: {', '.join(machines)}",
        "",
    ]
    lines += [
        "| pairing (A vs B) | games | A wins | draws | B wins | A's score | A's mean margin | forfeits |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for s in summarize(results):
        lines.append(
            f"| `{s.a}` vs `{s.b}` | {s.games} | {s.wins} | {s.draws} | {s.losses} | "
            f"{100 * s.score:.1f}% | {s.mean_margin:+.2f} | {s.forfeits} |"
        )
    rated, ridge = ratings(results)
    lines += ["", "| rank | player | Elo (mean 0) | 95% interval | games | score |", "|---|---|---|---|---|---|"]
    for rank, r in enumerate(sorted(rated, key=lambda r: -r.elo), 1):
        lines.append(
            f"| {rank} | `{r.player}` | {r.elo:+.0f} | {r.low:+.0f} .. {r.high:+.0f} | {r.games} | "
            f"{100 * r.score:.1f}% |"
        )
    lines.append("")
    lines.append(
        "Bradley–Terry fitted on all games jointly (draw = half a win), Elo scale, "
        "95% intervals from the Hessian"
        + (f"; ridge {ridge:g} (some players won or lost every game against the rest)" if ridge else "")
        + "."
    )
    return "\n".join(lines) + "\n"


def plot(results: Sequence[dict], path: str | os.PathLike, title: str = "") -> None:
    """A PNG: ratings with 95% intervals (left) and the score matrix (right)."""
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    rated, _ = ratings(results)
    order = sorted(rated, key=lambda r: r.elo)
    names = [r.player for r in order]
    n = len(names)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(7 + 0.9 * n, 1.6 + 0.55 * n), gridspec_kw={"width_ratios": [1, 1.1]})
    ys = range(n)
    ax1.errorbar(
        [r.elo for r in order], ys, xerr=[min(r.interval, 5000) for r in order], fmt="o", capsize=4, color="tab:blue"
    )
    ax1.set_yticks(list(ys))
    ax1.set_yticklabels([f"{n - i}. {p}" for i, p in enumerate(names)], fontsize=8)
    ax1.set_xlabel("Elo (Bradley–Terry, mean 0), 95% interval")
    ax1.axvline(0, color="grey", lw=0.5)
    ax1.grid(axis="x", alpha=0.3)
    matrix = score_matrix(results, names[::-1])
    import numpy as np  # noqa: PLC0415

    data = np.array([[np.nan if v is None else v for v in row] for row in matrix])
    im = ax2.imshow(data, cmap="RdYlGn", vmin=0, vmax=1)
    ax2.set_xticks(range(n))
    ax2.set_yticks(range(n))
    short = [f"{i + 1}" for i in range(n)]
    ax2.set_xticklabels(short)
    ax2.set_yticklabels(short)
    ax2.set_xlabel("opponent")
    ax2.set_ylabel("player (numbered as on the left)")
    for i in range(n):
        for j in range(n):
            if not np.isnan(data[i, j]):
                ax2.text(j, i, f"{100 * data[i, j]:.0f}", ha="center", va="center", fontsize=7)
    fig.colorbar(im, ax=ax2, fraction=0.046, label="row player's score")
    fig.suptitle(title or f"{', '.join(sorted({r['game'] for r in results}))}: {len(results)} games", fontsize=10)
    fig.tight_layout()
    try:
        with StagedFile(path, binary=True) as staged:
            fig.savefig(staged.stream, format="png", dpi=110, metadata={"Software": PNG_MARK})
            staged.commit()
    finally:
        plt.close(fig)


#: the first line of every Markdown report (the mark that it is ours to rewrite)
MD_MARK = "<!-- written by mancala arena: rewritten on every run of the tournament -->"
#: the ``Software`` text chunk of every report plot
PNG_MARK = "mancala arena"
#: the header of the pairing table, by which reports older than the mark are recognised
_MD_TABLE = "| pairing (A vs B) |"


def _our_markdown(path: Path) -> bool:
    """Whether the Markdown file ``path`` is a report of ours (marked, or an older one)."""
    head = file_head(path).decode("utf-8", "replace")
    return head.startswith(MD_MARK) or (head.startswith("game: ") and _MD_TABLE in head)


def _our_plot(path: Path, md: Path) -> bool:
    """Whether the PNG ``path`` is a report plot of ours (marked, or a Matplotlib plot
    beside a Markdown report of ours, as older versions wrote them)."""
    head = file_head(path, 8192)
    if not head.startswith(b"\x89PNG"):
        return False
    if b"Software\x00" + PNG_MARK.encode() in head:
        return True
    return b"Software\x00Matplotlib" in head and md.is_file() and _our_markdown(md)


def check_report_paths(results_path: str | os.PathLike) -> None:
    """Raise :class:`BadInput` (one line) when a report file of ``results_path`` (see
    :func:`report_paths`) already exists and is not a report of ours, or cannot be read."""
    md, png = report_paths(results_path)
    what, instead = "a report written by mancala arena", "give the results file another name"
    refuse_foreign(md, _our_markdown, what, instead)
    refuse_foreign(png, lambda path: _our_plot(path, md), what, instead)


def report_paths(results_path: str | os.PathLike) -> tuple[Path, Path]:
    """Where the report of a results file goes: ``X.md`` and ``X.png`` beside ``X.jsonl``."""
    p = Path(results_path)
    if p.name in ("", ".", ".."):
        raise BadInput(f"{results_path}: names a folder, not a file: give a results file such as arena-results.jsonl")
    base = p.with_suffix("") if p.suffix else p
    return base.with_name(base.name + ".md"), base.with_name(base.name + ".png")


def write_report(results: Sequence[dict], results_path: str | os.PathLike) -> str:
    """Write the Markdown report and the plot beside the results file; return the text.
    Raises :class:`BadInput` when a file there is not a report of ours (see the module doc)."""
    text = report_text(results)
    md, png = report_paths(results_path)
    check_report_paths(results_path)
    writing = md
    try:
        write_atomically(md, MD_MARK + "\n" + text)
        writing = png
        if results:
            plot(results, png)
    except OSError as e:  # e.g. a full disk: one line naming the file (the results are kept)
        raise BadInput(write_problem(writing, e)) from None
    return text
