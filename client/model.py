"""Everything the client shows, in one plain object, and how server messages change it.

The game is a `GameMirror` (protocol/mirror.py): built from the snapshot and moved on by
each update, hand, legal list and ack, the way every client reads the game. Which spaces
a card can take, which cards are dead and which actions are legal all come from the
server (`targets`, `dead`, `legal`, `choices`): nothing here knows the rules. What the
client does write itself is the log, one sentence per change and notice, from their
data. Nothing here does I/O or knows about prompt_toolkit, so the tests feed it messages
and look at the result.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from sarja.protocol.cards import CORNER_CODE, cell_name
from sarja.protocol.messages import (
    Ack,
    Bye,
    Change,
    ChatLine,
    Choice,
    ClientMessage,
    Error,
    Hand,
    Last,
    Legal,
    Notice,
    ServerMessage,
    Snapshot,
    Sync,
    TableList,
    TableShape,
    TableSummary,
    TableView,
    Update,
    Welcome,
)
from sarja.protocol.mirror import GameMirror, five_cells
from sarja.protocol.session import SessionState

Five = tuple[int, int]  # a five as the wire gives it: its two end cells

SIDE_NAMES = ("Blue", "Green", "Red")
SIDE_LETTERS = "BGR"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
LOG_KEPT = 300
CENTRE = 44  # where the cursor starts: E5


def card_label(card: str) -> str:
    """ "TH" -> "10♥": what people read on the board and in the hand."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS.get(card[1], card[1])


def arrangement_label(players: int, teams: int) -> str:
    """ "2 players", "2 teams of 3": the table's shape as the lobby shows it."""
    if players == teams:
        return f"{players} players"
    return f"{teams} teams of {players // teams}"


def five_label(five: Five) -> str:
    """(0, 4) -> "A1–E1"."""
    return f"{cell_name(five[0])}–{cell_name(five[1])}"


@dataclass
class CreateForm:
    """The fields of `create_table`, edited in the lobby before sending."""

    name: str = ""
    players: int = 2
    teams: int = 2
    hand_size: int | None = None  # None: the usual for the table's shape
    manual_draw: bool = False
    computer_takeover: bool = False
    field: int = 0  # which line of the form the cursor is on

    FIELDS = ("name", "players", "teams", "hand_size", "manual_draw", "computer_takeover")


@dataclass
class LogLine:
    kind: str  # a change or notice kind, "chat", "info" or "error"
    text: str


@dataclass
class Model:
    address: str
    name: str = ""
    name_draft: str = ""
    named: bool = False  # the player has confirmed a name (hello may be sent)
    # The connection, as the network layer reports it.
    link: str = "connecting"  # connecting | unreachable | online | reconnecting | closed
    link_text: str = ""
    # The session's state as the connection's codec keeps it, passed in with each message.
    phase: SessionState = SessionState.CONNECTED
    welcome: Welcome | None = None
    resume: str | None = None
    tables: tuple[TableSummary, ...] = ()
    lobby_row: int = 0
    table: TableView | None = None
    seat_row: int = 0
    game: GameMirror | None = None
    syncing: bool = False  # a gap in the versions: a snapshot is asked for, not yet here
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_KEPT))
    status: str = ""
    cursor: int = CENTRE
    picked: str | None = None  # the picked card's code; kept across changes by code
    overlay: str | None = None  # help | quit | leave | chat | create | fives
    chat_draft: str = ""
    form: CreateForm = field(default_factory=CreateForm)
    fives_cell: int | None = None
    fives_index: int = 0
    next_id: int = 1  # the next action id, never at or below one the server holds
    size: tuple[int, int] = (80, 24)  # columns, rows: set by the app before drawing

    @property
    def layout(self) -> tuple[str, ...]:
        return self.welcome.layout if self.welcome else ()

    @property
    def shapes(self) -> tuple[TableShape, ...]:
        return self.welcome.shapes if self.welcome else ()

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
    def my_turn(self) -> bool:
        g = self.game
        return g is not None and g.result is None and g.seat == g.turn and bool(g.legal)

    @property
    def hand(self) -> tuple[str, ...]:
        g = self.game
        return g.hand if g is not None and g.result is None else ()


# ----- turning server messages into the model ----------------------------------------


