"""The lobby's, the new-table form's and the waiting room's intents carried out:
choosing, joining and watching a table, the form's fields, taking a seat, being ready.
"""

from __future__ import annotations

from typing import assert_never

from sarja.protocol.cards import LEVELS
from sarja.protocol.limits import (
    MAX_MATCH_TO,
    MAX_TABLE_NAME,
    MAX_TURN_CLOCK,
    MIN_MATCH_TO,
    MIN_TURN_CLOCK,
)
from sarja.protocol.messages import (
    ClientMessage,
    CreateTable,
    Join,
    ListTables,
    Ready,
    SeatComputer,
    Sit,
    Spectate,
    TableSummary,
)
from sarja.protocol.names import shows_something

from . import intents as ask
from .form import CreateForm, clock_step, clock_typed, hand_sizes, player_counts, team_choices
from .held import name_taken, ours
from .model import Model
from .typed import readable, typed
from .words import lobby
from .words import table as table_words


def tables(model: Model, intent: ask.LobbyIntent) -> list[ClientMessage]:
    """The lobby's list and the waiting room's seats."""
    match intent:
        case ask.LobbyMove(step):
            lobby_move(model, step)
        case ask.LobbyClick(row):
            return lobby_click(model, row)
        case ask.Join():
            return join(model)
        case ask.Spectate():
            return spectate(model)
        case ask.Refresh():
            return [ListTables()]
        case ask.SeatMove(step):
            seat_move(model, step)
        case ask.Sit(seat):
            return sit(model, seat)
        case ask.Ready():
            return ready(model)
        case ask.SeatComputer():
            return seat_computer(model)
        case _:
            assert_never(intent)
    return []


def form(model: Model, intent: ask.FormIntent) -> list[ClientMessage]:
    """The new-table form."""
    match intent:
        case ask.CreateOpen():
            create_open(model)
        case ask.FormMove(step):
            form_move(model, step)
        case ask.FormChange(step):
            form_change(model, step)
        case ask.FormName(text):
            form_name(model, text)
        case ask.FormDigit(key):
            form_digit(model, key)
        case ask.Create():
            return create(model)
        case _:
            assert_never(intent)
    return []


def lobby_move(model: Model, step: int) -> None:
    if model.tables:
        model.lobby_row = (model.lobby_row + step) % len(model.tables)


def _chosen_table(model: Model) -> TableSummary | None:
    if not model.tables:
        model.status = lobby.NO_TABLES
        return None
    return model.tables[min(model.lobby_row, len(model.tables) - 1)]


def join(model: Model) -> list[ClientMessage]:
    table = _chosen_table(model)
    if table is None:
        return []
    if _refused_by_name(model, table):
        return []
    if table.started and not ours(model, table):
        return [Spectate(table=table.id)]  # a game in progress can only be watched
    return [Join(table=table.id)]


def spectate(model: Model) -> list[ClientMessage]:
    table = _chosen_table(model)
    if table is None or _refused_by_name(model, table):
        return []
    return [Spectate(table=table.id)]


def _refused_by_name(model: Model, table: TableSummary) -> bool:
    """Someone at the table has our name: the server would refuse us, so say it here."""
    taken = name_taken(model, table)
    if taken is None:
        return False
    model.status = lobby.name_taken_here(taken, table.name)
    return True


def lobby_click(model: Model, row: int) -> list[ClientMessage]:
    if model.lobby_row == row:
        return join(model)  # a second click on the same table joins it
    model.lobby_row = row
    return []


def create_open(model: Model) -> None:
    """A fresh form each time: the usual table for the first shape, named for us."""
    counts = player_counts(model.shapes, model.form)
    players = counts[0] if counts else 2
    model.form = CreateForm(
        name=lobby.default_table_name(model.name),
        players=players,
        teams=team_choices(model.shapes, model.form, players)[0],
        offered=True,
    )
    model.overlay = "create"
    model.status = ""


def form_move(model: Model, step: int) -> None:
    model.form.field = (model.form.field + step) % len(CreateForm.FIELDS)


def form_name(model: Model, text: str) -> None:
    model.form.name = typed(text)[:MAX_TABLE_NAME]


