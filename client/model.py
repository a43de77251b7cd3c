"""Everything the client shows, in one plain object.

The game is the `GameMirror` the client session keeps (protocol/client_session.py: the
codec, the mirror built from the snapshot and moved on by each update, hand, legal list
and ack, sync on a gap, action ids), the way every client reads the game. Which spaces
a card can take, which cards are dead and which actions are legal all come from the
server (`targets`, `dead`, `legal`, `choices`: facts.py): nothing here knows the rules.
How server messages change the model is receive.py's job; the log's sentences are
words/log.py's.

Seats are remembered by the server's identity: `welcome.server_id`, never the address
typed (receive.py).

Nothing here does I/O or knows about prompt_toolkit, so the tests feed it messages and
look at the result.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sarja import lang
from sarja.protocol.changes import Change
from sarja.protocol.client_session import ClientSession
from sarja.protocol.messages import (
    CreateTable,
    Snapshot,
    Standings,
    TableShape,
    TableSummary,
    TableView,
    Welcome,
)
from sarja.protocol.mirror import GameMirror
from sarja.protocol.session import SessionState

from .form import CreateForm
from .words.common import Fragment, plain

LOG_KEPT = 3000  # lines: a whole long game, its past included (client/history.py)
CHAT_QUEUE = 5  # chat lines kept while the connection is down, sent once it is back
CENTRE = 44  # where the cursor starts: E5


Say = Callable[[], Sequence[Fragment]]


@dataclass(eq=False)
class LogLine:
    """One line of the log: its kind and what it tells, kept as the data it was told
    from (`say` puts them into words) and put into words in the language of the moment
    when shown, so a language switch changes the log too. Words no language changes
    (what a player typed) may be given as they are."""

    kind: str  # a change or notice kind, "chat", "info" or "error"
    say: Say | tuple[Fragment, ...]
    # The screen's wrapping of it, for the width it was last drawn at.
    wrapped: tuple[int, list[Any]] | None = field(default=None, repr=False)
    _words: tuple[str, tuple[Fragment, ...]] | None = field(default=None, repr=False)

    @property
    def parts(self) -> tuple[Fragment, ...]:
        """Its words now."""
        if not callable(self.say):
            return self.say
        now = lang.language()
        if self._words is None or self._words[0] != now:
            self._words = (now, tuple(self.say()))
            self.wrapped = None
        return self._words[1]

    @property
    def text(self) -> str:
        return plain(self.parts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LogLine):
            return NotImplemented
        return (self.kind, self.parts) == (other.kind, other.parts)

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Step:
    """One position of a recorded game: after `at` actions (replay.py)."""

    snapshot: Snapshot
    changes: tuple[Change, ...]  # what the action leading here changed (none at 0)
    hands: tuple[tuple[str, ...], ...]  # every seat's hand, sorted
    dead: tuple[tuple[str, ...], ...]  # every seat's dead cards
    stand_in: bool = False  # the computer made the action leading here for a person


@dataclass(frozen=True)
class Mark:
    """A move the coach marks (server/coach.py's `Mistake`): the `at`-th action."""

    at: int
    seat: int
    kind: str  # missed_win, left_four, wasted_jack, idle_removal
    played: str  # notation
    better: str  # notation
    cell: int  # where the threat is, or the better move plays


@dataclass
class Analysis:
    """The coach's analysis of a replayed game, as its worker reports it (analysis.py)."""

    done: int = 0
    total: int = 0
    finished: bool = False
    failed: str = ""
    marks: list[Mark] = field(default_factory=list)


@dataclass(frozen=True)
class Hinted:
    """The coach's hint for our move at `version` (a `hint` checked against our legal
    list), and where it plays."""

    version: int
    action: str
    reason: str
    card: str | None
    cell: int | None
    starts: bool = False  # a "builds" with no chip of ours in any five through its cell


@dataclass
class Replay:
    """The positions of one recorded game, and which one is on screen (replay.py moves
    it)."""

    title: str
    steps: list[Step]
    at: int = 0
    # The whole game's log, told once, and where each step's lines end in it.
    told: list[LogLine] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    record: dict[str, Any] | None = None  # what the coach analyses (analysis.py)
    analysis: Analysis | None = None

    @property
    def step(self) -> Step:
        return self.steps[self.at]


@dataclass
class Model:
    address: str
    name: str = ""
    named: bool = False  # the player has confirmed a name (hello may be sent)
    # The connection, as the network layer reports it: connecting, unreachable (trying
    # again by itself), online, reconnecting, stopped (waits for r) or closed (for good).
    link: str = "connecting"
    link_text: str = ""
    # The session's state as the connection's codec keeps it, passed in with each message.
    phase: SessionState = SessionState.CONNECTED
    welcome: Welcome | None = None
    # Remembered seats: server_id -> player name -> the newest resume token.
    seats: dict[str, dict[str, str]] = field(default_factory=dict)
    resuming: bool = False  # a `resume` is on its way; the welcome's own token waits
    pending_token: str | None = None
    tables: tuple[TableSummary, ...] = ()
    lobby_row: int = 0
    table: TableView | None = None
    seat_row: int = 0
    # The table we made (the one that answered our `create_table`, while `creating`):
    # the waiting room offers its creator the computer key.
    created: str | None = None
    creating: bool = False
    leaving: bool = False  # we asked to leave the table
    # A seat the server keeps for us while we are in the lobby: the table whose game we
    # left (None: none we know of), and whether a resume may have brought back one we
    # were not shown. The server knows us by our token, never by our name (held.py).
    kept_at: str | None = None
    kept_unknown: bool = False
    game: GameMirror | None = None  # the game on screen: the session's, or one kept
    # Since when (clock_now's clock) each away seat of the game on screen has been away,
    # as seen going; None: away already when first seen (the server alone knows since
    # when). Seats seen here, so that going away is seen. For `o` (facts.hand_over_seat).
    away_since: dict[int, float | None] = field(default_factory=dict)
    seen_here: set[int] = field(default_factory=set)
    away_of: str | None = None  # the table whose game these are of
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_KEPT))
    # The game's past in the log (client/history.py): the version up to which its
    # changes are logged (None: only the snapshot's greeting, its past not yet come),
    # that greeting's first line, and whether the connection dropped since.
    logged: int | None = None
    arrival: LogLine | None = None
    returning: bool = False
    log_back: int = 0  # screen lines the log is scrolled back (0: the newest at the bottom)
    log_page: int = 10  # the log's height when last drawn: what PgUp moves
    alerts: bool = False  # a bell and the window's title when it becomes our turn
    language: str = "en"  # the language spoken (sarja.lang), remembered in the settings
    status: str = ""
    cursor: int = CENTRE
    picked: str | None = None  # the picked card's code; kept across changes by code
    # The last action sent: its id, and the pick and status it left on screen, which
    # its ack clears (not a choice made after it was sent: receive.py, `_acked`).
    acted: tuple[int, str | None, str] | None = None
    overlay: str | None = None  # help | quit | leave | chat | create | fives | standings
    help_page: int = 0
    help_keys: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the keys page's lines
    help_over: str | None = None  # the overlay the help was opened over (the standings)
    refused_turn: str = ""  # the status a "not your turn" refusal left, until our turn
    chat_queue: list[str] = field(default_factory=list)
    form: CreateForm = field(default_factory=CreateForm)
    fives_cell: int | None = None
    fives_index: int = 0
    replay: Replay | None = None  # stepping through a game record, offline (replay.py)
    goodbye: str = ""  # printed in the shell when the client ends
    bye: str = ""  # the code of the server's last `bye` ("replaced": another window took over)
    dropped: bool = False  # a connection we were welcomed on dropped: say when one is again
    thinking: int | None = None  # the seat a computer is choosing a move for
    # The turn clocks (`game.clocks`, [seat, ms left when told]) count down from when
    # they were told, on the app's clock: `clocks_told` then, `clock_now` at the drawing.
    clocks_told: float = 0.0
    clock_now: float = 0.0
    clocks_unknown: bool = False  # the connection dropped since they were told
    # A practice game (--practice): the table to create on the first welcome, then
    # the client readies us at it; `practising` once it is made.
    practice: CreateTable | None = None
    practising: bool = False
    hint: Hinted | None = None  # the coach's last hint (ours, for the version it names)
    # The standings screen (over the lobby): the server's last reply, and whether
    # "forget me" waits for a yes.
    standings: Standings | None = None
    forget_asked: bool = False
    # The protocol's side of the player, kept across connections (the link gives each
    # connection a fresh codec in it): the game, action ids, sync on a gap, and the
    # game's history asked for after each snapshot (the log shows the whole game).
    session: ClientSession = field(
        default_factory=lambda: ClientSession(keeps_history=True), repr=False, compare=False
    )

    @property
    def layout(self) -> tuple[str, ...]:
        return self.welcome.layout if self.welcome else ()

    @property
    def shapes(self) -> tuple[TableShape, ...]:
        return self.welcome.shapes if self.welcome else ()

    @property
    def server_id(self) -> str | None:
        return self.welcome.server_id if self.welcome else None

    @property
    def online(self) -> bool:
        return self.link == "online"

    @property
    def my_seat(self) -> int | None:
        if self.game is not None:
            return self.game.seat
        return self.table.seat if self.table else None

    @property
    def my_side(self) -> int | None:
        g, seat = self.game, self.my_seat
        if g is None or seat is None:
            return None
        return g.players[seat].side

    @property
    def seated(self) -> bool:
        """A player in the game on screen (not a spectator, not a replay)."""
        return self.game is not None and self.game.seat is not None and self.replay is None

    @property
    def my_turn(self) -> bool:
        g = self.game
        return g is not None and g.result is None and g.seat == g.turn and bool(g.legal)

    @property
    def draw_waiting(self) -> bool:
        """Under manual draw, our draw waits to be taken."""
        g = self.game
        return g is not None and g.result is None and g.seat in g.pending_draw

    @property
    def hand(self) -> tuple[str, ...]:
        g = self.game
        return g.hand if g is not None and g.result is None else ()


def screen(model: Model) -> str:
    """Which screen is up: connect, name, lobby, table or game (the end and a replay
    included)."""
    if model.replay is not None:
        return "game"
    if not model.named:
        return "name"
    if model.game is not None:
        return "game"
    if model.table is not None:
        return "table"
    if model.welcome is not None:
        return "lobby"
    return "connect"


def note(model: Model, kind: str, say: Say | Sequence[Fragment]) -> None:
    """A line for the log: `say()` its words (asked again when the language changes),
    or words no language changes."""
    model.log.append(LogLine(kind, say if callable(say) else tuple(say)))
    model.log_back = 0  # something new: the log shows the newest again


def afresh(model: Model) -> None:
    """The log starts again: the lobby, a new table or a new game is on screen (what
    came before belongs to another; a game's own past comes back with its history)."""
    model.log.clear()
    model.arrival = None
    model.log_back = 0
