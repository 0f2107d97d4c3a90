"""Players, the arena, saved games, terminal play, explain and the CLI, as a user drives them."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from helpers import scripted

from mancala.arena.match import play_game, play_match
from mancala.cli.main import main
from mancala.errors import BadInput
from mancala.evaluation import default_evaluation
from mancala.games import make_game
from mancala.games.kalah import KalahMove
from mancala.players import HumanPlayer, RandomPlayer, SearchPlayer, make_player
from mancala.record import GameRecord, load_record, save_record
from mancala.search.deepening import iterative_deepening
from mancala.search.explain import explain
from mancala.ui.terminal import TerminalGame

# --- players ---------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, kind, depth",
    [
        ("alphabeta:depth=6", "alphabeta", 6),
        ("minimax:depth=3", "minimax", 3),
        ("greedy", "greedy", 1),
    ],
)
def test_search_player_specs_build_the_right_search(spec, kind, depth):
    player = make_player(spec)
    assert isinstance(player, SearchPlayer)
    assert (player.algorithm, player.depth) == (kind, depth)
    assert make_player(player.spec).spec == player.spec


def test_alphabeta_with_a_time_budget_deepens_iteratively_and_round_trips():
    player = make_player("alphabeta:time=0.05,eval=store:1,seeds:0.25,extra:0.5,threat:0.5")
    assert isinstance(player, SearchPlayer)
    assert (player.algorithm, player.seconds, player.depth) == ("alphabeta", 0.05, 64)
    assert player.evaluation == "store:1,seeds:0.25,extra:0.5,threat:0.5"
    again = make_player(player.spec)
    assert (again.spec, again.seconds, again.depth, again.evaluation) == (
        player.spec,
        player.seconds,
        player.depth,
        player.evaluation,
    )
    capped = make_player("alphabeta:depth=3,time=10")
    assert (capped.depth, capped.seconds) == (3, 10.0) and make_player(capped.spec).spec == capped.spec
    game = make_game("kalah")
    state = game.initial_state()
    assert capped.choose(game, state) == make_player("alphabeta:depth=3").choose(game, state)


def test_other_player_specs():
    assert isinstance(make_player("human"), HumanPlayer)
    assert make_player("random:seed=4").spec == "random:seed=4"
    assert make_player("best:time=0.5").seconds == 0.5


@pytest.mark.parametrize(
    "spec",
    [
        "wizard",
        "alphabeta:depth=x",
        "alphabeta:depth=0",
        "minimax:colour=red",
        "best:time=-1",
        "alphabeta:eval=nonsense",
        "alphabeta:time=0",
        "alphabeta:time=soon",
        "minimax:time=1",
    ],
)
def test_bad_player_specs_are_rejected_with_a_message(spec):
    with pytest.raises(BadInput):
        make_player(spec)


def test_random_player_is_reproducible_with_a_seed():
    game = make_game("kalah")
    a = play_game(game, [RandomPlayer(1), RandomPlayer(2)])
    b = play_game(game, [RandomPlayer(1), RandomPlayer(2)])
    assert [str(m) for m in a.moves] == [str(m) for m in b.moves]


def test_same_players_play_tictactoe_and_kalah():
    for spec in ("kalah", "tictactoe"):
        game = make_game(spec)
        record = play_game(game, [make_player("alphabeta:depth=2"), make_player("random:seed=3")])
        assert game.is_terminal(record.final_state())


def test_alphabeta_player_takes_a_free_win_in_tictactoe():
    game = make_game("tictactoe")
    state = game.parse_position("XX./OO./...")  # X to move wins at 2
    assert make_player("alphabeta:depth=1").choose(game, state).cell == 2


def test_iterative_deepening_stops_when_the_clock_runs_out():
    """Counted, not timed: a fake clock advancing one second per reading, budget 40 s."""
    ticks = iter(range(10**9))
    game = make_game("kalah")
    result = iterative_deepening(game, game.initial_state(), 40, default_evaluation(game), clock=lambda: next(ticks))
    assert result.move in game.legal_moves(game.initial_state())
    assert 1 <= result.depth < 20


def test_iterative_deepening_is_exact_once_the_tree_is_exhausted():
    game = make_game("tictactoe")
    result = iterative_deepening(game, game.initial_state(), 60, default_evaluation(game))
    assert result.value == 0 and result.depth == 9


def test_best_player_beats_random_at_kalah():
    game = make_game("kalah(pits=4,seeds=3)")
    result = play_match(game, "best:time=0.05", "random:seed=5", games=2)
    assert result.wins_a == 2


# --- arena -----------------------------------------------------------------


def test_deeper_alphabeta_beats_greedy_over_a_match():
    game = make_game("kalah")
    result = play_match(game, "alphabeta:depth=4", "greedy", games=2)
    assert result.games == 2
    assert result.wins_a == 2 and result.margin_a > 0


def test_play_game_records_every_move_and_conserves_seeds():
    game = make_game("kalah")
    record = play_game(game, [make_player("greedy"), make_player("alphabeta:depth=2")])
    final = record.final_state()
    assert game.is_terminal(final)
    assert sum(final.board) == 48
    assert len(record.states()) == len(record.moves) + 1


# --- saved games -----------------------------------------------------------


def test_saved_game_round_trips(tmp_path):
    game = make_game("kalah(preset=egyptian,pits=5)")
    record = GameRecord(game, ["human", "easy"], [KalahMove(3), KalahMove(1)])
    path = tmp_path / "g.json"
    save_record(record, path)
    data = json.loads(path.read_text())
    assert data["format"] == "mancala-game" and data["version"] == 1 and data["moves"] == ["3", "1"]
    loaded = load_record(path)
    assert loaded.game == game and loaded.players == ["human", "easy"]
    assert loaded.final_state() == record.final_state()


def test_a_failed_save_leaves_the_old_file_intact(tmp_path, monkeypatch):
    game = make_game("kalah")
    path = tmp_path / "g.json"
    save_record(GameRecord(game, ["human", "easy"], [KalahMove(3)]), path)
    before = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_record(GameRecord(game, ["human", "easy"], [KalahMove(3), KalahMove(1)]), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temp file left behind


@pytest.mark.parametrize(
    "content, words",
    [
        (None, "no such file"),
        ('{"format": "mancala-game", "vers', "not valid JSON"),
        ('{"format": "chess"}', "not a mancala saved game"),
        (
            '{"format": "mancala-game", "version": 6, "game": "kalah", "players": ["a", "b"], "moves": []}',
            "newer version",
        ),
        (
            '{"format": "mancala-game", "version": 1, "game": "kalah", "players": ["human", "easy"], "moves": ["3", "3"]}',
            "move 2",
        ),
        (
            '{"format": "mancala-game", "version": 1, "game": "chess", "players": ["human", "easy"], "moves": []}',
            "unknown game",
        ),
    ],
)
def test_bad_saved_games_give_one_clear_line_and_exit_2(tmp_path, capsys, content, words):
    path = tmp_path / "g.json"
    if content is not None:
        path.write_text(content)
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and str(path) in err and len(err.strip().splitlines()) == 1


# --- terminal play ---------------------------------------------------------


def terminal(record, specs, lines, **kw):
    players = [make_player(s) for s in specs]
    for p in players:
        if isinstance(p, HumanPlayer):
            p.ask = None
    from rich.console import Console

    console = Console(record=True, width=100, file=io.StringIO())  # recorded, not shown
    game = TerminalGame(record, players, console=console, read_line=scripted(lines), **kw)
    code = game.run()
    return code, console.export_text()


def test_play_options_choose_oware_rules_and_name_what_a_game_lacks():
    import argparse  # noqa: PLC0415

    from mancala.cli.common import build_game  # noqa: PLC0415
    from mancala.games.oware import PRESETS  # noqa: PLC0415

    def args(game, **kw):
        return argparse.Namespace(
            game=game,
            preset=kw.get("preset"),
            pits=kw.get("pits"),
            seeds=kw.get("seeds"),
            position=None,
            first=kw.get("first"),
        )

    game, state = build_game(args("oware", preset="awari", pits=5, seeds=3))
    assert game.rules.grand_slam == PRESETS["awari"].grand_slam and (game.rules.houses, game.rules.seeds) == (5, 3)
    assert state == game.initial_state() and len(state.houses) == 10
    with pytest.raises(BadInput, match="--to-move: oware has no such option"):
        build_game(args("oware", first="north"))
    with pytest.raises(BadInput, match="--preset/--seeds: bao has no such options"):
        build_game(args("bao", preset="x", seeds=2))


def test_human_vs_human_moves_undo_and_illegal_input(tmp_path):
    game = make_game("kalah")
    record = GameRecord(game, ["human", "human"])
    code, out = terminal(record, ["human", "human"], ["3", "9", "banana", "1", "undo", "2", "quit"])
    assert code == 0
    assert "South plays 3: extra turn." in out
    assert "there is no pit 9" in out and "'banana' is not a move" in out
    assert "Took back 1 move." in out
    assert [str(m) for m in record.moves] == ["3", "2"]


def test_human_vs_ai_save_and_resume(tmp_path):
    game = make_game("kalah(pits=4,seeds=2)")
    save = tmp_path / "save.json"
    record = GameRecord(game, ["human", "easy"])
    code, out = terminal(record, ["human", "easy"], ["1", "hint", f"save {save}", "quit"])
    assert code == 0 and "Hint:" in out and f"Saved to {save}" in out
    resumed = load_record(save)
    assert resumed.final_state() == record.final_state()
    # resume and finish the game with the AI on both seats
    code, out = terminal(resumed, ["easy", "easy"], [])
    assert "Game over." in out and game.is_terminal(resumed.final_state())


def test_ai_vs_ai_at_different_depths_plays_to_the_end():
    game = make_game("kalah(pits=4,seeds=3)")
    record = GameRecord(game, ["alphabeta:depth=1", "alphabeta:depth=4"])
    code, out = terminal(record, ["alphabeta:depth=1", "alphabeta:depth=4"], [])
    assert code == 0 and "Game over." in out and "[alphabeta:depth=4]" in out


@pytest.mark.processes
def test_piped_cli_session_saves_and_resumes(tmp_path):
    save = tmp_path / "game.json"
    run = lambda args, text: subprocess.run(
        [sys.executable, "-m", "mancala", *args],
        input=text,  # noqa: E731
        capture_output=True,
        text=True,
        timeout=120,
    )
    first = run(["play", "--level", "easy", "--save", str(save)], "3\n6\nquit\n")
    assert first.returncode == 0, first.stderr
    assert "South plays 3: extra turn." in first.stdout
    moves = json.loads(save.read_text())["moves"]
    assert moves[:2] == ["3", "6"] and len(moves) > 2
    second = run(["play", "--load", str(save)], "quit\n")
    assert second.returncode == 0 and "South (human) to move" in second.stdout


# --- explain ---------------------------------------------------------------


def test_explain_reproduces_seed_003s_pruning_example():
    """Seed 003: O to move on XX_/_O_/___; after O plays 3 and X wins at 2, alpha is 50 and
    the score 0, so the rest of that min node is not searched."""
    game = make_game("tictactoe")
    lines = []
    from mancala.evaluation.basic import win_loss_percent

    result = explain(game, game.parse_position("XX./.O./..."), 9, win_loss_percent, lines.append, prunes_only=True)
    assert result.move.cell == 2 and result.value == 50
    assert any(
        line.strip().startswith(
            "PRUNE: alpha is 50, score is 0: moves 2-5 (5, 6, 7, 8) of this min node on XX2/OO5/678"
        )
        for line in lines
    )


def test_explain_cli_on_kalah(capsys):
    assert main(["explain", "--pits", "3", "--seeds", "2", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "root: MAX node (South to move)" in out and "Result: best move" in out


def test_explain_cli_rejects_a_finished_position(capsys):
    assert main(["explain", "--game", "tictactoe", "--position", "XXX/OO./..."]) == 2
    assert "already finished" in capsys.readouterr().err


# --- Bao through the same layers ---------------------------------------------


def test_bao_plays_with_the_same_players_and_saves(tmp_path):
    game = make_game("bao")
    record = play_game(game, [make_player("alphabeta:depth=1"), make_player("random:seed=2")], max_moves=30)
    assert len(record.moves) == 30 or game.is_terminal(record.final_state())
    path = tmp_path / "bao.json"
    save_record(record, path)
    loaded = load_record(path)
    assert loaded.final_state() == record.final_state()
    assert json.loads(path.read_text())["game"] == "bao"


def test_bao_in_the_terminal_with_hint_and_an_illegal_move():
    game = make_game("bao")
    record = GameRecord(game, ["human", "random:seed=1"])
    code, out = terminal(record, ["human", "random:seed=1"], ["A1", "hint", "A6L*", "quit"])
    assert code == 0 and "Illegal move" in out and "Hint:" in out
    assert str(record.moves[0]) == "A6L*"


@pytest.mark.processes
def test_output_cut_short_by_the_reader_is_not_a_traceback():
    """`mancala ... | head -1`: the reader closes the pipe early; no traceback, exit 0."""
    proc = subprocess.run(
        f"'{sys.executable}' -m mancala explain --game tictactoe --position '.........' | head -1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.stdout.strip() == "012" and proc.stderr == ""


@pytest.mark.parametrize(
    "spec, message",
    [
        ("alphabeta:depth=999999", "depth must be 1-64"),
        ("minimax:depth=0", "depth must be 1-64"),
        ("best:time=1e9", "at most 3600 seconds"),
        ("best:time=nan", "at most 3600 seconds"),
        ("best:depth=100", "depth must be 1-64"),
    ],
)
def test_absurd_player_budgets_are_refused_in_one_line(spec, message, capsys):
    from mancala.cli.main import main  # noqa: PLC0415

    assert main(["match", "greedy", spec, "--games", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_an_expected_line_says_who_plays_each_turn():
    """Kalah's extra turns make a bare list of moves ambiguous: the line is grouped by turn
    and each turn names its mover; an illegal tail (a stale table line) is cut off."""
    from mancala.search.explain import line_by_turn

    game = make_game("kalah")
    start = game.initial_state()
    # pit 3 of six with four seeds ends in South's store: South moves again
    assert line_by_turn(game, start, ["3", "6", "1", "2"]) == ["South 3 6", "North 1", "South 2"]
    assert line_by_turn(game, start, ["3", "3"]) == ["South 3"]  # pit 3 is empty by then
    ttt = make_game("tictactoe")
    assert line_by_turn(ttt, ttt.initial_state(), ["4", "0", "8"]) == ["X 4", "O 0", "X 8"]


def test_the_server_hint_names_the_movers_of_its_line(tmp_path):
    from mancala.analysis import hint

    game = make_game("kalah(pits=3,seeds=2)")
    message = hint(game, game.initial_state(), 20_000)
    assert message["turns"] and message["turns"][0].startswith("South " + message["move"])
    assert sum(len(t.split()) - 1 for t in message["turns"]) == len(message["line"])