def apply(model: Model, msg: ServerMessage, phase: SessionState) -> list[ClientMessage]:
    """Take in one message from the server, in the session state it led to; returns
    what to send back (a `sync` when the updates skipped a version)."""
    if phase != model.phase:
        model.status = ""  # a line about the last screen means nothing on the next
    model.phase = phase
    match msg:
        case Welcome():
            model.welcome = msg
            model.resume = msg.resume
            model.status = ""
            _ids_above(model, msg.last_id)
        case TableList():
            _tables(model, msg)
        case TableView():
            _table(model, msg)
        case Snapshot():
            _snapshot(model, msg)
        case Update() | Hand() | Legal():
            return _game_message(model, msg)
        case Ack():
            if model.game is not None:
                model.game.apply(msg)
            _ids_above(model, msg.id)
            model.status = ""
            model.picked = None
        case Notice():
            _notice(model, msg)
        case ChatLine():
            note(model, "chat", f"{msg.sender}: {msg.text}")
        case Error():
            # The server's sentence is the whole explanation: show it as it is.
            model.status = msg.message
            if msg.fatal:
                note(model, "error", msg.message)
        case Bye():
            model.status = msg.message
            note(model, "error", msg.message)
    return []


def _ids_above(model: Model, last_id: int | None) -> None:
    """Action ids go on above the last one the server holds for our seat, so a client
    started afresh never sends an id that already names an earlier action."""
    if last_id is not None:
        model.next_id = max(model.next_id, last_id + 1)


def _tables(model: Model, msg: TableList) -> None:
    if model.table is not None:
        note(model, "info", f"You left table {model.table.name}.")
    model.tables = msg.tables
    model.table = None
    model.game = None
    model.syncing = False
    model.picked = None
    model.overlay = None if model.overlay in ("quit", "leave", "fives", "chat") else model.overlay
    model.lobby_row = min(model.lobby_row, max(0, len(msg.tables) - 1))


def _table(model: Model, msg: TableView) -> None:
    if model.table is None or model.table.id != msg.id:
        model.seat_row = msg.seat or 0
        if model.overlay == "create":
            model.overlay = None
    model.table = msg
    if not msg.started:
        model.game = None
        model.syncing = False


def _snapshot(model: Model, msg: Snapshot) -> None:
    fresh = model.game is None or model.game.table != msg.table or model.game.version > msg.version
    if model.game is None:
        model.game = GameMirror(msg)
    else:
        model.game.reset(msg)
    model.syncing = False
    _ids_above(model, msg.last_id)
    if fresh:
        table = model.table.name if model.table is not None else msg.table
        note(model, "info", _arrival(model.game, table))
        if msg.seat is not None:
            model.cursor = CENTRE
    _settle(model)


def _arrival(game: GameMirror, table: str) -> str:
    """A line for the log when a game comes on screen: a new one, or one joined late."""
    if game.version == 0:
        cut = "; then ".join(
            ", ".join(f"{game.players[s].name} {card_label(c)}" for s, c in cut_round)
            for cut_round in game.cut
        )
        if game.first == game.seat:
            return f"The game begins. The cut: {cut}. You play first."
        return f"The game begins. The cut: {cut}. {game.players[game.first].name} plays first."
    if game.seat is None:
        return f"You are watching the game at {table}."
    return f"You are back in the game at {table}."


def _game_message(model: Model, msg: Update | Hand | Legal) -> list[ClientMessage]:
    game = model.game
    if game is None or model.syncing:
        return []  # a snapshot is on its way and says it all
    follows = isinstance(msg, Update) and msg.version == game.version + 1
    if follows:
        assert isinstance(msg, Update)
        for change in msg.changes:
            text = change_text(model, game, change)
            if text:
                note(model, change.kind, text)
    if not game.apply(msg):
        model.syncing = True
        return [Sync()]
    if isinstance(msg, Hand) and msg.drawn is not None and game.rules.manual_draw:
        note(model, "drew", f"You drew {card_label(msg.drawn)}.")
    _settle(model)
    return []


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


def note(model: Model, kind: str, text: str) -> None:
    model.log.append(LogLine(kind, text))


def set_link(model: Model, link: str, text: str = "") -> None:
    """The network layer's news about the connection (or, while online, a problem)."""
    if link == "online" and text:
        model.status = text
        return
    if link == "online" and model.link == "reconnecting":
        note(model, "info", "Connected again.")
    model.link, model.link_text = link, text
    if link != "online":
        # A new connection starts a new session; on resume the server resends it all.
        model.phase = SessionState.CONNECTED
        model.syncing = False


# ----- the log, written from data ----------------------------------------------------


def _who(model: Model, game: GameMirror, seat: int | None) -> str:
    if seat is None:
        return "Someone"
    if seat == game.seat:
        return "You"
    return game.players[seat].name if seat < len(game.players) else f"Seat {seat + 1}"


def side_name(game: GameMirror, side: int) -> str:
    """ "Blue" when one player makes the side, "Team Blue" when several do."""
    colour = SIDE_NAMES[side]
    return colour if _alone(game, side) else f"Team {colour}"


