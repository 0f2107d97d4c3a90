"""The server's worker pool (issue 17, items 1, 7 and 9): people first, outside programs kept
in their worker, abandoned workers reaped, players sent as data."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from mancala import analysis as study
from mancala.games import make_game
from mancala.players import make_player, player_memory, rebuild_player
from mancala.server.workers import ABANDON_GRACE, WorkerPool

pytestmark = pytest.mark.processes


def nap(seconds: float, label: str) -> tuple[str, int]:
    """Sleep, then say who ran it where."""
    time.sleep(seconds)
    return label, os.getpid()


def where() -> int:
    """This worker's process id."""
    return os.getpid()


#: the longest a held task waits for its gate: a hang guard, not a speed assertion
HOLD_LIMIT = 300.0
#: the longest an ended worker may take to be reaped: a guard, not a speed assertion
REAP_LIMIT = 60.0


def held(gate: str, label: str) -> tuple[str, int]:
    """Wait until the file ``gate`` exists (the test opens it), then say who ran it where: a
    task that finishes when the test says so, not after a nap the machine's load stretches."""
    deadline = time.monotonic() + HOLD_LIMIT
    while not os.path.exists(gate):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the gate {gate} was never opened")
        time.sleep(0.01)
    return label, os.getpid()


def test_a_person_waits_for_at_most_one_task_not_behind_ai_games(tmp_path):
    gate = tmp_path / "gate"

    async def scenario():
        pool = WorkerPool(2)
        try:
            await pool.run(where)  # the workers are up
            background = [asyncio.ensure_future(pool.run(held, str(gate), f"ai{i}", urgent=False)) for i in range(6)]
            await pool.run(where)  # the person's task: answered while every AI task is held
            unfinished, running = sum(not t.done() for t in background), pool.busy()
            gate.touch()
            return unfinished, running, await asyncio.gather(*background)
        finally:
            pool.shutdown()

    unfinished, running, done = asyncio.run(scenario())
    assert unfinished == 6  # a worker was kept free: the person did not wait behind the AI games
    assert running == 1  # background work runs one task at a time: one worker of two
    assert [d[0] for d in done] == [f"ai{i}" for i in range(6)]


def test_a_task_with_an_affinity_runs_in_the_worker_that_ran_its_key():
    async def scenario():
        pool = WorkerPool(2)
        try:
            first = await pool.run(where, affinity="g1/0")
            others = await asyncio.gather(
                *(pool.run(where, affinity="g1/0") for _ in range(5)), *(pool.run(nap, 0.05, "x") for _ in range(5))
            )
            return first, others[:5]
        finally:
            pool.shutdown()

    first, pinned = asyncio.run(scenario())
    assert set(pinned) == {first}


def _state_of(pid: int) -> str | None:
    """The kernel's state letter of process ``pid`` (None once it is gone and reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_cancelled_search_leaves_no_defunct_worker():
    async def scenario():
        pool = WorkerPool(1)
        try:
            pid = await pool.run(where)
            task = asyncio.ensure_future(pool.run(nap, 30, "long"))
            while not pool.busy():  # the task is in its worker
                await asyncio.sleep(0.01)
            task.cancel()
            # the pool ends the worker ABANDON_GRACE after the cancel: a timer of this loop set
            # before this sleep's, so it has fired by then however busy the machine
            await asyncio.sleep(ABANDON_GRACE + 0.5)
            fresh = await pool.run(where)
            return pid, fresh
        finally:
            pool.shutdown()

    old, fresh = asyncio.run(scenario())
    assert fresh != old
    # the ended worker is reaped by a thread: wait for that (a guard of REAP_LIMIT: a worker
    # left <defunct> stays so for ever), then it must be gone
    deadline = time.monotonic() + REAP_LIMIT
    while _state_of(old) is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _state_of(old) is None, f"worker {old} left as state {_state_of(old)}"


@pytest.mark.parametrize("spec", ["random:seed=5", "random", "beginner", "medium", "greedy"])
def test_a_player_sent_as_data_plays_on_as_if_it_had_never_moved_process(spec):
    """A player rebuilt from its spec and the memory of a player that has been playing (what
    each worker task does) chooses the same moves as that player from then on."""
    game = make_game("kalah")
    whole, state = make_player(spec), game.initial_state()
    state = game.apply(state, whole.choose(game, state))  # an unseeded player's first draw is its own
    for _ in range(12):
        if game.is_terminal(state):
            break
        rebuilt = rebuild_player(spec, player_memory(whole))
        move = rebuilt.choose(game, state)
        assert move == whole.choose(game, state)
        state = game.apply(state, move)


def test_think_takes_and_returns_data_only():
    import pickle

    game = make_game("bao")
    move, memory = study.think("bao", game.initial_state(), "random:seed=2", None, "g/1")
    assert move in game.legal_moves(game.initial_state())
    assert pickle.loads(pickle.dumps(memory)) == memory and set(memory) == {"rng"}


def test_a_task_that_prefers_a_key_runs_in_its_worker_when_that_one_is_free(tmp_path):
    gate = tmp_path / "gate"

    async def scenario():
        pool = WorkerPool(2)
        try:
            home = await pool.run(where, prefer="g1/study")
            again = [await pool.run(where, prefer="g1/study") for _ in range(4)]
            busy = asyncio.ensure_future(pool.run(held, str(gate), "long", prefer="g1/study"))
            while not pool.busy():  # the held task is in its worker
                await asyncio.sleep(0.01)
            elsewhere = await pool.run(where, prefer="g1/study")  # its worker is busy: any other, not a wait
            gate.touch()
            await busy
            return home, again, elsewhere
        finally:
            pool.shutdown()

    home, again, elsewhere = asyncio.run(scenario())
    assert set(again) == {home} and elsewhere != home
