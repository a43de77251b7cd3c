"""Short versions of the hostile attacks not already in test_server_hostile.py
(bench/hostile.py runs them all, in full, against the real server process).
Each failed on the server before its fixes."""

from __future__ import annotations

import logging
import random
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio

import sarja.protocol.errors
from sarja.protocol.codec import ServerCodec
from sarja.protocol.framing import FrameDecoder, pack_length
from sarja.protocol.limits import MAX_SERVER_FRAME, PROTOCOL_VERSION
from sarja.protocol.messages import CreateTable, Join, Leave, Ping, Ready, Spectate
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.connection import Connection

from .dial import dial, dial_blocking
from .netclient import PATIENCE, NetClient


def frame(obj: Any) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return pack_length(len(body)) + body


def raw(body: bytes) -> bytes:
    return pack_length(len(body)) + body


def hello(name: str) -> bytes:
    return frame({"t": "hello", "version": PROTOCOL_VERSION, "name": name})


class Raw:
    """A connection that sends whatever bytes it is given and decodes what comes back."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.received: list[dict[str, Any]] = []
        self.closed = False
        self._frames = FrameDecoder(MAX_SERVER_FRAME)

    @classmethod
    async def open(cls, port: int) -> Raw:
        return cls(await dial(port))

    async def read_until(self, done: Any, timeout: float = PATIENCE) -> bool:
        """Read until `done(self.received)`, the end of the stream, or `timeout`."""
        with trio.move_on_after(timeout):
            while not done(self.received):
                data = await self.stream.receive_some(65536)
                if not data:
                    self.closed = True
                    return bool(done(self.received))
                self._frames.receive_data(data)
                while (body := self._frames.next_frame()) is not None:
                    self.received.append(msgpack.unpackb(body, raw=False, strict_map_key=False))
            return True
        return False

    def codes(self) -> list[str]:
        return [m["code"] for m in self.received if m["t"] == "error"]


def is_pong(n: int) -> Any:
    return lambda got: any(m["t"] == "pong" and m["n"] == n for m in got)


@pytest.fixture
async def server(nursery):
    return await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=5))


CONTROL = ["\x1b]52;c;cm0gLXJmIH4=\x07", "\x1b]0;owned\x07\x1b[2J", "a\r\n2031 ERROR forged"]


def hostile_barrage() -> list[bytes]:
    """Frames that are each refused, none fatally: control characters in types and
    field names, depth bombs, bin and ext values, floats, booleans as integers, keys
    that are not strings, bad UTF-8, over-long strings and bytes that are no msgpack."""
    nest = b"\x91" * 8000 + b"\xc0"
    return [
        *(frame({"t": text}) for text in CONTROL),
        *(frame({"t": "ping", "n": 1, text: 1}) for text in CONTROL),
        frame({"t": "hello", "version": PROTOCOL_VERSION, "name": CONTROL[0]}),
        raw(nest),
        raw(b"\x82\xa1t\xa4ping\xa1n" + nest[:8000]),
        raw(b"\x82\xa1t\xa4ping\xa1n\xd6\xff\x00\x00\x00\x00"),  # a timestamp
        raw(b"\x82\xa1t\xa4ping\xa1n\xc4\x01x"),  # bin
        frame({"t": "ping", "n": 1.0}),
        frame({"t": "ping", "n": True}),
        frame({"t": "ping", "n": 2**64 - 1}),
        frame({"t": "ping", 1: 2}),
        raw(b"\x83\xa1t\xa4ping\xa1n\x01\x81\xa1a\x01\x01"),  # a map as a key
        raw(b"\x81\xa1t\xa2\xff\xfe"),  # not UTF-8
        frame({"t": "x" * 1025}),
        raw(b"\xc1" * 40),
        raw(b"\xdd\xff\xff\xff\xff"),  # an array claiming 4 billion items
    ]


async def test_hostile_frames_are_refused_one_by_one_and_nothing_raw_reaches_the_log(
    server, caplog
):
    caplog.set_level(logging.INFO, logger="sarja")
    client = await Raw.open(server.port)
    barrage = hostile_barrage()
    await client.stream.send_all(
        hello("Mallory") + b"".join(barrage) + frame({"t": "ping", "n": 77})
    )
    assert await client.read_until(is_pong(77))
    errors = [m for m in client.received if m["t"] == "error"]
    assert len(errors) == len(barrage) and not any(e.get("fatal") for e in errors), errors
    for error in errors:  # every error sentence is printable: nothing echoed raw
        assert error["message"].isprintable(), error
    assert not client.closed
    for record in caplog.records:
        assert record.levelno < logging.WARNING, record.getMessage()
        assert not re.search(r"[\x00-\x1f\x7f]", record.getMessage()), record.getMessage()


async def test_an_unprintable_message_type_gets_its_error_and_the_connection_lives(server, caplog):
    caplog.set_level(logging.INFO, logger="sarja")
    client = await Raw.open(server.port)
    strange = [frame({"t": "\U000e0001" * 40}), frame({"t": "\U0010fffd" * 40})]
    await client.stream.send_all(
        hello("Mallory") + b"".join(strange) + frame({"t": "ping", "n": 5})
    )
    await client.read_until(is_pong(5))
    assert client.codes() == ["unknown_type", "unknown_type"]
    assert is_pong(5)(client.received) and not client.closed
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def fatal_openings() -> list[tuple[str, bytes, bool]]:
    """(what, bytes, then end our side) for connections that must end fatally."""
    rng = random.Random(12)
    noise = rng.randbytes(3000)
    return [
        ("empty frame", hello("A") + pack_length(0) + frame({"t": "ping", "n": 1}), False),
        ("oversize", pack_length(2**32 - 1) + b"x" * 40, False),
        ("oversize after a hello", hello("A") + pack_length(8193), False),
        ("truncated", (hello("A") + frame({"t": "chat", "text": "x" * 90}))[:-30], True),
        ("truncated prefix", b"\x00\x00", True),
        ("version 1", frame({"t": "hello", "version": 1, "name": "Old"}), False),
        ("no version", frame({"t": "hello", "name": "Old"}), False),
        ("version as text", frame({"t": "hello", "version": "2", "name": "Old"}), False),
        ("random bytes", noise, True),
        ("fatal mid-stream", hello("A") + pack_length(10**6) + frame({"t": "ping", "n": 9}), False),
    ]


async def test_every_fatal_frame_is_answered_with_its_error_before_the_close(server):
    for what, data, end in fatal_openings():
        for _ in range(5):  # again and again: no reply may be lost to the close
            client = await Raw.open(server.port)
            await client.stream.send_all(data)
            if end:  # TCP's end, under TLS (a peer need not say TLS's close_notify)
                await client.stream.transport_stream.send_eof()
            await client.read_until(lambda got: False)  # to the end of the stream
            assert client.closed, what
            fatal = [m for m in client.received if m["t"] == "error" and m.get("fatal")]
            # TLS has no half-close but its close_notify: after the end of our TCP stream
            # the server's TLS writes nothing more, and it may close in silence.
            if fatal or not end:
                assert len(fatal) == 1 and client.received[-1] is fatal[0], (what, client.received)
            assert not any(m["t"] == "pong" for m in client.received), what
            await client.stream.aclose()


def test_the_fatal_openings_are_fatal_by_the_codec_too():
    for what, data, end in fatal_openings():
        codec = ServerCodec()
        with pytest.raises(sarja.protocol.errors.RemoteProtocolError) as caught:
            codec.receive_data(data)
            while codec.next_message() is not None:
                pass
            if end:
                codec.receive_data(b"")
                codec.next_message()
        assert caught.value.fatal, what


async def read_all(client: NetClient, counts: dict[str, int]) -> None:
    """Keep reading (and so answering pings), counting messages by type."""
    try:
        while True:
            msg = await client.receive()
            counts[msg.TYPE] = counts.get(msg.TYPE, 0) + 1
    except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def host_tables(port: int, count: int, players: int = 12) -> list[NetClient]:
    hosts = []
    for i in range(count):
        host = await NetClient.connect(port, f"Host {i:03d} " + "h" * 15)
        await host.send(CreateTable(name=f"Table {i:03d} " + "t" * 22, players=players, teams=2))
        await host.expect("table")
        hosts.append(host)
    return hosts


async def test_ready_toggles_in_a_crowded_lobby_neither_stall_the_server_nor_flood_the_lobby(
    nursery,
):
    """Amplification: 320 `ready` toggles at once, each changing the lobby's list of 40
    tables, with 30 guests in the lobby: the list goes out coalesced, and a player at
    another table is answered meanwhile."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    hosts = await host_tables(server.port, 40)
    lobby = [await NetClient.connect(server.port, f"Lobby{i}") for i in range(30)]
    counts: list[dict[str, int]] = [{} for _ in lobby]
    bystander = await NetClient.connect(server.port, "Bystander")
    await bystander.send(CreateTable(name="Elsewhere", players=2, teams=2))
    await bystander.expect("table")
    async with trio.open_nursery() as readers:
        for guest, tally in zip(lobby, counts, strict=True):
            readers.start_soon(read_all, guest, tally)
        await trio.sleep(0.5)
        before = [c.get("tables", 0) for c in counts]
        began = trio.current_time()
        burst = frame({"t": "ready", "ready": True}) + frame({"t": "ready", "ready": False})
        for host in hosts:
            await host.stream.send_all(burst * 4)
        slowest = 0.0
        for n in range(15):
            sent = trio.current_time()
            await bystander.send(Ping(n=n))
            await bystander.expect("pong")
            slowest = max(slowest, trio.current_time() - sent)
            await trio.sleep(0.1)
        elapsed = trio.current_time() - began
        readers.cancel_scope.cancel()
    lists = [c.get("tables", 0) - b for c, b in zip(counts, before, strict=True)]
    assert slowest < 1.0
    assert max(lists) <= elapsed / server.config.table_list_every + 3, lists


