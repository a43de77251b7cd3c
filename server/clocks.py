"""Turn clocks: how long a person has for each turn, and what follows when it runs out.

A table made with a turn clock gives each person `seconds` for each turn, and as long
again for a waiting manual draw (docs/rules.md, *Decisions*). A clock runs only for a
seat a person plays: never for a computer seat, a handed seat or one the stand-in
plays. While the game waits for an away person within the stand-in grace, their clock
waits too: it starts (afresh) when the grace is over, or when they come back.

When a clock runs out, the seat is `timed_out`: the computer makes that one turn (or
takes that draw) for the person, at the table's stand-in level; after `HAND_OVER_RUNS`
clocks in a row run out, the table hands the seat to the computer until the person acts
again. Any action of the person's own ends the run.

Pure bookkeeping, the time passed in (like graces.py): `follow` is told, after every
change, which seats a clock may run for now; the table sends what `running` says and
sets a "clock" timer for `next_out` (effects.py); when it fires, `expire` says whose
clock ran out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

HAND_OVER_RUNS = 3  # clocks in a row that hand a seat to the computer


@dataclass(frozen=True, slots=True)
class Due:
    """A seat a clock may run for now: on turn, or with a draw waiting (`turn` False);
    `away_until`: for an away person, when their stand-in grace ends (their clock
    starts then); None for a person who is here (it starts now)."""

    turn: bool
    away_until: float | None = None


class TurnClocks:
    def __init__(self, seconds: int) -> None:
        self.seconds = seconds  # 0: the table has no clock
        self.started: dict[int, float] = {}  # the clocks set: seat -> when it started
        self._due: dict[int, Due] = {}  # what each clock was set for
        self._turn: int | None = None  # the seat on turn when last followed
        self.timed_out: set[int] = set()  # seats the computer plays for, clock out
        self.runs: dict[int, int] = {}  # clocks in a row that ran out, per seat
        self.gave: set[int] = set()  # seats handed to the computer for their clocks
        self._untold = False  # a clock ran out since the members were last told

    @property
    def on(self) -> bool:
        return self.seconds > 0

    def follow(self, turn: int, due: Mapping[int, Due], now: float) -> tuple[list[int], bool]:
        """Set the clocks for the seats `due` now (the seat on `turn` and the seats
        whose draw waits, that a person plays): the seats given a fresh clock, and
        whether any clock changed (fresh, or stopped). A clock goes on as it was while
        its seat stays due for the same thing: the same turn (a draw taken meanwhile, a
        dead card exchanged), or the same waiting draw."""
        if not self.on:
            return [], False
        new_turn = turn != self._turn
        self._turn = turn
        stopped = [s for s in self.started if s not in due]
        for seat in stopped:
            del self.started[seat]
            del self._due[seat]
        fresh = []
        for seat, now_due in due.items():
            before = self._due.get(seat)
            if before is None or before != now_due or (now_due.turn and new_turn):
                until = now_due.away_until
                self.started[seat] = now if until is None else max(now, until)
                self._due[seat] = now_due
                fresh.append(seat)
        changed = bool(fresh or stopped or self._untold)
        self._untold = False
        return fresh, changed

    def stop(self) -> None:
        """No clock runs (the game is over, or starts again)."""
        self.started.clear()
        self._due.clear()
        self._turn = None
        self.timed_out.clear()

    def running(self, now: float) -> tuple[tuple[int, int], ...]:
        """The clocks running now for people who are here, as the wire says them:
        [seat, milliseconds left]. An away person's clock is not shown: it waits for
        their grace to end, and starts afresh if they come back."""
        return tuple(
            (seat, max(0, round((start + self.seconds - now) * 1000)))
            for seat, start in sorted(self.started.items())
            if self._due[seat].away_until is None
        )

    def next_out(self) -> float | None:
        """When the next clock runs out, if one is set."""
        return min((s + self.seconds for s in self.started.values()), default=None)

    def expire(self, now: float) -> list[int]:
        """The seats whose clock has run out by `now`: the computer plays for them now,
        and each one's run of clocks out grows by one."""
        out = [s for s, start in self.started.items() if start + self.seconds <= now]
        for seat in out:
            del self.started[seat]
            del self._due[seat]
            self.timed_out.add(seat)
            self.runs[seat] = self.runs.get(seat, 0) + 1
            self._untold = True
        return out

    def acted(self, seat: int) -> bool:
        """The person made an action of their own: their run ends. True if they had
        one (the journal is told)."""
        self.timed_out.discard(seat)
        return self.runs.pop(seat, 0) > 0

    def done(self, busy: set[int]) -> None:
        """The timed-out seats with nothing left to do (`busy`: the seats with
        something to do) are the person's again."""
        self.timed_out &= busy
