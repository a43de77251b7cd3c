"""Hostile and broken clients: garbage, oversize frames, wrong-state messages
and peers that stop reading never disturb another table."""

from __future__ import annotations

import contextlib
import random
import socket
import struct
import subprocess
import sys
from typing import Any

import pytest
import trio

from sarja.protocol.codec import ClientCodec
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import CreateTable, Hello, Join, Leave, ListTables, Pass, Ping
from sarja.protocol.session import SessionState
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.connection import Connection

from .dial import dial, dial_blocking
from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end, seat_table


@pytest.fixture
async def server(nursery, tmp_path):
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        seed=7,
        data_dir=tmp_path,
        max_queued_bytes=256 * 1024,
        send_timeout=1.0,
    )
    return await nursery.start(serve, config)


def frame_as_if_in(state: SessionState, msg: Any) -> bytes:
    """A well-formed frame for `msg`, whatever state a real client would be in."""
    codec = ClientCodec()
    codec.session.state = state
    return codec.send(msg)


async def read_until_closed(stream: trio.abc.Stream) -> bytes:
    received = b""
    with trio.fail_after(PATIENCE):
        while data := await stream.receive_some(65536):
            received += data
    return received


async def game_meanwhile(server, outcomes: list, check_every: int = 1) -> None:
    clients = await seat_table(server, 2, name="Bystanders")
    final = await play_to_the_end(clients, random.Random(9), check_every=check_every)
    outcomes.append(final.result)
    outcomes.append(clients)  # kept open: the test may look at who is connected


async def test_garbage_oversize_and_wrong_state_leave_other_tables_playing(server):
    outcomes: list = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(game_meanwhile, server, outcomes)

        # A frame that is no msgpack value, then an oversize frame, refused from
        # its length alone: an error for each, and the connection closes.
        stream = await dial(server.port)
        await stream.send_all(struct.pack(">I", 6) + b"\xc1" * 6)
        await stream.send_all(struct.pack(">I", 10_000_000))
        reply = await read_until_closed(stream)
        assert b"malformed_msgpack" in reply and b"frame_too_large" in reply

        # A move before the handshake: refused, and the connection stays usable.
        client = NetClient(await dial(server.port), "Early")
        await client.stream.send_all(frame_as_if_in(SessionState.GAME, Pass(id=1, version=0)))
        error = await client.expect("error")
        assert error.code == "wrong_state" and error.id == 1
        await client.send(Hello(version=PROTOCOL_VERSION, name="Early"))
        await client.expect("welcome")

        # Random bytes.
        stream = await dial(server.port)
        await stream.send_all(random.Random(1).randbytes(3000))
        await read_until_closed(stream)
    assert outcomes and outcomes[0] is not None


FLOOD_BUDGET = 20_000_000  # pings; a fair server ends the game long before (see below)

# A peer in a process of its own, so its bytes keep arriving whatever the server's loop
# is doing (a thread would wait for the server's GIL): pings in bursts, as fast as the
# socket takes them, and the pongs read back so that it is not dropped as stuck. It
# says "flowing" once the flood is on, and gives up after its budget of pings, so a
# server that never yields to others fails the test instead of hanging it.
FLOODER = """
import os, selectors, signal, socket, ssl, sys
from sarja.client.tls import context
port, budget, hello, burst = int(sys.argv[1]), int(sys.argv[2]), bytes.fromhex(sys.argv[3]), \\
    bytes.fromhex(sys.argv[4]) * 500
sock = context().wrap_socket(socket.create_connection(("127.0.0.1", port)))
sock.sendall(hello)
# One thread reads and writes: a TLS socket takes no reads and writes at once.
sock.setblocking(False)
selector = selectors.DefaultSelector()
selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
BLOCKED = (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError)
sent, pending = 0, b""
signal.signal(signal.SIGTERM, lambda *_: (print(sent, flush=True), os._exit(0)))
while sent < budget or pending:
    selector.select()
    try:
        while sock.recv(1 << 20):
            pass
    except BLOCKED:
        pass
    if not pending:
        pending = burst
        sent += 500
        if sent == 5000:
            print("flowing", flush=True)
    try:
        pending = pending[sock.send(pending):]
    except BLOCKED:
        pass
print("spent", flush=True)
"""


