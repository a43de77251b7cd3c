"""The rating and the standings' counting, without sockets: rating.py against
openskill's model by hand, and standings.py's figures from a kept game."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from openskill.models import PlackettLuce

from sarja.protocol.changes import Exchanged, Removed, SequenceMade
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
    every third action a stand-in's, the n-th action made at second n * (n + 1) / 2."""
    rng = random.Random(seed)
    arrangement = Arrangement.of(players, teams)
    game = Game.new(arrangement, rng)
    kept = SavedGame(1, [[list(p) for p in r] for r in game.cut], list(game.deck))
    tally = [dict(sequences=0, removed=0, exchanged=0, moves=0, move_time=0.0)
             for _ in range(players)]  # fmt: skip
    while game.outcome is None:
        seat = game.pending_draw[0] if game.pending_draw else game.turn
        action = rng.choice(game.legal_actions(seat))
        before = len(game.reshuffles)
        n = len(kept.actions)
        stand_in = n % 3 == 2
        for change in game.apply(seat, action):
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
    figures, winner = count(saved, times_of(saved))
    assert [vars(f) for f in figures] == tally
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
