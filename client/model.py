"""Everything the client shows, in one plain object, and how server messages change it.

The game is the `GameMirror` the client session keeps (protocol/client_session.py: the
codec, the mirror built from the snapshot and moved on by each update, hand, legal list
and ack, sync on a gap, action ids), the way every client reads the game. Which spaces
a card can take, which cards are dead and which actions are legal all come from the
server (`targets`, `dead`, `legal`, `choices`): nothing here knows the rules. What the
client does write itself is the log, one sentence per change and notice, from their
data, as styled fragments (names in their side's colour, cards in theirs).

Seats are remembered by the server's identity: `welcome.server_id`, never the address
typed. After each `welcome` the model either asks to `resume` the seat it holds a token
for at that server, or keeps the welcome's new token (tokens work once).

Nothing here does I/O or knows about prompt_toolkit, so the tests feed it messages and
look at the result.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, assert_never

from sarja.protocol import notation
from sarja.protocol.cards import (
    CORNER_CODE,
    ONE_EYED,
    TWO_EYED,
    FiveEnds,
    card_label,
    cell_name,
    five_cells,
)
from sarja.protocol.changes import (
    Away,
    Back,
    Change,
    DrawForfeited,
    DrawnGame,
    Drew,
    Exchanged,
    NoDraw,
    Passed,
    Played,
    Removed,
    Reshuffled,
    SequenceMade,
    Won,
    seat_only,
)
from sarja.protocol.client_session import ClientSession, Event, Past
from sarja.protocol.messages import (
    Ack,
    Bye,
    Chat,
    ChatLine,
    Choice,
    ClientMessage,
    CreateTable,
    Error,
    Hand,
    Last,
    Legal,
    ListTables,
    Notice,
    Ping,
    Pong,
    Ready,
    Resume,
    ServerMessage,
    Snapshot,
    TableList,
    TableShape,
    TableSummary,
    TableView,
    Update,
    Welcome,
)
from sarja.protocol.mirror import GameMirror, ServerProtocolError
from sarja.protocol.session import SessionState

if TYPE_CHECKING:
    from .replay import Replay

Fragment = tuple[str, str]  # (style, text), prompt_toolkit's formatted text

SIDE_NAMES = ("Blue", "Green", "Red")
SIDE_LETTERS = "BGR"
LOG_KEPT = 3000  # lines: a whole long game, its past included (client/history.py)
CHAT_QUEUE = 5  # chat lines kept while the connection is down, sent once it is back
CENTRE = 44  # where the cursor starts: E5
# The `ping` sent after a resumed welcome: its `pong` comes after the table and the
# snapshot that a held seat brings, so if it finds us still in the lobby, no seat came.
RESUME_PING = 7474


def card_style(card: str) -> str:
    return "class:card.red" if card[1] in "HD" else "class:card.black"


def card_part(card: str) -> Fragment:
    return (card_style(card), card_label(card))


def side_style(side: int) -> str:
    return f"class:side.{SIDE_LETTERS[side].lower()}"


def arrangement_label(players: int, teams: int) -> str:
    """ "2 players", "2 teams of 3": the table's shape as the lobby shows it."""
    if players == teams:
        return f"{players} players"
    return f"{teams} teams of {players // teams}"


def five_label(five: FiveEnds) -> str:
    """(0, 4) -> "A1–E1"."""
    return f"{cell_name(five[0])}–{cell_name(five[1])}"


def plain(parts: tuple[Fragment, ...] | list[Fragment]) -> str:
    return "".join(text for _, text in parts)


@dataclass
class CreateForm:
    """The fields of `create_table`, edited in the lobby before sending."""

    name: str = ""
    players: int = 2
    teams: int = 2
    hand_size: int | None = None  # None: the usual for the table's shape
    manual_draw: bool = False
    computers: int = 0  # computer players, in the last seats
    level: str = "medium"  # theirs, and the stand-in's
    computer_takeover: bool = False  # a computer plays an away player's seat
    field: int = 0  # which line of the form the cursor is on

    FIELDS = (
        "name", "players", "teams", "hand_size", "manual_draw", "computers", "level",
        "computer_takeover",
    )  # fmt: skip

    def computer_seats(self) -> tuple[str | None, ...]:
        """`create_table`'s `computers`: the last `computers` seats at `level`."""
        if not self.computers:
            return ()
        people = self.players - self.computers
        return (None,) * people + (self.level,) * self.computers


