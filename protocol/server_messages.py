"""Messages the server sends (plus ping and pong, shared with the client)."""

from dataclasses import field
from typing import Any

from .base import Record, record
from .fields import (
    TOKEN_RE,
    action,
    actions,
    board,
    boolean,
    card,
    cards,
    cell,
    choice_of,
    code,
    fail,
    fives,
    ident,
    integer,
    label,
    layout,
    opt_integer,
    sequence,
    text,
)
from .limits import (
    DECK_SIZE,
    MAX_CHOICES,
    MAX_CUT_ROUNDS,
    MAX_FIVES,
    MAX_HAND,
    MAX_LEGAL,
    MAX_NAME,
    MAX_PASSES,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_SERVER_NAME,
    MAX_SPECTATORS,
    MAX_TABLE_NAME,
    MAX_TABLES,
    MAX_TEAMS,
    MIN_PLAYERS,
    MIN_TEAMS,
)
from .records import Choice, Last, Outcome, Player, Rules, Seat, TableInfo, one, records

_set = object.__setattr__
Five = tuple[int, int, int, int]

# Every kind of event the server reports, in the order a game meets them.
EVENT_KINDS = (
    "joined",  # a player took a seat, or a spectator arrived
    "seated",  # a player changed seat
    "left",
    "ready",
    "unready",
    "started",
    "cut",  # a player's cut card
    "dealt",
    "played",
    "removed",
    "dead_card",
    "drew",
    "draw_forfeited",
    "passed",
    "sequence",
    "won",
    "drawn_game",
    "away",  # lost the connection; the seat is kept
    "back",
    "takeover",  # a computer player took an absent player's seat
    "rematch",  # a player asked for a rematch
)


@record
class Welcome(Record):
    """The answer to `hello`. Keep `resume` to come back after a dropped connection."""

    TYPE = "welcome"
    version: int
    session: str
    resume: str
    layout: tuple[str, ...]  # 100 card codes, row-major, "XX" for the corners
    server: str

    def __post_init__(self) -> None:
        integer(self.version, "version")
        ident(self.session, "session")
        ident(self.resume, "resume", TOKEN_RE)
        _set(self, "layout", layout(self.layout, "layout"))
        _set(self, "server", label(self.server, "server", MAX_SERVER_NAME))


@record
class Error(Record):
    """A refusal. `id` echoes the refused action's id; `fatal` means the server closes."""

    TYPE = "error"
    code: str
    message: str
    id: int | None = None
    fatal: bool = False

    def __post_init__(self) -> None:
        code(self.code, "code")
        text(self.message, "message")
        opt_integer(self.id, "id")
        boolean(self.fatal, "fatal")


@record
class Bye(Record):
    """The server is closing the connection on purpose (e.g. shutting down)."""

    TYPE = "bye"
    code: str
    message: str

    def __post_init__(self) -> None:
        code(self.code, "code")
        text(self.message, "message")


