"""The budget for computer thinking, at a real server on 127.0.0.1:
one address keeps only a few tables where computers play; hard's searches run in a
bounded number of workers, processes of their own, and a hard seat that finds none
free plays at medium; a table's computer task ends with the table (`stop`)."""

from __future__ import annotations

import multiprocessing
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import trio

from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import CreateTable, Hello, Leave, Ready
from sarja.server.app import serve
from sarja.server.engine import Action
from sarja.server.engine.view import SeatView

from .dial import dial
from .netclient import NetClient
from .test_server_computers import fast, notices, over, play_until


async def connect(port: int, name: str, source: str = "127.0.0.1") -> NetClient:
    """A greeted client whose connection comes from `source` (all of 127/8 is this
    machine, so each address looks like another one)."""
    stream = await dial(port, source=source)
    client = NetClient(stream, name)
    await client.send(Hello(version=PROTOCOL_VERSION, name=name))
    client.welcome = await client.expect("welcome")
    return client


async def computer_table(client: NetClient, start: bool = True, level: str = "hard") -> Any:
    """`client` makes a two-seat table with a computer seat (and starts its game); the
    `table` it is sent."""
    await client.send(CreateTable(name="Bots", players=2, teams=2, computers=(None, level)))
    reply = await client.expect("table")
    if start:
        await client.send(Ready(ready=True))
        await client.expect("snapshot")
    return reply


async def refused(client: NetClient) -> Any:
    await client.send(CreateTable(name="More", players=2, teams=2, computers=(None, "hard")))
    return await client.expect("error")


async def test_one_address_keeps_only_a_few_tables_where_computers_play(nursery):
    """Throwaway connections from one address cannot start any number of tables that
    computers play on alone: the third is refused; other addresses, and tables of
    people only, are not held back."""
    config = fast(computer_tables_per_address=2, takeover_delay=30)  # no move meanwhile
    server = await nursery.start(serve, config)
    for i in range(2):
        guest = await connect(server.port, f"Throwaway{i}")
        await guest.send(
            CreateTable(name="Alone", players=12, teams=3, computers=(None,) + ("hard",) * 11,
                        computer_takeover="hard")
        )  # fmt: skip
        await guest.expect("table")
        await guest.send(Ready(ready=True))
        await guest.expect("snapshot")
        await guest.aclose()  # the computers play on alone
    third = await connect(server.port, "Throwaway2")
    error = await refused(third)
    assert error.code == "too_many_computer_tables" and "2 open tables" in error.message
    await third.send(CreateTable(name="Stand-in", players=2, teams=2, computer_takeover="hard"))
    assert (await third.expect("error")).code == "too_many_computer_tables"
    await third.send(CreateTable(name="People", players=2, teams=2))
    assert (await third.expect("table")).seats[1].computer is None
    elsewhere = await connect(server.port, "Elsewhere", source="127.0.0.2")
    assert (await computer_table(elsewhere)).TYPE == "table"


async def test_a_closed_finished_or_parked_table_frees_its_place(nursery):
    server = await nursery.start(serve, fast(computer_tables_per_address=1))
    lobby = server.lobby
    probe = await connect(server.port, "Probe")  # the same address, from the lobby
    aino = await connect(server.port, "Aino")
    # Closed: its only person leaves before the game.
    await computer_table(aino, start=False)
    assert (await refused(probe)).code == "too_many_computer_tables"
    await aino.send(Leave())
    await aino.expect("tables")
    # Finished: its game is over.
    await computer_table(aino, level="medium")
    assert (await refused(probe)).code == "too_many_computer_tables"
    await play_until(aino, random.Random(1), over)
    await computer_table(probe, start=False)  # while Aino is still at the finished table
    for client in (probe, aino):
        await client.send(Leave())
        await client.expect("tables")
    # Parked: every player left its game a while ago (a medium seat waits on Aino).
    await computer_table(aino, level="medium")
    await aino.aclose()
    assert (await refused(probe)).code == "too_many_computer_tables"
    [table] = lobby.tables.values()
    with trio.fail_after(10):
        while table.computer_turn(trio.current_time()) is not None or not table.left_by_all:
            await trio.sleep(0.01)  # the server sees Aino go; her turn comes
    lobby.sweep(0.0)
    lobby.sweep(lobby.config.abandon_after + 1)
    assert not lobby.tables
    assert (await computer_table(probe)).TYPE == "table"


