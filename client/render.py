"""What each part of the screen shows: pure functions of the model and the part's size.

Each function returns lines of (style, text[, mouse handler]) fragments, prompt_toolkit's
formatted text, that fit the width and height they are given: text is wrapped at word
boundaries and a long name is shortened with "…", never cut mid-word (the layout in
layout.py puts each part in its own window, and tests check that every part fits).
A click on a space, a card, a table, a seat or a choice is a mouse handler on that very
fragment; it hands an `Intent` to `click`. Styles are class names only
("class:chip.b"); the app maps them to colours, and to bold, underline and reverse
under NO_COLOR. Nothing depends on colour alone: chips carry their side's letter,
locked chips square brackets, the cursor ▶ ◀, the picked card's spaces » «, the last
move + +, and whose turn it is is written out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from sarja.protocol.cards import (
    COLUMNS,
    CORNER_CODE,
    ONE_EYED,
    TWO_EYED,
    card_label,
    cell_name,
    five_cells,
)
from sarja.protocol.changes import Removed, SequenceMade, Won
from sarja.protocol.limits import MAX_NAME
from sarja.protocol.messages import TableSummary

from .fit import Line as Line
from .fit import bar, centred, pad, shorten, wrap
from .fit import cut as _cut
from .fit import first_fitting as _first_fitting
from .fit import fitted as _fitted
from .fit import text_of as text_of
from .fit import width_of as width_of
from .intents import Intent, team_choices, usual_hand
from .model import (
    SIDE_LETTERS,
    SIDE_NAMES,
    CreateForm,
    LogLine,
    Model,
    arrangement_label,
    card_style,
    choice_options,
    computer_level,
    describe_cell,
    final_board,
    five_label,
    hand_over_seat,
    is_dead,
    last_cell,
    last_parts,
    result_text,
    screen,
    sequence_cells,
    side_label,
    side_style,
    targets,
    turn_text,
)

MIN_WIDTH, MIN_HEIGHT = 80, 24
Click = Callable[[Intent], None] | None
BOARD_ROWS = 11  # the column letters, then ten rows
PANEL_MIN = 24


# ----- pieces ----------------------------------------------------------------------


def _handler(click: Click, intent: Intent) -> Callable[[MouseEvent], object]:
    def handle(event: MouseEvent) -> object:
        if event.event_type != MouseEventType.MOUSE_UP or click is None:
            return NotImplemented
        click(intent)
        return None

    return handle


def _on(click: Click, intent: Intent, style: str, text: str) -> Any:
    """A fragment that a click turns into `intent` (plain when nothing listens)."""
    if click is None:
        return (style, text)
    return (style, text, _handler(click, intent))


def keys_line(items: Sequence[tuple[str, str]], width: int) -> Line:
    """The footer: "key what" items; those that do not fit at the end are left off,
    but the last item (q quit) always stays."""
    chosen = list(items)
    while chosen:
        text = " " + " · ".join(f"{k} {what}" for k, what in chosen)
        if get_cwidth(text) <= width or len(chosen) == 1:
            break
        chosen.pop(-2 if len(chosen) > 1 else -1)
    line: Line = [("class:keys", " ")]
    for i, (key, what) in enumerate(chosen):
        if i:
            line.append(("class:keys", " · "))
        line += [("class:keys class:keyname", key), ("class:keys", f" {what}")]
    return pad(line, width, "class:keys")


# ----- the parts every screen has --------------------------------------------------


def title(model: Model, width: int) -> Line:
    """The top bar: where we are, who we are."""
    if model.replay is not None:
        rp = model.replay
        left = f" Sarja · replay of {rp.title}"
        at = f"move {rp.at} of {len(rp.steps) - 1} "
        return bar([("class:title", shorten(left, width - len(at) - 1))],
                   [("class:title", at)], width, "class:title")  # fmt: skip
    where = {"lobby": "lobby", "table": "waiting room", "game": "game"}.get(screen(model), "")
    server = model.welcome.server if model.welcome else "Sarja"
    table = f"table {model.table.name}" if model.table is not None else ""
    # Each item with what may be done to it when the bar is short, in this order: the
    # server's name goes first, then our own name (we know it) and the table's are
    # shortened, and only then is the address left out.
    items = [" Sarja", server if server != "Sarja" else "", model.address, table, model.name]
    steps = [("drop", 1), ("shorten", 4), ("shorten", 3), ("drop", 2)]
    right: Line = [("class:title", f"{where} ")] if where else []
    if model.game is not None and model.replay is None:
        g = model.game
        turn = turn_text(model)
        if model.link == "closed":
            right = [("class:link", " this window is closed ")]
        elif g.result is not None:
            right = [(_banner_style(g.result.side), f" {turn} ")]
        elif model.my_turn:
            right = [("class:myturn", f" ▶ {turn} ◀ ")]
        else:
            right = [("class:title", f"{turn} ")]
        table = model.table.name if model.table else g.table
        if g.seat is None:
            who = "watching"
        else:
            who = f"{g.players[g.seat].name}, {side_label(g.players[g.seat].side)}"
        items = [" Sarja", table, who]
        steps = [("shorten", 2), ("shorten", 1), ("drop", 1)]
    room = width - width_of(right) - 1
    return bar([("class:title", _fitted(items, steps, room))], right, width, "class:title")


STATUS_ROWS = 4  # the most the status takes, above the keys


def status_lines(model: Model, width: int) -> list[Line]:
    """The line above the keys: questions, the connection, the server's refusals. A
    long sentence wraps; past STATUS_ROWS lines, the last one says it goes on."""
    lines = _status_lines(model, width)
    if len(lines) > STATUS_ROWS:
        lines = [*lines[: STATUS_ROWS - 1], _cut(lines[STATUS_ROWS - 1], width)]
    return lines


def _status_lines(model: Model, width: int) -> list[Line]:
    if model.overlay == "quit":
        kept = "This practice game ends." if model.practice else "Your seat is kept."
        return wrap([("class:ask", f" Quit in the middle of the game? {kept} y / n ")],
                    width)  # fmt: skip
    if model.overlay == "leave":
        text = " Leave the table? Your seat is kept: join the table again to go on. y / n "
        return wrap([("class:ask", text)], width)
    if model.replay is None and model.welcome is not None and not model.online:
        if model.link == "closed" and model.bye == "replaced":
            text = (
                f"Disconnected: {model.link_text} You play on in that window; this one"
                " is done: press q to close it."
            )
        elif model.link == "closed":
            text = f"Disconnected: {model.link_text} Press q to quit."
        elif model.link == "stopped":
            text = f"Disconnected: {model.link_text}"
        else:
            text = model.link_text or "The connection dropped; reconnecting…"
        lines = wrap([("class:link", " " + text + " ")], width, indent=1)
        if model.status and model.link != "closed":  # what became of what was typed
            lines += wrap([("class:status", " " + model.status)], width, indent=1)
        return lines
    if not model.status:
        return [[]]
    return wrap([("class:status", " " + model.status)], width, indent=1)


_LOG_STYLES = {
    "chat": "class:log.chat", "error": "class:log.error", "info": "class:log.info",
    SequenceMade.kind: "class:log.big", Won.kind: "class:log.big", Removed.kind: "class:log.big",
}  # fmt: skip


CHAT_MARK = " » "  # starts every line of a chat message in the log


def log_lines(model: Model, width: int, height: int) -> list[Line]:
    """The newest log lines that fit, oldest at the top, each wrapped; scrolled back
    `model.log_back` screen lines (clamped here, where the wrapping is known), with a
    last line that says so."""
    if height <= 0:
        return []
    model.log_page = height
    want = height + model.log_back
    chunks: list[list[Line]] = []
    n = 0
    for entry in reversed(model.log):
        chunks.append(_log_entry(entry, width))
        n += len(chunks[-1])
        if n >= want:
            break
    out = [line for chunk in reversed(chunks) for line in chunk]
    shown = height - 1  # a scrolled log keeps its last line for saying so
    back = model.log_back = min(model.log_back, max(0, len(out) - shown)) if shown > 0 else 0
    if back == 0:
        return out[-height:]
    end = len(out) - back
    mark = f" ↓ {back} newer line{'s' if back != 1 else ''} · PgDn, End: back to the newest"
    return [*out[max(0, end - shown) : end], [("class:status", mark[:width])]]


def _log_entry(entry: LogLine, width: int) -> list[Line]:
    """One log line wrapped to `width` (kept with the line: the log is drawn often)."""
    if entry.wrapped is not None and entry.wrapped[0] == width:
        return entry.wrapped[1]
    base = _LOG_STYLES.get(entry.kind, "class:log")
    parts = [(f"{base} {f[0]}".strip(), f[1]) for f in entry.parts]
    if entry.kind != "chat":
        lines = wrap([("", " "), *parts], width, indent=3, split=True)
    else:
        # Every line of a chat message carries the chat mark, and its later lines are
        # indented under the words after the sender's name: no text a player types
        # can pass for a game event, or for a line of its own, however it is wrapped.
        sender = width_of(entry.parts[:1]) + 2  # "Name: "
        hang = len(CHAT_MARK) + min(sender, max(2, (width - len(CHAT_MARK)) // 3))
        lines = wrap([(base, CHAT_MARK), *parts], width, indent=hang, split=True)
        under = [(base, CHAT_MARK), ("", " " * (hang - len(CHAT_MARK)))]
        lines = [lines[0], *([*under, *line[1:]] for line in lines[1:])]
    entry.wrapped = (width, lines)
    return lines


# ----- connecting and the name --------------------------------------------------


def connect_lines(model: Model, width: int, height: int) -> list[Line]:
    if model.link in ("unreachable", "stopped"):
        body = [("class:link", model.link_text)]
    elif model.link == "closed":
        body = [("class:link", f"Disconnected: {model.link_text}")]
    else:
        body = [("", f"Joining {model.address} as {model.name}…")]
    return centred([("class:title", " Sarja "), ("", ""), *body], width, height)


def name_top(model: Model, width: int, height: int) -> list[Line]:
    """The question, just above the name's text box."""
    texts = [("class:title", " Sarja "), ("", ""), ("", "What is your name?"),
             ("class:dim", "Others see it at the table. It is remembered for next time."),
             ("", "")]  # fmt: skip
    lines = centred(texts, width, len(texts))
    return [[] for _ in range(max(0, height - len(lines)))] + lines


