"""How many of the project's files the server passes through for one step: a move,
and a turn clock running out.

    .venv/bin/python bench/path.py            # the server at its default pace
    .venv/bin/python bench/path.py --quick    # the computer's pause left out

A real server (`serve`, on 127.0.0.1 port 0, with a journal in a temporary data
directory) runs in this process, with two people at a table of two with a turn clock,
dialing in through support/dial.py. Measured, each under `sys.setprofile`:

- the move: the first card played in the game. The window opens with the step of the
  mover's connection task (`Server.handle`, the reader) that receives the request's
  bytes, and closes once both players have the move's frames and every task is blocked
  again (so the writers' steps that wrote them are in).
- the clock: the next player lets their clock run out (the trio clock is jumped to
  just before it), and the computer plays that turn for them. The window opens with
  the step of the alarm's task (`Alarms._ring`) that the deadline wakes, and closes,
  as the move's, once both players have the stand-in's move and every task is blocked.

Counted within a window: the steps of the server's tasks only, those started under
`serve` (found by walking a task's parent nurseries up to the task running `serve`),
whatever they run for the step: the lobby and table, the journal's commit (made on the
event loop at the default durability), the writers, the alarms and the computer the
step sets. The bench's clients run in the same thread but in tasks of their own, so
their steps are left out whole; tracing by thread could not tell them apart. The
server's periodic tasks (the heartbeat, the sweep, the journal's tick and its log's
copying) are kept out of the windows: their intervals are long or jumped past first,
and a window one of them stepped in is refused rather than counted. Only the event
loop's thread is traced: a `full`-durability commit or a log checkpoint runs in a
worker thread and would not be counted (neither runs in these windows).

Counting. Each profile event of a server task gives a location: the repository path
(`server/table.py`, `protocol/codec.py`) of the innermost frame on the stack that is a
file of this project (server/, protocol/, client/, lang/); trio, msgpack and the
standard library are transparent, so `connection.py` calling trio which calls back into
`connection.py` stays in `connection.py`. A call starts a frame (location: the new
frame's); a return gives control back (location: the caller's). A coroutine resumed
by the scheduler, or suspending, passes through every frame it awaits in without
running their code: those events are skipped, and a task's step begins where its code
actually runs. The locations in order, with repeats in a row collapsed, are the files
entered (printed in order). Then:

- `*_files`: how many distinct files were entered;
- `*_returns`: how many entries were into a file already entered earlier in the window
  (control came back to it after having been in another one): the entries less the
  files. So A B A C B has 3 files and 2 returns.

The last line printed is one JSON object: `move_files`, `move_returns`, `clock_files`,
`clock_returns`.
"""

from __future__ import annotations

import argparse
import dis
import json
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import trio
import trio.testing
from support.dial import dial  # bench/support/

import sarja.server
from sarja.protocol import notation
from sarja.protocol.client_session import ClientSession, message_of
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import CreateTable, Hello, Join, Ready
from sarja.server.app import Server, serve
from sarja.server.config import ServerConfig

ROOT = Path(sarja.server.__file__).resolve().parent.parent
PACKAGES = ("server", "protocol", "client", "lang")
CLOCK = 30  # the table's turn clock, seconds
LONG = 10**6  # seconds: the periodic tasks' intervals, out of every window's way
PERIODIC = 5.0  # seconds: the journal's tick and its log's copying (journal_wal.py)
MARGIN = 0.5  # seconds between the jump and the clock's deadline
RUNS = 5  # fresh servers in a full run: the figures are the least of theirs
STEP = 30.0  # seconds any one wait may take before the bench gives up
# Tasks that run on their own time, never for a step.
UNRELATED = {
    "sarja.server.app.Server.heartbeat",
    "sarja.server.app.Server.sweeper",
    "sarja.server.journal.Journal._tick",
    "sarja.server.journal_wal.WalKeeper.run",
}
_RESUME = dis.opmap["RESUME"]
_YIELD = dis.opmap["YIELD_VALUE"]


# ----- counting ----------------------------------------------------------------------


def entered(locations: Iterable[str]) -> list[str]:
    """The files one task step entered, in order: its locations, repeats in a row
    collapsed."""
    files: list[str] = []
    for where in locations:
        if not files or files[-1] != where:
            files.append(where)
    return files


def count(steps: Iterable[Iterable[str]]) -> tuple[int, int]:
    """(files, returns) of a window's task steps, each its locations in order: the
    distinct files entered, and the entries into a file entered before (see the
    module's docstring)."""
    seen: set[str] = set()
    returns = 0
    for step in steps:
        for where in entered(step):
            returns += where in seen
            seen.add(where)
    return len(seen), returns


