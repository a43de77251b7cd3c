"""The lobby, the new-table form and the waiting room, drawn: pure functions of the
model and the part's size, as render.py's are (the words are words/lobby.py's and
words/table.py's)."""

from __future__ import annotations

from typing import Any

from prompt_toolkit.utils import get_cwidth

from sarja.protocol.cards import LEVELS
from sarja.protocol.limits import MAX_NAME
from sarja.protocol.messages import TableSummary

from . import intents as ask
from .fit import Line, column, shorten, wrap
from .fit import cut as _cut
from .form import CreateForm, team_choices, usual_hand
from .held import name_taken, ours
from .model import Model
from .render import Click, clickable
from .render_match import score_lines
from .styles import side_style
from .words import common
from .words import lobby as words
from .words import match as match_words
from .words import table as table_words
from .words.bot import says_its_level
from .words.common import arrangement_label, side_label

DETAIL_ROWS = 3  # the lobby's lines about the chosen table
FORM_LABEL_WIDTH = 30


# ----- the lobby ----------------------------------------------------------------------


def _lobby_columns(width: int) -> tuple[int, int, int, int]:
    name = 22 if width >= 100 else 18
    shape = 14
    seats = 14
    rules = width - 3 - name - shape - seats - 3
    return name, shape, seats, rules


def lobby_list(model: Model, width: int, height: int, click: Click = None) -> list[Line]:
    """The header and one line per table, scrolled to keep the chosen one in view."""
    name_w, shape_w, seats_w, rules_w = _lobby_columns(width)
    head = words.HEAD
    text = f"   {head[0]:<{name_w}} {head[1]:<{shape_w}} {head[2]:<{seats_w}} {head[3]}"
    lines: list[Line] = [[("class:label", text)]]
    if not model.tables:
        lines.append([("", "   " + words.NO_TABLES_YET)])
        return lines
    room = max(1, height - 1)
    first = min(max(0, model.lobby_row - room + 1), max(0, len(model.tables) - room))
    for row in range(first, min(len(model.tables), first + room)):
        info = model.tables[row]
        chosen = row == model.lobby_row
        free = sum(1 for s in info.seated if s is None)
        seats = words.seats_state(info.started, free, info.players)
        rules_items = words.rules_items(
            info.rules.hand_size, info.rules.manual_draw, info.computer_takeover, info.turn_clock,
            info.hints,
        )  # fmt: skip
        if info.match is not None:  # the score first: it says most about the table
            rules_items.insert(0, match_words.lobby_item(info.match, info.teams))
        rules = ", ".join(rules_items)
        while get_cwidth(rules) > rules_w and len(rules_items) > 1:
            rules_items.pop()
            rules = ", ".join([*rules_items, words.MORE])
        rules = shorten(rules, rules_w)  # one item may be wider than the column alone
        text = (
            f" {'▶' if chosen else ' '} {column(info.name, name_w)} "
            f"{arrangement_label(info.players, info.teams):<{shape_w}} "
            f"{seats:<{seats_w}} {rules}"
        )
        style = "class:selected" if chosen else ""
        lines.append([clickable(click, ask.LobbyClick(row), style, text)])
    return lines


def lobby_details(model: Model, width: int) -> list[Line]:
    """Who sits where at the chosen table, and its rules in full, wrapped at words in
    DETAIL_ROWS lines: names are shortened, and the hint on keys made brief or left
    out, only as far as it takes to fit. That someone there has our name is never left
    out: it is why Enter will not work there."""
    if not model.tables:
        return []
    info = model.tables[min(model.lobby_row, len(model.tables) - 1)]
    rules = words.rules_items(
        info.rules.hand_size, info.rules.manual_draw, info.computer_takeover, info.turn_clock,
        info.hints,
    )  # fmt: skip
    if info.match is not None:
        rules.insert(0, match_words.lobby_item(info.match, info.teams))
    extra = [("class:label", words.RULES), ("", ", ".join(rules))]
    if info.spectators:
        extra.append(("", "; " + words.watching(info.spectators)))
    taken = name_taken(model, info) or ""
    hints = words.detail_hints(info.started, ours(model, info), taken)
    lines, fits = _details(info, extra, hints, width, DETAIL_ROWS)
    if fits or not taken:
        return lines
    # Six seats or more leave the hint no room after the rules: it takes a line of its
    # own, and the seats and rules above it are cut instead.
    alone = wrap([("", " "), ("class:dim", words.name_taken_alone(taken))], width, indent=3)
    rows = max(1, DETAIL_ROWS - len(alone))
    return [*_details(info, extra, (".",), width, rows)[0], *alone[: DETAIL_ROWS - rows]]