def name_bottom(model: Model, width: int, height: int) -> list[Line]:
    if model.link == "online" and model.welcome is not None:
        text = f"Connected to {model.address}."
    elif model.link == "online":
        # Only the answer to the hello, sent with the name, says a Sarja server is there.
        text = f"{model.address} answers; Enter sends your name to it."
    elif model.link in ("unreachable", "stopped", "closed"):
        text = model.link_text
    else:
        text = f"Connecting to {model.address}…"
    return centred([("class:dim", text)], width, min(height, 3))


def too_small(width: int, height: int) -> list[Line]:
    text = [
        f"Sarja needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT};",
        f"this one is {width}×{height}. Please make it bigger.",
        "Keys do nothing until then, except Ctrl-C to quit.",
    ]
    return [wrap([("class:link", t)], width)[0] for t in text][:height]


# ----- the lobby --------------------------------------------------------------------

_LOBBY_HEAD = ("Table", "Players", "Seats", "Rules")


def _lobby_columns(width: int) -> tuple[int, int, int, int]:
    name = 22 if width >= 100 else 18
    shape = 14
    seats = 14
    rules = width - 3 - name - shape - seats - 3
    return name, shape, seats, rules


def _rules_text(hand: int, manual: bool, takeover: str | Literal[False]) -> list[str]:
    items = [f"hand {hand}"]
    if manual:
        items.append("manual draw")
    if takeover:
        items.append(f"{takeover} computer stands in")
    return items