async def test_lobby_guests_that_never_read_are_dropped_and_hold_bounded_memory(nursery):
    limit = 64 * 1024
    config = ServerConfig(
        host="127.0.0.1", port=0, max_queued_bytes=limit, send_timeout=1.0, table_list_every=0.02
    )
    server = await nursery.start(serve, config)
    hosts = await host_tables(server.port, 30)
    silent = []
    for i in range(10):
        stream = await dial(server.port, receive_buffer=2048)
        await stream.send_all(hello(f"Silent{i}") + frame({"t": "list_tables"}))
        silent.append(stream)
    most = 0
    # Readiness does not show in the lobby's list, so toggling it sends the lobby
    # nothing at all; new tables do change it.
    for i in range(150):
        await hosts[0].send(Ready(ready=i % 2 == 0))
    more = [await NetClient.connect(server.port, f"More{i}") for i in range(40)]
    for i, host in enumerate(more):
        await host.send(CreateTable(name=f"More {i:03d} " + "m" * 22, players=12, teams=2))
        await trio.sleep(0.02)
        most = max(most, max((c.queued for c in server._live), default=0))
    with trio.fail_after(PATIENCE):
        while any(
            g.connected and g.name.startswith("Silent") for g in server.lobby.guests.values()
        ):
            await trio.sleep(0.05)
    assert most <= limit


