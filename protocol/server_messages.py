"""Messages the server sends (plus ping and pong, shared with the client)."""

from dataclasses import field
from typing import Any, Literal

from .base import WireMap, wire
from .cards import FiveEnds
from .change_wire import changes_of
from .changes import Change
from .fields import (
    TOKEN_RE,
    action,
    actions,
    board,
    boolean,
    card,
    cards,
    cells,
    choice_of,
    clocks,
    code,
    fail,
    fives,
    ident,
    integer,
    label,
    layout,
    opt_integer,
    sequence,
    takeover,
    text,
    turn_clock,
)
from .limits import (
    DECK_SIZE,
    MAX_ARRANGEMENTS,
    MAX_CHANGES,
    MAX_CHOICES,
    MAX_CUT_ROUNDS,
    MAX_EVENING_HOURS,
    MAX_FIVES,
    MAX_HAND,
    MAX_HISTORY_PAGE,
    MAX_LEGAL,
    MAX_NAME,
    MAX_PASSES,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_SERVER_NAME,
    MAX_SPECTATORS,
    MAX_STANDINGS,
    MAX_TABLES,
    MAX_TEAMS,
    MIN_PLAYERS,
    MIN_TEAMS,
)
from .parts import (
    Choice,
    Entry,
    Last,
    MatchScore,
    Player,
    Result,
    Rules,
    Seat,
    TableShape,
    TableSummary,
    one,
    parts,
    table_name,
)
from .standing import Pair, Standing

_set = object.__setattr__
CutRound = tuple[tuple[int, str], ...]


@wire
class Welcome(WireMap):
    """The answer to `hello`. Keep `resume` to come back after a dropped connection."""

    TYPE = "welcome"
    version: int
    session: str
    resume: str
    server_id: str  # the same across restarts: key remembered seats by it
    layout: tuple[str, ...]  # 100 card codes, row-major, "XX" for the corners
    server: str
    shapes: tuple[TableShape, ...]  # the tables this server can set up
    last_id: int | None = None  # the last action id held for a resumed seat's game

    def validate(self) -> None:
        integer(self.version, "version")
        ident(self.session, "session")
        ident(self.resume, "resume", TOKEN_RE)
        ident(self.server_id, "server_id")
        _set(self, "layout", layout(self.layout, "layout"))
        _set(self, "server", label(self.server, "server", MAX_SERVER_NAME))
        _set(self, "shapes", parts(TableShape, self.shapes, "shapes", 1, MAX_ARRANGEMENTS))
        opt_integer(self.last_id, "last_id")


@wire
class Error(WireMap):
    """A refusal. `id` echoes the refused action's id; `fatal` means the server closes."""

    TYPE = "error"
    code: str
    message: str
    id: int | None = None
    fatal: bool = False

    def validate(self) -> None:
        code(self.code, "code")
        text(self.message, "message")
        opt_integer(self.id, "id")
        boolean(self.fatal, "fatal")


@wire
class Bye(WireMap):
    """The server is closing the connection on purpose (e.g. shutting down)."""

    TYPE = "bye"
    code: str
    message: str

    def validate(self) -> None:
        code(self.code, "code")
        text(self.message, "message")


@wire
class Ack(WireMap):
    """An action was applied; `version` is the version it produced."""

    TYPE = "ack"
    id: int
    version: int

    def validate(self) -> None:
        integer(self.id, "id")
        integer(self.version, "version")


@wire
class ChatLine(WireMap):
    """A chat line as everyone at the table sees it; `seat` is nil for a spectator."""

    TYPE = "chat"
    sender: str = field(metadata={"wire": "from"})
    seat: int | None = None
    text: str

    def validate(self) -> None:
        _set(self, "sender", label(self.sender, "from", MAX_NAME))
        opt_integer(self.seat, "seat", 0, MAX_SEATS - 1)
        text(self.text, "text")


