"""What one guest, or one address, may do at the lobby, beyond what any request may:
keep only a few tables open where computers play, and not sit down again at once at a
table the sweep took them off for never getting ready.

Pure: the time is passed in; a guard refuses (Refusal) or records.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Protocol

from .guest import Guest
from .refusal import Refusal


class Open(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def started(self) -> bool: ...
    @property
    def in_play(self) -> bool: ...


class Guards:
    def __init__(self, computer_tables_per_address: int, ready_timeout: float) -> None:
        self.most_computer_tables = computer_tables_per_address
        self.patience = ready_timeout
        # The address each table where computers play was made from (bounded per address).
        self._made_from: weakref.WeakKeyDictionary[Open, str] = weakref.WeakKeyDictionary()
        # (table id, guest id or address) -> when the sweep freed that seat squatter.
        self._freed: dict[tuple[str, str], float] = {}

    def check_computer_tables(self, tables: Iterable[Open], address: str) -> None:
        """Computers play on with no one there: one address may keep only a few such
        tables open (parked, closed and finished ones do not count), so no guest can
        fill the server with them."""
        most = self.most_computer_tables
        made_from = self._made_from
        open_here = sum(
            1 for t in tables if made_from.get(t) == address and not (t.started and not t.in_play)
        )
        if open_here >= most:
            raise Refusal(
                "too_many_computer_tables",
                f"Guests from your address already have {most} open tables where computers"
                " play; one frees when its game ends.",
            )

    def made(self, table: Open, address: str) -> None:
        """A table where computers play was made from `address`."""
        self._made_from[table] = address

    def unmade(self, table: Open) -> None:
        """No computer plays at `table` any more: it frees its address's place."""
        self._made_from.pop(table, None)

    def freed(self, table: Open, guest: Guest, now: float) -> None:
        """The sweep took `guest` off `table` for never getting ready."""
        for who in (guest.id, guest.address):
            if who:
                self._freed[table.id, who] = now

    def forget_freed(self, now: float) -> None:
        """Those freed longer ago than the patience may sit anywhere again."""
        patience = self.patience
        self._freed = {k: t for k, t in self._freed.items() if now - t < patience}

    def check_not_freed(self, guest: Guest, table: Open, now: float) -> None:
        """A seat squatter the sweep freed cannot sit down again at once, from the
        same connection or another at the same address: the seat goes to someone
        who will play."""
        patience = self.patience
        for who in (guest.id, guest.address):
            freed = self._freed.get((table.id, who)) if who else None
            if freed is not None and now - freed < patience:
                wait = int(patience - (now - freed)) + 1
                raise Refusal(
                    "not_ready_in_time",
                    f"You were taken off this table for not getting ready; you can sit"
                    f" there again in {wait} s.",
                )
