"""The standings as kept (server/standings_read.py), on their own: the evening lets go
of games as they age, forgetting takes a person out of every top and pair, and what is
kept as games are counted is what is read back from the journal at the next start."""

from __future__ import annotations

import sqlite3

from sarja.server.journal_schema import set_up
from sarja.server.rating import NEW
from sarja.server.standings import Counted, PersonGame, rows_of
from sarja.server.standings_read import StandingsBook


def line(person: str, n: int, at: float, side: int, outcome: str) -> Counted:
    game = PersonGame(person, f"t{n}", 1, at, person.upper(), side, outcome, 1, 0, 0, 4, 8.0)
    return Counted(game, None, NEW)


def test_the_evening_lets_go_of_games_as_they_age_and_all_time_keeps_them():
    book = StandingsBook(hours=1)
    book.counted([line("aa", 1, 1000.0, 0, "win"), line("bb", 1, 1000.0, 1, "loss")], 1000.0)
    book.counted([line("aa", 2, 2000.0, 0, "loss"), line("bb", 2, 2000.0, 1, "win")], 2000.0)
    at_first = book.standings(2000.0, "aa")
    assert [(s.name, s.games, s.wins) for s in at_first.evening] == [("AA", 2, 1), ("BB", 2, 1)]
    later = book.standings(1000.0 + 3600 + 1, "aa")  # the first game has left the evening
    assert sorted((s.name, s.games, s.wins) for s in later.evening) == [("AA", 1, 0), ("BB", 1, 1)]
    assert later.you is not None and later.you.games == 2 and later.you.move_ms == 2000
    assert book.standings(9999.0, None).evening == ()


def test_forgetting_takes_a_person_out_of_every_top_and_pair(tmp_path):
    book = StandingsBook()
    four = [("aa", 0, "win"), ("bb", 0, "win"), ("cc", 1, "loss"), ("dd", 1, "loss")]
    book.counted([line(p, 1, 50.0, side, o) for p, side, o in four], 50.0)
    got = book.standings(60.0, None)
    assert [(p.first, p.second, p.wins) for p in got.pairs] == [("AA", "BB", 1), ("CC", "DD", 0)]
    assert book.games_of("aa") == 1
    book.forget("aa")
    got = book.standings(60.0, "aa")
    assert [(p.first, p.second) for p in got.pairs] == [("CC", "DD")]
    assert "AA" not in {s.name for s in (*got.evening, *got.all_time)} and got.you is None
    # What the book keeps is what it reads back from the journal's rows.
    db = sqlite3.connect(":memory:")
    set_up(db, 0)
    for sql, params in rows_of([line(p, 1, 50.0, side, o) for p, side, o in four[1:]]):
        db.execute(sql, params)  # as the server writes them
    loaded = StandingsBook.load(db, 60.0)
    assert loaded.standings(60.0, "bb") == book.standings(60.0, "bb")
