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
from mancala.server.workers import ABANDON_GRACE, BACKGROUND, REPLY, STUDY, Shares, WorkerLimit, WorkerPool, _Task

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
            # (background work: studies keep a worker free for people's replies, issue 33)
            busy = asyncio.ensure_future(pool.run(held, str(gate), "long", prefer="g1/study", urgent=False))
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


# --- fair shares (issue 33): a flooding client delays a person by one task at most ----------


class _FakeWorker:
    """Stands for a worker in :class:`Shares`'s choice: anything idle takes any task."""


def _queued(shares: Shares, owner: str, count: int, **kinds) -> list:
    """Queue ``count`` tasks of ``owner`` (of the share ``kinds`` names) with open futures."""
    loop = asyncio.new_event_loop()
    try:
        tasks = []
        for i in range(count):
            task = _Task(loop.create_future(), i, where, (), None, None, owner, kinds.get("share", STUDY))
            shares.add(task)
            tasks.append(task)
        return tasks
    finally:
        loop.close()


def test_owners_take_turns_so_a_queue_of_forty_delays_another_owner_by_one_task():
    shares, worker = Shares(), _FakeWorker()
    flood = _queued(shares, "flooder", 40)
    order = [shares.pick(lambda task: worker, lambda share: True)[0] for _ in range(2)]  # two workers busy
    person = _queued(shares, "person", 1)  # a hint: the next worker to free takes it
    order.append(shares.pick(lambda task: worker, lambda share: True)[0])
    assert order == [flood[0], flood[1], person[0]]
    assert shares.queued("flooder") == 38 and shares.queued("person") == 0


def test_a_reply_to_a_person_goes_before_every_study_and_background_task():
    shares, worker = Shares(), _FakeWorker()
    _queued(shares, "flooder", 10)
    _queued(shares, "ai-games", 10, share=BACKGROUND)
    reply = _queued(shares, "person", 1, share=REPLY)
    assert shares.pick(lambda task: worker, lambda share: True)[0] is reply[0]
    # studies may not take the worker kept for replies: a reply that comes next still finds one
    nothing = shares.pick(lambda task: worker, lambda share: share == REPLY)
    assert nothing is None


def test_a_person_s_ai_reply_waits_for_no_study_when_a_flood_holds_the_other_worker(tmp_path):
    async def scenario():
        pool = WorkerPool(2)
        try:
            await pool.run(where)  # the workers are up
            flood = [
                asyncio.ensure_future(pool.run(held, str(tmp_path / "gate"), f"study{i}", owner="flooder"))
                for i in range(40)
            ]
            while not pool.busy():
                await asyncio.sleep(0.01)
            reply = await pool.run(where, reply=True, owner="person")  # answered while every study is held
            unfinished = sum(not t.done() for t in flood)
            running, waiting = pool.busy(), pool.queued("flooder")
            for task in flood:
                task.cancel()
            await asyncio.gather(*flood, return_exceptions=True)
            left = pool.queued("flooder")
            return reply, unfinished, running, waiting, left
        finally:
            pool.shutdown()

    reply, unfinished, running, waiting, left = asyncio.run(scenario())
    assert isinstance(reply, int)
    assert unfinished == 40 and running == 1 and waiting == 39  # studies kept one worker free
    assert left == 0  # the flooder gone: its queued work is dropped


def test_with_one_worker_a_person_s_reply_runs_right_after_the_task_under_way(tmp_path):
    async def scenario():
        pool = WorkerPool(1)
        try:
            await pool.run(where)
            gates = [tmp_path / f"gate{i}" for i in range(8)]
            flood = [
                asyncio.ensure_future(pool.run(held, str(gate), f"study{i}", owner="flooder"))
                for i, gate in enumerate(gates)
            ]
            while not pool.busy():
                await asyncio.sleep(0.01)
            reply = asyncio.ensure_future(pool.run(held, str(tmp_path / "reply"), "reply", reply=True, owner="person"))
            await asyncio.sleep(0)
            (tmp_path / "reply").touch()  # the reply may end as soon as it starts
            gates[0].touch()  # the one task under way ends: the reply is next, not study 1
            label, _ = await reply
            later = [t.done() for t in flood[1:]]
            for gate in gates[1:]:
                gate.touch()
            await asyncio.gather(*flood)
            return label, later
        finally:
            pool.shutdown()

    label, later = asyncio.run(scenario())
    assert label == "reply" and not any(later)


# --- bounded work (issue 33): a worker past its memory or time bound is replaced -----------


def hoard(megabytes: int, gate: str) -> int:
    """Hold ``megabytes`` of memory until the test opens ``gate`` (never, here)."""
    block = bytearray(megabytes * 2**20)
    for i in range(0, len(block), 4096):  # touched: resident, not merely reserved
        block[i] = 1
    held(gate, "hoard")
    return len(block)


def test_a_worker_past_the_memory_bound_is_replaced_and_its_task_fails_with_a_reason(tmp_path):
    async def scenario():
        pool = WorkerPool(1, memory_mb=150)
        try:
            before = await pool.run(where)
            with pytest.raises(WorkerLimit, match="more than 150 MB of memory, the bound of a worker"):
                await pool.run(hoard, 300, str(tmp_path / "never"))
            after = await pool.run(where)  # a fresh worker serves the next task
            return before, after
        finally:
            pool.shutdown()

    before, after = asyncio.run(scenario())
    assert before != after


def test_a_task_past_its_seconds_is_ended_with_a_reason(tmp_path):
    async def scenario():
        pool = WorkerPool(1)
        try:
            before = await pool.run(where)
            with pytest.raises(WorkerLimit, match="longer than 0.2 s, the most one request may take"):
                await pool.run(held, str(tmp_path / "never"), "slow", seconds=0.2)
            quick = await pool.run(where, seconds=HOLD_LIMIT)  # a task within its time is answered
            return before, quick
        finally:
            pool.shutdown()

    before, quick = asyncio.run(scenario())
    assert before != quick