@record
class Ack(Record):
    """An action was applied; `version` is the game version it produced."""

    TYPE = "ack"
    id: int
    version: int

    def __post_init__(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")


@record
class ChatFrom(Record):
    """A chat line as everyone at the table sees it; `seat` is nil for a spectator."""

    TYPE = "chat"
    sender: str = field(metadata={"wire": "from"})
    seat: int | None
    text: str

    def __post_init__(self) -> None:
        _set(self, "sender", label(self.sender, "from", MAX_NAME))
        opt_integer(self.seat, "seat", 0, MAX_SEATS - 1)
        text(self.text, "text")


@record
class Tables(Record):
    """The lobby's list of tables (also the answer to `leave`)."""

    TYPE = "tables"
    tables: tuple[TableInfo, ...]

    def __post_init__(self) -> None:
        _set(self, "tables", records(TableInfo, self.tables, "tables", 0, MAX_TABLES))

    def to_wire(self) -> dict[str, Any]:
        return {"t": "tables", "tables": [x.to_wire() for x in self.tables]}


@record
class Table(Record):
    """The waiting room of the table this session is at; `seat` is ours, nil if watching."""

    TYPE = "table"
    id: str
    name: str
    players: int
    teams: int
    seats: tuple[Seat, ...]
    spectators: int
    started: bool
    rules: Rules
    computer_takeover: bool
    seat: int | None

    def __post_init__(self) -> None:
        ident(self.id, "id")
        _set(self, "name", label(self.name, "name", MAX_TABLE_NAME))
        integer(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        integer(self.teams, "teams", MIN_TEAMS, MAX_TEAMS)
        _set(self, "seats", records(Seat, self.seats, "seats", self.players, self.players))
        integer(self.spectators, "spectators", 0, MAX_SPECTATORS)
        boolean(self.started, "started")
        _set(self, "rules", one(Rules, self.rules, "rules"))
        boolean(self.computer_takeover, "computer_takeover")
        opt_integer(self.seat, "seat", 0, self.players - 1)

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": "table",
            "id": self.id,
            "name": self.name,
            "players": self.players,
            "teams": self.teams,
            "seats": [s.to_wire() for s in self.seats],
            "spectators": self.spectators,
            "started": self.started,
            "rules": self.rules.to_wire(),
            "computer_takeover": self.computer_takeover,
            "seat": self.seat,
        }


@record
class State(Record):
    """Everything one seat (or a spectator) may know about the game, at `version`."""

    TYPE = "state"
    table: str
    version: int
    seat: int | None
    players: tuple[Player, ...]
    sides: int
    needed: int
    hand: tuple[str, ...]
    board: str
    discard: tuple[str, ...]
    draw_size: int
    sequences: tuple[tuple[Five, ...], ...]
    turn: int
    first: int
    cut: tuple[tuple[tuple[int, str], ...], ...]
    last: Last | None
    legal: tuple[str, ...]
    choices: tuple[Choice, ...]
    exchanged: bool
    pending_draw: tuple[int, ...]
    passes: int
    rules: Rules
    outcome: Outcome | None

    def __post_init__(self) -> None:
        ident(self.table, "table")
        integer(self.version, "version")
        players = records(Player, self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        _set(self, "players", players)
        top = len(players) - 1
        opt_integer(self.seat, "seat", 0, top)
        sides = integer(self.sides, "sides", MIN_TEAMS, MAX_TEAMS)
        for p in players:
            if p.side >= sides:
                fail("out_of_range", f"A player's side must be below sides ({sides}).")
        integer(self.needed, "needed", 1, 2)
        _set(self, "hand", cards(self.hand, "hand", MAX_HAND))
        board(self.board, "board")
        _set(self, "discard", cards(self.discard, "discard", DECK_SIZE))
        integer(self.draw_size, "draw_size", 0, DECK_SIZE)
        seqs = sequence(self.sequences, "sequences", sides, sides)
        _set(self, "sequences", tuple(fives(s, "sequences", MAX_FIVES) for s in seqs))
        integer(self.turn, "turn", 0, top)
        integer(self.first, "first", 0, top)
        _set(self, "cut", _cut(self.cut, top))
        if self.last is not None:
            _set(self, "last", one(Last, self.last, "last"))
        _set(self, "legal", actions(self.legal, "legal", MAX_LEGAL))
        _set(self, "choices", records(Choice, self.choices, "choices", 0, MAX_CHOICES))
        boolean(self.exchanged, "exchanged")
        pending = sequence(self.pending_draw, "pending_draw", 0, MAX_SEATS)
        for s in pending:
            integer(s, "pending_draw", 0, top)
        _set(self, "pending_draw", pending)
        integer(self.passes, "passes", 0, MAX_PASSES)
        _set(self, "rules", one(Rules, self.rules, "rules"))
        if self.outcome is not None:
            _set(self, "outcome", one(Outcome, self.outcome, "outcome"))

    def to_wire(self) -> dict[str, Any]:
        last, outcome = self.last, self.outcome
        return {
            "t": "state",
            "table": self.table,
            "version": self.version,
            "seat": self.seat,
            "players": [p.to_wire() for p in self.players],
            "sides": self.sides,
            "needed": self.needed,
            "hand": self.hand,
            "board": self.board,
            "discard": self.discard,
            "draw_size": self.draw_size,
            "sequences": self.sequences,
            "turn": self.turn,
            "first": self.first,
            "cut": self.cut,
            "last": None if last is None else last.to_wire(),
            "legal": self.legal,
            "choices": [c.to_wire() for c in self.choices],
            "exchanged": self.exchanged,
            "pending_draw": self.pending_draw,
            "passes": self.passes,
            "rules": self.rules.to_wire(),
            "outcome": None if outcome is None else outcome.to_wire(),
        }


def _cut(v: Any, top: int) -> tuple[tuple[tuple[int, str], ...], ...]:
    """Rounds of the cut for first player: each a list of [seat, card] pairs."""
    rounds = sequence(v, "cut", 0, MAX_CUT_ROUNDS)
    out = []
    for r in rounds:
        pairs = []
        for p in sequence(r, "cut", 1, MAX_SEATS):
            if type(p) is list:
                p = tuple(p)
            if type(p) is not tuple or len(p) != 2:
                fail("bad_type", "Field 'cut' must hold rounds of [seat, card] pairs.")
            integer(p[0], "cut", 0, top)
            card(p[1], "cut")
            pairs.append(p)
        out.append(tuple(pairs))
    return tuple(out)


@record
class Event(Record):
    """Something that happened, as a sentence for the log plus optional details."""

    TYPE = "event"
    version: int
    kind: str
    text: str
    seat: int | None = None
    side: int | None = None
    card: str | None = None
    cell: tuple[int, int] | None = None
    action: str | None = None
    fives: tuple[Five, ...] | None = None

    def __post_init__(self) -> None:
        integer(self.version, "version")
        choice_of(self.kind, "kind", EVENT_KINDS)
        text(self.text, "text")
        opt_integer(self.seat, "seat", 0, MAX_SEATS - 1)
        opt_integer(self.side, "side", 0, MAX_TEAMS - 1)
        if self.card is not None:
            card(self.card, "card")
        if self.cell is not None:
            _set(self, "cell", cell(self.cell, "cell"))
        if self.action is not None:
            action(self.action, "action")
        if self.fives is not None:
            _set(self, "fives", fives(self.fives, "fives", MAX_FIVES))
