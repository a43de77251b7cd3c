"""The host's read-only commands beside a running server of an older version (the
package upgraded under it): `standings` and `export` used to bring its journal up to
this version's schema under it, after which that server could not start on its own
data again ("written by a newer sarja-server")."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from sarja.server.datalock import DataDirLock
from sarja.server.journal import FILE_NAME, Journal

from .server_helpers import BACK_TO_VERSION_8

SERVER = str(Path(sys.executable).parent / "sarja-server")
ENGLISH = {k: v for k, v in os.environ.items() if not k.startswith(("LANG", "LC_"))}


def version(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def test_standings_and_export_leave_a_running_older_server_s_journal_as_it_is(tmp_path):
    path = tmp_path / FILE_NAME
    Journal(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:  # as version 8 left it
        db.executescript(BACK_TO_VERSION_8)
    lock = DataDirLock.take(tmp_path)  # the older server, running on it
    try:
        for command in ("standings", "export"):
            done = subprocess.run(
                [SERVER, command, "--data-dir", str(tmp_path)],
                capture_output=True, text=True, env={**ENGLISH, "LANG": "C"}, check=False,
            )  # fmt: skip
            assert done.returncode == 1, (command, done.stdout)
            said = done.stderr.lower()
            assert "older sarja-server" in said and "stop it" in said, done.stderr
            assert version(path) == 8, command
    finally:
        lock.release()