def _alone(game: GameMirror, side: int) -> bool:
    return sum(p.side == side for p in game.players) == 1


def change_text(model: Model, game: GameMirror, c: Change) -> str:
    """One change of an update as a sentence for the log ("" for nothing worth saying)."""
    kind = c.kind
    who = _who(model, game, c.seat)
    you = c.seat is not None and c.seat == game.seat
    card = card_label(c.card) if c.card is not None else ""
    where = cell_name(c.cell) if c.cell is not None else ""
    if kind == "played":
        return f"{who} played {card} at {where}."
    if kind == "removed":
        assert c.side is not None
        mine = c.side == model.my_side and _alone(game, c.side)
        whose = "your" if mine else f"{side_name(game, c.side)}'s"
        return f"{who} removed {whose} chip at {where} with the {card}."
    if kind == "exchanged":
        return f"{who} exchanged a dead {card}."
    if kind == "drew":
        # After every play the server draws for the player: news only when drawing is
        # a choice (manual draw), and our own draw is told with its card (see `hand`).
        if not game.rules.manual_draw or you:
            return ""
        return f"{who} drew a card."
    if kind == "no_draw":
        return f"{who} could not draw: both piles are empty."
    if kind == "reshuffled":
        return "The discard pile was shuffled into a new draw pile."
    if kind == "draw_forfeited":
        return "You lost your draw." if you else f"{who} lost their draw."
    if kind == "passed":
        return f"{who} passed: no playable card."
    if kind == "sequence":
        assert c.side is not None and c.fives is not None
        many = "two sequences" if len(c.fives) > 1 else "a sequence"
        spans = ", ".join(five_label(f) for f in c.fives)
        team = who if _alone(game, c.side) else side_name(game, c.side)
        return f"{team} completed {many} ({spans})."
    if kind == "won":
        assert c.side is not None
        if _alone(game, c.side):
            winner = next(s for s, p in enumerate(game.players) if p.side == c.side)
            return "You win!" if winner == game.seat else f"{game.players[winner].name} wins!"
        return f"{side_name(game, c.side)} wins!"
    if kind == "drawn_game":
        return "A full round of passes: the game is a draw."
    if kind == "away":
        return f"{who} is away; the seat is kept."
    if kind == "back":
        return f"{who} is back."
    return ""


def _notice(model: Model, msg: Notice) -> None:
    table = model.table
    mine = msg.seat is not None and table is not None and msg.seat == table.seat
    who = "You" if mine else msg.name
    where = ""
    if msg.seat is not None and table is not None:
        where = f"seat {msg.seat + 1} ({SIDE_NAMES[msg.seat % table.teams]})"
    kind = msg.kind
    if kind == "joined":
        text = f"{who} sat down at {where}." if where else f"{who} sat down."
    elif kind == "watching":
        text = f"{msg.name} is watching."
    elif kind == "seated":
        text = f"{who} moved to {where}." if where else f"{who} changed seats."
    elif kind == "left":
        text = f"{who} left the table."
    elif kind == "ready":
        text = "You are ready." if mine else f"{who} is ready."
    elif kind == "unready":
        text = "You are not ready." if mine else f"{who} is not ready."
    elif kind == "rematch":
        text = "You asked for a rematch." if mine else f"{who} wants a rematch."
    elif kind == "takeover":
        text = f"The computer plays for {msg.name} until they return."
    else:
        text = f"{msg.name}: {kind}."
    note(model, kind, text)


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


def choice_options(model: Model, cell: int) -> tuple[tuple[Five, ...], ...]:
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


def turn_text(model: Model) -> str:
    """Whose turn, in words; the title bar shows it."""
    g = model.game
    if g is None:
        return ""
    if g.result is not None:
        if g.result.result == "draw" or g.result.side is None:
            return "The game is a draw"
        winners = [p.name for p in g.players if p.side == g.result.side]
        return f"{SIDE_NAMES[g.result.side]} wins: {', '.join(winners)}"
    if model.my_turn:
        return "YOUR TURN"
    return f"{g.players[g.turn].name}'s turn"


def last_text(game: GameMirror, last: Last) -> str:
    """The last action in words, as the log writes it: "Aino 7♥ at D5"."""
    who = "You" if last.seat == game.seat else game.players[last.seat].name
    action = last.action
    if action == "pass":
        return f"{who} passed"
    if action.startswith("dead:"):
        return f"{who} dead {card_label(action[5:])}"
    card, sign, cell = action[:2], action[2], action[3:]
    if sign == "x":
        return f"{who} {card_label(card)} took {cell}"
    return f"{who} {card_label(card)} at {cell}"


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
    return text
