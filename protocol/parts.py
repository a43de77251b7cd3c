"""Parts nested inside server messages: a seat, a player, the rules, a result, an entry
of the history (the changes themselves are the vocabulary's: changes.py, change_wire.py)."""

from collections.abc import Sequence
from dataclasses import field
from typing import Any, Literal, TypeVar

from .base import WireMap, wire
from .cards import FiveEnds
from .change_wire import changes_of
from .changes import Change
from .fields import (
    action,
    boolean,
    cards,
    cell,
    choice_of,
    fail,
    fives,
    ident,
    integer,
    label,
    opt_integer,
    opt_level,
    seat_levels,
    sequence,
    takeover,
    turn_clock,
)
from .limits import (
    MAX_CHANGES,
    MAX_FIVES,
    MAX_HAND,
    MAX_MATCH_GAMES,
    MAX_MATCH_TO,
    MAX_NAME,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_SPECTATORS,
    MAX_TABLE_NAME,
    MAX_TEAMS,
    MIN_MATCH_TO,
    MIN_PLAYERS,
    MIN_TEAMS,
)

P = TypeVar("P", bound=WireMap)
_set = object.__setattr__


def parts(cls: type[P], v: Any, name: str, lo: int, hi: int) -> tuple[P, ...]:
    """An array of lo..hi parts of `cls`, given as parts (ours) or maps (decoded)."""
    items = sequence(v, name, lo, hi)
    out = tuple(x if type(x) is cls else _from_map(cls, x, name) for x in items)
    return out


def one(cls: type[P], v: Any, name: str) -> P:
    return v if type(v) is cls else _from_map(cls, v, name)


def _from_map(cls: type[P], v: Any, name: str) -> P:
    if type(v) is not dict:
        fail("bad_type", f"Field '{name}' must hold {cls.__name__.lower()} maps.")
    # Parts travel only in server messages, so only a client decodes one: a field of it
    # the client does not know is a newer server's, left out (docs/protocol.md).
    return cls.from_wire(v, open=True)


@wire
class Rules(WireMap):
    """House rules in force; hand_size is the effective size, never nil here."""

    hand_size: int
    manual_draw: bool

    def validate(self) -> None:
        integer(self.hand_size, "hand_size", 1, MAX_HAND)
        boolean(self.manual_draw, "manual_draw")