def lobby_list(model: Model, width: int, height: int, click: Click = None) -> list[Line]:
    """The header and one line per table, scrolled to keep the chosen one in view."""
    name_w, shape_w, seats_w, rules_w = _lobby_columns(width)
    head = (f"   {_LOBBY_HEAD[0]:<{name_w}} {_LOBBY_HEAD[1]:<{shape_w}} "
            f"{_LOBBY_HEAD[2]:<{seats_w}} {_LOBBY_HEAD[3]}")  # fmt: skip
    lines: list[Line] = [[("class:label", head)]]
    if not model.tables:
        lines.append([("", "   No tables yet. Press n to create one.")])
        return lines
    room = max(1, height - 1)
    first = min(max(0, model.lobby_row - room + 1), max(0, len(model.tables) - room))
    for row in range(first, min(len(model.tables), first + room)):
        info = model.tables[row]
        chosen = row == model.lobby_row
        free = sum(1 for s in info.seated if s is None)
        if info.started:
            seats = "playing"
        elif free:
            seats = f"{free} free of {info.players}"
        else:
            seats = "full"
        rules_items = _rules_text(
            info.rules.hand_size, info.rules.manual_draw, info.computer_takeover
        )
        rules = ", ".join(rules_items)
        while get_cwidth(rules) > rules_w and len(rules_items) > 1:
            rules_items.pop()
            rules = ", ".join(rules_items) + ", …"
        text = (
            f" {'▶' if chosen else ' '} {shorten(info.name, name_w):<{name_w}} "
            f"{arrangement_label(info.players, info.teams):<{shape_w}} "
            f"{seats:<{seats_w}} {rules}"
        )
        style = "class:selected" if chosen else ""
        lines.append([_on(click, Intent("lobby_click", row), style, text)])
    return lines


DETAIL_ROWS = 3  # the lobby's lines about the chosen table


