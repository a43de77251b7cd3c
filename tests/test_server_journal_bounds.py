"""The journal's bounds: a write-ahead log that is emptied, rows deleted once
nothing can come back to them, resume tokens found by an index, files for the host alone.

Real SQLite files in a temporary data directory, real servers on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import trio

from sarja.protocol.messages import CreateTable, Join, Leave, Ping, Rematch
from sarja.server import journal_rows as rows
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.journal import FILE_NAME, SCHEMA_VERSION, Journal, token_hash
from sarja.server.outflow import Outflow

from .netclient import NetClient
from .server_helpers import play_to_the_end, seat_table
from .test_server_journal import play

ROWS = ("tables", "seats", "guests", "games", "actions")


def config(data_dir: Path, **more: object) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, seed=8, data_dir=data_dir, **more)  # type: ignore[arg-type]


def counts(path: Path, tables: tuple[str, ...] = ROWS) -> dict[str, int]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return {t: db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


def query(path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql, params).fetchall()


async def until(done: Callable[[], object]) -> None:
    with trio.fail_after(20):
        while not done():
            await trio.sleep(0.01)


# ----- the write-ahead log ----------------------------------------------------------------


def wal_size(path: Path) -> int:
    try:
        return Path(f"{path}-wal").stat().st_size
    except FileNotFoundError:
        return 0


async def test_a_flat_out_writer_keeps_the_log_under_its_limit(tmp_path):
    """Under constant writes the log never grows far past its limit (a PASSIVE
    checkpoint every 5 s, as before, never got it to reset: 632 MB of log in 60 s from
    one guest; here 6,000 commits of about 10 KB each)."""
    path = tmp_path / FILE_NAME
    limit = 256 * 1024
    journal = Journal(path, wal_limit=limit)
    journal.table_opened("t1", 1, "Busy", 2, 2, 7, False, None)
    journal.game_started("t1", 1, (((0, 1), (1, 2)),), tuple(range(104)))
    peak = 0
    async with trio.open_nursery() as nursery:
        nursery.start_soon(journal.run)
        for n in range(1, 6001):
            journal.action("t1", 1, n, n % 2, "D5", n, n, [])
            journal.table_version("t1", n)
            assert await journal.durable(journal.epoch)
            peak = max(peak, wal_size(path))
        nursery.cancel_scope.cancel()
    journal.close()
    # (The size is looked at every 64 commits or 20 ms: a little over, at most.)
    assert peak <= limit + 2 * 1024 * 1024, peak
    with contextlib.closing(sqlite3.connect(path)) as db:  # nothing lost on the way
        assert db.execute("SELECT count(*) FROM actions").fetchone()[0] == 6000


async def test_frames_wait_for_the_commit_while_the_log_is_emptied(tmp_path):
    """Writes made during a checkpoint wait in the next batch: the frames queued after
    them are released only once they are committed, whatever the checkpoint is doing,
    and in the order they were queued."""
    path = tmp_path / FILE_NAME
    journal = Journal(path, wal_limit=1)  # a checkpoint after every commit
    outflow = Outflow(journal)
    ping = Ping(n=1, _trusted=True)

    class Sink:
        def __init__(self) -> None:
            self.got: list[tuple[bytes, int]] = []  # what was delivered, and when

        def encode(self, msg: object) -> bytes:
            raise AssertionError("frames come encoded here")

        def admit(self, msg: object, frame: bytes) -> bool:
            return True

        def deliver(self, data: bytes, frames: int) -> None:
            self.got.append((data, journal.committed))

    sink = Sink()
    journal.table_opened("t1", 1, "Busy", 2, 2, 7, False, None)
    written: list[int] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(outflow.run)
        for n in range(200):
            outflow.write(rows.table_version("t1", n))
            written.append(journal.epoch)
            outflow.send(sink, ping, n.to_bytes(2, "big"))
            if n % 7 == 0:
                await trio.sleep(0)
        await journal.durable(journal.epoch)
        nursery.cancel_scope.cancel()
    journal.close()
    frames = [(data[i : i + 2], at) for data, at in sink.got for i in range(0, len(data), 2)]
    assert [int.from_bytes(f, "big") for f, _ in frames] == list(range(200))
    assert all(at >= epoch for (_, at), epoch in zip(frames, written, strict=True))
    assert journal.wal is not None and journal.wal.truncations


async def test_a_quiet_journal_empties_its_log(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path, checkpoint_every=0.05)
    journal.table_opened("t1", 1, "Quiet", 2, 2, 7, False, None)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(journal.run)
        await journal.durable(journal.epoch)
        await until(lambda: wal_size(path) == 0)
        nursery.cancel_scope.cancel()
    journal.close()
    assert query(path, "SELECT name FROM tables") == [("Quiet",)]


async def test_the_server_keeps_the_log_under_its_configured_limit(tmp_path):
    """Moves as fast as two players make them: about 10 KB of log each, 100 of them."""
    limit = 48 * 1024
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path, wal_limit=limit))
        clients = await seat_table(server, 2)
        peak = moves = 0
        rng = random.Random(4)
        while moves < 100 and clients[0].state is not None and clients[0].state.result is None:
            await play(clients, 1, rng)
            moves += 1
            peak = max(peak, wal_size(tmp_path / FILE_NAME))
        nursery.cancel_scope.cancel()
    assert moves >= 60
    assert 0 < peak <= limit + 256 * 1024, peak


KILLED_WRITER = """
import os, signal, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("CREATE TABLE filler (n INTEGER PRIMARY KEY, text TEXT)")
for n in range(600):
    db.execute("INSERT INTO filler VALUES (?, ?)", (n, "x" * 3000))
