"""Measure the server (protocol 3, over TLS): CPU and bytes per move under load, move
latency, and the idle round trip, each next to a bare trio server that sets the floor.

    .venv/bin/python bench/server.py            # the full run, a few minutes
    .venv/bin/python bench/server.py --quick    # a few seconds, for the test suite
    .venv/bin/python bench/server.py --rtt-only # part 1 only, about a minute
    .venv/bin/python bench/server.py --rtt-only --other DIR   # and the server in DIR too

Every server runs as a process of its own on 127.0.0.1, and its CPU time (user +
system) is read from /proc, so the bench's own clients never count as the server's.
Every connection is TLS, the floors' too (the same library, the same defaults, a key of
their own), so each comparison is of like with like.
The bench players speak through the one client session (protocol/client_session.py),
as every client does; a round trip or a move's latency ends when the answer's bytes
arrive, before the player decodes them, so the player's own work is not the server's.

1. Idle round trips: on an otherwise idle `sarja-server`, an action (sent -> own `ack`
   and `update` received) and a ping (-> pong); next to a trio echo server that
   unpacks and packs back a frame of an action's size, and next to the same echo
   built as sarja-server must be: each frame committed to SQLite by a journal task
   before a writer task sends the reply (the least a server that never loses an
   acknowledged move does). All of them are up at once and sampled in turn, so a
   change in the machine's load falls on each alike; `--other DIR` adds another
   checkout's sarja-server to the turn (say, the code before a change, exported
   with `git archive`), measured by the same clients in the same run.
2. Load, at 4 and at 12 seats: about 2,000 connections (500 tables of 4, 166 of 12),
   each table one move a second, the seat on turn picking a legal move at random and
   the whole table asking for a rematch when a game ends. Reported: CPU per move,
   bytes per move (every byte the server sends for an accepted move: the mover's ack,
   everyone's update, the hands that changed, the legal list), the bytes per move as
   they cross the wire (everything received, TLS's records included), latency p50/p99, and
   the garbage collector's share of the server's CPU in the measured window (the
   server runs through support/collector.py, which counts the collector's passes
   around sarja-server's own `main`; `gc_share_4`, `gc_share_12`).
3. The same load against a bare trio fan-out server: a reader per connection and a
   writer draining a channel, as sarja-server has; it reads each move and writes to
   each seat of the table as many bytes as sarja-server sent per seat per move in
   part 2, and does nothing else. Its CPU per move is the floor that trio and the
   sockets set on this machine. Then the same floor with a journal: each move is
   committed to SQLite (one task, group commit, WAL, as sarja-server) before its
   replies go out, the floor trio, the sockets and sqlite3 set together.
4. The journal's cost: `sarja-server --ephemeral` keeps its journal in memory (the
   same code, nothing on disk). The idle action round trip is also taken on it,
   alternating sample by sample with the default server, and the 4-seat load runs on
   it too, twice, between two runs of the default. The journal's cost per move at
   the default durability is the difference: CPU µs per move, and round-trip µs
   added. (The ephemeral server still runs the journal's code, in memory: the
   difference is what keeping the journal on disk costs.)

Every client reads from the moment it connects and answers pings, so seating
hundreds of tables never reaches the server's idle timeout. The last line printed
is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Any

import msgpack
import trio
from support.dial import WIRE, dial  # bench/support/
from support.processes import read_port, stop  # bench/support/
from support.session_view import SessionView  # bench/support/

from sarja.protocol.client_session import ClientSession, message_of
from sarja.protocol.framing import FrameDecoder, pack_length
from sarja.protocol.limits import MAX_SERVER_FRAME, PROTOCOL_VERSION
from sarja.protocol.messages import (
    Ack,
    CreateTable,
    Error,
    Hello,
    Join,
    Ping,
    Play,
    Pong,
    Ready,
    Rematch,
    Snapshot,
)
from sarja.server.tls import server_key

# sarja-server's own `main`, run by a launcher that counts the collector's passes in
# a load run's window (support/collector.py).
SERVER = [sys.executable, str(Path(__file__).resolve().parent / "support" / "collector.py")]
CONNECTIONS = 2000  # per load run: 500 tables of 4 seats, 166 of 12
PARALLEL_SEATING = 8  # tables seated at once
STEP_TIMEOUT = 60.0  # seconds for one seating step on a slow, busy machine
MOVE_TIMEOUT = 10.0  # a move not answered by then counts, at this time, as late
MOVE_BYTES = ("ack", "update", "hand", "legal")  # what the server sends for one move
TARGET_CPU, TARGET_RTT = 1.5, 2.0
TARGET_JOURNAL_RTT = 1.5  # the idle action's round trip / the journaled echo's
TARGET_BYTES = {4: 800, 12: 2000}


def frame(value: Any) -> bytes:
    body = msgpack.packb(value)
    return pack_length(len(body)) + body


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU seconds so far (fields 14 and 15 of stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) / 1024 if match else math.nan


# ----- clients ---------------------------------------------------------------------


class Reader:
    """A connection read by its own task from the moment it opens; others wait on it."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.closed = False
        # When the last bytes came, before the bench client decoded them: round trips
        # end here, so they time the server and the network, not the client's work.
        self.arrived = 0.0
        # Stamp, then let the other readers woken with this one stamp theirs before any
        # decodes: at an idle table the other seat's update comes a moment after the
        # mover's answer, and its decoding must not count in the mover's round trip.
        self.stamp_first = False
        self._changed = trio.Event()
        self._send_lock = trio.Lock()  # the reader answers pings while a player sends

    async def send_bytes(self, data: bytes) -> None:
        async with self._send_lock:
            await self.stream.send_all(data)

    async def pump(self) -> None:
        try:
            while data := await self.stream.receive_some(65536):
                self.arrived = time.perf_counter()
                if self.stamp_first:
                    await trio.lowlevel.checkpoint()
                await self.took(data)
                self._changed.set()
                self._changed = trio.Event()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        self.closed = True
        self._changed.set()

    async def took(self, data: bytes) -> None:
        raise NotImplementedError

    async def wait_for(self, done: Callable[[], bool]) -> None:
        """Until `done()`; the caller bounds the wait."""
        while not done():
            if self.closed:
                raise ConnectionError("the server closed the connection")
            await self._changed.wait()


