"""The structure docs/architecture.md describes, held to the code: no import circles, no
import against the flow (surfaces -> arena -> players -> engine/search/evaluation -> games),
a small package root, no ``isinstance`` on a concrete game outside its own package and no
game told apart by its name (a comparison with a game's name, a table looked up by it, a
board kind compared in the page's scripts) beyond the ones listed here to be burned down.
``pytest tests/test_architecture.py -s`` prints the figures."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mancala"

#: each module's layer (the longest matching prefix wins); a module may import only from its
#: own layer or below
LAYERS = {
    "mancala.errors": 0,
    "mancala.games": 1,
    "mancala.atomic": 1,
    "mancala.jsonread": 1,
    "mancala.record": 2,
    "mancala.search": 3,
    "mancala.evaluation": 3,
    "mancala.engine": 4,
    "mancala.mankalah": 4,
    "mancala.players": 5,
    "mancala.analysis": 5.5,
    "mancala.arena": 6,
    "mancala.server": 7,
    "mancala.ui": 7,
    "mancala.cli": 7,
    "mancala.__main__": 8,
    "mancala": 0,  # the package itself: its version, nothing else
}
#: the game classes no module outside ``games/`` may test for
GAME_CLASSES = {"Kalah", "Bao", "Oware", "TicTacToe"}
#: the isinstance checks on games left (file -> count): the Kalah engine's own (``engine/`` is
#: Kalah's package), refusing any other game at its door
KNOWN_ISINSTANCE = {"engine/engine.py": 1, "engine/book.py": 1}
#: the registered games' names (a comparison with one of them tells games apart by name)
GAME_NAMES = {"kalah", "bao", "oware", "tictactoe"}
#: the name checks left (file -> count): none; a game is told apart by what it declares (its
#: traits, its engine's record), or, for an outside program that speaks one game's rules, by
#: comparing rules (OpenSpiel's games, the ManKalah protocol, the course's starter API)
KNOWN_NAME_CHECKS: dict[str, int] = {}
#: the page's scripts, where board kinds must be looked up in the ``BOARDS`` table
STATIC = PACKAGE / "ui" / "web" / "static"
#: rooms split by concern and the most lines each may grow to (issue 28: the session, the Kalah
#: engine's face, the CLI's entry point, the page's entry script)
ROOM_LINES = {
    "server/session.py": 800,
    "engine/engine.py": 300,
    "cli/main.py": 120,
    "ui/web/static/js/main.js": 150,
}
#: the most modules at the package root besides __init__ and __main__
MAX_ROOT_MODULES = 4


def module_name(path: Path) -> str:
    """``mancala/players/spec.py`` -> ``mancala.players.spec``."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def resolve(name: str) -> str | None:
    """The module of ours an import names (a name inside a module resolves to the module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether the import sits inside a function) for every import of ours."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = set()
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(n) for n in ast.walk(func) if isinstance(n, (ast.Import, ast.ImportFrom)))
    out = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [
                f"{node.module}.{a.name}"
                if resolve(f"{node.module}.{a.name}") == f"{node.module}.{a.name}"
                else node.module
                for a in node.names
            ]
        for name in names:
            target = resolve(name) if name.startswith("mancala") else None
            if target and target != module_name(path):
                out.append((target, id(node) in inside))
    return out


def layer(module: str) -> int:
    """The layer of ``module``."""
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


GRAPH = {m: imports(p) for m, p in MODULES.items()}


def circles() -> list[list[str]]:
    """The import circles between modules (a package's face re-exporting its modules and the
    modules it imports are not a circle: a face's imports are left out)."""
    edges = defaultdict(set)
    for m, targets in GRAPH.items():
        if MODULES[m].name == "__init__.py":
            continue
        for t, _ in targets:
            edges[m].add(t)
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in list(MODULES):
        if v not in index:
            visit(v)
    return found


def against_the_flow() -> list[str]:
    """Imports from a lower layer to a higher one."""
    return [f"{m} -> {t}" for m, targets in GRAPH.items() for t, _ in targets if layer(t) > layer(m)]


def isinstance_on_games() -> dict[str, int]:
    """``isinstance(x, Kalah|Bao|TicTacToe)`` outside ``games/``, counted per file."""
    out: dict[str, int] = {}
    for path in MODULES.values():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("games/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                if any(getattr(k, "id", None) in GAME_CLASSES for k in kinds):
                    out[rel] = out.get(rel, 0) + 1
    return out


def _is_game_name(node: ast.AST) -> bool:
    """Whether ``node`` is a string constant naming a game, or a literal collection of them."""
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_game_name(e) for e in node.elts)
    return False


def _is_name_of_a_game(node: ast.AST) -> bool:
    """Whether ``node`` reads a game's name (``game.name``, ``self.game.name``,
    ``record.game.name``, ``parse_spec(...)[0]``)."""
    if isinstance(node, ast.Attribute) and node.attr == "name":
        return ast.unparse(node.value).split(".")[-1] in ("game", "g")
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
        return getattr(node.value.func, "id", None) == "parse_spec"
    return False


def name_checks_in(tree: ast.AST) -> int:
    """Games told apart by name in a module: comparisons with a game's name (``x == "kalah"``,
    ``game.name in (...)``) and tables read by a game's name (``TABLE[game.name]``,
    ``TABLE.get(game.name)``)."""
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_game_name(s) for s in sides) or any(_is_name_of_a_game(s) for s in sides):
                count += 1
        elif isinstance(node, ast.Subscript) and _is_name_of_a_game(node.slice):
            count += 1
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", None) == "get"
            and node.args
            and _is_name_of_a_game(node.args[0])
        ):
            count += 1
    return count


