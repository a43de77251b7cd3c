"""The journal: games survive the server, and bad journals are refused by name.

Real SQLite files in a temporary data directory, real servers on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from sarja.protocol.codec import ClientCodec
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import Hello, Ready
from sarja.server.app import Server, serve
from sarja.server.config import ServerConfig
from sarja.server.engine import replay
from sarja.server.journal import FILE_NAME, Journal, JournalError

from .dial import dial
from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end, seat_table


def config(data_dir: Path, **more: object) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, seed=8, data_dir=data_dir, **more)  # type: ignore[arg-type]


async def play(clients: list[NetClient], moves: int, rng: random.Random) -> list[tuple[int, str]]:
    """`moves` random legal moves; returns (seat, notation) of each, in order."""
    done = []
    version = max(c.state.version for c in clients)
    for _ in range(moves):
        for c in clients:
            await c.state_at(version)
        mover = next(c for c in clients if c.state.seat == c.state.turn)
        await mover.legal_at(version)
        notation = rng.choice(mover.state.legal)
        await mover.send(mover.action_message(notation))
        version = (await mover.expect("ack")).version
        done.append((mover.state.seat, notation))
    for c in clients:
        await c.state_at(version)
    return done


async def test_a_game_goes_on_after_the_server_stops_and_starts_again(tmp_path):
    rng = random.Random(5)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        played = await play(clients, 6, rng)
        before = clients[0].state.snapshot()
        tokens = [(c.name, c.welcome.resume, c.state.seat) for c in clients]
        nursery.cancel_scope.cancel()
    for c in clients:
        await c.aclose()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        back = []
        for name, token, seat in tokens:
            client = await NetClient.connect(server.port, name, resume=token)
            snapshot = await client.expect("snapshot")
            assert snapshot.seat == seat and snapshot.version > before.version
            back.append(client)
        state = back[0].state.snapshot()
        assert (state.board, state.discard, state.turn) == (
            before.board,
            before.discard,
            before.turn,
        )
        assert back[0].welcome.last_id is not None or back[1].welcome.last_id is not None
        back.sort(key=lambda c: c.state.seat)
        for c in back:  # ids continue above what the server holds
            c._ids = iter(range((c.welcome.last_id or 0) + 1, 10**6))
        final = await play_to_the_end(back, rng, check_every=10)
        assert final.result is not None
        with trio.fail_after(PATIENCE):
            while not server.records_written:
                await trio.sleep(0.01)
        record = json.loads(server.records_written[0].read_text())
        assert [tuple(a) for a in record["actions"][: len(played)]] == played
        assert replay(record).outcome is not None
        nursery.cancel_scope.cancel()


async def test_a_resent_action_id_is_applied_once_across_a_restart(tmp_path):
    rng = random.Random(6)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        await play(clients, 2, rng)
        mover = next(c for c in clients if c.state.seat == c.state.turn)
        await mover.legal_at(mover.state.version)
        action = mover.action_message(mover.state.legal[0])
        await mover.send(action)
        ack = await mover.expect("ack")
        token, name = mover.welcome.resume, mover.name
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        back = await NetClient.connect(server.port, name, resume=token)
        snapshot = await back.expect("snapshot")
        # The answer to a resend is the first answer, whatever version it names now.
        resent = dataclasses.replace(action, version=snapshot.version)
        await back.send(resent)
        again = await back.expect("ack")
        assert (again.id, again.version) == (ack.id, ack.version)
        assert back.state.version == snapshot.version  # nothing applied
        nursery.cancel_scope.cancel()


async def test_a_waiting_table_and_its_seats_come_back(tmp_path):
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        host = await NetClient.connect(server.port, "Host")
        from sarja.protocol.messages import CreateTable

        await host.send(CreateTable(name="Kept", players=4, teams=2))
        table = await host.expect("table")
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        assert [t.name for t in server.lobby.table_list().tables] == ["Kept"]
        back = await NetClient.connect(server.port, "Host", resume=host.welcome.resume)
        again = await back.expect("table")
        assert (again.id, again.seat) == (table.id, 0)
        nursery.cancel_scope.cancel()


async def played_and_left(server: Server) -> NetClient:
    """Two play a game to the end, then Bertil (seat 1) leaves: Aino is left."""
    from sarja.protocol.messages import Leave

    aino, bertil = await seat_table(server, 2)
    await play_to_the_end([aino, bertil], random.Random(2), check_every=50)
    await bertil.send(Leave())
    await bertil.expect("tables")
    return aino


async def test_a_table_left_after_its_game_comes_back_as_a_waiting_room(tmp_path):
    # Bertil left after the game: his seat was free and the table a waiting room again.
    # After a restart it came back "playing", its last game on show, the free seat not
    # to be taken and no next game possible: stuck.
    from sarja.protocol.messages import Join, ListTables

    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        aino = await played_and_left(server)
        with trio.fail_after(PATIENCE):
            while aino.table.started:
                await aino.receive()
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        cecilia = await NetClient.connect(server.port, "Cecilia")
        await cecilia.send(ListTables())
        [listed] = (await cecilia.expect("tables")).tables
        assert not listed.started and listed.seated[1] is None
        await cecilia.send(Join(table=listed.id))
        table = await cecilia.expect("table")
        assert table.seat == 1 and not table.started
        nursery.cancel_scope.cancel()


async def test_a_table_left_after_its_game_and_filled_again_comes_back_as_a_waiting_room(
    tmp_path,
):
    # Bertil left after the game and Cecilia took his seat: a waiting room with every
    # seat held. The restore told a waiting room by a free seat only, so the table
    # came back showing the old game as over, its players asked for a rematch.
    from sarja.protocol.messages import Join

    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        aino = await played_and_left(server)
        cecilia = await NetClient.connect(server.port, "Cecilia")
        await cecilia.send(Join(table=aino.table.id))
        assert (await cecilia.expect("table")).seat == 1
        with trio.fail_after(PATIENCE):
            while aino.table.started or aino.table.seats[1].name != "Cecilia":
                await aino.receive()
        tokens = [aino.welcome.resume, cecilia.welcome.resume]
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        back = [
            await NetClient.connect(server.port, name, resume=token)
            for name, token in zip(["P0", "Cecilia"], tokens, strict=True)
        ]
        for client, seat in zip(back, [0, 1], strict=True):
            table = await client.expect("table")
            assert table.seat == seat and not table.started
            assert [s.name for s in table.seats] == ["P0", "Cecilia"]
        # A waiting room indeed: once both are ready, the table's second game begins.
        for client in back:
            await client.send(Ready(ready=True))
        for client in back:
            snapshot = await client.expect("snapshot")
            assert snapshot.result is None and snapshot.version == 0
        nursery.cancel_scope.cancel()


def make_journal(data_dir: Path) -> Path:
    journal = Journal(data_dir / FILE_NAME)
    journal.table_opened("t1", 1, "Kept", 2, 2, 7, False, False)
    journal.close()
    return data_dir / FILE_NAME


def refused(data_dir: Path) -> str:
    with pytest.raises(JournalError) as caught:
        trio.run(_start, data_dir)
    return str(caught.value)


async def _start(data_dir: Path) -> None:
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(serve, config(data_dir))
            nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        raise first_leaf(group) from None


def first_leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc


def test_a_journal_from_a_newer_server_is_refused(tmp_path):
    path = make_journal(tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    message = refused(tmp_path)
    assert str(path) in message and "newer" in message


def test_a_corrupt_journal_is_refused_not_started_over(tmp_path):
    path = make_journal(tmp_path)
    path.write_bytes(b"this is not a database" * 100)
    message = refused(tmp_path)
    assert str(path) in message and "damaged" in message
    assert path.read_bytes().startswith(b"this is not a database")  # left as it was


def test_a_truncated_journal_is_refused(tmp_path):
    path = make_journal(tmp_path)
    for extra in tmp_path.glob(FILE_NAME + "-*"):
        extra.unlink()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    message = refused(tmp_path)
    assert str(path) in message


def test_a_read_only_data_directory_is_said_in_one_line(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    with read_only(data_dir):
        code = (
            "from sarja.server.cli import main;"
            f" main(['--host', '127.0.0.1', '--port', '0', '--data-dir', {str(data_dir)!r}])"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=30
        )
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(data_dir) in lines[0], done.stderr


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """A folder no one may write in. Root ignores permission bits, so as root the
    folder is made immutable instead (which root must respect)."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(0o700)
        return
    if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        pytest.skip("this file system cannot make a folder read-only for root")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


