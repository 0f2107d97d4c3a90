"""ManKalah agent programs as processes: started, fed protocol lines and read with time limits,
stopped cleanly (used by the referee and by ``command:`` players)."""

from __future__ import annotations

import collections
import os
import queue
import shlex
import signal
import subprocess
import threading
from typing import Any, Callable

from mancala.errors import BadInput
from mancala.mankalah.protocol import EXIT_GRACE, MAX_LINE, Fault

# --- agent processes ------------------------------------------------------------------

_EOF = None


class AgentProcess:
    """An agent program run as a process: lines to its stdin, lines from its stdout with a
    time limit (a reader thread), its stderr drained and kept (the last 64 KB) so a chatty
    agent can never block.  It runs in its own process group and is stopped by :meth:`close`."""

    def __init__(self, command: str, label: str = "agent", transcript: Callable[[str], None] | None = None) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise BadInput(f"cannot read the command {command!r}: {e}") from None
        if not self.argv:
            raise BadInput("an agent command cannot be empty")
        self.command = command
        self.label = label
        self.transcript = transcript or (lambda text: None)
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: collections.deque = collections.deque(maxlen=64 * 1024)
        self.proc: subprocess.Popen | None = None
        self.threads: list[threading.Thread] = []

    def start(self) -> None:
        """Start the program; raises :class:`BadInput` when it cannot be run."""
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as e:
            raise BadInput(f"cannot run {self.command!r}: {e.strerror or e}") from None
        self.threads = [
            threading.Thread(target=self._read_lines, daemon=True),
            threading.Thread(target=self._drain_stderr, daemon=True),
        ]
        for t in self.threads:
            t.start()

    def _running(self) -> subprocess.Popen:
        """The program's process (started: :meth:`start` came first)."""
        assert self.proc is not None, "the agent program is not started"
        return self.proc

    def _read_lines(self) -> None:
        stream = self._running().stdout
        assert stream is not None  # a pipe
        try:
            while True:
                data = stream.readline(MAX_LINE + 1)
                if not data:
                    break
                self.lines.put(data)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _drain_stderr(self) -> None:
        try:
            while True:
                stream: Any = self._running().stderr  # a pipe, read1 where the platform has it
                data = stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536)
                if not data:
                    break
                self.stderr_tail.extend(data)
        except (OSError, ValueError):
            pass

    def send(self, line: str) -> None:
        """Write one line; raises :class:`Fault` when the program no longer reads."""
        self.transcript(f"to {self.label}: {line}")
        try:
            stdin = self._running().stdin
            assert stdin is not None  # a pipe
            stdin.write(line.encode("ascii") + b"\n")
            stdin.flush()
        except (OSError, ValueError):
            raise Fault(
                "connection broke down", f"{self.label} no longer reads its input" + self._exit_note()
            ) from None

    def pending(self) -> bool:
        """Whether the program wrote a line (or closed its output) that was not read yet."""
        return not self.lines.empty()

    def receive(self, timeout: float) -> str:
        """The next line without its newline, within ``timeout`` seconds; raises
        :class:`Fault` on a timeout, a closed output or a line not ended by a newline."""
        try:
            data = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            raise Fault("timeout", f"{self.label} did not answer in time") from None
        if data is _EOF:
            self.lines.put(_EOF)  # later reads see the end too
            raise Fault("connection broke down", f"{self.label} closed its output" + self._exit_note())
        text = data.decode("utf-8", errors="replace")
        self.transcript(f"from {self.label}: {text.rstrip(chr(10))}")
        if not text.endswith("\n"):
            if len(data) > MAX_LINE:
                raise Fault("invalid message", f"{self.label} sent a line longer than {MAX_LINE} characters")
            raise Fault("invalid message", f"{self.label} sent {text!r} without a newline and closed its output")
        return text[:-1]

    def _exit_note(self) -> str:
        if self.proc is None:
            return ""
        try:
            code = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return ""
        return f" (it exited with code {code})"

    def stderr_text(self) -> str:
        """What the program wrote to stderr (the last 64 KB)."""
        return bytes(self.stderr_tail).decode("utf-8", errors="replace")

    def close(self, grace: float = EXIT_GRACE) -> int | None:
        """Close its input, give it ``grace`` seconds to exit, then stop its process group.
        Returns the exit code (None if it had to be killed and did not report one)."""
        proc = self.proc
        if proc is None:
            return None
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            code = proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            code = None
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                try:
                    proc.wait(timeout=1.0)
                    break
                except subprocess.TimeoutExpired:
                    continue
        for t in self.threads:
            t.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return code