@dataclass
class LogLine:
    kind: str  # a change or notice kind, "chat", "info" or "error"
    parts: tuple[Fragment, ...]
    # The screen's wrapping of it, for the width it was last drawn at.
    wrapped: tuple[int, list[Any]] | None = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        return plain(self.parts)


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
    leaving: bool = False  # we asked to leave the table
    game: GameMirror | None = None  # the game on screen: the session's, or one kept
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
    status: str = ""
    cursor: int = CENTRE
    picked: str | None = None  # the picked card's code; kept across changes by code
    overlay: str | None = None  # help | quit | leave | chat | create | fives
    help_page: int = 0
    chat_queue: list[str] = field(default_factory=list)
    form: CreateForm = field(default_factory=CreateForm)
    fives_cell: int | None = None
    fives_index: int = 0
    replay: Replay | None = None  # stepping through a game record, offline
    goodbye: str = ""  # printed in the shell when the client ends
    bye: str = ""  # the code of the server's last `bye` ("replaced": another window took over)
    thinking: int | None = None  # the seat a computer is choosing a move for
    # A practice game (--practice): the table to create on the first welcome, then
    # the client readies us at it; `practising` once it is made.
    practice: CreateTable | None = None
    practising: bool = False
    # The protocol's side of the player, kept across connections (the link gives each
    # connection a fresh codec in it): the game, action ids, sync on a gap.
    session: ClientSession = field(default_factory=ClientSession, repr=False, compare=False)

    @property
    def syncing(self) -> bool:
        """A gap in the versions: a snapshot is asked for, not yet here."""
        return self.session.syncing

    @property
    def next_id(self) -> int:
        """The next action id, never at or below one the server holds."""
        return self.session.next_id

    @next_id.setter
    def next_id(self, value: int) -> None:
        self.session.next_id = value

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


# ----- remembered seats ----------------------------------------------------------------


def token_for(model: Model, server_id: str) -> str | None:
    return model.seats.get(server_id, {}).get(model.name)


def _keep_token(model: Model, server_id: str, token: str) -> None:
    model.seats.setdefault(server_id, {})[model.name] = token


# ----- turning server messages into the model ----------------------------------------


def apply(model: Model, msg: ServerMessage, phase: SessionState) -> list[ClientMessage]:
    """Take in one message from the server, in the session state it led to: first into
    the client session (`model.session.take`), then onto the screen. Returns what to
    send back (the session's own `pong` or `sync`, a `resume`, the lobby's list, chat
    kept while the connection was down).

    A message that does not fit the game raises ServerProtocolError, once the log
    says so and the game waits for a fresh picture: the link then connects afresh."""
    if phase != model.phase:
        model.status = ""  # a line about the last screen means nothing on the next
    model.phase = phase
    try:
        event = model.session.take(msg)
        replies = model.session.replies() + _take(model, event, phase)
    except ServerProtocolError as err:
        _unusable(model, err)
        raise
    if model.online and model.chat_queue and phase in _AT_TABLE:
        replies += [Chat(text=text) for text in model.chat_queue]
        model.chat_queue.clear()
    return replies


def _unusable(model: Model, err: ServerProtocolError) -> None:
    """The server said something no game can be in: say so, and act on nothing it said
    before until a fresh snapshot (a stale "your turn" would invite a move)."""
    text = f"The server sent something this client could not use: {err.message}"
    note(model, "error", [("", text + " Connecting again for a fresh picture.")])
    model.status = text
    model.thinking = None
    if model.game is not None:
        model.game.legal, model.game.choices = (), ()
    if model.overlay == "fives":
        model.overlay = model.fives_cell = None


def _take(model: Model, msg: Event, phase: SessionState) -> list[ClientMessage]:
    replies: list[ClientMessage] = []
    match msg:
        case Welcome():
            replies = _welcome(model, msg)
        case Pong():
            if msg.n == RESUME_PING and phase == SessionState.LOBBY:
                _gone(model)  # the resume brought no seat back
                replies = [ListTables()]
        case TableList():
            _tables(model, msg)
        case TableView():
            _table(model, msg)
            replies = _practice_ready(model, msg)
        case Snapshot():
            _snapshot(model, msg)
        case Past():
            from .history import take_history

            take_history(model, msg)
        case Update() | Hand() | Legal():
            _game_message(model, msg)
        case Ack():
            model.status = ""
            model.picked = None
        case Notice():
            _notice(model, msg)
        case ChatLine():
            _chat_line(model, msg)
        case Error():
            replies = _error(model, msg)
        case Bye():
            model.bye = msg.code
            model.status = msg.message
            note(model, "error", [("", msg.message)])
    return replies


