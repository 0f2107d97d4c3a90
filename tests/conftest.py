"""Test-wide setup."""

import os
import signal

# Ctrl-C tests send SIGINT to child processes.  A test run started in the background by a
# non-interactive shell inherits SIGINT *ignored*, and children would inherit that and never
# see the signal: give this process Python's own handler, which exec resets to the default.
signal.signal(signal.SIGINT, signal.default_int_handler)

# No test starts a real background build of an endgame table (mancala/engine/table_builds.py):
# a person's game in the terminal or the server would otherwise start a minutes-long build in
# the shared cache, and the players would read its larger table in later tests.  The tests of
# those builds lift this themselves (monkeypatch.delenv) and give a fake builder.
os.environ.setdefault("MANCALA_BACKGROUND_TABLES", "0")
