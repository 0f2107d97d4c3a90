"""Opening trees (mancala.engine.opening_tree): grown by drop-out expansion on tiny boards,
valued by negamax over the engine's leaf searches, written and checked, resumed to the same
book, played by the best player ("book") and shown by the explorer; the CLI's build and check."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from mancala.analysis.position import explore
from mancala.cli.main import main
from mancala.engine import opening_tree as T
from mancala.errors import BadInput
from mancala.games import make_game
from mancala.players import make_player

OWARE = "oware(houses=3,seeds=2)"
TOGYZ = "togyz(houses=3,stones=2)"
KALAH = "kalah(pits=3,seeds=2)"
#: the leaf search's nodes and the book's positions: a tiny book in a fraction of a second
NODES = 300
POSITIONS = 60


@pytest.fixture(scope="module", params=[OWARE, TOGYZ, KALAH])
def built(request, tmp_path_factory) -> tuple:
    game = make_game(request.param)
    path = tmp_path_factory.mktemp("tree") / "book.tree.gz"
    tree = T.build(game, POSITIONS, NODES, out=path)
    return game, tree, path


def lines_of(path: Path) -> tuple[dict, dict[str, list[str]]]:
    """A book file's header and its lines by key (read here, not by the module)."""
    text = gzip.decompress(path.read_bytes()).decode()
    first, *rest = text.splitlines()
    return json.loads(first), {line.split("\t")[0]: line.split("\t") for line in rest}


def test_every_value_is_the_negamax_of_its_children_or_its_leaf_search(built):
    game, tree, path = built
    head, rows = lines_of(path)
    assert head["positions"] == len(rows) >= POSITIONS and head["nodes"] == NODES
    expanded = 0
    scorer = T.engine_scorer(game)
    for key, (_, seat, score, smove, snodes, seq, _, value, move, work) in rows.items():
        state = game.parse_position(key)
        assert int(seat) == game.to_move(state)
        if seq == "-":  # a leaf: the engine's search of NODES nodes, again
            assert (float(value), move, int(work)) == (float(score), smove, int(snodes))
            assert scorer(game, state, NODES) == (float(score), smove, int(snodes)), key
            continue
        expanded += 1
        values, total = {}, 0
        for m in game.legal_moves(state):
            child = game.apply(state, m)
            if game.is_terminal(child):
                values[str(m)] = float(game.score(child, int(seat)))
                continue
            row = rows[game.position_string(child)]  # every child of an expanded position is in the book
            sign = 1 if int(row[1]) == int(seat) else -1
            values[str(m)] = sign * float(row[7])
            total += int(row[9])
        assert float(value) == max(values.values()), key
        assert values[move] == float(value) and int(work) == total, key
    assert expanded >= 5
    assert T.check_tree(path, game) == []


def test_the_file_round_trips_and_names_its_rules(built):
    game, tree, path = built
    again = T.load_tree(path, game)
    assert T.dumps(again) == path.read_bytes()
    head = T.read_header(path)
    assert head["game"] == game.name and head["rules"] == T.rules_key(game)["rules"]
    assert head["engine"].startswith("0.") and head["weight"] == T.DEFAULT_WEIGHT
    assert head["root"] == game.position_string(game.initial_state())


def rewrite(path: Path, out: Path, change) -> Path:
    text = gzip.decompress(path.read_bytes()).decode()
    out.write_bytes(gzip.compress(change(text).encode()))
    return out


def test_a_damaged_edited_or_foreign_file_is_refused(tmp_path):
    game = make_game(OWARE)
    path = tmp_path / "book.tree.gz"
    T.build(game, 20, NODES, out=path)
    edited = rewrite(path, tmp_path / "edited.tree.gz", lambda t: t.replace("\t-\t-\t", "\t-\t-\t", 1)[:-20] + "\n")
    with pytest.raises(BadInput, match="checksum mismatch"):
        T.load_tree(edited, game)
    newer = rewrite(path, tmp_path / "v2.tree.gz", lambda t: t.replace('"version": 1', '"version": 2', 1))
    with pytest.raises(BadInput, match="version 2"):
        T.load_tree(newer, game)
    (tmp_path / "plain.tree.gz").write_text("not a book")
    with pytest.raises(BadInput, match="not an opening tree"):
        T.load_tree(tmp_path / "plain.tree.gz", game)
    with pytest.raises(BadInput, match="not for these rules"):
        T.load_tree(path, make_game("oware(houses=3,seeds=3)"))
    with pytest.raises(BadInput, match="not for these rules"):
        T.TreeBook(path, make_game(TOGYZ))
    # a build does not write over a file that is not a book
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BadInput, match="is not an opening tree"):
        T.build(game, 20, NODES, out=tmp_path / "notes.txt")
    assert (tmp_path / "notes.txt").read_text() == "mine"


