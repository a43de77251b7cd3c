"""Intents become changes to the model plus messages to send.

Key bindings (keys.py) and mouse handlers on the screen's fragments (render.py) make an
`Intent`; `perform(model, intent)` carries it out and returns the effects: protocol
messages for the server, or a `Command` for the app (quit, retry, greet). Nothing here
sends or draws, so what every key and click means is tested without a terminal.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from sarja.protocol.cards import LEVELS, ONE_EYED, TWO_EYED, card_label
from sarja.protocol.limits import DECK_SIZE, MAX_HAND, MAX_NAME, MAX_TABLE_NAME, MAX_TEXT
from sarja.protocol.messages import (
    Chat,
    ClientMessage,
    CreateTable,
    Draw,
    Exchange,
    HandOver,
    Join,
    Leave,
    ListTables,
    Pass,
    Play,
    Ready,
    Rematch,
    Remove,
    Sit,
    Spectate,
    TableSummary,
)
from sarja.protocol.session import SessionState

from .command import client_command
from .history import scroll_log
from .model import (
    CHAT_QUEUE,
    CreateForm,
    Model,
    choice_options,
    final_board,
    hand_over_seat,
    is_dead,
    playable,
    targets,
)


class Command(Enum):
    QUIT = "quit"
    RETRY = "retry"  # try to connect now instead of waiting out the backoff
    GREET = "greet"  # the name is chosen: say hello


@dataclass(frozen=True)
class Intent:
    name: str
    arg: Any = None


Effect = ClientMessage | Command

NOT_CONNECTED = "Not connected just now, so nothing was sent; try again once it is back."


def perform(model: Model, intent: Intent) -> list[Effect]:
    handler = _PERFORM.get(intent.name)
    if handler is None:
        return []
    effects = handler(model, intent.arg) or []
    if model.online or model.replay is not None:
        return effects
    return [e for e in effects if isinstance(e, Command) or _offline(model, e)]


def _offline(model: Model, msg: ClientMessage) -> bool:
    """A message made while the connection is down: chat waits for it to come back;
    anything else is not sent, and the player is told so. Never sent now (False)."""
    if model.link == "closed":
        model.status = ""  # the connection's own line says it is over, and what to do
    elif isinstance(msg, Chat) and len(model.chat_queue) < CHAT_QUEUE:
        model.chat_queue.append(msg.text)
        model.status = "Not connected: your line will be sent when the connection is back."
    else:
        model.status = NOT_CONNECTED
    return False


def _ids(model: Model) -> tuple[int, int]:
    """A fresh action id (see model.next_id) and the version the action is made at."""
    assert model.game is not None
    i = model.next_id
    model.next_id += 1
    return i, model.game.version


def _in_game(model: Model) -> bool:
    if model.game is None or model.game.result is not None or model.replay is not None:
        return False
    if model.game.seat is None:
        model.status = "Spectators watch; only seated players play."
        return False
    return True


# ----- the board and the hand ---------------------------------------------------------


def _move(model: Model, delta: tuple[int, int]) -> None:
    r, c = divmod(model.cursor, 10)
    model.cursor = (r + delta[0]) % 10 * 10 + (c + delta[1]) % 10


def _goto(model: Model, cell: int) -> list[Effect]:
    """A click on a space: move there, and play the picked card if it can go there."""
    model.cursor = cell
    if model.picked is not None and cell in targets(model, model.picked):
        return _play(model, None)
    return []


def _nearest(model: Model, cells: frozenset[int]) -> int | None:
    r, c = divmod(model.cursor, 10)
    return min(cells, key=lambda x: (abs(x // 10 - r) + abs(x % 10 - c), x), default=None)


def _pick(model: Model, index: int) -> None:
    if not model.seated:
        return
    hand = model.hand
    if not 0 <= index < len(hand):
        model.status = f"You hold {len(hand)} cards." if hand else "You hold no cards."
        return
    card = hand[index]
    model.picked = card
    spaces = targets(model, card)
    label = card_label(card)
    if is_dead(model, card):
        model.status = f"{label} is dead: both its spaces are covered. Press x to exchange it."
    elif not spaces:
        model.status = f"{label} cannot be played now."
    elif card in TWO_EYED:
        model.status = f"{label} is wild: move the cursor to any open space, then Enter."
    else:
        if model.cursor not in spaces:
            model.cursor = _nearest(model, spaces) or model.cursor
        n = len(spaces)
        if card in ONE_EYED:
            what = "chip it can remove" if n == 1 else "chips it can remove"
        else:
            what = "open space" if n == 1 else "open spaces"
        model.status = f"{label}: {n} {what}, marked » «. Enter plays at the cursor; n: next."


def _next_card(model: Model, step: int) -> None:
    hand = model.hand
    if not hand or not model.seated:
        return
    useful = [i for i, c in enumerate(hand) if playable(model, c) or is_dead(model, c)]
    order = useful or list(range(len(hand)))
    now = hand.index(model.picked) if model.picked in hand else -1 if step > 0 else len(hand)
    later = [i for i in order if (i - now) * step > 0]
    pool = later or order  # past the end: wrap around
    _pick(model, pool[0] if step > 0 else pool[-1])


def _next_target(model: Model, arg: Any) -> None:
    spaces = sorted(targets(model, model.picked))
    if not spaces:
        model.status = "Pick a card first: a number key or Tab." if model.picked is None else ""
        return
    later = [c for c in spaces if c > model.cursor]
    model.cursor = later[0] if later else spaces[0]


def _play(model: Model, arg: Any) -> list[Effect]:
    if not _in_game(model):
        return []
    card = model.picked
    if card is None:
        model.status = "Pick a card first: a number key (1–9) or Tab."
        return []
    spaces = targets(model, card)
    if model.my_turn and not spaces:
        # Nothing the server could accept; off turn the server's own answer is sent back.
        label = card_label(card)
        if is_dead(model, card):
            model.status = f"{label} is dead: press x to exchange it."
        else:
            model.status = f"{label} cannot be played now; p passes if nothing can."
        return []
    cell = model.cursor
    if cell not in spaces and len(spaces) == 1:
        cell = model.cursor = next(iter(spaces))  # one place to go: no need to aim
    if card in ONE_EYED:
        i, version = _ids(model)
        return [Remove(id=i, version=version, card=card, cell=cell)]
    options = choice_options(model, cell) if cell in spaces else ()
    if len(options) > 1:
        model.overlay, model.fives_cell, model.fives_index = "fives", cell, 0
        model.status = "This placement can form its sequence more than one way: choose."
        return []
    i, version = _ids(model)
    return [Play(id=i, version=version, card=card, cell=cell)]


def _fives_move(model: Model, step: int) -> None:
    n = len(choice_options(model, model.fives_cell)) if model.fives_cell is not None else 0
    if n:
        model.fives_index = (model.fives_index + step) % n


def _fives_pick(model: Model, index: int) -> list[Effect]:
    n = len(choice_options(model, model.fives_cell)) if model.fives_cell is not None else 0
    if 0 <= index < n:
        model.fives_index = index
        return _fives_confirm(model, None)
    return []


def _fives_confirm(model: Model, arg: Any) -> list[Effect]:
    cell, card = model.fives_cell, model.picked
    model.overlay = None
    model.fives_cell = None
    if cell is None or card is None or not _in_game(model):
        return []
    options = choice_options(model, cell)
    fives = options[model.fives_index] if model.fives_index < len(options) else ()
    i, version = _ids(model)
    return [Play(id=i, version=version, card=card, cell=cell, fives=fives)]


def _exchange(model: Model, arg: Any) -> list[Effect]:
    if not _in_game(model):
        return []
    card = model.picked
    if card is None or not is_dead(model, card):  # the picked card if dead, else the first
        card = next((c for c in model.hand if is_dead(model, c)), None)
    if card is None:
        model.status = "You hold no dead card (one with both spaces covered)."
        return []
    i, version = _ids(model)
    return [Exchange(id=i, version=version, card=card)]


def _pass(model: Model, arg: Any) -> list[Effect]:
    if not _in_game(model):
        return []
    i, version = _ids(model)
    return [Pass(id=i, version=version)]


def _draw(model: Model, arg: Any) -> list[Effect]:
    if not _in_game(model):
        return []
    if not model.draw_waiting:
        model.status = "No draw is waiting for you."
        return []
    i, version = _ids(model)
    return [Draw(id=i, version=version)]


def _hand_over(model: Model, arg: Any) -> list[Effect]:
    """Let the computer play for a player who is away (see `hand_over_seat`)."""
    seat = hand_over_seat(model)
    if seat is None:
        if model.seated:
            model.status = "No one is away whose seat the computer could play."
        return []
    assert model.game is not None
    model.status = f"You asked the computer to play for {model.game.players[seat].name}."
    return [HandOver(seat=seat)]


def _cancel(model: Model, arg: Any) -> None:
    model.picked = None
    model.status = ""


def _to_table(model: Model, arg: Any) -> None:
    """From a finished game kept on screen (see `final_board`) to its waiting room."""
    if final_board(model):
        model.game = None
        model.picked = None
        model.status = "The waiting room: r when you are ready for the next game."


def _rematch(model: Model, arg: Any) -> list[Effect]:
    if final_board(model):
        _to_table(model, None)  # no rematch with a seat freed: a new game instead
        return []
    if not model.seated:
        return []
    if model.phase != SessionState.ENDED:
        model.status = "A rematch can be asked for once the game is over."
        return []
    model.status = "You asked for a rematch; waiting for the others."
    return [Rematch()]


# ----- leaving, quitting, overlays ---------------------------------------------------


def _playing(model: Model) -> bool:
    g = model.game
    return model.seated and g is not None and g.result is None


def _quit(model: Model, arg: Any) -> list[Effect]:
    if _playing(model) and model.online:
        model.overlay = "quit"  # leaving a game in progress deserves a second thought
        return []
    return _quitting(model)


def _quitting(model: Model) -> list[Effect]:
    if _playing(model) and model.practice is None and model.bye != "replaced":
        assert model.game is not None
        # The command on a line of its own, so a terminal never wraps it mid-word.
        model.goodbye = (
            "Your seat in the game is kept. To come back, run:\n"
            f"    {client_command()} {model.address} --name {shlex.quote(model.name)}"
        )
    return [Command.QUIT]


def _leave(model: Model, arg: Any) -> list[Effect]:
    if model.table is None:
        return []
    if _playing(model):
        model.overlay = "leave"
        return []
    model.leaving = True
    return [Leave()]


def _confirm(model: Model, arg: Any) -> list[Effect]:
    overlay, model.overlay = model.overlay, None
    if overlay == "quit":
        return _quitting(model)
    if overlay == "leave":
        model.leaving = True
        return [Leave()]
    return []


def _close(model: Model, arg: Any) -> None:
    if model.overlay == "fives":
        model.fives_cell = None
    model.overlay = None


def _help(model: Model, arg: Any) -> None:
    model.overlay = "help"
    model.help_page = 0


def _help_page(model: Model, step: int) -> None:
    model.help_page = (model.help_page + step) % 2


def _chat_open(model: Model, arg: Any) -> None:
    if model.table is None and model.game is None:
        return
    if model.replay is None:
        model.overlay = "chat"


# Terminal escape codes (colours, cursor moves, titles) that pasted text may carry.
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_]?)")


def typed(text: str) -> str:
    """What was typed or pasted into a text box, printable: escape codes dropped, other
    control characters (a tab, a bell) made spaces."""
    return "".join(ch if ch.isprintable() else " " for ch in _ESCAPES.sub("", text))


def readable(text: str) -> str:
    """Typed text as the protocol takes it: printable, runs of spaces made one."""
    return " ".join(typed(text).split())


def _say(model: Model, text: str) -> list[Effect]:
    """The chat box's line, sent (Enter)."""
    model.overlay = None
    text = readable(text)[:MAX_TEXT]
    return [Chat(text=text)] if text else []


