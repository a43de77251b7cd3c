"""The journal: every table, seat, game set-up and accepted action, in SQLite, made
durable before anyone hears of it, so a restarted server resumes every game.

Writes are appended to a batch and committed together by one task (group commit), at
the latest one scheduling round later. A frame queued while something is written but
not yet committed waits in its connection with the journal's `epoch` of that moment,
and the journal releases it to the connection's writer after the commit: an
acknowledgement or update never leaves before what it tells of is kept. Frames queued
when nothing is waiting (pings, chat, most of the time) go at once.

Durability: "normal" (the default) commits in WAL mode without a sync, which survives
the server process being killed at any moment; "full" also syncs every commit to the
disk (and survives a power cut), in a worker thread so no table waits for the disk.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import trio

from .engine import Action, Arrangement, Event, Game, HouseRules

log = logging.getLogger("sarja.server")

_T = TypeVar("_T")

SCHEMA_VERSION = 3
FILE_NAME = "journal.sqlite3"
DURABILITY = ("normal", "full")
PARKED = 2  # `tables.closed` of a table kept for its players but not loaded at start

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    players INTEGER NOT NULL,
    teams INTEGER NOT NULL,
    hand_size INTEGER NOT NULL,
    manual_draw INTEGER NOT NULL,
    computer_takeover INTEGER NOT NULL,  -- version 1's flag; `takeover` says it now
    version INTEGER NOT NULL DEFAULT 0,
    closed INTEGER NOT NULL DEFAULT 0,  -- 1: closed; 2: parked (PARKED)
    takeover TEXT  -- the level of the computer that stands in for an away player
);
CREATE TABLE IF NOT EXISTS guests (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL  -- the hashes of the tokens that resume it, space-separated
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    guest_id TEXT,
    -- The level of the computer that plays the seat: a computer seat (no guest; `name`
    -- is the computer's), or a guest's seat handed to the computer while they are away.
    computer TEXT,
    name TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    cut TEXT NOT NULL,
    deck TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    recorded INTEGER NOT NULL DEFAULT 0,  -- its record file is written
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    action_id INTEGER,
    version INTEGER NOT NULL,
    reshuffles TEXT,
    stand_in INTEGER NOT NULL DEFAULT 0,  -- the computer made it for a person's seat
    PRIMARY KEY (table_id, game, n)
);
CREATE TABLE IF NOT EXISTS spectators (
    table_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    PRIMARY KEY (table_id, guest_id)
);
"""

# What brings a journal of an older version up to this one, by the version it leads to.
_MIGRATIONS = {
    2: """
ALTER TABLE tables ADD COLUMN takeover TEXT;
UPDATE tables SET takeover = 'medium' WHERE computer_takeover != 0;
ALTER TABLE seats ADD COLUMN computer TEXT;
ALTER TABLE seats ADD COLUMN name TEXT;
""",
    # Stand-ins' moves marked, and spectators kept across a restart.
    3: """
ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS spectators (
    table_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    PRIMARY KEY (table_id, guest_id)
);
""",
}


class Holder(Protocol):
    """What waits for a commit: a connection with frames that tell of it."""

    def release(self, committed: int) -> bool: ...


class JournalError(Exception):
    """The journal cannot be used; the message names the file and says what to do."""