_AT_TABLE = (SessionState.TABLE, SessionState.GAME, SessionState.ENDED)


def _welcome(model: Model, msg: Welcome) -> list[ClientMessage]:
    model.welcome = msg
    model.status = ""
    if model.resuming:
        # The answer to our `resume`: the seat's guest, with the next token.
        model.resuming, model.pending_token = False, None
        _keep_token(model, msg.server_id, msg.resume)
        return [Ping(n=RESUME_PING)]
    known = token_for(model, msg.server_id)
    if known is not None and known != msg.resume:
        # This server gave us a seat before (by whatever address): take it back. The
        # welcome's own token is kept only if that fails.
        model.resuming, model.pending_token = True, msg.resume
        return [Resume(token=known)]
    _keep_token(model, msg.server_id, msg.resume)
    if model.practice is not None and not model.practising:
        model.practising = True
        return [model.practice]  # the practice table; `_practice_ready` does the rest
    return [ListTables()]


def _error(model: Model, msg: Error) -> list[ClientMessage]:
    if msg.code == "unknown_resume" and model.resuming:
        # The seat is gone (the game ended, or the server forgot it): we stay the
        # guest this connection greeted as.
        model.resuming = False
        if model.server_id is not None and model.pending_token is not None:
            _keep_token(model, model.server_id, model.pending_token)
        model.pending_token = None
        _gone(model)
        return [ListTables()]
    # The server's sentence is the whole explanation: show it as it is.
    model.status = msg.message
    if msg.fatal:
        note(model, "error", [("", msg.message)])
    return []


def _gone(model: Model) -> None:
    """Back in the lobby without the table we were at before the connection dropped."""
    if model.table is not None or model.game is not None:
        where = model.table.name if model.table is not None else "your table"
        note(model, "info", [("", f"The server no longer has you at {where}.")])
    model.table = None
    model.game = None
    model.picked = None
    if model.chat_queue:
        note(model, "error", [("", "Not sent, as you are at no table now: ")]
             + [("class:log.chat", "; ".join(model.chat_queue))])  # fmt: skip
        model.chat_queue.clear()


def _tables(model: Model, msg: TableList) -> None:
    if model.table is not None:
        name = model.table.name
        if model.leaving:
            text = f"You left table {name}."
            if model.game is not None and model.game.result is None and model.seated:
                text += " Your seat is kept: join the table again to go on."
        else:
            text = f"You are no longer at table {name}."
        note(model, "info", [("", text)])
    model.leaving = False
    model.tables = msg.tables
    model.table = None
    model.thinking = None
    model.game = None
    model.picked = None
    if model.overlay in ("quit", "leave", "fives", "chat"):
        model.overlay = None
    model.lobby_row = min(model.lobby_row, max(0, len(msg.tables) - 1))


def _table(model: Model, msg: TableView) -> None:
    if model.table is None or model.table.id != msg.id:
        model.seat_row = msg.seat if msg.seat is not None else _first_free(msg)
        if model.overlay == "create":
            model.overlay = None
    _handed_over(model, msg)
    model.table = msg
    if not msg.started and not final_board(model):
        model.game = None
        model.thinking = None


def final_board(model: Model) -> bool:
    """A finished game kept on screen after its table went back to waiting (someone
    left it), until the player moves on: the end is not snatched away."""
    g, table = model.game, model.table
    return (
        g is not None and g.result is not None and table is not None
        and not table.started and g.table == table.id and model.replay is None
    )  # fmt: skip


def _handed_over(model: Model, msg: TableView) -> None:
    """Say as soon as the table shows it that the computer now plays an away player's
    seat (after `o`, say), not only when it first moves there (the server's notice)."""
    old = model.table
    if old is None or old.id != msg.id or not msg.started or len(old.seats) != len(msg.seats):
        return
    for seat, (was, now) in enumerate(zip(old.seats, msg.seats, strict=True)):
        if now.away and now.computer is not None and was.computer is None and now.name:
            _notice(model, Notice(kind="takeover", name=now.name, seat=seat, _trusted=True))