class Stop:
    """A progress callback that interrupts the build after ``after`` expansions."""

    def __init__(self, after: int) -> None:
        self.after, self.seen = after, 0

    def __call__(self, positions: int, target: int) -> None:
        self.seen += 1
        if self.seen >= self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("spec", [OWARE, TOGYZ])
@pytest.mark.parametrize("after", [1, 5, 12])
def test_an_interrupted_build_resumes_to_the_same_book(spec, after, tmp_path):
    game = make_game(spec)
    whole = tmp_path / "whole.tree.gz"
    T.build(game, 90, NODES, out=whole)
    cut = tmp_path / "cut.tree.gz"
    with pytest.raises(KeyboardInterrupt):
        T.build(game, 90, NODES, out=cut, progress=Stop(after))
    assert not cut.exists() and (tmp_path / "cut.tree.gz.partial").exists()
    T.build(game, 90, NODES, out=cut)
    assert not (tmp_path / "cut.tree.gz.partial").exists()
    assert lines_of(cut)[1] == lines_of(whole)[1]


def test_a_finished_book_grows_to_the_book_built_at_once(tmp_path):
    game = make_game(OWARE)
    whole, grown = tmp_path / "whole.tree.gz", tmp_path / "grown.tree.gz"
    T.build(game, 120, NODES, out=whole)
    T.build(game, 50, NODES, out=grown)
    T.build(game, 120, NODES, out=grown)
    assert lines_of(grown)[1] == lines_of(whole)[1]
    with pytest.raises(BadInput, match="built with --nodes 300"):
        T.build(game, 130, 400, out=grown)


def test_a_whole_tiny_game_ends_the_build(tmp_path):
    game = make_game("oware(houses=2,seeds=1)")
    tree = T.build(game, 10_000, NODES, out=tmp_path / "all.tree.gz")
    assert len(tree.nodes) < 10_000
    assert all(n.seq is not None for n in tree.nodes.values())
    assert T.check_tree(tmp_path / "all.tree.gz", game) == []


@pytest.fixture
def book_here(monkeypatch, tmp_path):
    """Books looked for in ``tmp_path`` only (not the cache's nor the shipped ones)."""
    monkeypatch.setattr(T, "book_dirs", lambda: [tmp_path])
    monkeypatch.setattr(T, "_books", {})
    return tmp_path


def test_the_best_player_plays_the_book_move_and_says_book(book_here):
    game = make_game(OWARE)
    tree = T.build(game, POSITIONS, NODES, out=book_here / "x.tree.gz")
    start = game.initial_state()
    value, move, work = tree.derive()[tree.root]
    player = make_player("best:nodes=1000")
    assert str(player.choose(game, start)) == move
    assert player.last.algorithm == "book" and player.last.nodes == 0 and player.last.value == value
    assert str(player.last.line[0]) == move and len(player.last.line) > 1
    for spec in ("best:nodes=1000,book=off", "best:depth=3", f"best:nodes={work + 1}"):
        other = make_player(spec)
        other.choose(game, start)
        assert other.last.algorithm != "book", spec
    # a position out of the book: the engine
    book = T.book_for(game)
    level, far = [start], None
    while far is None:
        level = [c for s in level for m in game.legal_moves(s) if not game.is_terminal(c := game.apply(s, m))]
        far = next((s for s in level if book.get(game, s) is None), None)
    player.choose(game, far)
    assert player.last.algorithm != "book" and player.last.nodes > 0


