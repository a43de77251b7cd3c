"""The journal: every table, seat, game set-up and accepted action, in SQLite, made
durable before anyone hears of it, so a restarted server resumes every game.

Rows (journal_rows.py) are appended to a batch and committed together (group commit),
at the latest one scheduling round later; `epoch` counts the rows written, `committed`
the rows kept. The journal knows nothing of who waits for a commit: the server's loop
(outflow.py) holds back the frames that tell of rows not yet kept, and sends them
after the commit.

Durability: "normal" (the default) commits in WAL mode without a sync, which survives
the server process being killed at any moment; "full" also syncs every commit to the
disk (and survives a power cut), in a worker thread so no table waits for the disk.

Size: the write-ahead log is kept under `wal_limit` bytes, by checkpoints that never
meet a commit (journal_wal.py), and what a game or table no longer needs is deleted as
it goes (journal_schema.py).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import trio

from . import journal_rows as rows
from .journal_error import JournalError as JournalError
from .journal_error import cannot_open, cannot_write, damaged, older_running, stopping, too_new
from .journal_rows import Row, token_hash
from .journal_saved import Result, SavedAction, SavedGame, SavedTable, replay_game
from .journal_schema import (
    PARKED,
    SCHEMA_VERSION,
    compact_all,
    set_up,
)
from .journal_wal import CHECKPOINT_EVERY, WAL_LIMIT, WalKeeper
from .private import narrow_if_there, private_directory, private_file
from .standings import recount_kept

__all__ = [
    "DURABILITY", "FILE_NAME", "PARKED", "SCHEMA_VERSION", "Journal", "JournalError", "Result",
    "SavedAction", "SavedGame", "SavedTable", "replay_game", "token_hash",
]  # fmt: skip

log = logging.getLogger("sarja.server")

_T = TypeVar("_T")

FILE_NAME = "journal.sqlite3"
DURABILITY = ("normal", "full")


class Journal:
    """One SQLite file in the data directory; see the module's docstring."""

    def __init__(
        self, path: Path | None, durability: str = "normal", wal_limit: int = WAL_LIMIT,
        checkpoint_every: float = CHECKPOINT_EVERY, upgrade: bool = True,
    ) -> None:  # fmt: skip
        """A journal in the file `path`; None keeps it in memory (a server without a
        data directory), so the same code runs, with nothing kept. `upgrade` False: a
        file of an older version is refused, not brought up to date (an older server
        runs on it)."""
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {DURABILITY}")
        self.path = path
        self.full = durability == "full"
        self.epoch = 0  # moves on with every write
        self.committed = 0  # the last epoch on disk
        self.failed: str | None = None  # why the journal stopped, once it has
        self.on_failure: Callable[[str], None] = lambda message: None
        self._pending: list[Row] = []
        self._work = trio.Event()
        self._done: trio.Event | None = None  # made by the first `durable` waiting for a commit
        self._wal_limit = wal_limit
        self._upgrade = upgrade
        self._db = self._open()
        # The log kept small (journal_wal.py); nothing to keep small in memory.
        self.wal = None if path is None else WalKeeper(path, wal_limit, checkpoint_every)
        self._wake_every = checkpoint_every
        self._quiet = False  # the tick found nothing written for a whole interval

    # ----- opening ----------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        where = str(self.path or ":memory:")
        try:
            if self.path is not None:
                # Private before SQLite opens it: the -wal and -shm it makes beside the
                # file take the file's mode.
                private_directory(self.path.parent)
                private_file(self.path)
                for extra in ("-wal", "-shm"):
                    narrow_if_there(Path(f"{self.path}{extra}"))
            db = sqlite3.connect(where, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as err:
            raise JournalError(cannot_open(where, _why(err))) from None
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(too_new(where, version, SCHEMA_VERSION))
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise JournalError(damaged(where, str(check)))
            db.execute("PRAGMA journal_mode=WAL")
            if self.path is not None:
                # Checkpoints sync the disk: journal_wal.py makes them in threads, never
                # in the commits that every table waits on.
                db.execute("PRAGMA wal_autocheckpoint=0")
                # A log that starts over (each time a checkpoint copied all of it) is
                # cut back to this at the commit after: its size tells what it holds.
                db.execute(f"PRAGMA journal_size_limit={self._wal_limit // 2}")
            db.execute(f"PRAGMA synchronous={'FULL' if self.full else 'NORMAL'}")
            if version < SCHEMA_VERSION:
                if not self._upgrade:
                    raise JournalError(older_running(where, version, SCHEMA_VERSION))
                set_up(db, version, {10: recount_kept})
        except JournalError:
            db.close()
            raise
        except sqlite3.DatabaseError as err:
            db.close()
            text = _why(err)
            if "readonly" in text or "unable to open" in text or "disk" in text:
                raise JournalError(cannot_write(where, text)) from None
            raise JournalError(damaged(where, text)) from None
        return db

    def compact(self) -> None:
        """Delete every row nothing can come back to (journal_schema.py): as the server
        starts, before it reads the journal. (Not on every open: `sarja-server export`
        must not write to the file while a server may be committing to it.)"""
        try:
            compact_all(self._db)
        except sqlite3.Error as err:
            raise JournalError(cannot_write(self.path, _why(err))) from None

    def close(self) -> None:
        """Commit what is left, then close the file: a clean stop keeps everything."""
        batch, self._pending = self._pending, []
        if batch and self.failed is None:
            try:
                self._commit(batch)
                self.committed = self.epoch
            except sqlite3.Error as err:
                log.critical("cannot write the journal %s: %s", self.path, _why(err))
        if self.wal is not None:
            self.wal.close()
        self._db.close()

    # ----- writing ----------------------------------------------------------

    def write(self, batch: list[Row]) -> None:
        """Add rows (journal_rows.py) to the batch the next commit makes durable."""
        self._pending.extend(batch)
        self.epoch += len(batch)
        self._work.set()

    # What callers outside a table write (the records, tools, tests): each as its rows.

    def table_opened(
        self, table_id: str, number: int, name: str, players: int, teams: int,
        hand_size: int, manual_draw: bool, takeover: str | None,
    ) -> None:  # fmt: skip
        self.write(
            rows.table_opened(
                table_id, number, name, players, teams, hand_size, manual_draw, takeover
            )
        )

    def table_version(self, table_id: str, version: int) -> None:
        self.write(rows.table_version(table_id, version))

    def table_closed(self, table_id: str) -> None:
        self.write(rows.table_closed(table_id))

    def table_parked(self, table_id: str, keep: int) -> None:
        self.write(rows.table_parked(table_id, keep))

    def guest(self, guest_id: str, name: str, keys: tuple[str, ...]) -> None:
        self.write(rows.guest(guest_id, name, keys))

    def seat(
        self, table_id: str, seat: int, guest_id: str | None, computer: str | None = None,
        name: str | None = None,
    ) -> None:  # fmt: skip
        self.write(rows.seat(table_id, seat, guest_id, computer, name))

    def game_started(
        self, table_id: str, number: int, cut: tuple[tuple[tuple[int, int], ...], ...],
        deck: tuple[int, ...],
    ) -> None:  # fmt: skip
        self.write(rows.game_started(table_id, number, cut, deck))

    def action(
        self, table_id: str, game: int, n: int, seat: int, notation: str,
        action_id: int | None, version: int, reshuffles: list[tuple[int, ...]],
        stand_in: bool = False,
    ) -> None:  # fmt: skip
        self.write([rows.action(table_id, game, n, seat, notation, action_id, version,
                                reshuffles, stand_in)])  # fmt: skip

    def game_recorded(self, table_id: str, number: int, result: Result | None = None) -> None:
        self.write(rows.game_recorded(table_id, number, result))

    def unrecorded(self) -> list[tuple[str, int]]:
        """Finished games whose record file was not written (the server stopped first)."""
        return self._read(
            lambda: self._db.execute(
                "SELECT table_id, number FROM games WHERE finished = 1 AND recorded = 0"
            ).fetchall()
        )

    # ----- committing -------------------------------------------------------

    async def run(self) -> None:
        """Commit what is written, batch after batch, until cancelled: for a journal
        with nothing waiting on it (tools, tests). The server's loop (outflow.py) runs
        the same steps and sends what waited after each commit."""
        async with trio.open_nursery() as nursery:
            self.start(nursery)
            while self.failed is None:
                quiet = await self.wait_for_writes()
                if not quiet:
                    await self.commit()
                await self.tidy(quiet)
            nursery.cancel_scope.cancel()

    def start(self, nursery: trio.Nursery) -> None:
        """Start what runs beside the commits: the tick that wakes a quiet journal,
        and the copying of the log aside."""
        nursery.start_soon(self._tick)
        if self.wal is not None:
            nursery.start_soon(self.wal.run)

    async def _tick(self) -> None:
        """Every checkpoint interval, wake `wait_for_writes` if nothing was written in
        it: one timer for the journal, instead of a deadline around every wait (a
        cancel scope per commit cost more than the wait it bounded)."""
        seen = self.epoch
        while True:
            await trio.sleep(self._wake_every)
            if self.epoch == seen:
                self._quiet = True
                self._work.set()
            seen = self.epoch

    async def wait_for_writes(self) -> bool:
        """Wait until something is written, or a whole checkpoint interval passed with
        nothing written (True: the journal is quiet)."""
        await self._work.wait()
        self._work = trio.Event()
        quiet, self._quiet = self._quiet and not self._pending, False
        return quiet

    async def commit(self) -> bool:
        """Commit the batch written so far, as one transaction: True once it is
        durable (`committed` says up to which epoch), False if the journal failed."""
        batch, self._pending = self._pending, []
        epoch = self.epoch
        try:
            if self.full:
                await trio.to_thread.run_sync(self._commit, batch)
            else:
                self._commit(batch)
        except sqlite3.Error as err:
            self.failed = cannot_write(self.path, _why(err))
            log.critical("%s", stopping(self.failed))
            self.on_failure(self.failed)
        else:
            self.committed = epoch
        done, self._done = self._done, None
        if done is not None:
            done.set()
        return self.failed is None

    async def tidy(self, quiet: bool) -> None:
        """Empty the write-ahead log between two commits, when it is due."""
        if self.wal is not None and self.failed is None:
            await self.wal.checkpoint_if_due(quiet)

    def _commit(self, batch: list[Row]) -> None:
        """One transaction (written out, not a context manager: it runs every move)."""
        execute = self._db.execute
        execute("BEGIN")
        try:
            for sql, params in batch:
                execute(sql, params)
        except BaseException:
            execute("ROLLBACK")
            raise
        execute("COMMIT")

    async def durable(self, epoch: int) -> bool:
        """Wait until everything written by `epoch` is committed; False if it never
        will be (the journal failed: what depends on it must not be sent)."""
        while self.committed < epoch:
            if self.failed is not None:
                return False
            if self._done is None:
                self._done = trio.Event()
            await self._done.wait()
        return True

    # ----- reading ----------------------------------------------------------

    def load(self) -> list[SavedTable]:
        """Every table not closed, with its seats and its latest game."""
        return self._read(
            lambda: [
                self._table(row, None)
                for row in self._db.execute(f"{_TABLES} WHERE closed = 0 ORDER BY number")
            ]
        )

    def games(self) -> list[tuple[str, int, str, bool]]:
        """(table id, game number, table name, finished) of every game kept, oldest first."""
        return self._read(
            lambda: [
                (table_id, number, name, bool(finished))
                for table_id, number, name, finished in self._db.execute(
                    "SELECT g.table_id, g.number, t.name, g.finished FROM games g"
                    " JOIN tables t ON t.id = g.table_id ORDER BY t.number, g.number"
                )
            ]
        )

    def results(self) -> list[Result]:
        """What is kept of every game whose record is written, oldest first."""
        return self._read(
            lambda: [
                Result(*[*row[:6], _seats(row[6]), *row[7:]])  # the columns in its order
                for row in self._db.execute(
                    "SELECT table_name, players, teams, result, side, moves, seats,"
                    " record, table_id, game, finished_at FROM results"
                    " ORDER BY finished_at, rowid"
                )
            ]
        )

    def table(self, table_id: str, game: int | None = None) -> SavedTable | None:
        """One table, closed or not, with game `game` (None: its latest)."""
        row = self._read(
            lambda: self._db.execute(f"{_TABLES} WHERE id = ?", (table_id,)).fetchone()
        )
        return None if row is None else self._read(lambda: self._table(row, game))

    def table_of(self, key: str) -> str | None:
        """The open table where the guest with token hash `key` holds a seat: by the
        key's index, so an unknown key costs the same however much is kept."""
        row = self._read(
            lambda: self._db.execute(
                "SELECT s.table_id FROM guest_keys k JOIN seats s ON s.guest_id = k.guest_id"
                f" JOIN tables t ON t.id = s.table_id WHERE k.key = ? AND t.closed IN (0, {PARKED})"
                " ORDER BY t.number DESC LIMIT 1",
                (key,),
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def read(self, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """What `fn` reads from the file (what is committed): for readers that keep
        their own queries (standings.py); JournalError if the file cannot be read."""
        return self._read(lambda: fn(self._db))

    def _read(self, fn: Callable[[], _T]) -> _T:
        try:
            return fn()
        except (sqlite3.Error, ValueError, TypeError, KeyError) as err:
            raise JournalError(damaged(str(self.path), _why(err))) from None

    def _table(self, row: tuple[Any, ...], game: int | None) -> SavedTable:
        table_id, number, name, players, teams, hand, manual, takeover, version, clock = row[:10]
        waiting, creator, creator_person = row[10:]
        seats: list[tuple[str, str, tuple[str, ...]] | None] = [None] * players
        computers: list[tuple[str, str] | None] = [None] * players
        handed: dict[int, str] = {}
        for seat, gid, gname, token, level, cname in self._db.execute(
            "SELECT s.seat, g.id, g.name, g.token_hash, s.computer, s.name FROM seats s"
            " LEFT JOIN guests g ON g.id = s.guest_id WHERE s.table_id = ?",
            (table_id,),
        ):
            if not 0 <= seat < players:
                continue
            if gid is not None:
                seats[seat] = (gid, gname, tuple(token.split()))
                if level is not None:
                    handed[seat] = str(level)
            elif level is not None:
                computers[seat] = (str(level), str(cname))
        spectators = [
            (str(gid), str(gname), tuple(str(token).split()))
            for gid, gname, token in self._db.execute(
                "SELECT g.id, g.name, g.token_hash FROM spectators s"
                " JOIN guests g ON g.id = s.guest_id WHERE s.table_id = ? ORDER BY g.rowid",
                (table_id,),
            )
        ]
        (hints,) = self._db.execute("SELECT hints FROM tables WHERE id = ?", (table_id,)).fetchone()
        kept = self._db.execute(
            "SELECT match_to, number, games FROM matches WHERE table_id = ?", (table_id,)
        ).fetchone()
        match = None if kept is None else (int(kept[0]), int(kept[1]), list(json.loads(kept[2])))
        runs = {
            int(seat): int(n)
            for seat, n in self._db.execute(
                "SELECT seat, runs FROM turn_clocks WHERE table_id = ? AND runs > 0", (table_id,)
            )
        }
        return SavedTable(
            table_id, number, name, players, teams, hand, bool(manual), takeover,
            version, seats, self._game(table_id, game), computers, handed, spectators,
            hints=bool(hints), match=match, turn_clock=int(clock), clock_runs=runs,
            waiting_after=waiting, creator=creator, creator_person=creator_person,
        )  # fmt: skip

    def _game(self, table_id: str, number: int | None) -> SavedGame | None:
        db = self._db
        if number is None:
            row = db.execute(
                "SELECT number, cut, deck FROM games WHERE table_id = ?"
                " ORDER BY number DESC LIMIT 1",
                (table_id,),
            ).fetchone()
        else:
            row = db.execute(
                "SELECT number, cut, deck FROM games WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
        if row is None:
            return None
        game = SavedGame(row[0], json.loads(row[1]), json.loads(row[2]))
        for seat, action, action_id, version, reshuffles, stand_in in db.execute(
            "SELECT seat, action, action_id, version, reshuffles, stand_in FROM actions"
            " WHERE table_id = ? AND game = ? ORDER BY n",
            (table_id, game.number),
        ):
            kept = json.loads(reshuffles or "[]")
            game.actions.append(SavedAction(seat, action, action_id, version, kept, bool(stand_in)))
        return game


_TABLES = (
    "SELECT id, number, name, players, teams, hand_size, manual_draw, takeover, version,"
    " turn_clock, waiting_after, creator, creator_person FROM tables"
)


def _seats(kept: str) -> list[tuple[str | None, str, str | None]]:
    """A result's seats, kept as JSON: (guest id, name, computer level) each."""
    return [(g, str(n), c) for g, n, c in json.loads(kept)]


def _why(err: BaseException) -> str:
    return str(err) or type(err).__name__