def token_hash(token: str) -> str:
    """What the journal keeps of a resume token: enough to recognise it, not to use it."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SavedAction:
    seat: int
    action: str  # notation
    action_id: int | None
    version: int
    reshuffles: list[list[int]]  # reshuffles this action caused, each a deck order
    stand_in: bool = False  # the computer made it for a person's seat


@dataclass
class SavedGame:
    number: int
    cut: list[list[list[int]]]  # rounds of [seat, card]
    deck: list[int]
    actions: list[SavedAction] = field(default_factory=list)


@dataclass
class SavedTable:
    id: str
    number: int
    name: str
    players: int
    teams: int
    hand_size: int
    manual_draw: bool
    takeover: str | None  # the level that stands in for an away player
    version: int
    seats: list[tuple[str, str, tuple[str, ...]] | None]  # (guest id, name, keys) per seat
    game: SavedGame | None
    computers: list[tuple[str, str] | None] = field(default_factory=list)  # (level, name)
    handed: dict[int, str] = field(default_factory=dict)  # seat -> level, person away
    # Who was watching (guest id, name, keys), to watch again on resuming.
    spectators: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)

    def arrangement(self) -> Arrangement:
        return Arrangement.of(
            self.players, self.teams, HouseRules(self.hand_size, self.manual_draw)
        )

    def names(self) -> list[str]:
        """Who sat in each seat: a person's name, a computer's, or "Seat n"."""
        computers = self.computers or [None] * len(self.seats)
        return [
            held[1] if held else computer[1] if computer else f"Seat {i + 1}"
            for i, (held, computer) in enumerate(zip(self.seats, computers, strict=True))
        ]


def replay_game(
    arrangement: Arrangement,
    kept: SavedGame,
    rng: random.Random | None = None,
    each: Callable[[SavedAction, list[Event]], None] | None = None,
) -> Game:
    """A kept game, replayed action by action with its reshuffles as they happened;
    later reshuffles come from `rng`; `each` is told every action's events (the
    table's history). EngineError if it does not replay."""
    cut = tuple(tuple((s, c) for s, c in r) for r in kept.cut)
    reshuffles = [tuple(order) for a in kept.actions for order in a.reshuffles]
    game = Game(arrangement, cut, kept.deck, rng=rng, replay_reshuffles=reshuffles)
    for a in kept.actions:
        events = game.apply(a.seat, Action.parse(a.action))
        if each is not None:
            each(a, events)
    return game