@wire
class TableList(WireMap):
    """The lobby's list of tables (also the answer to `leave`)."""

    TYPE = "tables"
    tables: tuple[TableSummary, ...]

    def validate(self) -> None:
        _set(self, "tables", parts(TableSummary, self.tables, "tables", 0, MAX_TABLES))


@wire
class TableView(WireMap):
    """The table this session is at; `seat` is ours, nil if watching."""

    TYPE = "table"
    id: str
    name: str
    players: int
    teams: int
    seats: tuple[Seat, ...]
    spectators: int
    started: bool
    rules: Rules
    computer_takeover: str | Literal[False]  # a level, or false: no computer stands in
    seat: int | None = None
    rematch: tuple[int, ...] = ()  # seats that asked for a rematch
    hints: bool = False  # its players may ask the coach (`ask_hint`)
    match: MatchScore | None = None  # the table plays a match: its score so far
    turn_clock: int = 0  # seconds a person has for a turn; 0: no clock
    creator: bool = False  # this session made the table (it may seat computers); older: unsaid

    def validate(self) -> None:
        _set(self, "name", table_name(self.id, self.name, self.players, self.teams))
        _set(self, "seats", parts(Seat, self.seats, "seats", self.players, self.players))
        integer(self.spectators, "spectators", 0, MAX_SPECTATORS)
        boolean(self.started, "started")
        _set(self, "rules", one(Rules, self.rules, "rules"))
        _set(self, "computer_takeover", takeover(self.computer_takeover, "computer_takeover"))
        opt_integer(self.seat, "seat", 0, self.players - 1)
        rematch = sequence(self.rematch, "rematch", 0, self.players)
        _set(self, "rematch", tuple(integer(s, "rematch", 0, self.players - 1) for s in rematch))
        boolean(self.hints, "hints")
        if self.match is not None:
            _set(self, "match", one(MatchScore, self.match, "match"))
        turn_clock(self.turn_clock, "turn_clock")
        boolean(self.creator, "creator")


# What happens at a table outside the game's own updates.
NOTICE_KINDS = (
    "joined",  # a player took a seat
    "watching",  # a spectator arrived
    "seated",  # a player changed seat
    "left",  # a player left a seat that is now free
    "ready",
    "unready",
    "rematch",  # a player asked for a rematch
    "takeover",  # the computer plays an absent player's seat until they return
    "thinking",  # a computer is choosing this seat's move; its update follows
)


@wire
class Notice(WireMap):
    """Something that happened at the table, as data; the client writes the words."""

    TYPE = "notice"
    kind: str
    name: str
    seat: int | None = None

    def validate(self) -> None:
        choice_of(self.kind, "kind", NOTICE_KINDS)
        _set(self, "name", label(self.name, "name", MAX_NAME))
        opt_integer(self.seat, "seat", 0, MAX_SEATS - 1)


def _private(msg: Any) -> None:
    """The fields of `snapshot` and `hand` that only the seat's own player sees."""
    _set(msg, "hand", cards(msg.hand, "hand", MAX_HAND))
    targets = sequence(msg.targets, "targets", len(msg.hand), len(msg.hand))
    _set(msg, "targets", tuple(cells(t, "targets") for t in targets))
    _set(msg, "dead", cards(msg.dead, "dead", MAX_HAND))


def _legal(msg: Any) -> None:
    _set(msg, "legal", actions(msg.legal, "legal", MAX_LEGAL))
    _set(msg, "choices", parts(Choice, msg.choices, "choices", 0, MAX_CHOICES))


def _turn(msg: Any, top: int) -> None:
    """The turn's counters, shared by `snapshot` and `update`."""
    integer(msg.turn, "turn", 0, top)
    integer(msg.draw_size, "draw_size", 0, DECK_SIZE)
    integer(msg.passes, "passes", 0, MAX_PASSES)
    boolean(msg.exchanged, "exchanged")
    pending = sequence(msg.pending_draw, "pending_draw", 0, MAX_SEATS)
    _set(msg, "pending_draw", tuple(integer(s, "pending_draw", 0, top) for s in pending))
    if msg.result is not None:
        _set(msg, "result", one(Result, msg.result, "result"))