async def abandon_a_game(port: int, number: int) -> None:
    a = await NetClient.connect(port, f"Gone{number}a")
    b = await NetClient.connect(port, f"Gone{number}b")
    await a.send(CreateTable(name=f"Abandoned {number}", players=2, teams=2))
    table = await a.expect("table")
    await b.send(Join(table=table.id))
    await b.expect("table")
    for client in (a, b):
        await client.send(Ready(ready=True))
    for client in (a, b):
        await client.expect("snapshot")
        await client.aclose()


async def test_abandoned_games_do_not_lock_out_new_tables(nursery, autojump_clock):
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, max_tables=3))
    for number in range(3):
        await abandon_a_game(server.port, number)
    created = False
    for _ in range(24):  # two hours, tried every five minutes
        newcomer = await NetClient.connect(server.port, "Newcomer")
        await newcomer.send(CreateTable(name="Fresh", players=2, teams=2))
        reply = await newcomer.receive()
        while reply.TYPE not in ("table", "error"):
            reply = await newcomer.receive()
        await newcomer.aclose()
        if reply.TYPE == "table":
            created = True
            break
        assert reply.code == "too_many_tables"
        await trio.sleep(300)
    assert created


async def test_a_seat_squatter_at_a_waiting_table_is_released(nursery, autojump_clock):
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    host = await NetClient.connect(server.port, "Host")
    await host.send(CreateTable(name="Waiting", players=2, teams=2))
    table = await host.expect("table")
    await host.send(Ready(ready=True))
    squatter = await NetClient.connect(server.port, "Squatter")
    await squatter.send(Join(table=table.id))
    await squatter.expect("table")
    joined = False
    async with trio.open_nursery() as readers:
        readers.start_soon(read_all, host, {})
        readers.start_soon(read_all, squatter, {})  # present, answering every ping
        for _ in range(24):  # two hours, tried every five minutes
            newcomer = await NetClient.connect(server.port, "Newcomer")
            await newcomer.send(Join(table=table.id))
            reply = await newcomer.receive()
            while reply.TYPE not in ("table", "error"):
                reply = await newcomer.receive()
            await newcomer.aclose()
            if reply.TYPE == "table":
                joined = True
                break
            await trio.sleep(300)
        readers.cancel_scope.cancel()
    assert joined


