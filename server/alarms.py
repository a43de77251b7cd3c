"""The trio side of the tables' "clock" timers (effects.py): at the time a table asks,
call its `clock_ran_out` step and carry out what it left.

One waiting task per table at most: setting a table's timer again cancels the task
waiting for the old time. The table's step checks the time itself, so a timer that
fires late or stale does no harm.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from .turns import Playing


class Alarms:
    def __init__(self, carry: Callable[[], None], clock: Callable[[], float]) -> None:
        self.carry = carry  # carries out what a table's step left (app.py)
        self.clock = clock  # the tables' clock
        self._nursery: trio.Nursery | None = None
        self._set: dict[Playing, tuple[float, trio.CancelScope]] = {}

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for table, (at, scope) in self._set.items():  # set before this started
                nursery.start_soon(self._ring, table, at, scope)
            task_status.started()
            await trio.sleep_forever()

    def set(self, table: Playing, at: float | None) -> None:
        """Call `table.clock_ran_out` at `at` (None: not at all), instead of any time
        set before."""
        before = self._set.pop(table, None)
        if before is not None:
            if before[0] == at:
                self._set[table] = before
                return
            before[1].cancel()
        if at is None:
            return
        scope = trio.CancelScope()
        self._set[table] = (at, scope)
        if self._nursery is not None:
            self._nursery.start_soon(self._ring, table, at, scope)

    async def _ring(self, table: Playing, at: float, scope: trio.CancelScope) -> None:
        with scope:
            # On the tables' clock; the task sleeps on trio's.
            await trio.sleep(max(0.0, at - self.clock()))
            if self._set.get(table, (None, None))[1] is scope:
                del self._set[table]
            if table.live:
                table.clock_ran_out(self.clock())
                self.carry()
