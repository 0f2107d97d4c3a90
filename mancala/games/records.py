"""Game records as players keep them outside this program: PlayOK's PGN-like files (and
9qum.com's, and the transcriptions of Wikimanqala), shared by the games that declare the
``game_text`` capability (Togyz Kumalak, Oware).

A record is ``[Name "value"]`` headers (``[Site "PlayOK"]``, ``[White "…"]``, ``[Black "…"]``,
``[Result "…"]``), then numbered pairs of moves and the result::

    [Site "PlayOK"]
    [White "ann"]
    [Black "bob"]

    1. 76(10) 87(2) 2. 99 91 ... 1-0

A move is two digits, the origin house and the house of the last stone or seed, each
numbered 1-9 from its row's owner's left, then ``(n)``, the mover's total after a capture
(and, in Togyz Kumalak, ``X`` for a tuzdik made).  Each game checks what a move claims.
"""

from __future__ import annotations

import re
from typing import Sequence

from mancala.errors import BadInput

#: a header line: ``[Name "value"]``
_HEADER = re.compile(r"\[(\w+)\s+\"(.*)\"\]")
#: the words of a record's body that are not moves: move numbers (``12.``, ``3...``) and results
_NOT_MOVES = re.compile(r"[0-9]*\.+|1-0|0-1|1/2-1/2|\*")


def read_record_moves(text: str) -> tuple[dict[str, str], list[str]]:
    """The headers and the moves of a game record (``[Site "PlayOK"]`` … then
    ``1. 76(10) 87(2) 2. 99 91``); move numbers, comments in braces and the result (``1-0``,
    ``0-1``, ``1/2-1/2``, ``*``) are dropped.  Raises :class:`BadInput` for a line that
    starts like a header and is not one."""
    headers: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        h = _HEADER.fullmatch(stripped)
        if h:
            headers[h.group(1)] = h.group(2)
        elif stripped.startswith("["):
            raise BadInput(f'cannot read the header line {stripped[:60]!r}: expected [Name "value"]')
        else:
            body.append(stripped)
    words = re.sub(r"\{[^}]*\}", " ", " ".join(body)).split()
    return headers, [w for w in words if not _NOT_MOVES.fullmatch(w)]


def result_mark(finished: bool, margin_of_first: int) -> str:
    """A record's result: ``1-0`` (the first player won), ``0-1``, ``1/2-1/2``, or ``*``
    while the game goes on."""
    if not finished:
        return "*"
    return "1-0" if margin_of_first > 0 else "0-1" if margin_of_first < 0 else "1/2-1/2"


def write_record(
    headers: Sequence[tuple[str, str]],
    words: Sequence[str],
    second_starts: bool,
    result: str,
    names: Sequence[str | None] = (None, None),
) -> str:
    """A record's text: ``headers`` (name, value) and the people who played (``White`` the
    first player, ``Black`` the second, as PlayOK names them), then ``words`` (the moves)
    numbered in pairs (``1. ...`` first when the second player moves first), then the result."""
    lines = [f'[{name} "{value}"]' for name, value in headers]
    for side, name in zip(("White", "Black"), names):
        if name is not None:
            lines.append(f'[{side} "{name.replace(chr(34), chr(39))}"]')
    moves = ["...", *words] if second_starts else list(words)
    parts: list[str] = []
    for i, word in enumerate(moves):
        parts += [f"{i // 2 + 1}.", word] if i % 2 == 0 else [word]
    return "\n".join(lines) + "\n\n" + " ".join([*parts, result]) + "\n"
