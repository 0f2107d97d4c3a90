"""The suite's own promises (docs/testing.md): the README's test command and .ci/run install
axe-core and run both tiers; markers are strict and warnings are errors."""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

from helpers import AXE_INSTALL

REPO = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    """The README's second quick-start line: the one that runs the tests."""
    lines = [line for line in (REPO / "README.md").read_text().splitlines() if line.startswith("python3 -m venv")]
    return lines[1]


def pytest_options() -> dict:
    """``[tool.pytest.ini_options]`` of pyproject.toml."""
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]


def test_the_readme_command_installs_axe_core_and_runs_both_tiers():
    steps = [step.strip() for step in readme_test_command().split("&&")]
    assert AXE_INSTALL in steps
    assert steps[-1] == ".venv/bin/python -m pytest"  # no -m: both tiers


def test_ci_runs_the_readme_command():
    ci = (REPO / ".ci" / "run").read_text()
    for step in readme_test_command().split("&&"):
        assert step.strip() in ci, step
    assert ci.rstrip().splitlines()[-1] == ".venv/bin/python -m pytest"


def test_markers_are_strict_and_the_default_selects_everything():
    options = pytest_options()
    addopts = shlex.split(options["addopts"])
    assert "--strict-markers" in addopts and "-m" not in addopts
    assert {m.split(":")[0] for m in options["markers"]} == {"browser", "cluster", "processes", "slow"}


def test_warnings_are_errors():
    assert pytest_options()["filterwarnings"][0] == "error"
