"""The command a person is told to type to start the client works in a fresh shell:
the server's join line and the client's line on quitting."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from sarja.client import command
from sarja.client.command import client_command

from .client_helpers import SNAPSHOT, STARTED, headless

BIN = Path(sys.executable).parent
FRESH = "/usr/bin:/bin"  # a shell's PATH with no venv activated


def runnable(line: str, cwd: Path, path: str) -> bool:
    """Whether the first word of `line` runs in a shell at `cwd` with PATH `path`."""
    first = shlex.split(line)[0]
    if "/" in first:
        return os.access(cwd / first, os.X_OK)
    return shutil.which(first, path=path) is not None


def test_the_servers_join_line_runs_in_a_fresh_shell(tmp_path):
    # It used to print `sarja-client HOST:PORT`, which a fresh shell does not find.
    server = subprocess.Popen(
        [str(BIN / "sarja-server"), "--host", "127.0.0.1", "--port", "0", "--ephemeral"],
        stdout=subprocess.PIPE, text=True, cwd=tmp_path, env={**os.environ, "PATH": FRESH},
    )  # fmt: skip
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if "127.0.0.1:" in line and "listening" not in line:
                break
        else:
            raise AssertionError("no join line")
        join = line.strip()
        assert runnable(join, tmp_path, FRESH), join
        assert join.split()[-1].startswith("127.0.0.1:")
    finally:
        server.terminate()
        server.wait(10)


def test_the_command_is_the_plain_name_when_the_path_has_this_install(monkeypatch):
    monkeypatch.setenv("PATH", f"{BIN}{os.pathsep}{FRESH}")
    if (BIN / "sarja-client").exists():
        assert client_command() == "sarja-client"
    monkeypatch.setenv("PATH", FRESH)
    assert runnable(client_command(), Path.cwd(), FRESH)


def test_without_the_script_it_is_the_module(monkeypatch, tmp_path):
    python = tmp_path / "bin" / "python3"
    python.parent.mkdir()
    python.symlink_to(sys.executable)
    monkeypatch.setattr(command.sys, "executable", str(python))
    monkeypatch.setenv("PATH", FRESH)
    monkeypatch.chdir(tmp_path)
    assert client_command() == "bin/python3 -m sarja.client"


def test_the_quit_hint_gives_the_command_a_line_of_its_own():
    # It wrapped in the middle of `--name` at 80 columns.
    h = headless(STARTED, SNAPSHOT)
    h.press("q", "y")
    said, run = h.model.goodbye.splitlines()
    assert said == "Your seat in the game is kept. To come back, run:"
    assert run.startswith("    ") and run.endswith("host:7474 --name Aino")
    assert runnable(run, Path.cwd(), os.environ.get("PATH", FRESH))


def test_without_a_terminal_it_says_so_in_one_line(tmp_path):
    # Its input a pipe or /dev/null (a script, a service): it ended in a traceback.
    script = Path(sys.executable).parent / "sarja-client"
    run = [str(script)] if script.exists() else [sys.executable, "-m", "sarja.client"]
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run(
        [*run, "--name", "Dora", "127.0.0.1:1"], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        "sarja-client: run it in a terminal; its input is not one."
    ], done.stderr
    # A replay's file is still read first: what is wrong with it is said as before.
    record = tmp_path / "game.json"
    record.write_text('{"format": "something else"}', encoding="utf-8")
    done = subprocess.run(
        [*run, "--replay", str(record)], stdin=subprocess.DEVNULL,
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1 and "is not a game record" in done.stderr, done.stderr