@wire
class Snapshot(WireMap):
    """Everything one seat (or a spectator) may know about the game, at `version`."""

    TYPE = "snapshot"
    table: str
    version: int
    seat: int | None
    last_id: int | None = None  # the last action id the server holds for this seat
    players: tuple[Player, ...]
    sides: int
    needed: int
    rules: Rules
    first: int
    cut: tuple[CutRound, ...]
    board: str
    sequences: tuple[tuple[FiveEnds, ...], ...]  # per side
    discard: tuple[str, ...]  # bottom first
    last: Last | None = None
    turn: int
    draw_size: int
    passes: int = 0
    exchanged: bool = False
    pending_draw: tuple[int, ...] = ()
    result: Result | None = None
    hand: tuple[str, ...] = ()
    targets: tuple[tuple[int, ...], ...] = ()
    dead: tuple[str, ...] = ()
    legal: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    # The turn clocks running now: [seat, milliseconds left] (the client counts down).
    clocks: tuple[tuple[int, int], ...] = ()

    def validate(self) -> None:
        ident(self.table, "table")
        integer(self.version, "version")
        players = parts(Player, self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        _set(self, "players", players)
        top = len(players) - 1
        opt_integer(self.seat, "seat", 0, top)
        opt_integer(self.last_id, "last_id")
        sides = integer(self.sides, "sides", MIN_TEAMS, MAX_TEAMS)
        if any(p.side >= sides for p in players):
            fail("out_of_range", f"A player's side must be below sides ({sides}).")
        integer(self.needed, "needed", 1, 2)
        _set(self, "rules", one(Rules, self.rules, "rules"))
        integer(self.first, "first", 0, top)
        _set(self, "cut", _cut(self.cut, top))
        board(self.board, "board")
        seqs = sequence(self.sequences, "sequences", sides, sides)
        _set(self, "sequences", tuple(fives(s, "sequences", MAX_FIVES) for s in seqs))
        _set(self, "discard", cards(self.discard, "discard", DECK_SIZE))
        if self.last is not None:
            _set(self, "last", one(Last, self.last, "last"))
        _turn(self, top)
        _private(self)
        _legal(self)
        _set(self, "clocks", clocks(self.clocks, "clocks", top))


def _cut(v: Any, top: int) -> tuple[CutRound, ...]:
    """Rounds of the cut for first player: each a list of [seat, card] pairs."""
    rounds = []
    for r in sequence(v, "cut", 1, MAX_CUT_ROUNDS):
        pairs = []
        for p in sequence(r, "cut", 1, MAX_SEATS):
            if type(p) is list:
                p = tuple(p)
            if type(p) is not tuple or len(p) != 2:
                fail("bad_type", "Field 'cut' must hold rounds of [seat, card] pairs.")
            integer(p[0], "cut", 0, top)
            card(p[1], "cut")
            pairs.append(p)
        rounds.append(tuple(pairs))
    return tuple(rounds)


@wire
class History(WireMap):
    """The game's public past, sent right after a snapshot of a game that has one: every
    change since the game began, oldest first, as the updates told it (never a drawn
    card or a hand). In pages: `more` says another page follows at once."""

    TYPE = "history"
    version: int  # the snapshot's version: every entry's is at or below it
    entries: tuple[Entry, ...]
    more: bool = False

    def validate(self) -> None:
        top = integer(self.version, "version")
        entries = parts(Entry, self.entries, "entries", 0, MAX_HISTORY_PAGE)
        _set(self, "entries", entries)
        boolean(self.more, "more")
        last = -1
        for e in entries:
            if not last < e.version <= top:
                fail("out_of_range", "History entries must go up in version, to 'version'.")
            last = e.version


@wire
class Update(WireMap):
    """What one change to the game did, for every member alike: the version it leads to,
    the changes in order, and the turn's counters after them. `stand_in`: the computer
    made this action for a person's seat (a stand-in, a seat handed over, or a turn
    whose clock ran out)."""

    TYPE = "update"
    version: int
    changes: tuple[Change, ...]
    turn: int
    draw_size: int
    passes: int = 0
    exchanged: bool = False
    pending_draw: tuple[int, ...] = ()
    result: Result | None = None
    stand_in: bool = False
    # The turn clocks running after it, when they changed (a turn began, a clock
    # stopped): [seat, milliseconds left]; nil: as they were.
    clocks: tuple[tuple[int, int], ...] | None = None

    def validate(self) -> None:
        integer(self.version, "version")
        _set(self, "changes", changes_of(self.changes, "changes", 1, MAX_CHANGES))
        _turn(self, MAX_SEATS - 1)
        boolean(self.stand_in, "stand_in")
        if self.clocks is not None:
            _set(self, "clocks", clocks(self.clocks, "clocks"))


@wire
class Hand(WireMap):
    """A seat's own cards and what each could do, sent to that seat alone when they
    change; `drawn` is the card just drawn, if that is what changed."""

    TYPE = "hand"
    version: int
    hand: tuple[str, ...]
    targets: tuple[tuple[int, ...], ...]
    dead: tuple[str, ...] = ()
    drawn: str | None = None

    def validate(self) -> None:
        integer(self.version, "version")
        _private(self)
        if self.drawn is not None and card(self.drawn, "drawn") not in self.hand:
            fail("bad_card", "Field 'drawn' must be a card in the hand.")


@wire
class Legal(WireMap):
    """The actions the seat may take now, at `version`, every choice of fives included."""

    TYPE = "legal"
    version: int
    legal: tuple[str, ...]
    choices: tuple[Choice, ...] = ()

    def validate(self) -> None:
        integer(self.version, "version")
        _legal(self)


# What a hint's `reason` may say (server/coach.py decides which).
HINT_REASONS = (
    "completes",
    "blocks",
    "breaks",
    "makes_four",
    "dead_card",
    "draw",
    "pass",
    "builds",
)


@wire
class Hint(WireMap):
    """The coach's answer to `ask_hint`, for this seat alone: the move it would make
    at `version` (one of the seat's legal actions, in notation) and why."""

    TYPE = "hint"
    version: int
    action: str
    reason: str

    def validate(self) -> None:
        integer(self.version, "version")
        action(self.action, "action")  # the client checks it is one of its legal ones
        choice_of(self.reason, "reason", HINT_REASONS)


@wire
class Standings(WireMap):
    """The answer to `standings`: the top of the evening (games finished in the last
    `hours` hours) and of all time, the best pairs of teammates of all time, and the
    asker's own standing (`you`, nil if they have none: no games, or no person key)."""

    TYPE = "standings"
    hours: int
    evening: tuple[Standing, ...]
    all_time: tuple[Standing, ...]
    pairs: tuple[Pair, ...] = ()
    you: Standing | None = None

    def validate(self) -> None:
        integer(self.hours, "hours", 1, MAX_EVENING_HOURS)
        _set(self, "evening", parts(Standing, self.evening, "evening", 0, MAX_STANDINGS))
        _set(self, "all_time", parts(Standing, self.all_time, "all_time", 0, MAX_STANDINGS))
        _set(self, "pairs", parts(Pair, self.pairs, "pairs", 0, MAX_STANDINGS))
        if self.you is not None:
            _set(self, "you", one(Standing, self.you, "you"))


@wire
class Forgotten(WireMap):
    """The answer to `forget`: the person's rows are gone (`games`: how many games
    they were counted in)."""

    TYPE = "forgotten"
    games: int

    def validate(self) -> None:
        integer(self.games, "games")
