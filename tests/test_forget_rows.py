"""`forget` on a real journal file: no row keeps the hash of the person's key, the
latest game's list of who sat where included (it stays with an open table until the
table's next game or its end); the others' hashes stay."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from sarja.server import journal_rows as rows
from sarja.server.journal import FILE_NAME, Journal, token_hash
from sarja.server.standings import forget_rows, sitters


def cells(path: Path) -> list[str]:
    """Every text cell of every table in the file."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [
            str(cell)
            for name in names
            for row in db.execute(f"SELECT * FROM {name}")  # the file's own table names
            for cell in row
            if isinstance(cell, str)
        ]


def test_forget_leaves_the_key_s_hash_in_no_row(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    aino, bo = token_hash("a" * 40), token_hash("b" * 40)
    journal = Journal(path)
    journal.write(
        [
            *rows.table_opened("t1", 1, "Friday", 2, 2, 7, False, None),
            *rows.guest("g1", "Aino", ("k1",), aino),
            *rows.guest("g2", "Bo", ("k2",), bo),
            *rows.seat("t1", 0, "g1"),
            *rows.seat("t1", 1, "g2"),
            *rows.table_creator("t1", "g1", aino),
            *rows.game_started("t1", 1, (), (1, 2, 3)),
            *rows.game_finished("t1", 1),  # who sat where: Aino's hash, and Bo's
        ]
    )
    journal.close()
    assert any(aino in cell for cell in cells(path))
    journal = Journal(path)
    journal.write(forget_rows(aino))
    journal.close()
    kept = cells(path)
    assert not [cell for cell in kept if aino in cell]
    assert any(bo in cell for cell in kept)  # the others' stay, for their standings
    with contextlib.closing(sqlite3.connect(path)) as db:
        (people,) = db.execute("SELECT people FROM games").fetchone()
    # Aino's seat counts for no one now; Bo's is his still.
    assert [(s.seat, s.key, s.name) for s in sitters(people, 2)] == [
        (0, None, "Aino"),
        (1, bo, "Bo"),
    ]


def scanned(db: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> list[str]:
    """The journal's tables that SQLite would read whole to run `sql`."""
    plan = db.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
    tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return [
        detail
        for *_, detail in plan
        if detail.startswith("SCAN ")
        and detail.split()[1] in tables
        and "USING" not in detail  # fmt: skip
    ]


def test_forgetting_reads_what_names_the_person_by_index_and_no_whole_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / FILE_NAME
    Journal(path).close()
    aino = token_hash("a" * 40)
    with contextlib.closing(sqlite3.connect(path)) as db:
        for sql, params in forget_rows(aino):
            assert scanned(db, sql, params) == [], sql