def _details(
    info: TableSummary, extra: list[Any], hints: tuple[str, ...], width: int, rows: int
) -> tuple[list[Line], bool]:
    """The seats, then the rules and the first of `hints` with which they fit in `rows`
    lines, names shortened as far as it takes, and True; or, fitting with none, the
    shortest cut after its last word that fits, and False. Names are shortened only
    when whole they would leave the rules no line."""
    lines: list[Line] = []
    whole: list[Line] = []
    # Before a name is cut, the computers' levels go (the rules and the waiting room say
    # them): a name cut to its first letters ("Keskita…") says nothing.
    for longest, brief in ((MAX_NAME, False), (MAX_NAME, True), (12, True), (8, True), (5, True)):
        seat_lines = wrap([("", " "), *_seat_parts(info, longest, brief)], width, indent=3)
        if longest < MAX_NAME and len(whole) < rows:
            break  # the names fit whole with a line of the rules left: cut the rules instead
        whole = seat_lines
        for hint in hints:
            lines = seat_lines + wrap([("", " "), *extra, ("class:dim", hint)], width, indent=3)
            if len(lines) <= rows:
                return lines, True
    # Nothing fits: the names whole, and what does not fit cut at the end.
    seat_lines = wrap([("", " "), *_seat_parts(info, MAX_NAME, True)], width, indent=3)
    lines = seat_lines + wrap([("", " "), *extra, ("class:dim", hints[-1])], width, indent=3)
    return [*lines[: rows - 1], _cut(lines[rows - 1], width)], False


def _seat_parts(info: TableSummary, longest: int, brief: bool = False) -> list[Any]:
    seats: list[Any] = [("class:label", words.SEATS)]
    for i, who in enumerate(info.seated):
        side = i % info.teams
        level = info.computers[i] if info.computers else None
        if level and says_its_level(who or "", level):
            level = None  # sarja-bot's own name says what it is (and it is no server's)
        about = words.seat_about(common.SIDE_NAMES[side], level, brief)
        seats += [("", ", " if i else ""),
                  (side_style(side), shorten(who or words.FREE, longest)),
                  ("class:dim", f" ({about})")]  # fmt: skip
    return seats


# ----- the new-table form ----------------------------------------------------------------


def form_lines(model: Model, width: int) -> list[Line]:
    """The new-table form below its name field (the name is a text box of its own)."""
    form = model.form
    usual = usual_hand(model.shapes, form.players, form.teams)
    hand = words.form_hand(form.hand_size, usual, form.players)
    computers = words.computer_seats(form.computers, form.players)
    values = {
        "players": f"◀ {form.players} ▶  ({arrangement_label(form.players, form.teams)})",
        "teams": (
            f"◀ {form.teams} ▶"
            if len(team_choices(model.shapes, form, form.players)) > 1
            else words.ONLY_WAY.format(teams=form.teams, players=form.players)
        ),
        "hand_size": f"◀ {hand} ▶",
        "manual_draw": f"◀ {words.on_off(form.manual_draw)} ▶",
        "computers": f"◀ {form.computers} ▶  ({computers})",
        "level": f"◀ {words.level_name(form.level)} ▶",
        "computer_takeover": f"◀ {words.on_off(form.computer_takeover)} ▶",
        "hints": f"◀ {words.on_off(form.hints)} ▶",
        "match_to": f"◀ {match_words.form_choice(form.match_to)} ▶  ({match_words.FORM_HINT})",
        "turn_clock": f"◀ {words.form_clock(form.turn_clock)} ▶",
    }
    lines: list[Line] = []
    for i, key in enumerate(CreateForm.FIELDS[1:], start=1):
        chosen = i == form.field
        style = "class:selected" if chosen else ""
        label = _label(key, chosen)
        lines.append([(style, label), (style, shorten(values[key], width - len(label)))])
    return lines


