"""The journal's write-ahead log, kept small: emptied by a TRUNCATE checkpoint once it
passes a size, and every few seconds when it holds anything.

The checkpoint runs in a worker thread on a connection of its own, and only when the
journal's task calls `due_now` between two commits: a TRUNCATE checkpoint must be the
only writer, and the journal's commits (on the event loop, with no busy timeout) must
never meet one, or they would fail busy and stop the server. Writes made meanwhile
wait in the journal's next batch, their frames held; none is lost or told early.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import trio

log = logging.getLogger("sarja.server")

WAL_LIMIT = 16 * 1024 * 1024  # bytes of log that set off a truncation
CHECKPOINT_EVERY = 5.0  # seconds: a log that holds anything is emptied as often
RETRY_AFTER = 1.0  # seconds, after a checkpoint a reader held up
READER_WAIT = 0.1  # seconds a checkpoint waits for a reader (another process's, say)


class WalKeeper:
    def __init__(self, path: Path, limit: int = WAL_LIMIT, every: float = CHECKPOINT_EVERY):
        self.path = path
        self.wal = Path(f"{path}-wal")
        self.limit = limit
        self.every = every
        self.truncations: list[tuple[int, float]] = []  # the latest: (log bytes, seconds)
        self._db: sqlite3.Connection | None = None
        self._last = 0.0  # trio time of the last checkpoint
        self._not_before = 0.0

    def size(self) -> int:
        try:
            return self.wal.stat().st_size
        except OSError:
            return 0

    async def checkpoint_if_due(self) -> None:
        """Empty the log if it passed the limit, or holds anything and was not emptied
        for `every` seconds. Call it only between commits (see the docstring)."""
        now = trio.current_time()
        if now < self._not_before:
            return
        size = self.size()
        if size <= self.limit and (size == 0 or now < self._last + self.every):
            return
        began = time.perf_counter()
        try:
            done = await trio.to_thread.run_sync(self._truncate)
        except sqlite3.Error as err:  # the commits report real trouble
            log.warning("journal checkpoint failed: %s", err)
            done = False
        self._last = trio.current_time()
        if not done:  # a reader held it up: later, not after every commit
            self._not_before = self._last + RETRY_AFTER
            return
        took = time.perf_counter() - began
        self.truncations = [*self.truncations[-99:], (size, took)]
        log.debug("journal log emptied: %d bytes in %.1f ms", size, took * 1e3)

    def _truncate(self) -> bool:
        """In a worker thread; False if a reader kept it from finishing."""
        if self._db is None:
            self._db = sqlite3.connect(
                str(self.path), timeout=READER_WAIT, check_same_thread=False,
                isolation_level=None,
            )  # fmt: skip
        busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        return not busy

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
