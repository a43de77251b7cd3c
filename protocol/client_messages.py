"""Messages a client sends (ping and pong go both ways and live here too)."""

from typing import Literal

from .base import WireMap, wire
from .cards import FiveEnds
from .fields import (
    TOKEN_RE,
    boolean,
    card,
    cell,
    fail,
    fives,
    ident,
    integer,
    opt_integer,
    opt_level,
    seat_levels,
    shown_label,
    takeover,
    text,
    turn_clock,
)
from .limits import (
    MAX_FIVES,
    MAX_HAND,
    MAX_MATCH_TO,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_TABLE_NAME,
    MAX_TEAMS,
    MIN_MATCH_TO,
    MIN_PLAYERS,
    MIN_TEAMS,
)

_set = object.__setattr__


@wire
class Hello(WireMap):
    """The first message: who we are, which protocol we speak, and how to resume."""

    TYPE = "hello"
    version: int
    name: str
    resume: str | None = None
    computer: str | None = None  # a computer player speaks here, at this level
    # The client's secret key for this person at this server: who they are for the
    # standings, whatever name they type (the server keeps only its hash).
    person: str | None = None

    def validate(self) -> None:
        integer(self.version, "version")
        _set(self, "name", shown_label(self.name, "name", MAX_NAME))
        if self.resume is not None:
            ident(self.resume, "resume", TOKEN_RE)
        opt_level(self.computer, "computer")
        if self.person is not None:
            ident(self.person, "person", TOKEN_RE)


@wire
class Resume(WireMap):
    """Take back the seat a token holds, from the lobby: a client that keys its tokens
    by the server's `server_id` learns which token to use only from `welcome`."""

    TYPE = "resume"
    token: str

    def validate(self) -> None:
        ident(self.token, "token", TOKEN_RE)


@wire
class Ping(WireMap):
    TYPE = "ping"
    n: int

    def validate(self) -> None:
        integer(self.n, "n")


@wire
class Pong(WireMap):
    TYPE = "pong"
    n: int

    def validate(self) -> None:
        integer(self.n, "n")


@wire
class ListTables(WireMap):
    TYPE = "list_tables"


