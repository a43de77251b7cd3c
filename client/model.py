"""Everything the client shows, in one plain object, and how server messages change it.

The client is thin: it keeps the last `welcome`, `tables`, `table` and `state` the
server sent and derives the rest (which spaces a card may go to, which cards are dead)
from those messages alone. Nothing here does I/O or knows about prompt_toolkit, so the
tests feed it messages and look at the result.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from sarja.protocol.messages import State, Table, TableInfo, Welcome
from sarja.protocol.notation import cell_name, parse_cell
from sarja.protocol.session import TRANSITIONS, SessionState, trigger

Cell = tuple[int, int]
Five = tuple[int, int, int, int]

SIDE_NAMES = ("Blue", "Green", "Red")
SIDE_LETTERS = "BGR"
ONE_EYED = frozenset({"JS", "JH"})
TWO_EYED = frozenset({"JD", "JC"})
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
LOG_KEPT = 300
PLAYER_COUNTS = (2, 3, 4, 6, 8, 9, 10, 12)


def card_label(card: str) -> str:
    """ "TH" -> "10♥": what people read on the board and in the hand."""
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUIT_SYMBOLS.get(card[1], card[1])


def arrangement_label(players: int, teams: int) -> str:
    """ "2 players", "2 teams of 3": the table's shape as the lobby shows it."""
    if players <= 3:
        return f"{players} players"
    return f"{teams} teams of {players // teams}"


@dataclass
class CreateForm:
    """The fields of `create_table`, edited in the lobby before sending."""

    name: str = ""
    players: int = 2
    teams: int = 2
    hand_size: int | None = None  # None: the table's default for its size
    manual_draw: bool = False
    computer_takeover: bool = False
    field: int = 0  # which line of the form the cursor is on

    FIELDS = ("name", "players", "teams", "hand_size", "manual_draw", "computer_takeover")


@dataclass
class LogLine:
    kind: str  # an event kind, "chat", "info" or "error"
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
    phase: SessionState = SessionState.CONNECTED
    welcome: Welcome | None = None
    resume: str | None = None
    tables: tuple[TableInfo, ...] = ()
    lobby_row: int = 0
    table: Table | None = None
    seat_row: int = 0
    state: State | None = None
    log: deque[LogLine] = field(default_factory=lambda: deque(maxlen=LOG_KEPT))
    status: str = ""
    cursor: Cell = (4, 4)
    picked: str | None = None  # the picked card's code; kept across states by code
    overlay: str | None = None  # help | quit | chat | create | fives
    chat_draft: str = ""
    form: CreateForm = field(default_factory=CreateForm)
    fives_cell: Cell | None = None
    fives_index: int = 0
    next_id: int = 1
    size: tuple[int, int] = (80, 24)  # columns, rows: set by the app before drawing

    @property
    def layout(self) -> tuple[str, ...]:
        return self.welcome.layout if self.welcome else ()

    @property
    def my_seat(self) -> int | None:
        if self.state is not None:
            return self.state.seat
        return self.table.seat if self.table else None

    @property
    def my_side(self) -> int | None:
        s, seat = self.state, self.my_seat
        if s is None or seat is None:
            return None
        return s.players[seat].side

    @property
    def my_turn(self) -> bool:
        s = self.state
        return s is not None and s.outcome is None and s.seat == s.turn and bool(s.legal)

    @property
    def hand(self) -> tuple[str, ...]:
        return self.state.hand if self.state else ()


# ----- turning server messages into the model ----------------------------------------


def apply(model: Model, msg: Any) -> None:
    """Take in one message from the server."""
    phase = TRANSITIONS.get((model.phase, trigger(msg)), model.phase)
    if phase != model.phase:
        model.status = ""  # a line about the last screen means nothing on the next
    model.phase = phase
    handler = _HANDLERS.get(msg.TYPE)
    if handler is not None:
        handler(model, msg)


def _welcome(model: Model, msg: Welcome) -> None:
    model.welcome = msg
    model.resume = msg.resume
    model.status = ""


def _tables(model: Model, msg: Any) -> None:
    if model.table is not None:
        note(model, "info", f"You left table {model.table.name}.")
    model.tables = msg.tables
    model.table = None
    model.state = None
    model.picked = None
    model.overlay = None if model.overlay in ("quit", "fives", "chat") else model.overlay
    model.lobby_row = min(model.lobby_row, max(0, len(msg.tables) - 1))


def _table(model: Model, msg: Table) -> None:
    if model.table is None or model.table.id != msg.id:
        model.seat_row = msg.seat or 0
        if model.overlay == "create":
            model.overlay = None
    model.table = msg
    if not msg.started:
        model.state = None


def _state(model: Model, msg: State) -> None:
    first = model.state is None or model.state.version > msg.version
    model.state = msg
    if model.picked is not None and model.picked not in msg.hand:
        model.picked = None
    if model.overlay == "fives" and not model.my_turn:
        model.overlay = model.fives_cell = None
    if msg.outcome is not None:
        model.picked = None
        if model.overlay == "quit":
            model.overlay = None
    elif first and msg.seat is not None:
        model.cursor = (4, 4)


def _event(model: Model, msg: Any) -> None:
    manual = model.state is not None and model.state.rules.manual_draw
    if msg.kind == "drew" and msg.text.endswith(" drew a card") and not manual:
        return  # the server draws for everyone after every move: not news
    text = msg.text if msg.text.endswith((".", "!", "?")) else msg.text + "."
    note(model, msg.kind, text)


