"""The ManKalah protocol: messages, our agent, our referee and external agents as players.

The transcripts in tests/data/mankalah-java-*.txt were recorded under the original Java
referee (ManKalah.jar) with two of our agents; our referee must send the same lines.
Fake peers: the tests drive our agent line by line as a referee would, and
tests/fake_mankalah_agent.py (written without our code) plays the agent's side.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mancala.arena.mankalah_agent import AgentSession
from mancala.arena.match import play_game
from mancala.arena.referee import referee_game
from mancala.cli.main import main
from mancala.errors import BadInput
from mancala.games.kalah import SWAP, KalahMove
from mancala.mankalah.protocol import (
    Change,
    End,
    Fault,
    ProtocolError,
    Start,
    board_from_text,
    change_message,
    mankalah_game,
    parse_agent_message,
    parse_engine_message,
    state_text,
)
from mancala.players import RandomPlayer, make_player
from mancala.players.command import CommandPlayer
from mancala.record import load_record

pytestmark = pytest.mark.processes

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
FAKE = Path(__file__).resolve().parent / "fake_mankalah_agent.py"
JAVA_GAMES = sorted(DATA.glob("mankalah-java-*.txt"))
START = "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0"


@pytest.fixture(autouse=True)
def child_path(monkeypatch):
    """Agent processes started by the tests import this tree."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))


def agent_command(spec: str, log: Path | None = None) -> str:
    cmd = f"{shlex.quote(sys.executable)} -m mancala mankalah-agent --player {shlex.quote(spec)}"
    return cmd + (f" --log {shlex.quote(str(log))}" if log else "")


def fake_command(*replies: str) -> str:
    return " ".join(shlex.quote(w) for w in [sys.executable, str(FAKE), *replies])


def read_java_game(path: Path):
    """(South's spec, North's spec, lines by agent 'S'/'N', Java's winner spec, Java's score)."""
    text = path.read_text()
    south = re.search(r"started South \(--player (\S+)\)", text).group(1)
    north = re.search(r"started North \(--player (\S+)\)", text).group(1)
    winner = re.search(r"WINNER: Player \d \((\S+)\)", text)
    score = int(re.search(r"SCORE: (\d+)", text).group(1))
    lines = {"S": [], "N": []}
    for line in text.splitlines():
        if line[:1] in "SN" and line[1:2] in "<>":
            lines[line[0]].append(line[1:])
    return south, north, lines, winner.group(1) if winner else None, score


# --- messages -----------------------------------------------------------------------------


def test_state_numbers_are_north_first_and_absolute():
    game = mankalah_game()
    start = game.initial_state()
    assert state_text(start.board) == START
    after = game.apply(start, KalahMove(1))
    # South's hole 1 sows into holes 2-7 and the store: an extra turn, except on the first move
    assert state_text(after.board) == "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1"
    assert game.to_move(after) == 1
    assert change_message(game, after, KalahMove(1), 0) == "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP"
    assert change_message(game, after, KalahMove(1), 1) == "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU"
    assert board_from_text(state_text(after.board)) == after.board
    swapped = game.apply(after, SWAP)
    assert change_message(game, swapped, SWAP, 0) == "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU"
    assert change_message(game, swapped, SWAP, 1) is None  # the swapper hears nothing


def test_engine_messages_are_read_strictly():
    assert parse_engine_message("START;North") == Start(1)
    assert parse_engine_message("END") == End()
    change = parse_engine_message(f"CHANGE;SWAP;{START};YOU")
    assert change == Change(SWAP, tuple([7] * 7 + [0] + [7] * 7 + [0]), "YOU")
    for bad in (
        "start;South",
        "CHANGE;8;" + START + ";YOU",
        "CHANGE;1;" + START + ";ME",
        "CHANGE;1;7,7;YOU",
        "CHANGE;1;" + START,
        "HELLO",
        "",
    ):
        with pytest.raises(ProtocolError):
            parse_engine_message(bad)