class Held:
    """A stand-in search, run in a worker thread, that holds its worker until the test
    lets it go, and then plays the last legal action."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.go = threading.Event()
        self.calls = 0

    def __call__(self, level: str, seed: int, think_time: float | None, view: SeatView) -> Action:
        self.calls += 1
        self.started.set()
        self.go.wait(60)
        return view.legal[-1]


async def test_a_hard_seat_plays_medium_when_no_worker_is_free(nursery):
    """One worker, taken by a search that does not end: a hard seat at another table
    cannot get it within its budget and plays medium's choice, starting no search;
    once the worker is free, hard searches again."""
    config = fast(search_workers=1, search_processes=False, computer_budget=0.5)
    server = await nursery.start(serve, config)
    computers = server.computers
    held = computers.search = Held()
    aino = await connect(server.port, "Aino")
    await computer_table(aino)
    await play_until(aino, random.Random(1), lambda c: bool(notices(c, "thinking")))
    assert await trio.to_thread.run_sync(held.started.wait, 30)
    assert computers.free_workers == 0
    bertil = await connect(server.port, "Bertil")
    await computer_table(bertil)
    await play_until(bertil, random.Random(2), lambda c: computers.crowded >= 2)
    assert held.calls == 1 and computers.searches == 1
    assert len(notices(bertil, "thinking")) >= 2  # and its seat moved regardless
    held.go.set()
    # (`searches` counts a search handed to the pool; the worker calls it a moment later.)
    await play_until(bertil, random.Random(3), lambda c: held.calls >= 2)
    assert computers.searches >= held.calls >= 2


async def test_hard_searches_in_a_worker_process_not_in_the_servers(nursery):
    """A search holds the GIL of the process it runs in: not the event loop's."""
    before = {p.pid for p in multiprocessing.active_children()}
    async with trio.open_nursery() as inner:
        server = await inner.start(serve, fast(search_workers=1))
        computers = server.computers
        aino = await connect(server.port, "Aino")
        await computer_table(aino)
        await play_until(aino, random.Random(4), lambda c: computers.moves >= 2)
        workers = [p for p in multiprocessing.active_children() if p.pid not in before]
        assert len(workers) == 1  # one worker, however many searches
        inner.cancel_scope.cancel()
    with trio.fail_after(10):
        while workers[0].is_alive():  # stopped with the server
            await trio.sleep(0.05)


async def test_a_search_worker_killed_is_replaced(nursery):
    """A worker that dies (the host's OOM killer, say) costs one move at medium: the
    next searches get a new worker."""
    before = {p.pid for p in multiprocessing.active_children()}
    server = await nursery.start(serve, fast(search_workers=1, think_time=5.0))
    computers = server.computers
    aino = await connect(server.port, "Aino")
    await computer_table(aino)
    rng = random.Random(6)
    await play_until(aino, rng, lambda c: bool(notices(c, "thinking")))
    with trio.fail_after(30):
        while not (first := [p for p in multiprocessing.active_children() if p.pid not in before]):
            await trio.sleep(0.01)
    first[0].kill()  # mid-search, or idle: either way its pool breaks
    computers.think_time = 0.02
    await play_until(aino, rng, lambda c: computers.moves >= 4 and computers.searches >= 3)
    now = [p for p in multiprocessing.active_children() if p.pid not in before]
    assert now and first[0] not in now


async def test_stop_ends_a_tables_computer_task_before_its_move(nursery):
    """The lobby stops the computer at a table it parks or closes: a search under way
    is abandoned and its answer never played; the table can be woken afresh."""
    config = fast(search_workers=1, search_processes=False, computer_budget=60)
    server = await nursery.start(serve, config)
    computers = server.computers
    held = computers.search = Held()
    aino = await connect(server.port, "Aino")
    reply = await computer_table(aino)
    table = server.lobby.tables[reply.id]
    await play_until(aino, random.Random(5), lambda c: bool(notices(c, "thinking")))
    assert await trio.to_thread.run_sync(held.started.wait, 30)
    assert computers.playing(table)
    assert table.game is not None
    made = len(table.game.history)
    computers.stop(table)
    assert not computers.playing(table)
    held.go.set()  # the abandoned search answers now: legal[-1]
    with trio.fail_after(10):
        while computers.free_workers == 0:
            await trio.sleep(0.01)
    firsts: list[Action] = []

    def first(level: str, seed: int, think_time: float | None, view: SeatView) -> Action:
        firsts.append(view.legal[0])
        return view.legal[0]

    computers.search = first
    computers.wake(table)
    with trio.fail_after(10):
        while computers.moves == 0:
            await trio.sleep(0.01)
    assert len(table.game.history) == made + 1
    assert firsts and table.game.history[-1][1] == firsts[-1]  # the fresh task's move


def workers_of(pid: int) -> list[int]:
    """The search workers among a process's children (Linux)."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(k) for k in kids if b"spawn_main" in _cmdline(int(k))]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def ended(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except OSError:
        return True


async def test_search_workers_end_with_a_server_killed_outright():
    """`kill -9` of the real server: its search workers, which nothing else would stop,
    end by themselves instead of computing on for ever."""
    command = [sys.executable, "-c", "from sarja.server.cli import main; main()",
               "--host", "127.0.0.1", "--port", "0", "--ephemeral",
               "--hand-over-after", "0"]  # fmt: skip
    process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        printed = b""
        with trio.fail_after(30):
            while b"port " not in printed or not printed.split(b"port ")[1].split(b".")[0]:
                printed += await process.stdout.receive_some(4096)
        port = int(printed.split(b"port ")[1].split(b".")[0])
        aino = await connect(port, "Aino")
        await aino.send(
            CreateTable(name="Alone", players=4, teams=2, computers=(None, "hard", "hard", "hard"),
                        computer_takeover="hard")
        )  # fmt: skip
        await aino.expect("table")
        await aino.send(Ready(ready=True))
        await aino.expect("snapshot")
        await aino.aclose()  # hard computers play every seat now (no stand-in grace here)
        with trio.fail_after(60):
            while not (workers := workers_of(process.pid)):
                await trio.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        await process.wait()
    with trio.fail_after(60):
        while not all(ended(pid) for pid in workers):
            await trio.sleep(0.05)