def _practice_ready(model: Model, msg: TableView) -> list[ClientMessage]:
    """In a practice game, we are ready as soon as we sit: the computers always are."""
    if model.practice is None or msg.started or msg.seat is None or msg.seats[msg.seat].ready:
        return []
    return [Ready(ready=True)]


def computer_level(model: Model, seat: int) -> str | None:
    """The level of the computer that plays `seat` now, as the table last said."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return None
    return table.seats[seat].computer


def hand_over_seat(model: Model) -> int | None:
    """An away player's seat we could hand to the computer (the server decides if it
    has been long enough): the one on turn, else the first."""
    g = model.game
    if not model.seated or g is None or g.result is not None:
        return None
    away = [
        s for s, p in enumerate(g.players)
        if p.away and s != g.seat and computer_level(model, s) is None
    ]  # fmt: skip
    return g.turn if g.turn in away else away[0] if away else None


def is_computer_seat(model: Model, seat: int) -> bool:
    """A computer player's own seat (not an away person's it plays for)."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return False
    s = table.seats[seat]
    return s.computer is not None and not s.away


def _first_free(table: TableView) -> int:
    return next((i for i, seat in enumerate(table.seats) if seat.name is None), 0)


def _snapshot(model: Model, msg: Snapshot) -> None:
    fresh = model.game is None or model.game.table != msg.table or model.game.version > msg.version
    model.game = model.session.game  # the session's new mirror of this snapshot
    assert model.game is not None
    model.thinking = None
    if fresh:
        table = model.table.name if model.table is not None else msg.table
        model.logged = 0 if msg.version == 0 else None  # None: its history follows
        for i, parts in enumerate(arrival(model, model.game, table)):
            note(model, "info", parts)
            if i == 0:
                model.arrival = model.log[-1]
        if msg.seat is not None:
            model.cursor = CENTRE
    _settle(model)


def arrival(model: Model, game: GameMirror, table: str) -> list[list[Fragment]]:
    """Lines for the log when a game comes on screen: a new one, or one joined late
    (then what the snapshot says: the last move, the sequences, whose turn)."""
    if game.version == 0:
        return [game_begins(model, game)]
    if game.seat is None:
        lines: list[list[Fragment]] = [[("", f"You are watching the game at {table}.")]]
    else:
        lines = [[("", f"You are back in the game at {table}.")]]
    if game.last is not None:
        lines.append([("", "Last move: "), *last_parts(model, game, game.last), ("", ".")])
    made = [
        f"{side_name(game, side)} {len(fives)}"
        for side, fives in enumerate(game.sequences)
        if side < game.sides
    ]
    lines.append([("", f"Sequences: {', '.join(made)} (of {game.needed} needed).")])
    if game.result is None:
        if game.turn == game.seat:
            lines.append([("", "It is your turn.")])
        else:
            lines.append([("", "It is "), _who_part(model, game, game.turn), ("", "'s turn.")])
    return lines


def game_begins(model: Model, game: GameMirror) -> list[Fragment]:
    """The game's first line: the cut, and who plays first."""
    cut: list[Fragment] = [("", "The game begins. The cut: ")]
    for r, cut_round in enumerate(game.cut):
        if r:
            cut.append(("", "; then "))
        for i, (seat, card) in enumerate(cut_round):
            cut += [("", ", " if i else ""), _who_part(model, game, seat, False), ("", " "),
                    card_part(card)]  # fmt: skip
    cut.append(("", ". "))
    if game.first == game.seat:
        cut.append(("", "You play first."))
    else:
        cut += [_who_part(model, game, game.first), ("", " plays first.")]
    return cut


def _game_message(model: Model, msg: Update | Hand | Legal) -> None:
    """A message the session took into its game (a gap or one set aside never comes here)."""
    game = model.game = model.session.game
    assert game is not None
    if isinstance(msg, Update):
        from .history import log_changes

        # Told after the change is applied: the words need only names and sides.
        stand_in = msg.stand_in
        for line in log_changes(model, game, msg.changes, stand_in):
            note(model, line.kind, line.parts)
        # (A history comes only straight after its snapshot: any update is later.)
        model.logged = msg.version
        if not all(map(seat_only, msg.changes)):
            model.thinking = None  # the move the computer was choosing, or one that ended it
    if isinstance(msg, Hand) and msg.drawn is not None and game.rules.manual_draw:
        note(model, "drew", [("", "You drew "), card_part(msg.drawn), ("", ".")])
    _settle(model)


