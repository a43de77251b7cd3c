"""The standings as kept: read from the journal once, as the server starts, then kept
up to date as each game is counted (standings.py writes it), so that answering
`standings` costs the same however many games the journal holds: the top of the
evening and of all time, the best pairs of teammates, one person's own line.

"The evening" is the games finished in the last `hours` hours (EVENING_HOURS unless
told): it survives a restart of the server in the middle of a LAN evening, and the
host's `sarja-server standings` counts the same games as the lobby's screen, through
the same `StandingsBook` and the same per-game credit (standings.py's `added`). The
rating shown is the person's current one either way.

What is kept: each person's name, level and rating; their figures over all time; their
evening's games, newest last (each person's own, so a game that leaves the evening
takes away exactly what it added); and each pair of teammates' games and wins. The
tops are sorted once each time something changes, not per request. Pure apart from
the reads in `load`.
"""

from __future__ import annotations

import bisect
import heapq
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field

from sarja.protocol.limits import MAX_NAME, MAX_STANDINGS
from sarja.protocol.messages import Pair, Standing, Standings

from .rating import Skill, shown
from .standings import COMPUTER, Added, Counted, PersonGame, added

EVENING_HOURS = 12


@dataclass(frozen=True)
class Line:
    """One person's figures over some games, with the key hash (for the host only)."""

    person: str
    standing: Standing
    score: float  # the rating shown, unrounded, to sort by


@dataclass
class Tally:
    """A person's figures summed over some games: `kept` the games, `games` those that
    counted for them."""

    kept: int = 0
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    sequences: int = 0
    removed: int = 0
    exchanged: int = 0
    moves: int = 0
    move_time: float = 0.0

    def add(self, c: Added) -> None:
        self.kept += 1
        self.games += c.games
        self.wins += c.wins
        self.losses += c.losses
        self.draws += c.draws
        self.sequences += c.sequences
        self.removed += c.removed
        self.exchanged += c.exchanged
        self.moves += c.moves
        self.move_time += c.move_time


@dataclass
class Person:
    name: str
    computer: str | None
    skill: Skill
    ever: Tally = field(default_factory=Tally)
    # The evening's games, oldest first: (finished at, what the game credits).
    recent: list[tuple[float, Added]] = field(default_factory=list)
    evening: Tally = field(default_factory=Tally)
    pairs: set[tuple[str, str]] = field(default_factory=set)


def all_time_order(line: Line) -> tuple[float, int, str]:
    """All time: by rating, then wins."""
    return (-line.score, -line.standing.wins, line.standing.name)


def evening_order(line: Line) -> tuple[int, int, float, str]:
    """The evening: by wins, then draws, then rating."""
    s = line.standing
    return (-s.wins, -s.draws, -line.score, s.name)