@wire
class CreateTable(WireMap):
    """Arrangement legality (e.g. 5 players) is the engine's call; here only ranges.

    `computers[i]` makes seat i a computer player at that level (nil: a person's seat);
    at least one seat is left for a person, the creator's. `computer_takeover` is the
    level of the computer that plays an absent player's seat, or false for none.
    `turn_clock`: the seconds each person has for a turn (0: no clock)."""

    TYPE = "create_table"
    name: str
    players: int
    teams: int
    hand_size: int | None = None
    manual_draw: bool = False
    computers: tuple[str | None, ...] = ()
    computer_takeover: str | Literal[False] = False
    hints: bool = False  # players may ask the coach for a hint (`ask_hint`)
    match_to: int | None = None  # a match: first side to this many game wins (nil: one game)
    turn_clock: int = 0

    def validate(self) -> None:
        _set(self, "name", shown_label(self.name, "name", MAX_TABLE_NAME))
        integer(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        integer(self.teams, "teams", MIN_TEAMS, MAX_TEAMS)
        opt_integer(self.hand_size, "hand_size", 1, MAX_HAND)
        boolean(self.manual_draw, "manual_draw")
        computers = seat_levels(self.computers, "computers", self.players, exact=False)
        if len(computers) == self.players and None not in computers:
            fail("bad_format", "Field 'computers' must leave a seat for a person (nil).")
        _set(self, "computers", computers)
        _set(self, "computer_takeover", takeover(self.computer_takeover, "computer_takeover"))
        boolean(self.hints, "hints")
        opt_integer(self.match_to, "match_to", MIN_MATCH_TO, MAX_MATCH_TO)
        turn_clock(self.turn_clock, "turn_clock")


@wire
class Join(WireMap):
    TYPE = "join"
    table: str
    seat: int | None = None
    side: int | None = None

    def validate(self) -> None:
        ident(self.table, "table")
        opt_integer(self.seat, "seat", 0, MAX_SEATS - 1)
        opt_integer(self.side, "side", 0, MAX_TEAMS - 1)


@wire
class Spectate(WireMap):
    TYPE = "spectate"
    table: str

    def validate(self) -> None:
        ident(self.table, "table")


@wire
class Sit(WireMap):
    """Take or change seat; seat i plays for side i % sides."""

    TYPE = "sit"
    seat: int

    def validate(self) -> None:
        integer(self.seat, "seat", 0, MAX_SEATS - 1)


@wire
class Ready(WireMap):
    TYPE = "ready"
    ready: bool

    def validate(self) -> None:
        boolean(self.ready, "ready")


@wire
class Leave(WireMap):
    TYPE = "leave"


@wire
class HandOver(WireMap):
    """Let the computer play an away player's seat until they come back."""

    TYPE = "hand_over"
    seat: int

    def validate(self) -> None:
        integer(self.seat, "seat", 0, MAX_SEATS - 1)


@wire
class SeatComputer(WireMap):
    """The table's creator, in the waiting room: a computer player at `level` takes
    the free seat `seat`, or (`level` nil) the computer's seat `seat` is free again."""

    TYPE = "seat_computer"
    seat: int
    level: str | None = None

    def validate(self) -> None:
        integer(self.seat, "seat", 0, MAX_SEATS - 1)
        opt_level(self.level, "level")


@wire
class Rematch(WireMap):
    TYPE = "rematch"


@wire
class Sync(WireMap):
    """Ask for a fresh snapshot (after a gap in the updates' versions)."""

    TYPE = "sync"


@wire
class AskHistory(WireMap):
    """Ask for one page of the game's history: its entries after version `after`,
    oldest first (answered with `history`; `more` says whether to ask again)."""

    TYPE = "history"
    after: int = 0

    def validate(self) -> None:
        integer(self.after, "after")


@wire
class Chat(WireMap):
    TYPE = "chat"
    text: str

    def validate(self) -> None:
        text(self.text, "text")


@wire
class AskStandings(WireMap):
    """Ask for the standings (answered with `standings`), from the lobby."""

    TYPE = "standings"


@wire
class Forget(WireMap):
    """Forget the person this connection's `hello` named: their standing, their
    figures and their rating (answered with `forgotten`), from the lobby."""

    TYPE = "forget"


# Game actions. `id` names the action for this seat in this game (see docs/protocol.md:
# the same id always means the same action); `version` is the version the client saw.
# Which card may do what is the rules' call, not the codec's: a one-eyed jack sent in
# `play` is refused by the game as `wrong_card`, with the game's sentence.


@wire
class Play(WireMap):
    """Place a chip: a card on one of its spaces, or a two-eyed jack on any open one."""

    TYPE = "play"
    id: int
    version: int
    card: str
    cell: int
    fives: tuple[FiveEnds, ...] = ()

    def validate(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")
        card(self.card, "card")
        cell(self.cell, "cell")
        _set(self, "fives", fives(self.fives, "fives", MAX_FIVES))


@wire
class Remove(WireMap):
    TYPE = "remove"
    id: int
    version: int
    card: str
    cell: int

    def validate(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")
        card(self.card, "card")
        cell(self.cell, "cell")


@wire
class Exchange(WireMap):
    """Trade a dead card (both spaces covered) for a new one, once per turn."""

    TYPE = "exchange"
    id: int
    version: int
    card: str

    def validate(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")
        card(self.card, "card")


@wire
class Draw(WireMap):
    TYPE = "draw"
    id: int
    version: int

    def validate(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")


@wire
class Pass(WireMap):
    TYPE = "pass"
    id: int
    version: int

    def validate(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")


@wire
class AskHint(WireMap):
    """Ask the coach which move to make now, at `version` (answered by `hint`)."""

    TYPE = "ask_hint"
    version: int

    def validate(self) -> None:
        integer(self.version, "version")


# The messages that act in the game (the engine's `Action` is the value they make).
ActionMessage = Play | Remove | Exchange | Draw | Pass
ACTION_TYPES = (Play, Remove, Exchange, Draw, Pass)
