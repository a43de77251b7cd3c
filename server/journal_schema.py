"""The journal's SQLite schema, the migrations that bring an older file up to date, and
compaction: what a table or game no longer needs is deleted, so the file stays small.

What is kept for ever is one `results` row per finished game (who sat where, how it
ended, the name of its record file): the record file is the game's archive. Everything
else is deleted once nothing can come back to it: a finished game's set-up and actions
once its record is written and a newer game started at its table (an open table keeps
its latest game, to show it when it comes back), and a closed table's every row (its
seats, its games, and the guests no other seat names) once its finished games are
recorded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping

SCHEMA_VERSION = 11
PARKED = 2  # `tables.closed` of a table kept for its players but not loaded at start

SCHEMA = """
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
    recorded INTEGER NOT NULL DEFAULT 0,  -- done with: its record file is written
    finished_at REAL,  -- when (Unix time)
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
    PRIMARY KEY (table_id, game, n)
);
"""

# What version 3 added beyond the columns in SCHEMA (a new file gets it too).
_V3 = """
-- The computer made the action for a person's seat (a stand-in's or a handed seat's).
ALTER TABLE actions ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
-- Who watches each table, to watch again after a restart.
CREATE TABLE spectators (
    table_id TEXT NOT NULL,
    guest_id TEXT NOT NULL,
    PRIMARY KEY (table_id, guest_id)
);
-- Each resume token's hash, as a key: a resume is one look-up, however much is kept.
CREATE TABLE guest_keys (key TEXT PRIMARY KEY, guest_id TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX guest_keys_by_guest ON guest_keys (guest_id);
CREATE INDEX seats_by_guest ON seats (guest_id);
CREATE TRIGGER guest_gone AFTER DELETE ON guests BEGIN
    DELETE FROM guest_keys WHERE guest_id = old.id;
END;
WITH RECURSIVE split(guest_id, rest, key) AS (
    SELECT id, token_hash || ' ', '' FROM guests
    UNION ALL
    SELECT guest_id, substr(rest, instr(rest, ' ') + 1), substr(rest, 1, instr(rest, ' ') - 1)
    FROM split WHERE rest != ''
)
INSERT OR REPLACE INTO guest_keys SELECT key, guest_id FROM split WHERE key != '';
-- What is kept of a finished game once its actions are deleted (see the docstring).
CREATE TABLE results (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    finished_at REAL,  -- Unix time
    table_name TEXT NOT NULL,
    players INTEGER NOT NULL,
    teams INTEGER NOT NULL,
    result TEXT NOT NULL,  -- "win" or "draw"
    side INTEGER,  -- the side that won
    moves INTEGER NOT NULL,  -- actions in the game
    seats TEXT NOT NULL,  -- JSON, per seat: [guest id or null, name, computer level or null]
    record TEXT,  -- the record file's name in records/ (null: none was written)
    PRIMARY KEY (table_id, game)
);
"""

# What version 4 added: whether a table's creator allows hints from the coach (hints.py).
_HINTS = """
ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
"""

# Version 5: a table that plays a match keeps its score here, across restarts.
_MATCHES = """
CREATE TABLE matches (
    table_id TEXT PRIMARY KEY,
    match_to INTEGER NOT NULL,  -- first side to this many game wins
    number INTEGER NOT NULL,  -- which match at the table
    games TEXT NOT NULL  -- JSON, per finished game of the match: the winning side or null
);
CREATE TRIGGER match_gone AFTER DELETE ON tables BEGIN
    DELETE FROM matches WHERE table_id = old.id;
END;
"""


# Version 6: turn clocks (server/clocks.py). Each table's clock, in seconds (0: none),
# and per seat the clock last set (its deadline, Unix time; after a restart a person gets
# a fresh clock, the server having been gone meanwhile) and the clocks run out in a row.
_CLOCKS = """
ALTER TABLE tables ADD COLUMN turn_clock INTEGER NOT NULL DEFAULT 0;
CREATE TABLE turn_clocks (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    deadline REAL,  -- Unix time; null: no clock runs for the seat now
    runs INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
"""

# What version 7 adds: the people behind the names (standings.py). A person is known by
# the hash of the secret key their client sends in `hello`; each finished game leaves
# one `person_games` row per person (and computer level) in it, kept like `results`.
_PEOPLE = """
ALTER TABLE guests ADD COLUMN person TEXT;  -- the hash of the guest's person key
CREATE INDEX guests_by_person ON guests (person);
-- Per seat at the game's end, JSON: [[seat, person hash, computer level, name, guest?]].
ALTER TABLE games ADD COLUMN people TEXT;
ALTER TABLE actions ADD COLUMN at REAL;  -- when it was made (Unix time): time per move
CREATE TABLE people (
    person TEXT PRIMARY KEY,  -- the key's hash, or "computer:<level>"
    name TEXT NOT NULL,  -- the latest name seen
    computer TEXT,  -- the level, for a computer
    mu REAL NOT NULL,  -- the rating (rating.py)
    sigma REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE person_games (
    person TEXT NOT NULL,
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    name TEXT NOT NULL,  -- the name played under
    side INTEGER NOT NULL,
    outcome TEXT NOT NULL,  -- "win", "loss" or "draw"
    sequences INTEGER NOT NULL,  -- made by this person's plays
    removed INTEGER NOT NULL,  -- chips removed with one-eyed jacks
    exchanged INTEGER NOT NULL,  -- dead cards exchanged
    moves INTEGER NOT NULL,  -- timed moves (the person's own, not a stand-in's)
    move_time REAL NOT NULL,  -- seconds those moves took, together
    PRIMARY KEY (person, table_id, game)
) WITHOUT ROWID;
CREATE INDEX person_games_by_game ON person_games (table_id, game, side);
CREATE INDEX person_games_by_time ON person_games (finished_at);
"""

# Version 8: a table whose latest game is over and a seat freed since (table.py's
# `leave`) is a waiting room again; the journal keeps that game, so it says which. And
# who made each table: its creator may seat computers in the waiting room.
_WAITING = """
-- The number of the latest game when a seat freed after it made the table a waiting
-- room again (null: never); a table's game numbers only grow, so no reset is needed.
ALTER TABLE tables ADD COLUMN waiting_after INTEGER;
ALTER TABLE tables ADD COLUMN creator TEXT;  -- the id of the guest that made it
"""

# Version 9: the creator by the hash of their person key too (never the key), so that a
# creator whose guest the journal no longer keeps (back in the lobby, or back as a new
# guest after a dropped link) is still the creator after a restart.
_CREATOR_PERSON = """
ALTER TABLE tables ADD COLUMN creator_person TEXT;  -- the hash of the creator's person key
"""
# A version 8 file knows it only while the creator's guest is still kept.
_CREATOR_PERSON_KEPT = """
UPDATE tables SET creator_person = (SELECT person FROM guests WHERE guests.id = tables.creator)
    WHERE creator IS NOT NULL;
"""

# Version 10: a move the computer made for a person is not theirs (credit.py): per person
# and game, the moves they made and their seat's, and whether the game counts for them.
# The rows of an older file get theirs from what it kept (standings.py's `recount_kept`).
_CREDIT = """
ALTER TABLE person_games ADD COLUMN own_moves INTEGER;  -- null: not yet recounted
ALTER TABLE person_games ADD COLUMN seat_moves INTEGER;  -- made at the seat, by anyone
-- 0: the person made fewer than half of their seat's moves, and the game counts for no
-- one at that seat (its figures are still theirs)
ALTER TABLE person_games ADD COLUMN counted INTEGER NOT NULL DEFAULT 1;
"""


# Version 11: who sat in each game, by person, and the tables by their creator's person:
# forgetting a person (standings.py) finds what names them by index, never by reading
# every game or table.
_BY_PERSON = """
CREATE TABLE game_people (
    person TEXT NOT NULL,  -- the hash of a person key in the game's `people`
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    PRIMARY KEY (person, table_id, game)
) WITHOUT ROWID;
CREATE INDEX game_people_by_game ON game_people (table_id, game);
CREATE TRIGGER game_people_gone AFTER DELETE ON games BEGIN
    DELETE FROM game_people WHERE table_id = old.table_id AND game = old.number;
END;
CREATE INDEX tables_by_creator_person ON tables (creator_person);
"""
# A file of an older version: the games it keeps, indexed.
_BY_PERSON_KEPT = """
INSERT OR IGNORE INTO game_people SELECT json_extract(e.value, '$[1]'), g.table_id, g.number
    FROM games g, json_each(g.people) e
    WHERE g.people IS NOT NULL AND json_extract(e.value, '$[1]') IS NOT NULL;
"""


# What brings a journal of an older version up to this one, by the version it leads to.
MIGRATIONS = {
    2: """
ALTER TABLE tables ADD COLUMN takeover TEXT;
UPDATE tables SET takeover = 'medium' WHERE computer_takeover != 0;
ALTER TABLE seats ADD COLUMN computer TEXT;
ALTER TABLE seats ADD COLUMN name TEXT;
""",
    3: "ALTER TABLE games ADD COLUMN finished_at REAL;\n" + _V3,
    4: _HINTS,
    5: _MATCHES,
    6: _CLOCKS,
    7: _PEOPLE,
    8: _WAITING,
    9: _CREATOR_PERSON + _CREATOR_PERSON_KEPT,
    10: _CREDIT,
    11: _BY_PERSON + _BY_PERSON_KEPT,
}


def set_up(
    db: sqlite3.Connection,
    version: int,
    steps: Mapping[int, Callable[[sqlite3.Connection], None]] | None = None,
) -> None:
    """Create the schema in a new file, or bring one of an older `version` up to date:
    in one transaction, so a failure leaves the file as it was. `steps`: what the
    migration to a version does beyond its SQL, after all of it (a new file needs none)."""
    if version == 0:
        script = (
            SCHEMA + _V3 + _HINTS + _MATCHES + _CLOCKS + _PEOPLE + _WAITING + _CREATOR_PERSON
            + _CREDIT + _BY_PERSON
        )  # fmt: skip
        after = []
    else:
        versions = range(version + 1, SCHEMA_VERSION + 1)
        script = "".join(MIGRATIONS[v] for v in versions)
        after = [steps[v] for v in versions if steps and v in steps]
    try:
        db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={SCHEMA_VERSION};")
        for step in after:
            step(db)
        db.execute("COMMIT")
    except BaseException:  # a step's error too: the file stays as it was
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


# ----- compaction -------------------------------------------------------------------------

# A table none can come back to: closed, and no finished game of it waiting for its record.
_DONE = (
    "EXISTS (SELECT 1 FROM tables WHERE id = ?1 AND closed = 1) AND NOT EXISTS"
    " (SELECT 1 FROM games WHERE table_id = ?1 AND finished = 1 AND recorded = 0)"
)
_OLD_GAMES = (
    "SELECT number FROM games WHERE table_id = ?1 AND finished = 1 AND recorded = 1"
    " AND number < (SELECT max(number) FROM games WHERE table_id = ?1)"
)

# Statements (each with the table id as ?1) that delete what table ?1 no longer needs;
# safe to run at any moment, in any order with the writes that lead to them.
COMPACT = (
    f"DELETE FROM actions WHERE table_id = ?1 AND game IN ({_OLD_GAMES})",
    f"DELETE FROM games WHERE table_id = ?1 AND number IN ({_OLD_GAMES})",
    "DELETE FROM guests WHERE id IN (SELECT guest_id FROM seats WHERE table_id = ?1)"
    " AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.guest_id = guests.id"
    " AND s.table_id != ?1) AND NOT EXISTS (SELECT 1 FROM spectators w"
    f" WHERE w.guest_id = guests.id) AND {_DONE}",
    f"DELETE FROM actions WHERE table_id = ?1 AND {_DONE}",
    f"DELETE FROM seats WHERE table_id = ?1 AND {_DONE}",
    f"DELETE FROM games WHERE table_id = ?1 AND {_DONE}",
    f"DELETE FROM turn_clocks WHERE table_id = ?1 AND {_DONE}",
    "DELETE FROM tables WHERE id = ?1 AND closed = 1 AND NOT EXISTS"
    " (SELECT 1 FROM games WHERE table_id = ?1 AND finished = 1 AND recorded = 0)",
)

# Before seat ?1/?2 changes hands (to ?3, or none): its guest, if no other seat names them.
FORGET_GUEST = (
    "DELETE FROM guests WHERE id = (SELECT guest_id FROM seats WHERE table_id = ?1"
    " AND seat = ?2) AND id IS NOT ?3 AND NOT EXISTS (SELECT 1 FROM seats s"
    " WHERE s.guest_id = guests.id AND NOT (s.table_id = ?1 AND s.seat = ?2))"
    " AND NOT EXISTS (SELECT 1 FROM spectators w WHERE w.guest_id = guests.id)"
)


def compact_all(db: sqlite3.Connection) -> None:
    """Compact every table, and drop guests no seat names: once, as the file opens
    (a journal of an older version kept every row)."""
    ids = [row[0] for row in db.execute("SELECT id FROM tables")]
    db.execute("BEGIN")
    try:
        for table_id in ids:
            for sql in COMPACT:
                db.execute(sql, (table_id,))
        db.execute(
            "DELETE FROM spectators WHERE table_id NOT IN (SELECT id FROM tables WHERE closed != 1)"
        )
        db.execute(
            "DELETE FROM guests WHERE NOT EXISTS (SELECT 1 FROM seats WHERE guest_id = guests.id)"
            " AND NOT EXISTS (SELECT 1 FROM spectators WHERE guest_id = guests.id)"
        )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
