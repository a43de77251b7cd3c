"""The computer players at the server's tables: who moves, when, and off the event loop.

A table says which of its seats the computer plays (a computer seat, a seat handed to
the computer while its player is away, or any away seat when the table lets a computer
stand in) and, when one of them has something to do, wakes `Computers`. One task per
table, in a cancel scope of its own (`stop` ends it with the table), then plays those
moves one at a time, so people can follow them:

1. it takes the seat's view (`seat_view`: the seat's own hand and public facts only,
   an immutable value) and tells the table's members the computer is thinking;
2. easy and medium choose at once, on the event loop (well under a millisecond);
   hard searches in a worker, a process of its own (workers.py), so its pure-Python
   search never holds the server's GIL (in a thread it did, and people's games
   slowed to a crawl: docs/bots.md has the figures). A pause (`takeover_delay`) runs
   at the same time, so a move comes no sooner than people can follow;
3. the move is applied only if the game has not moved on meanwhile (someone came back
   to the seat, a waiting draw was taken): otherwise it starts again from 1.

A table asks for its computer with a "computer" timer among its effects (effects.py):
at once when it has a move to make, or when a grace runs out (an away person's, or a
waiting draw's: graces.py). `wake` starts the table's task, or moves the time its task
sleeps until; the task sleeps until then, looks again, and ends when there is nothing
to wait for. What the task's calls change at a table is carried out by `carry`.

The server has `search_workers` workers in all, shared by every table and every hint,
each free one going to whoever waits and was served longest ago (slots.py): a hard seat
waits for one at most part of its budget, and plays medium's choice when none is free,
so however many computers play, searches take at most that much of the machine. A
computer never keeps a table waiting longer than `computer_budget` seconds: a search
that has not answered by then is abandoned (it keeps its worker until it ends, within
its think time) and medium's choice is played instead.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)

import trio

from . import workers as worker
from .bots import DEFAULT_THINK_TIME, make_player
from .engine import Action
from .engine.view import SeatView
from .slots import FairSlots
from .turns import Playing, Turn

log = logging.getLogger("sarja.server")


class Computers:
    """Plays the computer's moves at every table of one server (see the module's
    docstring). `run` must be running in the server's nursery for moves to happen;
    tables woken before it starts are played once it does."""

    def __init__(
        self,
        pause: float,
        budget: float,
        think_time: float | None = None,
        seed: int | None = None,
        *,
        workers: int = 1,
        processes: bool = True,
        carry: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = trio.current_time,
    ) -> None:
        self.pause = pause
        self.carry = carry  # carries out what a table's step left (app.py)
        self.clock = clock  # the tables' clock (trio's, in the server)
        self.budget = budget
        self.think_time = think_time
        # Reproducible choices with a seed (tests); different ones every run otherwise.
        self._seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
        self._nursery: trio.Nursery | None = None
        self._due: list[tuple[Playing, trio.CancelScope]] = []  # woken before `run` started
        self._tasks: dict[Playing, trio.CancelScope] = {}  # each table's task, while it runs
        self._waiting: dict[Playing, trio.CancelScope] = {}  # tables sleeping out a grace
        self._wake_at: dict[Playing, float] = {}  # when each task is to look again
        self.workers = max(1, workers)
        self.processes = processes  # False: the workers are threads (tests, measurements)
        self._slots = FairSlots(self.workers)  # whoever was served longest ago first
        self._pool: Executor | None = None
        # What a worker runs; picklable for processes. Tests put a stand-in here.
        self.search: Callable[[str, int, float | None, SeatView], Action] = worker.choose
        self.stopped = False
        self.moves = 0  # moves made, for tests and the bench
        self.late = 0  # moves the budget cut short (medium's choice played instead)
        self.crowded = 0  # hard moves played at medium: no worker was free in time
        self.searches = 0  # searches handed to a worker

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                due, self._due = self._due, []
                for table, scope in due:
                    nursery.start_soon(self._play, table, scope)
                task_status.started()
                await trio.sleep_forever()
        finally:
            self._nursery = None
            self.stopped = True  # the server is stopping: no more moves
            self._close_pool()

    def wake(self, table: Playing, at: float | None = None) -> None:
        """The computer may have a move to make at `table` at `at` (None: now)."""
        if self.stopped:
            return
        self._wake_at[table] = self.clock() if at is None else at
        if table in self._tasks:
            waiting = self._waiting.get(table)
            if waiting is not None:
                waiting.cancel()  # something changed: look again
            return  # its task looks again after each move
        scope = self._tasks[table] = trio.CancelScope()
        if self._nursery is None:
            self._due.append((table, scope))
        else:
            self._nursery.start_soon(self._play, table, scope)

    def stop(self, table: Playing) -> None:
        """Cancel the computer's task at `table`, if it has one, and forget it: it makes
        no move there after this returns (a search under way is abandoned). For a table
        the lobby parks or closes; a later `wake` starts afresh."""
        scope = self._tasks.pop(table, None)
        self._wake_at.pop(table, None)
        if scope is not None:
            scope.cancel()
        self._due = [(t, s) for t, s in self._due if t is not table]

    @property
    def free_workers(self) -> int:
        """Search workers idle now."""
        return self._slots.free

    def playing(self, table: Playing) -> bool:
        """Whether the computer has a task at `table` now."""
        return table in self._tasks

    async def _play(self, table: Playing, scope: trio.CancelScope) -> None:
        try:
            with scope:
                while not scope.cancel_called and await self._wait(table):
                    turn = table.computer_turn(self.clock())
                    if turn is None:
                        continue  # a grace ran out, or the table changed: look again
                    table.computer_thinking(turn.seat)
                    self.carry()
                    started = trio.current_time()
                    action = await self._choose(turn, ("table", table.id))
                    pause = self.pause if turn.pause is None else max(self.pause, turn.pause)
                    await self._pause(table, turn, started + pause)
                    if _cancelled(scope):
                        break  # stopped just as this task was about to go on
                    self._wake_at[table] = self.clock()  # look again right after it
                    if table.computer_move(turn, action, self.clock()):
                        self.moves += 1
                    self.carry()
        except Exception:
            log.exception("the computer player at table %s failed", table.id)
        finally:
            if self._tasks.get(table) is scope:
                del self._tasks[table]
                self._wake_at.pop(table, None)

    async def _wait(self, table: Playing) -> bool:
        """Sleep until the table's timer (moved whenever the table sets it again), or,
        with none set, until the grace the table says is running runs out; False if
        there is nothing to wait for."""
        while True:
            at = self._wake_at.pop(table, None)
            if at is None:
                at = table.computer_due(self.clock()) if table.live else None
                if at is None:
                    return False
            delay = at - self.clock()  # on the tables' clock; the task sleeps on trio's
            if delay <= 0:
                return True
            with trio.move_on_after(delay):
                await self._until_woken(table)
                continue  # woken before the time: the table set its timer again
            return True  # the time came

    async def advise(self, view: SeatView, address: str) -> Action:
        """Hard's choice for a person's hint (hints.py), made as a hard seat's move is:
        in a shared worker, within the budget, medium's if no worker is free in time;
        `address`, the asker's, waits its turn for a worker as a table does."""
        turn = Turn(view.seat or 0, "hard", view, None, view.version)
        return await self._choose(turn, ("hints", address))

    async def _pause(self, table: Playing, turn: Turn, until: float) -> None:
        """The pause before a move, cut short only if the game moves on meanwhile (a
        person took their seat back by playing): the task then looks again at once."""
        game = turn.game
        assert game is not None  # a table's turn, not a hint's
        with trio.move_on_at(until):
            while len(game.history) == turn.moves:
                await self._until_woken(table)

    async def _until_woken(self, table: Playing) -> None:
        """Sleep until the table sets its timer again (`_waiting`'s scope is cancelled)."""
        woken = self._waiting[table] = trio.CancelScope()
        try:
            with woken:
                await trio.sleep_forever()
        finally:
            del self._waiting[table]

    async def _choose(self, turn: Turn, owner: object) -> Action:
        """The level's choice: easy's and medium's at once; hard's from a worker within
        the budget, or medium's if no worker is free in time or the search is late.
        Workers go to whoever (`owner`: a table's id, an address's hints) waits and
        was served longest ago (slots.py)."""
        if turn.level != "hard":
            return make_player(turn.level, seed=self._seed).choose(turn.view)
        deadline = trio.current_time() + self.budget
        think = DEFAULT_THINK_TIME if self.think_time is None else self.think_time
        got = False
        # Wait for a worker only while a search begun then could still end in time.
        with trio.move_on_at(deadline - min(think, self.budget / 2)):
            await self._slots.acquire(owner)
            got = True
        if not got:
            self.crowded += 1
        else:
            try:
                with trio.move_on_at(deadline):
                    return await self._search(turn)
                self.late += 1
            except Exception:
                log.exception("the %s computer player failed; medium plays instead", turn.level)
        return make_player("medium", seed=self._seed).choose(turn.view)

    async def _search(self, turn: Turn) -> Action:
        """Hard's choice from a worker holding the slot just taken. The slot is given back
        when the search ends, even if this waits no more (cancelled): a worker is only
        free once it is idle."""
        token = trio.lowlevel.current_trio_token()
        done = trio.Event()

        def release() -> None:
            self._slots.release()
            done.set()

        def ended(_: Future[Action]) -> None:
            # Runs in the pool's thread, or at once in ours if the search is already
            # over: TrioToken.run_sync_soon is trio's way in from either, and never
            # blocks the pool (trio.from_thread would refuse the second case).
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(release)

        pool = self._workers()
        try:
            try:
                future = pool.submit(
                    self.search, turn.level, self._seed, self.think_time, turn.view
                )
            except BaseException:
                release()
                raise
            self.searches += 1
            future.add_done_callback(ended)
            await done.wait()
            return future.result()
        except BrokenExecutor:
            # A worker died (killed?): new ones for the next search.
            if self._pool is pool:
                self._close_pool()
            raise

    def _workers(self) -> Executor:
        if self._pool is None:
            if self.processes:
                self._pool = search_pool(self.workers)
            else:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="search")
        return self._pool

    def _close_pool(self) -> None:
        """No more searches: the workers are stopped at once (no one wants their
        answers, and the host's machine should not keep computing them)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # Taken before `shutdown`, which forgets them (`terminate_workers` from 3.14 on).
        running = list(pool._processes.values()) if isinstance(pool, ProcessPoolExecutor) else []
        pool.shutdown(wait=False, cancel_futures=True)
        for process in running:
            process.terminate()


def _cancelled(scope: trio.CancelScope) -> bool:
    """Whether the scope was cancelled since the loop last looked (a call, so the type
    checker does not carry the loop's test over an await)."""
    return scope.cancel_called


def search_pool(workers: int) -> ProcessPoolExecutor:
    """The search workers' processes: spawned, not forked (a fork of the server would
    copy its threads' locks), with multiprocessing's resource tracker quiet."""
    _quiet_resource_tracker()
    return ProcessPoolExecutor(
        workers, multiprocessing.get_context("spawn"),
        initializer=worker.start, initargs=(os.getpid(),),
    )  # fmt: skip


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with its stderr on /dev/null. The pool's
    queues hold semaphores the tracker removes when the server is gone; after a
    `kill -9` it does so as it should, but also warned of "leaked semaphore objects" on
    the host's terminal, long after the server's own last line."""
    from multiprocessing import resource_tracker

    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    saved = os.dup(2)
    try:
        # The tracker inherits the descriptor as it is now. (Once, at the first search:
        # a line the server wrote to stderr in these microseconds would be lost.)
        os.dup2(quiet, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)
