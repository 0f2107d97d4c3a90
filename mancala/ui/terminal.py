"""Terminal play: human vs AI, AI vs AI, human vs human, for every game.

Reads moves and commands line by line, so it works the same when input is
piped (scripts and tests) as at a keyboard.  Commands at a human's turn::

    <move>        a move in the game's notation (Kalah: a pit number 1..n)
    hint          the AI's suggestion, with its value and expected line
    undo          take back your last move (and the replies to it)
    save [FILE]   save the game (atomically) to FILE or the --save path
    board         show the board again
    help          list the commands
    quit          leave (say save first to keep the game)
"""

from __future__ import annotations

import sys
from typing import Callable, Sequence

from rich.console import Console
from rich.text import Text

from mancala.atomic import write_problem
from mancala.errors import BadInput, IllegalMove
from mancala.games.base import Game, outcome_text
from mancala.players import HumanPlayer, Player, best_search
from mancala.record import GameRecord, save_record

DEFAULT_SAVE = "mancala-save.json"
HELP = ("Type a move, or: hint (the AI's suggestion), undo (take back your last move), "
        "save [FILE], board, help, quit.")


class _Quit(Exception):
    """The person asked to leave (or input ended)."""


class TerminalGame:
    """One game played in the terminal."""

    def __init__(self, record: GameRecord, players: Sequence[Player], console: Console | None = None,
                 read_line: Callable[[str], str] = input, save_path: str | None = None,
                 autosave: bool = False, hint_seconds: float = 1.0) -> None:
        self.record = record
        self.game: Game = record.game
        self.players = list(players)
        self.console = console or Console(highlight=False)
        self.read_line = read_line
        self.save_path = save_path
        self.autosave = autosave
        self.hint_seconds = hint_seconds
        #: whether there are moves not yet in a saved file
        self.unsaved = False
        #: echo what was read when input is piped, so transcripts read like a session
        self.echo = read_line is input and not sys.stdin.isatty()
        if read_line is input and sys.stdin.isatty():
            try:
                import readline  # noqa: F401, PLC0415 (line editing and history for input())
            except ImportError:
                pass

    # --- naming -------------------------------------------------------------

    def name(self, player: int) -> str:
        """E.g. ``South (human)``."""
        return f"{self.game.player_name(player)} ({self.players[player].spec})"

    def say(self, text: str, style: str | None = None) -> None:
        """Print one message (never read as markup; long lines are left to the terminal to wrap)."""
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def show(self, state) -> None:
        """Print the board."""
        self.console.print(Text(self.game.render(state)))

    # --- the loop -----------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the person quits; returns the exit code."""
        game = self.game
        self.say(f"{game!r}: {self.name(0)} vs {self.name(1)}", "bold")
        state = self.record.final_state()
        self.show(state)
        try:
            while not game.is_terminal(state):
                player = game.to_move(state)
                mover = self.players[player]
                if isinstance(mover, HumanPlayer):
                    move = self.ask_human(state)
                    if move is None:  # the record changed (undo)
                        state = self.record.final_state()
                        self.show(state)
                        continue
                else:
                    move = mover.choose(game, state)
                after = game.apply(state, move)
                self.record.moves.append(move)
                self.unsaved = True
                self.say(self.game.describe_move(state, move, after)
                         + ("" if isinstance(mover, HumanPlayer) else f"  [{mover.spec}]"))
                state = after
                self.show(state)
                if self.autosave and self.save_path:
                    self.write_save(self.save_path)
        except _Quit as q:
            self.say(str(q))
            return 0
        self.say("Game over. " + outcome_text(game, state, [self.name(0), self.name(1)]), "bold")
        return 0

    def ask_human(self, state):
        """Read lines until a legal move (returned) or a command that changed the record (None)."""
        game = self.game
        player = game.to_move(state)
        moves = " ".join(str(m) for m in game.legal_moves(state))
        while True:
            try:
                line = self.read_line(f"{self.name(player)} to move [{moves}] > ")
            except EOFError:
                raise _Quit("Input ended; leaving the game."
                            + (" The last moves were not saved." if self.unsaved else "")) from None
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
            elif command == "board":
                self.show(state)
            elif command == "hint":
                self.hint(state)
            elif command == "save":
                self.save(words[1] if len(words) > 1 else None)
            elif command == "undo":
                if self.undo():
                    return None
            else:
                try:
                    return game.parse_move(state, line)
                except IllegalMove as e:
                    self.say(f"Illegal move: {e}", "red")

    def hint(self, state) -> None:
        """Print the strongest player's suggestion within the hint budget."""
        result = best_search(self.game, state, self.hint_seconds)
        line = " ".join(str(m) for m in result.line[:8])
        self.say(f"Hint: {result.move} (value {result.value:+g} for you at depth {result.depth}; "
                 f"expected line {line})")

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
