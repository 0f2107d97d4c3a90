"""A hosted game's moves: the main line (its moves, positions and ``history`` entries) and
the side lines beside it (the analysis board's move tree, kept in the game record as
``variations``: the main line's moves before the line, the line's moves).

The tree.  Each side line is stored whole, from where it leaves the main line; a line
branched inside another side line shares that line's first moves and is its *child*
(:func:`side_line_tree`): the view names its parent and the ply where it leaves it, the board
draws it inside its parent, and deleting a line deletes its children.  The stored form is
the record's (version 3), so saved games keep their nesting with no new format.
"""

from __future__ import annotations

from typing import Any

from mancala.errors import IllegalMove
from mancala.games.base import Game
from mancala.record import MAX_VARIATIONS, GameRecord
from mancala.server.protocol import ProtocolError


def _shared(a: list, b: list) -> int:
    """How many first moves two lines have in common."""
    k = 0
    for x, y in zip(a, b):
        if str(x) != str(y):
            break
        k += 1
    return k


def side_line_tree(variations: list[tuple[int, list]]) -> list[tuple[int | None, int]]:
    """Each side line's parent (the index of the earlier line it was branched inside, or None
    for a line off the main line) and the ply where it leaves its parent (or the main line).

    A line's parent is the earlier line, leaving the main line at the same ply, that shares
    the most of its first moves (at least one; the earliest such line on a tie): branching
    inside a line copies that line's first moves and appends the new line after it."""
    tree: list[tuple[int | None, int]] = []
    for i, (start, moves) in enumerate(variations):
        parent, best = None, 0
        for j in range(i):
            other_start, other = variations[j]
            if other_start != start:
                continue
            k = _shared(moves, other)
            if k > best and k < len(moves):
                parent, best = j, k
        tree.append((parent, start + best))
    return tree


def history_entry(game: Game, ply: int, before: Any, move: Any, after: Any) -> dict:
    """A move as the ``state`` message's ``history`` shows it (``ply`` counts from the start)."""
    player = game.to_move(before)
    return {
        "ply": ply,
        "player": player,
        "name": game.player_name(player, before),
        "move": str(move),
        "text": game.describe_move(before, move, after),
    }