async def test_a_freed_squatter_who_rejoins_at_once_does_not_keep_the_seat(nursery, autojump_clock):
    """The squatter rejoined the instant the sweep freed the seat,
    from a new connection, and held it for another three minutes, again and again."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    host = await NetClient.connect(server.port, "Host")
    await host.send(CreateTable(name="Waiting", players=2, teams=2))
    table = await host.expect("table")
    await host.send(Ready(ready=True))
    squatter = await NetClient.connect(server.port, "Squatter")
    await squatter.send(Join(table=table.id))
    await squatter.expect("table")
    async with trio.open_nursery() as readers:
        readers.start_soon(read_all, host, {})
        readers.start_soon(read_all, squatter, {})
        while any(
            g is not None and g.name == "Squatter" for g in server.lobby.tables[table.id].seats
        ):
            await trio.sleep(10)
        again = await NetClient.connect(server.port, "Squatter2")
        await again.send(Join(table=table.id))
        refused = await again.expect("error")
        assert refused.code == "not_ready_in_time"
        # Once the wait is over, anyone from that address may sit there again.
        await trio.sleep(server.config.ready_timeout)
        newcomer = await NetClient.connect(server.port, "Player")
        readers.cancel_scope.cancel()
    await newcomer.send(Join(table=table.id))
    assert (await newcomer.expect("table")).seats[1].name == "Player"


async def test_spectate_and_leave_churn_reaches_the_players_boundedly(server):
    host = await NetClient.connect(server.port, "Player")
    await host.send(CreateTable(name="Quiet", players=2, teams=2))
    table = await host.expect("table")
    counts: dict[str, int] = {}
    churner = await NetClient.connect(server.port, "Churner")
    async with trio.open_nursery() as readers:
        readers.start_soon(read_all, host, counts)
        with trio.fail_after(PATIENCE):
            for _ in range(200):
                await churner.send(Spectate(table=table.id))
                reply = await churner.receive()
                while reply.TYPE not in ("table", "error"):
                    reply = await churner.receive()
                if reply.TYPE == "error":  # refused (too_fast): still in the lobby
                    continue
                await churner.send(Leave())
                reply = await churner.receive()
                while reply.TYPE not in ("tables", "error"):
                    reply = await churner.receive()
        await trio.sleep(0.5)
        readers.cancel_scope.cancel()
    assert sum(counts.values()) < 200, counts  # fewer messages than churn steps


async def test_admitting_spectators_costs_the_server_linear_work(nursery, monkeypatch):
    frames = [0]
    enqueue = Connection._enqueue

    def counting(self: Connection, data: bytes) -> bool:
        frames[0] += 1
        return enqueue(self, data)

    monkeypatch.setattr(Connection, "_enqueue", counting)
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    host = await NetClient.connect(server.port, "Host")
    await host.send(CreateTable(name="Watched", players=2, teams=2))
    table = await host.expect("table")
    watchers = [await NetClient.connect(server.port, f"W{i}") for i in range(60)]
    before = frames[0]
    for watcher in watchers:
        await watcher.send(Spectate(table=table.id))
        await watcher.expect("table")
    assert frames[0] - before <= 10 * len(watchers), frames[0] - before


async def test_names_are_unique_at_a_table(server):
    victim = await NetClient.connect(server.port, "Victim")
    await victim.send(CreateTable(name="Friday", players=3, teams=3))
    table = await victim.expect("table")
    impostor = await NetClient.connect(server.port, "Victim")
    await impostor.send(Join(table=table.id))
    reply = await impostor.receive()
    while reply.TYPE not in ("table", "error"):
        reply = await impostor.receive()
    if reply.TYPE == "table":  # let in, then under another name
        names = [s.name for s in reply.seats if s.name is not None]
        assert len(names) == len(set(names)), names


def test_an_idle_connection_costs_the_server_little_memory():
    """The real server process: its resident memory (VmRSS) grows by at most 16 KiB
    for each greeted connection that then does nothing. Without the LAN announcement:
    zeroconf, loaded in a thread while the server already serves, would be counted as
    the connections' (on a busy machine it was still loading when `before` was read)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from sarja.server.cli import main; main()", "--host",
         "127.0.0.1", "--port", "0", "--ephemeral", "--max-per-address", "1000",
         "--no-discovery"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    held: list[socket.socket] = []

    def rss_kib() -> int:
        time.sleep(0.5)
        status = Path(f"/proc/{process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]

    def greet(count: int) -> None:
        for i in range(count):
            sock = dial_blocking(port, timeout=5)
            sock.sendall(hello(f"Idle{i:03d}"))
            received = b""
            while b"welcome" not in received:
                received += sock.recv(65536)
            held.append(sock)

    try:
        assert process.stdout is not None
        port = int(process.stdout.readline().split("port ")[1].rstrip(".\n"))
        greet(20)  # warm up
        before = rss_kib()
        greet(500)
        grown = rss_kib() - before
    finally:
        for sock in held:
            sock.close()
        process.terminate()
        process.wait(timeout=PATIENCE)  # a hang guard
    # TLS keeps its own state and record buffers for each connection (about 19 KiB
    # more than the plain stream's, measured).
    assert grown / 500 <= 40, f"{grown / 500:.1f} KiB per idle connection"