class Journal:
    """One SQLite file in the data directory; see the module's docstring."""

    def __init__(self, path: Path | None, durability: str = "normal") -> None:
        """A journal in the file `path`; None keeps it in memory (a server without a
        data directory), so the same code runs, with nothing kept."""
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {DURABILITY}")
        self.path = path
        self.full = durability == "full"
        self.epoch = 0  # moves on with every write
        self.committed = 0  # the last epoch on disk
        self.failed: str | None = None  # why the journal stopped, once it has
        self.on_failure: Callable[[str], None] = lambda message: None
        self._pending: list[tuple[str, tuple[Any, ...]]] = []
        self._holding: set[Holder] = set()
        self._work = trio.Event()
        self._done = trio.Event()
        self._db = self._open()

    # ----- opening ----------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        where = str(self.path or ":memory:")
        try:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(where, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as err:
            raise JournalError(f"cannot open the journal {where}: {_why(err)}") from None
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"the journal {where} was written by a newer sarja-server (journal"
                    f" version {version}; this one reads version {SCHEMA_VERSION}). Run the"
                    " newer server, or start this one with another --data-dir."
                )
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise JournalError(_corrupt(where, str(check)))
            db.execute("PRAGMA journal_mode=WAL")
            if self.path is not None:
                # Checkpoints sync the disk: `checkpoints` runs them aside, not in the
                # commits that every table waits on.
                db.execute("PRAGMA wal_autocheckpoint=0")
            db.execute(f"PRAGMA synchronous={'FULL' if self.full else 'NORMAL'}")
            if version < SCHEMA_VERSION:
                _set_up(db, version)
        except JournalError:
            db.close()
            raise
        except sqlite3.DatabaseError as err:
            db.close()
            text = _why(err)
            if "readonly" in text or "unable to open" in text or "disk" in text:
                raise JournalError(f"cannot write the journal {where}: {text}") from None
            raise JournalError(_corrupt(where, text)) from None
        return db

    def close(self) -> None:
        """Commit what is left, then close the file: a clean stop keeps everything."""
        batch, self._pending = self._pending, []
        if batch and self.failed is None:
            try:
                self._commit(batch)
                self.committed = self.epoch
            except sqlite3.Error as err:
                log.critical("cannot write the journal %s: %s", self.path, _why(err))
        self._db.close()

    # ----- writing ----------------------------------------------------------

    def _write(self, sql: str, *params: Any) -> None:
        self._pending.append((sql, params))
        self.epoch += 1
        self._work.set()

    def table_opened(
        self, table_id: str, number: int, name: str, players: int, teams: int,
        hand_size: int, manual_draw: bool, takeover: str | None,
    ) -> None:  # fmt: skip
        self._write(
            "INSERT OR REPLACE INTO tables (id, number, name, players, teams, hand_size,"
            " manual_draw, computer_takeover, takeover) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            table_id, number, name, players, teams, hand_size, manual_draw,
            takeover is not None, takeover,
        )  # fmt: skip

    def table_closed(self, table_id: str) -> None:
        self._write("UPDATE tables SET closed = 1 WHERE id = ?", table_id)

    def table_parked(self, table_id: str, keep: int) -> None:
        """Kept for its absent players, not loaded at start: only a resume brings it
        back. Of the parked tables, the newest `keep` stay; older ones are closed."""
        self._write(f"UPDATE tables SET closed = {PARKED} WHERE id = ?", table_id)
        self._write(
            f"UPDATE tables SET closed = 1 WHERE closed = {PARKED} AND number <= ("
            f" SELECT number FROM tables WHERE closed = {PARKED}"
            " ORDER BY number DESC LIMIT 1 OFFSET ?)",
            keep,
        )

    def table_reopened(self, table_id: str) -> None:
        self._write("UPDATE tables SET closed = 0 WHERE id = ?", table_id)

    def table_version(self, table_id: str, version: int) -> None:
        self._write("UPDATE tables SET version = ? WHERE id = ?", version, table_id)

    def guest(self, guest_id: str, name: str, keys: tuple[str, ...]) -> None:
        """A guest's name and the hashes of the tokens that resume it (`token_hash`)."""
        self._write(
            "INSERT OR REPLACE INTO guests (id, name, token_hash) VALUES (?, ?, ?)",
            guest_id, name, " ".join(keys),
        )  # fmt: skip

    def seat(
        self, table_id: str, seat: int, guest_id: str | None, computer: str | None = None,
        name: str | None = None,
    ) -> None:  # fmt: skip
        """Who holds a seat: a guest, a computer (`computer` its level, `name` its name),
        or a guest whose seat the computer plays at `computer` while they are away."""
        self._write(
            "INSERT OR REPLACE INTO seats (table_id, seat, guest_id, computer, name)"
            " VALUES (?, ?, ?, ?, ?)",
            table_id, seat, guest_id, computer, name,
        )  # fmt: skip

    def spectator(self, table_id: str, guest_id: str, watching: bool) -> None:
        """A guest starts (`watching`) or stops watching a table."""
        if watching:
            self._write(
                "INSERT OR REPLACE INTO spectators (table_id, guest_id) VALUES (?, ?)",
                table_id, guest_id,
            )  # fmt: skip
        else:
            self._write(
                "DELETE FROM spectators WHERE table_id = ? AND guest_id = ?", table_id, guest_id
            )

    def game_started(
        self, table_id: str, number: int, cut: tuple[tuple[tuple[int, int], ...], ...],
        deck: tuple[int, ...],
    ) -> None:  # fmt: skip
        self._write(
            "INSERT OR REPLACE INTO games (table_id, number, cut, deck) VALUES (?, ?, ?, ?)",
            table_id, number, json.dumps(cut), json.dumps(deck),
        )  # fmt: skip
        self._write("DELETE FROM actions WHERE table_id = ? AND game = ?", table_id, number)

    def action(
        self, table_id: str, game: int, n: int, seat: int, notation: str,
        action_id: int | None, version: int, reshuffles: list[tuple[int, ...]],
        stand_in: bool = False,
    ) -> None:  # fmt: skip
        self._write(
            "INSERT INTO actions (table_id, game, n, seat, action, action_id, version,"
            " reshuffles, stand_in) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            table_id, game, n, seat, notation, action_id, version,
            json.dumps(reshuffles) if reshuffles else None, stand_in,
        )  # fmt: skip
        # (The table's version is its last action's, or the last written by
        # `table_version`, whichever is greater: one statement less per move.)

    def game_finished(self, table_id: str, number: int) -> None:
        self._write(
            "UPDATE games SET finished = 1 WHERE table_id = ? AND number = ?", table_id, number
        )

    def game_recorded(self, table_id: str, number: int) -> None:
        self._write(
            "UPDATE games SET recorded = 1 WHERE table_id = ? AND number = ?", table_id, number
        )

    def unrecorded(self) -> list[tuple[str, int]]:
        """Finished games whose record file was not written (the server stopped first)."""
        return self._read(
            lambda: self._db.execute(
                "SELECT table_id, number FROM games WHERE finished = 1 AND recorded = 0"
            ).fetchall()
        )

    # ----- committing -------------------------------------------------------

    async def run(self) -> None:
        """Commit what was written, batch after batch, until cancelled."""
        while self.failed is None:
            await self._work.wait()
            self._work = trio.Event()
            batch, self._pending = self._pending, []
            epoch = self.epoch
            try:
                if self.full:
                    await trio.to_thread.run_sync(self._commit, batch)
                else:
                    self._commit(batch)
            except sqlite3.Error as err:
                self.failed = f"cannot write the journal {self.path}: {_why(err)}"
                log.critical("%s; stopping, so that no move is lost", self.failed)
                self.on_failure(self.failed)
            else:
                self.committed = epoch
                holding, self._holding = self._holding, set()
                for holder in holding:
                    if holder.release(epoch):
                        self._holding.add(holder)
            done, self._done = self._done, trio.Event()
            done.set()

    async def checkpoints(self, every: float = 5.0) -> None:
        """Move the write-ahead log into the database now and then, in a worker thread
        with a connection of its own, so no table waits on the disk sync it makes."""
        if self.path is None:
            return
        db = sqlite3.connect(str(self.path), check_same_thread=False)
        try:
            while True:
                await trio.sleep(every)
                try:
                    await trio.to_thread.run_sync(db.execute, "PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error as err:  # the commits report real trouble
                    log.warning("journal checkpoint failed: %s", _why(err))
        finally:
            db.close()

    def hold(self, holder: Holder) -> None:
        """`holder` has frames waiting for the next commit: it is released after it."""
        self._holding.add(holder)

    def _commit(self, batch: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._transaction():
            for sql, params in batch:
                self._db.execute(sql, params)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    async def durable(self, epoch: int) -> bool:
        """Wait until everything written by `epoch` is committed; False if it never
        will be (the journal failed: what depends on it must not be sent)."""
        while self.committed < epoch:
            if self.failed is not None:
                return False
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

    def table(self, table_id: str, game: int | None = None) -> SavedTable | None:
        """One table, closed or not, with game `game` (None: its latest)."""
        row = self._read(
            lambda: self._db.execute(f"{_TABLES} WHERE id = ?", (table_id,)).fetchone()
        )
        return None if row is None else self._read(lambda: self._table(row, game))

    def table_of(self, key: str) -> str | None:
        """The open table where the guest with token hash `key` holds a seat."""
        row = self._read(
            lambda: self._db.execute(
                "SELECT s.table_id FROM seats s JOIN guests g ON g.id = s.guest_id"
                f" JOIN tables t ON t.id = s.table_id WHERE t.closed IN (0, {PARKED})"
                " AND instr(' ' || g.token_hash || ' ', ' ' || ? || ' ') > 0"
                " ORDER BY t.number DESC LIMIT 1",
                (key,),
            ).fetchone()
        )
        return None if row is None else str(row[0])

    def _read(self, fn: Callable[[], _T]) -> _T:
        try:
            return fn()
        except (sqlite3.Error, ValueError, TypeError, KeyError) as err:
            raise JournalError(_corrupt(str(self.path), _why(err))) from None

    def _table(self, row: tuple[Any, ...], game: int | None) -> SavedTable:
        table_id, number, name, players, teams, hand, manual, takeover, version = row
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
        return SavedTable(
            table_id, number, name, players, teams, hand, bool(manual), takeover,
            version, seats, self._game(table_id, game), computers, handed, spectators,
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
            game.actions.append(
                SavedAction(
                    seat,
                    action,
                    action_id,
                    version,
                    json.loads(reshuffles or "[]"),
                    bool(stand_in),
                )  # fmt: skip
            )
        return game


_TABLES = (
    "SELECT id, number, name, players, teams, hand_size, manual_draw, takeover, version FROM tables"
)


def _set_up(db: sqlite3.Connection, version: int) -> None:
    """Create the schema in a new file, or bring one of an older `version` up to date:
    in one transaction, so a failure leaves the file as it was."""
    if version == 0:
        script = _SCHEMA
    else:
        script = "".join(_MIGRATIONS[v] for v in range(version + 1, SCHEMA_VERSION + 1))
    try:
        db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={SCHEMA_VERSION};\nCOMMIT;")
    except sqlite3.Error:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _why(err: BaseException) -> str:
    return str(err) or type(err).__name__


def _corrupt(where: str, why: str) -> str:
    return (
        f"the journal {where} is damaged ({why}). The games in it cannot be read, so the"
        " server does not start over them: move the file aside (keep it: it may be"
        " repairable with the sqlite3 tool's .recover), or start with another --data-dir."
    )