def _name(model: Model, text: str) -> list[Effect]:
    """The name screen's line, confirmed (Enter)."""
    name = readable(text)
    if not name:
        model.status = "Type a name first."
        return []
    if len(name) > MAX_NAME:
        model.status = (
            f"A name has at most {MAX_NAME} characters; this one has {len(name)}. Shorten it."
        )
        return []
    model.name, model.named, model.status = name, True, ""
    return [Command.GREET]


# ----- lobby and waiting room -------------------------------------------------------


def _lobby_move(model: Model, step: int) -> None:
    if model.tables:
        model.lobby_row = (model.lobby_row + step) % len(model.tables)


def _chosen_table(model: Model) -> TableSummary | None:
    if not model.tables:
        model.status = "There are no tables yet: press n to create one."
        return None
    return model.tables[min(model.lobby_row, len(model.tables) - 1)]


def _join(model: Model, arg: Any) -> list[Effect]:
    table = _chosen_table(model)
    if table is None:
        return []
    if table.started and model.name not in table.seated:
        return [Spectate(table=table.id)]  # a game in progress can only be watched
    return [Join(table=table.id)]


def _spectate(model: Model, arg: Any) -> list[Effect]:
    table = _chosen_table(model)
    return [Spectate(table=table.id)] if table is not None else []