os.kill(os.getpid(), signal.SIGKILL)
"""


async def test_a_log_left_by_a_killed_server_is_emptied(tmp_path):
    """A crash-test run left a 408 MB log beside a 3.9 MB database: the next start
    empties whatever log it finds, once it passes the limit."""
    path = tmp_path / FILE_NAME
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], timeout=60)
    left = wal_size(path)
    assert left > 1024 * 1024
    journal = Journal(path, wal_limit=256 * 1024)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(journal.run)
        journal.table_opened("t1", 1, "After", 2, 2, 7, False, None)
        await journal.durable(journal.epoch)
        await until(lambda: wal_size(path) <= 256 * 1024)
        nursery.cancel_scope.cancel()
    journal.close()
    assert query(path, "SELECT count(*) FROM filler") == [(600,)]  # nothing lost


# ----- rows deleted -------------------------------------------------------------------------


async def test_a_finished_game_leaves_its_result_and_record_not_its_moves(tmp_path):
    """Once its record is written and the next game starts, a finished game's set-up and
    actions leave the journal; a `results` row says who played and how it ended, and
    `sarja-server export` gives the game from its record file."""
    path = tmp_path / FILE_NAME
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        table_id = clients[0].table.id
        final = await play_to_the_end(clients, random.Random(3), 3000, 50)
        await until(lambda: server.records_written)
        record = server.records_written[0]
        # The latest game stays whole: the table comes back showing it after a stop.
        assert query(path, "SELECT count(*) FROM actions WHERE game = 1")[0][0] > 0
        for c in clients:
            await c.send(Rematch())
        for c in clients:
            await c.expect("snapshot")  # told once game 2 and what it lets go are kept
        assert query(path, "SELECT count(*) FROM actions WHERE game = 1")[0][0] == 0
        assert query(path, "SELECT number FROM games") == [(2,)]
        guests = [server.lobby.guests[token_hash(c.welcome.resume)].id for c in clients]
        nursery.cancel_scope.cancel()
    [row] = query(path, "SELECT table_id, game, table_name, players, teams, result, side,"
                  " moves, seats, record, finished_at FROM results")  # fmt: skip
    kept = json.loads(record.read_text())
    assert row[:5] == (table_id, 1, "Table", 2, 2)
    assert (row[5], row[6]) == (kept["outcome"]["result"], kept["outcome"]["side"])
    assert final.result is not None and row[7] == len(kept["actions"])
    assert json.loads(str(row[8])) == [[guests[0], "P0", None], [guests[1], "P1", None]]
    assert row[9] == record.name and isinstance(row[10], float)
    command = [str(Path(sys.executable).parent / "sarja-server"), "export"]
    command += ["--data-dir", str(tmp_path)]
    listed = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    assert f"{table_id} 1  'Table'  finished (records/{record.name})" in listed.stdout
    assert f"{table_id} 2  'Table'  in progress" in listed.stdout
    exported = subprocess.run(
        [*command, table_id, "1"], capture_output=True, text=True, timeout=60, check=True
    )
    assert exported.stdout == record.read_text()


async def test_a_closed_table_leaves_no_row_and_nor_do_its_guests(tmp_path):
    """Tables created and left again and again: the journal holds none of them, none of
    their seats and none of the guests who sat there (the churn used to grow it)."""
    path = tmp_path / FILE_NAME
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        for i in range(12):
            c = await NetClient.connect(server.port, f"Churn{i}")
            await c.send(CreateTable(name=f"T{i}", players=4, teams=2))
            await c.expect("table")
            await c.send(Leave())
            await c.expect("tables")  # sent once the closing is kept
            await c.aclose()
        assert counts(path, (*ROWS, "guest_keys")) == dict.fromkeys((*ROWS, "guest_keys"), 0)
        nursery.cancel_scope.cancel()


async def test_a_guest_who_leaves_a_seat_is_not_kept(tmp_path):
    path = tmp_path / FILE_NAME
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        host = await NetClient.connect(server.port, "Host")
        await host.send(CreateTable(name="Open", players=4, teams=2))
        table = await host.expect("table")
        for i in range(5):
            c = await NetClient.connect(server.port, f"Passer{i}")
            await c.send(Join(table=table.id))
            await c.expect("table")
            await c.send(Leave())
            await c.expect("tables")
            await c.aclose()
        assert query(path, "SELECT name FROM guests") == [("Host",)]
        assert counts(path, ("guest_keys",))["guest_keys"] == 1
        nursery.cancel_scope.cancel()


V2_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, number INTEGER NOT NULL, name TEXT NOT NULL,
    players INTEGER NOT NULL, teams INTEGER NOT NULL, hand_size INTEGER NOT NULL,
    manual_draw INTEGER NOT NULL, computer_takeover INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 0, closed INTEGER NOT NULL DEFAULT 0, takeover TEXT);
CREATE TABLE guests (id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, guest_id TEXT,
    computer TEXT, name TEXT, PRIMARY KEY (table_id, seat));
CREATE TABLE games (table_id TEXT NOT NULL, number INTEGER NOT NULL, cut TEXT NOT NULL,
    deck TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
    recorded INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, number));
CREATE TABLE actions (table_id TEXT NOT NULL, game INTEGER NOT NULL, n INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, action_id INTEGER,
    version INTEGER NOT NULL, reshuffles TEXT, PRIMARY KEY (table_id, game, n));
INSERT INTO tables VALUES ('t1', 1, 'Open', 2, 2, 7, 0, 0, 0, 0, NULL);
INSERT INTO tables VALUES ('t2', 2, 'Closed', 2, 2, 7, 0, 0, 0, 1, NULL);
INSERT INTO tables VALUES ('t3', 3, 'Closed, unrecorded', 2, 2, 7, 0, 0, 0, 1, NULL);
INSERT INTO guests VALUES ('g1', 'Aino', 'aaa bbb');
INSERT INTO guests VALUES ('g2', 'Bea', 'ccc');
INSERT INTO guests VALUES ('g3', 'Cai', 'ddd');
INSERT INTO guests VALUES ('g4', 'Dan', 'eee');
INSERT INTO seats VALUES ('t1', 0, 'g1', NULL, NULL);
INSERT INTO seats VALUES ('t2', 0, 'g2', NULL, NULL);
INSERT INTO seats VALUES ('t3', 0, 'g3', NULL, NULL);
INSERT INTO games VALUES ('t2', 1, '[]', '[]', 1, 1);
INSERT INTO games VALUES ('t3', 1, '[]', '[]', 1, 0);
INSERT INTO actions VALUES ('t2', 1, 1, 0, 'D5', 1, 1, NULL);
PRAGMA user_version = 2;
"""


