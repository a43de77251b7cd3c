"""The standings as read back from the journal (standings.py writes them): the top of
the evening and of all time, the best pairs of teammates, one person's own line.

"The evening" is the games finished in the last `hours` hours (EVENING_HOURS unless
told): it survives a restart of the server in the middle of a LAN evening, and the
host's `sarja-server standings` counts the same games as the lobby's screen. The
rating shown is the person's current one either way. Pure apart from the reads.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from sarja.protocol.limits import MAX_NAME, MAX_STANDINGS
from sarja.protocol.messages import Pair, Standing, Standings

from .rating import shown

EVENING_HOURS = 12


@dataclass(frozen=True)
class Line:
    """One person's figures over some games, with the key hash (for the host only)."""

    person: str
    standing: Standing
    score: float  # the rating shown, unrounded, to sort by


# A game counts in a person's games, wins, losses and draws only if it counts for them
# (credit.py); their figures are their own moves' in every game.
_LINES = (
    "SELECT p.person, p.name, p.computer, p.mu, p.sigma, sum(g.counted),"
    " sum(g.counted AND g.outcome = 'win'), sum(g.counted AND g.outcome = 'loss'),"
    " sum(g.counted AND g.outcome = 'draw'), sum(g.sequences), sum(g.removed),"
    " sum(g.exchanged), sum(g.moves), sum(g.move_time)"
    " FROM person_games g JOIN people p ON p.person = g.person"
)


def lines(
    db: sqlite3.Connection, since: float | None = None, person: str | None = None
) -> list[Line]:
    """Everyone's line over the games finished since `since` (None: all time), or
    only `person`'s: unsorted."""
    where: list[str] = []
    params: list[object] = []
    if since is not None:
        where.append("g.finished_at >= ?")
        params.append(since)
    if person is not None:
        where.append("g.person = ?")
        params.append(person)
    sql = _LINES + (" WHERE " + " AND ".join(where) if where else "") + " GROUP BY p.person"
    out = []
    for key, name, computer, mu, sigma, games, w, lo, d, seq, rem, ex, moves, took in db.execute(
        sql, params
    ):
        score = shown((float(mu), float(sigma)))
        standing = Standing(
            name=str(name)[:MAX_NAME], games=games, wins=w, losses=lo, draws=d,
            sequences=seq, removed=rem, exchanged=ex,
            move_ms=round(1000 * took / moves) if moves else 0, rating=round(score * 10),
            computer=computer, _trusted=True,
        )  # fmt: skip
        out.append(Line(str(key), standing, score))
    return out


def all_time_order(line: Line) -> tuple[float, int, str]:
    """All time: by rating, then wins."""
    return (-line.score, -line.standing.wins, line.standing.name)


def evening_order(line: Line) -> tuple[int, int, float, str]:
    """The evening: by wins, then draws, then rating."""
    s = line.standing
    return (-s.wins, -s.draws, -line.score, s.name)


def top(db: sqlite3.Connection, since: float | None, n: int = MAX_STANDINGS) -> list[Line]:
    order = all_time_order if since is None else evening_order
    counted = [line for line in lines(db, since) if line.standing.games]
    return sorted(counted, key=order)[:n]


def pairs(db: sqlite3.Connection, n: int = MAX_STANDINGS) -> list[Pair]:
    """The people who played most often on one side, by wins together, then games."""
    rows = db.execute(
        "SELECT pa.name, pb.name, count(*) AS games, sum(a.outcome = 'win') AS wins"
        " FROM person_games a JOIN person_games b ON b.table_id = a.table_id"
        " AND b.game = a.game AND b.side = a.side AND b.person > a.person"
        " AND a.counted AND b.counted"
        " JOIN people pa ON pa.person = a.person JOIN people pb ON pb.person = b.person"
        " WHERE pa.computer IS NULL AND pb.computer IS NULL"
        " GROUP BY a.person, b.person ORDER BY wins DESC, games DESC, pa.name, pb.name LIMIT ?",
        (n,),
    )
    return [
        Pair(first=str(a)[:MAX_NAME], second=str(b)[:MAX_NAME], games=g, wins=w, _trusted=True)
        for a, b, g, w in rows
    ]


def standings(
    db: sqlite3.Connection, now: float, person: str | None, hours: int = EVENING_HOURS
) -> Standings:
    """The reply to `standings` for the person with key hash `person` (None: none)."""
    mine = lines(db, None, person) if person is not None else []
    return Standings(
        hours=hours,
        evening=tuple(line.standing for line in top(db, now - hours * 3600)),
        all_time=tuple(line.standing for line in top(db, None)),
        pairs=tuple(pairs(db)),
        you=mine[0].standing if mine else None,
        _trusted=True,
    )


def games_of(db: sqlite3.Connection, person: str) -> int:
    """How many games the person is counted in (what forgetting them removes)."""
    row = db.execute("SELECT count(*) FROM person_games WHERE person = ?", (person,)).fetchone()
    return int(row[0])
