"""A table's seats and who is at it: the state the table's steps change (table.py),
and what can be read of it (who is here or away, who plays each seat, the table as
the lobby's list and its members see it: `summary`, `view`).

Pure: nothing here changes the table or sends anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal, TypedDict

from sarja.protocol.messages import MatchScore, Rules, Seat, TableSummary, TableView

from .clocks import TurnClocks
from .effects import Effects
from .engine import Arrangement, Game
from .graces import Graces
from .guest import Guest
from .match import Match
from .play import Play
from .present import rules_of
from .refusal import Refusal
from .turns import Computer


class Seated:
    """The state of one table (see table.py for how it changes)."""

    def __init__(
        self,
        table_id: str,
        name: str,
        arrangement: Arrangement,
        takeover: str | None,
        fx: Effects,
        computers: list[Computer | None] | None = None,
        hand_over_after: float = 60.0,
        draw_grace: float = 8.0,
        turn_clock: int = 0,
    ) -> None:
        self.id = table_id
        self.name = name
        self.arrangement = arrangement
        self.takeover = takeover  # the level that stands in for an away player, if any
        self.hints = False  # its players may ask the coach (hints.py)
        self.fx = fx  # what each step asks of the world, for the caller to carry out
        players = arrangement.players
        self.seats: list[Guest | None] = [None] * players  # the people
        self.computers: list[Computer | None] = computers or [None] * players
        # The names of the people on the server (the lobby's): a computer seated here
        # is called as none of them is (table.py).
        self.people_on_server: Callable[[], Iterable[str]] = lambda: ()
        self.creator: Guest | None = None  # who made the table: it may seat computers
        # The hash of the creator's person key, kept when the guest is not (table.py).
        self.creator_person: str | None = None
        self.ready = self._computers_ready()
        self.spectators: list[Guest] = []
        # When the sweep first saw each full table's seat waiting on a player who is not
        # ready, and first saw the game with no player connected (lobby.sweep).
        self.unready_since: dict[int, float] = {}
        self.deserted_since: float | None = None
        self.play: Play | None = None  # the latest game, in play or over
        self.rematch: set[int] = set()
        self.match: Match | None = None  # a match's score, if the table plays one
        self.games_played = 0
        self.hand_over_after = hand_over_after
        self.now = 0.0  # the time of the step under way
        self.handed: dict[int, str] = {}  # away people's seats handed to the computer
        self.graces = Graces(hand_over_after, draw_grace)
        self.taken_over: set[int] = set()  # seats whose takeover the members were told
        self.clocks = TurnClocks(turn_clock)  # each person's time for a turn (clocks.py)
        # False once the lobby has parked or closed this table: a table is one object
        # for as long as it is in memory, and a dead one never plays or writes again
        # (a copy brought back from the journal is the table from then on).
        self.live = True

    def _computers_ready(self) -> list[bool]:
        return [c is not None for c in self.computers]

    # ----- what is known --------------------------------------------------

    @property
    def game(self) -> Game | None:
        return None if self.play is None else self.play.game

    @property
    def version(self) -> int:
        return 0 if self.play is None else self.play.version

    @property
    def acted_at(self) -> int:
        return 0 if self.play is None else self.play.acted_at

    @property
    def stand_ins(self) -> set[int]:
        return set() if self.play is None else self.play.stand_ins

    @property
    def started(self) -> bool:
        return self.play is not None

    @property
    def in_play(self) -> bool:
        return self.play is not None and self.play.game.outcome is None

    @property
    def between_games(self) -> bool:
        """A game of a match is over and the match goes on: the next game starts when
        every seat is ready."""
        over = self.play is not None and self.play.game.outcome is not None
        return over and self.match is not None and not self.match.over

    @property
    def match_goes_on(self) -> bool:
        """A match under way with no game in play: between two of its games, or
        waiting for someone to take a seat freed between them (the score stays the
        sides'). A seat whose player's connection is lost is kept for them meanwhile."""
        match = self.match
        return not self.in_play and match is not None and bool(match.games) and not match.over

    @property
    def empty(self) -> bool:
        """No person seated or watching (computers keep no table open)."""
        return not self.spectators and all(g is None for g in self.seats)

    @property
    def full(self) -> bool:
        return all(
            g is not None or c is not None for g, c in zip(self.seats, self.computers, strict=True)
        )

    @property
    def computers_may_play(self) -> bool:
        """Whether the computer may play or advise here: a computer seat, a stand-in
        level, a turn clock (its run-outs are the computer's), or hints (searched as a
        computer's moves are). Such tables count against their address (guards.py)."""
        return any(self.computers) or self.takeover is not None or self.clocks.on or self.hints

    @property
    def abandoned(self) -> bool:
        """No game in play, no one watching, and no seated player connected."""
        return not self.in_play and not self.spectators and not self._anyone_here()

    @property
    def left_by_all(self) -> bool:
        """A game in play that none of its players is connected to."""
        return self.in_play and not self._anyone_here()

    def seated_here(self, seat: int) -> Guest | None:
        """The guest in `seat` if they are at this table and connected now."""
        g = self.seats[seat]
        return g if g is not None and g.table is self and g.connected else None

    def _anyone_here(self) -> bool:
        """Whether some seated player is at this table and connected now."""
        return any(self.seated_here(seat) is not None for seat in range(len(self.seats)))

    def _here(self) -> list[Guest | None]:
        """Per seat, its guest if they are at this table and connected now."""
        return [
            g if g is not None and g.table is self and g.outbox is not None else None
            for g in self.seats
        ]

    def members(self) -> list[Guest]:
        """Everyone who gets this table's messages now."""
        return [g for g in self.seats if g is not None and g.table is self] + self.spectators

    def _players_here(self) -> list[Guest]:
        return [g for g in self.seats if g is not None and g.table is self]

    def names(self) -> list[str]:
        return [
            g.name if g else c.name if c else f"Seat {i + 1}"
            for i, (g, c) in enumerate(zip(self.seats, self.computers, strict=True))
        ]

    def names_here(self, but: Guest) -> list[str]:
        """The names of the seated (computers too) and the watching, but `but`'s."""
        seated = [
            name
            for name, g, c in zip(self.names(), self.seats, self.computers, strict=True)
            if (g is not None and g is not but) or c is not None
        ]
        return seated + [g.name for g in self.spectators if g is not but]

    def people_names(self, but: Guest) -> list[str]:
        """The names of the people seated (away too) and watching, but `but`'s."""
        seated = [g.name for g in self.seats if g is not None and g is not but]
        return seated + [g.name for g in self.spectators if g is not but]

    def away(self) -> list[bool]:
        """Per seat, whether it is a person's seat with the person not here."""
        return [
            c is None and (g is None or not g.connected or g.table is not self)
            for g, c in zip(self.seats, self.computers, strict=True)
        ]

    def stood_in(self) -> list[bool]:
        """Per seat, whether the stand-in may play it: a person's seat whose person has
        been away the whole grace (`graces`)."""
        now, graces = self.now, self.graces
        return [a and now >= graces.stand_in_from(s, now) for s, a in enumerate(self.away())]

    def level_for(self, seat: int, due: list[bool] | None = None) -> str | None:
        """The level of the computer that plays `seat` now, if one does (`due`: the
        seats `stood_in` now, if known)."""
        computer = self.computers[seat]
        if computer is not None:
            return computer.level
        level = self.handed.get(seat)
        if level is not None:
            return level
        if seat in self.clocks.timed_out and self.in_play:
            return self.stand_in_level  # this one turn: the person's clock ran out
        if self.takeover is None or not self.in_play:
            return None
        return self.takeover if (self.stood_in() if due is None else due)[seat] else None

    def last_id(self, seat: int | None) -> int | None:
        """The highest action id accepted for `seat` in this game, if any."""
        return None if seat is None or self.play is None else self.play.last_id(seat)

    @property
    def stand_in_level(self) -> str:
        """The level that plays a person's seat handed over or out of time."""
        return self.takeover or "medium"

    @property
    def computer_takeover(self) -> str | Literal[False]:
        """`takeover` as the wire says it: a level, or false."""
        return self.takeover or False

    def summary(self) -> TableSummary:
        return summary(self)

    def view_for(self, guest: Guest) -> TableView:
        return view(self, guest.seat if guest.table is self else None, self.made_by(guest))

    def made_by(self, guest: Guest) -> bool:
        """Whether `guest` is the table's creator: its guest, or the same person (the
        person key of its hello), so a creator whose link dropped in the waiting room,
        which frees the seat and forgets the guest and its token, is it again; and
        after a restart, when the journal no longer keeps the creator's guest (it went
        back to the lobby, or came back as a new guest), by the key's hash it keeps
        (`made` keeps the creator's own, so the creator guest's need not be asked)."""
        if self.creator is not None and guest is self.creator:
            return True
        return guest.person is not None and guest.person == self.creator_person

    def _check_seat(self, seat: int) -> None:
        if seat >= self.arrangement.players:
            raise Refusal("no_such_seat", f"This table has {self.arrangement.players} seats.")

    def _taken(self, seat: int) -> str:
        computer = self.computers[seat]
        if computer is not None:
            return f"Seat {seat + 1} is {computer.name}'s, a computer player's."
        return f"Seat {seat + 1} is taken."

    def squatters(self, now: float, patience: float) -> list[Guest]:
        """The guests who hold up a full waiting table by never being ready (a waiting
        room, or a match between its games: connected or not), and, while a match waits
        for someone to take a seat freed between games, those whose seat is kept while
        they are gone."""
        waiting = self.full and (not self.started or self.between_games)
        if not waiting and not self.match_goes_on:
            self.unready_since.clear()
            return []
        late = []
        for seat, guest in enumerate(self.seats):
            if guest is None or self.ready[seat] or not waiting and self.seated_here(seat):
                self.unready_since.pop(seat, None)
                continue
            since = self.unready_since.setdefault(seat, now)
            if now - since > patience:
                late.append(guest)
        return late

    def deserted(self, now: float, patience: float) -> bool:
        """True for a game in play whose players have all been gone for a while."""
        if not self.left_by_all:
            self.deserted_since = None
            return False
        if self.deserted_since is None:
            self.deserted_since = now
        return now - self.deserted_since > patience


class _Shared(TypedDict):
    """What a table's line in the list and its view both say about it."""

    id: str
    name: str
    players: int
    teams: int
    spectators: int
    started: bool
    rules: Rules
    computer_takeover: str | Literal[False]
    match: MatchScore | None
    turn_clock: int


def _shared(table: Seated) -> _Shared:
    arrangement = table.arrangement
    return {
        "id": table.id,
        "name": table.name,
        "players": arrangement.players,
        "teams": arrangement.sides,
        "spectators": len(table.spectators),
        "started": table.started,
        "rules": rules_of(arrangement),
        "computer_takeover": table.computer_takeover,
        "match": None if table.match is None else table.match.part(),
        "turn_clock": table.clocks.seconds,
    }


def _shown(table: Seated) -> list[str | None]:
    """Per seat, the name at it: a person's or a computer's (None: the seat is free)."""
    names = table.names()
    pairs = zip(table.seats, table.computers, strict=True)
    return [names[i] if g is not None or c is not None else None for i, (g, c) in enumerate(pairs)]


def summary(table: Seated) -> TableSummary:
    pairs = list(zip(table.seats, table.computers, strict=True))
    return TableSummary(
        **_shared(table),
        seated=tuple(_shown(table)),
        computers=tuple(c.level if c else g.computer if g else None for g, c in pairs)
        if any(table.computers) or any(g and g.computer for g in table.seats)
        else (),
        hints=table.hints,
        _trusted=True,
    )


def view(table: Seated, seat: int | None, creator: bool = False) -> TableView:
    """The table as `seat` (None: a spectator) sees it; `creator`: the member who
    sees it made the table (a client that started again knows it only so)."""
    away = table.away()
    due = table.stood_in() if table.in_play and table.takeover is not None else None
    shown = _shown(table)
    ready = table.ready
    return TableView(
        **_shared(table),
        seats=tuple(
            Seat(
                name=shown[i],
                ready=ready[i],
                away=g is not None and away[i],
                # A program's own level while it is there: away, the seat is played
                # by the server's stand-in or by no one, as a person's is.
                computer=table.level_for(i, due) or (g.computer if g and not away[i] else None),
                remote=g is not None and g.computer is not None,
                _trusted=True,
            )
            for i, g in enumerate(table.seats)
        ),
        seat=seat,
        rematch=tuple(sorted(table.rematch)),
        hints=table.hints,
        creator=creator,
        _trusted=True,
    )
