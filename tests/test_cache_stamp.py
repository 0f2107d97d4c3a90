"""``mancala.engine.cache_stamp``: numba's cache files compiled from other engine sources than
the installed ones are removed before anything compiles (numba checks only a function's own
file, so a search would keep old kernels of another file)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mancala.engine import cache_stamp as C


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "engine"
    (root / "game").mkdir(parents=True)
    (root / "kit.py").write_text("X = 1\n")
    (root / "game" / "search.py").write_text("Y = 2\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    return root, cache


def _numba_files(cache: Path) -> list[str]:
    for name in ("search.negamax-10.py311.nbi", "search.negamax-10.py311.1.nbc"):
        (cache / name).write_bytes(b"compiled")
    return sorted(p.name for p in cache.glob("*.nb?"))


def test_an_unstamped_cache_is_emptied_of_numba_files_and_stamped(tmp_path):
    root, cache = _tree(tmp_path)
    files = _numba_files(cache)
    (cache / "compile-seconds.json").write_text("{}")  # not numba's: kept
    removed = C.drop_stale(root, [cache])
    assert sorted(p.name for p in removed) == files
    assert not list(cache.glob("*.nb?")) and (cache / "compile-seconds.json").exists()
    assert (cache / C.STAMP).read_text() == C.sources_digest(root)


def test_the_same_sources_keep_the_cache_and_a_changed_file_drops_it(tmp_path):
    root, cache = _tree(tmp_path)
    C.drop_stale(root, [cache])
    files = _numba_files(cache)
    assert C.drop_stale(root, [cache]) == []
    assert sorted(p.name for p in cache.glob("*.nb?")) == files
    (root / "kit.py").write_text("X = 3\n")  # another file than the search's changed
    assert sorted(p.name for p in C.drop_stale(root, [cache])) == files
    assert not list(cache.glob("*.nb?"))


def test_a_changed_evaluation_module_drops_the_cache_too(tmp_path):
    """The kernels compile in constants of the evaluation's modules (Oware's HOUSE_CAP): a
    change there is a change of the compiled code."""
    root, cache = _tree(tmp_path)
    evaluation = tmp_path / "evaluation"
    evaluation.mkdir()
    (evaluation / "oware.py").write_text("HOUSE_CAP = 20\n")
    C.drop_stale(root, [cache], [evaluation])
    files = _numba_files(cache)
    assert C.drop_stale(root, [cache], [evaluation]) == []
    (evaluation / "oware.py").write_text("HOUSE_CAP = 24\n")
    assert sorted(p.name for p in C.drop_stale(root, [cache], [evaluation])) == files
    assert C.sources_digest(root, [evaluation]) != C.sources_digest(root)


def test_the_digest_names_every_source_file_and_its_place(tmp_path):
    root, _ = _tree(tmp_path)
    before = C.sources_digest(root)
    (root / "game" / "kit.py").write_text("X = 1\n")  # the same bytes in another place
    assert C.sources_digest(root) != before
    (root / "game" / "kit.py").unlink()
    assert C.sources_digest(root) == before


def test_a_missing_folder_is_left_alone(tmp_path):
    root, _ = _tree(tmp_path)
    assert C.drop_stale(root, [tmp_path / "nowhere"]) == []
    assert not (tmp_path / "nowhere").exists()


def test_importing_the_engine_stamps_numba_s_folders(tmp_path):
    """A fresh process with its own ``NUMBA_CACHE_DIR``: a stale file of the Oware engine's
    folder is gone after ``import mancala.engine``, and the folder carries the digest."""
    root = Path(C.__file__).resolve().parent
    folders = C.engine_cache_folders(C.source_folder_caches(root))
    env_dir = tmp_path / "numba"
    code = (
        "import os, sys; from pathlib import Path; "
        "from mancala.engine.readiness import cache_folders; "
        "import mancala.engine.cache_stamp as C; "
        "root = Path(C.__file__).resolve().parent; "
        "folder = cache_folders(root / 'oware' / 'search.py')[0]; "
        "print(folder)"
    )
    env = {"NUMBA_CACHE_DIR": str(env_dir), "PATH": "/usr/bin:/bin"}
    folder = Path(
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip()
    )
    folder.mkdir(parents=True, exist_ok=True)  # (that import made it already, and stamped it)
    (folder / C.STAMP).write_text("the digest of older sources")
    (folder / "search.negamax-1.py311.nbi").write_bytes(b"old")
    subprocess.run([sys.executable, "-c", "import mancala.engine"], env=env, check=True)
    assert not (folder / "search.negamax-1.py311.nbi").exists()
    assert (folder / C.STAMP).read_text() == C.sources_digest(root, C.compiled_in(root))
    assert all(any(game in str(f) for f in folders) for game in ("oware", "togyz", "bao"))  # every engine's folder


def test_a_fresh_cache_s_first_compile_is_kept_by_the_next_process(tmp_path):
    """On an empty ``NUMBA_CACHE_DIR`` the first import makes and stamps every engine folder,
    so what numba compiles into them is still there after the next process's import (an
    unstamped folder, made by numba itself, would be emptied: every engine compiled twice)."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", "import mancala.engine"], env=env, check=True)
    folders = sorted((tmp_path / "numba").iterdir())
    root = Path(C.__file__).resolve().parent
    assert {f.name.split("_")[0] for f in folders} >= {"engine", "oware", "togyz", "bao"}
    assert all((f / C.STAMP).read_text() == C.sources_digest(root, C.compiled_in(root)) for f in folders)
    for f in folders:  # what a compile leaves there
        (f / "search.negamax-1.py311.nbi").write_bytes(b"compiled")
    subprocess.run([sys.executable, "-c", "import mancala.engine"], env=env, check=True)
    assert all((f / "search.negamax-1.py311.nbi").exists() for f in folders)


def test_folders_that_cannot_be_made_are_passed_over(tmp_path, monkeypatch):
    import mancala.engine.readiness as readiness  # noqa: PLC0415

    root, _ = _tree(tmp_path)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")  # so nothing can be made under it
    monkeypatch.setattr(
        readiness, "cache_folders", lambda source: [blocked / "numba", tmp_path / "user" / source.parent.name]
    )
    made = C.make_missing_folders(C.source_folder_caches(root))
    assert sorted(p.name for p in made) == ["engine", "game"] and all(p.is_dir() for p in made)