def lobby_details(model: Model, width: int) -> list[Line]:
    """Who sits where at the chosen table, and its rules in full, wrapped at words in
    DETAIL_ROWS lines: names are shortened, and the hint on keys made brief or left
    out, only as far as it takes to fit."""
    if not model.tables:
        return []
    info = model.tables[min(model.lobby_row, len(model.tables) - 1)]
    rules = _rules_text(info.rules.hand_size, info.rules.manual_draw, info.computer_takeover)
    extra = [("class:label", "Rules: "), ("", ", ".join(rules))]
    if info.spectators:
        extra.append(("", f"; {info.spectators} watching"))
    if info.started and model.name in info.seated:
        doing = "Enter takes you back to your seat"
    elif info.started:
        doing = "Enter watches the game"
    else:
        doing = "Enter takes a free seat"
    hints = (f". {doing}, s watches.", ".")
    lines: list[Line] = []
    for longest in (MAX_NAME, 12, 8, 5):
        seat_lines = wrap([("", " "), *_seat_parts(info, longest)], width, indent=3)
        for hint in hints:
            lines = seat_lines + wrap([("", " "), *extra, ("class:dim", hint)], width, indent=3)
            if len(lines) <= DETAIL_ROWS:
                return lines
    return [*lines[: DETAIL_ROWS - 1], _cut(lines[DETAIL_ROWS - 1], width)]


def _seat_parts(info: TableSummary, longest: int) -> list[Any]:
    seats: list[Any] = [("class:label", "Seats: ")]
    for i, who in enumerate(info.seated):
        side = i % info.teams
        level = info.computers[i] if info.computers else None
        about = SIDE_NAMES[side] + (f", {level} computer" if level else "")
        seats += [("", ", " if i else ""), (side_style(side), shorten(who or "free", longest)),
                  ("class:dim", f" ({about})")]  # fmt: skip
    return seats


_FORM_LABELS = {
    "name": "Name",
    "players": "Players",
    "teams": "Sides",
    "hand_size": "Hand size",
    "manual_draw": "Manual draw (house rule)",
    "computers": "Computer players",
    "level": "Computer level",
    "computer_takeover": "Computer plays absent seats",
}
FORM_LABEL_WIDTH = 30


def form_lines(model: Model, width: int) -> list[Line]:
    """The new-table form below its name field (the name is a text box of its own)."""
    form = model.form
    usual = usual_hand(model, form.players, form.teams)
    hand = (
        f"{usual} (the usual for {form.players} players)"
        if form.hand_size is None
        else f"{form.hand_size}" + (f" (usual: {usual})" if usual is not None else "")
    )
    values = {
        "players": f"◀ {form.players} ▶  ({arrangement_label(form.players, form.teams)})",
        "teams": (
            f"◀ {form.teams} ▶"
            if len(team_choices(model, form.players)) > 1
            else f"{form.teams} (the only way for {form.players})"
        ),
        "hand_size": f"◀ {hand} ▶",
        "manual_draw": "◀ on ▶" if form.manual_draw else "◀ off ▶",
        "computers": f"◀ {form.computers} ▶  ({_computer_seats_text(form)})",
        "level": f"◀ {form.level} ▶",
        "computer_takeover": "◀ on ▶" if form.computer_takeover else "◀ off ▶",
    }
    lines: list[Line] = []
    for i, key in enumerate(CreateForm.FIELDS[1:], start=1):
        chosen = i == form.field
        style = "class:selected" if chosen else ""
        mark = "▶" if chosen else " "
        label = f"  {mark} {_FORM_LABELS[key] + ':':<{FORM_LABEL_WIDTH}}"
        lines.append([(style, label), (style, shorten(values[key], width - len(label)))])
    return lines


def _computer_seats_text(form: CreateForm) -> str:
    n, players = form.computers, form.players
    if n == 0:
        return "every seat for a person"
    first = players - n + 1
    return f"seat {first}" if n == 1 else f"seats {first}–{players}"


def form_label(model: Model) -> str:
    mark = "▶" if model.form.field == 0 else " "
    return f"  {mark} {_FORM_LABELS['name'] + ':':<{FORM_LABEL_WIDTH}}"


# ----- the waiting room ---------------------------------------------------------------


def table_lines(model: Model, width: int, height: int, click: Click = None) -> list[Line]:
    table = model.table
    assert table is not None
    rules = _rules_text(table.rules.hand_size, table.rules.manual_draw, table.computer_takeover)
    about = f" {arrangement_label(table.players, table.teams)} · {', '.join(rules)}"
    if table.spectators:
        about += f" · {table.spectators} watching"
    lines: list[Line] = [*wrap([("", about)], width, indent=1)]
    lines.append([("class:label", " Seats (each plays for the side shown: a seat is a team)")])
    name_w = max(10, min(30, width - 40))
    for i, seat in enumerate(table.seats):
        chosen = i == model.seat_row
        side = i % table.teams
        who = seat.name or "— free —"
        if i == table.seat:
            who = shorten(who, name_w - 6) + " (you)"
        elif seat.computer is not None and not seat.away:
            tag = f" (computer, {seat.computer})"
            who = shorten(who, name_w - len(tag)) + tag
        state = "away" if seat.away else "ready" if seat.ready else "not ready" if seat.name else ""
        if seat.away and seat.computer is not None:
            state = "away; the computer plays"
        if i in table.rematch:
            state = "wants a rematch"
        row_style = "class:selected" if chosen else ""
        intent = Intent("sit", i)
        lines.append([
            _on(click, intent, row_style, f" {'▶' if chosen else ' '} {i + 1:>2}  "),
            _on(click, intent, side_style(side), f"{side_label(side):<10}"),
            _on(click, intent, row_style, f"  {shorten(who, name_w):<{name_w}} {state}"),
        ])  # fmt: skip
    if table.seat is None:
        hint = " You are watching. Choose a free seat and press Enter to play."
    elif table.started:
        hint = " The game is on."
    else:
        hint = " When every seat is taken and everyone is ready, the game starts"
        hint += " (computers always are)." if any(s.computer for s in table.seats) else "."
    lines += wrap([("class:dim", hint)], width, indent=1)
    return lines