async def test_a_peer_flooding_valid_messages_holds_up_no_one(nursery, tmp_path, mock_clock):
    """Bytes always waiting on one socket must not keep its reader from yielding.

    Measured in the flood, not in seconds, so that a busy machine cannot fail it: the
    clock stands still (trio's MockClock), so no timeout fires, and the game at another
    table must end while the flooder still has pings to send. The flood's pace is the
    server's reading pace (TCP holds the flooder back), so a server that gives the
    flooded socket its turn and no more ends the game within a small part of the budget
    (about 0.9 million pings of 20 million, measured); one that kept reading while bytes
    wait would hold the game up for as long as the flooder, in a process of its own,
    keeps them waiting.
    """
    config = ServerConfig(host="127.0.0.1", port=0, seed=7, data_dir=tmp_path)
    server = await nursery.start(serve, config)
    hello = frame_as_if_in(SessionState.CONNECTED, Hello(version=PROTOCOL_VERSION, name="Flood"))
    ping = frame_as_if_in(SessionState.LOBBY, Ping(n=1))
    flooder = await trio.lowlevel.open_process(
        [sys.executable, "-c", FLOODER, str(server.port), str(FLOOD_BUDGET), hello.hex(),
         ping.hex()],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert await flooder.stdout.receive_some(100) == b"flowing\n"  # before the game
        outcomes: list = []
        await game_meanwhile(server, outcomes, check_every=20)
        flooder.terminate()  # it says how many pings it sent, and ends
        said = b""
        while chunk := await flooder.stdout.receive_some(100):
            said += chunk
    finally:
        if flooder.returncode is None:
            flooder.kill()
        await flooder.wait()
    assert outcomes[0].result in ("win", "draw")
    assert b"spent" not in said, "the game ended only after the flood ran out"
    print(f"pings sent before the game ended: {int(said)}")


async def test_a_client_that_never_reads_is_dropped_and_delays_no_one(server):
    # Thirty open tables make every `tables` answer a few kilobytes.
    hosts = []
    for i in range(30):
        host = await NetClient.connect(server.port, f"Host{i}")
        hosts.append(host)
        await host.send(CreateTable(name=f"Table {i:02}", players=2, teams=2))
        await host.expect("table")
    # A machine of its own (127.0.0.2): its own address's budget.
    sleeper = NetClient(await dial(server.port, source="127.0.0.2", receive_buffer=4096), "Sleeper")
    await sleeper.send(Hello(version=PROTOCOL_VERSION, name="Sleeper"))
    request = frame_as_if_in(SessionState.LOBBY, ListTables())
    outcomes: list = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(game_meanwhile, server, outcomes)
        # Ask and ask, never reading a reply, until the server hangs up.
        with trio.move_on_after(PATIENCE):
            try:
                for _ in range(50_000):
                    await sleeper.stream.send_all(request)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
    assert outcomes and outcomes[0] is not None
    connected = {g.name for g in server.lobby.guests.values() if g.connected}
    assert "Sleeper" not in connected and "P0" in connected


async def test_silent_peers_are_dropped_with_a_goodbye(nursery, autojump_clock):
    # The server's timeouts run on trio's MockClock: they fire when they are due, not
    # sooner or later on a busy machine.
    config = ServerConfig(
        host="127.0.0.1", port=0, handshake_timeout=0.3, idle_timeout=0.5, ping_interval=10
    )
    server = await nursery.start(serve, config)
    # One never says hello; one says hello, then never answers anything.
    mute = await dial(server.port)
    assert b"idle" in await read_until_closed(mute)
    quiet = await NetClient.connect(server.port, "Quiet")
    with trio.fail_after(PATIENCE):
        bye = await quiet.expect("bye")
    assert bye.code == "idle"
    assert await read_until_closed(quiet.stream) == b""
    with trio.fail_after(PATIENCE):
        while any(g.connected for g in server.lobby.guests.values()):
            await trio.sleep(0.01)


async def test_a_quiet_peer_is_pinged_and_kept_while_it_answers(nursery, autojump_clock):
    # Kept past the handshake's deadline too: that one ends with the hello. The clock is
    # trio's MockClock, so a busy machine cannot make the answers late.
    config = ServerConfig(
        host="127.0.0.1", port=0, ping_interval=0.1, idle_timeout=0.5, handshake_timeout=0.6
    )
    server = await nursery.start(serve, config)
    client = await NetClient.connect(server.port, "Patient")  # answers pings as it reads
    with trio.move_on_after(1.5):
        while True:
            await client.receive()
    pings = [m for m in client.received if m.TYPE == "ping"]
    assert len(pings) >= 5 and not any(m.TYPE == "bye" for m in client.received)


async def test_a_full_server_says_so(nursery):
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, max_connections=1))
    await NetClient.connect(server.port, "First")
    second = NetClient(await dial(server.port), "Second")
    bye = await second.expect("bye")
    assert bye.code == "server_full"