def _settle(model: Model) -> None:
    """What the screen holds that a new picture of the game may have made pointless."""
    game = model.game
    assert game is not None
    if model.picked is not None and model.picked not in model.hand:
        model.picked = None
    if model.overlay == "fives" and not model.my_turn:
        model.overlay = model.fives_cell = None
    if game.result is not None:
        model.picked = None
        if model.overlay in ("quit", "leave"):
            model.overlay = None


def note(model: Model, kind: str, parts: list[Fragment] | tuple[Fragment, ...]) -> None:
    model.log.append(LogLine(kind, tuple(parts)))
    model.log_back = 0  # something new: the log shows the newest again


def set_link(model: Model, link: str, text: str = "") -> None:
    """The network layer's news about the connection (or, while online, a problem)."""
    if link == "online" and text:
        model.status = text
        return
    if link == "online" and model.link == "reconnecting":
        note(model, "info", [("", "Connected again.")])
    if link == "reconnecting" and model.link == "online" and model.welcome is not None:
        note(model, "info", [("", "The connection dropped; reconnecting…")])
    if link != "online" and model.link == "online" and model.game is not None:
        model.returning = True  # what happens meanwhile is summed up on return
    model.link, model.link_text = link, text
    if link != "online":
        # A new connection starts a new session; on resume the server resends it all.
        model.phase = SessionState.CONNECTED
        model.resuming = False
        if model.overlay == "fives":
            model.overlay = model.fives_cell = None


# ----- the log, written from data ----------------------------------------------------


def _who_part(model: Model, game: GameMirror, seat: int | None, you: bool = True) -> Fragment:
    """A seat's name in its side's colour, or "You"."""
    if seat is None or seat >= len(game.players):
        return ("", "Someone")
    style = side_style(game.players[seat].side)
    if you and seat == game.seat and model.replay is None:
        return (style, "You")
    return (style, game.players[seat].name)


def side_name(game: GameMirror, side: int) -> str:
    """ "Blue" when one player makes the side, "Team Blue" when several do."""
    colour = SIDE_NAMES[side]
    return colour if _alone(game, side) else f"Team {colour}"


def _alone(game: GameMirror, side: int) -> bool:
    return sum(p.side == side for p in game.players) == 1


def change_parts(model: Model, game: GameMirror, c: Change) -> list[Fragment]:
    """One change of an update as a sentence for the log ([] for nothing worth saying)."""
    seat: int | None = getattr(c, "seat", None)
    who = _who_part(model, game, seat)
    you = seat is not None and seat == game.seat and model.replay is None
    match c:
        case Played(card=card, cell=cell):
            return [who, ("", " played "), card_part(card), ("", " at "), _cell_part(cell),
                    ("", ".")]  # fmt: skip
        case Removed(card=card, cell=cell, side=side):
            mine = side == model.my_side and _alone(game, side) and model.replay is None
            whose = ("", "your") if mine else (side_style(side), f"{side_name(game, side)}'s")
            return [who, ("", " removed "), whose, ("", " chip at "), _cell_part(cell),
                    ("", " with the "), card_part(card), ("", ".")]  # fmt: skip
        case Exchanged(card=card):
            return [who, ("", " exchanged a dead "), card_part(card), ("", ".")]
        case Drew():
            # After every play the server draws for the player: news only when drawing
            # is a choice (manual draw), and our own draw is told with its card (`hand`).
            if not game.rules.manual_draw or you:
                return []
            return [who, ("", " drew a card.")]
        case NoDraw():
            return [who, ("", " could not draw: both piles are empty.")]
        case Reshuffled():
            return [("", "The discard pile was shuffled into a new draw pile.")]
        case DrawForfeited():
            if you:
                return [("", "You lost your draw: it waited too long.")]
            return [who, ("", " lost their draw: it waited too long.")]
        case Passed():
            return [who, ("", " passed: no playable card.")]
        case SequenceMade(side=side, fives=fives):
            many = "two sequences" if len(fives) > 1 else "a sequence"
            spans = ", ".join(five_label(f) for f in fives)
            team = who if _alone(game, side) else (side_style(side), side_name(game, side))
            return [team, ("", f" completed {many} ({spans}).")]
        case Won(side=side):
            if _alone(game, side):
                winner = next(s for s, p in enumerate(game.players) if p.side == side)
                if winner == game.seat and model.replay is None:
                    return [(side_style(side), "You win!")]
                return [_who_part(model, game, winner), ("", " wins!")]
            return [(side_style(side), side_name(game, side)), ("", " wins!")]
        case DrawnGame():
            return [("", "A full round of passes: the game is a draw.")]
        case Away():
            return [who, ("", " is away; the seat is kept.")]
        case Back():
            return [who, ("", " is back.")]
        case _:
            assert_never(c)