@pytest.mark.parametrize(
    "line, kind",
    [
        ("MOVE;8", "illegal move"),
        ("MOVE;0", "invalid message"),
        ("MOVE;x", "invalid message"),
        ("move;1", "invalid message"),
        ("MOVE;1\r", "invalid message"),
        ("MOVE; 1", "invalid message"),
        ("SWAP", "invalid message"),
        ("", "invalid message"),
        ("MOVE;2147483647", "illegal move"),
        ("MOVE;2147483648", "invalid message"),
        ("MOVE;-0", "invalid message"),
    ],
)
def test_agent_messages_are_judged_as_the_java_referee_does(line, kind):
    game = mankalah_game()
    with pytest.raises(Fault) as e:
        parse_agent_message(line, game, game.initial_state())
    assert e.value.kind == kind
    assert parse_agent_message("MOVE;+3", game, game.initial_state()) == KalahMove(3)  # Integer.parseInt's sign
    after = game.apply(game.initial_state(), KalahMove(1))
    assert parse_agent_message("SWAP", game, after) == SWAP
    later = game.apply(game.apply(game.initial_state(), KalahMove(7)), KalahMove(1))
    assert later.seat == 0 and later.row(0)[6] == 0
    with pytest.raises(Fault, match="illegal move") as e:  # South's hole 7 is still empty
        parse_agent_message("MOVE;7", game, later)
    assert "hole 7 is empty" in e.value.detail


# --- the Java transcripts -------------------------------------------------------------------


@pytest.mark.parametrize("path", JAVA_GAMES, ids=lambda p: p.stem)
def test_our_messages_match_the_java_referee(path):
    """Replaying each recorded game, our referee's CHANGE lines to both agents are the Java
    referee's, and our agent session (moves read from the recording) answers the same."""
    _, _, lines, _, _ = read_java_game(path)
    game = mankalah_game()
    state = game.initial_state()
    ours = {"S": ["< START;South"], "N": ["< START;North"]}
    replies = {
        "S": iter([l[2:] for l in lines["S"] if l[0] == ">"]),
        "N": iter([l[2:] for l in lines["N"] if l[0] == ">"]),
    }
    seat_agent = ["S", "N"]
    while not state.finished:
        agent = seat_agent[game.to_move(state)]
        line = next(replies[agent])
        ours[agent].append("> " + line)
        move = parse_agent_message(line, game, state)
        state = game.apply(state, move)
        for player, name in enumerate(seat_agent):
            message = change_message(game, state, move, player)
            if message:
                ours[name].append("< " + message)
    for name in "SN":
        ours[name].append("< END")
        assert ours[name] == lines[name]


class Replay:
    """A player that plays the moves an agent sent in a recording."""

    def __init__(self, lines):
        self.moves = iter(l[2:] for l in lines if l[0] == ">")
        self.spec = "replay"

    def choose(self, game, state):
        return parse_agent_message(next(self.moves), game, state)


@pytest.mark.parametrize("path", JAVA_GAMES, ids=lambda p: p.stem)
def test_agent_session_follows_the_java_referee_without_mismatch(path):
    _, _, lines, _, _ = read_java_game(path)
    for name in "SN":
        session = AgentSession(Replay(lines[name]))
        sent = []
        for line in lines[name]:
            if line[0] == "<":
                sent += ["> " + r for r in session.handle(line[2:])]
        assert sent == [l for l in lines[name] if l[0] == ">"]
        assert session.mismatches == 0 and session.finished and session.ended


def test_our_agents_replay_the_java_games_under_our_referee(tmp_path):
    """Our agents (deterministic players) under our referee exchange exactly the lines they
    exchanged under the Java referee, and the result is the Java referee's; one game ends on
    a capture that empties a row, one has North's swap, one the first-move rule."""
    for path in JAVA_GAMES[:3]:
        south, north, lines, winner, score = read_java_game(path)
        transcript = []
        result = referee_game(
            [agent_command(south, tmp_path / "s.log"), agent_command(north, tmp_path / "n.log")],
            total_seconds=600,
            transcript=transcript.append,
        )
        ours = {"S": [], "N": []}
        for t in transcript:
            direction, label, text = re.match(r"(to|from) (South|North): (.*)", t).groups()
            ours[label[0]].append(("< " if direction == "to" else "> ") + text)
        assert ours == lines, path.name
        assert result.fault is None and result.record.final_state().finished
        assert abs(result.margin) == score
        winner_spec = None if result.winner is None else (south, north)[result.winner]
        assert winner_spec == winner
        assert "MISMATCH" not in (tmp_path / "s.log").read_text() + (tmp_path / "n.log").read_text()
        assert result.stderr == ["", ""]


def test_a_recorded_game_ends_on_a_capture():
    ends = []
    for path in JAVA_GAMES:
        _, _, lines, _, _ = read_java_game(path)
        game = mankalah_game()
        state = game.initial_state()
        for line in lines["S"]:
            if line.startswith("< CHANGE"):
                state = game.apply(state, parse_engine_message(line[2:]).move)
        ends.append(state.last.capture and state.finished)
    assert any(ends)


