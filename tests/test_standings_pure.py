"""The rating and the standings' counting, without sockets: rating.py against
openskill's model by hand, and standings.py's figures from a kept game."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3

import pytest
from openskill.models import PlackettLuce

from sarja.protocol.changes import Exchanged, Removed, SequenceMade
from sarja.server.credit import Move, credit
from sarja.server.engine import Arrangement, Game
from sarja.server.journal_saved import SavedAction, SavedGame, SavedTable
from sarja.server.journal_schema import set_up
from sarja.server.rating import NEW, rate, shown
from sarja.server.standings import COMPUTER, count, game_rows, sitters


def test_a_win_between_two_teams_moves_both_members_alike():
    (w1, w2), (l1, l2) = rate([[NEW, NEW], [NEW, NEW]], winner=0)
    assert w1 == w2 and l1 == l2
    assert w1[0] > NEW[0] > l1[0] and w1[1] < NEW[1]
    assert shown(w1) > shown(NEW) == pytest.approx(0.0)


def test_three_sides_rank_the_winner_first_and_the_others_tied():
    m = PlackettLuce()
    expected = m.rate([[m.rating()], [m.rating()], [m.rating()]], ranks=[1.0, 0.0, 1.0])
    got = rate([[NEW], [NEW], [NEW]], winner=1)
    assert got == [[(r.mu, r.sigma)] for (r,) in expected]
    assert got[0] == got[2] and got[1][0][0] > got[0][0][0]


def test_a_draw_leaves_equals_equal_and_surer():
    (a,), (b,) = rate([[NEW], [NEW]], winner=None)
    assert a == b and a[0] == pytest.approx(NEW[0]) and a[1] < NEW[1]


@pytest.mark.parametrize("sides, winner", [([[NEW]], 0), ([[NEW], []], 0), ([[NEW], [NEW]], 2)])
def test_a_game_that_is_not_one_is_refused(sides, winner):
    with pytest.raises(ValueError):
        rate(sides, winner)


def test_a_person_counts_once_and_computers_by_level():
    people = json.dumps(
        [[0, "aa", None, "Aino", 1], [1, None, "hard", "Kone", 0], [2, "aa", None, "Aino", 1],
         [3, None, "hard", "Kone 2", 0], [5, "zz", None, "Far", 1]]
    )  # fmt: skip
    seated = sitters(people, 4)
    assert [s.key for s in seated] == ["aa", COMPUTER + "hard", None, None]
    assert seated[1].computer == "hard" and seated[0].computer is None


def test_a_handed_seat_counts_for_its_person_and_not_as_a_computer():
    (s,) = sitters(json.dumps([[0, "aa", "medium", "Aino", 1]]), 1)
    assert s.key == "aa" and s.computer is None


def played_game(seed: int, players: int, teams: int) -> tuple[SavedTable, list[dict]]:
    """A random game played to its end by the engine and kept as the journal keeps it,
    with each seat's figures tallied from the changes as they were made (not replayed):
    every third action a stand-in's (not the person's figure), the n-th action made at
    second n * (n + 1) / 2."""
    rng = random.Random(seed)
    arrangement = Arrangement.of(players, teams)
    game = Game.new(arrangement, rng)
    kept = SavedGame(1, [[list(p) for p in r] for r in game.cut], list(game.deck))
    tally = [dict(sequences=0, removed=0, exchanged=0, moves=0, move_time=0.0, own=0, seat=0)
             for _ in range(players)]  # fmt: skip
    while game.outcome is None:
        seat = game.pending_draw[0] if game.pending_draw else game.turn
        action = rng.choice(game.legal_actions(seat))
        before = len(game.reshuffles)
        n = len(kept.actions)
        stand_in = n % 3 == 2
        tally[seat]["seat"] += 1
        tally[seat]["own"] += not stand_in
        for change in game.apply(seat, action):
            if stand_in:
                continue
            if isinstance(change, SequenceMade):
                tally[change.seat]["sequences"] += len(change.fives)
            elif isinstance(change, Removed):
                tally[change.seat]["removed"] += 1
            elif isinstance(change, Exchanged):
                tally[change.seat]["exchanged"] += 1
        if n > 0 and not stand_in:
            tally[seat]["moves"] += 1
            tally[seat]["move_time"] += n  # from n(n-1)/2 to n(n+1)/2
        reshuffles = [list(r) for r in game.reshuffles[before:]]
        kept.actions.append(SavedAction(seat, str(action), None, n + 1, reshuffles, stand_in))
    saved = SavedTable("t1", 1, "T", players, teams, arrangement.hand_size, False, None, 0,
                       [None] * players, kept)  # fmt: skip
    assert game.outcome is not None
    return saved, tally


def times_of(saved: SavedTable) -> list[float]:
    assert saved.game is not None
    return [n * (n + 1) / 2 for n in range(len(saved.game.actions))]


@pytest.mark.parametrize("seed, players, teams", [(1, 2, 2), (2, 3, 3), (3, 4, 2)])
def test_the_figures_are_the_changes_as_they_were_made(seed, players, teams):
    saved, tally = played_game(seed, players, teams)
    credits, winner = count(saved, times_of(saved))
    assert [vars(c.figures) for c in credits] == tally
    # Three seats: every third action is the same seat's, all the computer's.
    assert [c.counts for c in credits] == [2 * t["own"] >= t["seat"] for t in tally]
    assert any(c.counts for c in credits)
    assert winner is not None and 0 <= winner < teams


def test_a_game_counts_for_its_people_rated_by_side():
    saved, tally = played_game(3, 4, 2)
    db = sqlite3.connect(":memory:")
    set_up(db, 0)
    people = [[0, "aa", None, "Aino", 1], [1, None, "easy", "Kone", 0],
              [2, "cc", None, "Cai", 1], [3, None, None, "Dana", 1]]  # fmt: skip
    db.execute(
        "INSERT INTO games (table_id, number, cut, deck, finished, finished_at, people)"
        " VALUES ('t1', 1, '[]', '[]', 1, 1000.0, ?)",
        (json.dumps(people),),
    )
    for n, at in enumerate(times_of(saved)):
        a = saved.game.actions[n]
        db.execute(
            "INSERT INTO actions (table_id, game, n, seat, action, version, at)"
            " VALUES ('t1', 1, ?, ?, ?, ?, ?)",
            (n, a.seat, a.action, n + 1, at),
        )
    fresh: dict = {}
    rows = game_rows(db, saved, fresh)
    _, winner = count(saved, times_of(saved))
    # Aino and Cai (seats 0 and 2) are partners; Dana sent no key: she counts for no one.
    assert set(fresh) == {"aa", COMPUTER + "easy", "cc"}
    expected = rate([[NEW, NEW], [NEW, NEW]], winner)
    assert fresh["aa"] == fresh["cc"] == expected[0][0]
    assert fresh[COMPUTER + "easy"] == expected[1][0]
    for sql, params in rows:
        db.execute(sql, params)
    got = {
        p: (o, s, r, e, m)
        for p, o, s, r, e, m in db.execute(
            "SELECT person, outcome, sequences, removed, exchanged, moves FROM person_games"
        )
    }
    outcome = {0: "win" if winner == 0 else "loss", 1: "win" if winner == 1 else "loss"}
    for key, seat in (("aa", 0), (COMPUTER + "easy", 1), ("cc", 2)):
        t = tally[seat]
        assert got[key] == (outcome[seat % 2], t["sequences"], t["removed"], t["exchanged"],
                            t["moves"])  # fmt: skip
    # A game with computers only (and people with no key) counts for no one.
    people = [[0, None, None, "Aino", 1], [1, None, "easy", "Kone", 0]]
    db.execute("UPDATE games SET people = ?", (json.dumps(people),))
    assert game_rows(db, saved, {}) == []


def test_the_hosts_table_keeps_a_computers_line_in_its_columns():
    # "Computer (medium) (computer)" ran past the name column and shifted the figures.
    from sarja.protocol.standing import Standing
    from sarja.server.standings_cli import format_lines
    from sarja.server.standings_read import Line

    person = Standing(name="Aino", games=2, wins=1, losses=1, draws=0, sequences=1,
                      removed=0, exchanged=0, move_ms=900, rating=5)  # fmt: skip
    computer = Standing(name="Computer (medium)", games=2, wins=1, losses=1, draws=0,
                        sequences=1, removed=3, exchanged=0, move_ms=1000, rating=13,
                        computer="medium")  # fmt: skip
    head, *rows = format_lines(
        [Line("ab" * 20, person, 0.5), Line("computer:medium", computer, 1.3)]
    )
    at = head.index("games")  # the games, in their column
    assert [r[at : at + 5] for r in rows] == ["    2"] * 2, (head, rows)
    assert "(computer)" not in rows[1]


def test_the_computer_s_moves_are_no_one_s_and_half_the_seat_s_moves_make_a_game_count():
    moves = [
        Move(0, computer=True, sequences=2, removed=1, took=1.0),  # the stand-in's
        Move(1, computer=False, sequences=1, took=2.0),
        Move(0, computer=False, exchanged=1, took=3.0),
        Move(1, computer=False, removed=1, took=None),
        Move(2, computer=True, sequences=1, took=1.0),
        Move(2, computer=True, took=1.0),
        Move(2, computer=False, took=4.0),
    ]
    zero, one, two = credit(3, moves)
    assert vars(zero.figures) == dict(sequences=0, removed=0, exchanged=1, moves=1,
                                      move_time=3.0, own=1, seat=2)  # fmt: skip
    assert zero.counts  # one of two: half
    assert one.counts and (one.figures.sequences, one.figures.removed) == (1, 1)
    assert not two.counts and two.figures.sequences == 0 and two.figures.own == 1


def test_a_journal_counted_before_is_counted_again_on_its_next_start(tmp_path):
    # Berra's every move was the clock's stand-in, and the standings of the time gave him
    # the win, the sequences and the top rating; Aino played hers.
    from sarja.server.journal import FILE_NAME, Journal
    from sarja.server.standings_read import StandingsBook

    from .server_helpers import BEFORE_10

    path = tmp_path / FILE_NAME
    Journal(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(BEFORE_10 + "PRAGMA user_version = 9;")
        won = rate([[NEW], [NEW]], 0)
        db.executemany(
            "INSERT INTO people (person, name, computer, mu, sigma) VALUES (?, ?, NULL, ?, ?)",
            [("bb", "Berra", *won[0][0]), ("aa", "Aino", *won[1][0])],
        )
        db.execute(
            "INSERT INTO results (table_id, game, finished_at, table_name, players, teams,"
            " result, side, moves, seats) VALUES ('t1', 1, 1000.0, 'T', 2, 2, 'win', 0, 60, '[]')"
        )
        db.executemany(
            "INSERT INTO person_games (person, table_id, game, finished_at, name, side, outcome,"
            " sequences, removed, exchanged, moves, move_time) VALUES"
            " (?, 't1', 1, 1000.0, ?, ?, ?, ?, ?, 0, ?, ?)",
            [("bb", "Berra", 0, "win", 2, 3, 0, 0.0), ("aa", "Aino", 1, "loss", 1, 1, 29, 90.0)],
        )
        db.commit()
    journal = Journal(path)
    book = journal.read(lambda db: StandingsBook.load(db, 2000.0))
    told, mine = book.standings(2000.0, "bb"), book.standings(2000.0, "aa")
    journal.close()
    berra, aino = told.you, mine.you
    assert berra is not None and aino is not None
    assert (berra.games, berra.wins, berra.sequences, berra.removed) == (0, 0, 0, 0)
    assert (aino.games, aino.losses, aino.sequences, aino.removed) == (1, 1, 1, 1)
    assert [s.name for s in told.all_time] == ["Aino"]  # Berra played no game of his own
    # Aino's rating: rated against a newcomer (the seat counts for no one), not a winner.
    (_,), (after,) = rate([[NEW], [NEW]], 0)
    assert aino.rating == round(shown(after) * 10)
