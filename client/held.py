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
    """Whether joining `table` takes us back to a seat the server keeps for us."""
    if not table.started or not any(w and same_name(model.name, w) for w in table.seated):
        return False
    if model.kept_at is not None:
        return table.id == model.kept_at
    return model.kept_unknown


def name_taken(model: Model, table: TableSummary) -> str | None:
    """The name, as its holder spells it, the server will refuse us at `table` for:
    someone seated there is called as we are (a computer only once the game is on:
    before, it takes another name for us), and the seat is not ours. None: no one."""
    for seat, who in enumerate(table.seated):
        if who is None or not same_name(model.name, who):
            continue
        computer = table.computers[seat] if table.computers else None
        if computer is None or table.started:
            return None if ours(model, table) else who
    return None