def _cell_part(cell: int) -> Fragment:
    return ("class:cell", cell_name(cell))


def _own_act(c: Change) -> bool:
    """What a seat does itself (the rest of an update follows from it: sequences,
    forfeits)."""
    match c:
        case Played() | Removed() | Exchanged() | Drew() | NoDraw() | Passed():
            return True
        case (
            Reshuffled() | DrawForfeited() | SequenceMade() | Won() | DrawnGame() | Away()
            | Back()
        ):  # fmt: skip
            return False
        case _:
            assert_never(c)


def stand_in_parts(
    model: Model, game: GameMirror, c: Change, parts: list[Fragment]
) -> list[Fragment]:
    """A change the computer made for a person's seat (an update's `stand_in`): "The
    computer played for you: 6♣ at C4." for our own seat, "The computer, for Aino,
    played 6♣ at C4." for another's."""
    if not _own_act(c):
        return parts
    rest = parts[1:]  # the sentence after its subject
    if getattr(c, "seat", None) == game.seat and model.replay is None:
        if isinstance(c, Played):
            return [("class:log.info", "The computer played for you: "), *rest[1:]]
        return [("class:log.info", "The computer, for you,"), *rest]
    return [("class:log.info", "The computer, for "), parts[0], ("class:log.info", ","),
            *rest]  # fmt: skip


def last_parts(model: Model, game: GameMirror, last: Last) -> list[Fragment]:
    """The last action in the log's words, without its full stop: "Aino played 2♥ at
    E6" (the side panel writes it this way too)."""
    who = _who_part(model, game, last.seat)
    said = notation.parse(last.action)
    card = card_part(said.card) if said.card is not None else ("", "")
    cell = ("class:cell", cell_name(said.cell)) if said.cell is not None else ("", "")
    if said.kind == "pass":
        return [who, ("", " passed")]
    if said.kind == "exchange":
        return [who, ("", " exchanged a dead "), card]
    if said.kind == "remove":
        return [who, ("", " removed a chip at "), cell, ("", " with the "), card]
    return [who, ("", " played "), card, ("", " at "), cell]


def last_cell(game: GameMirror) -> int | None:
    """The space the last action placed a chip on or took one from."""
    last = game.last
    return None if last is None else notation.parse(last.action).cell


def _chat_line(model: Model, msg: ChatLine) -> None:
    style = "class:log.chat"
    if model.game is not None and msg.seat is not None and msg.seat < len(model.game.players):
        style = side_style(model.game.players[msg.seat].side)
    elif model.table is not None and msg.seat is not None:
        style = side_style(msg.seat % model.table.teams)
    note(model, "chat", [(style, msg.sender), ("class:log.chat", f": {msg.text}")])


def _notice(model: Model, msg: Notice) -> None:
    if msg.kind == "thinking":
        model.thinking = msg.seat  # shown until the move comes, not logged
        return
    table = model.table
    mine = msg.seat is not None and table is not None and msg.seat == table.seat
    style = side_style(msg.seat % table.teams) if msg.seat is not None and table else ""
    who: Fragment = (style, "You" if mine else msg.name)
    where = ""
    if msg.seat is not None and table is not None:
        where = f"seat {msg.seat + 1} ({SIDE_NAMES[msg.seat % table.teams]})"
    kind = msg.kind
    if kind == "joined":
        parts = [who, ("", f" sat down at {where}." if where else " sat down.")]
    elif kind == "watching":
        parts = [("", f"{msg.name} is watching.")]
    elif kind == "seated":
        parts = [who, ("", f" moved to {where}." if where else " changed seats.")]
    elif kind == "left":
        parts = [who, ("", " left the table.")]
    elif kind == "ready":
        parts = [who, ("", " are ready." if mine else " is ready.")]
    elif kind == "unready":
        parts = [who, ("", " are not ready." if mine else " is not ready.")]
    elif kind == "rematch":
        parts = [who, ("", " asked for a rematch." if mine else " wants a rematch.")]
    elif kind == "takeover":
        parts = [("", "The computer plays for "), who, ("", " until they return.")]
        if any(e.kind == kind and e.parts == tuple(parts) for e in list(model.log)[-20:]):
            return  # told already, when the table showed it
    else:
        parts = [("", f"{msg.name}: {kind}.")]
    note(model, kind, parts)


