"""The type checker and the linter, run by the test command so CI runs them too.

mypy must see the packages under their import name, `sarja.*`, but the folders are
`server/`, `protocol/`, `client/` and `lang/`: a tree of links in a temporary folder gives it
that view without installing anything.
"""

from __future__ import annotations

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
    tree = tmp_path / "sarja"
    tree.mkdir()
    for name in PACKAGES:
        (tree / name).symlink_to(ROOT / name, target_is_directory=True)
    args = [_tool("mypy"), "--strict", "--config-file", str(ROOT / "pyproject.toml")]
    args += ["--cache-dir", str(tmp_path / ".mypy_cache")]
    for name in PACKAGES:
        args += ["-p", f"sarja.{name}"]
    done = subprocess.run(
        args, cwd=tmp_path, env={"MYPYPATH": str(tmp_path), "PATH": ""}, text=True,
        capture_output=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_is_clean() -> None:
    done = subprocess.run(
        [_tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, text=True, capture_output=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