class Peer(Reader, SessionView):
    """A bench player on sarja-server, on the one client session (which keeps the game,
    answers pings and asks for a snapshot on a gap); counts the bytes received by
    message type in `tally` (shared by a run)."""

    def __init__(self, stream: trio.SocketStream, tally: Counter[str]) -> None:
        super().__init__(stream)
        self.tally = tally
        self.session = ClientSession()
        self._frames = FrameDecoder(MAX_SERVER_FRAME)  # each frame's size, for the tally
        self.snapshots = 0
        self.acked = 0
        self.refused: set[int] = set()
        self.pong = 0

    async def send(self, msg: Any) -> None:
        await self.send_bytes(self.session.send(msg))

    async def took(self, data: bytes) -> None:
        self._frames.receive_data(data)
        while (body := self._frames.next_frame()) is not None:
            self.session.receive_data(pack_length(len(body)) + body)
            event = self.session.next_event()
            assert event is not None
            msg = message_of(event)
            self.tally[msg.TYPE] += len(body) + 4
            if isinstance(msg, Snapshot):
                self.snapshots += 1
            elif isinstance(msg, Ack):
                self.acked = max(self.acked, msg.id)
            elif isinstance(msg, Pong):
                self.pong = msg.n
            elif isinstance(msg, Error):
                self.tally["error " + msg.code] += 1
                if msg.id is not None:
                    self.refused.add(msg.id)
        if replies := self.session.data_to_send():  # pongs, syncs
            await self.send_bytes(replies)

    async def play(self, rng: random.Random) -> float | None:
        """One legal move at random; seconds until our ack and update came (None: late)."""
        msg = self.session.action(rng.choice(self.legal))
        action_id, version = msg.id, msg.version
        data = self.session.send(msg)
        started = time.perf_counter()
        await self.send_bytes(data)
        with trio.move_on_after(MOVE_TIMEOUT):
            await self.wait_for(
                lambda: (
                    (self.acked >= action_id and self.version > version)
                    or action_id in self.refused
                )
            )
            return self.arrived - started
        return None


async def connect(port: int, name: str, tally: Counter[str], nursery: trio.Nursery) -> Peer:
    peer = Peer(await dial(port, tally=tally), tally)
    nursery.start_soon(peer.pump)
    await peer.send(Hello(version=PROTOCOL_VERSION, name=name))
    with trio.fail_after(STEP_TIMEOUT):
        await peer.wait_for(lambda: peer.welcomed)
    return peer


async def seat_table(
    port: int, t: int, seats: int, tally: Counter[str], nursery: trio.Nursery
) -> list[Peer]:
    """One table of `seats` bench players with its game started. Each connects just
    before it joins, so hardly anyone sits in the lobby to be sent table lists."""
    host = await connect(port, f"T{t}P0", tally, nursery)
    await host.send(CreateTable(name=f"Table {t}", players=seats, teams=2))
    peers = [host]
    with trio.fail_after(STEP_TIMEOUT):
        await host.wait_for(lambda: host.table_id is not None)
    for i in range(1, seats):
        peer = await connect(port, f"T{t}P{i}", tally, nursery)
        await peer.send(Join(table=host.table_id))
        with trio.fail_after(STEP_TIMEOUT):
            await peer.wait_for(lambda p=peer: p.table_id is not None)
        peers.append(peer)
    for peer in peers:
        await peer.send(Ready(ready=True))
    with trio.fail_after(STEP_TIMEOUT):
        for peer in peers:
            await peer.wait_for(lambda p=peer: p.snapshots > 0)
    return sorted(peers, key=lambda p: p.seat)


async def seat_tables(
    port: int, tables: int, seats: int, tally: Counter[str], nursery: trio.Nursery
) -> list[list[Peer]]:
    seated: list[list[Peer]] = [[] for _ in range(tables)]

    async def lane(first: int) -> None:
        for t in range(first, tables, PARALLEL_SEATING):
            seated[t] = await seat_table(port, t, seats, tally, nursery)

    async with trio.open_nursery() as lanes:
        for first in range(min(PARALLEL_SEATING, tables)):
            lanes.start_soon(lane, first)
    return seated


async def rematch(peers: list[Peer]) -> None:
    before = [p.snapshots for p in peers]
    for p in peers:
        await p.send(Rematch())
    with trio.move_on_after(MOVE_TIMEOUT):
        for p, n in zip(peers, before, strict=True):
            await p.wait_for(lambda p=p, n=n: p.snapshots > n)


