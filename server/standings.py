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
with everyone's new rating (rating.py) in `people`. Pure apart from reading the file
it is given: rows out, no trio. Reading the standings back: standings_read.py.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from sarja.protocol.changes import Change, Exchanged, Removed, SequenceMade

from .journal_rows import Row
from .journal_saved import SavedAction, SavedTable, replay_game
from .rating import NEW, Skill, rate

COMPUTER = "computer:"  # the person key of a computer level: COMPUTER + level


@dataclass
class Figures:
    """One seat's figures in one game."""

    sequences: int = 0
    removed: int = 0
    exchanged: int = 0
    moves: int = 0  # moves timed: the seat's own, after the first move of the game
    move_time: float = 0.0  # seconds, together


@dataclass(frozen=True)
class Sitter:
    """Who held a seat as the game ended: `key` is the person (None: counts for no one)."""

    seat: int
    key: str | None
    name: str
    computer: str | None


def count(saved: SavedTable, times: Sequence[float | None]) -> tuple[list[Figures], int | None]:
    """Each seat's figures in the saved game, replayed (`times`, when each action was
    made, in order), and the winning side (None: a draw). A move's time runs from the
    action before it; a stand-in's moves are the computer's, not the person's."""
    assert saved.game is not None
    figures = [Figures() for _ in range(saved.players)]
    last: list[float | None] = [None]
    step = iter(times)

    def each(action: SavedAction, changes: list[Change]) -> None:
        at = next(step, None)
        mine = figures[action.seat]
        for change in changes:
            match change:
                case SequenceMade(seat=seat, fives=fives):
                    figures[seat].sequences += len(fives)
                case Removed(seat=seat):
                    figures[seat].removed += 1
                case Exchanged(seat=seat):
                    figures[seat].exchanged += 1
        before = last[0]
        if not action.stand_in and at is not None and before is not None:
            mine.moves += 1
            mine.move_time += max(0.0, at - before)
        if at is not None:
            last[0] = at

    game = replay_game(saved.arrangement(), saved.game, each=each)
    outcome = game.outcome
    winner = None if outcome is None or outcome.result != "win" else outcome.side
    return figures, winner


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
    """One person's line of one finished game, as `person_games` keeps it."""

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


@dataclass(frozen=True, slots=True)
class Credit:
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


def credit(row: PersonGame) -> Credit:
    """What the game `row` tells of credits its person with: the one place that says
    so, for the standings kept as games end and rebuilt from the journal at start
    (standings_read.py), so a change here counts for games already kept too."""
    return Credit(
        games=1, wins=int(row.outcome == "win"), losses=int(row.outcome == "loss"),
        draws=int(row.outcome == "draw"), sequences=row.sequences, removed=row.removed,
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
    figures, winner = count(saved, times)
    arrangement = saved.arrangement()
    sides: list[list[Sitter]] = [[] for _ in range(arrangement.sides)]
    for s in seated:
        sides[arrangement.side_of(s.seat)].append(s)
    rated = rate([[_skill(db, s.key, fresh) for s in side] for side in sides], winner)
    finished_at = float(row[1] or 0.0)
    out: list[Counted] = []
    for side, (members, skills) in enumerate(zip(sides, rated, strict=True)):
        outcome = "draw" if winner is None else "win" if side == winner else "loss"
        for s, skill in zip(members, skills, strict=True):
            if s.key is None:
                continue
            fresh[s.key] = skill
            f = figures[s.seat]
            line = PersonGame(
                s.key, saved.id, number, finished_at, s.name, side, outcome, f.sequences,
                f.removed, f.exchanged, f.moves, f.move_time,
            )  # fmt: skip
            out.append(Counted(line, s.computer, skill))
    return out


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
    " outcome, sequences, removed, exchanged, moves, move_time)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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
