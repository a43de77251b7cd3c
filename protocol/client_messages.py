"""Messages a client sends (ping and pong go both ways and live here too)."""

from .base import Record, record
from .fields import (
    ONE_EYED,
    TOKEN_RE,
    boolean,
    card,
    cell,
    fail,
    fives,
    ident,
    integer,
    label,
    opt_integer,
    text,
)
from .limits import (
    MAX_FIVES,
    MAX_HAND,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_TABLE_NAME,
    MAX_TEAMS,
    MIN_PLAYERS,
    MIN_TEAMS,
)

_set = object.__setattr__


@record
class Hello(Record):
    """The first message: who we are, which protocol we speak, and how to resume."""

    TYPE = "hello"
    version: int
    name: str
    resume: str | None = None

    def __post_init__(self) -> None:
        integer(self.version, "version")
        _set(self, "name", label(self.name, "name", MAX_NAME))
        if self.resume is not None:
            ident(self.resume, "resume", TOKEN_RE)


@record
class Ping(Record):
    TYPE = "ping"
    n: int

    def __post_init__(self) -> None:
        integer(self.n, "n")


@record
class Pong(Record):
    TYPE = "pong"
    n: int

    def __post_init__(self) -> None:
        integer(self.n, "n")


@record
class ListTables(Record):
    TYPE = "list_tables"


@record
class CreateTable(Record):
    """Arrangement legality (e.g. 5 players) is the engine's call; here only ranges."""

    TYPE = "create_table"
    name: str
    players: int
    teams: int
    hand_size: int | None = None
    manual_draw: bool = False
    computer_takeover: bool = False

    def __post_init__(self) -> None:
        _set(self, "name", label(self.name, "name", MAX_TABLE_NAME))
        integer(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        integer(self.teams, "teams", MIN_TEAMS, MAX_TEAMS)
        opt_integer(self.hand_size, "hand_size", 1, MAX_HAND)
        boolean(self.manual_draw, "manual_draw")
        boolean(self.computer_takeover, "computer_takeover")


@record
class Join(Record):
    TYPE = "join"
    table: str
    seat: int | None = None
    side: int | None = None

    def __post_init__(self) -> None:
        ident(self.table, "table")
        opt_integer(self.seat, "seat", 0, MAX_SEATS - 1)
        opt_integer(self.side, "side", 0, MAX_TEAMS - 1)


@record
class Spectate(Record):
    TYPE = "spectate"
    table: str

    def __post_init__(self) -> None:
        ident(self.table, "table")


@record
class Sit(Record):
    """Take or change seat; seat i plays for side i % sides."""

    TYPE = "sit"
    seat: int

    def __post_init__(self) -> None:
        integer(self.seat, "seat", 0, MAX_SEATS - 1)


@record
class Ready(Record):
    TYPE = "ready"
    ready: bool

    def __post_init__(self) -> None:
        boolean(self.ready, "ready")


@record
class Leave(Record):
    TYPE = "leave"


@record
class Rematch(Record):
    TYPE = "rematch"


@record
class Chat(Record):
    TYPE = "chat"
    text: str

    def __post_init__(self) -> None:
        text(self.text, "text")


# Game actions. `id` is the client's idempotency key; `version` the game version it saw.


def _action(msg: "Play | Remove | Exchange | Draw | Pass") -> None:
    integer(msg.id, "id")
    integer(msg.version, "version")


@record
class Play(Record):
    """Place a chip: a card on one of its spaces, or a two-eyed jack on any open one."""

    TYPE = "play"
    id: int
    version: int
    card: str
    cell: tuple[int, int]
    fives: tuple[tuple[int, int, int, int], ...] = ()

    def __post_init__(self) -> None:
        _action(self)
        if card(self.card, "card") in ONE_EYED:
            fail("bad_card", "A one-eyed jack removes a chip: send 'remove', not 'play'.")
        _set(self, "cell", cell(self.cell, "cell"))
        _set(self, "fives", fives(self.fives, "fives", MAX_FIVES))


@record
class Remove(Record):
    TYPE = "remove"
    id: int
    version: int
    card: str
    cell: tuple[int, int]

    def __post_init__(self) -> None:
        _action(self)
        if card(self.card, "card") not in ONE_EYED:
            fail("bad_card", "Only a one-eyed jack (JS or JH) removes a chip.")
        _set(self, "cell", cell(self.cell, "cell"))


@record
class Exchange(Record):
    """Trade a dead card (both spaces covered) for a new one, once per turn."""

    TYPE = "exchange"
    id: int
    version: int
    card: str

    def __post_init__(self) -> None:
        _action(self)
        if card(self.card, "card")[0] == "J":
            fail("bad_card", "A jack is never dead.")


@record
class Draw(Record):
    TYPE = "draw"
    id: int
    version: int

    def __post_init__(self) -> None:
        _action(self)


@record
class Pass(Record):
    TYPE = "pass"
    id: int
    version: int

    def __post_init__(self) -> None:
        _action(self)
