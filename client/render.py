"""The screen as formatted text: a pure function of the model and the terminal's size.

`screen_lines(model, width, height)` returns one list of (style, text) fragments per
terminal line, and `hit(model, width, height, x, y)` says what a click there means.
Styles are class names only ("class:chip.b"); the app maps them to colours, so NO_COLOR
and 16/256-colour terminals differ in one place.
Nothing depends on colour alone: chips carry their side's letter, locked chips square
brackets, the cursor ▶◀, a picked card's spaces ›‹, whose turn is written out.
"""

from __future__ import annotations

import textwrap

from sarja.protocol.cards import COLUMNS, CORNER_CODE, ONE_EYED, TWO_EYED, cell_name
from sarja.protocol.mirror import five_cells

from .intents import Intent, screen, team_choices, usual_hand
from .model import (
    SIDE_LETTERS,
    SIDE_NAMES,
    CreateForm,
    Model,
    arrangement_label,
    card_label,
    choice_options,
    describe_cell,
    five_label,
    is_dead,
    last_text,
    sequence_cells,
    side_label,
    targets,
    turn_text,
)

MIN_WIDTH, MIN_HEIGHT = 80, 24
Fragment = tuple[str, str]
Line = list[Fragment]


def screen_lines(model: Model, width: int, height: int) -> list[Line]:
    """Every line of the screen, exactly `height` of them."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        lines = _too_small(width, height)
    elif model.overlay == "help":
        lines = _help(model)
    else:
        draw = {
            "connect": _connect,
            "name": _name,
            "lobby": _lobby,
            "table": _table,
            "game": _game,
        }[screen(model)]
        lines = draw(model, width, height)
    lines = lines[:height]
    return lines + [[] for _ in range(height - len(lines))]


def plain_text(lines: list[Line]) -> str:
    """The screen as text without styles (tests, the README capture)."""
    return "\n".join("".join(f[1] for f in line).rstrip() for line in lines)


# ----- pieces ----------------------------------------------------------------------


def _width(line: Line) -> int:
    return sum(len(f[1]) for f in line)


def _pad(line: Line, width: int, style: str = "") -> Line:
    """`line` cut or filled with spaces to exactly `width` columns."""
    out: Line = []
    used = 0
    for f in line:
        if used >= width:
            break
        text = f[1][: width - used]
        out.append((f[0], text, *f[2:]))
        used += len(text)
    if used < width:
        out.append((style, " " * (width - used)))
    return out


def _bar(left: Line, right: Line, width: int, style: str) -> Line:
    gap = max(1, width - _width(left) - _width(right))
    return _pad([*left, (style, " " * gap), *right], width, style)


def _status(model: Model, width: int) -> Line:
    """The line for the connection, typed text, questions and the server's refusals."""
    if model.overlay == "chat":
        return _pad(
            [("class:prompt", " Say: "), ("", model.chat_draft), ("class:caret", " ")], width
        )
    if model.overlay == "quit":
        return _pad([("class:ask", " Quit in the middle of the game? y / n ")], width)
    if model.overlay == "leave":
        return _pad([("class:ask", " Leave the table? Your seat is kept. y / n ")], width)
    if model.link in ("reconnecting", "unreachable", "connecting") and model.welcome is not None:
        text = model.link_text or "trying the server…"
        return _pad([("class:link", f" reconnecting… {text} ")], width)
    if model.link == "closed" and model.welcome is not None:
        return _pad([("class:link", f" Disconnected: {model.link_text} q quits. ")], width)
    return _pad([("class:status", f" {model.status}")], width)


def _keys(text: str, width: int) -> Line:
    return _pad([("class:keys", " " + text)], width, "class:keys")


def _log(model: Model, count: int, width: int) -> list[Line]:
    if count <= 0:
        return []
    lines: list[Line] = []
    for entry in reversed(model.log):
        style = {"chat": "class:log.chat", "error": "class:log.error"}.get(entry.kind, "class:log")
        if entry.kind in ("sequence", "won", "removed"):
            style = "class:log.big"
        text = entry.text
        chunks = [text[i : i + width - 2] for i in range(0, len(text), width - 2)] or [""]
        for chunk in reversed(chunks):
            lines.append([(style, " " + chunk)])
        if len(lines) >= count:
            break
    lines = lines[:count][::-1]
    return [[] for _ in range(count - len(lines))] + lines