# ----- what the game means for drawing and for keys --------------------------------


def targets(model: Model, card: str | None) -> frozenset[int]:
    """The spaces `card` can take (for a one-eyed jack, the chips it can remove), as the
    server lists them for each card in the hand, on turn or off."""
    g = model.game
    if g is None or card is None or g.result is not None or card not in g.hand:
        return frozenset()
    return frozenset(g.targets[g.hand.index(card)])


def is_dead(model: Model, card: str) -> bool:
    """A card with both its spaces covered, as the server says."""
    g = model.game
    return g is not None and g.result is None and card in g.dead


def playable(model: Model, card: str) -> bool:
    return bool(targets(model, card))


def choice_options(model: Model, cell: int) -> tuple[tuple[FiveEnds, ...], ...]:
    """The ways a placement at `cell` can form its sequences, when the choice is real."""
    g = model.game
    if g is None:
        return ()
    choice: Choice | None = next((c for c in g.choices if c.cell == cell), None)
    return choice.options if choice is not None else ()


def sequence_cells(model: Model, side: int | None = None) -> frozenset[int]:
    """Cells of completed sequences (of one side, or of all)."""
    g = model.game
    if g is None:
        return frozenset()
    cells: set[int] = set()
    for i, fives in enumerate(g.sequences):
        if side is None or i == side:
            for five in fives:
                cells.update(five_cells(five))
    return frozenset(cells)


def side_label(side: int) -> str:
    return f"{SIDE_NAMES[side]} ({SIDE_LETTERS[side]})"


def result_text(game: GameMirror) -> str:
    """How the game ended, in words: "Red wins: Cecilia" or "The game is a draw"."""
    assert game.result is not None
    if game.result.result == "draw" or game.result.side is None:
        return "The game is a draw"
    winners = [p.name for p in game.players if p.side == game.result.side]
    return f"{SIDE_NAMES[game.result.side]} wins: {', '.join(winners)}"


def turn_text(model: Model) -> str:
    """Whose turn, in words; the title bar shows it."""
    g = model.game
    if g is None:
        return ""
    if g.result is not None:
        return result_text(g)
    if model.my_turn:
        return "YOUR TURN"
    if model.thinking is not None and model.thinking < len(g.players):
        return thinking_text(model, model.thinking)
    return f"{g.players[g.turn].name}'s turn"


def thinking_text(model: Model, seat: int) -> str:
    """ "Bertil (computer) is thinking…", or for an away player's seat the computer
    plays, "The computer is thinking for Cecilia…"."""
    assert model.game is not None
    name = model.game.players[seat].name
    if is_computer_seat(model, seat):
        return f"{name} (computer) is thinking…"
    return f"The computer is thinking for {name}…"


def describe_cell(model: Model, cell: int) -> str:
    """What is under the cursor, in words (a chip hides its card on the board)."""
    name = cell_name(cell)
    layout = model.layout
    if not layout:
        return name
    card = layout[cell]
    if card == CORNER_CODE:
        return f"{name}: free corner, counts for every side"
    text = f"{name}: {card_label(card)}"
    g = model.game
    if g is not None:
        chip = g.board[cell]
        if chip.lower() in "bgr":
            side = "bgr".index(chip.lower())
            text += f", {SIDE_NAMES[side]} chip" + (" (in a sequence)" if chip.isupper() else "")
        if g.last is not None and last_cell(g) == cell:
            text += ", the last move"
        picked = model.picked
        if picked in TWO_EYED and cell in targets(model, picked):
            text += f"; the {card_label(picked)} can go here"
        elif picked in ONE_EYED and cell in targets(model, picked):
            text += f"; the {card_label(picked)} can remove this chip"
    return text
