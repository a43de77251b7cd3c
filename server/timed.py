"""A table's turn clocks at its steps: which seats a clock runs for after each change,
what runs out when the "clock" timer fires, and a person taking their seat back by
acting (the bookkeeping itself is clocks.py; the table's steps call these, table.py).

Pure: rows and the timer go into the table's effects.
"""

from __future__ import annotations

from . import journal_rows as rows
from .clocks import HAND_OVER_RUNS, Due
from .guest import Guest
from .play import Clocks
from .seats import Seated


class Timed(Seated):
    """The clock steps of a table (see the module's docstring)."""

    def _clock_timer(self, at: float | None) -> None:
        """Ask for `clock_ran_out` at `at` (None: no clock runs): the table's."""
        raise NotImplementedError

    def _clock_due(self) -> dict[int, Due]:
        """The seats a clock may run for now: a person's, on turn or with a draw
        waiting, that no computer plays now."""
        game = self.game
        assert game is not None
        away = self.away()
        due = {}
        for seat in dict.fromkeys((game.turn, *game.pending_draw)):
            if self.level_for(seat) is not None or not game.legal_actions(seat):
                continue
            until = self.graces.stand_in_from(seat, self.now) if away[seat] else None
            due[seat] = Due(seat == game.turn, until)
        return due

    def follow_clocks(self) -> Clocks | None:
        """After a change: the clocks set for who has something to do now, each fresh
        clock journaled, the timer set for the next to run out; the clocks to tell the
        members (None: as they were)."""
        clocks = self.clocks
        if not clocks.on or not self.live:
            return None
        game = self.game
        if game is None or game.outcome is not None:
            clocks.stop()
            self._clock_timer(None)
            return ()  # every clock stops, said in so many words: "as they were" would not be
        clocks.done({s for s in (game.turn, *game.pending_draw) if game.legal_actions(s)})
        fresh, changed = clocks.follow(game.turn, self._clock_due(), self.now)
        for seat in fresh:
            left = clocks.started[seat] + clocks.seconds - self.now
            self.fx.write(rows.turn_clock(self.id, seat, left, clocks.runs.get(seat, 0)))
        if not changed:
            return None
        self._clock_timer(clocks.next_out())
        return clocks.running(self.now)

    def expire_clocks(self) -> bool:
        """The "clock" timer fired: the seats whose clock ran out are the computer's for
        this turn, and after HAND_OVER_RUNS in a row handed to it. True if a seat was
        handed over (the members are to be told)."""
        clocks = self.clocks
        if not self.live or not self.in_play:
            return False
        handed = False
        for seat in clocks.expire(self.now):
            runs = clocks.runs[seat]
            self.fx.write(rows.turn_clock(self.id, seat, None, runs))
            held = self.seats[seat]
            if runs >= HAND_OVER_RUNS and seat not in self.handed and held is not None:
                level = self.handed[seat] = self.stand_in_level
                self.clocks.gave.add(seat)
                self.fx.write(rows.seat(self.id, seat, held.id, level))
                handed = True
        self._clock_timer(clocks.next_out())
        return handed

    def handed_pause(self, seat: int) -> float | None:
        """The computer's pause before a move for a seat the clock handed over while its
        person is here: the draw grace, time for them to act and take the seat back
        (None: the usual pause)."""
        clocks = self.clocks
        if seat in clocks.timed_out:
            return None  # the turn whose clock ran out: at the usual pace, as any run-out
        if seat in clocks.gave and seat in self.handed and not self.away()[seat]:
            return self.graces.draw_grace
        return None

    def took_back(self, guest: Guest, seat: int) -> bool:
        """The person made an action of their own: their run of clocks out ends, and a
        seat handed to the computer is theirs again. True if it was handed."""
        if self.clocks.acted(seat):
            self.fx.write(rows.turn_clock(self.id, seat, None, 0))
        self.clocks.gave.discard(seat)
        if self.handed.pop(seat, None) is None:
            return False
        self.fx.write(rows.seat(self.id, seat, guest.id))
        return True