async def test_a_full_disk_stops_the_server_and_no_unsaved_move_is_told(tmp_path, monkeypatch):
    """SQLite says the disk is full: the server says so, naming the file, and stops;
    the move it could not keep is never acknowledged."""
    from sarja.server import journal as journal_module

    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        mover = next(c for c in clients if c.state.seat == c.state.turn)
        await mover.legal_at(mover.state.version)

        def full(self: Journal, batch: object) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(journal_module.Journal, "_commit", full)
        await mover.send(mover.action_message(mover.state.legal[0]))
        with trio.fail_after(PATIENCE):
            while True:
                try:
                    msg = await mover.receive()
                except (EOFError, trio.BrokenResourceError):
                    break
                assert msg.TYPE != "ack"
        assert server.failure is not None and str(tmp_path / FILE_NAME) in server.failure
        assert "full" in server.failure


def test_games_survive_the_real_server_killed_again_and_again():
    """bench/crash.py, short: the real sarja-server process killed (SIGKILL, sometimes
    SIGTERM) while scripted players play, rematch and leave at several tables."""
    bench = Path(__file__).resolve().parent.parent / "bench" / "crash.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--quick", "--kills", "6"],
        capture_output=True, text=True, timeout=300,  # hang guards; crash.py: 240 s
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["kills"] == 6 and figures["games"] > 0 and figures["games_resumed"] > 0
    assert figures["acked_lost"] == 0 and figures["applied_twice"] == 0
    assert figures["kept_unacked"] == 0 and figures["unfinished"] == 0
    assert figures["unknown_resume"] == 0


