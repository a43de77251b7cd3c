"""A table as the lobby's list and its members see it: `summary` (a line of the table
list) and `view` (the `table` message: seats, readiness, who is away, the rematch).

Pure: built from the table's state, read through `Shown`.
"""

from __future__ import annotations

from typing import Literal, Protocol

from sarja.protocol.messages import Seat, TableSummary, TableView

from .engine import Arrangement
from .guest import Guest
from .present import rules_of
from .turns import Computer


class Shown(Protocol):
    """What a view reads of a table (table.py's `Table`)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def arrangement(self) -> Arrangement: ...
    @property
    def seats(self) -> list[Guest | None]: ...
    @property
    def computers(self) -> list[Computer | None]: ...
    @property
    def spectators(self) -> list[Guest]: ...
    @property
    def ready(self) -> list[bool]: ...
    @property
    def rematch(self) -> set[int]: ...
    @property
    def takeover(self) -> str | None: ...
    @property
    def computer_takeover(self) -> str | Literal[False]: ...
    @property
    def started(self) -> bool: ...
    @property
    def in_play(self) -> bool: ...
    def names(self) -> list[str]: ...
    def away(self) -> list[bool]: ...
    def stood_in(self) -> list[bool]: ...
    def level_for(self, seat: int, due: list[bool] | None = None) -> str | None: ...


def summary(table: Shown) -> TableSummary:
    names = table.names()
    pairs = list(zip(table.seats, table.computers, strict=True))
    arrangement = table.arrangement
    return TableSummary(
        id=table.id,
        name=table.name,
        players=arrangement.players,
        teams=arrangement.sides,
        seated=tuple(
            names[i] if g is not None or c is not None else None for i, (g, c) in enumerate(pairs)
        ),
        spectators=len(table.spectators),
        started=table.started,
        rules=rules_of(arrangement),
        computer_takeover=table.computer_takeover,
        computers=tuple(c.level if c else g.computer if g else None for g, c in pairs)
        if any(table.computers) or any(g and g.computer for g in table.seats)
        else (),
        _trusted=True,
    )


def view(table: Shown, seat: int | None) -> TableView:
    """The table as `seat` (None: a spectator) sees it."""
    away = table.away()
    due = table.stood_in() if table.in_play and table.takeover is not None else None
    names = table.names()
    arrangement = table.arrangement
    ready = table.ready
    return TableView(
        id=table.id,
        name=table.name,
        players=arrangement.players,
        teams=arrangement.sides,
        seats=tuple(
            Seat(
                name=names[i] if g is not None or c is not None else None,
                ready=ready[i],
                away=g is not None and away[i],
                computer=table.level_for(i, due) or (g.computer if g else None),
                _trusted=True,
            )
            for i, (g, c) in enumerate(zip(table.seats, table.computers, strict=True))
        ),
        spectators=len(table.spectators),
        started=table.started,
        rules=rules_of(arrangement),
        computer_takeover=table.computer_takeover,
        seat=seat,
        rematch=tuple(sorted(table.rematch)),
        _trusted=True,
    )
