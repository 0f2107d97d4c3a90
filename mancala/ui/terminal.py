"""Terminal play: human vs AI, AI vs AI, human vs human, for every game.

Reads moves and commands line by line, so it works the same when input is
piped (scripts and tests) as at a keyboard.  Commands at a human's turn::

    <move>        a move in the game's notation (help explains it for the game)
    hint          the AI's suggestion, with its value and expected line
    undo          take back your last move (and the replies to it)
    save [FILE]   save the game (atomically) to FILE or the --save path
    resign        give up: the game ends, recorded as won by the opponent
    board         show the board again
    flip          turn the board round (Bao: see it from the other side)
    help          the commands and how moves are written
    quit          leave (say save first to keep the game)

The board marks the last move: cells it changed in yellow, the opponent's cells it
emptied (captures) in red, on a colour terminal; a plain line says the same when the
output is not a terminal.  Ctrl-C at any moment leaves with one line, never a traceback.
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence, TextIO

from rich.console import Console
from rich.progress import Progress, ProgressColumn, SpinnerColumn
from rich.text import Text

from mancala.analysis import hint
from mancala.analysis.values import ANALYSIS_SECONDS, budget
from mancala.atomic import write_problem
from mancala.engine import readiness, table_builds
from mancala.engine.support import engine_support
from mancala.errors import BadInput, IllegalMove
from mancala.games.base import Game, layout_of, move_help_of, outcome_text, seat_names_of
from mancala.players import BestPlayer, HumanPlayer, Player, uses_table
from mancala.players.builtin import searched_in_python
from mancala.record import Ending, GameRecord, save_record

DEFAULT_SAVE = "mancala-save.json"
HELP = (
    "Type a move, or: hint (the AI's suggestion), undo (take back your last move), save [FILE], "
    "resign (give up), board, flip (turn the board), help, quit."
)
#: seconds a person waits before the "thinking…" line appears
THINKING_AFTER = 0.5
CHANGED_STYLE = "bold yellow"
SOWN_FROM_STYLE = "bold black on yellow"
CAPTURED_STYLE = "bold red"


def board_text(game: Game, state, before=None, view: int | None = None) -> tuple[Text, list[str], list[str]]:
    """The board of ``state`` as rich Text, with the cells changed since ``before`` styled:
    the mover's cells it took seeds from (the pit played, relays) on yellow, other changed
    cells yellow, an opponent's cell it lowered (a capture) red.  Returns (text, changed
    cell names, captured cell names), the cells sown from first and named so.  Games
    without a layout are drawn from :meth:`render` unmarked."""
    drawn = layout_of(game)
    if drawn is None:
        return Text(game.render(state)), [], []
    lines = drawn.layout(state, view)
    old = {}
    if before is not None:
        old = {cell: t.strip() for line in drawn.layout(before, view) for t, cell in line if cell is not None}
    # the side that moved, as the layout names owners (Kalah: seats, which the pie rule may swap)
    mover_seat = None if before is None else getattr(before, "seat", None)
    if before is not None and mover_seat is None:
        mover_seat = game.to_move(before)
    text = Text()
    sown_from: list[str] = []
    changed: list[str] = []
    captured: list[str] = []
    for k, line in enumerate(lines):
        if k:
            text.append("\n")
        for piece, cell in line:
            style = ""
            if cell is not None and cell in old and old[cell] != piece.strip():
                owner, name = cell
                label = name if owner is None else f"{_seat_label(game, owner)} {name}"
                lower = _number(piece) < _number(old[cell])
                if owner is not None and owner != mover_seat and lower:
                    style = CAPTURED_STYLE
                    captured.append(label)
                elif owner is not None and owner == mover_seat and lower:
                    style = SOWN_FROM_STYLE
                    sown_from.append(f"{label} (sown from)")
                else:
                    style = CHANGED_STYLE
                    changed.append(label)
            text.append(piece, style=style)
    text.rstrip()
    return text, sown_from + changed, captured


def _seat_label(game: Game, seat: int) -> str:
    """A seat's name for games whose cells belong to seats that players may swap (Kalah)."""
    seats = seat_names_of(game)
    return seats.seat_name(seat) if seats is not None else game.player_name(seat)


def _number(text: str) -> int:
    """The number a cell shows (ignoring brackets and marks); 0 when none."""
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else 0


class _LateSpinner(SpinnerColumn):
    """A spinner that appears only once the wait is longer than a moment."""

    def render(self, task):
        return super().render(task) if (task.elapsed or 0.0) >= THINKING_AFTER else Text("")


