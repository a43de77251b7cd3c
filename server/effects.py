"""What a step of the server's state asks of the world: its effects.

The lobby and its tables are state machines without I/O: a request (or a computer's
move, or the sweep) changes them and leaves, in one `Effects`, in order, the rows the
journal is to keep, the messages to send and to whom, the connections to close, and
the timers to set. The trio side takes them (`take`) and carries them out: the rows
committed before the messages that tell of them leave (outflow.py, app.py).

A timer is a kind and a time: "computer" wakes a table's computer task at `at` (now,
or when a grace runs out); "clock" calls the table's `clock_ran_out` at `at`, when the
next turn clock runs out (clocks.py); None cancels it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from sarja.protocol.messages import ServerMessage

from .guest import Guest
from .journal_rows import Row
from .turns import Playing


class Closable(Protocol):
    def close(self, code: str, message: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Timer:
    """Wake `table`'s task of this `kind` at `at` (on the lobby's clock); None: it has
    nothing to wait for."""

    kind: Literal["computer", "clock"]
    table: Playing
    at: float | None


class Effects:
    __slots__ = ("rows", "sends", "closes", "timers", "stopped", "games_over", "list_changed")

    def __init__(self) -> None:
        self.rows: list[Row] = []
        # One message to one guest, or the same message to many (encoded once).
        self.sends: list[tuple[Guest | Sequence[Guest], ServerMessage]] = []
        self.closes: list[tuple[Closable, str, str]] = []  # a connection replaced, a stop
        self.timers: list[Timer] = []
        self.stopped: list[Playing] = []  # tables parked or closed: their computer stops
        self.games_over = 0  # games finished: their records are due
        self.list_changed = False  # the lobby's table list may say something new

    def write(self, rows: list[Row]) -> None:
        self.rows.extend(rows)

    def send(self, to: Guest | Sequence[Guest], msg: ServerMessage) -> None:
        self.sends.append((to, msg))

    def take(self) -> Effects:
        """What was left so far, leaving this empty for the next step."""
        taken = Effects()
        taken.rows, self.rows = self.rows, taken.rows
        taken.sends, self.sends = self.sends, taken.sends
        taken.closes, self.closes = self.closes, taken.closes
        taken.timers, self.timers = self.timers, taken.timers
        taken.stopped, self.stopped = self.stopped, taken.stopped
        taken.games_over, self.games_over = self.games_over, 0
        taken.list_changed, self.list_changed = self.list_changed, False
        return taken

    def messages(self) -> Iterator[tuple[Guest, ServerMessage]]:
        """Each message with each guest it goes to (for tests, which read them)."""
        for to, msg in self.sends:
            for guest in (to,) if isinstance(to, Guest) else to:
                yield guest, msg