class EchoPeer(Reader):
    """A client of an echo floor: the frames that come back are a client's own (raw:
    no client session takes them), each unpacked as a bench player would."""

    def __init__(self, stream: trio.SocketStream) -> None:
        super().__init__(stream)
        self._frames = FrameDecoder(MAX_SERVER_FRAME)
        self.frames_in = 0

    async def took(self, data: bytes) -> None:
        self._frames.receive_data(data)
        while (body := self._frames.next_frame()) is not None:
            msgpack.unpackb(body)
            self.frames_in += 1


class FloorPeer(Reader):
    """A bench player on the fan-out server: counts the bytes that come."""

    def __init__(self, stream: trio.SocketStream) -> None:
        super().__init__(stream)
        self.received = 0

    async def took(self, data: bytes) -> None:
        self.received += len(data)


# ----- processes ---------------------------------------------------------------------


async def start_sarja(
    data_dir: str | None, collector: str | None = None, other: Other | None = None
) -> tuple[trio.Process, int]:
    """sarja-server keeping its journal in `data_dir` (default durability), or with
    `--ephemeral` (its journal in memory) when `data_dir` is None; `collector`: the
    file its collector's figures go to (support/collector.py); `other`: another
    checkout's sarja-server instead of this one's."""
    keep = ["--ephemeral"] if data_dir is None else ["--data-dir", data_dir]
    # Every bench client comes from 127.0.0.1: lift the per-address limit above them.
    limit = ["--max-per-address", str(2 * CONNECTIONS)]
    env = dict(os.environ, SARJA_BENCH_COLLECTOR=collector) if collector else None
    command = SERVER
    if other is not None:
        command, env = other.command, other.env
    process = await trio.lowlevel.open_process(
        [*command, "--host", "127.0.0.1", "--port", "0", "--seed", "1", *limit, *keep],
        stdout=subprocess.PIPE,
        env=env,
    )
    return process, await read_port(process, timeout=STEP_TIMEOUT)


@contextlib.asynccontextmanager
async def sarja(data_dir: str | None, other: Other | None = None) -> AsyncIterator[int]:
    """start_sarja's server for the block's length, and its port."""
    process, port = await start_sarja(data_dir, other=other)
    try:
        yield port
    finally:
        await stop(process, grace=5)


class Other:
    """Another checkout's sarja-server (its source tree, as `git archive` or a clone
    leaves it), run from a tree of links that gives its folders their import names,
    so two versions of the server are measured in one run by the same clients."""

    LAUNCH = (
        "import sys; import sarja.server.cli as cli;"
        " assert cli.__file__.startswith(sys.argv[1]), cli.__file__;"
        " sys.argv[:2] = ['sarja-server']; cli.main()"
    )

    def __init__(self, source: str, links: str) -> None:
        root = Path(links, "sarja")
        root.mkdir()
        for name in ("server", "protocol", "client", "lang"):
            if (Path(source) / name).is_dir():
                (root / name).symlink_to(Path(source, name).resolve())
        self.command = [sys.executable, "-c", self.LAUNCH, str(root)]
        self.env = dict(os.environ, PYTHONPATH=links)


@contextlib.asynccontextmanager
async def helper(kind: str, reply_bytes: int = 0) -> AsyncIterator[tuple[trio.Process, int]]:
    """A bare trio server in a process of its own, as sarja-server runs, and its port.
    A journaled one keeps its journal in a directory made (and removed) here."""
    with tempfile.TemporaryDirectory(prefix="sarja-bench-floor-") as data_dir:
        keep = ["--data-dir", data_dir] if HELPERS[kind][1] else []
        process = await trio.lowlevel.open_process(
            [sys.executable, __file__, "--serve", kind, "--reply-bytes", str(reply_bytes), *keep],
            stdout=subprocess.PIPE,
        )
        try:
            yield (
                process,
                await read_port(process, rb"port (\d+)", f"the {kind} server", STEP_TIMEOUT),
            )
        finally:
            await stop(process, grace=5)


async def close_all(readers: list[Reader]) -> None:
    """Our ends first, so the server does not wait for goodbyes to be read."""
    for reader in readers:
        await trio.aclose_forcefully(reader.stream)


# ----- the bare trio servers ----------------------------------------------------------


def padded_frame(size: int) -> bytes:
    """A framed msgpack map of `size` bytes (or one more, where a length header grows)."""
    data = b""
    for pad in range(max(0, size - 40), size + 1):
        data = frame({"t": "update", "pad": "x" * pad})
        if len(data) >= size:
            break
    return data


Outgoing = trio.MemorySendChannel[bytes]


