"""The log's lines about the server's computers in a waiting room: one sat down, left,
or changed level. No notice says it (docs/protocol.md, `seat_computer`), so the client
tells it from the change between two `table` messages, for everyone at the table.

A level is changed by taking the computer away and seating another (two tables, the
seat free between them): the second one's line takes the place of the first's, if
nothing came between them in the log.
"""

from __future__ import annotations

from sarja.protocol.messages import Seat, TableView

from .model import Model, note
from .words import table as table_words


def _servers(seat: Seat) -> tuple[str, str] | None:
    """The name and level of the server's computer in `seat`, if one sits there (not a
    bot on its own connection, nor the stand-in for an away person)."""
    if seat.name is None or seat.computer is None or seat.remote or seat.away:
        return None
    return seat.name, seat.computer


def computers_seated(model: Model, new: TableView) -> None:
    """Log what changed of the server's computers from the table shown to `new`."""
    old, left = model.table, model.computer_left
    model.computer_left = None
    if old is None or old.id != new.id or old.started or new.started:
        return
    if len(old.seats) != len(new.seats):
        return
    for seat, (was, now) in enumerate(zip(old.seats, new.seats, strict=True)):
        before, after = _servers(was), _servers(now)
        if before == after:
            continue
        if after is None:
            assert before is not None
            note(model, "info", table_words.computer_line("left", *before, seat, new.teams))
            model.computer_left = (seat, model.log[-1])
            continue
        change = "sat"
        if before is not None:
            change = "renamed" if before[1] == after[1] else "level"
        elif left is not None and left[0] == seat and model.log and model.log[-1] is left[1]:
            model.log.pop()  # taken away and seated again: a level changed
            change = "level"
        note(model, "info", table_words.computer_line(change, *after, seat, new.teams))