# ----- the game -------------------------------------------------------------------


def cell_width(width: int) -> int:
    """Wider spaces when the terminal is wider, leaving the side panel its room."""
    return max(5, min(7, (width - 3 - PANEL_MIN - 4) // 10))


def board_width(width: int) -> int:
    return 3 + 10 * cell_width(width)


def board_lines(model: Model, width: int, click: Click = None) -> list[Line]:
    g = model.game
    assert g is not None
    w = cell_width(width)
    layout, board = model.layout, g.board
    picked = model.picked
    # A wild jack can go on every open space: marking them all would mark the board.
    shown = targets(model, picked) if picked not in TWO_EYED else frozenset()
    chosen: set[int] = set()
    if model.overlay == "fives" and model.fives_cell is not None:
        options = choice_options(model, model.fives_cell)
        if model.fives_index < len(options):
            for five in options[model.fives_index]:
                chosen.update(five_cells(five))
    winning = (
        sequence_cells(model, g.result.side)
        if g.result is not None and g.result.side is not None
        else frozenset()
    )
    last = last_cell(g)
    cursor = model.cursor if model.replay is None else None
    pad_l = (w - 5) // 2
    pad_r = w - 5 - pad_l
    lines: list[Line] = [[("class:label", "   " + "".join(c.center(w) for c in COLUMNS))]]
    for r in range(10):
        line: Line = [("class:label", f"{r + 1:>2} ")]
        for c in range(10):
            i = r * 10 + c
            card = layout[i] if layout else "??"
            chip = board[i]
            if card == CORNER_CODE:
                inner, style = " ★ ", "class:corner"
            elif chip in "bgrBGR":
                letter = chip.upper()
                if chip.isupper():
                    inner, style = f"[{letter}]", f"class:chip.{chip.lower()} class:locked"
                else:
                    inner, style = f"({letter})", f"class:chip.{chip}"
            else:
                inner = card_label(card).rjust(3)
                style = card_style(card)
            left = right = " "
            if i == last:
                left, right, style = "+", "+", style + " class:last"
            if i in winning:
                left, right, style = "*", "*", style + " class:winning"
            if i in chosen:
                left, right, style = "=", "=", style + " class:choice"
            if i in shown:
                left, right, style = "»", "«", style + " class:target"
            if i == cursor:
                left, right, style = "▶", "◀", style + " class:cursor"
            text = " " * pad_l + left + inner + right + " " * pad_r
            line.append(_on(click, Intent("goto", i), style, text))
        lines.append(line)
    return lines


def cursor_line(model: Model, width: int) -> Line:
    """Under the board: what the cursor is on, or in a replay the move shown."""
    if model.replay is not None:
        g = model.game
        assert g is not None
        r = model.replay
        if r.at == 0:
            return wrap([("class:info", " The deal. → steps forward.")], width)[0]
        if g.last is None:
            return [("class:info", f" Move {r.at}.")]
        parts: Line = [("class:info", f" Move {r.at}: "), *last_parts(model, g, g.last)]
        return _first_fitting([parts, [("class:info", f" Move {r.at}.")]], width)
    text = describe_cell(model, model.cursor)
    while get_cwidth(text) + 1 > width and ("," in text or ";" in text):
        text = text[: max(text.rfind(","), text.rfind(";"))]
    return [("class:info", " " + shorten(text, width - 1))]


def _player_entry(model: Model, seat: int, width: int, compact: bool) -> Line:
    g = model.game
    assert g is not None
    p = g.players[seat]
    turn = seat == g.turn and g.result is None
    mark = "▶" if turn else " "
    style = "class:turn" if turn else "class:dim" if p.away else ""
    if seat == g.seat and model.replay is None:
        style += " class:you"
    cards = str(p.held)
    if not compact:
        cards += " card" if p.held == 1 else " cards"
    tags = ""
    if not compact:
        if seat == g.seat and model.replay is None:
            tags = " (you)"
        elif computer_level(model, seat) is not None:
            tags = " (computer)"  # its own seat, or an away player's it plays for
        elif p.away:
            tags = " (away)"
    room = width - 2 - len(cards) - 1  # the mark and its space, the gap before the count
    if tags == " (computer)" and get_cwidth(p.name) + len(tags) > room:
        cards = str(p.held)  # the name and what it is matter more than "cards"
        room = width - 2 - len(cards) - 1
    name = shorten(p.name, max(1, room - len(tags))) + tags
    return [(style, f"{mark} {name:<{room}} {cards}")]


def _side_header(model: Model, side: int, width: int) -> Line:
    g = model.game
    assert g is not None
    done = len(g.sequences[side]) if side < len(g.sequences) else 0
    name = side_label(side)
    return _first_fitting(
        [
            [(side_style(side), name), ("", f"  sequences {done}/{g.needed}")],
            [(side_style(side), name), ("", f" {done}/{g.needed} seq.")],
            [(side_style(side), SIDE_NAMES[side]), ("", f" {done}/{g.needed}")],
        ],
        width,
    )


def panel_lines(model: Model, width: int, height: int) -> list[Line]:
    """Beside the board: the sides and their players, the piles, the last move, a
    waiting draw. Players go two or three to a line when one each would not fit."""
    g = model.game
    assert g is not None
    tail: list[Line] = []
    top = card_label(g.discard[-1]) if g.discard else "—"
    tail.append(_first_fitting(
        [[("", f"Discard {top}  Draw pile {g.draw_size}")],
         [("", f"Discard {top} · Draw {g.draw_size}")]],
        width,
    ))  # fmt: skip
    if model.draw_waiting and model.replay is None:
        tail += wrap([("class:myturn", "Your draw waits: press d")], width)
    last: list[Line] = []
    if g.last is not None:
        last = wrap([("class:dim", "Last: "), *last_parts(model, g, g.last)], width, indent=2)
    away = [p.name for p in g.players if p.away]
    for columns in range(1, 5):
        body: list[Line] = []
        entry_w = (width - (columns - 1) * 2) // columns
        if columns > 1 and entry_w < 8:
            break
        for side in range(g.sides):
            body.append(_side_header(model, side, width))
            seats = [s for s, p in enumerate(g.players) if p.side == side]
            for i in range(0, len(seats), columns):
                line: Line = []
                for j, seat in enumerate(seats[i : i + columns]):
                    if j:
                        line.append(("", "  "))
                    line += _player_entry(model, seat, entry_w, columns > 1)
                body.append(line)
        if columns > 1 and away:
            body += wrap([("class:dim", "Away: " + ", ".join(away))], width, indent=2)
        for extra in (last, []):
            if len(body) + len(tail) + len(extra) <= height:
                return body + tail + extra
    return body + tail  # too many to show: the tests catch this


def hand_lines(model: Model, width: int, click: Click = None) -> list[Line]:
    """The hand, one item per card (the number key that picks it, the card, what it
    does), the new card marked; a waiting draw is an item too. Wrapped as needed."""
    g = model.game
    assert g is not None
    if model.replay is not None:
        return all_hands(model, width)
    if g.result is not None:
        return end_lines(model, width)
    if g.seat is None:
        return [[("class:dim", " You are watching: hands are hidden.")]]
    items: list[Line] = []
    drawn_shown = False
    for i, card in enumerate(model.hand):
        label = card_label(card)
        dead = is_dead(model, card)
        if card in TWO_EYED:
            label += " wild"
        elif card in ONE_EYED:
            label += " remove"
        elif dead:
            label += " dead"
        style = "class:dead" if dead else card_style(card)
        if card == model.picked:
            style += " class:picked"
        item = [_on(click, Intent("pick", i), style, f"[{(i + 1) % 10}]{label}")]
        if card == g.drawn and not drawn_shown:
            drawn_shown = True
            item.append(_on(click, Intent("pick", i), "class:new", " new"))
        items.append(item)
    if model.draw_waiting:
        items.insert(0, [_on(click, Intent("draw"), "class:myturn", "[d] take your draw")])
    if g.exchanged:
        items.append([("class:dim", "(dead card exchanged)")])
    lines: list[Line] = [[("class:label", " Hand ")]]
    for item in items:
        if width_of(lines[-1]) + 1 + width_of(item) > width:
            lines.append([("", "      ")])
        lines[-1] += [("", " "), *item]
    return lines


def all_hands(model: Model, width: int) -> list[Line]:
    """In a replay: every seat's hand, packed into columns."""
    r = model.replay
    g = model.game
    assert r is not None and g is not None
    step = r.step
    entries: list[Line] = []
    for seat, hand in enumerate(step.hands):
        p = g.players[seat]
        entry: Line = [(side_style(p.side), shorten(p.name, 12)), ("", ":")]
        for card in hand:
            style = "class:dead" if card in step.dead[seat] else card_style(card)
            entry += [("", " "), (style, card_label(card))]
        if not hand:
            entry.append(("class:dim", " no cards"))
        entries.append(entry)
    lines = _pack(entries, width)
    if g.result is not None:
        lines.insert(0, _banner(model, width))
    return lines


def _pack(entries: list[Line], width: int) -> list[Line]:
    """Entries side by side in as many columns as fit, one per line if need be."""
    widest = max((width_of(e) for e in entries), default=0) + 3
    columns = max(1, (width - 1) // widest)
    lines: list[Line] = []
    for i in range(0, len(entries), columns):
        line: Line = [("", " ")]
        for j, entry in enumerate(entries[i : i + columns]):
            line += entry
            if j < columns - 1:
                line.append(("", " " * (widest - width_of(entry))))
        if width_of(line) > width:
            line = wrap(line, width)[0]
        lines.append(line)
    return lines


def _banner_style(side: int | None) -> str:
    """The end of a game in the winner's colour (neutral for a draw)."""
    return f"class:banner.{SIDE_LETTERS[side].lower()}" if side is not None else "class:banner"


def _banner(model: Model, width: int) -> Line:
    g = model.game
    assert g is not None and g.result is not None
    return wrap([(_banner_style(g.result.side), f" Game over: {result_text(g)}. ")], width)[0]


def end_lines(model: Model, width: int) -> list[Line]:
    """Every hand revealed, and the sequences that won."""
    g = model.game
    assert g is not None and g.result is not None
    out = g.result
    lines: list[Line] = [_banner(model, width)]
    if out.side is not None:
        spans = ", ".join(five_label(f) for f in g.sequences[out.side])
        lines += wrap([("", f" Winning sequences (marked * on the board): {spans}")], width, 3)
    entries: list[Line] = []
    for seat, hand in enumerate(out.hands):
        p = g.players[seat] if seat < len(g.players) else None
        name = p.name if p is not None else f"Seat {seat + 1}"
        style = side_style(p.side) if p is not None else ""
        entry: Line = [(style, shorten(name, 16)), ("", " held:")]
        for card in hand:
            entry += [("", " "), (card_style(card), card_label(card))]
        if not hand:
            entry.append(("class:dim", " no cards"))
        entries.append(entry)
    return lines + _pack(entries, width)


def fives_lines(model: Model, width: int, click: Click = None) -> list[Line]:
    cell = model.fives_cell
    if cell is None:
        return []
    options = choice_options(model, cell)
    lines = wrap(
        [("class:ask", f" Which five make the sequence at {cell_name(cell)}? ↑↓ and Enter, "
                       "or the number; Esc: not now ")], width,
    )  # fmt: skip
    for i, option in enumerate(options):
        spans = ", ".join(five_label(f) for f in option)
        mark = "▶" if i == model.fives_index else " "
        style = "class:selected" if i == model.fives_index else ""
        lines.append([_on(click, Intent("fives_pick", i), style, f"  {mark} {i + 1}) {spans}")])
    return lines


def game_footer(model: Model, width: int) -> Line:
    """The game's footer: its keys, led by a waiting draw in the turn's colours (a draw
    waits only so long once the next player may move: docs/rules.md)."""
    if model.link == "closed":  # a connection closed for good leaves one thing to do
        return keys_line([("q", "quit")], width)
    keys = game_keys(model)
    if not (model.draw_waiting and model.replay is None and model.overlay != "fives"):
        return keys_line(keys, width)
    banner: Line = [("class:myturn", " ▶ d: TAKE YOUR DRAW ◀ ")]
    rest = [k for k in keys if k[0] != "d"]
    return banner + keys_line(rest, max(1, width - width_of(banner)))


def game_keys(model: Model) -> list[tuple[str, str]]:
    g = model.game
    assert g is not None
    if model.replay is not None:
        return [("←→", "step"), ("PgUp PgDn", "10 moves"), ("Home End", "start, end"),
                ("?", "help"), ("q", "quit")]  # fmt: skip
    if model.overlay == "fives":
        return [("↑↓", "choose"), ("1-9", "pick"), ("Enter", "confirm"), ("Esc", "cancel")]
    if g.seat is None:
        return [("arrows", "look around"), ("c", "chat"), ("L", "leave"), ("?", "help"),
                ("q", "quit")]  # fmt: skip
    if final_board(model):
        return [("Enter", "to the waiting room"), ("L", "leave the table"), ("c", "chat"),
                ("?", "help"), ("q", "quit")]  # fmt: skip
    if g.result is not None:
        return [("r", "rematch"), ("L", "leave the table"), ("c", "chat"), ("?", "help"),
                ("q", "quit")]  # fmt: skip
    keys = [("←↑↓→", "move"), ("1-9 Tab", "card"), ("Enter", "play")]
    if model.draw_waiting:
        keys.append(("d", "draw"))
    if g.dead:
        keys.append(("x", "dead card"))
    if g.legal == ("pass",):
        keys.append(("p", "pass"))
    if hand_over_seat(model) is not None:
        keys.append(("o", "away seat to computer"))
    return [*keys, ("c", "chat"), ("?", "help"), ("q", "quit")]


def lobby_keys(model: Model) -> list[tuple[str, str]]:
    if model.overlay == "create":
        return [("↑↓", "field"), ("←→", "change"), ("Enter", "create"), ("Esc", "cancel")]
    return [("↑↓", "choose"), ("Enter", "join"), ("s", "watch"), ("n", "new table"),
            ("r", "refresh"), ("?", "help"), ("q", "quit")]  # fmt: skip


def table_keys(model: Model) -> list[tuple[str, str]]:
    return [("↑↓ Enter", "sit"), ("r", "ready"), ("c", "chat"), ("L", "leave"), ("?", "help"),
            ("q", "quit")]  # fmt: skip


# ----- help -----------------------------------------------------------------------

RULES = [
    "Goal: five of your chips in a line, across, down or diagonal, make a sequence. "
    "Two sides need two sequences to win; three sides need one. The corners ★ count "
    "for every side.",
    "Your turn: pick a card and put a chip on one of its two spaces on the board; then "
    "you draw (the server draws for you, unless the table uses manual draw: then press "
    "d before the next player has played and drawn, or the draw is lost).",
    "Jacks: J♦ and J♣ are wild: a chip on any open space. J♠ and J♥ remove an "
    "opponent's chip that is not in a sequence.",
    "A dead card has both its spaces taken: once a turn you may exchange one (x) and "
    "draw another. Pass (p) only when nothing can be played.",
    "A sequence is locked: its chips stay. A side's second sequence may share one "
    "space with its first. Seats alternate colours; teammates share a colour, not a hand.",
    "On the board: (B) a Blue chip, (G) Green, (R) Red; [B] locked in a sequence; "
    "»\u00a0« the picked card's spaces; ▶\u00a0◀ the cursor; +\u00a0+ the last move; "
    "*\u00a0* the winning sequences.",
]

KEYS_HELP = [
    ("Playing", ""),
    ("1 … 9, 0 / Tab", "pick that card / the next one you can play (Shift-Tab: back)"),
    ("arrows, h j k l", "move the cursor; n: to the picked card's next space"),
    ("Enter, Space", "play the picked card at the cursor (or at its only space)"),
    ("x / p / d", "exchange a dead card / pass / take a waiting draw"),
    ("Esc", "put the card back"),
    ("mouse", "click a card to pick it, a space to play it there"),
    ("Tables", ""),
    ("Enter, s, n, r", "lobby: join, watch, new table, refresh"),
    ("Enter, r", "waiting room: sit in the chosen seat, ready / not ready"),
    ("r", "after a game: ask for a rematch"),
    ("o", "hand an away player's seat to the computer (after 1 min)"),
    ("Anywhere", ""),
    ("c", "chat with the table"),
    ("L", "leave the table (your seat is kept during a game)"),
    ("PgUp/Dn Home End", "scroll the log back / on / to the start / to the newest"),
    ("b", "a bell and the window's title on your turn: on / off"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit (asks first during a game; the seat is kept)"),
]


def help_lines(model: Model, width: int, height: int) -> list[Line]:
    page = model.help_page
    head = " How to play Sarja" if page == 0 else " Keys"
    lines: list[Line] = [bar([("class:title", head)], [("class:title", f"page {page + 1} of 2 ")],
                             width, "class:title")]  # fmt: skip
    if page == 0:
        paragraphs = [wrap([("", " " + text)], width - 1, indent=1) for text in RULES]
        spaced = sum(len(p) for p in paragraphs) + len(paragraphs) <= height - 1
        for i, paragraph in enumerate(paragraphs):
            lines += ([[]] if spaced and i else []) + paragraph
    else:
        key_w = 18
        for key, text in KEYS_HELP:
            if not text:
                lines.append([("class:label", f" {key}")])
            else:
                lines += wrap([("class:keyname", f"   {key:<{key_w}}"), ("", text)], width,
                              indent=3 + key_w)  # fmt: skip
    filler: list[Line] = [[] for _ in range(height - 1 - len(lines))]
    foot = keys_line([("Tab ←→", "other page"), ("Esc ?", "close")], width)
    return [*lines, *filler, foot]
