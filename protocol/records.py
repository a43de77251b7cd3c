"""Records nested inside server messages: a seat, a player, the rules, an outcome."""

from typing import Any

from .base import Record, record
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
    sequence,
)
from .limits import (
    MAX_FIVES,
    MAX_HAND,
    MAX_NAME,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_SPECTATORS,
    MAX_TABLE_NAME,
    MAX_TEAMS,
    MIN_PLAYERS,
    MIN_TEAMS,
)

_set = object.__setattr__
Five = tuple[int, int, int, int]


def records(cls: type[Any], v: Any, name: str, lo: int, hi: int) -> tuple[Any, ...]:
    """An array of lo..hi records of `cls`, given as records (ours) or maps (decoded)."""
    v = sequence(v, name, lo, hi)
    if v and type(v[0]) is not cls:  # decoded maps; a mixed array fails the check below
        v = tuple(cls.from_wire(x) for x in v)
    for x in v:
        if type(x) is not cls:
            fail("bad_type", f"Field '{name}' must hold {cls.__name__.lower()} maps.")
    return v


def one(cls: type[Any], v: Any, name: str) -> Any:
    if type(v) is cls:
        return v
    if type(v) is dict:
        return cls.from_wire(v)
    return fail("bad_type", f"Field '{name}' must be a {cls.__name__.lower()} map.")


@record
class Rules(Record):
    """House rules in force; hand_size is the effective size, never nil here."""

    hand_size: int
    manual_draw: bool

    def __post_init__(self) -> None:
        integer(self.hand_size, "hand_size", 1, MAX_HAND)
        boolean(self.manual_draw, "manual_draw")


@record
class TableInfo(Record):
    """One line of the lobby's table list."""

    id: str
    name: str
    players: int
    teams: int
    seated: tuple[str | None, ...]  # a name or nil for each seat
    spectators: int
    started: bool
    rules: Rules
    computer_takeover: bool

    def __post_init__(self) -> None:
        ident(self.id, "id")
        _set(self, "name", label(self.name, "name", MAX_TABLE_NAME))
        integer(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        integer(self.teams, "teams", MIN_TEAMS, MAX_TEAMS)
        seated = sequence(self.seated, "seated", self.players, self.players)
        _set(
            self,
            "seated",
            tuple(None if s is None else label(s, "seated", MAX_NAME) for s in seated),
        )
        integer(self.spectators, "spectators", 0, MAX_SPECTATORS)
        boolean(self.started, "started")
        _set(self, "rules", one(Rules, self.rules, "rules"))
        boolean(self.computer_takeover, "computer_takeover")

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "players": self.players,
            "teams": self.teams,
            "seated": self.seated,
            "spectators": self.spectators,
            "started": self.started,
            "rules": self.rules.to_wire(),
            "computer_takeover": self.computer_takeover,
        }


@record
class Seat(Record):
    """A seat in the waiting room: who sits there (nil when empty), ready, away."""

    name: str | None
    ready: bool
    away: bool

    def __post_init__(self) -> None:
        if self.name is not None:
            _set(self, "name", label(self.name, "name", MAX_NAME))
        boolean(self.ready, "ready")
        boolean(self.away, "away")


@record
class Player(Record):
    """A seat during a game, as every seat sees it (the hand's size, never its cards)."""

    name: str
    side: int
    away: bool
    hand_size: int

    def __post_init__(self) -> None:
        _set(self, "name", label(self.name, "name", MAX_NAME))
        integer(self.side, "side", 0, MAX_TEAMS - 1)
        boolean(self.away, "away")
        integer(self.hand_size, "hand_size", 0, MAX_HAND)


@record
class Last(Record):
    """The last action taken, in notation."""

    seat: int
    action: str

    def __post_init__(self) -> None:
        integer(self.seat, "seat", 0, MAX_SEATS - 1)
        action(self.action, "action")


@record
class Choice(Record):
    """A cell where placing a chip makes a real choice of which fives form sequences."""

    cell: tuple[int, int]
    options: tuple[tuple[Five, ...], ...]  # each option: 1..4 fives

    def __post_init__(self) -> None:
        _set(self, "cell", cell(self.cell, "cell"))
        opts = sequence(self.options, "options", 1, MAX_OPTIONS)
        _set(self, "options", tuple(fives(o, "options", MAX_FIVES) for o in opts))
        if not all(self.options):
            fail("out_of_range", "Each option must hold from 1 to 4 fives.")


@record
class Outcome(Record):
    """How the game ended; `hands` reveals every seat's cards, only now it is over."""

    result: str  # "win" or "draw"
    side: int | None
    hands: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if choice_of(self.result, "result", ("win", "draw")) == "win":
            integer(self.side, "side", 0, MAX_TEAMS - 1)
        elif self.side is not None:
            fail("bad_type", "Field 'side' must be nil when the game is drawn.")
        opt_integer(self.side, "side", 0, MAX_TEAMS - 1)
        hands = sequence(self.hands, "hands", 0, MAX_SEATS)
        _set(self, "hands", tuple(cards(h, "hands", MAX_HAND) for h in hands))
