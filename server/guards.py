"""What one guest, or one address, may do at the lobby, beyond what any request may:
keep only a few tables open where the computer may play or advise (and start no game
at one past that, a rematch included), ask for only a few hints a minute, and not sit
down again at once at a table the sweep took them off for never getting ready.

Pure: the time is passed in (hints are counted on the monotonic clock, as chat
lines are); a guard refuses (Refusal) or records.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterable
from typing import Protocol

from .guest import Guest, within_limit
from .refusal import Refusal


class Open(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def started(self) -> bool: ...
    @property
    def in_play(self) -> bool: ...


class Guards:
    def __init__(
        self, computer_tables_per_address: int, ready_timeout: float,
        hint_burst: int = 10, hint_window: float = 60.0,
    ) -> None:  # fmt: skip
        self.most_computer_tables = computer_tables_per_address
        self.patience = ready_timeout
        self.hint_burst, self.hint_window = hint_burst, hint_window
        # The address each table where computers play was made from (bounded per address).
        self._made_from: weakref.WeakKeyDictionary[Open, str] = weakref.WeakKeyDictionary()
        # (table id, guest id or address) -> when the sweep freed that seat squatter.
        self._freed: dict[tuple[str, str], float] = {}
        # Per address, when its latest hints were asked (emptied lists go at the sweep).
        self._hints: dict[str, list[float]] = {}

    def check_computer_tables(
        self, tables: Iterable[Open], address: str, but: Open | None = None
    ) -> None:
        """Computers play on with no one there: one address may keep only a few such
        tables open (parked, closed and finished ones do not count; nor `but`), so no
        guest can fill the server with them."""
        most = self.most_computer_tables
        made_from = self._made_from
        open_here = sum(
            1
            for t in tables
            if made_from.get(t) == address and not (t.started and not t.in_play) and t is not but
        )
        if open_here >= most:
            raise Refusal(
                "too_many_computer_tables",
                f"Guests from your address already have {most} open tables where computers"
                " play; one frees when its game ends.",
            )

    def check_start(self, tables: Iterable[Open], table: Open) -> None:
        """A game is about to start at `table` (the first, a rematch, a match's next):
        a finished game freed its place, so it must find one again, or one address
        could keep any number in play by making new tables while its games were over
        and then rematching them all."""
        address = self._made_from.get(table)
        if address is None:
            return
        try:
            self.check_computer_tables(tables, address, but=table)
        except Refusal:
            raise Refusal(
                "too_many_computer_tables",
                f"The guests from this table's address already have {self.most_computer_tables}"
                " games where computers play; this one starts when one of those ends.",
            ) from None

    def check_hint(self, address: str) -> None:
        """One more hint from `address`: each may start a search in the workers every
        table shares, so one address (however many connections it opens) gets only a
        few a minute, and the workers stay free for everyone else's."""
        times = self._hints.setdefault(address, [])
        if not within_limit(times, self.hint_burst, self.hint_window):
            wait = int(self.hint_window - (time.monotonic() - times[0])) + 1
            raise Refusal(
                "hints_too_fast",
                f"Slow down: {self.hint_burst} hints in {self.hint_window:g} s from one"
                f" address; the next in {wait} s.",
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
        """Those freed longer ago than the patience may sit anywhere again; addresses
        with no hint in the window are forgotten."""
        patience = self.patience
        self._freed = {k: t for k, t in self._freed.items() if now - t < patience}
        hinted, window = time.monotonic(), self.hint_window
        self._hints = {a: t for a, t in self._hints.items() if t and hinted - t[-1] <= window}

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
