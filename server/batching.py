"""Writing each connection's frames once per step of the server.

Handling one request can queue frames for many connections (a move sends every
seat an event or two and a new state). Instead of waking a writer task per
frame, frames are gathered while the step runs and each connection's share is
written in one go once it ends, straight to the socket when it takes them.

A connection's reader, which handles almost every request, runs its work as a
`step` and flushes as it ends. Frames queued anywhere else (the heartbeat, the
computer's moves, a dropped peer's goodbye) are flushed when that task next
yields, through trio's `run_sync_soon`, which costs a wake-up of the run loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import trio

T = TypeVar("T")


class Batched(Protocol):
    def flush(self) -> None: ...


class WriteBatcher:
    """Remembers which connections have frames waiting and flushes them all as
    soon as the running task next yields to trio."""

    def __init__(self) -> None:
        self._waiting: list[Batched] = []
        self._scheduled = False
        self._in_step = False

    def waiting(self, connection: Batched) -> None:
        self._waiting.append(connection)
        if not self._scheduled and not self._in_step:
            self._scheduled = True
            trio.lowlevel.current_trio_token().run_sync_soon(self.flush_all)

    def step(self, work: Callable[[bytes], T], data: bytes) -> T:
        """Run `work(data)`, which must not await, then flush what it queued."""
        self._in_step = True
        try:
            return work(data)
        finally:
            self._in_step = False
            self.flush_all()

    def flush_all(self) -> None:
        self._scheduled = False
        waiting, self._waiting = self._waiting, []
        for connection in waiting:
            connection.flush()