def _chat(model: Model, msg: Any) -> None:
    note(model, "chat", f"{msg.sender}: {msg.text}")


def _error(model: Model, msg: Any) -> None:
    # The server's sentence is the whole explanation: show it as it is.
    model.status = msg.message
    if msg.fatal:
        note(model, "error", msg.message)


def _ack(model: Model, msg: Any) -> None:
    model.status = ""
    model.picked = None


def _bye(model: Model, msg: Any) -> None:
    model.status = msg.message
    note(model, "error", msg.message)


_HANDLERS = {
    "welcome": _welcome,
    "tables": _tables,
    "table": _table,
    "state": _state,
    "event": _event,
    "chat": _chat,
    "error": _error,
    "ack": _ack,
    "bye": _bye,
}


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
        # What the server said no longer holds; on resume it resends it all.
        model.phase = SessionState.CONNECTED


# ----- what the state means for drawing and for keys --------------------------------


def parse_action(action: str) -> tuple[str, str, Cell | None]:
    """(kind, card, cell) of an action in notation: kind is place, remove, dead, draw or pass."""
    if action in ("draw", "pass"):
        return action, "", None
    if action.startswith("dead:"):
        return "dead", action[5:], None
    card, rest = action[:2], action[3:]
    cell = parse_cell(rest.split("[", 1)[0])
    return ("remove" if action[2] == "x" else "place"), card, cell


def targets(model: Model, card: str | None) -> frozenset[Cell]:
    """The spaces `card` can go to (or, for a one-eyed jack, the chips it can take).

    On our turn the server's legal list says exactly; otherwise the board and layout
    give the same picture (open spaces, or opponents' unlocked chips), so a player can
    plan while waiting.
    """
    s = model.state
    if s is None or card is None:
        return frozenset()
    if s.legal:
        found = set()
        for action in s.legal:
            kind, c, cell = parse_action(action)
            if c == card and cell is not None:
                found.add(cell)
        return frozenset(found)
    if s.outcome is not None:
        return frozenset()
    board, layout = s.board, model.layout
    if card in TWO_EYED:
        wanted = {i for i in range(100) if board[i] == "."}
    elif card in ONE_EYED:
        mine = SIDE_LETTERS[model.my_side].lower() if model.my_side is not None else ""
        wanted = {i for i in range(100) if board[i] in "bgr" and board[i] != mine}
    else:
        wanted = {i for i in range(100) if layout and layout[i] == card and board[i] == "."}
    return frozenset(divmod(i, 10) for i in wanted)


def is_dead(model: Model, card: str) -> bool:
    """A card with both spaces covered; the server's `dead:` action says so on our turn."""
    s = model.state
    if s is None or card[0] == "J":
        return False
    if s.legal:
        return f"dead:{card}" in s.legal
    layout, board = model.layout, s.board
    spaces = [i for i, c in enumerate(layout) if c == card]
    return bool(spaces) and all(board[i] != "." for i in spaces)


def playable(model: Model, card: str) -> bool:
    return bool(targets(model, card))


def choice_options(model: Model, cell: Cell) -> tuple[tuple[Five, ...], ...]:
    """The ways a placement at `cell` can form its sequences, when the choice is real."""
    s = model.state
    if s is None:
        return ()
    for choice in s.choices:
        if tuple(choice.cell) == cell:
            return choice.options
    return ()


def five_cells(five: Five) -> list[Cell]:
    r1, c1, r2, c2 = five
    dr, dc = (r2 - r1) // 4, (c2 - c1) // 4
    return [(r1 + dr * i, c1 + dc * i) for i in range(5)]


def sequence_cells(model: Model, side: int | None = None) -> frozenset[Cell]:
    """Cells of completed sequences (of one side, or of all)."""
    s = model.state
    if s is None:
        return frozenset()
    cells: set[Cell] = set()
    for i, fives in enumerate(s.sequences):
        if side is None or i == side:
            for five in fives:
                cells.update(five_cells(five))
    return frozenset(cells)


def side_label(model: Model, side: int) -> str:
    return f"{SIDE_NAMES[side]} ({SIDE_LETTERS[side]})"


def turn_text(model: Model) -> str:
    """Whose turn, in words; the title bar shows it."""
    s = model.state
    if s is None:
        return ""
    if s.outcome is not None:
        if s.outcome.result == "draw" or s.outcome.side is None:
            return "The game is a draw"
        winners = [p.name for p in s.players if p.side == s.outcome.side]
        return f"{SIDE_NAMES[s.outcome.side]} wins: {', '.join(winners)}"
    if model.my_turn:
        return "YOUR TURN"
    return f"{s.players[s.turn].name}'s turn"


def describe_cell(model: Model, cell: Cell) -> str:
    """What is under the cursor, in words (a chip hides its card on the board)."""
    i = cell[0] * 10 + cell[1]
    name = cell_name(*cell)
    layout = model.layout
    if not layout:
        return name
    card = layout[i]
    if card == "XX":
        return f"{name}: free corner, counts for every side"
    text = f"{name}: {card_label(card)}"
    s = model.state
    if s is not None:
        chip = s.board[i]
        if chip.lower() in "bgr":
            side = "bgr".index(chip.lower())
            text += f", {SIDE_NAMES[side]} chip" + (" (in a sequence)" if chip.isupper() else "")
    return text