async def test_a_slow_reader_gets_every_frame_whole_and_in_order(nursery, monkeypatch):
    """Backpressure: a peer that reads slowly while the lobby's list keeps changing
    and it comes and goes at a table receives exactly the bytes the server meant
    for it, frame after frame, never one frame inside another."""
    sent: dict[Connection, list[bytes]] = {}
    enqueue = Connection._enqueue

    def recording(self: Connection, frame: bytes) -> bool:
        sent.setdefault(self, []).append(frame)
        return enqueue(self, frame)

    monkeypatch.setattr(Connection, "_enqueue", recording)
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        max_queued_bytes=4 * 1024 * 1024,
        table_list_every=0,
        move_burst=1000,  # this peer comes and goes far more than a person would
    )
    server = await nursery.start(serve, config)
    hosts = []
    for i in range(60):  # enough tables that every list is about ten kilobytes
        host = await NetClient.connect(server.port, f"Host{i:02}")
        await host.send(CreateTable(name=f"A long table name {i:02}", players=4, teams=2))
        await host.expect("table")
        hosts.append(host)
    table_id = server.lobby.table_list().tables[0].id
    slow = await dial(server.port, receive_buffer=2048)
    await slow.send_all(
        frame_as_if_in(SessionState.CONNECTED, Hello(version=PROTOCOL_VERSION, name="Slow"))
    )
    received = bytearray()

    async def read_slowly(done: trio.Event) -> None:
        while not done.is_set():
            data = await slow.receive_some(1500)
            received.extend(data)
            await trio.sleep(0.002)

    churner = await NetClient.connect(server.port, "Churner")
    done = trio.Event()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(read_slowly, done)
        for i in range(60):
            # The slow peer sits down and gets up; another creates and leaves a
            # table. Every change is pushed to the lobby, the slow peer included.
            await slow.send_all(frame_as_if_in(SessionState.LOBBY, Join(table=table_id)))
            await slow.send_all(frame_as_if_in(SessionState.TABLE, Leave()))
            await churner.send(CreateTable(name=f"Churn {i}", players=2, teams=2))
            await churner.expect("table")
            await churner.send(Leave())
            await churner.expect("tables")
        ours = next(c for c in sent if c.guest is not None and c.guest.name == "Slow")
        expected = b"".join(sent[ours])
        with trio.fail_after(PATIENCE):
            while len(received) < len(expected):
                await trio.sleep(0.01)
        done.set()
        nursery.cancel_scope.cancel()
    codec = ClientCodec()
    codec.receive_data(bytes(received))
    kinds = []
    while (msg := codec.next_message()) is not None:
        kinds.append(msg.TYPE)
    assert len(expected) > 300_000, kinds  # the queue really filled up and drained
    assert bytes(received) == expected
    assert {"welcome", "tables", "table", "notice"} <= set(kinds)