def resumed(frame: FrameType) -> bool:
    """A "call" event that resumes a suspended coroutine or generator (its RESUME has a
    nonzero argument; a fresh call's is 0)."""
    code, at = frame.f_code.co_code, frame.f_lasti
    return at >= 0 and code[at] == _RESUME and code[at + 1] != 0


def yielding(frame: FrameType) -> bool:
    """A "return" event that suspends the frame instead of ending it."""
    at = frame.f_lasti
    return at >= 0 and frame.f_code.co_code[at] == _YIELD


# ----- tracing -----------------------------------------------------------------------


class Trace(trio.abc.Instrument):
    """Records the locations of the server's tasks from the step of the task named
    `opens_with` on, until `closed`."""

    def __init__(self, opens_with: str) -> None:
        self.opens_with = opens_with
        self.open = False
        self.closed = False
        self.steps: list[tuple[str, list[str]]] = []  # (task, its step's locations)
        self._on = False  # a server task's step in the window is running
        self._ours: dict[trio.lowlevel.Task, bool] = {}
        self._files: dict[str, str | None] = {}

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._on = False
        if self.closed or not self._of_server(task):
            return
        if not self.open:
            if task.name != self.opens_with:
                return
            self.open = True
        self._on = True
        self.steps.append((task.name, []))

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        self._on = False

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self._on:
            return
        if event == "call":
            if resumed(frame):
                return
            here: FrameType | None = frame
        elif event == "return":
            if yielding(frame):
                return
            here = frame.f_back
        else:
            return  # C functions are no file's
        while here is not None:
            where = self._file(here.f_code.co_filename)
            if where is not None:
                locations = self.steps[-1][1]
                if not locations or locations[-1] != where:
                    locations.append(where)
                return
            here = here.f_back

    def _file(self, name: str) -> str | None:
        """The repository path of a file of this project, else None."""
        try:
            return self._files[name]
        except KeyError:
            pass
        try:
            path = Path(name).resolve().relative_to(ROOT)
        except ValueError:
            path = None
        where = path.as_posix() if path is not None and path.parts[0] in PACKAGES else None
        self._files[name] = where
        return where

    def _of_server(self, task: trio.lowlevel.Task) -> bool:
        ours = self._ours.get(task)
        if ours is None:
            ours = False
            up: trio.lowlevel.Task | None = task
            while up is not None and not ours:
                ours = getattr(up.coro, "cr_code", None) is serve.__code__
                parent = up.parent_nursery
                up = None if parent is None else parent.parent_task
            self._ours[task] = ours
        return ours


@asynccontextmanager
async def tracing(opens_with: str) -> AsyncIterator[Trace]:
    trace = Trace(opens_with)
    trio.lowlevel.add_instrument(trace)
    sys.setprofile(trace.profile)
    try:
        yield trace
        # Every task blocked: the server's writers have written all they had.
        await trio.testing.wait_all_tasks_blocked()
    finally:
        sys.setprofile(None)
        trace.closed = True
        trio.lowlevel.remove_instrument(trace)
    if not trace.open:
        raise RuntimeError(f"{opens_with} never stepped in the window")
    stray = UNRELATED.intersection(task for task, _ in trace.steps)
    if stray:
        raise RuntimeError(f"a periodic task stepped in the window: {sorted(stray)}")


# ----- the players -------------------------------------------------------------------