def form_change(model: Model, step: int) -> None:
    form = model.form
    name = CreateForm.FIELDS[form.field]
    if name == "players":
        counts = player_counts(model.shapes, model.form)
        i = counts.index(form.players) if form.players in counts else 0
        form.players = counts[(i + step) % len(counts)]
        form.teams = team_choices(model.shapes, form, form.players)[0]
        form.hand_size = None  # the usual hand of the new size
        form.computers = min(form.computers, form.players - 1)
    elif name == "teams":
        options = team_choices(model.shapes, form, form.players)
        i = options.index(form.teams) if form.teams in options else 0
        form.teams = options[(i + step) % len(options)]
        form.hand_size = None
    elif name == "hand_size":
        sizes = hand_sizes(model.shapes, form.players, form.teams)
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
    elif name == "hints":
        form.hints = not form.hints
    elif name == "match_to":
        offered = sorted({*CreateForm.MATCHES, form.match_to}, key=lambda n: n or 0)
        form.match_to = offered[(offered.index(form.match_to) + step) % len(offered)]
    elif name == "turn_clock":
        form.turn_clock = clock_step(form.turn_clock, step)


def form_digit(model: Model, key: str) -> None:
    """A digit (or, "", a backspace) typed on a line of the form that takes a number:
    the turn clock's seconds, or the match's N (first side to N wins, 2-9)."""
    form = model.form
    field = CreateForm.FIELDS[form.field]
    if field == "turn_clock":
        form.turn_clock = clock_typed(form.turn_clock, key)
    elif field == "match_to" and key.isdigit() and MIN_MATCH_TO <= int(key) <= MAX_MATCH_TO:
        form.match_to = int(key)


def create(model: Model) -> list[ClientMessage]:
    form = model.form
    name = readable(form.name)
    if not name:
        model.status = lobby.NAME_THE_TABLE
        return []
    if not shows_something(name):  # only blank or invisible characters: the server refuses it
        model.status = lobby.TABLE_NAME_UNSEEN
        return []
    if form.turn_clock and not MIN_TURN_CLOCK <= form.turn_clock <= MAX_TURN_CLOCK:
        model.status = lobby.clock_range()
        return []
    model.status = ""
    model.creating = True  # the table that answers is ours (`seat_computer`)
    return [
        CreateTable(
            name=name,
            players=form.players,
            teams=form.teams,
            hand_size=form.hand_size,
            manual_draw=form.manual_draw,
            computers=form.computer_seats(),
            computer_takeover=form.level if form.computer_takeover else False,
            hints=form.hints,
            match_to=form.match_to,
            turn_clock=form.turn_clock,
        )
    ]


def seat_move(model: Model, step: int) -> None:
    if model.table is not None:
        model.seat_row = (model.seat_row + step) % model.table.players


def sit(model: Model, seat: int) -> list[ClientMessage]:
    table = model.table
    if table is None or not 0 <= seat < table.players:
        return []
    model.seat_row = seat
    if table.seat == seat:
        return []
    if table.seats[seat].name is not None:
        model.status = table_words.seat_taken(seat)
        return []
    return [Sit(seat=seat)]


def ready(model: Model) -> list[ClientMessage]:
    table = model.table
    if table is None or table.seat is None:
        model.status = table_words.TAKE_A_SEAT
        return []
    return [Ready(ready=not table.seats[table.seat].ready)]


def seat_computer(model: Model) -> list[ClientMessage]:
    """The chosen seat's computer, for the table's creator (the server says who that
    is, and refuses anyone else): a free seat gets an easy one, a computer's seat the
    next level (in place: one message), and after hard the seat is free again. A server
    whose `table` does not say `creator` is older than the level changed in place, and
    refuses it: there the computer is taken away and another seated, as before."""
    table = model.table
    if table is None or table.started:
        return []
    seat = model.seat_row
    held = table.seats[seat]
    if seat == table.seat:
        model.status = table_words.own_seat(seat)
        return []
    model.status = ""  # a refusal said before is no longer the answer
    if held.name is None:
        return [SeatComputer(seat=seat, level=LEVELS[0])]
    if held.remote:  # a program on its own connection: the server's refusal, said first
        model.status = table_words.bot_seat(seat)
        return []
    if held.computer not in LEVELS:
        model.status = table_words.seat_taken(seat)  # a person's
        return []
    at = LEVELS.index(held.computer)
    level = LEVELS[at + 1] if at + 1 < len(LEVELS) else None
    if level is not None and not table.creator:  # an older server (docs/protocol.md)
        return [SeatComputer(seat=seat), SeatComputer(seat=seat, level=level)]
    return [SeatComputer(seat=seat, level=level)]
