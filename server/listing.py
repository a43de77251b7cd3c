"""The lobby's table list: built once per change of it, sent as the same message to
everyone who asks until it changes (so it is packed once, outflow.py), and pushed to
the guests in the lobby only when it says something new.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from sarja.protocol.limits import MAX_TABLES
from sarja.protocol.messages import TableList, TableSummary

from .effects import Effects
from .guest import Guest

if TYPE_CHECKING:
    from .table import Table


class Listing:
    def __init__(self, tables: Mapping[str, Table], fx: Effects) -> None:
        self._tables = tables  # the lobby's open tables, by id
        self._fx = fx
        self._list: TableList | None = None  # the list, while it holds
        self._pushed: tuple[TableSummary, ...] = ()  # the list the lobby was last sent

    def current(self) -> TableList:
        if self._list is None:
            # Tables with a free seat first, then games to watch.
            ordered = sorted(self._tables.values(), key=lambda t: t.started or t.full)
            tables = tuple(t.summary() for t in ordered[:MAX_TABLES])
            self._list = TableList(tables=tables, _trusted=True)
        return self._list

    def send(self, guest: Guest) -> None:
        """The list to one guest."""
        self._fx.send(guest, self.current())

    def changed(self) -> None:
        """The list changed. Everyone in the lobby gets the newest one soon: the server
        pushes it at most every `table_list_every` seconds, so a storm of changes costs
        one list, not one per change and per guest."""
        self._list = None
        self._fx.list_changed = True

    def push(self, lobby: Iterable[Guest]) -> None:
        """Send the newest list to the guests in the lobby, if it says anything new:
        most changes at a table (who is ready) do not show in it."""
        tables = self.current().tables
        if tables == self._pushed:
            return
        self._pushed = tables
        here = {id(g): g for g in lobby}
        self._fx.send(list(here.values()), self.current())
