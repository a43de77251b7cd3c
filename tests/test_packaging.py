"""The package installs under one name, its docstring examples hold, the
engine stays pure, and the README's test command is the one CI runs."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import sarja.server.engine

ROOT = Path(__file__).resolve().parent.parent


def test_only_the_sarja_name_is_installed(tmp_path):
    def run(code: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True
        )

    for bare in ("server", "client", "protocol"):
        assert run(f"import {bare}").returncode != 0, f"a bare `import {bare}` worked"
    assert run("import sarja.server, sarja.client, sarja.protocol").returncode == 0


ENGINE_MODULES = [
    f"sarja.server.engine.{m.name}" for m in pkgutil.iter_modules(sarja.server.engine.__path__)
]
# The bottom layer: the words the engine, the protocol and the client share.
VOCABULARY = ["sarja.protocol.cards", "sarja.protocol.notation", "sarja.protocol.changes"]


@pytest.mark.parametrize("name", ENGINE_MODULES + VOCABULARY)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_the_engine_imports_no_io():
    code = (
        "import sys, sarja.server.engine as e; "
        "bad = {'trio', 'msgpack', 'prompt_toolkit', 'socket', 'asyncio', 'selectors'} "
        "& set(sys.modules); print(sorted(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_readme_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    command = next(line for line in ci_lines if line.startswith("python3 -m venv"))
    assert command in readme


def test_the_vocabulary_imports_only_the_standard_library():
    """`import sarja.protocol` loads nothing, and the vocabulary loads only itself: the
    engine imports it without the wire's msgpack."""
    code = (
        "import sys; before = set(sys.modules); "
        f"import {', '.join(VOCABULARY)}; "
        "new = sorted(m for m in set(sys.modules) - before if m.startswith('sarja')); "
        "print(new, 'msgpack' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    expected = sorted(["sarja", "sarja.protocol", *VOCABULARY])
    assert out.stdout.strip() == f"{expected} False", out.stdout + out.stderr
