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

Pure bookkeeping, the time passed in: `Graces.plan` says which seats the computer may
play now and when the next grace runs out; the table turns that into a timer, and
the trio side (computers.py) sleeps until then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .engine import Game


class Graces:
    def __init__(self, stand_in_after: float, draw_grace: float) -> None:
        self.stand_in_after = stand_in_after
        self.draw_grace = draw_grace
        self.away_since: dict[int, float] = {}  # when each away seat's person went
        self.draw_since: dict[int, float] = {}  # when each seat's waiting draw began

    def gone(self, seat: int, now: float) -> None:
        self.away_since[seat] = now

    def back(self, seat: int, now: float) -> None:
        """The person is here again: a draw of theirs still waiting gets a whole grace."""
        self.away_since.pop(seat, None)
        if seat in self.draw_since:
            self.draw_since[seat] = now

    def away_for(self, seat: int, now: float) -> float:
        """How long the seat's person has been gone (0 if the server never saw them go:
        they count as gone from now on)."""
        return now - self.away_since.setdefault(seat, now)

    def stand_in_from(self, seat: int, now: float) -> float:
        """When the stand-in may start playing the away seat."""
        return self.away_since.setdefault(seat, now) + self.stand_in_after

    def draws_waiting(self, pending: list[int], now: float) -> None:
        """Follow the game's waiting draws: a new one waits from now."""
        for seat in pending:
            self.draw_since.setdefault(seat, now)
        for seat in [s for s in self.draw_since if s not in pending]:
            del self.draw_since[seat]

    def draw_held_until(self, seat: int, away: bool, now: float) -> float:
        """Until when a computer waits for `seat`'s draw (`away`: its person is gone and
        has not given the seat up)."""
        until = self.draw_since.setdefault(seat, now) + self.draw_grace
        return max(until, self.stand_in_from(seat, now)) if away else until

    def reset(self) -> None:
        """A new game: no draw waits (the away people stay away)."""
        self.draw_since.clear()

    def plan(
        self, game: Game, now: float, away: Sequence[bool], stands_in: bool,
        level_for: Callable[[int], str | None], person: Callable[[int], bool],
    ) -> tuple[list[int], float | None]:  # fmt: skip
        """The seats the computer plays that have something to do now (waiting draws
        first, so a computer's own draw is never lost to its move), and the time at
        which a grace runs out and another may have (None: nothing to wait for).
        `away`: per seat, a person's seat with the person gone; `stands_in`: the table
        lets the computer stand in; `level_for`: who plays a seat now, if a computer;
        `person`: whether a seat is a person's."""
        ready: list[int] = []
        waits: list[float] = []
        for seat in dict.fromkeys((*game.pending_draw, game.turn)):
            if not game.legal_actions(seat):
                continue
            if level_for(seat) is None:
                if stands_in and person(seat) and away[seat]:
                    waits.append(self.stand_in_from(seat, now))  # the stand-in's grace
                continue
            # The previous seat's draw is lost once this seat has played and drawn: a
            # person's waits its grace (a computer's is taken first, above).
            before = (seat - 1) % len(away)
            held = (
                self.draw_held_until(before, away[before], now)
                if seat == game.turn and before in game.pending_draw and level_for(before) is None
                else None
            )
            if held is not None and held > now:
                waits.append(held)
            else:
                ready.append(seat)
        return ready, min(waits, default=None)
