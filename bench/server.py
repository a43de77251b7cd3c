"""Measure the server: action round trips on an idle server, and a LAN party
of many tables under load. Prints figures; asserts nothing.

    .venv/bin/python bench/server.py                 # both parts, 500 tables, 30 s
    .venv/bin/python bench/server.py --tables 50 --seconds 10

Part 1: the median and p99 time from sending an action to receiving the
mover's new state, on an otherwise idle `sarja-server` process, next to a bare
trio echo server that frames msgpack the same way (the floor for one round
trip through Python on both ends), measured in the same run. The echo runs
twice: in a process of its own, as sarja-server does (the ratio is taken
against this one), and inside the measuring process, where a round trip never
waits for another process to be woken (printed for comparison).

Part 2: TABLES tables of four scripted clients; each table makes one move a
second (the seat on turn moves; moves are spread over the second). Reports
moves per second, the action latency (sent -> mover's new state) p50 and p99,
and the server process's CPU time per move (from /proc, user + system). Then
the same load against a bare trio fan-out server in a process of its own (it
reads each move and writes a state-sized frame to each seat of the table, and
does nothing else), as the floor that trio and the sockets alone set on this
machine, with the ratio of the two.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import random
import re
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import msgpack
import trio

from sarja.protocol import ClientCodec, SessionState
from sarja.protocol.messages import (
    CreateTable,
    Hello,
    Join,
    Play,
    Ready,
    Rematch,
)
from sarja.protocol.moves import action_message

SERVER = str(Path(sys.executable).parent / "sarja-server")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Client:
    """A scripted player: real TCP and the real codec."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.codec = ClientCodec()
        self.state = None
        self.table = None
        self.ids = 0
        self.state_arrived = trio.Event()
        self.closed = False

    @classmethod
    async def connect(cls, port: int, name: str) -> Client:
        client = cls(await trio.open_tcp_stream("127.0.0.1", port))
        await client.send(Hello(version=1, name=name))
        await client.until(lambda m: m.TYPE == "welcome")
        return client

    async def send(self, msg) -> None:
        await self.stream.send_all(self.codec.send(msg))

    async def pump_once(self) -> list:
        data = await self.stream.receive_some(262144)
        if not data:
            self.closed = True
            raise EOFError
        self.codec.receive_data(data)
        out = []
        while (msg := self.codec.next_message()) is not None:
            if msg.TYPE == "state":
                self.state = msg
                self.state_arrived.set()
                self.state_arrived = trio.Event()
            elif msg.TYPE == "table":
                self.table = msg
            out.append(msg)
        return out

    async def until(self, done) -> None:
        while True:
            for msg in await self.pump_once():
                if done(msg):
                    return

    async def pump_forever(self) -> None:
        try:
            while True:
                await self.pump_once()
        except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
            self.closed = True

    def next_action(self, rng: random.Random):
        self.ids += 1
        return action_message(rng.choice(self.state.legal), self.ids, self.state.version)