async def test_records_are_private_kept_within_a_limit_and_written_after_a_stop(tmp_path):
    records = tmp_path / "records"
    records.mkdir(mode=0o700)
    (records / "20260101-000000-t9-game1.partial").write_text("{")  # a stop mid-write
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        server.records.kept = 1
        for _ in range(2):
            clients = await seat_table(server, 2)
            await play_to_the_end(clients, random.Random(len(server.records_written)), 3000, 10)
            with trio.fail_after(PATIENCE):
                while len(server.records_written) < 1 + (_ == 1):
                    await trio.sleep(0.01)
            for c in clients:
                await c.aclose()
        nursery.cancel_scope.cancel()
    files = sorted(records.iterdir())
    assert len(files) == 1 and files[0].suffix == ".json"  # the newest only; no .partial
    assert files[0].stat().st_mode & 0o777 == 0o600 and records.stat().st_mode & 0o777 == 0o700
    # A game that ended as the server stopped, before its record was written, is
    # recorded at the next start: the journal still marks it unrecorded.
    journal = Journal(tmp_path / FILE_NAME)
    table_id, number, _, finished = journal.games()[-1]
    assert finished
    journal.game_recorded(table_id, number)  # (queued, never committed: as if stopped)
    journal._pending.clear()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        db.execute("UPDATE games SET recorded = 0 WHERE table_id = ?", (table_id,))
    journal.close()
    files[0].unlink()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        with trio.fail_after(PATIENCE):
            while not server.records_written:
                await trio.sleep(0.01)
        assert replay(json.loads(server.records_written[0].read_text())).outcome is not None
        nursery.cancel_scope.cancel()


async def test_a_welcome_lost_in_a_crash_leaves_the_old_token_good(tmp_path):
    """The server rotates a token when it is used and keeps the new one before it
    answers; if the answer never arrives, the token the player holds still works."""
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        token, name = clients[0].welcome.resume, clients[0].name
        await clients[0].aclose()
        # Used once more, but the answer is lost (the connection ends unread).
        lost = await dial(server.port)
        codec = ClientCodec()
        await lost.send_all(codec.send(Hello(version=PROTOCOL_VERSION, name=name, resume=token)))
        await clients[1].state_at(clients[1].state.version + 2)  # away, back
        await lost.aclose()
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        back = await NetClient.connect(server.port, name, resume=token)
        assert (await back.expect("snapshot")).seat == 0
        nursery.cancel_scope.cancel()


async def export(data_dir: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """The real `sarja-server export`."""
    command = [str(Path(sys.executable).parent / "sarja-server"), "export"]
    return await trio.run_process(
        [*command, *args, "--data-dir", str(data_dir)],
        capture_stdout=True, capture_stderr=True, check=False,
    )  # fmt: skip


async def test_export_keeps_a_game_in_progress_secret_unless_the_host_asks(tmp_path):
    rng = random.Random(7)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        await play(clients, 3, rng)
        table = clients[0].table.id
        nursery.cancel_scope.cancel()
    refused = await export(tmp_path, table)
    assert refused.returncode == 1 and refused.stdout == b""  # no deck order, no hand
    why = refused.stderr.decode().strip().splitlines()
    assert len(why) == 1 and "still being played" in why[0] and "--reveal-unfinished" in why[0]
    shown = await export(tmp_path, table, "--reveal-unfinished")
    assert shown.returncode == 0 and json.loads(shown.stdout)["outcome"] is None
    assert "reveals every hand and the draw pile" in shown.stderr.decode()

    async with trio.open_nursery() as nursery:  # the game is played to its end
        server = await nursery.start(serve, config(tmp_path))
        back = []
        for c in clients:
            back.append(await NetClient.connect(server.port, c.name, resume=c.welcome.resume))
            await back[-1].expect("snapshot")
        back.sort(key=lambda c: c.state.seat)
        for c in back:
            c._ids = iter(range((c.welcome.last_id or 0) + 1, 10**6))
        await play_to_the_end(back, rng, check_every=50)
        while not server.records_written:
            await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    finished = await export(tmp_path, table)
    assert finished.returncode == 0 and finished.stderr == b"", finished.stderr
    assert json.loads(finished.stdout)["outcome"] is not None