def _title(model: Model, width: int, where: str) -> Line:
    server = model.welcome.server if model.welcome else "Sarja"
    left = f" Sarja · {server} at {model.address}"
    if model.name:
        left += f" · {model.name}"
    return _bar([("class:title", left)], [("class:title", f"{where} ")], width, "class:title")


# ----- connecting and the name --------------------------------------------------


def _connect(model: Model, width: int, height: int) -> list[Line]:
    if model.link == "unreachable":
        body = [model.link_text, "", "r: try now · q: quit"]
    elif model.link == "closed":
        body = [f"Disconnected: {model.link_text}", "", "q: quit"]
    elif model.named:
        body = [f"Joining {model.address} as {model.name}…"]
    else:
        body = [f"Connecting to {model.address}…", "", "q: quit"]
    return _centred(["Sarja", "", *body], width, height)


def _name(model: Model, width: int, height: int) -> list[Line]:
    texts = ["Sarja", "", f"Connected to {model.address}.", "", "What is your name?"]
    lines = _centred([*texts, "", "", "(it is remembered for next time)"], width, height - 3)
    prompt: Line = [
        ("", " " * max(0, (width - 30) // 2)),
        ("class:prompt", "Name: "),
        ("class:input", model.name_draft),
        ("class:caret", " "),
    ]
    lines[max(0, (height - 3 - 8) // 2) + 6] = prompt
    return [*lines, _status(model, width), [], _keys("Enter: continue · Ctrl-C: quit", width)]


def _centred(texts: list[str], width: int, height: int) -> list[Line]:
    texts = [part for text in texts for part in (textwrap.wrap(text, width - 4) or [""])]
    top = max(0, (height - len(texts)) // 2)
    lines: list[Line] = [[] for _ in range(top)]
    for i, text in enumerate(texts):
        style = "class:title" if i == 0 else ""
        lines.append([("", " " * max(0, (width - len(text)) // 2)), (style, text)])
    return lines + [[] for _ in range(height - len(lines))]


def _too_small(width: int, height: int) -> list[Line]:
    text = [
        f"Sarja needs a terminal of at least {MIN_WIDTH}×{MIN_HEIGHT};",
        f"this one is {width}×{height}. Please make it bigger.",
    ]
    return [[("class:link", t[:width])] for t in text]


# ----- the lobby --------------------------------------------------------------------


def _lobby(model: Model, width: int, height: int) -> list[Line]:
    lines: list[Line] = [_title(model, width, "lobby"), []]
    header = f"   {'Table':<20} {'Arrangement':<16} {'Seats':<22} Rules"
    lines.append([("class:label", header[:width])])
    if not model.tables:
        lines.append([("", "   No tables yet. Press n to create one.")])
    for row, info in enumerate(model.tables[: height - 14]):
        chosen = row == model.lobby_row
        seated = [s for s in info.seated if s]
        free = info.players - len(seated)
        if info.started:
            seats = f"playing; {', '.join(seated)}"
        else:
            seats = f"{free} free; {', '.join(seated) or 'empty'}"
        rules = f"hand {info.rules.hand_size}"
        if info.rules.manual_draw:
            rules += ", manual draw"
        if info.computer_takeover:
            rules += ", takeover"
        if info.spectators:
            rules += f", {info.spectators} watching"
        text = (
            f" {'▶' if chosen else ' '} {info.name[:20]:<20} "
            f"{arrangement_label(info.players, info.teams):<16} {seats[:22]:<22} {rules}"
        )
        style = "class:selected" if chosen else ""
        lines.append(_pad([(style, text)], width))
    lines.append([])
    if model.overlay == "create":
        lines += _create_form(model, width)
    keys = "↑↓ choose · Enter join · s watch · n new table · r refresh · ? help · q quit"
    if model.overlay == "create":
        keys = "↑↓ field · ←→ change · type the name · Enter create · Esc cancel"
    room = height - len(lines) - 2
    return [*lines, *_log(model, room, width), _status(model, width), _keys(keys, width)]


def _create_form(model: Model, width: int) -> list[Line]:
    form = model.form
    usual = usual_hand(model, form.players, form.teams)
    values = {
        "name": form.name,
        "players": f"◀ {form.players} ▶  ({arrangement_label(form.players, form.teams)})",
        "teams": (
            f"◀ {form.teams} ▶"
            if len(team_choices(model, form.players)) > 1
            else f"{form.teams}"
        ),
        "hand_size": f"◀ {form.hand_size or f'{usual}, the usual for this size'} ▶",
        "manual_draw": "on" if form.manual_draw else "off",
        "computer_takeover": "on" if form.computer_takeover else "off",
    }
    labels = {
        "name": "Name",
        "players": "Players",
        "teams": "Sides",
        "hand_size": "Hand size",
        "manual_draw": "Manual draw (house rule)",
        "computer_takeover": "Computer plays absent seats",
    }
    lines: list[Line] = [[("class:label", " New table")]]
    for i, key in enumerate(CreateForm.FIELDS):
        mark = "▶" if i == form.field else " "
        style = "class:selected" if i == form.field else ""
        line: Line = [(style, f"  {mark} {labels[key] + ':':<30}"), (style, values[key])]
        if key == "name" and i == form.field:
            line.append(("class:caret", " "))
        lines.append(_pad(line, width))
    return lines


# ----- the waiting room ---------------------------------------------------------------


def _table(model: Model, width: int, height: int) -> list[Line]:
    table = model.table
    assert table is not None
    lines: list[Line] = [_title(model, width, f"table {table.name}"), []]
    rules = [f"hand {table.rules.hand_size}"]
    if table.rules.manual_draw:
        rules.append("manual draw")
    if table.computer_takeover:
        rules.append("a computer plays absent seats")
    lines.append(
        [("", f" {arrangement_label(table.players, table.teams)} · {', '.join(rules)}"
                 f" · {table.spectators} watching")]
    )  # fmt: skip
    lines.append([("class:label", " Seats: each plays for the side shown, so a seat is a team.")])
    for i, seat in enumerate(table.seats):
        chosen = i == model.seat_row
        side = i % table.teams
        who = seat.name or "— free —"
        if i == table.seat:
            who += " (you)"
        state = "away" if seat.away else "ready" if seat.ready else "not ready" if seat.name else ""
        line: Line = [
            ("class:selected" if chosen else "", f" {'▶' if chosen else ' '} {i + 1:>2}  "),
            (f"class:side.{SIDE_LETTERS[side].lower()}", f"{side_label(side):<10}"),
            ("class:selected" if chosen else "", f"  {who:<30} {state}"),
        ]
        lines.append(_pad(line, width))
    if table.seat is None:
        lines.append([("", " You are watching. Choose a free seat and press Enter to play.")])
    elif table.started:
        lines.append([("", " The game is on.")])
    else:
        lines.append([("", " When every seat is taken and everyone is ready, the game starts.")])
    lines.append([])
    keys = "↑↓ seat · Enter sit · r ready · c chat · L leave · ? help · q quit"
    room = height - len(lines) - 2
    return [*lines, *_log(model, room, width), _status(model, width), _keys(keys, width)]


# ----- the game -------------------------------------------------------------------


def _game(model: Model, width: int, height: int) -> list[Line]:
    s = model.game
    assert s is not None
    board = _board(model, _cell_width(width))
    panel_w = width - _width(board[0]) - 3
    panel = _panel(model, panel_w)
    lines: list[Line] = [_game_title(model, width)]
    for i, row in enumerate(board):
        side = panel[i] if i < len(panel) else []
        lines.append([*row, ("class:rule", " │ "), *_pad(side, panel_w)])
    lines.append(_pad([("class:info", " " + describe_cell(model, model.cursor))], width))
    if s.result is not None:
        lines += _end(model, width)
        keys = "r rematch · L leave the table · c chat · arrows look around · q quit"
    else:
        lines.append(_hand(model, width))
        keys = "←↑↓→ move · 1-9/Tab card · Enter play · x dead card · c chat · ? help · q quit"
        if model.overlay == "fives":
            lines += _fives(model, width)
    room = height - len(lines) - 2
    return [*lines, *_log(model, room, width), _status(model, width), _keys(keys, width)]


def _game_title(model: Model, width: int) -> Line:
    s = model.game
    assert s is not None
    seat = s.seat
    if seat is None:
        who = "watching"
    else:
        who = f"{s.players[seat].name}, {side_label(s.players[seat].side)}"
    table = model.table.name if model.table else s.table
    left: Line = [("class:title", f" Sarja · {table} · {who}")]
    turn = turn_text(model)
    if model.my_turn:
        right: Line = [("class:myturn", f" ▶ {turn} ◀ ")]
    elif s.result is not None:
        right = [("class:myturn", f" {turn} ")]
    else:
        right = [("class:title", f"{turn} ")]
    return _bar(left, right, width, "class:title")


def _cell_width(width: int) -> int:
    """Wider spaces when the terminal is wider, leaving the side panel its room."""
    return max(5, min(7, (width - 3 - 28) // 10))


def _board(model: Model, w: int) -> list[Line]:
    s = model.game
    assert s is not None
    layout, board = model.layout, s.board
    shown = targets(model, model.picked)
    chosen: set[int] = set()
    if model.overlay == "fives" and model.fives_cell is not None:
        options = choice_options(model, model.fives_cell)
        if model.fives_index < len(options):
            for five in options[model.fives_index]:
                chosen.update(five_cells(five))
    winning = (
        sequence_cells(model, s.result.side)
        if s.result is not None and s.result.side is not None
        else frozenset()
    )
    pad_l = (w - 5) // 2
    pad_r = w - 5 - pad_l
    lines: list[Line] = [[("class:label", "   " + "".join(letter.center(w) for letter in COLUMNS))]]
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
                inner = f"[{letter}]" if chip.isupper() else f"({letter})"
                style = f"class:chip.{chip.lower()}" + (" class:locked" if chip.isupper() else "")
            else:
                inner = card_label(card).rjust(3)
                style = "class:card.red" if card[1] in "HD" else "class:card.black"
            left = right = " "
            cell = i
            if cell in winning:
                left, right, style = "*", "*", style + " class:winning"
            if cell in chosen:
                left, right, style = "=", "=", style + " class:choice"
            if cell in shown:
                left, right, style = "›", "‹", style + " class:target"
            if cell == model.cursor:
                left, right, style = "▶", "◀", style + " class:cursor"
            line.append((style, " " * pad_l + left + inner + right + " " * pad_r))
        lines.append(line)
    return lines


def _panel(model: Model, width: int) -> list[Line]:
    """Sides and players, whose turn, the piles, the last move."""
    s = model.game
    assert s is not None
    lines: list[Line] = []
    for side in range(s.sides):
        letter = SIDE_LETTERS[side].lower()
        done = len(s.sequences[side]) if side < len(s.sequences) else 0
        lines.append(
            [
                (f"class:side.{letter}", f"{SIDE_NAMES[side]} ({SIDE_LETTERS[side]})"),
                ("", f"  sequences {done}/{s.needed}"),
            ]
        )
        for seat, p in enumerate(s.players):
            if p.side != side:
                continue
            turn = seat == s.turn and s.result is None
            mark = "▶" if turn else " "
            tag = (" (you)" if seat == s.seat else "") + (" (away)" if p.away else "")
            room = width - 3 - 8  # the mark, then the name and its tags, then the cards
            name = p.name
            if len(name) + len(tag) > room:  # shorten the name, never the tags
                name = name[: max(0, room - len(tag) - 1)] + "…"
            cards = f"{p.hand_size} card" + ("" if p.hand_size == 1 else "s")
            text = f" {mark} {name + tag:<{room}}{cards:>8}"
            style = "class:turn" if turn else "class:dim" if p.away else ""
            lines.append([(style, text)])
    top = card_label(s.discard[-1]) if s.discard else "—"
    piles = f"Discard {top}  Draw pile {s.draw_size}"
    lines.append([("", piles if len(piles) <= width else piles.replace("  ", " "))])
    if s.last is not None:
        last = last_text(s, s.last)
        lines.append([("class:dim", last if len(last) + 6 > width else f"Last: {last}")])
    if s.pending_draw and s.seat in s.pending_draw:
        lines.append([("class:myturn", "You have a card to draw: d")])
    return lines


def _hand_items(model: Model) -> list[tuple[str, str]]:
    """(style, text) of each card in the hand, in order: what the hand line shows."""
    items = []
    for i, card in enumerate(model.hand):
        label = card_label(card)
        dead = is_dead(model, card)
        if card in TWO_EYED:
            label += " wild"
        elif card in ONE_EYED:
            label += " remove"
        elif dead:
            label += " dead"
        style = (
            "class:dead" if dead else "class:card.red" if card[1] in "HD" else "class:card.black"
        )
        if card == model.picked:
            style += " class:picked"
        items.append((style, f"[{(i + 1) % 10}]{label}"))
    return items


HAND_LABEL = " Hand "


def _hand(model: Model, width: int) -> Line:
    s = model.game
    assert s is not None
    if s.seat is None:
        return [("class:dim", " You are watching: hands are hidden.")]
    line: Line = [("class:label", HAND_LABEL)]
    for item in _hand_items(model):
        line += [("", " "), item]
    if s.exchanged:
        line.append(("class:dim", "  (dead card exchanged)"))
    return _pad(line, width)


# ----- clicks ---------------------------------------------------------------------

BOARD_TOP, HAND_ROW, LOBBY_TOP = 2, 13, 3  # screen rows of board row 1, the hand, table 1


def hit(model: Model, width: int, height: int, x: int, y: int) -> Intent | None:
    """The intent of a click at column x, row y: the same as the keys for that thing."""
    if width < MIN_WIDTH or height < MIN_HEIGHT or model.overlay is not None:
        return None
    where = screen(model)
    if where == "lobby":
        row = y - LOBBY_TOP
        if 0 <= row < min(len(model.tables), height - 14):
            return Intent("click_table", row)
    elif where == "game" and model.game is not None:
        w = _cell_width(width)
        if BOARD_TOP <= y < BOARD_TOP + 10 and 3 <= x < 3 + 10 * w:
            return Intent("goto", (y - BOARD_TOP) * 10 + (x - 3) // w)
        if y == HAND_ROW and model.game.result is None:
            start = len(HAND_LABEL)
            for i, (_, text) in enumerate(_hand_items(model)):
                start += 1
                if start <= x < start + len(text):
                    return Intent("click_card", i)
                start += len(text)
    return None


def _fives(model: Model, width: int) -> list[Line]:
    cell = model.fives_cell
    if cell is None:
        return []
    options = choice_options(model, cell)
    lines: list[Line] = [
        [("class:ask", f" Which five make the sequence at {cell_name(cell)}? ↑↓, Enter")]
    ]
    for i, option in enumerate(options):
        spans = ", ".join(five_label(f) for f in option)
        mark = "▶" if i == model.fives_index else " "
        style = "class:selected" if i == model.fives_index else ""
        lines.append(_pad([(style, f"  {mark} {i + 1}) {spans}")], width))
    return lines


def _end(model: Model, width: int) -> list[Line]:
    """Every hand revealed, and the sequences that won."""
    s = model.game
    assert s is not None and s.result is not None
    out = s.result
    lines: list[Line] = [[("class:myturn", f" Game over: {turn_text(model)}. ")]]
    if out.side is not None:
        spans = ", ".join(five_label(f) for f in s.sequences[out.side])
        lines.append([("", f" Winning sequences (marked * on the board): {spans}")])
    for seat, hand in enumerate(out.hands):
        name = s.players[seat].name if seat < len(s.players) else f"Seat {seat + 1}"
        cards = " ".join(card_label(c) for c in hand) or "no cards"
        lines.append(_pad([("", f" {name[:16]:<16} held: {cards}")], width))
    return lines


# ----- help -----------------------------------------------------------------------

HELP = [
    ("Moving", ""),
    ("arrows, h j k l", "move the cursor on the board"),
    ("mouse", "click a card to pick it, a space to play it there"),
    ("Playing", ""),
    ("1 … 9, 0", "pick that card of your hand"),
    ("Tab, Shift-Tab", "pick the next or previous card you can play"),
    ("n", "move the cursor to the picked card's next space"),
    ("Enter, Space", "play the picked card at the cursor (or at its only space)"),
    ("x", "exchange a dead card (the picked one, else the first)"),
    ("p / d", "pass (when nothing can be played) / draw (manual draw rule)"),
    ("Esc", "put the card back"),
    ("Tables", ""),
    ("Enter, s, n, r", "lobby: join, watch, new table, refresh"),
    ("Enter, r", "waiting room: sit in the chosen seat, ready / not ready"),
    ("r", "after a game: ask for a rematch"),
    ("Anywhere", ""),
    ("c", "chat with the table"),
    ("L", "leave the table (your seat is kept during a game)"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit (asks first during a game)"),
]


def _help(model: Model) -> list[Line]:
    lines: list[Line] = [[("class:title", " Sarja keys — any of ? Esc Enter closes this ")], []]
    for key, text in HELP:
        if not text:
            lines.append([("class:label", f" {key}")])
        else:
            lines.append([("class:keyname", f"   {key:<18}"), ("", text)])
    lines.append([])
    lines.append(
        [("class:dim", " Chips: (B) Blue, (G) Green, (R) Red; [B] locked in a sequence; ★ free.")]
    )
    return lines
