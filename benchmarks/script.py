"""How a benchmark script ends, as the ``mancala`` command does: an error the user can act on
is one line on stderr and exit code 2, Ctrl-C is "interrupted" and 130, never a traceback."""

from __future__ import annotations

import sys
from typing import Callable

from mancala.errors import BadInput


def run(main: Callable[[], int | None], name: str, errors: tuple[type[Exception], ...] = (BadInput,)) -> None:
    """Run the script ``name``'s ``main`` and exit with its code (0 when it returns None);
    an exception of ``errors`` becomes the line ``name: message`` and exit 2."""
    try:
        code = main()
    except errors as err:
        print(f"{name}: {err}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code)
