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

Pure bookkeeping with an injected clock: `computer_plan` says which seats the computer
may play at a table now and when the next grace runs out, and the trio side
(computers.py) sleeps until then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .table import Table


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


def computer_plan(table: Table) -> tuple[list[int], float | None]:
    """The seats the computer plays at `table` that have something to do now (waiting
    draws first, so a computer's own draw is never lost to its move), and the clock time
    at which a grace runs out and another may have (None: nothing to wait for)."""
    game = table.game
    if game is None or game.outcome is not None:
        return [], None
    if table.takeover is None and not table.handed and not any(table.computers):
        return [], None  # only people play here: nothing to look at after every move
    graces = table.graces
    now = graces.clock()
    away = table.away()
    due = table.stood_in() if table.takeover is not None else None
    ready: list[int] = []
    waits: list[float] = []
    for seat in dict.fromkeys((*game.pending_draw, game.turn)):
        if not game.legal_actions(seat):
            continue
        if table.level_for(seat, due) is None:
            if table.takeover is not None and table.computers[seat] is None and away[seat]:
                waits.append(graces.stand_in_from(seat))  # the stand-in's grace
            continue
        # The previous seat's draw is lost once this seat has played and drawn: a
        # person's waits its grace (a computer's is taken first, above).
        before = (seat - 1) % len(table.seats)
        held = (
            graces.draw_held_until(before, away[before])
            if seat == game.turn
            and before in game.pending_draw
            and table.level_for(before, due) is None
            else None
        )
        if held is not None and held > now:
            waits.append(held)
        else:
            ready.append(seat)
    return ready, min(waits, default=None)
