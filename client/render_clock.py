"""The turn clocks' line on the game screen: the time left to the seat on turn and to a
waiting draw, counted down on the client from what the server last told
(`game.clocks`, milliseconds left when told). Its own part of the screen, so the
app's tick redraws this line alone (parts.py, `Region.ticks`).
"""

from __future__ import annotations

import math

from .fit import Line, shorten, width_of
from .model import Model
from .words import game as words


def clocks_left(model: Model) -> list[tuple[int, int]]:
    """Each clock running: its seat and the whole seconds it has left now."""
    g = model.game
    if g is None or g.result is not None or model.replay is not None:
        return []
    if not model.online:  # what the server last told no longer holds: it says anew on return
        return []
    gone = max(0.0, model.clock_now - model.clocks_told)
    return [(seat, max(0, math.ceil(ms / 1000 - gone))) for seat, ms in g.clocks]


def clock_lines(model: Model, width: int) -> list[Line]:
    """One line while a clock runs (none otherwise: the part takes no row)."""
    g = model.game
    left = clocks_left(model)
    if handed_to_computer(model):
        return [
            [("class:label", words.CLOCK), ("class:myturn", shorten(words.CLOCK_HANDED, width - 2))]
        ]
    if g is None or not left:
        return []
    line: Line = [("class:label", words.CLOCK)]
    for i, (seat, seconds) in enumerate(left):
        mine = seat == g.seat
        name = None if mine else g.players[seat].name
        if i:
            line.append(("", " · "))
        text = words.clock_item(name, seat != g.turn, seconds)
        line.append(("class:myturn" if mine else "", text))
    if width_of(line) > width:
        line = [("", shorten("".join(text for _, text, *_ in line), width))]
    return [line]


def handed_to_computer(model: Model) -> bool:
    """Our seat is the computer's while we are here (the clock handed it over)."""
    g, table = model.game, model.table
    if g is None or table is None or g.seat is None or g.result is not None or model.replay:
        return False
    return bool(table.seats[g.seat].computer) and not g.players[g.seat].away


def clock_text(model: Model) -> str:
    """What the line says now: the app redraws it when this changes."""
    return "".join(text for line in clock_lines(model, 1000) for _, text, *_ in line)