async def start_server(extra: list[str] = ()) -> tuple[trio.Process, int]:
    data_dir = tempfile.mkdtemp(prefix="sarja-bench-")
    process = await trio.lowlevel.open_process(
        [SERVER, "--host", "127.0.0.1", "--port", "0", "--seed", "1", "--data-dir", data_dir,
         *extra],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    buffer = b""
    while not (match := re.search(rb"sarja-client 127\.0\.0\.1:(\d+)", buffer)):
        chunk = await process.stdout.receive_some(4096)
        if not chunk:
            raise RuntimeError("the server did not start")
        buffer += chunk
    return process, int(match.group(1))


async def stop(process: trio.Process) -> None:
    process.terminate()
    with trio.move_on_after(5):
        await process.wait()
    if process.returncode is None:
        process.kill()


async def seat_tables(port: int, tables: int, players: int) -> list[list[Client]]:
    seated = []
    for t in range(tables):
        clients = [await Client.connect(port, f"T{t}P{i}") for i in range(players)]
        await clients[0].send(CreateTable(name=f"Table {t}", players=players, teams=2 if players
                                          != 3 else 3))  # fmt: skip
        await clients[0].until(lambda m: m.TYPE == "table")
        for c in clients[1:]:
            await c.send(Join(table=clients[0].table.id))
            await c.until(lambda m: m.TYPE == "table")
        for c in clients:
            await c.send(Ready(ready=True))
        for c in clients:
            await c.until(lambda m: m.TYPE == "state")
        seated.append(clients)
    return seated


# ----- part 1: idle round trips -------------------------------------------------


async def echo_server(task_status=trio.TASK_STATUS_IGNORED) -> None:
    """A bare framed-msgpack echo: read a frame, unpack it, pack it, send it."""

    async def handle(stream: trio.SocketStream) -> None:
        buffer = b""
        async for data in stream:
            buffer += data
            while len(buffer) >= 4:
                (n,) = struct.unpack(">I", buffer[:4])
                if len(buffer) < 4 + n:
                    break
                value = msgpack.unpackb(buffer[4 : 4 + n])
                body = msgpack.packb(value)
                buffer = buffer[4 + n :]
                await stream.send_all(struct.pack(">I", len(body)) + body)

    await trio.serve_tcp(handle, 0, host="127.0.0.1", task_status=task_status)


async def idle_round_trips(samples: int) -> None:
    rng = random.Random(1)
    process, port = await start_server()
    server_times: list[float] = []
    try:
        async with trio.open_nursery() as nursery:
            game = (await seat_tables(port, 1, 2))[0]
            while len(server_times) < samples:
                mover = next((c for c in game if c.state.legal), None)
                if mover is None or game[0].state.outcome is not None:
                    for c in game:
                        await c.send(Rematch())
                    for c in game:
                        await c.until(lambda m: m.TYPE == "state" and m.version == 0)
                    continue
                version = mover.state.version
                action = mover.next_action(rng)  # chosen before the clock starts, as
                started = time.perf_counter()  # the echo's request is made before
                await mover.send(action)
                await mover.until(lambda m, v=version: m.TYPE == "state" and m.version > v)
                server_times.append(time.perf_counter() - started)
                others = [c for c in game if c is not mover]
                for c in others:
                    await c.until(lambda m, v=version: m.TYPE == "state" and m.version > v)
            listeners = await nursery.start(echo_server)
            in_process = await echo_round_trips(listeners[0].socket.getsockname()[1], samples)
            nursery.cancel_scope.cancel()
    finally:
        await stop(process)
    echo_process, echo_port = await start_helper("echo")
    try:
        own_process = await echo_round_trips(echo_port, samples)
    finally:
        await stop(echo_process)
    ours, echo = statistics.median(server_times), statistics.median(own_process)
    print(f"Idle action round trip (sent -> mover's new state), {len(server_times)} actions:")
    for label, times in (
        ("sarja-server", server_times),
        ("bare echo, a process of its own", own_process),
        ("bare echo, in the measuring process", in_process),
    ):
        print(f"  {label:<36} median {statistics.median(times) * 1e6:6.0f} µs"
              f"   p99 {percentile(times, 0.99) * 1e6:6.0f} µs")  # fmt: skip
    print(f"  ratio (medians, against the echo in its own process, as sarja-server is)"
          f" {ours / echo:.2f}x   (target: at most 2x)")  # fmt: skip


async def echo_round_trips(port: int, samples: int) -> list[float]:
    """Round trips of one framed `play` to the echo server at `port`."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    codec = ClientCodec()
    codec.session.state = SessionState.GAME
    request = codec.send(Play(id=1, version=12, card="7H", cell=(4, 8)))
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        await stream.send_all(request)
        got = b""
        while len(got) < len(request):
            got += await stream.receive_some(65536)
        times.append(time.perf_counter() - started)
    await stream.aclose()
    return times


# ----- part 2: load -----------------------------------------------------------------


def frame(value: object) -> bytes:
    body = msgpack.packb(value)
    return struct.pack(">I", len(body)) + body


# What the floor server answers a move with: about the size of a seat's state mid-game.
FLOOR_REPLY = frame({"t": "state", "pad": "x" * 980})


async def fanout_server(task_status=trio.TASK_STATUS_IGNORED) -> None:
    """The floor under part 2: a bare trio server that does only the I/O of a move.

    A connection's first frame names its table; every later frame from it is
    unpacked and answered with one state-sized frame to each member of that
    table, written straight to the socket as sarja-server writes when it can.
    No lobby, no rules, no validation: what is left is trio and the sockets.
    """
    tables: dict[str, list[socket.socket]] = {}

    async def handle(stream: trio.SocketStream) -> None:
        raw = socket.socket(fileno=os.dup(stream.socket.fileno()))
        buffer, members = b"", None
        try:
            async for data in stream:
                buffer += data
                while len(buffer) >= 4 and len(buffer) >= 4 + (
                    n := struct.unpack_from(">I", buffer)[0]
                ):
                    value, buffer = msgpack.unpackb(buffer[4 : 4 + n]), buffer[4 + n :]
                    if members is None:
                        members = tables.setdefault(value, [])
                        members.append(raw)
                        continue
                    for member in members:
                        with contextlib.suppress(OSError):  # gone, or not reading
                            member.send(FLOOR_REPLY)
        finally:
            if members is not None:
                members.remove(raw)
            raw.close()

    await trio.serve_tcp(handle, 0, host="127.0.0.1", task_status=task_status)


HELPER_SERVERS = {"echo": lambda: echo_server, "fanout": lambda: fanout_server}


def serve_helper(kind: str) -> None:
    """Run one of HELPER_SERVERS in this process (bench's own subprocess), printing its port."""

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(HELPER_SERVERS[kind]())
            print(f"port {listeners[0].socket.getsockname()[1]}", flush=True)

    trio.run(run)


async def start_helper(kind: str) -> tuple[trio.Process, int]:
    """One of HELPER_SERVERS in a process of its own, as sarja-server runs: so its
    CPU time is its own, and a round trip crosses the same process boundary."""
    process = await trio.lowlevel.open_process(
        [sys.executable, __file__, "--serve", kind], stdout=subprocess.PIPE
    )
    buffer = b""
    while not (match := re.search(rb"port (\d+)", buffer)):
        chunk = await process.stdout.receive_some(4096)
        if not chunk:
            raise RuntimeError(f"the {kind} server did not start")
        buffer += chunk
    return process, int(match.group(1))


async def fanout_floor(tables: int, seconds: float) -> float:
    """Part 2's load against `fanout_server`, in a process of its own."""
    process, port = await start_helper("fanout")
    play = frame({"t": "play", "id": 1, "version": 1, "card": "7H", "cell": [4, 8]})
    latencies: list[float] = []

    async def seat(t: int) -> list[tuple[trio.SocketStream, list[trio.Event]]]:
        seats = []
        for _ in range(4):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            await stream.send_all(frame(f"table {t}"))
            seats.append((stream, [trio.Event()]))
        return seats

    async def pump(stream: trio.SocketStream, arrived: list[trio.Event]) -> None:
        got = 0
        async for data in stream:
            got += len(data)
            while got >= len(FLOOR_REPLY):
                got -= len(FLOOR_REPLY)
                arrived[0].set()
                arrived[0] = trio.Event()

    async def table_loop(seats, rng: random.Random, until: float) -> None:
        await trio.sleep(rng.random())
        while trio.current_time() < until:
            next_tick = trio.current_time() + 1.0
            stream, arrived = seats[rng.randrange(4)]
            waiting = arrived[0]
            started = time.perf_counter()
            await stream.send_all(play)
            with trio.move_on_after(5):
                await waiting.wait()
            latencies.append(time.perf_counter() - started)
            await trio.sleep_until(next_tick)

    try:
        seated = [await seat(t) for t in range(tables)]
        await trio.sleep(0.5)  # every name frame read before the clock starts
        with no_collector_pauses():
            async with trio.open_nursery() as nursery:
                for seats in seated:
                    for stream, arrived in seats:
                        nursery.start_soon(pump, stream, arrived)
                cpu_before = cpu_seconds(process.pid)
                wall_before = time.perf_counter()
                until = trio.current_time() + seconds
                async with trio.open_nursery() as players:
                    for i, seats in enumerate(seated):
                        players.start_soon(table_loop, seats, random.Random(i), until)
                wall = time.perf_counter() - wall_before
                cpu_after = cpu_seconds(process.pid)
                nursery.cancel_scope.cancel()
    finally:
        await stop(process)
    user, system = (b - a for a, b in zip(cpu_before, cpu_after, strict=True))
    report("Floor: a bare trio fan-out server, the same load, each move answered with a"
           f" {len(FLOOR_REPLY)}-byte frame to each of the 4 seats:", latencies, wall, user,
           system)  # fmt: skip
    return (user + system) / max(len(latencies), 1)


@contextlib.contextmanager
def no_collector_pauses() -> Iterator[None]:
    """The measuring side's own collector pauses are not the server's latency: none
    while measuring (with 2,000 clients' states alive, one took tens of ms)."""
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def report(title: str, latencies: list[float], wall: float, user: float, system: float) -> None:
    moves = len(latencies)
    print(title)
    print(f"  moves per second        {moves / wall:8.1f}")
    print(f"  action latency p50      {percentile(latencies, 0.5) * 1e3:8.2f} ms")
    print(f"  action latency p99      {percentile(latencies, 0.99) * 1e3:8.2f} ms"
          "   (target: under 10 ms)")  # fmt: skip
    per_move = 1e6 / max(moves, 1)
    print(f"  server CPU per move     {(user + system) * per_move:8.0f} µs"
          f"   (user {user * per_move:.0f} + system {system * per_move:.0f};"
          " target: at most 150 µs)")  # fmt: skip


def resident_mib(pid: int) -> float:
    """The process's resident memory, in MiB (from /proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The process's (user, system) CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


async def table_loop(game: list[Client], rng: random.Random, latencies: list, until: float):
    """One move a second at this table, whoever is on turn."""
    await trio.sleep(rng.random())
    while trio.current_time() < until:
        next_tick = trio.current_time() + 1.0
        if game[0].state.outcome is not None:
            for c in game:
                await c.send(Rematch())
        else:
            mover = next((c for c in game if c.state.legal), None)
            if mover is not None:
                version = mover.state.version
                action = mover.next_action(rng)
                started = time.perf_counter()
                await mover.send(action)
                with trio.move_on_after(5):
                    while mover.state.version <= version and not mover.closed:
                        await mover.state_arrived.wait()
                latencies.append(time.perf_counter() - started)
        await trio.sleep_until(next_tick)


async def load(tables: int, seconds: float) -> float:
    process, port = await start_server()
    try:
        setup_started = time.perf_counter()
        seated = await seat_tables(port, tables, 4)
        setup = time.perf_counter() - setup_started
        latencies: list[float] = []
        with no_collector_pauses():
            async with trio.open_nursery() as nursery:
                for game in seated:
                    for c in game:
                        nursery.start_soon(c.pump_forever)
                cpu_before = cpu_seconds(process.pid)
                wall_before = time.perf_counter()
                until = trio.current_time() + seconds
                async with trio.open_nursery() as players:
                    for i, game in enumerate(seated):
                        players.start_soon(table_loop, game, random.Random(i), latencies, until)
                wall = time.perf_counter() - wall_before
                cpu_after = cpu_seconds(process.pid)
                memory = resident_mib(process.pid)
                user, system = (b - a for a, b in zip(cpu_before, cpu_after, strict=True))
                nursery.cancel_scope.cancel()
    finally:
        await stop(process)
    report(f"Load: {tables} tables x 4 clients ({tables * 4} connections, seated in "
           f"{setup:.1f} s), one move a second per table, {wall:.1f} s:", latencies, wall,
           user, system)  # fmt: skip
    print(f"  server memory (resident) {memory:7.0f} MiB")
    return (user + system) / max(len(latencies), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--part", choices=["idle", "load", "both"], default="both")
    parser.add_argument("--serve", choices=sorted(HELPER_SERVERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve_helper(args.serve)
        return
    print(f"Python {sys.version.split()[0]}, trio {trio.__version__}, {os.cpu_count()} CPUs")
    if args.part in ("idle", "both"):
        trio.run(idle_round_trips, args.samples)
    if args.part in ("load", "both"):
        ours = trio.run(load, args.tables, args.seconds)
        floor = trio.run(fanout_floor, args.tables, args.seconds)
        if floor > 0:  # CPU time comes in clock ticks: a very short run may show none
            print(f"  sarja-server CPU per move / floor: {ours / floor:.2f}x;"
                  f" the floor alone is {floor * 1e6 / 150:.2f}x the 150 µs target")  # fmt: skip


if __name__ == "__main__":
    main()