class Player:
    """One connection, through the one client session."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.session = ClientSession()
        self.received: list[Any] = []

    @classmethod
    async def connect(cls, port: int, name: str) -> Player:
        player = cls(await dial(port))
        await player.send(Hello(version=PROTOCOL_VERSION, name=name))
        await player.until(lambda: player.session.welcome is not None)
        return player

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.session.send(msg))

    async def until(self, done: Callable[[], bool]) -> None:
        """Read (pings answered on the way) until `done()`."""
        with trio.fail_after(STEP):
            while not done():
                event = self.session.next_event()
                if event is None:
                    data = await self.stream.receive_some(65536)
                    if not data:
                        raise EOFError("the server closed the connection")
                    self.session.receive_data(data)
                    continue
                self.received.append(message_of(event))
                if replies := self.session.data_to_send():
                    await self.stream.send_all(replies)

    def got(self, kind: str, **fields: Any) -> bool:
        return any(
            m.TYPE == kind and all(getattr(m, k) == v for k, v in fields.items())
            for m in self.received
        )

    @property
    def version(self) -> int:
        game = self.session.game
        return -1 if game is None else game.version

    @property
    def legal(self) -> tuple[str, ...]:
        game = self.session.game
        return () if game is None else game.legal

    def on_turn(self) -> bool:
        game, table = self.session.game, self.session.table
        return game is not None and table is not None and game.turn == table.seat

    async def aclose(self) -> None:
        await self.stream.aclose()


async def settle(clock: trio.testing.MockClock, jump: float) -> None:
    """Move the clock on by `jump` (past the periodic tasks' next wake, at least) and
    let everything that wakes do its work, threads included, before a window."""
    clock.jump(jump)
    await trio.testing.wait_all_tasks_blocked()
    await trio.sleep(0.2)
    await trio.testing.wait_all_tasks_blocked()


async def seat_two(server: Server) -> tuple[Player, Player]:
    """Two people at a table of two with a turn clock, the game begun."""
    aino = await Player.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Path", players=2, teams=2, turn_clock=CLOCK))
    await aino.until(lambda: aino.session.table is not None)
    table = aino.session.table
    assert table is not None
    bertta = await Player.connect(server.port, "Bertta")
    await bertta.send(Join(table=table.id))
    await bertta.until(lambda: bertta.session.table is not None)
    for player in (aino, bertta):
        await player.send(Ready(ready=True))
    for player in (aino, bertta):
        await player.until(lambda p=player: p.session.game is not None)  # type: ignore[misc]
    return aino, bertta


def figures(trace: Trace) -> tuple[int, int]:
    """The window's (files, returns)."""
    return count(locations for _, locations in trace.steps)


def listing(name: str, trace: Trace) -> None:
    """Print the files a window entered, step by step."""
    files, returns = figures(trace)
    print(f"{name}: {files} files, {returns} returns")
    seen: set[str] = set()
    n = 0
    for task, locations in trace.steps:
        if not locations:
            continue  # a step that ran no code of the project (trio's own)
        print(f"  {task.removeprefix('sarja.server.')}:")
        for where in entered(locations):
            n += 1
            print(f"    {n:3} {where}{'  (again)' if where in seen else ''}")
            seen.add(where)


async def measure(clock: trio.testing.MockClock, quick: bool) -> tuple[Trace, Trace]:
    """The move's window and the clock's, on a fresh server."""
    with tempfile.TemporaryDirectory(prefix="sarja-path-") as folder:
        config = ServerConfig(
            host="127.0.0.1", port=0, data_dir=Path(folder), seed=1,
            ping_interval=LONG, idle_timeout=LONG, frame_timeout=LONG, send_timeout=LONG,
            sweep_every=LONG, search_workers=1, search_processes=False,
            takeover_delay=0.0 if quick else ServerConfig.takeover_delay,
        )  # fmt: skip
        async with trio.open_nursery() as nursery:
            server: Server = await nursery.start(serve, config)
            aino, bertta = await seat_two(server)
            mover, other = (aino, bertta) if aino.on_turn() else (bertta, aino)
            await mover.until(lambda: bool(mover.legal))
            card = next(a for a in mover.legal if notation.parse(a).kind == "place")
            move = mover.session.action(card)
            version = mover.version

            await settle(clock, PERIODIC)
            began = trio.current_time()  # the next turn's clock starts after this
            async with tracing("sarja.server.app.Server.handle") as move_trace:
                await mover.send(move)
                await mover.until(lambda: mover.got("ack", id=move.id))
                for player in (mover, other):
                    await player.until(lambda p=player: p.version > version)  # type: ignore[misc]

            # The other's clock runs out MARGIN after the jump, or a little later.
            version = other.version
            await settle(clock, began + CLOCK - MARGIN - trio.current_time())
            async with tracing("sarja.server.alarms.Alarms._ring") as clock_trace:
                for player in (other, mover):
                    await player.until(lambda p=player: p.version > version)  # type: ignore[misc]
            assert other.got("update", stand_in=True), "the computer did not play the turn"

            for player in (aino, bertta):
                await player.aclose()
            nursery.cancel_scope.cancel()
    return move_trace, clock_trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="one run, no pause before the computer's move"
    )
    args = parser.parse_args()
    runs: list[tuple[int, int, int, int]] = []
    # Run 0 warms up: the server's caches that live as long as the process (the
    # notation of every legal action, written once) hold what a running server's do.
    for n in range(1 + (1 if args.quick else RUNS)):
        # Real time, but the bench may move it on: a turn clock runs out without the wait.
        clock = trio.testing.MockClock(rate=1.0)
        move, ran_out = trio.run(measure, clock, args.quick, clock=clock)
        if n == 0:
            continue
        if n == 1:
            listing("move", move)
            listing("clock", ran_out)
        runs.append((*figures(move), *figures(ran_out)))
        print(f"run {n}: move {runs[-1][:2]}, clock {runs[-1][2:]} (files, returns)")
    least = [min(column) for column in zip(*runs, strict=True)]
    keys = ("move_files", "move_returns", "clock_files", "clock_returns")
    print(json.dumps(dict(zip(keys, least, strict=True))))


if __name__ == "__main__":
    main()
