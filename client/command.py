"""How to start `sarja-client` from this install, as a person would type it here.

The join line the server prints and the line a client leaves on quitting must work in
a fresh shell: a venv's scripts are not on its PATH, so `sarja-client` alone may name
nothing (or another install). Standard library only: the server prints this too.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

NAME = "sarja-client"


def client_command() -> str:
    """`sarja-client` when that is this install's on the PATH; else the script beside
    this Python (e.g. `.venv/bin/sarja-client`); else `python -m sarja.client`."""
    python = Path(sys.executable)
    script = python.with_name(NAME)
    found = shutil.which(NAME)
    if found is not None and (not script.exists() or _same(Path(found), script)):
        return NAME
    if script.exists():
        return shlex.quote(_as_typed(script))
    return f"{shlex.quote(_as_typed(python))} -m sarja.client"


def _same(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)
    except OSError:
        return False


def _as_typed(path: Path) -> str:
    """Relative to the working directory when it lies under it, else absolute."""
    full = Path(os.path.abspath(path))
    try:
        return str(full.relative_to(Path.cwd()))
    except ValueError:
        return str(full)