def name_checks() -> dict[str, int]:
    """Games told apart by name outside ``games/``, per file (Python modules and the page's
    scripts and HTML, where a board kind compared as a string counts)."""
    out: dict[str, int] = {}
    for path in MODULES.values():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("games/"):
            continue
        count = name_checks_in(ast.parse(path.read_text(encoding="utf-8")))
        if count:
            out[rel] = count
    quoted = "|".join(sorted(GAME_NAMES))
    pattern = re.compile(
        rf"""[=!]==?\s*["']({quoted})["']|["']({quoted})["']\s*[=!]==?|\[[^\]]*["']({quoted})["'][^\]]*\]\.includes"""
    )
    for path in sorted(STATIC.rglob("*")):
        if path.suffix in (".js", ".html"):
            count = len(pattern.findall(path.read_text(encoding="utf-8")))
            if count:
                out[path.relative_to(PACKAGE).as_posix()] = count
    return out


def js_circles() -> list[list[str]]:
    """The import circles between the page's script modules (``import ... from "./x.js"``)."""
    edges = {
        path.name: set(re.findall(r'^import .* from "\./([\w-]+\.js)";', path.read_text(encoding="utf-8"), flags=re.M))
        for path in STATIC.rglob("*.js")
    }
    found = []

    def visit(name: str, trail: list[str]) -> None:
        for target in sorted(edges.get(name, ())):
            if target in trail:
                found.append(trail[trail.index(target) :] + [target])
            elif len(trail) < len(edges):
                visit(target, trail + [target])

    for name in sorted(edges):
        visit(name, [name])
    return found


def test_no_import_circles():
    assert circles() == []
    assert js_circles() == [], "a part of the page calls another through state.js's ui instead"


def test_no_import_runs_against_the_flow():
    assert against_the_flow() == []


def test_the_package_root_holds_only_what_every_layer_shares():
    root = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(root) <= MAX_ROOT_MODULES, root


def test_no_new_isinstance_on_a_concrete_game():
    found = isinstance_on_games()
    new = {f: n for f, n in found.items() if n > KNOWN_ISINSTANCE.get(f, 0)}
    assert not new, f"ask the catalogues instead (docs/architecture.md): {new}"


def test_no_game_is_told_apart_by_its_name():
    found = name_checks()
    new = {f: n for f, n in found.items() if n > KNOWN_NAME_CHECKS.get(f, 0)}
    assert not new, (
        f"declare it in the game's traits or its engine's support record instead (docs/architecture.md): {new}"
    )


def test_the_split_rooms_stay_small():
    sizes = {room: len((PACKAGE / room).read_text(encoding="utf-8").splitlines()) for room in ROOM_LINES}
    assert all(sizes[room] <= most for room, most in ROOM_LINES.items()), sizes


def test_games_import_nothing_of_ours_but_errors():
    for m, targets in GRAPH.items():
        if m.startswith("mancala.games"):
            assert all(t.startswith("mancala.games") or t == "mancala.errors" for t, _ in targets), m


@pytest.mark.parametrize("figure", ["print"])
def test_print_the_figures(figure, capsys):
    function_level = sum(inner for targets in GRAPH.values() for _, inner in targets)
    with capsys.disabled():
        print(
            f"\nmodules {len(MODULES)}, imports between them {sum(len(t) for t in GRAPH.values())}, "
            f"inside functions {function_level}; circles {len(circles())}; against the flow "
            f"{len(against_the_flow())}; isinstance on games outside games/ {sum(isinstance_on_games().values())}; "
            f"games told apart by name {sum(name_checks().values())} in {len(name_checks())} files"
        )
        largest = sorted(
            (len(p.read_text(encoding="utf-8").splitlines()), p.relative_to(PACKAGE).as_posix())
            for p in [*MODULES.values(), *STATIC.rglob("*.js")]
        )[-5:]
        rooms = {room: len((PACKAGE / room).read_text(encoding="utf-8").splitlines()) for room in ROOM_LINES}
        print(
            f"largest files {', '.join(f'{name} {lines}' for lines, name in reversed(largest))}; "
            f"split rooms {', '.join(f'{name} {lines}' for name, lines in rooms.items())}"
        )
