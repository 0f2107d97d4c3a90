"""Test-wide setup."""

import signal

# Ctrl-C tests send SIGINT to child processes.  A test run started in the background by a
# non-interactive shell inherits SIGINT *ignored*, and children would inherit that and never
# see the signal: give this process Python's own handler, which exec resets to the default.
signal.signal(signal.SIGINT, signal.default_int_handler)