class FloorJournal:
    """The least a server that must not lose a move can do: one task commits the rows
    written since its last commit to SQLite (WAL, synchronous=NORMAL, no checkpoint
    on the way, as sarja-server's journal keeps it) and only then passes on the
    replies that waited for them."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.execute("CREATE TABLE actions (n INTEGER, body BLOB)")
        self.rows: list[tuple[int, bytes]] = []
        self.waiting: list[tuple[Outgoing, bytes]] = []
        self.work = trio.Event()

    def write(self, body: bytes, replies: list[tuple[Outgoing, bytes]]) -> None:
        self.rows.append((len(self.rows), body))
        self.waiting.extend(replies)
        self.work.set()

    async def run(self) -> None:
        while True:
            await self.work.wait()
            self.work = trio.Event()
            rows, self.rows = self.rows, []
            waiting, self.waiting = self.waiting, []
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO actions VALUES (?, ?)", rows)
            self.db.execute("COMMIT")
            for channel, data in waiting:
                with contextlib.suppress(trio.ClosedResourceError):  # that reader has gone
                    channel.send_nowait(data)


async def serve_frames(stream: trio.SocketStream, take: Callable[[bytes, Outgoing], None]) -> None:
    """A reader handing each frame to `take` with this connection's queue, and a
    writer draining the queue, as sarja-server runs a connection."""
    outgoing, queue = trio.open_memory_channel[bytes](math.inf)

    async def write_all() -> None:
        async for data in queue:
            await stream.send_all(data)

    frames = FrameDecoder(MAX_SERVER_FRAME)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(write_all)
            async for data in stream:
                frames.receive_data(data)
                while (body := frames.next_frame()) is not None:
                    take(body, outgoing)
            nursery.cancel_scope.cancel()
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    finally:
        outgoing.close()


def echo_server(reply_bytes: int, journal: FloorJournal | None) -> Callable[..., Any]:
    """Read a frame, unpack it, pack it, send it back. With a journal, as sarja-server
    is built: the frame is committed first, and a writer task sends the reply."""

    async def handle(stream: trio.SocketStream) -> None:
        frames = FrameDecoder(MAX_SERVER_FRAME)
        async for data in stream:
            frames.receive_data(data)
            while (body := frames.next_frame()) is not None:
                await stream.send_all(frame(msgpack.unpackb(body)))

    def take(body: bytes, outgoing: Outgoing) -> None:
        assert journal is not None
        journal.write(body, [(outgoing, frame(msgpack.unpackb(body)))])

    if journal is None:
        return handle
    return partial(serve_frames, take=take)


def fanout_server(reply_bytes: int, journal: FloorJournal | None) -> Callable[..., Any]:
    """The floor: a connection's first frame names its table (answered with one reply,
    so the client knows it is in); each later frame is unpacked and answered with
    `reply_bytes` to every member of that table (after its commit, with a journal).
    Nothing else."""
    reply = padded_frame(reply_bytes)
    tables: dict[str, list[Outgoing]] = {}

    async def handle(stream: trio.SocketStream) -> None:
        joined: list[tuple[list[Outgoing], Outgoing]] = []

        def take(body: bytes, outgoing: Outgoing) -> None:
            value = msgpack.unpackb(body)
            if not joined:
                members = tables.setdefault(value, [])
                members.append(outgoing)
                joined.append((members, outgoing))
                outgoing.send_nowait(reply)
                return
            members = joined[0][0]
            if journal is not None:
                journal.write(body, [(member, reply) for member in members])
                return
            for member in members:  # a closed one has left `members`
                member.send_nowait(reply)

        try:
            await serve_frames(stream, take)
        finally:
            for members, outgoing in joined:
                members.remove(outgoing)

    return handle


HELPERS = {
    "echo": (echo_server, False),
    "echo_journal": (echo_server, True),
    "fanout": (fanout_server, False),
    "fanout_journal": (fanout_server, True),
}


def serve_helper(kind: str, reply_bytes: int, data_dir: str | None) -> None:
    make, journaled = HELPERS[kind]
    if journaled and data_dir is None:
        raise SystemExit(f"the {kind} server needs --data-dir")

    async def run() -> None:
        journal = (
            FloorJournal(os.path.join(data_dir, "floor.db")) if journaled and data_dir else None
        )
        handle = make(reply_bytes, journal)
        async with trio.open_nursery() as nursery:
            if journal is not None:
                nursery.start_soon(journal.run)
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            # TLS as sarja-server serves it: the floor then counts what TLS costs too.
            context = server_key(None).context
            secured = [
                trio.SSLListener(listener, context, https_compatible=True) for listener in listeners
            ]
            nursery.start_soon(trio.serve_listeners, handle, secured)
            print(f"port {listeners[0].socket.getsockname()[1]}", flush=True)

    trio.run(run)


# ----- part 1: idle round trips --------------------------------------------------------


class IdleTable:
    """Two seats at an otherwise idle sarja-server, taking turns one move at a time."""

    def __init__(self, peers: list[Peer], rng: random.Random) -> None:
        self.peers = peers
        self.rng = rng
        self.pings = 0

    async def action(self) -> float | None:
        """One move, as the player on turn sees it: sent -> own ack and update."""
        peers = self.peers
        mover = peers[peers[0].turn]
        await mover.wait_for(lambda: bool(mover.legal) or mover.result is not None)
        if mover.result is not None:
            await rematch(peers)
            mover = peers[peers[0].turn]
            await mover.wait_for(lambda: bool(mover.legal))
        took = await mover.play(self.rng)
        for p in peers:
            await p.wait_for(lambda p=p: p.version >= mover.version)
        return took

    async def ping(self) -> float:
        self.pings += 1
        first, n = self.peers[0], self.pings
        started = time.perf_counter()
        await first.send(Ping(n=n))
        await first.wait_for(lambda: first.pong >= n)
        return first.arrived - started


class EchoTable:
    """A client of a bare trio server, sending an action-sized frame at a time."""

    REQUEST = frame(Play(id=1, version=12, card="7H", cell=48).to_wire())

    def __init__(self, echo: EchoPeer) -> None:
        self.echo = echo

    async def action(self) -> float:
        echo, before = self.echo, self.echo.frames_in
        started = time.perf_counter()
        await echo.send_bytes(self.REQUEST)
        await echo.wait_for(lambda: echo.frames_in > before)
        return echo.arrived - started


async def idle_round_trips(samples: int, others: list[str]) -> dict[str, list[float]]:
    """On sarja-server (default journal), sarja-server --ephemeral, the trio echo and
    the journaled echo (and each of `others`' sarja-server), all up at once
    and idle but for these samples, taken in turn (the order turning each sample) so
    that a change in the machine's load falls on all of them alike."""
    times: dict[str, list[float]] = {"ping": []}
    async with contextlib.AsyncExitStack() as stack:
        data_dir = stack.enter_context(tempfile.TemporaryDirectory(prefix="sarja-bench-"))
        ports = {
            "action": await stack.enter_async_context(sarja(os.path.join(data_dir, "kept"))),
            "action_ephemeral": await stack.enter_async_context(sarja(None)),
        }
        for n, other in enumerate(others, 1):
            links = stack.enter_context(tempfile.TemporaryDirectory(prefix="sarja-bench-other-"))
            ports[f"action_other{n}"] = await stack.enter_async_context(
                sarja(os.path.join(data_dir, f"other{n}"), Other(other, links))
            )
        echo_ports = {
            kind: (await stack.enter_async_context(helper(kind)))[1]
            for kind in ("echo", "echo_journal")
        }
        nursery = await stack.enter_async_context(trio.open_nursery())
        readers: list[Reader] = []
        tables: list[tuple[str, IdleTable | EchoTable]] = []
        for key, port in ports.items():
            peers = await seat_table(port, 0, 2, Counter(), nursery)
            for peer in peers:
                peer.stamp_first = True
            readers += peers
            # The same seed: every sarja-server deals the same games, the same moves.
            tables.append((key, IdleTable(peers, random.Random(1))))
        for kind, port in echo_ports.items():
            echo = EchoPeer(await dial(port))
            nursery.start_soon(echo.pump)
            readers.append(echo)
            tables.append((kind, EchoTable(echo)))
        times |= {key: [] for key, _ in tables}
        # In a new order each round, and every sarja-server pinged: in a fixed turn,
        # the server that had just answered (its ping, say) answered faster here.
        pinged = [(key, table) for key, table in tables if isinstance(table, IdleTable)]
        shuffle = random.Random(2).shuffle
        with trio.fail_after(STEP_TIMEOUT + len(tables) * samples):
            for _ in range(samples):
                shuffle(tables)
                for key, table in tables:
                    took = await table.action()
                    if took is not None:
                        times[key].append(took)
                shuffle(pinged)
                for key, table in pinged:
                    took = await table.ping()
                    if key == "action":
                        times["ping"].append(took)
        nursery.cancel_scope.cancel()
        await close_all(readers)
    return times


def report_round_trips(
    rtt: dict[str, list[float]], samples: int, others: list[str]
) -> dict[str, Any]:
    """Print the idle round trips; their figures for the JSON line."""
    medians = {k: statistics.median(v) if v else math.nan for k, v in rtt.items()}
    print(f"Idle round trips, {samples} each (median, p99):")
    labels = [
        ("action", "action on sarja-server (-> own ack + update)"),
        ("action_ephemeral", "the same on sarja-server --ephemeral"),
        ("ping", "ping on sarja-server (-> pong)"),
        ("echo", "trio echo, a process of its own"),
        ("echo_journal", "the same, with a commit and a writer task"),
    ]
    labels[2:2] = [(f"action_other{n}", f"the same, {o}") for n, o in enumerate(others, 1)]
    for key, label in labels:
        if key in rtt:
            print(
                f"  {label:<46} {medians[key] * 1e6:7.0f} µs"
                f" {percentile(rtt[key], 0.99) * 1e6:7.0f} µs"
            )
    rtt_ratio = medians["action"] / medians["echo"]
    journal_rtt = medians["action"] - medians["action_ephemeral"]
    print(f"  action / echo: {verdict(rtt_ratio, TARGET_RTT)}")
    print(f"  ping / echo:   {medians['ping'] / medians['echo']:.2f}x")
    journal_ratio = medians["action"] / medians["echo_journal"]
    print(
        f"  action / echo with journal and writer task:"
        f" {verdict(journal_ratio, TARGET_JOURNAL_RTT)};"
        f" that echo / the bare echo: {medians['echo_journal'] / medians['echo']:.2f}x"
    )
    journal_rtt_p99 = percentile(rtt["action"], 0.99) - percentile(rtt["action_ephemeral"], 0.99)
    print(
        f"  the journal adds {journal_rtt * 1e6:.0f} µs to the action's round trip"
        f" (median; at p99 {journal_rtt_p99 * 1e6:.0f} µs)",
        flush=True,
    )
    figures = {
        "rtt_us": us(medians["action"]),
        "echo_us": us(medians["echo"]),
        "echo_journal_us": us(medians["echo_journal"]),
        "ping_us": us(medians["ping"]),
        "rtt_ratio": round(rtt_ratio, 2),
        "rtt_journal_ratio": round(journal_ratio, 2),
        "rtt_us_ephemeral": us(medians["action_ephemeral"]),
        "journal_rtt_us": us(journal_rtt),
        "journal_rtt_p99_us": us(journal_rtt_p99),
    }
    for n, other in enumerate(others, 1):
        other_ratio = medians[f"action_other{n}"] / medians["echo_journal"]
        print(f"  {other}'s action / echo with journal and writer task: {other_ratio:.2f}x")
        figures |= {
            f"rtt_us_other{n}": us(medians[f"action_other{n}"]),
            f"rtt_journal_ratio_other{n}": round(other_ratio, 2),
        }
    return figures


# ----- parts 2 and 3: load ----------------------------------------------------------


class Window:
    """The figures of one load run, from the moment `open` is called to `close`."""

    def __init__(self, pid: int, collector: bool = False) -> None:
        self.pid = pid
        self.collector = collector  # the process counts its collector's passes (SIGUSR1/2)
        self.gc: dict[str, Any] = {}  # those counts, once read
        self.measuring = False
        self.latencies: list[float] = []
        self.moves = 0
        self.late = 0

    def open(self, tally: Counter[str]) -> None:
        self.tally_before = Counter(tally)
        self.cpu_before, self.wall_before = cpu_seconds(self.pid), time.perf_counter()
        self.own_before = cpu_seconds(os.getpid())
        if self.collector:
            os.kill(self.pid, signal.SIGUSR1)
        self.measuring = True

    def close(self, tally: Counter[str]) -> None:
        self.measuring = False
        if self.collector:
            os.kill(self.pid, signal.SIGUSR2)
        self.cpu = cpu_seconds(self.pid) - self.cpu_before
        self.wall = time.perf_counter() - self.wall_before
        # The clients' side: near a whole core, and latency is theirs as much as the server's.
        self.own_share = (cpu_seconds(os.getpid()) - self.own_before) / self.wall
        self.load = os.getloadavg()[0]
        self.tally = tally - self.tally_before
        self.memory = resident_mib(self.pid)

    def add(self, took: float | None) -> None:
        if not self.measuring:
            return
        self.moves += 1
        if took is None:
            self.late += 1
            took = MOVE_TIMEOUT
        self.latencies.append(took)

    @property
    def cpu_us(self) -> float:
        return self.cpu * 1e6 / max(self.moves, 1)


async def drive(
    games: list[Any],
    move: Callable[..., Any],
    window: Window,
    tally: Counter[str],
    warmup: float,
    seconds: float,
) -> None:
    """Each table makes one move a second, the tables' moves spread over the second;
    figures are taken over the last `seconds`."""

    async def table_loop(game: Any, rng: random.Random) -> None:
        await trio.sleep(rng.random())
        while True:  # until the window closes
            next_tick = trio.current_time() + 1.0
            await move(game, rng, window)
            await trio.sleep_until(next_tick)

    gc.collect()
    gc.freeze()  # thousands of clients' objects: no collector pass walks them mid-run
    async with trio.open_nursery() as nursery:
        for i, game in enumerate(games):
            nursery.start_soon(table_loop, game, random.Random(i))
        await trio.sleep(warmup)
        window.open(tally)
        await trio.sleep(seconds)
        window.close(tally)
        nursery.cancel_scope.cancel()
    gc.unfreeze()


async def sarja_move(peers: list[Peer], rng: random.Random, window: Window) -> None:
    if any(p.result is not None for p in peers):
        await rematch(peers)
        return
    mover = next((p for p in peers if p.legal), None)
    if mover is not None:
        window.add(await mover.play(rng))


async def load_sarja(
    seats: int, tables: int, warmup: float, seconds: float, ephemeral: bool = False
) -> dict[str, Any]:
    tally: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="sarja-bench-") as data_dir:
        collector = os.path.join(data_dir, "collector.json")  # not the server's data
        process, port = await start_sarja(None if ephemeral else data_dir, collector)
        label = "sarja-server --ephemeral" if ephemeral else "sarja-server"
        print(f"  {label} pid {process.pid}: seating {tables} tables", flush=True)
        try:
            async with trio.open_nursery() as nursery:
                started = time.perf_counter()
                games = await seat_tables(port, tables, seats, tally, nursery)
                seated = time.perf_counter() - started
                print(f"  seated in {seated:.1f} s; playing", flush=True)
                window = Window(process.pid, collector=True)
                await drive(games, sarja_move, window, tally, warmup, seconds)
                nursery.cancel_scope.cancel()
            await close_all([p for game in games for p in game])
        finally:
            await stop(process, grace=5)
        with contextlib.suppress(OSError, ValueError):  # written when the window closed
            window.gc = json.loads(Path(collector).read_text().splitlines()[-1])
    return {"window": window, "tally": window.tally}