def _lobby_click(model: Model, row: int) -> list[Effect]:
    if model.lobby_row == row:
        return _join(model, None)  # a second click on the same table joins it
    model.lobby_row = row
    return []


def _create_open(model: Model, arg: Any) -> None:
    """A fresh form each time: the usual table for the first shape, named for us."""
    counts = player_counts(model)
    players = counts[0] if counts else 2
    model.form = CreateForm(
        name=f"{model.name}'s table"[:MAX_TABLE_NAME],
        players=players,
        teams=team_choices(model, players)[0],
    )
    model.overlay = "create"
    model.status = ""


def _form_move(model: Model, step: int) -> None:
    model.form.field = (model.form.field + step) % len(CreateForm.FIELDS)


def _form_name(model: Model, text: str) -> None:
    model.form.name = typed(text)[:MAX_TABLE_NAME]


def _form_change(model: Model, step: int) -> None:
    form = model.form
    name = CreateForm.FIELDS[form.field]
    if name == "players":
        counts = player_counts(model)
        i = counts.index(form.players) if form.players in counts else 0
        form.players = counts[(i + step) % len(counts)]
        form.teams = team_choices(model, form.players)[0]
        form.hand_size = None  # the usual hand of the new size
        form.computers = min(form.computers, form.players - 1)
    elif name == "teams":
        options = team_choices(model, form.players)
        i = options.index(form.teams) if form.teams in options else 0
        form.teams = options[(i + step) % len(options)]
        form.hand_size = None
    elif name == "hand_size":
        sizes = hand_sizes(model, form.players, form.teams)
        at = sizes.index(form.hand_size) if form.hand_size in sizes else sizes.index(None)
        form.hand_size = sizes[max(0, min(len(sizes) - 1, at + step))]  # no wrapping round
    elif name == "manual_draw":
        form.manual_draw = not form.manual_draw
    elif name == "computers":
        form.computers = (form.computers + step) % form.players  # a seat stays ours
    elif name == "level":
        form.level = LEVELS[(LEVELS.index(form.level) + step) % len(LEVELS)]
    elif name == "computer_takeover":
        form.computer_takeover = not form.computer_takeover


