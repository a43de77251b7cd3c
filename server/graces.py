"""When a computer may act for or beside the people at a table, and until when it waits.

Two graces keep the computer fair to people (docs/rules.md, *Decisions*):

- the **stand-in grace**: a person's seat counts as away for the table's stand-in only
  once its person has been gone `stand_in_after` seconds (the same minute as the
  hand-over), counted from when the server last knew them connected; after a restart,
  from the restart. Going away on purpose (`leave` mid-game) is no different.
- the **draw grace**: under manual draw a computer does not play while the previous
  seat's draw waits, for up to `draw_grace` seconds from when that draw began to wait
  (or its person came back); and not at all while that person is away within the
  stand-in grace, since they cannot take it then.

Pure bookkeeping with an injected clock: the table asks whether something is due and
when the next thing will be, and the trio side (computers.py) sleeps until then.
"""

from __future__ import annotations

from collections.abc import Callable


class Graces:
    def __init__(
        self, clock: Callable[[], float], stand_in_after: float, draw_grace: float
    ) -> None:
        self.clock = clock
        self.stand_in_after = stand_in_after
        self.draw_grace = draw_grace
        self.away_since: dict[int, float] = {}  # when each away seat's person went
        self.draw_since: dict[int, float] = {}  # when each seat's waiting draw began

    def gone(self, seat: int, now: float | None = None) -> None:
        self.away_since[seat] = self.clock() if now is None else now

    def back(self, seat: int) -> None:
        """The person is here again: a draw of theirs still waiting gets a whole grace."""
        self.away_since.pop(seat, None)
        if seat in self.draw_since:
            self.draw_since[seat] = self.clock()

    def away_for(self, seat: int) -> float:
        """How long the seat's person has been gone (0 if the server never saw them go:
        they count as gone from now on)."""
        return self.clock() - self.away_since.setdefault(seat, self.clock())

    def stand_in_from(self, seat: int) -> float:
        """When the stand-in may start playing the away seat."""
        return self.away_since.setdefault(seat, self.clock()) + self.stand_in_after

    def draws_waiting(self, pending: list[int]) -> None:
        """Follow the game's waiting draws: a new one waits from now."""
        now = self.clock()
        for seat in pending:
            self.draw_since.setdefault(seat, now)
        for seat in [s for s in self.draw_since if s not in pending]:
            del self.draw_since[seat]

    def draw_held_until(self, seat: int, away: bool) -> float:
        """Until when a computer waits for `seat`'s draw (`away`: its person is gone and
        has not given the seat up)."""
        until = self.draw_since.setdefault(seat, self.clock()) + self.draw_grace
        return max(until, self.stand_in_from(seat)) if away else until

    def reset(self) -> None:
        """A new game: no draw waits (the away people stay away)."""
        self.draw_since.clear()