@wire
class TableShape(WireMap):
    """One way a table may be set up: players, teams, and what follows from them."""

    players: int
    teams: int
    hand_size: int  # the usual hand for this shape; a table may choose another
    needed: int  # sequences to win

    def validate(self) -> None:
        integer(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        integer(self.teams, "teams", MIN_TEAMS, MAX_TEAMS)
        integer(self.hand_size, "hand_size", 1, MAX_HAND)
        integer(self.needed, "needed", 1, 2)


class MatchRule:
    """The one rule of a match, for any score kept as `to` and `games` (the server's
    match and a client's reading of the wire's score both use it)."""

    __slots__ = ()
    to: int  # first side to this many game wins takes the match
    games: Sequence[int | None]  # per game finished, the side that won it (None: drawn)

    @property
    def winner(self) -> int | None:
        """The side that reached `to` game wins with the last game, if one has."""
        games = self.games
        last = games[-1] if games else None
        return last if last is not None and games.count(last) >= self.to else None

    @property
    def over(self) -> bool:
        """Won, or as long as a match may last (it then ends without a winner)."""
        return self.winner is not None or len(self.games) >= MAX_MATCH_GAMES


@wire
class MatchScore(WireMap, MatchRule):
    """A match: first side to `to` game wins. `games` holds, per game of the match
    finished so far, the side that won it (nil: drawn, counting for nobody)."""

    to: int
    games: tuple[int | None, ...] = ()

    def validate(self) -> None:
        integer(self.to, "to", MIN_MATCH_TO, MAX_MATCH_TO)
        games = sequence(self.games, "games", 0, MAX_MATCH_GAMES)
        _set(self, "games", tuple(opt_integer(g, "games", 0, MAX_TEAMS - 1) for g in games))

    def wins(self, sides: int) -> list[int]:
        """Games won so far, per side."""
        return [sum(1 for g in self.games if g == s) for s in range(sides)]


def table_name(table_id: str, name: str, players: int, teams: int) -> str:
    """Check what a table's line in the list and its view both open with (its id, its
    name, its shape), in that order; returns the name as kept."""
    ident(table_id, "id")
    kept = label(name, "name", MAX_TABLE_NAME)
    integer(players, "players", MIN_PLAYERS, MAX_PLAYERS)
    integer(teams, "teams", MIN_TEAMS, MAX_TEAMS)
    return kept


@wire
class TableSummary(WireMap):
    """One line of the lobby's table list."""

    id: str
    name: str
    players: int
    teams: int
    seated: tuple[str | None, ...]  # a name or nil for each seat
    spectators: int
    started: bool
    rules: Rules
    computer_takeover: str | Literal[False]  # a level, or false: no computer stands in
    computers: tuple[str | None, ...] = ()  # per seat a level (a computer) or nil
    match: MatchScore | None = None  # the table plays a match: its score so far
    turn_clock: int = 0  # seconds a person has for a turn; 0: no clock
    hints: bool = False  # its players may ask the coach (`ask_hint`)

    def validate(self) -> None:
        _set(self, "name", table_name(self.id, self.name, self.players, self.teams))
        seated = sequence(self.seated, "seated", self.players, self.players)
        _set(
            self,
            "seated",
            tuple(None if s is None else label(s, "seated", MAX_NAME) for s in seated),
        )
        integer(self.spectators, "spectators", 0, MAX_SPECTATORS)
        boolean(self.started, "started")
        _set(self, "rules", one(Rules, self.rules, "rules"))
        _set(self, "computer_takeover", takeover(self.computer_takeover, "computer_takeover"))
        if self.computers:
            _set(self, "computers", seat_levels(self.computers, "computers", self.players, True))
        if self.match is not None:
            _set(self, "match", one(MatchScore, self.match, "match"))
        turn_clock(self.turn_clock, "turn_clock")
        boolean(self.hints, "hints")


@wire
class Seat(WireMap):
    """A seat in the waiting room: who sits there (nil when empty), ready, away, the
    level of the computer that plays it, if one does, and whether its holder is a
    program on a connection of its own (`remote`: sarja-bot), not the server's."""

    name: str | None
    ready: bool
    away: bool
    computer: str | None = None
    remote: bool = False

    def validate(self) -> None:
        if self.name is not None:
            _set(self, "name", label(self.name, "name", MAX_NAME))
        boolean(self.ready, "ready")
        boolean(self.away, "away")
        opt_level(self.computer, "computer")
        boolean(self.remote, "remote")


@wire
class Player(WireMap):
    """A seat during a game, as every seat sees it (how many cards it holds, never which;
    on the wire `hand_size`)."""

    name: str
    side: int
    away: bool
    held: int = field(metadata={"wire": "hand_size"})

    def validate(self) -> None:
        _set(self, "name", label(self.name, "name", MAX_NAME))
        integer(self.side, "side", 0, MAX_TEAMS - 1)
        boolean(self.away, "away")
        integer(self.held, "hand_size", 0, MAX_HAND)


@wire
class Last(WireMap):
    """The last action that played, removed, exchanged or passed, in notation (without
    the fives it chose; manual draws are not counted); `stand_in`: the computer made it
    for the seat's person, as an update's `stand_in` says."""

    seat: int
    action: str
    stand_in: bool = False

    def validate(self) -> None:
        integer(self.seat, "seat", 0, MAX_SEATS - 1)
        action(self.action, "action")
        boolean(self.stand_in, "stand_in")


@wire
class Choice(WireMap):
    """A cell where placing a chip makes a real choice of which fives form sequences."""

    cell: int
    options: tuple[tuple[FiveEnds, ...], ...]  # each option: 1..4 fives; the first is the default

    def validate(self) -> None:
        cell(self.cell, "cell")
        opts = sequence(self.options, "options", 2, MAX_OPTIONS)
        _set(self, "options", tuple(fives(o, "options", MAX_FIVES) for o in opts))
        if not all(self.options):
            fail("out_of_range", "Each option must hold from 1 to 4 fives.")


@wire
class Result(WireMap):
    """How the game ended; `hands` reveals every seat's cards, only now it is over."""

    result: str  # "win" or "draw"
    side: int | None
    hands: tuple[tuple[str, ...], ...]

    def validate(self) -> None:
        if choice_of(self.result, "result", ("win", "draw")) == "win":
            integer(self.side, "side", 0, MAX_TEAMS - 1)
        elif self.side is not None:
            fail("bad_type", "Field 'side' must be nil when the game is drawn.")
        hands = sequence(self.hands, "hands", MIN_PLAYERS, MAX_SEATS)
        _set(self, "hands", tuple(cards(h, "hands", MAX_HAND) for h in hands))


@wire
class Entry(WireMap):
    """One past change to the game, as its update told it: the version it led to, its
    changes, and whether the computer made the action for an away person."""

    version: int
    changes: tuple[Change, ...]
    stand_in: bool = False

    def validate(self) -> None:
        integer(self.version, "version")
        _set(self, "changes", changes_of(self.changes, "changes", 1, MAX_CHANGES))
        boolean(self.stand_in, "stand_in")
