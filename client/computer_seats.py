"""The log's lines about the server's computers in a waiting room: one sat down, left,
or changed level. No notice says it (docs/protocol.md, `seat_computer`), so the client
tells it from the change between two `table` messages, for everyone at the table.

A level is changed by taking the computer away and seating another (two tables, the
seat free between them): the second one's line takes the place of the first's, if
nothing came between them in the log and it is the same computer at another level
(another name, or the same level, is a computer that left and one that sat down).
"""

from __future__ import annotations

from sarja.protocol.messages import Seat, TableView

from .model import LogLine, Model, note
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
            model.computer_left = (seat, before, model.log[-1])
            continue
        change = "sat"
        if before is not None and before[0] != after[0] and before[1] != after[1]:
            # another computer altogether, from one table to the next
            note(model, "info", table_words.computer_line("left", *before, seat, new.teams))
        elif before is not None:
            change = "renamed" if before[1] == after[1] else "level"
        elif _relevelled(model, left, seat, after):
            model.log.pop()  # taken away and seated again: a level changed
            change = "level"
        note(model, "info", table_words.computer_line(change, *after, seat, new.teams))


def _relevelled(
    model: Model, left: tuple[int, tuple[str, str], LogLine] | None, seat: int, now: tuple[str, str]
) -> bool:
    """Whether `now`, the computer just seated at `seat`, is the one whose leaving the
    log's newest line says, at another level."""
    if left is None or left[0] != seat or not model.log or model.log[-1] is not left[2]:
        return False
    name, level = left[1]
    return name == now[0] and level != now[1]