class _ThinkingColumn(ProgressColumn):
    """``thinking… 3s`` once the wait is longer than a moment, else nothing."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def render(self, task) -> Text:
        elapsed = task.elapsed or 0.0
        return Text(f"{self.what}… {elapsed:.0f}s" if elapsed >= THINKING_AFTER else "", style="dim")


class _Quit(Exception):
    """The person asked to leave (or input ended)."""


#: the longest line read from piped input at once (a longer one is read in pieces)
MAX_PIPED_LINE = 64 * 1024
_LINE_END = re.compile(r"\r\n|\r|\n")


class PipedLines:
    """``input()`` for piped input: LF, CRLF and a lone CR all end a line (a file saved
    with old Mac line ends is read line by line), and at most :data:`MAX_PIPED_LINE`
    characters are read at once, so an endless line costs no memory; input holding a NUL
    character (``< /dev/zero``, a binary file) is not text and raises :class:`BadInput`."""

    def __init__(self, stream: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stream = stream
        self.out = out
        self.lines: list[str] = []
        #: the last piece read ended in CR: a LF starting the next piece belongs to it
        self.after_cr = False

    def __call__(self, prompt: str = "") -> str:
        """Write ``prompt`` and return the next line, without its line end; raises
        ``EOFError`` at the end of the input."""
        out = self.out or sys.stdout
        out.write(prompt)
        out.flush()
        while not self.lines:
            piece = (self.stream or sys.stdin).readline(MAX_PIPED_LINE)
            if not piece:
                raise EOFError
            if "\x00" in piece:
                raise BadInput("standard input is not text (it holds NUL characters); pipe the moves as lines of text")
            if self.after_cr and piece.startswith("\n"):
                piece = piece[1:]
                if not piece:
                    self.after_cr = False
                    continue
            self.after_cr = piece.endswith("\r")
            parts = _LINE_END.split(piece)
            if parts[-1] == "":  # the piece ended with a line end
                parts.pop()
            self.lines.extend(parts)
        return self.lines.pop(0)


class TerminalGame:
    """One game played in the terminal."""

    def __init__(
        self,
        record: GameRecord,
        players: Sequence[Player],
        console: Console | None = None,
        read_line: Callable[[str], str] = input,
        save_path: str | None = None,
        autosave: bool = False,
        hint_seconds: float = ANALYSIS_SECONDS,
        view: int | None = None,
        background_tables: bool = True,
        table_spawn: table_builds.Spawn | None = None,
    ) -> None:
        self.record = record
        #: whether an AI that reads an endgame table builds it in the background on its first
        #: move when the cache has none (a person at the board; ``--no-background-tables``: no)
        self.background_tables = background_tables and not table_builds.opted_out()
        #: starts that build's process (``spawn(command, errors)``; tests give a fake)
        self.table_spawn = table_spawn
        #: the background build's progress line last said (said again only when it changes)
        self.table_said: str | None = None
        self.game: Game = record.game
        self.players = list(players)
        self.console = console or Console(highlight=False)
        self.read_line = read_line
        self.save_path = save_path
        self.autosave = autosave
        self.hint_seconds = hint_seconds
        #: the side the board is seen from (Bao): asked for, else the first human's, else South;
        #: it stays put (no flipping every move) until the person types flip
        humans = [p for p, player in enumerate(self.players) if isinstance(player, HumanPlayer)]
        self.view = view if view is not None else (humans[0] if humans else 0)
        #: whether there are moves not yet in a saved file
        self.unsaved = False
        #: echo what was read when input is piped, so transcripts read like a session
        self.echo = read_line is input and not sys.stdin.isatty()
        if self.echo:
            self.read_line = PipedLines()
        if read_line is input and sys.stdin.isatty():
            try:
                import readline  # noqa: F401, PLC0415 (line editing and history for input())
            except ImportError:
                pass

    # --- naming -------------------------------------------------------------

    def name(self, player: int, state=None) -> str:
        """E.g. ``South (human)``: the player's seat in ``state`` (it may change, as with
        Kalah's pie rule) and spec."""
        return f"{self.game.player_name(player, state)} ({self.players[player].spec})"

    def say(self, text: str, style: str | None = None) -> None:
        """Print one message (never read as markup; long lines are left to the terminal to wrap)."""
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def show(self, state, before=None) -> None:
        """Print the board, marking what the move from ``before`` changed."""
        text, changed, captured = board_text(self.game, state, before, self.view)
        self.console.print(text, soft_wrap=True)
        if before is not None and (changed or captured) and not self.console.is_terminal:
            # no colours in a pipe or a file: say in words what the colours would show
            line = "Changed: " + ", ".join(changed) if changed else ""
            if captured:
                line += ("; " if line else "") + "captured: " + ", ".join(captured)
            self.say(line + ".")

    # --- waiting ------------------------------------------------------------

    @contextmanager
    def waiting(self, what: str) -> Iterator[None]:
        """Show ``what… Ns`` (live, on a terminal) while the block runs longer than a moment."""
        if not self.console.is_terminal:
            yield
            return
        with Progress(_LateSpinner(), _ThinkingColumn(what), console=self.console, transient=True) as progress:
            progress.add_task(what, total=None)
            yield

    def prepare_engine(self, needed: bool) -> None:
        """Before an engine search: load the engine of the game's rules (its record's
        ``prepare``), saying "preparing the engine (once)…" when that takes more than a
        moment, so the search's own time is spent searching."""
        record = engine_support(self.game.name) if needed else None
        if record is None or record.prepare is None or not record.plays(self.game):
            return
        if readiness.python_meanwhile(record):  # not compiled yet: its players search in Python meanwhile
            return
        with self.waiting("preparing the engine"):
            record.prepare(self.game, lambda: self.say("preparing the engine (once)…", "dim"))

    def say_python_search(self, mover: Player) -> None:
        """Say so when ``mover``'s move came from the Python search because its engine is still
        compiling (in the background), and about how long the engine has left."""
        if not searched_in_python(getattr(mover, "last", None)):
            return
        record = engine_support(self.game.name)
        left = readiness.compile_left(record) if record is not None else None
        self.say(readiness.NOTE + (f" (the engine is ready in about {left:.0f} s)" if left is not None else ""), "dim")

    def table_build(self, mover: Player) -> None:
        """Before ``mover``'s move: when it reads an endgame table its engine builds in the
        background, start that build if the cache lacks the table (a person at the board), and
        say where the build stands when that changed (``endgame table: 12 of 18 seeds, about
        2 min left``; a failed build's one line)."""
        if not uses_table(mover, self.game):
            return
        if table_builds.wanted():
            table_builds.ensure(engine_support(self.game.name), self.game, self.table_spawn)
        line = table_builds.progress_line(table_builds.progress(self.game))
        done = line if line is None else line.split(", about")[0]
        if line is not None and done != self.table_said:
            self.say(line + " (built in the background while you play)", "dim")
        self.table_said = done

    # --- the loop -----------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the person quits; returns the exit code (130 after Ctrl-C).
        With a person at the board, an AI whose engine is not compiled yet replies from the
        Python search while the engine compiles in the background (and says so)."""
        person = any(isinstance(p, HumanPlayer) for p in self.players)
        before = readiness.play_while_compiling(person)
        tables_before = table_builds.build_in_background(person and self.background_tables)
        try:
            return self._run()
        except KeyboardInterrupt:
            self.say("Interrupted; leaving the game." + (" The last moves were not saved." if self.unsaved else ""))
            return 130
        finally:
            readiness.play_while_compiling(before)
            table_builds.stop_builds()  # the finished tiers are kept: the next game resumes the build
            table_builds.build_in_background(tables_before)

    def _run(self) -> int:
        game = self.game
        state = self.record.final_state()
        self.say(f"{game!r}: {self.name(0, state)} vs {self.name(1, state)}", "bold")
        self.show(state)
        try:
            while not self.record.is_over():
                player = game.to_move(state)
                mover = self.players[player]
                if isinstance(mover, HumanPlayer):
                    move = self.ask_human(state)
                    if move is None:  # the record changed (undo, resign)
                        state = self.record.final_state()
                        if self.record.ending is None:
                            self.show(state)
                        continue
                else:
                    self.table_build(mover)
                    self.prepare_engine(isinstance(mover, BestPlayer))
                    with self.waiting("thinking"):
                        move = mover.choose(game, state)
                    self.say_python_search(mover)
                after = game.apply(state, move)
                self.record.moves.append(move)
                self.unsaved = True
                self.say(
                    self.game.describe_move(state, move, after)
                    + ("" if isinstance(mover, HumanPlayer) else f"  [{mover.spec}]")
                )
                if [self.name(p, state) for p in (0, 1)] != [self.name(p, after) for p in (0, 1)]:
                    self.say(f"Seats changed: {self.name(0, after)} and {self.name(1, after)}.", "bold")
                before, state = state, after
                self.show(state, before)
                if self.autosave and self.save_path:
                    self.write_save(self.save_path)
        except _Quit as q:
            self.say(str(q))
            return 0
        self.say("Game over. " + self.result_text(state), "bold")
        return 0

    def result_text(self, state) -> str:
        """The result in words, an end off the board included (a resignation, time, a disconnect)."""
        names = [self.name(0, state), self.name(1, state)]
        return self.record.end_text(names) or outcome_text(self.game, state, names)

    def ask_human(self, state):
        """Read lines until a legal move (returned) or a command that changed the record (None)."""
        game = self.game
        player = game.to_move(state)
        moves = " ".join(str(m) for m in game.legal_moves(state))
        while True:
            try:
                line = self.read_line(f"{self.name(player, state)} to move [{moves}] > ")
            except EOFError:
                raise _Quit(
                    "Input ended; leaving the game." + (" The last moves were not saved." if self.unsaved else "")
                ) from None
            if self.echo:
                self.console.print(Text(line.rstrip("\n")))
            words = line.strip().split()
            if not words:
                continue
            command = words[0].lower()
            if command in ("quit", "exit", "q"):
                raise _Quit("Bye." + (" The last moves were not saved." if self.unsaved else ""))
            if command in ("help", "?"):
                self.say(HELP)
                helper = move_help_of(game)
                if helper is not None:
                    self.say(helper.move_help())
                self.say(f"Legal now: {moves}.")
            elif command == "board":
                self.show(state)
            elif command == "flip":
                self.view = 1 - self.view
                self.show(state)
            elif command == "hint":
                self.hint(state)
            elif command == "save":
                self.save(words[1] if len(words) > 1 else None)
            elif command == "undo":
                if self.undo():
                    return None
            elif command == "resign":
                self.resign(player)
                return None
            else:
                try:
                    return game.parse_move(state, line)
                except IllegalMove as e:
                    self.say(f"Illegal move: {e}", "red")

    def hint(self, state) -> None:
        """Print the analysis layer's hint: the first row of the position's table searched
        with the hint budget (the page's hint and analysis read the same table, so they
        agree for the same budget)."""
        self.prepare_engine(True)
        with self.waiting("thinking about a hint"):
            found = hint(self.game, state, budget(self.game, self.hint_seconds))
        record = engine_support(self.game.name)
        if record is not None and record.plays(self.game) and readiness.python_meanwhile(record):
            self.say("engine compiling: this hint from the Python search", "dim")
        how = "exact" if found["exact"] else f"estimate, depth {found['depth']}"
        line = ", ".join(found["turns"][:8])
        self.say(f"Hint: {found['move']} (value {float(found['value']):+g} for you, {how}; expected line {line})")

    def resign(self, player: int) -> None:
        """End the game: ``player`` resigns (recorded, and saved when saving after every move)."""
        self.record.ending = Ending("resign", player)
        self.unsaved = True
        if self.autosave and self.save_path:
            self.write_save(self.save_path)

    def save(self, path: str | None) -> None:
        """Save the record, reporting the outcome in one line."""
        path = path or self.save_path or DEFAULT_SAVE
        if self.write_save(path):
            self.save_path = path
            self.say(f"Saved to {path}. Resume with: mancala play --load {path}")

    def write_save(self, path: str) -> bool:
        """Write the record to ``path``; on failure say why in one line and keep playing."""
        try:
            save_record(self.record, path)
        except BadInput as e:
            self.say(f"Not saved: {e}", "red")
            return False
        except OSError as e:  # e.g. a full disk: name the file, not the temporary one
            self.say(f"Not saved: {write_problem(path, e)}", "red")
            return False
        self.unsaved = False
        return True

    def undo(self) -> bool:
        """Take back moves up to and including the last one a human made."""
        states = self.record.states()
        for i in range(len(self.record.moves) - 1, -1, -1):
            if isinstance(self.players[self.game.to_move(states[i])], HumanPlayer):
                taken = len(self.record.moves) - i
                del self.record.moves[i:]
                self.unsaved = True
                self.say(f"Took back {taken} move{'s' if taken != 1 else ''}.")
                return True
        self.say("Nothing to undo: no move of yours yet.")
        return False
