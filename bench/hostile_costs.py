"""Attacks on what requests cost, for bench/hostile.py: each against a `sarja-server`
process of its own, the real game (where there is one) in a process of its own.

    .venv/bin/python bench/hostile_costs.py            # full: a journal of 60,000 games
    .venv/bin/python bench/hostile_costs.py --quick    # scaled down, for the tests

- Standings on a long journal: a journal of 60,000 finished games among 40 people
  (written straight into SQLite through the standings' own row writer), then
  `standings` asked from many addresses, five a connection, each timed from send to
  answer (`standings_ms_60k`: the p99), and a `ping` after each, the floor any round
  trip has on the machine at the time (`ping_ms_p99`). Then a real game's moves timed alone
  (`standings_calm_p99_ms`) and while 16 connections from 16 addresses send
  `standings` and `forget` as fast as they can (`standings_flood_p99_ms`, and the
  ratio `standings_flood_ratio`, at most 3).
- Sync amplification: a real game played to about version 151, then 16 spectators
  from 16 addresses send `sync` as fast as they can; the bytes the server sent them
  for each byte they sent (`sync_bytes_out_per_byte_in`, at most 50), and the size of
  one answer (`sync_reply_bytes`).
- Waiting-room toggles: at a table of four, the creator changes a computer's level
  back and forth and another player toggles `ready`, as fast as they can; the
  `table`s and ready notices a third member receives a second
  (`toggle_notices_per_s`, at most 2).
"""

from __future__ import annotations

import atexit
import json
import math
import os
import random
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from support.dial import dial  # bench/support/
from support.processes import read_port, stop  # bench/support/

from sarja.protocol.client_session import ClientSession, message_of
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import (
    AskStandings,
    ClientMessage,
    CreateTable,
    Forget,
    Hello,
    Join,
    Ping,
    Ready,
    Rematch,
    SeatComputer,
    Spectate,
    Sync,
)

SERVER = str(Path(sys.executable).parent / "sarja-server")
HOST = "127.0.0.1"
STEP = 30.0  # seconds any one step may take before the bench calls it a failure
PLAYER = "127.0.4.1"  # the real game's address; each attack has addresses of its own
TARGETS = {"standings_ms_60k": 5.0, "standings_flood_ratio": 3.0,
           "sync_bytes_out_per_byte_in": 50.0, "toggle_notices_per_s": 2.0}  # fmt: skip