def player_counts(model: Model) -> tuple[int, ...]:
    """The table sizes the server offers (its `welcome` lists every shape)."""
    counts = sorted({shape.players for shape in model.shapes})
    return tuple(counts) or (model.form.players,)


def team_choices(model: Model, players: int) -> tuple[int, ...]:
    """The numbers of sides the server offers for a table of this size."""
    teams = sorted({shape.teams for shape in model.shapes if shape.players == players})
    return tuple(teams) or (model.form.teams,)


def usual_hand(model: Model, players: int, teams: int) -> int | None:
    """The hand size the server deals to this shape unless told otherwise."""
    for shape in model.shapes:
        if (shape.players, shape.teams) == (players, teams):
            return shape.hand_size
    return None


def hand_sizes(model: Model, players: int, teams: int) -> list[int | None]:
    """The hands a table of this shape may deal, smallest first, the usual one as None
    (so it is offered once): 1 to MAX_HAND cards, and at most half the deck dealt in
    all, as the server checks (docs/protocol.md, `create_table`)."""
    usual = usual_hand(model, players, teams)
    most = min(MAX_HAND, DECK_SIZE // 2 // players)
    sizes: list[int | None] = [None if n == usual else n for n in range(1, most + 1)]
    return sizes if None in sizes else [None, *sizes]


def _create(model: Model, arg: Any) -> list[Effect]:
    form = model.form
    name = readable(form.name)
    if not name:
        model.status = "Give the table a name."
        return []
    model.status = ""
    return [
        CreateTable(
            name=name,
            players=form.players,
            teams=form.teams,
            hand_size=form.hand_size,
            manual_draw=form.manual_draw,
            computers=form.computer_seats(),
            computer_takeover=form.level if form.computer_takeover else False,
        )
    ]


def _refresh(model: Model, arg: Any) -> list[Effect]:
    return [ListTables()]


def _seat_move(model: Model, step: int) -> None:
    if model.table is not None:
        model.seat_row = (model.seat_row + step) % model.table.players


def _sit(model: Model, seat: int) -> list[Effect]:
    table = model.table
    if table is None or not 0 <= seat < table.players:
        return []
    model.seat_row = seat
    if table.seat == seat:
        return []
    if table.seats[seat].name is not None:
        model.status = f"Seat {seat + 1} is taken; choose a free one."
        return []
    return [Sit(seat=seat)]


def _ready(model: Model, arg: Any) -> list[Effect]:
    table = model.table
    if table is None or table.seat is None:
        model.status = "Take a seat first: choose one and press Enter."
        return []
    return [Ready(ready=not table.seats[table.seat].ready)]


def _retry(model: Model, arg: Any) -> list[Effect]:
    return [Command.RETRY]


def _alerts(model: Model, arg: Any) -> None:
    """The bell and the window's title on our turn: on or off (remembered, app.py)."""
    model.alerts = not model.alerts
    if model.alerts:
        model.status = "A bell and the window's title will tell you of your turn (b: off)."
    else:
        model.status = "No bell on your turn now (b: on again)."


def _step(model: Model, step: int) -> None:
    """A replay moves by `step` actions (backwards when negative)."""
    if model.replay is not None:
        model.replay.go(model, model.replay.at + step)


def _step_to(model: Model, at: int) -> None:
    if model.replay is not None:
        model.replay.go(model, at if at >= 0 else len(model.replay.steps) - 1)


_PERFORM: dict[str, Callable[[Model, Any], list[Effect] | None]] = {
    "move": _move,
    "goto": _goto,
    "pick": _pick,
    "next_card": _next_card,
    "next_target": _next_target,
    "play": _play,
    "fives_move": _fives_move,
    "fives_pick": _fives_pick,
    "fives_confirm": _fives_confirm,
    "exchange": _exchange,
    "pass": _pass,
    "draw": _draw,
    "hand_over": _hand_over,
    "cancel": _cancel,
    "rematch": _rematch,
    "to_table": _to_table,
    "quit": _quit,
    "leave": _leave,
    "confirm": _confirm,
    "close": _close,
    "help": _help,
    "help_page": _help_page,
    "chat_open": _chat_open,
    "say": _say,
    "name": _name,
    "lobby_move": _lobby_move,
    "lobby_click": _lobby_click,
    "join": _join,
    "spectate": _spectate,
    "create_open": _create_open,
    "form_move": _form_move,
    "form_change": _form_change,
    "form_name": _form_name,
    "create": _create,
    "refresh": _refresh,
    "seat_move": _seat_move,
    "sit": _sit,
    "ready": _ready,
    "retry": _retry,
    "step": _step,
    "step_to": _step_to,
    "log_scroll": scroll_log,
    "alerts": _alerts,
}