async def load_floor(
    seats: int, tables: int, reply_bytes: int, warmup: float, seconds: float, kind: str
) -> dict[str, Any]:
    reply = len(padded_frame(reply_bytes))  # also the answer to joining a table
    move_frame = frame(Play(id=1, version=12, card="7H", cell=48).to_wire())
    async with helper(kind, reply_bytes) as (process, port):
        async with trio.open_nursery() as nursery:
            games: list[list[FloorPeer]] = []
            for t in range(tables):
                game = []
                for _ in range(seats):
                    peer = FloorPeer(await dial(port))
                    nursery.start_soon(peer.pump)
                    await peer.send_bytes(frame(f"table {t}"))
                    game.append(peer)
                with trio.fail_after(STEP_TIMEOUT):
                    for peer in game:
                        await peer.wait_for(lambda p=peer: p.received >= reply)
                games.append(game)

            async def floor_move(game: list[FloorPeer], rng: random.Random, w: Window) -> None:
                mover = game[rng.randrange(seats)]
                target = mover.received + reply
                started = time.perf_counter()
                await mover.send_bytes(move_frame)
                with trio.move_on_after(MOVE_TIMEOUT):
                    await mover.wait_for(lambda: mover.received >= target)
                    w.add(time.perf_counter() - started)
                    return
                w.add(None)

            window = Window(process.pid)
            await drive(games, floor_move, window, Counter(), warmup, seconds)
            nursery.cancel_scope.cancel()
        await close_all([p for game in games for p in game])
    return {"window": window, "reply": reply}


