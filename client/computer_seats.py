"""The log's lines about the server's computers in a waiting room: one sat down, left,
or changed level. No notice says it (docs/protocol.md, `seat_computer`), so the client
tells it from the change between two `table` messages, for everyone at the table.

A level changes in place, in one `table`: the same computer, by its name, at another
level. (With a server from before that, or a client from before it, the computer is
taken away and another seated: two tables, and the log says what happened, one left,
one sat down.)
The creator, whose change it was, is then not ready, and is told why.
"""

from __future__ import annotations

from functools import partial

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
    old = model.table
    if old is None or old.id != new.id or len(old.seats) != len(new.seats):
        return
    # In a game only a rename comes (a person arrived with the computer's name): the
    # log's lines so far name the computer by its old name, the person's now.
    renames_only = old.started or new.started
    changed = False
    for seat, (was, now) in enumerate(zip(old.seats, new.seats, strict=True)):
        before, after = _servers(was), _servers(now)
        if before == after:
            continue
        if renames_only:
            if before is not None and after is not None and before[1] == after[1]:
                line = table_words.computer_line("renamed", *after, seat, new.teams, before[0])
                note(model, "info", line)
            continue
        changed = True
        other = (  # another name and another level: another computer altogether
            before is not None
            and after is not None
            and before[0] != after[0]
            and before[1] != after[1]
        )
        if before is not None and (after is None or other):
            note(
                model, "info", partial(table_words.computer_line, "left", *before, seat, new.teams)
            )
        if after is None:
            continue
        change = "sat"
        if before is not None and not other:
            change = "renamed" if before[1] == after[1] else "level"
        note(model, "info", partial(table_words.computer_line, change, *after, seat, new.teams))
    mine = new.seat
    if not changed or mine is None or old.seat != mine:
        return
    if old.seats[mine].ready and not new.seats[mine].ready:  # the creator's: our change
        note(model, "info", lambda: [("", table_words.ready_taken_back())])
