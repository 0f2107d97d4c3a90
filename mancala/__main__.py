"""``python -m mancala``: the same as the ``mancala`` command."""

import sys

from mancala.cli import main

sys.exit(main())