def test_the_explorer_shows_the_books_moves_and_values(book_here):
    game = make_game(TOGYZ)
    tree = T.build(game, POSITIONS, NODES, out=book_here / "x.tree.gz")
    shown = explore(game, game.initial_state())
    assert shown["available"] and shown["line"][0] == tree.derive()[tree.root][1]
    assert shown["moves"][0]["value"] == tree.derive()[tree.root][0]
    assert all(row["in_book"] for row in shown["moves"]) and "not proofs" in shown["text"]
    other = explore(make_game("togyz(houses=4,stones=2)"), make_game("togyz(houses=4,stones=2)").initial_state())
    assert not other["available"]


def test_the_cli_builds_and_checks_a_book(tmp_path, capsys):
    out = tmp_path / "cli.tree.gz"
    args = ["book", "build", "--game", OWARE, "--positions", "40", "--nodes", str(NODES), "--no-progress"]
    assert main([*args, "--out", str(out)]) == 0
    assert "40 positions" in capsys.readouterr().out or out.exists()
    assert main(["book", "check", "--game", OWARE, str(out)]) == 0
    assert ": ok" in capsys.readouterr().out
    assert main(["book", "check", str(out)]) == 0  # the file names its own game
    capsys.readouterr()
    assert main(["book", "check", "--game", TOGYZ, str(out)]) == 2
    assert "not for these rules" in capsys.readouterr().err
    for bad in (
        ["--positions", "0"],
        ["--turns", "2"],
        ["--positions", "99999999999"],
        ["--nodes", "10" * 6],
        ["--jobs", "65"],
    ):
        assert main([*args[:4], *bad, "--out", str(tmp_path / "b.tree.gz")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
    assert main(["book", "build", "--game", "tictactoe", "--out", str(tmp_path / "t.tree.gz")]) == 2
    assert "no engine" in capsys.readouterr().err
    assert main(["book", "build", "--game", "bao", "--out", str(tmp_path / "b.tree.gz")]) == 2
    assert "reads no opening tree" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["oware", "oware(preset=awari)", "togyz"])
def test_the_shipped_books(spec):
    game = make_game(spec)
    book = T.book_for(game, [T.BOOK_DIR])
    assert book is not None and len(book.entries) >= 1000
    path = T.BOOK_DIR / T.file_name(game)
    assert book.path == path and T.check_tree(path, game) == []
    entry = book.get(game, game.initial_state())
    assert entry is not None and entry.expanded and entry.work > 10**6


def test_a_journal_line_cut_short_is_dropped_and_done_again(tmp_path):
    game = make_game(OWARE)
    whole, cut = tmp_path / "whole.tree.gz", tmp_path / "cut.tree.gz"
    T.build(game, 60, NODES, out=whole)
    with pytest.raises(KeyboardInterrupt):
        T.build(game, 60, NODES, out=cut, progress=Stop(4))
    partial = tmp_path / "cut.tree.gz.partial"
    text = partial.read_text()
    last = text.rstrip("\n").rpartition("\n")[2]
    partial.write_text(text.rstrip("\n")[: len(text.rstrip("\n")) - 2])  # the last line lost its end
    assert not partial.read_text().endswith(last)
    T.build(game, 60, NODES, out=cut)
    assert lines_of(cut)[1] == lines_of(whole)[1]


@pytest.mark.processes
@pytest.mark.parametrize("after", [70, 100])  # during the expansions, during the searches ahead
def test_a_parallel_build_is_the_same_book_and_resumes_too(after, tmp_path):
    game = make_game(OWARE)
    whole, two, cut = tmp_path / "whole.tree.gz", tmp_path / "two.tree.gz", tmp_path / "cut.tree.gz"
    T.build(game, 150, NODES, out=whole)
    T.build(game, 150, NODES, out=two, jobs=2)
    assert lines_of(two)[1] == lines_of(whole)[1]
    with pytest.raises(KeyboardInterrupt):
        T.build(game, 150, NODES, out=cut, progress=Stop(after), jobs=2)
    T.build(game, 150, NODES, out=cut)
    assert lines_of(cut)[1] == lines_of(whole)[1]
