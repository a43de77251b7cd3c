"""A table's side of its computer task: which seats the computer plays now, and until
when a grace holds it back; the turn it is to think about, with the seat's view only;
and its move, made only if the game is still where it was when it began to think.

The task itself, which sleeps, thinks and calls these, is `Computers` (computers.py);
the graces are graces.py's. Pure: messages and the timer go into the table's effects.
"""

from __future__ import annotations

from sarja.protocol.changes import Change
from sarja.protocol.messages import Notice

from .effects import Timer
from .engine import Action, EngineError, seat_view
from .engine.actions import DRAW, DRAW_ACTION
from .timed import Timed
from .turns import Turn


class ComputerTurns(Timed):
    """The computer's steps of a table (see the module's docstring)."""

    def _acted(self, events: list[Change], stand_in: bool = False) -> None:
        """Tell everyone what an action did: the table's."""
        raise NotImplementedError

    def clock_ran_out(self, now: float) -> None:
        """A turn clock's timer fired: the table's (a `Playing` table has both timers)."""
        raise NotImplementedError

    def computer_plan(self, now: float) -> tuple[list[int], float | None]:
        """The seats the computer plays that have something to do now, and when a
        grace runs out (graces.py)."""
        self.now = now
        play = self.play
        if play is None or play.game.outcome is not None:
            return [], None
        game = play.game
        if (
            self.takeover is None
            and not self.handed
            and not self.clocks.timed_out
            and not any(self.computers)
        ):
            return [], None  # only people play here: nothing to look at after every move
        due = self.stood_in() if self.takeover is not None else None
        return self.graces.plan(
            game, now, self.away(), self.takeover is not None,
            lambda seat: self.level_for(seat, due), lambda seat: self.computers[seat] is None,
        )  # fmt: skip

    def computer_due(self, now: float) -> float | None:
        """When the computer may have a move to make here that it has not now, if a
        grace is running: the trio side sleeps until then."""
        return self.computer_plan(now)[1] if self.live else None

    def _wake_computer(self) -> None:
        """The computer's timer, after a change: now if it has a move to make, when a
        grace runs out if one is running (nothing if neither)."""
        if not self.live:
            return
        ready, due = self.computer_plan(self.now)
        if ready or due is not None:
            self.fx.timers.append(Timer("computer", self, self.now if ready else due))

    def computer_turn(self, now: float) -> Turn | None:
        """The next move the computer is to make here, with the seat's view."""
        if not self.live:
            return None
        seats = self.computer_plan(now)[0]
        if not seats:
            return None
        game = self.game
        assert game is not None
        seat = seats[0]
        level = self.level_for(seat)
        assert level is not None
        pause = self.handed_pause(seat)
        return Turn(seat, level, seat_view(game, seat), game, len(game.history), pause)

    def computer_thinking(self, seat: int) -> None:
        """Tell the members the computer is choosing a move for `seat` (and, the first
        time it plays for an away person, that it does)."""
        name = self.names()[seat]
        members = self.members()
        if (
            self.computers[seat] is None
            and seat not in self.taken_over
            and seat not in self.clocks.timed_out  # one turn only: no takeover to tell
            # A person here whose clock handed the seat over is not absent: the `table`
            # of the hand-over said it, and their next action takes the seat back.
            and self.away()[seat]
        ):
            self.taken_over.add(seat)
            self.fx.send(members, Notice(kind="takeover", name=name, seat=seat, _trusted=True))
            if seat not in self.handed:  # a stand-in's grace ran out: no request told them
                for guest in members:  # the seats say who plays this one now
                    self.fx.send(guest, self.view_for(guest))
        self.fx.send(members, Notice(kind="thinking", name=name, seat=seat, _trusted=True))

    def computer_move(self, turn: Turn, action: Action, now: float) -> bool:
        """Make the computer's move, if the game is where it was when the computer
        began to think and the computer still plays the seat. True if made."""
        play = self.play
        if not self.live or play is None or play.game is not turn.game:
            return False
        game = play.game
        seat = turn.seat
        if len(game.history) != turn.moves or seat not in self.computer_plan(now)[0]:
            return False
        if self.level_for(seat) is None:
            return False
        stand_in = self.computers[seat] is None  # a person's seat, played for them
        try:
            events = play.apply(seat, action, None, stand_in)
        except EngineError:
            return False  # not this seat's to make any more: the next turn decides
        self._acted(events, stand_in)
        if action.kind != DRAW and seat in game.pending_draw and game.outcome is None:
            # The draw with the move, in the same step: no one can play before it.
            self._acted(play.apply(seat, DRAW_ACTION, None, stand_in), stand_in)
        return True