# --- our agent as a process, driven line by line ----------------------------------------------


class AgentUnderTest:
    """`mancala mankalah-agent` as a process, the test playing the referee."""

    def __init__(self, spec: str, log: Path):
        self.log = log
        self.proc = subprocess.Popen(
            shlex.split(agent_command(spec, log)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def reply(self) -> str:
        return self.proc.stdout.readline().rstrip("\n")

    def finish(self) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=60)
        return self.proc.returncode, out, err


def test_agent_as_south_follows_the_opponents_swap(tmp_path):
    game = mankalah_game()
    agent = AgentUnderTest("alphabeta:depth=2", tmp_path / "agent.log")
    state = game.initial_state()
    agent.send("START;South")
    move = parse_agent_message(agent.reply(), game, state)
    state = game.apply(state, move)
    agent.send(change_message(game, state, move, 0))
    state = game.apply(state, SWAP)  # the opponent swaps: we now own North's holes and move
    agent.send(change_message(game, state, SWAP, 0))
    opponent = RandomPlayer(5)
    while not state.finished:  # play it out: our agent for player 0 (now North), random for player 1
        if game.to_move(state) == 0:
            move = parse_agent_message(agent.reply(), game, state)
        else:
            move = opponent.choose(game, state)
        state = game.apply(state, move)
        agent.send(change_message(game, state, move, 0))
    agent.send("END")
    code, out, err = agent.finish()
    assert (code, out, err) == (0, "", "")
    log = agent.log.read_text()
    assert "MISMATCH" not in log and "game over" in log


def test_agent_as_north_swaps_and_plays_on_as_south(tmp_path):
    game = mankalah_game()
    agent = AgentUnderTest("greedy", tmp_path / "agent.log")
    agent.send("START;North")
    state = game.apply(game.initial_state(), KalahMove(2))
    assert make_player("greedy").choose(game, state) == SWAP  # greedy takes South's side here
    agent.send(change_message(game, state, KalahMove(2), 1))
    assert agent.reply() == "SWAP"
    state = game.apply(state, SWAP)  # no CHANGE for our own swap; the opponent (now North) moves
    move = KalahMove(3)
    state = game.apply(state, move)
    agent.send(change_message(game, state, move, 1))
    assert game.to_move(state) == 1 and state.seat == 0
    reply = parse_agent_message(agent.reply(), game, state)  # a legal South move
    assert reply == make_player("greedy").choose(game, state)
    agent.send("END")
    code, out, err = agent.finish()
    assert (code, out, err) == (0, "", "")
    assert "MISMATCH" not in agent.log.read_text()


def test_agent_resyncs_from_the_referees_state_on_a_mismatch(tmp_path):
    agent = AgentUnderTest("random:seed=1", tmp_path / "agent.log")
    agent.send("START;South")
    reply = agent.reply()
    assert re.fullmatch(r"MOVE;[1-7]", reply)
    # the referee reports our move with a board unlike ours: only South's hole 5 holds seeds
    hole = reply.split(";")[1]
    agent.send(f"CHANGE;{hole};7,7,7,7,7,7,7,10,0,0,0,0,3,0,0,20;YOU")
    assert agent.reply() == "MOVE;5"  # it moved from the referee's board, not its own
    agent.send("END")
    code, out, err = agent.finish()
    assert (code, out, err) == (0, "", "")
    assert "MISMATCH" in agent.log.read_text()


def test_agent_rejects_a_malformed_referee_line_in_its_log_only(tmp_path):
    agent = AgentUnderTest("greedy", tmp_path / "agent.log")
    agent.send("START;East")
    code, out, err = agent.finish()
    assert (code, out, err) == (2, "", "")
    assert "cannot read 'START;East'" in agent.log.read_text()


def test_agent_refuses_a_bad_player_before_the_protocol_starts(capsys):
    assert main(["mankalah-agent", "--player", "wizard"]) == 2
    assert "unknown player 'wizard'" in capsys.readouterr().err


# --- our referee against fake agents ---------------------------------------------------------


def test_referee_timeout_loses():
    result = referee_game([fake_command("sleep"), agent_command("greedy")], total_seconds=1.0)
    assert result.faulty == 0 and result.fault.kind == "timeout"
    assert result.winner == 1 and result.record.moves == []


@pytest.mark.parametrize(
    "replies, kind, moves",
    [
        (("MOVE;x",), "invalid message", 0),
        (("crlf",), "invalid message", 0),
        (("nonewline",), "invalid message", 0),
        (("SWAP",), "invalid message", 0),  # South may not swap
        (("MOVE;8",), "illegal move", 0),
        (("MOVE;7", "MOVE;7"), "illegal move", 2),  # hole 7 is still empty on South's second move
        (("exit",), "connection broke down", 0),
    ],
)
def test_referee_faults_lose(replies, kind, moves):
    result = referee_game([fake_command(*replies), fake_command("MOVE;1")], total_seconds=60)
    assert result.fault is not None and result.fault.kind == kind, result.fault
    assert result.faulty == 0 and result.winner == 1
    assert len(result.record.moves) == moves


def test_referee_north_swap_later_is_a_fault():
    result = referee_game([fake_command(), fake_command("MOVE;1", "SWAP")], total_seconds=60)
    assert result.faulty == 1 and result.fault.kind == "invalid message" and "SWAP" in result.fault.detail


def test_referee_swap_by_north_then_play_to_the_end():
    result = referee_game([fake_command(), fake_command("SWAP")], total_seconds=60)
    assert result.fault is None and result.record.moves[1] == SWAP
    final = result.record.final_state()
    assert final.finished and final.swapped and sum(result.stores()) == 98


def test_referee_drains_a_chatty_agents_stderr():
    result = referee_game([fake_command("spam", "spam"), agent_command("greedy")], total_seconds=60)
    assert result.fault is None and result.record.final_state().finished
    assert 0 < len(result.stderr[0]) <= 64 * 1024


def test_referee_cannot_start_a_missing_program():
    with pytest.raises(BadInput, match="cannot run"):
        referee_game(["/nonexistent/agent", agent_command("greedy")])


def test_referee_command_line_plays_our_agents_and_saves_records(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mancala",
            "referee",
            agent_command("random:seed=3"),
            agent_command("greedy"),
            "--games",
            "2",
            "--log",
            str(tmp_path / "games"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("game 1: agent 1 ") and "(agent 1 started South" in lines[0]
    assert lines[1].startswith("game 2: agent 2 ") and "(agent 2 started South" in lines[1]
    assert re.match(r"agent 1 \(.*\): \d wins, \d draws, \d losses \(0 by fault\)", lines[2])
    for n in (1, 2):
        record = load_record(tmp_path / "games" / f"game-00{n}.json")
        assert record.final_state().finished and record.game == mankalah_game()
        assert "END" in (tmp_path / "games" / f"game-00{n}.log").read_text()
    bad = subprocess.run(
        [sys.executable, "-m", "mancala", "referee", "x", "y", "--games", "0"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


# --- external agents as players -----------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_command_player_plays_as_the_same_player_would_in_process(seat, tmp_path):
    """An agent process with random:seed=4 makes exactly the moves RandomPlayer(4) makes
    in our own arena, and the CHANGE lines it got match its own board at every move
    (swaps and extra turns included)."""
    game = mankalah_game()
    external = make_player("command:" + agent_command("random:seed=4", tmp_path / "agent.log"))
    assert isinstance(external, CommandPlayer)
    players = [make_player("greedy")]
    players.insert(seat, external)
    record = play_game(game, players)
    in_process = [make_player("greedy")]
    in_process.insert(seat, RandomPlayer(4))
    assert record.moves == play_game(game, in_process).moves
    assert record.final_state().finished
    # seat 0: greedy, North, swaps; seat 1: greedy opens with 1 into its store (no extra turn)
    assert (SWAP in record.moves) == (seat == 0) and (seat == 0 or record.moves[0] == KalahMove(1))
    external.close()
    log = (tmp_path / "agent.log").read_text()
    assert "MISMATCH" not in log and log.count("> ") == sum(1 for line in log.splitlines() if "] > " in line)
    assert "< END" in log


def test_command_player_faults_and_wrong_games_are_clear_errors():
    game = mankalah_game()
    player = make_player("command:" + fake_command("MOVE;9"))
    with pytest.raises(ProtocolError, match="illegal move"):
        player.choose(game, game.initial_state())
    with pytest.raises(BadInput, match="ManKalah"):
        make_player("command:" + fake_command()).choose(mankalah_game().__class__(), None)
    with pytest.raises(BadInput, match="needs a program"):
        make_player("command:  ")


def test_command_player_in_mancala_match(capsys):
    spec = "command:" + fake_command()
    assert main(["match", spec, "greedy", "--games", "2", "--preset", "mankalah"]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out and re.search(r"command:.*: \d wins", out)