# ----- the report ---------------------------------------------------------------------


def us(seconds: float) -> float:
    return round(seconds * 1e6, 1)


def verdict(ratio: float, target: float) -> str:
    if math.isnan(ratio):
        return "n/a (too few CPU ticks in a short run)"
    return f"{ratio:.2f}x, target at most {target}x: {'met' if ratio <= target else 'MISSED'}"


def report_load(label: str, w: Window) -> None:
    print(f"  {label}")
    print(f"    moves {w.moves} in {w.wall:.1f} s ({w.moves / w.wall:.0f}/s), late {w.late}")
    print(
        f"    latency p50 {percentile(w.latencies, 0.5) * 1e3:7.2f} ms"
        f"   p99 {percentile(w.latencies, 0.99) * 1e3:7.2f} ms"
    )
    print(f"    server CPU per move {w.cpu_us:8.1f} µs   (resident {w.memory:.0f} MiB)")
    print(f"    the bench's clients used {w.own_share:.0%} of a core; load average {w.load:.2f}")
    if w.gc:
        passes, seconds = w.gc["passes"], w.gc["seconds"]
        print(
            f"    the collector: {w.gc['share']:.1%} of the server's CPU, passes per"
            f" generation {passes} taking {sum(seconds) * 1e3:.0f} ms"
            f" (thresholds {w.gc['threshold']})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, for the tests")
    parser.add_argument(
        "--rtt-only", action="store_true", help="only the idle round trips (part 1), a minute"
    )
    parser.add_argument(
        "--samples", type=int, help="idle round trips per server (default 2000; --quick 20)"
    )
    parser.add_argument(
        "--other",
        metavar="DIR",
        action="append",
        help="also take the idle round trips on another checkout's sarja-server (its source"
        " tree: a clone, or `git archive` of its server/ and protocol/), in turn with the"
        " others; may be given more than once (rtt_us_other1, rtt_us_other2, ...)",
    )
    parser.add_argument("--serve", choices=sorted(HELPERS), help=argparse.SUPPRESS)
    parser.add_argument("--reply-bytes", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_helper(args.serve, args.reply_bytes, args.data_dir)
        return
    quick = args.quick
    if quick:
        samples, connections, warmup, seconds = 20, 24, 0.2, 1.0
    else:
        samples, connections, warmup, seconds = 2000, CONNECTIONS, 5.0, 45.0
    began = time.perf_counter()
    print(
        f"Python {sys.version.split()[0]}, trio {trio.__version__}, {os.cpu_count()} CPUs,"
        f" load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )

    samples = args.samples or samples
    others = args.other or []
    rtt = trio.run(idle_round_trips, samples, others)
    rtt_figures = report_round_trips(rtt, samples, others)
    if args.rtt_only:
        rtt_figures["seconds"] = round(time.perf_counter() - began)
        print(json.dumps(rtt_figures))
        return

    figures: dict[str, Any] = {}
    ephemeral_figures: dict[str, Any] = {}
    for seats in (4, 12):
        tables = max(2, connections // seats)
        print(
            f"Load, {seats} seats: {tables} tables, {tables * seats} connections,"
            f" one move a second per table, {seconds:g} s measured after {warmup:g} s",
            flush=True,
        )
        real = trio.run(load_sarja, seats, tables, warmup, seconds)
        w: Window = real["window"]
        moves = max(w.moves, 1)
        per_type = {t: real["tally"][t] / moves for t in MOVE_BYTES}
        move_bytes = sum(per_type.values())
        told = real["tally"].items()
        everything = sum(n for t, n in told if not t.startswith("error") and t != WIRE) / moves
        wire = real["tally"][WIRE] / moves
        errors = {t: n for t, n in real["tally"].items() if t.startswith("error")}
        report_load("sarja-server (journal in a data directory, default durability)", w)
        print(
            f"    bytes per move {move_bytes:6.0f}  ("
            + ", ".join(f"{t} {n:.0f}" for t, n in per_type.items())
            + f"); with snapshots, tables, notices and pings {everything:.0f};"
            f" on the wire, TLS included, {wire:.0f}"
        )
        if errors:
            print(f"    errors received: {errors}")
        if seats == 4:
            # The same load with the journal in memory: what the journal costs per move.
            # The difference is small next to a run's noise, so the full run measures
            # both twice, in the order default, ephemeral, ephemeral, default: a drift in
            # the machine's load then falls on both sides alike.
            kept, bare = [w], []
            for ephemeral in (True,) if quick else (True, True, False):
                label = "--ephemeral (journal in memory)" if ephemeral else "again"
                run = trio.run(load_sarja, seats, tables, warmup, seconds, ephemeral)
                report_load(f"sarja-server {label}", run["window"])
                (bare if ephemeral else kept).append(run["window"])
            if all(r.cpu > 0 for r in kept + bare):
                kept_us = statistics.mean(r.cpu_us for r in kept)
                bare_us = statistics.mean(r.cpu_us for r in bare)
            else:
                kept_us = bare_us = math.nan
            journal_cpu = kept_us - bare_us
            print(
                f"  CPU per move: default {', '.join(f'{r.cpu_us:.1f}' for r in kept)} µs;"
                f" --ephemeral {', '.join(f'{r.cpu_us:.1f}' for r in bare)} µs",
            )
            print(
                f"  the journal's CPU per move: {journal_cpu:.1f} µs"
                f" (mean default - mean --ephemeral)",
                flush=True,
            )
            e = bare[0]
            ephemeral_figures = {
                "cpu_us_4_ephemeral": round(bare_us, 1),
                "journal_cpu_us": round(journal_cpu, 1),
                "cpu_us_4_runs": [round(r.cpu_us, 1) for r in kept],
                "cpu_us_4_ephemeral_runs": [round(r.cpu_us, 1) for r in bare],
                "p50_us_4_ephemeral": us(percentile(e.latencies, 0.5)),
                "p99_us_4_ephemeral": us(percentile(e.latencies, 0.99)),
                "moves_4_ephemeral": e.moves,
            }
        reply = max(1, round(move_bytes / seats))
        floor = trio.run(load_floor, seats, tables, reply, warmup, seconds, "fanout")
        f: Window = floor["window"]
        report_load(
            f"floor: a bare trio fan-out server, {floor['reply']} bytes to each seat per move", f
        )
        journaled = trio.run(load_floor, seats, tables, reply, warmup, seconds, "fanout_journal")
        j: Window = journaled["window"]
        report_load("the same floor, committing each move to SQLite before it fans out", j)
        cpu_ratio = w.cpu_us / f.cpu_us if f.cpu > 0 and w.cpu > 0 else math.nan
        print(f"  CPU per move / floor: {verdict(cpu_ratio, TARGET_CPU)}")
        journal_ratio = w.cpu_us / j.cpu_us if j.cpu > 0 and w.cpu > 0 else math.nan
        floors_ratio = j.cpu_us / f.cpu_us if j.cpu > 0 and f.cpu > 0 else math.nan
        print(
            f"  CPU per move / the floor with a journal: {journal_ratio:.2f}x;"
            f" that floor / the bare one: {floors_ratio:.2f}x"
        )
        print(
            f"  bytes per move {move_bytes:.0f}, target at most {TARGET_BYTES[seats]}:"
            f" {'met' if move_bytes <= TARGET_BYTES[seats] else 'MISSED'}",
            flush=True,
        )
        figures |= {
            f"cpu_us_{seats}": round(w.cpu_us, 1),
            f"floor_us_{seats}": round(f.cpu_us, 1),
            f"floor_journal_us_{seats}": round(j.cpu_us, 1),
            f"bytes_{seats}": round(move_bytes),
            f"wire_bytes_{seats}": round(wire),
            f"tls_bytes_{seats}": round(wire - everything),
            f"cpu_ratio_{seats}": round(cpu_ratio, 2),
            f"p50_us_{seats}": us(percentile(w.latencies, 0.5)),
            f"p99_us_{seats}": us(percentile(w.latencies, 0.99)),
            f"floor_p50_us_{seats}": us(percentile(f.latencies, 0.5)),
            f"floor_p99_us_{seats}": us(percentile(f.latencies, 0.99)),
            f"moves_{seats}": w.moves,
            f"gc_share_{seats}": w.gc.get("share"),
            f"late_{seats}": w.late + f.late + j.late,
        }
    figures |= ephemeral_figures | rtt_figures
    figures["seconds"] = round(time.perf_counter() - began)
    print(f"Targets (finished in {figures['seconds']} s):")
    for seats in (4, 12):
        ratio = figures[f"cpu_ratio_{seats}"]
        print(f"  CPU per move at {seats} seats / floor: {verdict(ratio, TARGET_CPU)}")
    for seats in (4, 12):
        n, target = figures[f"bytes_{seats}"], TARGET_BYTES[seats]
        print(
            f"  bytes per move at {seats} seats: {n} of at most {target}, {n / target:.2f}:"
            f" {'met' if n <= target else 'MISSED'}"
        )
    print(f"  idle round trip (action) / echo: {verdict(figures['rtt_ratio'], TARGET_RTT)}")
    print(
        "  idle round trip (action) / journaled echo:"
        f" {verdict(figures['rtt_journal_ratio'], TARGET_JOURNAL_RTT)}"
    )
    print(
        f"The journal per move (default durability, 4 seats): CPU"
        f" {figures['journal_cpu_us']} µs of {figures['cpu_us_4']};"
        f" round trip +{figures['journal_rtt_us']} µs of {figures['rtt_us']}"
    )
    print(
        json.dumps(
            {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in figures.items()}
        )
    )


if __name__ == "__main__":
    main()
