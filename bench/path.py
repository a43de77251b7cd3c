"""How many of the project's files the server passes through for one step: a move,
and a turn clock running out.

    .venv/bin/python bench/path.py            # five runs, at the server's default pace
    .venv/bin/python bench/path.py --quick    # one run, no pause before the computer's move

A real server (`serve`, on 127.0.0.1 port 0, seeded, its journal in a temporary data
directory) runs in this process; two people sit at a table of two with a turn clock,
dialing in through support/dial.py. Two windows are traced under `sys.setprofile`:

- the move: the first card the game's first player places. The window opens with the
  step of the mover's connection task (`Server.handle`, the reader) that receives the
  request's bytes, and closes once both players have the move's frames and every task
  is blocked again (so the writers' steps that wrote them are in).
- the clock: the other player lets their clock run out (trio's clock is jumped to
  just before it), and the computer plays that turn for them. The window opens with
  the step of the alarm's task (`Alarms._ring`) that the deadline wakes, and closes,
  as the move's, once both players have the stand-in's move and every task is blocked.

Whose code counts: the steps of the server's tasks only, those started under `serve`
(a task's parent nurseries are walked up to the task running `serve`), whatever they
run in the window: the reader and the lobby's step, the journal's commit (made on the
event loop at the default durability), the writers, and the alarms and the computer
the step sets going. The bench's clients run in the same thread, in tasks of their
own, so tracing by thread could not tell them apart; by task their steps are left out
whole. The server's periodic tasks (heartbeat, sweep, the journal's tick and its log's
copying) are kept out: their intervals are made long or jumped past before a window,
and a run in which one of them stepped in a window is done again. Only the event loop's
thread is traced (a `full`-durability commit or a log checkpoint, in a worker thread,
would not count; neither runs in these windows).

Counting. Each profile event in a server task's step gives a location: the repository
path (`server/table.py`, `protocol/codec.py`) of the innermost frame on the stack that
is the project's (server/, protocol/, client/, lang/). Everything else (trio, msgpack,
the standard library) is transparent: `connection.py` calling trio that calls back
into `connection.py` stays in `connection.py`. A call starts a frame (its location); a
return gives control back (the caller's). A coroutine resumed by the scheduler, or
suspending, passes through every frame it awaits in without running their code: those
events are skipped, so a step begins where its code runs. A step's locations, repeats
in a row collapsed, are the files it entered, in order (printed, step by step). Then:

- `*_files`: the distinct files entered in the window;
- `*_returns`: the entries into a file entered before in the window: control came back
  to it after having been in another one (A B A C B: 3 files, 2 returns). Each task
  step starts afresh, so a step that begins in a file already entered is a return
  too, and the count does not depend on the order trio runs the steps in.

Every call into another file and back counts, loops included: encoding a frame per
member, writing each legal action. The game is the same each run (seeded), so the
figures compare code with code. A first run warms up and is not counted: caches that
live as long as the process (the legal actions' notation) hold then what a running
server's hold. Runs differ by a return or two, as the writers or the group commit take
the step's frames in one scheduling round or two; the figures are the least of the runs.

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
MARGIN = 1.0  # seconds between the jump and the clock's deadline
RUNS = 5  # fresh servers in a full run: the figures are the least of theirs
TRIES = 3  # runs a periodic task may spoil before the bench gives up
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

    @property
    def stray(self) -> bool:
        """Whether a periodic task stepped in the window (it is not the step's)."""
        return any(task in UNRELATED for task, _ in self.steps)

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
        await player.until(lambda p=player: p.session.game is not None)
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
                    await player.until(lambda p=player: p.version > version)

            version = other.version
            async with tracing("sarja.server.alarms.Alarms._ring") as clock_trace:
                # The other's clock runs out MARGIN after the jump, or a little later:
                # the periodic tasks the jump wakes step before, while the window waits.
                await settle(clock, began + CLOCK - MARGIN - trio.current_time())
                for player in (other, mover):
                    await player.until(lambda p=player: p.version > version)
            assert other.got("update", stand_in=True), "the computer did not play the turn"

            for player in (aino, bertta):
                await player.aclose()
            nursery.cancel_scope.cancel()
    return move_trace, clock_trace


def run_once(quick: bool) -> tuple[Trace, Trace]:
    """The two windows on a fresh server, again if a periodic task stepped in one
    (a machine so busy that the jump's wake-ups were not over before the deadline)."""
    for _ in range(TRIES):
        # Real time, but the bench may move it on: a turn clock runs out without the wait.
        clock = trio.testing.MockClock(rate=1.0)
        move, ran_out = trio.run(measure, clock, quick, clock=clock)
        if not (move.stray or ran_out.stray):
            return move, ran_out
    raise RuntimeError(f"a periodic task stepped in a window {TRIES} times running")


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
        move, ran_out = run_once(args.quick)
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