class Client:
    """One connection speaking through the one client session, counting its bytes."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.session = ClientSession()
        self.sent = 0
        self.got = 0
        self.welcome: Any = None

    @classmethod
    async def connect(
        cls, port: int, name: str, source: str | None = None, person: str | None = None
    ) -> Client:
        client = cls(await dial(port, source=source))
        await client.send(Hello(version=PROTOCOL_VERSION, name=name, person=person))
        client.welcome = await client.until("welcome")
        return client

    async def send(self, *msgs: ClientMessage) -> None:
        data = b"".join(self.session.send(m) for m in msgs)
        self.sent += len(data)
        await self.stream.send_all(data)

    async def next(self) -> Any:
        """The next message (pings answered on the way)."""
        while (event := self.session.next_event()) is None:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the server closed the connection")
            self.got += len(data)
            self.session.receive_data(data)
        if replies := self.session.data_to_send():
            await self.stream.send_all(replies)
        return message_of(event)

    async def until(self, *kinds: str) -> Any:
        with trio.fail_after(STEP):
            while (msg := await self.next()).TYPE not in kinds:
                pass
            return msg

    async def aclose(self) -> None:
        with trio.move_on_after(1):
            await self.stream.aclose()


async def flood(
    client: Client, batch: list[Any], until: float, settle: float = 0.0,
    tally: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    """Send `batch` over and over until `until` (time.monotonic), reading everything
    that comes back, and `settle` seconds more; each batch counted in `tally["requests"]`
    as it goes (the flood may be cancelled from outside)."""

    async def read() -> None:
        while True:
            await client.next()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read)
        while time.monotonic() < until:
            await client.send(*batch)
            if tally is not None:
                tally["requests"] += len(batch)
            await trio.sleep(0)
        await trio.sleep(settle)
        nursery.cancel_scope.cancel()


_FOLDERS: list[Path] = []  # made by `start`, removed as the bench ends
atexit.register(lambda: [shutil.rmtree(f, ignore_errors=True) for f in _FOLDERS])


async def start(data_dir: Path | None = None) -> tuple[Any, int]:
    """A server on a journal of `data_dir`'s (None: a fresh one of its own, never the
    data directory of whoever runs the bench)."""
    if data_dir is None:
        data_dir = Path(tempfile.mkdtemp(prefix="sarja-costs-"))
        _FOLDERS.append(data_dir)
    command = [SERVER, "--host", HOST, "--port", "0", "--data-dir", str(data_dir)]
    process = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    port = await read_port(process, timeout=600)  # a long journal is read as it starts
    return process, port


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else math.nan


# ----- the real game ---------------------------------------------------------------------


async def play_pair(
    port: int, until_version: int | None = None, *, task_status: Any = trio.TASK_STATUS_IGNORED
) -> None:
    """Two players at a table of their own, each reading all the time. With
    `until_version` they play to it (or to the game's end) and `task_status` gets the
    pair, still seated and read; without it, they play on for ever, printing each
    move's time from send to ack (`m SECONDS`), rematching at each end."""
    a = await Client.connect(port, "Real A", source=PLAYER)
    b = await Client.connect(port, "Real B", source=PLAYER)
    await a.send(CreateTable(name="Real", players=2, teams=2))
    table = await a.until("table")
    await b.send(Join(table=table.id))
    await b.until("table")
    await a.send(Ready(ready=True))
    await b.send(Ready(ready=True))
    for p in (a, b):
        await p.until("snapshot")
    rng = random.Random(5)
    news = [trio.Event()]
    acks: set[tuple[int, int]] = set()  # (player, action id) answered

    async def read(n: int, p: Client) -> None:
        while True:
            msg = await p.next()
            if msg.TYPE in ("ack", "error") and getattr(msg, "id", None) is not None:
                acks.add((n, msg.id))
            news[0].set()

    async def changed() -> None:
        news[0] = trio.Event()
        with trio.fail_after(STEP):
            await news[0].wait()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read, 0, a)
        nursery.start_soon(read, 1, b)
        while True:
            games = [p.session.game for p in (a, b)]
            if any(g is None for g in games):
                await changed()
                continue
            ga, gb = games
            assert ga is not None and gb is not None
            over = ga.result is not None and gb.result is not None
            if until_version is not None and (over or ga.version >= until_version):
                task_status.started((a, b))
                await trio.sleep_forever()
            if over:
                for p in (a, b):
                    await p.send(Rematch())
                while any(p.session.game is None or p.session.game.result is not None
                          for p in (a, b)):  # fmt: skip
                    await changed()  # until the next game's snapshots
                continue
            top = max(ga.version, gb.version)
            movers = [(n, p) for n, p in enumerate((a, b)) if games[n].legal  # type: ignore[union-attr]
                      and games[n].version == top]  # type: ignore[union-attr]  # fmt: skip
            if not movers:
                await changed()
                continue
            n, p = movers[0]
            msg = p.session.action(rng.choice(games[n].legal))  # type: ignore[union-attr]
            sent = time.perf_counter()
            await p.send(msg)
            while (n, msg.id) not in acks:
                await changed()
            if until_version is None:
                print(f"m {time.perf_counter() - sent:.6f}", flush=True)