class StandingsBook:
    """Everyone's standings, kept (see the module's docstring)."""

    def __init__(self, hours: int = EVENING_HOURS) -> None:
        self.hours = hours
        self.people: dict[str, Person] = {}
        self._pairs: dict[tuple[str, str], list[int]] = {}  # (a, b), a < b: [games, wins]
        # Every evening game's (finished at, person), oldest first, to let go as they age.
        self._ageing: list[tuple[float, str]] = []
        self.changes = 0  # moves on with every change: the cached tops are for one value
        self._tops: (
            tuple[int, int, tuple[Line, ...], tuple[Line, ...], tuple[Pair, ...], Standings] | None
        )
        self._tops = None

    # ----- filling ---------------------------------------------------------------

    @classmethod
    def load(cls, db: sqlite3.Connection, now: float, hours: int = EVENING_HOURS) -> StandingsBook:
        """Everything the journal keeps, read once."""
        book = cls(hours)
        book.read(db, now)
        return book

    def read(self, db: sqlite3.Connection, now: float) -> None:
        """Add everything the journal `db` keeps (to an empty book)."""
        for person, name, computer, mu, sigma in db.execute(
            "SELECT person, name, computer, mu, sigma FROM people"
        ):
            self.people[str(person)] = Person(str(name), computer, (float(mu), float(sigma)))
        game: list[PersonGame] = []
        for row in db.execute(
            "SELECT person, table_id, game, finished_at, name, side, outcome, sequences,"
            " removed, exchanged, moves, move_time, own_moves, seat_moves, counted"
            " FROM person_games ORDER BY table_id, game"
        ):
            line = PersonGame(*row)
            if game and (game[0].table_id, game[0].game) != (line.table_id, line.game):
                self._add_game(game, now)
                game = []
            game.append(line)
        if game:
            self._add_game(game, now)

    def counted(self, counted: Iterable[Counted], now: float) -> None:
        """A game just counted (standings.py's `counted_game`): its people's lines."""
        game = []
        for c in counted:
            line = c.line
            person = self.people.get(line.person)
            if person is None:
                person = self.people[line.person] = Person(line.name, c.computer, c.skill)
            person.name, person.computer, person.skill = line.name, c.computer, c.skill
            game.append(line)
        self._add_game(game, now)

    def _add_game(self, lines: list[PersonGame], now: float) -> None:
        since = now - self.hours * 3600
        for line in lines:
            person = self.people.get(line.person)
            if person is None:  # a line with no person (the journal's join drops it too)
                continue
            got = added(line)
            person.ever.add(got)
            if line.finished_at >= since:
                bisect.insort(person.recent, (line.finished_at, got), key=_when)
                person.evening.add(got)
                heapq.heappush(self._ageing, (line.finished_at, line.person))
        # Teammates: people (not computers) on one side of a game that counted for both.
        people = sorted(
            (line.side, line.person, line.outcome)
            for line in lines
            if line.person in self.people and not line.person.startswith(COMPUTER) and line.counted
        )
        for i, (side, a, outcome) in enumerate(people):
            for other_side, b, _ in people[i + 1 :]:
                if other_side != side:
                    break
                pair = self._pairs.setdefault((a, b), [0, 0])
                pair[0] += 1
                pair[1] += outcome == "win"
                self.people[a].pairs.add((a, b))
                self.people[b].pairs.add((a, b))
        self.changes += 1

    def forget(self, person: str) -> None:
        """Nothing more of `person`: their lines, and the pairs they were in."""
        gone = self.people.pop(person, None)
        if gone is None:
            return
        for pair in gone.pairs:
            self._pairs.pop(pair, None)
            other = pair[1] if pair[0] == person else pair[0]
            if other in self.people:
                self.people[other].pairs.discard(pair)
        self.changes += 1  # (its entries in `_ageing` are passed over as they age)

    def _age(self, now: float) -> None:
        """Let go of the games that left the evening since the last look."""
        since = now - self.hours * 3600
        ageing = self._ageing
        touched: set[str] = set()
        while ageing and ageing[0][0] < since:
            _, key = heapq.heappop(ageing)
            person = self.people.get(key)
            if person is None:
                continue
            gone = bisect.bisect_left(person.recent, since, key=_when)
            if gone:
                del person.recent[:gone]
                touched.add(key)
        for key in touched:
            # Summed again rather than taken away, so no rounding is left behind.
            person = self.people[key]
            person.evening = Tally()
            for _, got in person.recent:
                person.evening.add(got)
        if touched:
            self.changes += 1

    # ----- reading ---------------------------------------------------------------

    def line(self, person: str, evening: bool = False) -> Line | None:
        p = self.people.get(person)
        if p is None:
            return None
        t = p.evening if evening else p.ever
        if not t.kept:
            return None
        score = shown(p.skill)
        standing = Standing(
            name=p.name[:MAX_NAME], games=t.games, wins=t.wins, losses=t.losses, draws=t.draws,
            sequences=t.sequences, removed=t.removed, exchanged=t.exchanged,
            move_ms=round(1000 * t.move_time / t.moves) if t.moves else 0,
            rating=round(score * 10), computer=p.computer, _trusted=True,
        )  # fmt: skip
        return Line(person, standing, score)

    def top(self, now: float, evening: bool, n: int = MAX_STANDINGS) -> list[Line]:
        """The first `n` of the evening (by wins) or of all time (by rating)."""
        self._age(now)
        lines = [
            line
            for key in self.people
            if (line := self.line(key, evening)) is not None and line.standing.games
        ]  # (a person none of whose games counted for them is in no top list)
        return heapq.nsmallest(n, lines, key=evening_order if evening else all_time_order)

    def pairs(self, n: int = MAX_STANDINGS) -> list[Pair]:
        """The people who played most often on one side, by wins together, then games."""
        people = self.people
        ranked = heapq.nsmallest(
            n,
            self._pairs.items(),
            key=lambda kv: (-kv[1][1], -kv[1][0], people[kv[0][0]].name, people[kv[0][1]].name),
        )
        return [
            Pair(
                first=people[a].name[:MAX_NAME],
                second=people[b].name[:MAX_NAME],
                games=g,
                wins=w,
                _trusted=True,
            )  # fmt: skip
            for (a, b), (g, w) in ranked
        ]

    def standings(self, now: float, person: str | None) -> Standings:
        """The reply to `standings` for the person with key hash `person` (None: none):
        the tops as sorted at the last change, and the person's own line."""
        self._age(now)
        tops = self._tops
        if tops is None or tops[0] != self.changes or tops[1] != self.hours:
            evening = tuple(self.top(now, True))
            ever = tuple(self.top(now, False))
            pairs = tuple(self.pairs())
            alone = Standings(
                hours=self.hours, evening=tuple(line.standing for line in evening),
                all_time=tuple(line.standing for line in ever), pairs=pairs, you=None,
                _trusted=True,
            )  # fmt: skip
            tops = self._tops = (self.changes, self.hours, evening, ever, pairs, alone)
        mine = None if person is None else self.line(person)
        if mine is None:
            return tops[5]  # the same object for everyone with no line: encoded once
        return Standings(
            hours=self.hours,
            evening=tuple(line.standing for line in tops[2]),
            all_time=tuple(line.standing for line in tops[3]),
            pairs=tops[4],
            you=None if mine is None else mine.standing,
            _trusted=True,
        )

    def games_of(self, person: str) -> int:
        """How many games the person is counted in (what forgetting them removes)."""
        p = self.people.get(person)
        return 0 if p is None else p.ever.games


def _when(entry: tuple[float, Added]) -> float:
    return entry[0]


def games_of(db: sqlite3.Connection, person: str) -> int:
    """How many games the journal counts the person in (the host's `forget`)."""
    row = db.execute("SELECT count(*) FROM person_games WHERE person = ?", (person,)).fetchone()
    return int(row[0])
