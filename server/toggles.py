"""The waiting room's toggles, told as a state, not one by one: a player saying ready
and not ready, the creator seating a computer or changing its level. Each such change
is told to everyone at the table, so a guest toggling as fast as it can would have
every other member sent a `table` (and a notice) each time.

The first change after a quiet spell is told at once; those that follow within
TELL_EVERY seconds are told together when it has passed: one `table` with the state
then, and a notice for each seat whose readiness differs from what was told before
(a seat made ready and unready again in between tells nothing). So each member hears
of them at most 1/TELL_EVERY times a second, whoever toggles. Pure: the table passes
the time and sets the timer.
"""

from __future__ import annotations

import math

from .guest import Guest

TELL_EVERY = 0.5  # seconds between two tellings of the waiting room's changes


class Toggles:
    """The changes not yet told, and when they will be."""

    __slots__ = ("told_at", "due", "before")

    def __init__(self) -> None:
        self.told_at = -math.inf  # when changes were last told
        self.due: float | None = None  # when the changes waiting are to be told
        # Per seat changed since: its readiness as last told, and who held it.
        self.before: dict[int, tuple[bool, Guest | None]] = {}

    def note(self, seat: int, was: bool, guest: Guest | None) -> None:
        """Seat `seat`'s readiness was `was` before this change (held by `guest`)."""
        self.before.setdefault(seat, (was, guest))

    def when(self, now: float) -> float | None:
        """When to tell the changes noted: None for now (a quiet spell, or the time
        set has come), or the time set."""
        if now - self.told_at >= TELL_EVERY:
            return None
        if self.due is None:
            self.due = self.told_at + TELL_EVERY
        return self.due

    def take(self, now: float) -> dict[int, tuple[bool, Guest | None]]:
        """Told now: the seats changed since the last telling, as they were then."""
        before, self.before = self.before, {}
        self.due = None
        self.told_at = now
        return before
