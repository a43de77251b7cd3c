"""Standings that follow the person, not the name: what each finished game adds to them.

A person is the hash of the secret key their client sends in `hello` (a client keeps
one key per server and per name it plays under there): two people who type the same
name are two people, and one who changes name stays one. A computer level counts as
a person of its own ("computer:<level>"), so a game against it rates the people in it
and a practice result means something. A seat whose client sent no key counts for no
one (its rating in the game is a newcomer's).

As a game's record is written (app.py), and before compaction lets its actions go,
its figures are counted here from the kept actions (sequences made, chips removed,
dead cards exchanged, time per move) and kept as one `person_games` row per person,
with everyone's new rating (rating.py) in `people`. What a game gives each person (only
their own moves: never the computer's for them) is credit.py's to say. Pure apart from
reading the file it is given: rows out, no trio. The standings kept and read back:
standings_read.py.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sarja.protocol.changes import Change, Exchanged, Removed, SequenceMade

from .credit import Credit, Figures, Move, credit, credit_kept
from .journal_rows import Row
from .journal_saved import SavedAction, SavedTable, replay_game
from .rating import NEW, Skill, rate

COMPUTER = "computer:"  # the person key of a computer level: COMPUTER + level


@dataclass(frozen=True)
class Sitter:
    """Who held a seat as the game ended: `key` is the person (None: counts for no one)."""

    seat: int
    key: str | None
    name: str
    computer: str | None


def count(saved: SavedTable, times: Sequence[float | None]) -> tuple[list[Credit], int | None]:
    """What the saved game credits each seat's person with (credit.py), replayed
    (`times`, when each action was made, in order), and the winning side (None: a
    draw). A move's time runs from the action before it."""
    assert saved.game is not None
    moves: list[Move] = []
    last: list[float | None] = [None]
    step = iter(times)

    def each(action: SavedAction, changes: list[Change]) -> None:
        at = next(step, None)
        sequences = removed = exchanged = 0
        for change in changes:
            match change:
                case SequenceMade(fives=fives):
                    sequences += len(fives)
                case Removed():
                    removed += 1
                case Exchanged():
                    exchanged += 1
        before = last[0]
        took = None if at is None or before is None else at - before
        moves.append(Move(action.seat, action.stand_in, sequences, removed, exchanged, took))
        if at is not None:
            last[0] = at

    game = replay_game(saved.arrangement(), saved.game, each=each)
    outcome = game.outcome
    winner = None if outcome is None or outcome.result != "win" else outcome.side
    return credit(saved.players, moves), winner


def sitters(people: str | None, players: int) -> list[Sitter]:
    """Who held each seat, from the game's `people` column (journal_rows.py): one key
    counts once (a second seat of the same person, or of the same computer level,
    counts for no one)."""
    seen: set[str] = set()
    out = [Sitter(seat, None, f"Seat {seat + 1}", None) for seat in range(players)]
    for seat, person, computer, name, guest in json.loads(people or "[]"):
        if not 0 <= seat < players:
            continue
        level = None if guest else computer
        key = person if guest else None if computer is None else COMPUTER + str(computer)
        if key in seen:
            key = None
        if key is not None:
            seen.add(key)
        # A level's line is the level's, whatever names its computers had.
        shown = f"Computer ({level})" if level else str(name or f"Seat {seat + 1}")
        out[seat] = Sitter(seat, key, shown, level)
    return out


@dataclass(frozen=True, slots=True)
class PersonGame:
    """One person's line of one finished game, as `person_games` keeps it: the figures
    of their own moves (credit.py), `own` of the seat's `seat_moves` made by them, and
    whether the game `counted` for them."""

    person: str
    table_id: str
    game: int
    finished_at: float
    name: str
    side: int
    outcome: str  # "win", "loss" or "draw"
    sequences: int
    removed: int
    exchanged: int
    moves: int
    move_time: float
    own: int = 0
    seat_moves: int = 0
    counted: bool = True


@dataclass(frozen=True, slots=True)
class Added:
    """What one game adds to a person's line in the standings."""

    games: int
    wins: int
    losses: int
    draws: int
    sequences: int
    removed: int
    exchanged: int
    moves: int
    move_time: float


