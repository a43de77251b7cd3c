"""The computer players at the server's tables: who moves, when, and off the event loop.

A table says which of its seats the computer plays (a computer seat, a seat handed to
the computer while its player is away, or any away seat when the table lets a computer
stand in) and, when one of them has something to do, wakes `Computers`. One task per
table then plays those moves one at a time, so people can follow them:

1. it takes the seat's view (`seat_view`: the seat's own hand and public facts only,
   an immutable value) and tells the table's members the computer is thinking;
2. the level's player chooses in a worker thread (`trio.to_thread.run_sync`), so a
   search of hard's never holds up the server; a pause (`takeover_delay`) runs at the
   same time, so a move comes no sooner than people can follow;
3. the move is applied only if the game has not moved on meanwhile (someone came back
   to the seat, a waiting draw was taken): otherwise it starts again from 1.

When the table has nothing for the computer to do yet but a grace is running (an away
person's, or a waiting draw's: graces.py), the task sleeps until the table says it runs
out (`Table.computer_due`), and wakes sooner if anything changes at the table.

A computer never keeps a table waiting longer than `computer_budget` seconds: a thread
that has not answered by then is abandoned and medium's choice, which takes well under
a millisecond, is played instead.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from .bots import make_player
from .engine import Action, Game
from .engine.view import SeatView

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("sarja.server")

# Names for computer seats, given in this order, skipping names already at the table.
COMPUTER_NAMES = (
    "Aino", "Bertil", "Cecilia", "David", "Eero", "Frida", "Gustav", "Hilma", "Ilmari",
    "Jenni", "Kalle", "Lumi", "Mikael",
)  # fmt: skip


@dataclass(frozen=True)
class Computer:
    """A computer seat: its level and the name people see."""

    level: str
    name: str


@dataclass(frozen=True)
class Turn:
    """A move the computer is to make: for `seat`, at `level`, from `view`, while the
    game is still `game` at `moves` actions."""

    seat: int
    level: str
    view: SeatView
    game: Game
    moves: int


def computer_names(levels: list[str | None], taken: set[str]) -> list[str | None]:
    """A name for each computer seat (a level in `levels`), none of them in `taken`."""
    free = iter(n for n in COMPUTER_NAMES if n not in taken)
    return [None if lv is None else next(free) for lv in levels]


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
    ) -> None:
        self.pause = pause
        self.budget = budget
        self.think_time = think_time
        # Reproducible choices with a seed (tests); different ones every run otherwise.
        self._seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
        self._nursery: trio.Nursery | None = None
        self._due: list[Table] = []  # woken before `run` started
        self._busy: set[Table] = set()
        self._scopes: dict[Table, trio.CancelScope] = {}  # each playing table's task
        self._waiting: dict[Table, trio.CancelScope] = {}  # tables sleeping out a grace
        self.stopped = False
        self.moves = 0  # moves made, for tests and the bench
        self.late = 0  # moves the budget cut short (medium's choice played instead)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                due, self._due = self._due, []
                for table in due:
                    self._busy.discard(table)
                    self.wake(table)
                task_status.started()
                await trio.sleep_forever()
        finally:
            self._nursery = None
            self.stopped = True  # the server is stopping: no more moves

    def wake(self, table: Table) -> None:
        """The computer may have a move to make at `table`."""
        if table in self._busy or self.stopped:
            waiting = self._waiting.get(table)
            if waiting is not None:
                waiting.cancel()  # something changed: look again now
            return  # its task looks again after each move
        self._busy.add(table)
        if self._nursery is None:
            self._due.append(table)
        else:
            self._nursery.start_soon(self._play, table)

    def stop(self, table: Table) -> None:
        """`table` is gone from the lobby: its task, if any, ends now."""
        scope = self._scopes.pop(table, None)
        if scope is not None:
            scope.cancel()
        self._due = [t for t in self._due if t is not table]
        self._busy.discard(table)

    async def _play(self, table: Table) -> None:
        with trio.CancelScope() as scope:
            self._scopes[table] = scope
            try:
                while (turn := table.computer_turn()) is not None or await self._wait(table):
                    if turn is None:
                        continue
                    table.computer_thinking(turn.seat)
                    started = trio.current_time()
                    action = await self._choose(turn)
                    await trio.sleep_until(started + self.pause)
                    if table.computer_move(turn, action):
                        self.moves += 1
            except Exception:
                log.exception("the computer player at table %s failed", table.id)
            finally:
                if self._scopes.get(table) is scope:
                    del self._scopes[table]
                    self._busy.discard(table)

    async def _wait(self, table: Table) -> bool:
        """Sleep until the table's running grace runs out, or it is woken; False if no
        grace runs (nothing to wait for)."""
        due = table.computer_due() if table.live else None
        if due is None:
            return False
        with trio.CancelScope(
            deadline=trio.current_time() + max(0.0, due - table.clock())
        ) as scope:
            self._waiting[table] = scope
            try:
                await trio.sleep_forever()
            finally:
                del self._waiting[table]
        return True

    async def _choose(self, turn: Turn) -> Action:
        """The level's choice, made in a worker thread within the budget; medium's
        (made at once, here) if the thread is late or fails."""
        player = make_player(turn.level, seed=self._seed, think_time=self.think_time)
        with trio.move_on_after(self.budget):
            try:
                return await trio.to_thread.run_sync(
                    player.choose, turn.view, abandon_on_cancel=True
                )
            except Exception:
                log.exception("the %s computer player failed; medium plays instead", turn.level)
        self.late += 1
        return make_player("medium", seed=self._seed).choose(turn.view)
