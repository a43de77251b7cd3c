"""Keys become intents, and intents become changes to the model plus messages to send.

`intent_for(model, key)` reads which screen is up and maps a key name (prompt_toolkit's
names: "up", "enter", "s-tab", ..., or the character typed) to an `Intent`; mouse
clicks make intents directly. `perform(model, intent)` carries one out and returns the
effects: protocol messages for the server, or a `Command` for the app (quit, retry,
greet). Nothing here sends or draws, so every key's meaning is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from sarja.protocol.cards import ONE_EYED
from sarja.protocol.limits import MAX_HAND, MAX_NAME, MAX_TABLE_NAME, MAX_TEXT
from sarja.protocol.messages import (
    Chat,
    ClientMessage,
    CreateTable,
    Draw,
    Exchange,
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

from .model import (
    CreateForm,
    Model,
    card_label,
    choice_options,
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


def screen(model: Model) -> str:
    """Which screen is up: connect, name, lobby, table or game (which includes the end)."""
    if model.welcome is None and model.link != "online" and model.game is None:
        return "connect"
    if not model.named:
        return "name"
    if model.game is not None:
        return "game"
    if model.table is not None:
        return "table"
    if model.welcome is not None:
        return "lobby"
    return "connect"


# ----- keys -----------------------------------------------------------------------

_MOVES = {
    "up": (-1, 0), "k": (-1, 0), "down": (1, 0), "j": (1, 0),
    "left": (0, -1), "h": (0, -1), "right": (0, 1), "l": (0, 1),
}  # fmt: skip

_GAME_KEYS = {
    "tab": Intent("next_card", 1), "s-tab": Intent("next_card", -1),
    "n": Intent("next_target"), "enter": Intent("play"), " ": Intent("play"),
    "x": Intent("exchange"), "p": Intent("pass"), "d": Intent("draw"),
    "r": Intent("rematch"), "escape": Intent("cancel"),
}  # fmt: skip

_COMMON = {
    "?": Intent("help"), "q": Intent("quit"), "c-c": Intent("quit"),
    "c": Intent("chat_open"), "L": Intent("leave"),
}  # fmt: skip


def intent_for(model: Model, key: str) -> Intent | None:
    """The intent of one key press on the current screen (None: the key does nothing)."""
    overlay = model.overlay
    if overlay == "help":
        return Intent("close") if key in ("escape", "?", "q", "enter", " ") else None
    if overlay in ("quit", "leave"):
        if key in ("y", "Y", "enter"):
            return Intent("confirm")
        return Intent("close") if key in ("n", "N", "escape", "q") else None
    if overlay in ("chat", "create") or (screen(model) == "name" and overlay is None):
        return _text_key(model, key)
    if overlay == "fives":
        if key in ("up", "k", "left", "h"):
            return Intent("fives_move", -1)
        if key in ("down", "j", "right", "l", "tab"):
            return Intent("fives_move", 1)
        if key.isdigit() and key != "0":
            return Intent("fives_pick", int(key) - 1)
        if key in ("enter", " "):
            return Intent("fives_confirm")
        return Intent("close") if key == "escape" else None
    where = screen(model)
    if where == "connect":
        return {"r": Intent("retry"), "q": Intent("quit"), "c-c": Intent("quit")}.get(key)
    if where == "lobby":
        if key in ("up", "k", "down", "j"):
            return Intent("lobby_move", _MOVES[key][0])
        lobby = {
            "enter": Intent("join"), "s": Intent("spectate"), "n": Intent("create_open"),
            "r": Intent("refresh"), "?": Intent("help"), "q": Intent("quit"),
            "c-c": Intent("quit"),
        }  # fmt: skip
        return lobby.get(key)
    if where == "table":
        if key in ("up", "k", "down", "j"):
            return Intent("seat_move", _MOVES[key][0])
        if key.isdigit() and key != "0":
            return Intent("sit", int(key) - 1)
        if key == "enter":
            return Intent("sit", model.seat_row)
        if key in ("r", " "):
            return Intent("ready")
        return _COMMON.get(key)
    if where == "game":
        if key in _MOVES:
            return Intent("move", _MOVES[key])
        if key.isdigit():
            return Intent("pick", (int(key) - 1) % 10)
        return _GAME_KEYS.get(key) or _COMMON.get(key)
    return None


def _text_key(model: Model, key: str) -> Intent | None:
    """Keys while typing a name, a chat line, or filling in the new-table form."""
    if key == "enter":
        return Intent("submit")
    if key == "escape":
        return Intent("close")
    if key == "c-c":
        return Intent("quit") if model.overlay is None else Intent("close")
    if key == "backspace":
        return Intent("erase")
    if model.overlay == "create" and key in ("up", "down", "tab", "s-tab"):
        return Intent("form_move", -1 if key in ("up", "s-tab") else 1)
    if model.overlay == "create" and key in ("left", "right"):
        return Intent("form_change", -1 if key == "left" else 1)
    if len(key) == 1 and key.isprintable():
        return Intent("type", key)
    return None


# ----- carrying intents out -------------------------------------------------------


def perform(model: Model, intent: Intent) -> list[Effect]:
    handler = _PERFORM.get(intent.name)
    if handler is None:
        return []
    return handler(model, intent.arg) or []


def _ids(model: Model) -> tuple[int, int]:
    """A fresh action id (see model.next_id) and the version the action is made at."""
    assert model.game is not None
    i = model.next_id
    model.next_id += 1
    return i, model.game.version


def _in_game(model: Model) -> bool:
    if model.game is None or model.game.result is not None:
        return False
    if model.game.seat is None:
        model.status = "Spectators watch; only seated players play."
        return False
    return True


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
    else:
        if model.cursor not in spaces:
            model.cursor = _nearest(model, spaces) or model.cursor
        n = len(spaces)
        if card in ONE_EYED:
            what = "chip it can remove" if n == 1 else "chips it can remove"
        else:
            what = "open space" if n == 1 else "open spaces"
        model.status = f"{label}: {n} {what}. Enter plays at the cursor; n: next."


def _next_card(model: Model, step: int) -> None:
    hand = model.hand
    if not hand:
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
    n = len(choice_options(model, model.fives_cell)) if model.fives_cell else 0
    if n:
        model.fives_index = (model.fives_index + step) % n


def _fives_pick(model: Model, index: int) -> list[Effect]:
    n = len(choice_options(model, model.fives_cell)) if model.fives_cell else 0
    if index < n:
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
    i, version = _ids(model)
    return [Draw(id=i, version=version)]


def _cancel(model: Model, arg: Any) -> None:
    model.picked = None
    model.status = ""


def _rematch(model: Model, arg: Any) -> list[Effect]:
    if model.phase != SessionState.ENDED:
        model.status = "A rematch can be asked for once the game is over."
        return []
    model.status = "You asked for a rematch; waiting for the others."
    return [Rematch()]


def _playing(model: Model) -> bool:
    g = model.game
    return g is not None and g.result is None and g.seat is not None


def _quit(model: Model, arg: Any) -> list[Effect]:
    if _playing(model):
        model.overlay = "quit"  # leaving a game in progress deserves a second thought
        return []
    return [Command.QUIT]


def _leave(model: Model, arg: Any) -> list[Effect]:
    if _playing(model):
        model.overlay = "leave"
        return []
    return [Leave()]


def _confirm(model: Model, arg: Any) -> list[Effect]:
    overlay, model.overlay = model.overlay, None
    if overlay == "quit":
        return [Command.QUIT]
    if overlay == "leave":
        return [Leave()]
    return []


def _close(model: Model, arg: Any) -> None:
    if model.overlay == "fives":
        model.fives_cell = None
    model.overlay = None


def _help(model: Model, arg: Any) -> None:
    model.overlay = "help"


def _chat_open(model: Model, arg: Any) -> None:
    model.overlay = "chat"


# ----- typing ---------------------------------------------------------------------


def _type(model: Model, ch: str) -> None:
    if model.overlay == "chat":
        if len(model.chat_draft) < MAX_TEXT:
            model.chat_draft += ch
    elif model.overlay == "create":
        form = model.form
        if CreateForm.FIELDS[form.field] == "name":
            if len(form.name) < MAX_TABLE_NAME:
                form.name += ch
        elif ch == " ":
            _form_change(model, 1)
    elif len(model.name_draft) < MAX_NAME:
        model.name_draft += ch


def _erase(model: Model, arg: Any) -> None:
    if model.overlay == "chat":
        model.chat_draft = model.chat_draft[:-1]
    elif model.overlay == "create":
        if CreateForm.FIELDS[model.form.field] == "name":
            model.form.name = model.form.name[:-1]
    else:
        model.name_draft = model.name_draft[:-1]


def _submit(model: Model, arg: Any) -> list[Effect]:
    if model.overlay == "chat":
        text, model.chat_draft, model.overlay = model.chat_draft.strip(), "", None
        return [Chat(text=text)] if text else []
    if model.overlay == "create":
        return _create(model)
    name = " ".join(model.name_draft.split())
    if not name:
        model.status = "Type a name first."
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


def _create_open(model: Model, arg: Any) -> None:
    model.overlay = "create"
    if not model.form.name:
        model.form.name = f"{model.name}'s table"[:MAX_TABLE_NAME]


def _form_move(model: Model, step: int) -> None:
    model.form.field = (model.form.field + step) % len(CreateForm.FIELDS)


def _form_change(model: Model, step: int) -> None:
    form = model.form
    name = CreateForm.FIELDS[form.field]
    if name == "players":
        counts = player_counts(model)
        i = counts.index(form.players) if form.players in counts else 0
        form.players = counts[(i + step) % len(counts)]
        form.teams = team_choices(model, form.players)[0]
    elif name == "teams":
        options = team_choices(model, form.players)
        i = options.index(form.teams) if form.teams in options else 0
        form.teams = options[(i + step) % len(options)]
    elif name == "hand_size":
        sizes: list[int | None] = [None, *range(1, MAX_HAND + 1)]
        form.hand_size = sizes[(sizes.index(form.hand_size) + step) % len(sizes)]
    elif name == "manual_draw":
        form.manual_draw = not form.manual_draw
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


def _create(model: Model) -> list[Effect]:
    form = model.form
    name = " ".join(form.name.split())
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
            computer_takeover=form.computer_takeover,
        )
    ]


def _refresh(model: Model, arg: Any) -> list[Effect]:
    return [ListTables()]


def _seat_move(model: Model, step: int) -> None:
    if model.table is not None:
        model.seat_row = (model.seat_row + step) % model.table.players


def _sit(model: Model, seat: int) -> list[Effect]:
    table = model.table
    if table is None or seat >= table.players:
        return []
    model.seat_row = seat
    if table.seat == seat:
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


def _click_card(model: Model, index: int) -> None:
    _pick(model, index)


def _click_table(model: Model, row: int) -> list[Effect]:
    if model.lobby_row == row:
        return _join(model, None)  # a second click on the same table joins it
    model.lobby_row = row
    return []


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
    "cancel": _cancel,
    "rematch": _rematch,
    "quit": _quit,
    "leave": _leave,
    "confirm": _confirm,
    "close": _close,
    "help": _help,
    "chat_open": _chat_open,
    "type": _type,
    "erase": _erase,
    "submit": _submit,
    "lobby_move": _lobby_move,
    "join": _join,
    "spectate": _spectate,
    "create_open": _create_open,
    "form_move": _form_move,
    "form_change": _form_change,
    "refresh": _refresh,
    "seat_move": _seat_move,
    "sit": _sit,
    "ready": _ready,
    "retry": _retry,
    "click_card": _click_card,
    "click_table": _click_table,
}
