"""Which table in the lobby keeps a seat for us, and which refuses our name, as the
server will decide: a seat is ours by the token we resumed with, never by the name on
it, and a table seats or lets watch one person of a name (protocol/names.py).

The client knows the seat it left a game in play from (`model.kept_at`); after a
resume into the lobby it may hold one it was not shown (`model.kept_unknown`); a
guest greeted afresh holds none. Pure.
"""

from __future__ import annotations

from sarja.protocol.messages import TableSummary
from sarja.protocol.names import same_name

from .model import Model


def ours(model: Model, table: TableSummary) -> bool:
    """Whether joining `table` takes us back to a seat the server keeps for us: one a
    person of our name holds. A computer's seat never is, though its name may be ours
    (the summary gives it a level; a person's seat, a stand-in playing it or not, none)."""
    people = (who for seat, who in enumerate(table.seated) if _level(table, seat) is None)
    if not table.started or not any(w and same_name(model.name, w) for w in people):
        return False
    if model.kept_at is not None:
        return table.id == model.kept_at
    return model.kept_unknown


def _level(table: TableSummary, seat: int) -> str | None:
    """The level of the computer at `seat`, if one holds it (a program's seat too)."""
    return table.computers[seat] if table.computers else None


def name_taken(model: Model, table: TableSummary) -> str | None:
    """The name, as its holder spells it, the server will refuse us at `table` for:
    someone seated there is called as we are (a computer only once the game is on:
    before, it takes another name for us), and the seat is not ours. None: no one."""
    for seat, who in enumerate(table.seated):
        if who is None or not same_name(model.name, who):
            continue
        if _level(table, seat) is None or table.started:
            return None if ours(model, table) else who
    return None
