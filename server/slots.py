"""The search workers' slots, handed out fairly among those who wait for one.

Every table's hard seats and every player's hints share a few workers (computers.py).
Taken first come, first served, whoever asks most often holds them: a flood of hints
from a few addresses kept a worker busy all the time, and a player who asked once a
turn waited behind the whole queue until her budget ran out and she got medium's move.
So when several wait, the slot goes to the one whose owner (a table, or a hinting
address) was served longest ago: a flood waits behind everyone who asks rarely, and
they wait at most for a search already under way.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

import trio

# Owners (small keys, never the tables themselves, which this would keep alive) whose
# last turn is remembered; the oldest are forgotten.
SERVED_KEPT = 4096


@dataclass(order=True)
class _Waiter:
    last: float  # when its owner was last served (-inf: never, or long ago)
    seq: int
    event: trio.Event = field(compare=False)
    owner: object = field(compare=False)
    granted: bool = field(default=False, compare=False)
    gone: bool = field(default=False, compare=False)  # cancelled while waiting


class FairSlots:
    def __init__(self, total: int) -> None:
        self.free = total
        self._waiting: list[_Waiter] = []
        self._served: dict[object, float] = {}  # owner -> when last served
        self._seq = itertools.count()

    async def acquire(self, owner: object) -> None:
        """Wait for a slot for `owner` (a checkpoint even when one is free)."""
        if self.free > 0 and not self._waiting:
            self.free -= 1
            self._note(owner)
            try:
                await trio.lowlevel.checkpoint()
            except BaseException:
                self.release()  # cancelled at once: the slot goes back
                raise
            return
        last = self._served.get(owner, -float("inf"))
        waiter = _Waiter(last, next(self._seq), trio.Event(), owner)
        heapq.heappush(self._waiting, waiter)
        try:
            await waiter.event.wait()
        except BaseException:
            if waiter.granted:
                self.release()  # handed over just as the caller gave up: pass it on
            else:
                waiter.gone = True
            raise

    def release(self) -> None:
        """A slot is free again: to the waiter served longest ago, if any."""
        while self._waiting:
            waiter = heapq.heappop(self._waiting)
            if waiter.gone:
                continue
            waiter.granted = True
            self._note(waiter.owner)
            waiter.event.set()
            return
        self.free += 1

    def _note(self, owner: object) -> None:
        served = self._served
        served.pop(owner, None)
        served[owner] = trio.current_time()
        if len(served) > SERVED_KEPT:
            del served[next(iter(served))]