class Lines:
    """The main line of ``record`` (with its positions ``states`` and ``history``, kept in
    step here) and its side lines; a side line is named by its index."""

    def __init__(self, game: Game, record: GameRecord, states: list, history: list[dict]) -> None:
        self.game = game
        self.record = record
        self.states = states
        self.history = history

    # --- the main line ------------------------------------------------------------------

    def push(self, move: Any) -> None:
        """Play ``move`` at the end of the main line."""
        before = self.states[-1]
        after = self.game.apply(before, move)
        self.record.moves.append(move)
        self.states.append(after)
        self.history.append(history_entry(self.game, len(self.record.moves), before, move, after))

    def pop(self) -> Any:
        """Take back the main line's last move (and return it)."""
        self.states.pop()
        self.history.pop()
        move = self.record.moves.pop()
        # a side line from the position just taken back now starts one move earlier, with that move
        here = len(self.record.moves)
        self.record.variations = [
            (start - 1, [move, *line]) if start > here else (start, line) for start, line in self.record.variations
        ]
        return move

    # --- side lines ---------------------------------------------------------------------

    def states_of(self, line: int | None) -> list:
        """The positions along the main line (``None``) or side line ``line``, from the start."""
        if line is None:
            return self.states
        start, moves = self.line(line)
        out = list(self.states[: start + 1])
        for move in moves:
            out.append(self.game.apply(out[-1], move))
        return out

    def line(self, line: Any) -> tuple[int, list]:
        """Side line ``line`` (where it leaves the main line, its moves); a ``bad_request``
        :class:`ProtocolError` when there is no such line."""
        if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line < len(self.record.variations):
            count = len(self.record.variations)
            raise ProtocolError(
                "bad_request",
                f"no side line {line!r}: this game has {count} (numbered from 0)"
                if count
                else f"no side line {line!r}: this game has none",
            )
        return self.record.variations[line]

    def history_of(self, line: int) -> list[dict]:
        """A side line's moves as ``history`` entries (ply counted from the start of the game)."""
        start, moves = self.line(line)
        states = self.states_of(line)
        return [
            history_entry(self.game, start + k + 1, states[start + k], move, states[start + k + 1])
            for k, move in enumerate(moves)
        ]

    def view(self) -> list[dict]:
        """The side lines as the ``state`` message carries them."""
        tree = side_line_tree(self.record.variations)
        return [
            {
                "id": i,
                "from": start,
                "moves": [str(m) for m in moves],
                "history": self.history_of(i),
                "parent": tree[i][0],
                "at": tree[i][1],
            }
            for i, (start, moves) in enumerate(self.record.variations)
        ]

    def branch(self, ply: Any, text: Any, line: Any = None) -> tuple[int | None, int]:
        """Play ``text`` in the position after ``ply`` moves of the main line (``line`` None)
        or of side line ``line``: a new side line, or one more move of ``line`` at its end; a
        move already there (the main line's, a side line's) is followed, not copied.  Returns
        the line and ply of the position reached."""
        if len(self.record.variations) >= MAX_VARIATIONS:
            raise ProtocolError(
                "limit", f"a game keeps at most {MAX_VARIATIONS} side lines: delete one first", "branch"
            )
        start, moves = (0, list(self.record.moves)) if line is None else self.line(line)
        states = self.states_of(line)
        last = start + len(moves) if line is not None else len(self.record.moves)
        low = start if line is not None else 0
        if not isinstance(ply, int) or isinstance(ply, bool) or not low <= ply <= last:
            raise ProtocolError("bad_request", f"branch: ply must be {low}-{last} on that line, got {ply!r}", "branch")
        if line is not None and ply == start:  # the line's first position is the main line's
            return self.branch(ply, text, None)
        if line is None and ply == len(self.record.moves):
            raise ProtocolError("refused", "branch: that is the game's own position: play the move with move", "branch")
        state = states[ply]
        if self.game.is_terminal(state):
            raise ProtocolError("game_over", "branch: the game is over in that position", "branch")
        try:
            move = self.game.parse_move(state, str(text))
        except IllegalMove as e:
            raise ProtocolError("illegal", str(e), "branch") from None
        word = str(move)
        prefix = [str(m) for m in moves[: ply - start]]
        if line is None:
            prefix = [str(m) for m in self.record.moves[:ply]]
            if str(self.record.moves[ply]) == word:
                return None, ply + 1
            start = ply
            prefix = []
        elif ply == last:
            self.record.variations[line] = (start, [*moves, move])
            return line, ply + 1
        elif str(moves[ply - start]) == word:
            return line, ply + 1
        wanted = [*prefix, word]
        for i, (s, ms) in enumerate(self.record.variations):
            if s == start and [str(m) for m in ms[: len(wanted)]] == wanted:
                return i, ply + 1
        self.record.variations.append((start, [*moves[: ply - start], move] if line is not None else [move]))
        return len(self.record.variations) - 1, ply + 1

    def promote(self, line: Any) -> None:
        """Make side line ``line`` the main line (as far as the game goes on); the main
        line's moves it replaces become a side line in its place."""
        start, moves = self.line(line)
        self.record.variations = [v for i, v in enumerate(self.record.variations) if i != line]
        tail = []
        while len(self.record.moves) > start:
            tail.append(self.pop())
        tail.reverse()
        # (popping rebased the other lines that left the main line after ``start`` onto it)
        for move in moves:
            if self.game.is_terminal(self.states[-1]):
                break
            self.push(move)
        if tail:  # before the lines branched inside it, so that it stays their parent
            sharing = [i for i, (s, ms) in enumerate(self.record.variations) if s == start and _shared(ms, tail)]
            self.record.variations.insert(min([line, *sharing]), (start, tail))
        self._rebase()

    def _rebase(self) -> None:
        """Side lines whose first moves are now the main line's start where they leave it
        (a line that only follows the main line is dropped): after a promotion, the line the
        promoted one was branched inside leaves the new main line where they part."""
        main = self.record.moves
        kept = []
        for start, moves in self.record.variations:
            k = _shared(moves, main[start:])
            if k < len(moves):
                kept.append((start + k, moves[k:]))
        self.record.variations = kept

    def delete(self, line: Any) -> None:
        """Forget side line ``line`` and the lines branched inside it (its children, theirs)."""
        self.line(line)
        tree = side_line_tree(self.record.variations)
        gone = {line}
        for i, (parent, _) in enumerate(tree):  # (a parent comes before its children)
            if parent in gone:
                gone.add(i)
        self.record.variations = [v for i, v in enumerate(self.record.variations) if i not in gone]