class RealGame:
    """The real game in a process of its own, its moves' times read as they come."""

    def __init__(self, process: Any) -> None:
        self.process = process
        self.moves: list[tuple[float, float]] = []  # (when read, seconds)

    @classmethod
    async def start(cls, nursery: trio.Nursery, port: int) -> RealGame:
        process = await trio.lowlevel.open_process(
            [sys.executable, __file__, "--player", str(port)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        game = cls(process)
        nursery.start_soon(game._read)
        return game

    async def _read(self) -> None:
        buffer = b""
        assert self.process.stdout is not None
        while chunk := await self.process.stdout.receive_some(65536):
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if line.startswith(b"m "):
                    self.moves.append((time.monotonic(), float(line.split()[1])))

    def between(self, start: float, end: float) -> list[float]:
        return [s for at, s in self.moves if start <= at < end]

    async def close(self) -> None:
        assert self.process.stdin is not None
        with trio.move_on_after(1):
            await self.process.stdin.aclose()
        await stop(self.process, grace=2)


# ----- standings and forget on a long journal ---------------------------------------------


def fill_journal(path: Path, games: int, people: int) -> None:
    """`games` finished two-player games among `people` people, as the standings keep
    them, written through the journal and the standings' row writer."""
    from sarja.server.journal import Journal
    from sarja.server.rating import NEW
    from sarja.server.standings import Counted, PersonGame, rows_of

    keys = [secrets.token_hex(32) for _ in range(people)]
    journal = Journal(path)
    rng = random.Random(1)
    now = time.time()
    for n in range(games):
        a, b = rng.sample(keys, 2)
        at = now - (games - n) * 30.0  # one every 30 s: the last 12 hours are the evening
        won = rng.random() < 0.5
        lines = [
            Counted(
                PersonGame(
                    k,
                    f"h{n}",
                    1,
                    at,
                    f"P{keys.index(k)}",
                    side,
                    "win" if won == (side == 0) else "loss",
                    1,
                    0,
                    0,
                    40,
                    300.0,
                ),
                None,
                NEW,
            )  # fmt: skip
            for side, k in enumerate((a, b))
        ]
        journal.write(rows_of(lines))
    journal.close()


async def ask_standings(port: int, conns: int, asks: int) -> tuple[list[float], list[float]]:
    """Seconds from `standings` to its answer, `asks` times on each of `conns`
    connections, each from an address of its own (within the per-address limit); and
    from a `ping` to its `pong` on the same connections, in turns with them: the floor
    the machine's load sets for any round trip, in the same run."""
    took, floor = [], []
    for i in range(conns):
        client = await Client.connect(port, f"Asker{i}", source=f"127.0.5.{i % 250 + 1}")
        for n in range(asks):
            began = time.perf_counter()
            await client.send(AskStandings())
            await client.until("standings")
            took.append(time.perf_counter() - began)
            began = time.perf_counter()
            await client.send(Ping(n=n))
            await client.until("pong")
            floor.append(time.perf_counter() - began)
        await client.aclose()
    return took, floor


async def flood_people(port: int, i: int, until: float, tally: dict[str, int]) -> None:
    """`standings` and `forget`, as fast as the connection takes them, from its own
    address, reading everything that comes back."""
    client = await Client.connect(
        port, f"Flood{i}", source=f"127.0.6.{i + 1}", person=secrets.token_urlsafe(32)
    )
    await flood(client, [AskStandings(), Forget()] * 10, until, tally=tally)
    await client.aclose()


async def standings_attack(folder: Path, quick: bool) -> dict[str, Any]:
    games = 3000 if quick else 60_000
    began = time.monotonic()
    await trio.to_thread.run_sync(fill_journal, folder / "journal.sqlite3", games, 40)
    filled = time.monotonic() - began
    began = time.monotonic()
    process, port = await start(folder)
    started = time.monotonic() - began
    phase = 3.0 if quick else 20.0
    try:
        took, floor = await ask_standings(port, 8 if quick else 100, 5)
        tally = {"requests": 0}
        async with trio.open_nursery() as nursery:
            game = await RealGame.start(nursery, port)
            await trio.sleep(1)  # under way
            calm0 = time.monotonic()
            await trio.sleep(phase)
            calm1 = time.monotonic()
            async with trio.open_nursery() as flood:
                for i in range(16):
                    flood.start_soon(flood_people, port, i, calm1 + phase, tally)
            flood1 = time.monotonic()
            await game.close()
            nursery.cancel_scope.cancel()
        calm, under = game.between(calm0, calm1), game.between(calm1, flood1)
    finally:
        await stop(process)
    calm_p99, flood_p99 = percentile(calm, 0.99) * 1e3, percentile(under, 0.99) * 1e3
    return {
        "standings_games": games,
        "standings_journal_fill_s": round(filled, 1),
        "standings_server_start_s": round(started, 1),
        "standings_ms_60k": round(percentile(took, 0.99) * 1e3, 3),
        "standings_ms_median": round(percentile(took, 0.5) * 1e3, 3),
        "ping_ms_p99": round(percentile(floor, 0.99) * 1e3, 3),  # the floor, same run
        "ping_ms_median": round(percentile(floor, 0.5) * 1e3, 3),
        "standings_calm_p99_ms": round(calm_p99, 2),
        "standings_flood_p99_ms": round(flood_p99, 2),
        "standings_flood_ratio": round(flood_p99 / calm_p99, 2),
        "standings_flood_moves": len(under),
        "standings_flood_requests_per_s": round(tally["requests"] / (flood1 - calm1)),
    }


# ----- sync amplification ------------------------------------------------------------------


async def flood_sync(port: int, table: str, i: int, until: float, tally: dict[str, int]) -> None:
    client = await Client.connect(port, f"Syncer{i}", source=f"127.0.7.{i + 1}")
    await client.send(Spectate(table=table))
    await client.until("snapshot")
    sent0, got0 = client.sent, client.got
    await flood(client, [Sync()] * 20, until, settle=0.5)  # (settle: the answers on their way)
    tally["in"] += client.sent - sent0
    tally["out"] += client.got - got0
    await client.aclose()


async def sync_attack(quick: bool) -> dict[str, Any]:
    process, port = await start()
    async with trio.open_nursery() as pair:
        figures = await _sync_attack(pair, port, quick)
        pair.cancel_scope.cancel()
    await stop(process)
    return figures


async def _sync_attack(pair: trio.Nursery, port: int, quick: bool) -> dict[str, Any]:
    a, b = await pair.start(play_pair, port, 40 if quick else 151)
    game, table = a.session.game, a.session.table
    assert game is not None and table is not None
    version = game.version
    probe = await Client.connect(port, "Probe", source="127.0.7.200")
    await probe.send(Spectate(table=table.id))
    await probe.until("snapshot")
    before = probe.got
    await probe.send(Sync())
    await probe.until("snapshot")
    reply = probe.got - before
    tally = {"in": 0, "out": 0}
    until = time.monotonic() + (2.0 if quick else 10.0)
    async with trio.open_nursery() as nursery:
        for i in range(16):
            nursery.start_soon(flood_sync, port, table.id, i, until, tally)
    await probe.aclose()
    return {
        "sync_version": version,
        "sync_reply_bytes": reply,
        "sync_bytes_in": tally["in"],
        "sync_bytes_out": tally["out"],
        "sync_bytes_out_per_byte_in": round(tally["out"] / max(1, tally["in"]), 2),
    }


# ----- the waiting room's toggles ----------------------------------------------------------


async def toggle_attack(quick: bool) -> dict[str, Any]:
    process, port = await start()
    seconds = 3.0 if quick else 20.0
    try:
        aino = await Client.connect(port, "Aino", source="127.0.8.1")
        await aino.send(CreateTable(name="Toggles", players=4, teams=2))
        table = await aino.until("table")
        watcher = await Client.connect(port, "Watcher", source="127.0.8.2")
        toggler = await Client.connect(port, "Toggler", source="127.0.8.3")
        for client, seat in ((watcher, 1), (toggler, 2)):
            await client.send(Join(table=table.id, seat=seat))
            await client.until("table")
        await aino.send(SeatComputer(seat=3, level="easy"))
        await trio.sleep(1)
        seen = {"table": 0, "notice": 0, "sent": 0}

        async def watch() -> None:
            while True:
                msg = await watcher.next()
                if msg.TYPE == "table":
                    seen["table"] += 1
                elif msg.TYPE == "notice" and msg.kind in ("ready", "unready"):
                    seen["notice"] += 1

        async def drain(client: Client) -> None:
            while True:
                await client.next()

        until = time.monotonic() + seconds
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
            nursery.start_soon(drain, aino)
            nursery.start_soon(drain, toggler)
            began = time.monotonic()
            i = 0
            while time.monotonic() < until:
                i += 1
                level = "hard" if i % 2 else "easy"
                await aino.send(*[SeatComputer(seat=3, level=level)] * 2)
                await toggler.send(Ready(ready=True), Ready(ready=False))
                seen["sent"] += 4
                await trio.sleep(0.001)
            await trio.sleep(1)  # what was waiting is told
            took = time.monotonic() - began
            nursery.cancel_scope.cancel()
        for client in (aino, watcher, toggler):
            await client.aclose()
    finally:
        await stop(process)
    return {
        "toggles_sent_per_s": round(seen["sent"] / seconds),
        "toggle_tables_per_s": round(seen["table"] / took, 2),
        "toggle_ready_notices_per_s": round(seen["notice"] / took, 2),
        "toggle_notices_per_s": round((seen["table"] + seen["notice"]) / took, 2),
    }


async def cost_attacks(quick: bool) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="sarja-costs-") as folder:
        figures |= await standings_attack(Path(folder), quick)
    figures |= await sync_attack(quick)
    figures |= await toggle_attack(quick)
    return figures


def report(figures: dict[str, Any]) -> None:
    for name, most in TARGETS.items():
        value = figures[name]
        print(f"  {name}: {value}, target at most {most:g}: {'met' if value <= most else 'MISSED'}")


def main() -> None:
    if "--player" in sys.argv:
        port = int(sys.argv[sys.argv.index("--player") + 1])

        async def player() -> None:
            async with trio.open_nursery() as nursery:
                stdin = trio.lowlevel.FdStream(os.dup(0))

                async def until_stdin_closes() -> None:
                    while await stdin.receive_some(1024):
                        pass
                    nursery.cancel_scope.cancel()

                nursery.start_soon(until_stdin_closes)
                await play_pair(port)

        trio.run(player)
        return
    figures = trio.run(cost_attacks, "--quick" in sys.argv)
    report(figures)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