def _label(key: str, chosen: bool) -> str:
    mark = "▶" if chosen else " "
    return f"  {mark} {words.FORM_LABELS[key] + ':':<{FORM_LABEL_WIDTH}}"


def form_label(model: Model) -> str:
    """The name field's label, beside its text box."""
    return _label("name", model.form.field == 0)


# ----- the waiting room ---------------------------------------------------------------


def created_here(model: Model) -> bool:
    """At the waiting room of the table we made: its computer key is ours to use. The
    server says so (after this client started again, too); an older server does not,
    and then we know only the table our own `create_table` made."""
    table = model.table
    if table is None or table.started:
        return False
    return table.creator or table.id == model.created


def seated(model: Model) -> bool:
    """We sit at the table on screen (not only watching it)."""
    return model.table is not None and model.table.seat is not None


def seats_computers(model: Model) -> bool:
    """At the table we made, in a seat of it: there `a` seats computers. A creator who
    only watches is refused (`not_a_player`: a person always plays at the table), so
    neither the key bar nor the help offers the key to them."""
    return created_here(model) and seated(model)


def computer_key(model: Model) -> str | None:
    """What `a` does at the chosen seat of the table we made (None: nothing there)."""
    table = model.table
    if table is None or not seats_computers(model) or not 0 <= model.seat_row < table.players:
        return None
    seat = table.seats[model.seat_row]
    if seat.name is None:
        return table_words.KEY_COMPUTER
    if seat.remote or seat.computer not in LEVELS or model.seat_row == table.seat:
        return None  # a person's, ours, or a bot's
    return table_words.KEY_HARDER if seat.computer != LEVELS[-1] else table_words.KEY_FREE


def table_lines(model: Model, width: int, height: int, click: Click = None) -> list[Line]:
    table = model.table
    assert table is not None
    rules = words.rules_items(
        table.rules.hand_size,
        table.rules.manual_draw,
        table.computer_takeover,
        table.turn_clock,
        table.hints,
    )
    about = f" {arrangement_label(table.players, table.teams)} · {', '.join(rules)}"
    if table.spectators:
        about += " · " + words.watching(table.spectators)
    lines: list[Line] = [*wrap([("", about)], width, indent=1), *score_lines(model, width)]
    lines.append([("class:label", table_words.SEATS_HEAD)])
    side_w = max(10, *(get_cwidth(side_label(s)) for s in range(table.teams)))  # "Sininen (B)"
    states = [
        table_words.seat_state(
            seat.away, seat.ready, bool(seat.name), seat.computer is not None, i in table.rematch
        )
        for i, seat in enumerate(table.seats)
    ]
    # The names take what the seat's number, its side and the longest state leave (a
    # computer's tag is long in Finnish: "(tietokone, keskitasoinen)"), up to 60.
    name_w = max(10, min(60, width - 10 - side_w - max(map(get_cwidth, states))))
    for i, seat in enumerate(table.seats):
        chosen = i == model.seat_row
        side = i % table.teams
        who = seat.name or table_words.FREE_SEAT
        if i == table.seat:
            who = shorten(who, name_w - 6) + table_words.YOU_TAG
        elif seat.computer is not None and not seat.away:
            tag = table_words.computer_tag(seat.computer, seat.remote, seat.name or "")
            who = shorten(who, name_w - get_cwidth(tag)) + tag
        state = states[i]
        row_style = "class:selected" if chosen else ""
        intent = ask.Sit(i)
        lines.append([
            clickable(click, intent, row_style, f" {'▶' if chosen else ' '} {i + 1:>2}  "),
            clickable(click, intent, side_style(side), column(side_label(side), side_w)),
            clickable(click, intent, row_style, f"  {column(who, name_w)} {state}"),
        ])  # fmt: skip
    if table.seat is None:
        hint = table_words.WATCHING_HINT
    elif table.started:
        hint = table_words.GAME_ON
    else:
        # The server's computers are always ready; a bot says it is, as a person does.
        computers = any(s.computer and not s.remote for s in table.seats)
        # Only a server that says who made the table takes back its creator's ready.
        hint = table_words.starts_when(computers, table.creator)
    lines += wrap([("class:dim", hint)], width, indent=1)
    return lines