def added(row: PersonGame) -> Added:
    """What the game `row` tells of adds to its person's line: the one place that says
    so, for the standings kept as games end and rebuilt from the journal at start
    (standings_read.py), so a change here counts for games already kept too. The game
    counts in their games, wins, losses and draws only if it counted for them; its
    figures are their own moves' either way."""
    n = int(bool(row.counted))
    return Added(
        games=n, wins=n * (row.outcome == "win"), losses=n * (row.outcome == "loss"),
        draws=n * (row.outcome == "draw"), sequences=row.sequences, removed=row.removed,
        exchanged=row.exchanged, moves=row.moves, move_time=row.move_time,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Counted:
    """A person's line of a game just counted, with who they are now: their latest
    name, their level if a computer, and their new rating."""

    line: PersonGame
    computer: str | None
    skill: Skill


def game_rows(db: sqlite3.Connection, saved: SavedTable, fresh: dict[str, Skill]) -> list[Row]:
    """The rows a finished game adds to the standings (see `counted_game`)."""
    return rows_of(counted_game(db, saved, fresh))


def rows_of(counted: Sequence[Counted]) -> list[Row]:
    """The journal's rows for the lines `counted_game` counted."""
    rows: list[Row] = []
    for c in counted:
        g = c.line
        rows.append((_PERSON, (g.person, g.name, c.computer, c.skill[0], c.skill[1])))
        rows.append(
            (
                _PERSON_GAME,
                (
                    g.person,
                    g.table_id,
                    g.game,
                    g.finished_at,
                    g.name,
                    g.side,
                    g.outcome,
                    g.sequences,
                    g.removed,
                    g.exchanged,
                    g.moves,
                    g.move_time,
                    g.own,
                    g.seat_moves,
                    g.counted,
                ),
            )  # fmt: skip
        )
    return rows


def counted_game(
    db: sqlite3.Connection, saved: SavedTable, fresh: dict[str, Skill]
) -> list[Counted]:
    """What a finished game adds to the standings: read from the file `db` (the game,
    its actions' times, the ratings so far); `fresh` holds the ratings written in the
    same batch but not yet committed, and is brought up to date."""
    assert saved.game is not None
    number = saved.game.number
    row = db.execute(
        "SELECT people, finished_at FROM games WHERE table_id = ? AND number = ?",
        (saved.id, number),
    ).fetchone()
    if row is None:
        return []
    seated = sitters(row[0], saved.players)
    if not any(s.key is not None and not s.key.startswith(COMPUTER) for s in seated):
        return []  # no person in it: nothing to count for anyone
    times = [
        at
        for (at,) in db.execute(
            "SELECT at FROM actions WHERE table_id = ? AND game = ? ORDER BY n",
            (saved.id, number),
        )
    ]
    credits, winner = count(saved, times)
    arrangement = saved.arrangement()
    keys: list[str | None] = [s.key if credits[s.seat].counts else None for s in seated]
    sides = [[keys[seat] for seat in range(saved.players) if arrangement.side_of(seat) == side]
             for side in range(arrangement.sides)]  # fmt: skip
    skills = rate_game(sides, winner, lambda key: _skill(db, key, fresh))
    fresh.update(skills)
    finished_at = float(row[1] or 0.0)
    out: list[Counted] = []
    for s in seated:
        if s.key is None:
            continue
        side = arrangement.side_of(s.seat)
        outcome = "draw" if winner is None else "win" if side == winner else "loss"
        c = credits[s.seat]
        f = c.figures
        line = PersonGame(
            s.key, saved.id, number, finished_at, s.name, side, outcome, f.sequences,
            f.removed, f.exchanged, f.moves, f.move_time, f.own, f.seat, c.counts,
        )  # fmt: skip
        out.append(Counted(line, s.computer, skills.get(s.key) or _skill(db, s.key, fresh)))
    return out


def rate_game(
    sides: Sequence[Sequence[str | None]], winner: int | None, skill: Callable[[str], Skill]
) -> dict[str, Skill]:
    """The new ratings after a game: `sides` holds per side the key of each seat's
    person the game counts for (None: a seat it counts for no one, rated as a
    newcomer's); `skill` gives a person's rating before it. Nothing is rated unless the
    game counts for a person (a computer level is rated only against people)."""
    if not any(k is not None and not k.startswith(COMPUTER) for side in sides for k in side):
        return {}
    before = [[NEW if k is None else skill(k) for k in side] for side in sides]
    after = rate(before, winner)
    return {
        k: new
        for side, news in zip(sides, after, strict=True)
        for k, new in zip(side, news, strict=True)
        if k is not None
    }


def recount_kept(db: sqlite3.Connection) -> None:
    """Bring the standings of a journal written before it kept who made each move up to
    the rule (credit.py), once, as the file is upgraded: each game counted then gets the
    person's own moves (the timed ones) and their seat's (the game's moves by its
    seats), and every rating is worked out again, game by game, in the order they ended."""
    kept = db.execute(
        "SELECT g.person, g.table_id, g.game, g.sequences, g.removed, g.exchanged, g.moves,"
        " g.move_time, r.moves, r.players FROM person_games g LEFT JOIN results r"
        " ON r.table_id = g.table_id AND r.game = g.game WHERE g.own_moves IS NULL"
    ).fetchall()
    for person, table_id, game, seq, rem, ex, moves, took, game_moves, players in kept:
        figures = Figures(seq, rem, ex, moves, took)
        seat = game_moves / players if game_moves is not None and players else moves
        c = credit_kept(figures, seat)
        f = c.figures
        db.execute(
            "UPDATE person_games SET sequences = ?, removed = ?, exchanged = ?, own_moves = ?,"
            " seat_moves = ?, counted = ? WHERE person = ? AND table_id = ? AND game = ?",
            (f.sequences, f.removed, f.exchanged, f.own, f.seat, c.counts, person, table_id, game),
        )
    rerate(db)


def rerate(db: sqlite3.Connection) -> None:
    """Every rating worked out again from the games kept, in the order they ended."""
    skills: dict[str, Skill] = {}
    games = db.execute(
        "SELECT g.table_id, g.game, json_group_array(json_array(g.person, g.side, g.outcome,"
        " g.counted)), r.players, r.teams, r.result, r.side FROM person_games g"
        " LEFT JOIN results r ON r.table_id = g.table_id AND r.game = g.game"
        " GROUP BY g.table_id, g.game ORDER BY min(g.finished_at), g.table_id, g.game"
    ).fetchall()
    for _, _, rows, players, teams, result, won in games:
        members = json.loads(rows)
        if players and teams:
            sides = [[None] * (players // teams) for _ in range(teams)]
            winner = won if result == "win" else None
        else:  # no summary kept: the sides of the rows
            sides = [[None] for _ in range(1 + max(side for _, side, _, _ in members))]
            wins = [side for _, side, outcome, _ in members if outcome == "win"]
            winner = wins[0] if wins else None
        for key, side, _, counted in members:
            if not counted or not 0 <= side < len(sides):
                continue
            free = sides[side].index(None) if None in sides[side] else None
            if free is None:
                sides[side].append(key)
            else:
                sides[side][free] = key
        try:
            skills.update(rate_game(sides, winner, lambda key: skills.get(key, NEW)))
        except ValueError:
            continue  # not a game of sides that can be rated
    db.execute("UPDATE people SET mu = ?, sigma = ?", NEW)
    db.executemany(
        "UPDATE people SET mu = ?, sigma = ? WHERE person = ?",
        [(mu, sigma, key) for key, (mu, sigma) in skills.items()],
    )


def _skill(db: sqlite3.Connection, key: str | None, fresh: dict[str, Skill]) -> Skill:
    if key is None:
        return NEW
    if key in fresh:
        return fresh[key]
    row = db.execute("SELECT mu, sigma FROM people WHERE person = ?", (key,)).fetchone()
    return NEW if row is None else (float(row[0]), float(row[1]))


_PERSON = "INSERT OR REPLACE INTO people (person, name, computer, mu, sigma) VALUES (?, ?, ?, ?, ?)"
_PERSON_GAME = (
    "INSERT OR REPLACE INTO person_games (person, table_id, game, finished_at, name, side,"
    " outcome, sequences, removed, exchanged, moves, move_time, own_moves, seat_moves, counted)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


# A game's who-sat-where (journal_rows.py) with the person `?1` left out: their seat's
# entry keeps its place and name, and counts for no one, as a seat with no key does.
# Only the games the person's index names are read.
_FORGET_SITTER = (
    "UPDATE games SET people = (SELECT json_group_array(json(CASE"
    " WHEN json_extract(e.value, '$[1]') = ?1 THEN json_set(e.value, '$[1]', NULL)"
    " ELSE e.value END)) FROM json_each(games.people) AS e)"
    " WHERE (table_id, number) IN (SELECT table_id, game FROM game_people WHERE person = ?1)"
)


def forget_rows(key: str) -> list[Row]:
    """Everything kept about the person with key hash `key`: their standing, their
    rating, their figures, and the key's hash on their guests, the tables they made and
    the games they sat in (the latest game of a table keeps who sat where)."""
    return [
        ("DELETE FROM person_games WHERE person = ?", (key,)),
        ("DELETE FROM people WHERE person = ?", (key,)),
        ("UPDATE guests SET person = NULL WHERE person = ?", (key,)),
        ("UPDATE tables SET creator_person = NULL WHERE creator_person = ?", (key,)),
        (_FORGET_SITTER, (key,)),
        ("DELETE FROM game_people WHERE person = ?", (key,)),
    ]
