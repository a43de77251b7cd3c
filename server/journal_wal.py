"""The journal's write-ahead log, kept small: emptied by a TRUNCATE checkpoint once it
passes a size, or when the journal has been quiet for a few seconds.

A TRUNCATE checkpoint must be the only writer, and the journal's commits (on the event
loop, with no busy timeout) must never meet one, or they would fail busy and stop the
server: it runs only when the journal's task calls `checkpoint_if_due` between two
commits, in a worker thread on a connection of its own. Writes made meanwhile wait in
the journal's next batch, their frames held; none is lost or told early.

Most of a checkpoint's time is the disk sync of the log (which "normal" durability
never syncs otherwise), and a busy disk can make that long. So that commits seldom
wait for it, PASSIVE checkpoints copy the log into the database aside (`run`, in a
thread, while commits go on: a PASSIVE checkpoint never blocks a writer) every few
seconds and once the log is half the limit. One that copies everything lets SQLite
start the log over at the next commit, so at an ordinary pace the log never grows and
no commit waits; only writes faster than the copies (an attack, say) bring it to the
limit, and the TRUNCATE then has only what came since the last copy to do.
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
# The log's size is looked at after this many commits or seconds, not after each: a
# system call lets go of the GIL, and a computer's search in a thread may keep it a while.
LOOK_COMMITS = 64
LOOK_EVERY = 0.02


class WalKeeper:
    def __init__(self, path: Path, limit: int = WAL_LIMIT, every: float = CHECKPOINT_EVERY):
        self.path = path
        self.wal = Path(f"{path}-wal")
        self.limit = limit
        self.every = every
        self.truncations: list[tuple[int, float]] = []  # the latest: (log bytes, seconds)
        self._db: sqlite3.Connection | None = None
        self._lock = trio.Lock()  # one checkpoint at a time
        self._copy_due = trio.Event()
        self._not_before = 0.0  # trio time; a truncation a reader held up waits for it
        self._unlooked = 0  # commits since the log's size was looked at
        self._looked = 0.0

    def size(self) -> int:
        try:
            return self.wal.stat().st_size
        except OSError:
            return 0

    async def run(self) -> None:
        """PASSIVE checkpoints aside, when `checkpoint_if_due` asks or every `every`
        seconds, until cancelled."""
        while True:
            with trio.move_on_after(self.every):
                await self._copy_due.wait()
            self._copy_due = trio.Event()
            if self.size() == 0:
                continue
            async with self._lock:
                await self._checkpoint("PASSIVE")

    async def checkpoint_if_due(self, quiet: bool) -> None:
        """Empty the log if it passed the limit, or holds anything and the journal was
        `quiet` (nothing to commit for `every` seconds). Call it only between commits."""
        now = trio.current_time()
        self._unlooked += 1
        if not quiet and self._unlooked < LOOK_COMMITS and now < self._looked + LOOK_EVERY:
            return
        self._unlooked, self._looked = 0, now
        size = self.size()
        if size > self.limit // 2:
            self._copy_due.set()
        if not (size > self.limit or (quiet and size)):
            return
        if now < self._not_before:
            return
        if size <= self.limit and self._lock.locked():
            return  # quiet, and a copy is running aside: it will leave less to do later
        async with self._lock:  # waits for a copy running aside: less left to do
            began = time.perf_counter()
            done = await self._checkpoint("TRUNCATE")
            took = time.perf_counter() - began
        if not done:  # a reader held it up: later, not after every commit
            self._not_before = trio.current_time() + RETRY_AFTER
            return
        self.truncations = [*self.truncations[-99:], (size, took)]
        log.debug("journal log emptied: %d bytes in %.1f ms", size, took * 1e3)

    async def _checkpoint(self, mode: str) -> bool:
        try:
            return await trio.to_thread.run_sync(self._run, mode)
        except sqlite3.Error as err:  # the commits report real trouble
            log.warning("journal checkpoint failed: %s", err)
            return False

    def _run(self, mode: str) -> bool:
        """In a worker thread; False if a reader (or writer) kept it from finishing."""
        if self._db is None:
            self._db = sqlite3.connect(
                str(self.path), timeout=READER_WAIT, check_same_thread=False,
                isolation_level=None,
            )  # fmt: skip
        busy = self._db.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()[0]
        return not busy

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