async def test_a_frame_trickled_a_byte_at_a_time_is_cut_off(nursery, autojump_clock):
    """A whole frame must arrive within `frame_timeout`, not just its next byte."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    client = await NetClient.connect(server.port, "Trickle")
    frame = frame_as_if_in(SessionState.LOBBY, Ping(n=1))
    with trio.fail_after(120):
        for byte in frame[:-1]:
            await client.stream.send_all(bytes([byte]))
            await trio.sleep(4)  # each byte well within the idle timeout
            if server.connections == 0:
                break
        bye = await client.expect("bye")
    assert bye.code == "slow_frame"


async def test_guessing_resume_tokens_is_cut_off(server):
    stream = await dial(server.port)
    client = NetClient(stream, "Guess")
    # As the limits table says: two tries on one connection, the second answered by bye.
    for i in range(2):
        await client.send(Hello(version=PROTOCOL_VERSION, name="Guess", resume=f"{i:x}" * 43))
        assert (await client.expect("error")).code == "unknown_resume"
    assert (await client.expect("bye")).code == "too_many_resumes"
    assert await read_until_closed(stream) == b""


async def test_silent_sockets_past_the_address_limit_are_closed_at_once(nursery, autojump_clock):
    """A socket that never starts its TLS handshake held a file descriptor, uncounted,
    for the whole handshake timeout: one address could hold thousands. Past its limit
    (and the few let through to hear why) it is closed at once."""
    config = ServerConfig(host="127.0.0.1", port=0, max_per_address=2)
    server = await nursery.start(serve, config)
    silent = [await trio.open_tcp_stream("127.0.0.1", server.port) for _ in range(2 + 4 + 5)]
    closed_at: list[float] = []

    async def until_closed(stream: trio.abc.Stream) -> None:
        with contextlib.suppress(trio.BrokenResourceError):
            while await stream.receive_some(4096):
                pass
        closed_at.append(trio.current_time())

    start = trio.current_time()
    async with trio.open_nursery() as waiting:
        for stream in silent:
            waiting.start_soon(until_closed, stream)
    early = [t for t in closed_at if t - start < config.handshake_timeout]
    assert len(early) == 5  # the ones past the limit and its spares: not kept waiting
    assert len(closed_at) == len(silent)  # the rest at the handshake's timeout


async def test_one_address_cannot_take_every_connection(nursery):
    config = ServerConfig(host="127.0.0.1", port=0, max_per_address=3)
    server = await nursery.start(serve, config)
    kept = [await NetClient.connect(server.port, f"C{i}") for i in range(3)]
    extra = NetClient(await dial(server.port), "Extra")
    assert (await extra.expect("bye")).code == "too_many_connections"
    await kept[0].aclose()
    with trio.fail_after(PATIENCE):
        while server.connections > 2:
            await trio.sleep(0.01)
    await NetClient.connect(server.port, "Later")  # a slot is free again


def test_out_of_file_descriptors_pauses_accepting_without_a_log_flood(tmp_path):
    """With a small file limit the server stops taking connections for a moment,
    says so once, and takes them again when some close."""
    import resource
    import subprocess
    import sys
    import time

    def small_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))

    log = tmp_path / "server.log"
    with open(log, "w") as err:
        process = subprocess.Popen(
            # (No discovery: zeroconf's sockets and threads would share the 48 files,
            # and its start-up races the flood of connections below.)
            [sys.executable, "-c", "from sarja.server.cli import main; main()", "--host",
             "127.0.0.1", "--port", "0", "--ephemeral", "--no-discovery"],
            stdout=subprocess.PIPE, stderr=err, preexec_fn=small_limit, text=True,
        )  # fmt: skip
    try:
        assert process.stdout is not None
        port = int(process.stdout.readline().split("port ")[1].rstrip(".\n"))
        held = []
        for _ in range(80):  # more than the limit allows
            held.append(socket.create_connection(("127.0.0.1", port)))
        time.sleep(1.5)
        for sock in held:
            sock.close()
        time.sleep(1.0)
        # Connections are taken again, and a new one is greeted.
        with dial_blocking(port, timeout=5) as sock:
            sock.sendall(
                frame_as_if_in(SessionState.CONNECTED, Hello(version=PROTOCOL_VERSION, name="Back"))
            )
            assert b"welcome" in sock.recv(65536)
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)  # a hang guard
    text = log.read_text()
    assert "Traceback" not in text, text[-2000:]
    assert text.count("no more connections") <= 2, text[-2000:]
