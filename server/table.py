"""One table as a state machine: its seats, spectators and readiness, away and hand-over,
the graces, the computer's turns and the rematch; the game itself is `Play` (play.py).

No I/O and no clock of its own: each step takes a decoded request and the time (`now`,
on the lobby's clock), changes the table and leaves its effects in `fx` (effects.py):
rows for the journal, messages for members, a timer for the computer. The caller
carries them out. Every step runs to completion, so a table changes in one step as
trio sees it: no locks, and every member sees messages in the same order.

A seat is a person's or a computer's, chosen when the table is made (or, in the
waiting room, by its creator: `seat_computer`); a computer seat is always ready, and
asks for every rematch. The computer also plays a person's seat while they are away,
when the table lets it stand in (`takeover`, a level) or when a player still at the
table hands the seat over; the person takes it back by coming back. The moves
themselves are made by `Computers` (computers.py), from the seat's view only. The
stand-in waits out a grace before it plays an away person's seat, and every computer
waits for the previous seat's manual draw (graces.py); the table says until when with
a "computer" timer, and the trio side sleeps until then (the table's side of that is
table_computer.py; its turn clocks are timed.py).

Who sits where across tables, and the rules of it, are the lobby's `Seating`
(seating.py); a table asks it to place a guest.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from sarja.protocol.changes import Away, Back, Change
from sarja.protocol.limits import MAX_SPECTATORS
from sarja.protocol.messages import ActionMessage, Notice, ServerMessage
from sarja.protocol.names import name_key

from . import journal_rows as rows
from .effects import Effects, Timer
from .engine import Arrangement
from .engine.arrangement import SIDE_COLOURS
from .guest import Guest
from .journal_saved import SavedTable
from .match import Match
from .play import Play
from .refusal import Refusal
from .seating import Seating
from .table_computer import ComputerTurns
from .toggles import Toggles
from .turns import Computer, free_computer_name


class Table(ComputerTurns):
    """One table's steps: each takes a request (or a computer's move) and the time."""

    def __init__(
        self, table_id: str, name: str, arrangement: Arrangement, takeover: str | None,
        rng: random.Random, seating: Seating[Table], fx: Effects,
        on_game_over: Callable[[Table], None] = lambda table: None,
        computers: list[Computer | None] | None = None, hand_over_after: float = 60.0,
        draw_grace: float = 8.0, turn_clock: int = 0,
        may_start: Callable[[Table], None] = lambda table: None,
    ) -> None:  # fmt: skip
        super().__init__(
            table_id, name, arrangement, takeover, fx, computers, hand_over_after, draw_grace,
            turn_clock,
        )  # fmt: skip
        self.seating = seating  # the lobby's: where every guest is
        self._rng = rng
        self._on_game_over = on_game_over
        # Refuses (Refusal) a game about to start here, before the request changes
        # anything: the lobby's bound on what one address sets running (guards.py).
        self._may_start = may_start
        self.toggles = Toggles()  # the waiting room's changes, told together (toggles.py)
        self._turn_clock_at: float | None = None  # when the next turn clock runs out

    def restore(
        self, saved: SavedTable, guests: dict[str, Guest], watchers: Sequence[Guest], now: float
    ) -> None:
        """Bring the table back as the journal kept it: its seats (every player away
        until they resume, the computer's seats playing on), its latest game, replayed
        action by action (EngineError if it does not replay), and its spectators
        (`watchers`), watching again once they resume."""
        self.now = now
        self.creator = None if saved.creator is None else guests.get(saved.creator)
        self.creator_person = saved.creator_person
        for guest in watchers:
            self.seating.place(guest, self)
        if saved.match is not None:
            to, number, games = saved.match
            self.match = Match(to, games, number)
        kept = saved.game
        if kept is not None:
            self.play = Play.replay(
                self.id, self.arrangement, kept, saved.version, self._rng, self.fx
            )
            self.games_played = kept.number
            self.graces.draws_waiting(self.play.game.pending_draw, now)
        for seat, held in enumerate(saved.seats):
            if held is not None:
                guest = self.seats[seat] = guests[held[0]]
                # A guest comes back to the game in play, if it holds a seat in one.
                if guest.table is None or self.in_play:
                    self.seating.place(guest, self, seat)
                # Gone since the restart: the server cannot know since when before it.
                self.graces.gone(seat, now)
        # A seat freed after the game ended made the table a waiting room again
        # (`leave`), even if someone took it since: the journal keeps the game and says
        # so (a journal from before it did shows only the free seat).
        waiting = not self.full or saved.waiting_after == self.games_played
        if self.play is not None and not self.in_play and waiting:
            self.play = None
        if self.play is not None and self.in_play:
            self.handed = dict(saved.handed)
            people = [s for s, held in enumerate(saved.seats) if held is not None]
            self.play.history.everyone_away(self.play.version, people)
            # Everyone away: each clock starts afresh when its person is back.
            self.clocks.runs = dict(saved.clock_runs)
            self.follow_clocks()
        self._wake_computer()

    # ----- the waiting room ----------------------------------------------

    def join(self, guest: Guest, seat: int | None, side: int | None, now: float) -> None:
        self.now = now
        if guest in self.seats:  # coming back to a seat this guest holds
            self.welcome_back(guest, now)
            return
        if self.started:
            # Someone of this name plays or watches here: watching is refused too, so say that.
            self.seating.check_name(self, guest)
            raise Refusal("game_started", "The game at this table has started; you can watch it.")
        free = [i for i, g in enumerate(self.seats) if g is None and self.computers[i] is None]
        if side is not None:
            if side >= self.arrangement.sides:
                raise Refusal("no_such_seat", f"This table has {self.arrangement.sides} sides.")
            free = [i for i in free if self.arrangement.side_of(i) == side]
        if seat is not None:
            self._check_seat(seat)
            on = self.arrangement.side_of(seat)
            if side is not None and on != side:  # free or not: it is not on that side
                names = [colour.capitalize() for colour in SIDE_COLOURS]
                raise Refusal(
                    "wrong_side", f"Seat {seat + 1} is on {names[on]}'s side, not {names[side]}'s."
                )
            if seat not in free:
                raise Refusal("seat_taken", self._taken(seat))
            free = [seat]
        if not free:
            raise Refusal("table_full", "Every seat at this table is taken.")
        self.seating.check_name(self, guest)
        self._set_seat(free[0], guest)
        self.seating.place(guest, self, free[0])
        self.send_table()
        self._notice("joined", guest, free[0])

    def computer_yields(self, name: str) -> bool:
        """A person on the server is called `name`: a computer here called so takes
        another name, none of the people's on the server nor one at the table (its name
        was only the server's choice; the standings know computers by level). Everyone
        here sees it: the table, and the game's snapshot again. True if one did."""
        if not any(self.computers):
            return False  # most tables: every hello asks each one
        key = name_key(name)
        renamed = False
        for seat, computer in enumerate(self.computers):
            if computer is None or name_key(computer.name) != key:
                continue
            taken = [*self.names(), *(g.name for g in self.spectators), *self.people_on_server()]
            taken.append(name)
            new = free_computer_name(taken)
            if new is None:
                continue  # every name taken: the person is refused here, as before
            self.computers[seat] = Computer(computer.level, new)
            self.fx.write(rows.seat(self.id, seat, None, computer.level, new))
            renamed = True
        if not renamed:
            return False
        self.send_table()
        if self.play is not None:  # the players' names are the snapshot's
            for guest in self.members():
                self._send_snapshot(guest)
        return True

    def seat_computer(self, guest: Guest, seat: int, level: str | None, now: float) -> None:
        """The table's creator, in the waiting room, seats a computer at `level` in a
        free seat, changes the level of the computer in it (in place: the seat is never
        free between), or (`level` None) frees a computer's seat.

        The creator is then not ready (other people and bots keep theirs: a program may
        say ready only once, and sarja-bot says it again at once, which would start the
        game all the same): the game never starts here, at a level the creator has not
        had a chance to change, but when they say ready again."""
        self.now = now
        if not self.made_by(guest):
            raise Refusal(
                "not_creator", "Only the table's creator can seat or take away a computer."
            )
        if guest.seat is None:  # so that a person always plays: no game of computers only
            raise Refusal(
                "not_a_player", "Take a seat first: only a seated player seats a computer."
            )
        if self.started:
            raise Refusal("game_started", "The game has started; seats can't change now.")
        self._check_seat(seat)
        computer = self.computers[seat]
        if level is None:
            if computer is None:
                raise Refusal("not_computer", f"Seat {seat + 1} is not a computer player's.")
            self.computers[seat] = None
            self.ready[seat] = False
            self.fx.write(rows.seat(self.id, seat, None))
        elif computer is None:
            self._computer_seated(guest, seat, level)
        elif computer.level != level:  # the same computer, by its name, at another level
            self.computers[seat] = Computer(level, computer.name)
            self.fx.write(rows.seat(self.id, seat, None, level, computer.name))
        if guest is not self.creator:  # the creator, back as a new guest: this one now
            self.made(guest)
        if computer is None or computer.level != level:  # anything but the level it had
            self.ready[guest.seat] = False
        self._tell_toggles_soon()

    def _computer_seated(self, guest: Guest, seat: int, level: str) -> None:
        """A computer at `level` in the free `seat`, named as no one here is."""
        if seat == guest.seat:
            raise Refusal("seat_taken", f"Seat {seat + 1} is yours; a computer takes a free seat.")
        if self.seats[seat] is not None:
            raise Refusal("seat_taken", self._taken(seat))
        name = free_computer_name([*self.names_here(guest), guest.name, *self.people_on_server()])
        if name is None:
            raise Refusal(
                "no_computer_name", "Every name a computer can have is taken at this table."
            )
        self.computers[seat] = Computer(level, name)
        self.ready[seat] = True
        self.fx.write(rows.seat(self.id, seat, None, level, name))

    def made(self, guest: Guest) -> None:
        """`guest` is the table's creator from now on."""
        self.creator = guest
        self.creator_person = guest.person or self.creator_person
        self.fx.write(rows.table_creator(self.id, guest.id, self.creator_person))

    def _set_seat(self, seat: int, guest: Guest | None) -> None:
        self.seats[seat] = guest
        if guest is not None:
            self.fx.write(rows.guest(guest.id, guest.name, guest.keys, guest.person))
        self.fx.write(rows.seat(self.id, seat, None if guest is None else guest.id))

    def spectate(self, guest: Guest, now: float) -> None:
        self.now = now
        if len(self.spectators) >= MAX_SPECTATORS:
            raise Refusal(
                "too_many_spectators", f"This table already has {MAX_SPECTATORS} spectators."
            )
        self.seating.check_name(self, guest)
        self.spectators.append(guest)
        self.seating.place(guest, self)
        self.fx.write(rows.guest(guest.id, guest.name, guest.keys, guest.person))
        self.fx.write(rows.spectator(self.id, guest.id, True))
        # Told to the players and the newcomer only: with many watching, telling every
        # spectator of every other would cost the square of their number.
        self.send_table(self._players_here() + [guest])
        if self.play is not None:
            self._send_snapshot(guest)
        self._notice("watching", guest, to=self._players_here())

    def sit(self, guest: Guest, seat: int, now: float) -> None:
        self.now = now
        if self.started:
            raise Refusal("game_started", "The game has started; seats can't change now.")
        self._check_seat(seat)
        if self.computers[seat] is not None or self.seats[seat] not in (None, guest):
            raise Refusal("seat_taken", self._taken(seat))
        if guest.seat is not None:
            self._set_seat(guest.seat, None)
            self.ready[guest.seat] = False
        elif guest in self.spectators:
            self.spectators.remove(guest)
            self.fx.write(rows.spectator(self.id, guest.id, False))
        self._set_seat(seat, guest)
        self.ready[seat] = False
        self.seating.place(guest, self, seat)
        self._notice("seated", guest, seat)
        self.send_table()

    def set_ready(self, guest: Guest, ready: bool, now: float) -> None:
        """Ready for the game: the first one, or the next game of a match."""
        self.now = now
        if guest.seat is None:
            raise Refusal("not_a_player", "Spectators don't need to be ready.")
        if self.started and not self.between_games:
            raise Refusal("game_started", "The game has started.")
        seat = guest.seat
        if ready and self.full and all(r or i == seat for i, r in enumerate(self.ready)):
            self._may_start(self)
        self.toggles.note(guest.seat, self.ready[guest.seat], guest)
        self.ready[guest.seat] = ready
        if all(self.ready) and self.full:
            self._start()
        else:
            self._tell_toggles_soon()

    def leave(self, guest: Guest, now: float) -> None:
        """The guest goes back to the lobby. During a game their seat, hand and
        turn are kept for them; otherwise the seat is freed."""
        self.now = now
        if guest in self.spectators:
            self.spectators.remove(guest)
            self.fx.write(rows.spectator(self.id, guest.id, False))
            self.seating.place(guest, None)
            self.send_table(self._players_here())
            return
        seat = guest.seat
        self.seating.place(guest, None)
        if seat is None:
            return
        if self.in_play:
            self._gone(seat)
            return
        self._set_seat(seat, None)
        self.ready[seat] = False
        self._notice("left", guest, seat)
        if self.play is not None:
            # A seat freed after a game: no rematch with the same seats, so the
            # table becomes a waiting room again, open to a new player.
            self.fx.write(rows.table_waiting(self.id, self.games_played))
            self.play = None
            self.ready = self._computers_ready()
            self.rematch.clear()
            self.handed.clear()
            # A match's score stays: the match is the table's, between its sides, and
            # goes on with whoever takes the seat; one decided stays shown until the
            # rematch starts the next (`_start`).
        self.send_table()

    def went_away(self, guest: Guest, now: float) -> None:
        """The guest's connection is gone. A seat in a game is held for them, and one
        while a match goes on (between its games, or waiting for a seat freed between
        them): a dropped link must not end it for everyone, nor give their side's wins
        to whoever sits down next."""
        self.now = now
        if guest.seat is not None and self.in_play:
            self._gone(guest.seat)
        elif guest.seat is not None and self.match_goes_on:
            self.graces.gone(guest.seat, now)
            self.ready[guest.seat] = False  # the next game waits for them to come back
            self.send_table()  # the seat shows away
        else:
            self.leave(guest, now)

    def _gone(self, seat: int) -> None:
        # Gone on purpose (`leave`) or not, the seat is kept the same: the stand-in
        # waits its grace either way.
        self.graces.gone(seat, self.now)
        self._seat_change(Away(seat))
        self.send_table()

    def welcome_back(self, guest: Guest, now: float) -> None:
        """A seat holder is back (a new connection, or a `join` from the lobby): the
        seat is theirs again, whoever played it meanwhile. A spectator from before a
        restart watches again."""
        self.now = now
        if guest not in self.seats:
            if guest in self.spectators:  # a second connection took over from the first
                self.send_table([guest])
                if self.play is not None:
                    self._send_snapshot(guest)
            else:
                self.seating.place(guest, None)
                self.spectate(guest, now)
            return
        seat = self.seats.index(guest)
        self.seating.place(guest, self, seat)
        self.taken_over.discard(seat)
        self.clocks.gave.discard(seat)
        self.graces.back(seat, now)
        if self.handed.pop(seat, None) is not None:
            self.fx.write(rows.seat(self.id, seat, guest.id))
        if self.in_play:
            self._seat_change(Back(seat), but=guest)
        self.send_table()
        if self.play is not None:
            self._send_snapshot(guest)

    def hand_over(self, guest: Guest, seat: int, now: float) -> None:
        """A player at the table lets the computer play an away player's seat, once
        that player has been away `hand_over_after` seconds; at medium, unless the
        table's own stand-in level says otherwise. The player takes it back by
        coming back."""
        self.now = now
        if guest.seat is None:
            raise Refusal("not_a_player", "Only a seated player can hand a seat over.")
        # The session allows `hand_over` only while the table's game is on.
        assert self.play is not None
        self._check_seat(seat)
        name = self.names()[seat]
        if self.level_for(seat) is not None:
            raise Refusal("already_computer", f"The computer already plays for {name}.")
        if not self.away()[seat]:
            raise Refusal("not_away", f"{name} is here; only an away player's seat is handed over.")
        gone = self.graces.away_for(seat, now)
        if gone < self.hand_over_after:
            raise Refusal(
                "too_soon",
                f"{name} has been away {int(gone)} s; the seat can be handed to the computer"
                f" after {self.hand_over_after:g} s.",
            )
        level = self.handed[seat] = self.takeover or "medium"
        held = self.seats[seat]
        assert held is not None  # an away seat is a person's
        self.fx.write(rows.seat(self.id, seat, held.id, level))
        self.send_table()
        self.follow_clocks()  # no clock for a seat the computer plays
        self._wake_computer()

    # ----- the game -------------------------------------------------------

    def _start(self) -> None:
        self._toggle_notices()  # who said ready, before the game they started
        self.rematch.clear()
        self.taken_over.clear()
        self.handed.clear()
        self.graces.reset()
        if self.match is not None and self.match.over:  # the rematch: a new match
            self.fx.write(self.match.new_match(self.id))
        self.games_played += 1
        play = self.play = Play.new(
            self.id, self.arrangement, self.games_played, self._rng, self.fx
        )
        self.clocks.stop()
        self.follow_clocks()  # the first turn's clock, in the snapshots
        self.send_table()
        for guest in self.members():
            self._send_snapshot(guest)
        play.after_change(self._here())
        self._wake_computer()

    def act(self, guest: Guest, msg: ActionMessage, now: float) -> None:
        """A game action: answered once per action id, refused if stale."""
        self.now = now
        seat = guest.seat
        if seat is None:
            raise Refusal("not_a_player", "Only a seated player can play; spectators watch.")
        # The session allows actions only while the table's game is on or just over.
        assert self.play is not None
        events = self.play.request(guest, seat, msg)
        if events == "stale":
            self._send_snapshot(guest)
        elif events != "repeat":
            took_back = self.took_back(guest, seat)
            self._acted(events)
            if took_back:
                # The seat the clock handed over is the person's again: said after the
                # action's own messages, which nothing comes between.
                self.send_table()

    def _acted(self, events: list[Change], stand_in: bool = False) -> None:
        """Tell everyone what the action just applied did (`stand_in`: a computer did it
        for a person's seat), and what follows from it."""
        play = self.play
        assert play is not None
        game = play.game
        self.graces.draws_waiting(game.pending_draw, self.now)
        clocks = self.follow_clocks()
        match = self.match
        if game.outcome is not None and match is not None:
            self.fx.write(match.game_over(self.id, game.outcome.side))
            if not match.over:  # the next game starts once every person is ready
                self.ready = self._computers_ready()
        if game.outcome is not None and not self.between_games:
            # A computer is always up for another game.
            self.rematch.update(i for i, c in enumerate(self.computers) if c is not None)
        play.publish(events, self.members(), self._here(), stand_in, clocks)
        self._wake_computer()
        if game.outcome is not None:
            self.fx.games_over += 1
            if self.rematch or match is not None:
                # The computers' seats ask for a rematch at once; a match's score moved.
                self.send_table()
            self._on_game_over(self)

    def ask_rematch(self, guest: Guest, now: float) -> None:
        self.now = now
        if guest.seat is None:
            raise Refusal("not_a_player", "Only a seated player can ask for a rematch.")
        # The session allows a rematch only once the table's game is over.
        assert self.play is not None and self.play.game.outcome is not None
        if self.between_games:  # the match goes on: no vote, only being ready
            self.set_ready(guest, True, now)
            return
        if len(self.rematch | {guest.seat}) == self.arrangement.players and self.full:
            self._may_start(self)
        self.rematch.add(guest.seat)
        self._notice("rematch", guest, guest.seat)
        if len(self.rematch) == self.arrangement.players and self.full:
            self._start()
        else:
            self.send_table()

    def sync(self, guest: Guest, now: float) -> None:
        """A member lost track of the updates: a fresh snapshot (its past only if
        asked for: `send_history`)."""
        self.now = now
        # The session allows `sync` only while the table has a game.
        assert self.play is not None
        self._send_snapshot(guest)

    def send_history(self, guest: Guest, after: int) -> None:
        """A page of the game's past, for a member's log."""
        # The session allows `history` only while the table has a game.
        assert self.play is not None
        self.play.send_history(guest, after)

    def _clock_timer(self, at: float | None) -> None:
        """The table's one timer: the next turn clock to run out (`at`), or the
        waiting room's changes to tell, whichever comes first."""
        self._turn_clock_at = at
        due = self.toggles.due
        first = at if due is None else due if at is None else min(at, due)
        self.fx.timers.append(Timer("clock", self, first))

    def clock_ran_out(self, now: float) -> None:
        """The "clock" timer fired: the waiting room's changes are told, if it is time;
        the computer plays the turns whose clock ran out (timed.py), marked as the
        stand-in's."""
        self.now = now
        due = self.toggles.due
        if due is not None and now >= due:
            self._tell_toggles()
        if self.expire_clocks():
            self.send_table()
        self._wake_computer()

    # ----- telling --------------------------------------------------------

    def _send_snapshot(self, guest: Guest) -> None:
        assert self.play is not None
        clocks = self.clocks.running(self.now) if self.in_play else ()
        self.play.send_snapshot(guest, guest.seat, self.names(), self.away(), clocks)

    def _seat_change(self, change: Away | Back, but: Guest | None = None) -> None:
        """A player went away or came back: a change like any other, with a version."""
        assert self.play is not None
        clocks = self.follow_clocks()  # an away person's clock waits; one back gets a fresh one
        self.play.seat_change(change, [g for g in self.members() if g is not but], clocks)
        # Either way a grace starts or ends: the computer looks again.
        self._wake_computer()

    def _tell_toggles_soon(self) -> None:
        """A waiting room's change (toggles.py): told now, or with the others at the
        time already set."""
        due = self.toggles.due
        at = self.toggles.when(self.now)
        if at is None:
            self._tell_toggles()
        elif due is None:  # the first to wait: the timer is set for it
            self._clock_timer(self._turn_clock_at)

    def _tell_toggles(self) -> None:
        self._toggle_notices()
        self.send_table()

    def _toggle_notices(self) -> None:
        """A notice for each seat whose readiness changed since it was last told."""
        for seat, (was, guest) in sorted(self.toggles.take(self.now).items()):
            if guest is not None and self.seats[seat] is guest and self.ready[seat] != was:
                self._notice("ready" if self.ready[seat] else "unready", guest, seat)

    def send_table(self, to: list[Guest] | None = None) -> None:
        for guest in self.members() if to is None else to:
            self.fx.send(guest, self.view_for(guest))

    def _notice(
        self, kind: str, guest: Guest, seat: int | None = None, to: list[Guest] | None = None
    ) -> None:
        self._broadcast(Notice(kind=kind, name=guest.name, seat=seat, _trusted=True), to)

    def _broadcast(self, message: ServerMessage, guests: list[Guest] | None = None) -> None:
        """One message to many: encoded once, whoever receives it."""
        self.fx.send(self.members() if guests is None else guests, message)
