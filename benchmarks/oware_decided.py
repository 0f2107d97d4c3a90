"""Where an Oware match was decided: the endgame table's verdict on each game as it entered it.

Reads the JSON lines ``benchmarks/bench_oware.py`` writes (one game a line: ``moves``,
``our_seat``, ``result``, ``margin``, ``end``), replays every game under ``abapa`` and asks
the endgame table (``mancala db build --game oware --seeds N``; the largest in the cache, or
``--seeds``) two things:

* **at entry**: the first position of the game with few enough seeds on the board for the
  table, and what the table gives *us* there (our final margin with perfect play from then
  on).  A loss that entered the table already losing was decided in the middle game, before
  any table could play a part;
* **seeds given up**: for every move of the game inside the table, how many seeds of the
  mover's table value it gave away against the table's best move, summed for each side.

The table counts a forced repetition as an even split of the board, while ``abapa`` gives each
side its own row: so the table's verdicts are estimates under these rules (exact under
``awari``), and a game "entered winning" yet lost at a repetition is the mark of that
difference.  Prints, per file, the games counted by (result, verdict at entry) and lists every
loss that entered the table level or ahead.

    python benchmarks/oware_decided.py docs/arena/oware-aalina-quiet-2026-11-29.jsonl [...]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mancala.engine.oware import endgame  # noqa: E402
from mancala.engine.oware.exact import move_values, seeds_on_disk  # noqa: E402
from mancala.errors import BadInput, MancalaError  # noqa: E402
from mancala.games.oware import Oware, OwareState  # noqa: E402


@dataclass(frozen=True)
class Verdict:
    """What the table says of one game: its value for us at entry (None: the game never came
    within the table), the ply of entry, and the seeds each side's moves gave up inside it."""

    result: str
    margin: int
    end: str | None
    entry_value: int | None
    entry_ply: int | None
    ours_given: int
    theirs_given: int

    @property
    def entered(self) -> str:
        """The verdict at entry in words: losing, level, winning, or never in the table."""
        if self.entry_value is None:
            return "never in the table"
        return "losing" if self.entry_value < 0 else "level" if self.entry_value == 0 else "winning"


def judge(game: Oware, table, row: dict, where: str) -> Verdict:
    """The table's verdict on the game of ``row`` (``where``: the file and line, for errors)."""
    try:
        moves, seat = row["moves"], int(row["our_seat"])
        result, margin = row["result"], int(row["margin"])
    except (KeyError, TypeError, ValueError) as err:
        raise BadInput(f"{where}: not a game of bench_oware.py (a field is missing or wrong: {err})") from None
    if seat not in (0, 1) or not isinstance(moves, str) or result not in ("W", "D", "L"):
        raise BadInput(f"{where}: not a game of bench_oware.py (our_seat 0 or 1, moves a string, result W, D or L)")
    state: OwareState = game.initial_state()
    entry_value = entry_ply = None
    given = [0, 0]
    for ply, text in enumerate(moves):
        if game.is_terminal(state):
            raise BadInput(f"{where}: move {ply + 1} ({text}) comes after the game's end")
        try:
            move = game.parse_move(state, text)
        except MancalaError as err:
            raise BadInput(f"{where}: move {ply + 1} ({text}): {err}") from None
        values = move_values(game, state, table)
        if values:
            best = values[0][1]
            if entry_value is None:
                entry_value, entry_ply = (best if state.seat == seat else -best), ply
            played = dict((str(m), v) for m, v in values)[str(move)]
            given[0 if state.seat == seat else 1] += best - played
        state = game.apply(state, move)
    return Verdict(result, margin, row.get("end"), entry_value, entry_ply, given[0], given[1])


def read_games(path: Path) -> list[tuple[dict, str]]:
    """The games of a results file, each with its place for messages."""
    try:
        text = path.read_text()
    except OSError as err:
        raise BadInput(f"{path}: cannot read it ({err.strerror or err})") from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a text file of JSON lines") from None
    games = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise BadInput(f"{path} line {number}: not JSON") from None
        if not isinstance(row, dict):
            raise BadInput(f"{path} line {number}: a game is a JSON object")
        games.append((row, f"{path} line {number}"))
    return games


def report(path: Path, verdicts: list[Verdict], out=sys.stdout) -> None:
    """The counts of one file's games by (result, verdict at entry), and the odd losses."""
    counts = collections.Counter((v.result, v.entered) for v in verdicts)
    print(f"{path}: {len(verdicts)} games", file=out)
    for (result, entered), count in sorted(counts.items()):
        print(f"  {result}, at entry {entered}: {count}", file=out)
    print(
        f"  seeds given up inside the table: ours {sum(v.ours_given for v in verdicts)}, "
        f"theirs {sum(v.theirs_given for v in verdicts)}",
        file=out,
    )
    for number, v in enumerate(verdicts, 1):
        if v.result == "L" and v.entry_value is not None and v.entry_value >= 0:
            print(
                f"  game {number}: entered at ply {v.entry_ply} worth {v.entry_value:+d} to us, lost "
                f"{v.margin:+d} ({v.end}); our moves gave up {v.ours_given}",
                file=out,
            )


def main(argv: list[str] | None = None) -> int:
    """Judge every game of the files given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="JSON lines of bench_oware.py")
    parser.add_argument("--seeds", type=int, help="the table's seeds (default: the largest in the cache)")
    args = parser.parse_args(argv)
    game = Oware()
    try:
        seeds = seeds_on_disk(game.rules) if args.seeds is None else args.seeds
        if seeds < 0:
            raise BadInput("no Oware endgame table in the cache: mancala db build --game oware --seeds 18")
        table = endgame.build(game.rules, seeds)
        print(f"the abapa table of {seeds} seeds", flush=True)
        for path in args.results:
            report(path, [judge(game, table, row, where) for row, where in read_games(path)])
    except BadInput as err:
        print(f"oware_decided: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("oware_decided: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
