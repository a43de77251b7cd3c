"""The type checker and the linter, run by the test command so CI runs them too.

Both as the README tells a newcomer to run them by hand, from the clone: `mypy` with
no arguments (pyproject.toml names the packages under their import name, `sarja.*`,
and typecheck/sarja/ links to their folders), `ruff check .` and `ruff format --check .`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "protocol", "client", "lang")


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    args = [_tool("mypy"), "--cache-dir", str(tmp_path / ".mypy_cache")]
    done = subprocess.run(
        args, cwd=ROOT, env={"PATH": ""}, text=True, capture_output=True, check=False
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    # All the packages, strictly (the checked count is every module of them).
    assert re.search(r"no issues found in \d+ source files", done.stdout), done.stdout
    modules = sum(len(list((ROOT / p).rglob("*.py"))) for p in PACKAGES)
    assert f"in {modules} source files" in done.stdout, done.stdout


def test_the_readme_says_how_to_run_the_checks() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "`.venv/bin/mypy`" in readme and "`.venv/bin/ruff check .`" in readme


def test_ruff_is_clean() -> None:
    done = subprocess.run(
        [_tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, text=True, capture_output=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    # The house style is ruff's format: a file left unformatted shows up in the next diff.
    done = subprocess.run(
        [_tool("ruff"), "format", "--check", "--no-cache", "."], cwd=ROOT, text=True,
        capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
