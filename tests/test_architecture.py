"""The structure docs/architecture.md describes, held to the code: no import circles, no
import against the flow (surfaces -> arena -> players -> engine/search/evaluation -> games),
a small package root, and no ``isinstance`` on a concrete game outside its own package
beyond the ones listed here to be burned down.  ``pytest tests/test_architecture.py -s``
prints the figures."""

from __future__ import annotations

import ast
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
KNOWN_ISINSTANCE = {"engine/engine.py": 2, "engine/book.py": 1}
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


def test_no_import_circles():
    assert circles() == []


def test_no_import_runs_against_the_flow():
    assert against_the_flow() == []


def test_the_package_root_holds_only_what_every_layer_shares():
    root = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(root) <= MAX_ROOT_MODULES, root


def test_no_new_isinstance_on_a_concrete_game():
    found = isinstance_on_games()
    new = {f: n for f, n in found.items() if n > KNOWN_ISINSTANCE.get(f, 0)}
    assert not new, f"ask the catalogues instead (docs/architecture.md): {new}"


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
            f"{len(against_the_flow())}; isinstance on games outside games/ {sum(isinstance_on_games().values())}"
        )
