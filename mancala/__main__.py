"""``python -m mancala``: the same as the ``mancala`` command."""

import sys

from mancala.cli.main import main

sys.exit(main())
