"""The real `sarja-server` command: it starts, prints the line players type,
serves a game, and stops cleanly on SIGTERM."""

from __future__ import annotations

import random
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import trio

from sarja.protocol.messages import CreateTable

from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end, seat_table

SERVER = str(Path(sys.executable).parent / "sarja-server")


class Started:
    def __init__(self, port: int) -> None:
        self.port = port


async def read_lines_until(stream, pattern: re.Pattern, seen: list[str]) -> re.Match:
    buffer = b""
    with trio.fail_after(PATIENCE):
        while True:
            chunk = await stream.receive_some(4096)
            assert chunk, "the server exited early: " + "".join(seen)
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                seen.append(line.decode() + "\n")
                if match := pattern.search(line.decode()):
                    return match


async def test_the_real_server_process(tmp_path):
    command = [SERVER, "--host", "127.0.0.1", "--port", "0", "--seed", "4",
               "--data-dir", str(tmp_path)]  # fmt: skip
    process = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    seen: list[str] = []
    try:
        match = await read_lines_until(
            process.stdout, re.compile(r"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$"), seen
        )
        port = int(match.group(1))
        clients = await seat_table(Started(port), 2)
        final = await play_to_the_end(clients, random.Random(1))
        assert final.result is not None
        watcher = await NetClient.connect(port, "Late")
        process.send_signal(signal.SIGTERM)
        bye = await watcher.expect("bye")
        assert bye.code == "shutdown"
        with trio.fail_after(PATIENCE):
            code = await process.wait()
        assert code == 0, "".join(seen)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    rest = (await process.stdout.receive_some(65536)).decode()
    assert "Stopped." in "".join(seen) + rest
    # On 127.0.0.1 no one else can join: it used to say "Players on this LAN join with".
    assert "Only this machine can join" in seen[1] and "LAN" not in "".join(seen) + rest
    records = list((tmp_path / "records").glob("*.json"))
    assert len(records) == 1 and '"outcome"' in records[0].read_text()


async def test_the_server_process_exits_non_zero_when_its_journal_fails(tmp_path):
    """After a journal failure the server stopped serving but the process
    waited for a signal, so a supervisor never saw it stop."""
    command = [SERVER, "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path)]
    process = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    seen: list[str] = []
    try:
        match = await read_lines_until(
            process.stdout, re.compile(r"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$"), seen
        )
        port = int(match.group(1))
        # Another program makes the journal refuse the next table: its commit fails.
        db = sqlite3.connect(tmp_path / "journal.sqlite3")
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON tables"
            " BEGIN SELECT RAISE(ABORT, 'no more tables'); END"
        )
        db.commit()
        db.close()
        host = await NetClient.connect(port, "Host")
        await host.send(CreateTable(name="Doomed", players=2, teams=2))
        with trio.fail_after(PATIENCE):  # a hang guard only: it exits at once
            code = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert code == 1
    errors = (await process.stderr.receive_some(65536)).decode().strip().splitlines()
    last = errors[-1]
    assert last.startswith("sarja-server: cannot write the journal") and "no more tables" in last
    assert not any("Traceback" in line for line in errors)


async def test_one_server_per_data_directory(tmp_path):
    """A second server on the same data directory says so in one line and exits
    non-zero; `export` still reads the journal meanwhile; after a kill -9 of the
    first, the lock is gone with it and a new server starts."""
    command = [SERVER, "--host", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path)]
    listening = re.compile(r"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$")
    first = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    seen: list[str] = []
    try:
        port = int((await read_lines_until(first.stdout, listening, seen)).group(1))
        clients = await seat_table(Started(port), 2, name="Kept")
        second = await trio.lowlevel.open_process(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        try:
            out = b""  # until it exits, or says it listens (and would run on)
            while b"listening" not in out and (chunk := await second.stdout.receive_some(4096)):
                out += chunk
            assert b"listening" not in out, out
            assert await second.wait() != 0
            err = await second.stderr.receive_some(65536)
        finally:
            if second.returncode is None:
                second.kill()
                await second.wait()
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1, lines
        assert str(tmp_path) in lines[0] and "another sarja-server" in lines[0], lines
        assert "--data-dir" in lines[0]  # what to do
        listed = await trio.run_process(
            [SERVER, "export", "--data-dir", str(tmp_path)], capture_stdout=True
        )
        assert "'Kept'  in progress" in listed.stdout.decode()
        assert clients[0].state is not None
    finally:
        first.kill()  # SIGKILL: nothing of the first server runs to drop the lock
        await first.wait()
    third = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        await read_lines_until(third.stdout, listening, seen)
    finally:
        third.kill()
        await third.wait()