def test_a_second_version_journal_opens_indexed_and_compacted(tmp_path):
    """An older journal is brought up to date: its tokens indexed, and (as the server
    starts) its closed tables and unseated guests deleted, but not a finished game
    still waiting for its record."""
    path = tmp_path / FILE_NAME
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(V2_SCHEMA)
    journal = Journal(path)
    assert journal.table_of("bbb") == journal.table_of("aaa") == "t1"
    assert journal.table_of("ccc") is None  # a closed table is no one's to resume
    journal.compact()
    journal.close()
    assert query(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert query(path, "SELECT id FROM tables ORDER BY id") == [("t1",), ("t3",)]
    assert query(path, "SELECT id FROM guests ORDER BY id") == [("g1",), ("g3",)]
    assert query(path, "SELECT key FROM guest_keys ORDER BY key") == [
        ("aaa",), ("bbb",), ("ddd",),
    ]  # fmt: skip
    assert counts(path, ("actions",)) == {"actions": 0}


# ----- resume tokens by an index --------------------------------------------------------------


def fill(journal: Journal, tables: int) -> None:
    """`tables` tables of four guests with two tokens each; every other one closed."""
    for t in range(tables):
        table_id = f"t{t}"
        journal.table_opened(table_id, t, f"Table {t}", 4, 2, 6, False, None)
        for seat in range(4):
            guest = f"g{t}-{seat}"
            journal.guest(guest, f"P{seat}", (token_hash(f"{guest}a"), token_hash(f"{guest}b")))
            journal.seat(table_id, seat, guest)
        if t % 2:
            journal.table_closed(table_id)


def steps_for_unknown_token(journal: Journal) -> int:
    """The SQLite virtual machine's steps for one unknown token's look-up."""
    steps = 0

    def tick() -> int:
        nonlocal steps
        steps += 1
        return 0

    journal._db.set_progress_handler(tick, 1)
    try:
        assert journal.table_of(token_hash("nobody's token")) is None
    finally:
        journal._db.set_progress_handler(None, 1)
    return steps


def test_an_unknown_token_costs_the_same_on_an_empty_and_a_full_journal(tmp_path):
    """The look-up is by a key, not `instr()` over every guest's token hashes."""
    empty = Journal(tmp_path / "empty.sqlite3")
    full = Journal(tmp_path / "full.sqlite3")
    fill(full, 400)
    full.close()
    full = Journal(tmp_path / "full.sqlite3")
    assert counts(tmp_path / "full.sqlite3", ("seats",))["seats"] >= 800
    assert full.table_of(token_hash("g398-1b")) == "t398"  # a known one is found
    cost_empty, cost_full = steps_for_unknown_token(empty), steps_for_unknown_token(full)
    empty.close()
    full.close()
    assert cost_full <= cost_empty + 5, (cost_empty, cost_full)


def test_the_token_look_up_scans_nothing(tmp_path):
    journal = Journal(tmp_path / FILE_NAME)
    fill(journal, 3)
    said: list[str] = []
    journal._db.set_trace_callback(said.append)
    journal.table_of(token_hash("g0-0a"))
    journal._db.set_trace_callback(None)
    [sql] = said
    plan = journal._db.execute(f"EXPLAIN QUERY PLAN {sql}").fetchall()
    details = [str(row[-1]) for row in plan]
    assert not [d for d in details if d.startswith("SCAN")], details
    assert any(d.startswith("SEARCH") and "(key=?)" in d for d in details), details
    journal.close()


# ----- for the host's eyes only ----------------------------------------------------------------


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


async def _play_a_little(data_dir: Path) -> None:
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(data_dir))
        clients = await seat_table(server, 2)
        mover = next(c for c in clients if c.state and c.state.seat == c.state.turn)
        mine = await mover.legal_at(mover.state.version)  # type: ignore[union-attr]
        await mover.send(mover.action_message(mine.legal[0]))
        await mover.expect("ack")
        wal, shm = (data_dir / f"{FILE_NAME}-wal", data_dir / f"{FILE_NAME}-shm")
        assert wal.exists() and shm.exists()
        assert (mode(wal), mode(shm)) == (0o600, 0o600)
        nursery.cancel_scope.cancel()


async def test_a_new_data_directory_is_the_hosts_alone(tmp_path):
    """With the usual umask (022) the journal, which holds the deck order of every game
    in progress, was 0644 in a 0755 folder; now the folder is 0700 and its files 0600."""
    data_dir = tmp_path / "data"
    with umask(0o022):
        await _play_a_little(data_dir)
    assert mode(data_dir) == 0o700
    assert mode(data_dir / FILE_NAME) == 0o600
    assert mode(data_dir / "server-id") == 0o600


async def test_an_old_data_directory_open_to_all_is_narrowed(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    Journal(data_dir / FILE_NAME).close()
    (data_dir / "server-id").write_text("0123456789abcdef\n")
    for name in (FILE_NAME, "server-id"):
        (data_dir / name).chmod(0o644)
    data_dir.chmod(0o755)  # as an older server left them
    with umask(0o022):
        await _play_a_little(data_dir)
    assert mode(data_dir) == 0o700
    assert mode(data_dir / FILE_NAME) == 0o600
    assert mode(data_dir / "server-id") == 0o600
    assert (data_dir / "server-id").read_text() == "0123456789abcdef\n"  # the same server
