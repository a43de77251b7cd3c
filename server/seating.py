"""Where every guest is, and the rules of who may sit where: one object, the lobby's.

A guest is in the lobby, at a table in a seat, or watching a table; `guest.table` and
`guest.seat` say which, and only `Seating.place` writes them. A guest may also hold a
seat at a table it is not at now (it left a game in play, or came back after a restart
to another table): the tables' `seats` say who holds each seat. The rules:

- one game at a time: a guest holding a seat in a game in play sits nowhere else;
- one name, one person at a table: no one can chat or play as another.

Pure: the tables and guests are values here; nothing is sent.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from sarja.protocol.names import name_key

from .guest import Guest
from .guest import Place as Whereabouts
from .refusal import Refusal


class Place(Whereabouts, Protocol):
    """A table as seating sees it (table.py's `Table`)."""

    @property
    def name(self) -> str: ...
    @property
    def in_play(self) -> bool: ...
    @property
    def seats(self) -> list[Guest | None]: ...
    def names_here(self, but: Guest) -> list[str]:
        """The names at the table (seats and spectators) other than `but`'s."""
        ...


T = TypeVar("T", bound=Place)


class Seating(Generic[T]):
    def __init__(self) -> None:
        self.tables: dict[str, T] = {}  # the open tables, by id

    def place(self, guest: Guest, table: T | None, seat: int | None = None) -> None:
        """The guest is now at `table` (None: in the lobby), in `seat` (None: watching)."""
        guest.table = table
        guest.seat = None if table is None else seat

    def table_of(self, guest: Guest) -> T | None:
        """The open table the guest is at, if any (not one parked or closed since)."""
        where = guest.table
        if where is None:
            return None
        table = self.tables.get(where.id)
        return table if table is where else None

    def holds_seat(self, guest: Guest) -> bool:
        """Whether the guest holds a seat at an open table (here or away from it)."""
        return any(guest in t.seats for t in self.tables.values())

    def check_no_other_seat(self, guest: Guest) -> None:
        for table in self.tables.values():
            if table.in_play and guest in table.seats:
                raise Refusal(
                    "seat_held",
                    f"You have a seat in the game at table {table.name!r}; join it to go on.",
                )

    def check_name(self, table: T, guest: Guest) -> None:
        name = name_key(guest.name)  # look-alikes are one name (protocol/names.py)
        for other in table.names_here(guest):
            if name_key(other) == name:  # named as they are, not as the newcomer typed it
                raise Refusal(
                    "name_taken",
                    f"Someone at this table is already called {other}; connect again"
                    " under another name to join.",
                )
