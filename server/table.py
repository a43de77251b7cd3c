"""One table: its seats, spectators and readiness, and the game played at it.

Every method runs to completion without awaiting, so a table changes in one
step as trio sees it: no locks, and every member sees messages in the same order.

During a game the table keeps a `version` that every change the members see moves
on by one: each accepted action, and each player going away or coming back. A member
is sent a snapshot once, then one public update per change; the seat whose hand
changed gets its `hand`, and each seat with something to do its `legal` list.

A seat is a person's or a computer's, chosen when the table is made; a computer seat
is always ready, and asks for every rematch. The computer also plays a person's seat
while they are away, when the table lets it stand in (`takeover`, a level) or when a
player still at the table hands the seat over; the person takes it back by coming
back. The moves themselves are made by `Computers` (computers.py), from the seat's
view only. The stand-in waits out a grace before it plays an away person's seat, and
every computer waits for the previous seat's manual draw (graces.py); the table says
until when (`computer_due`), and the trio side sleeps until then.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Literal, assert_never

from sarja.protocol.changes import (
    Away,
    Back,
    Change,
    DrawForfeited,
    DrawnGame,
    Drew,
    Exchanged,
    NoDraw,
    Passed,
    Played,
    Removed,
    Reshuffled,
    SequenceMade,
    Won,
)
from sarja.protocol.limits import MAX_SPECTATORS
from sarja.protocol.messages import (
    Ack,
    ActionMessage,
    Draw,
    Error,
    Exchange,
    Notice,
    Pass,
    Remove,
    Seat,
    ServerMessage,
    TableSummary,
    TableView,
)

from .computers import Computer, Turn
from .engine import Action, Arrangement, EngineError, Game, seat_view
from .engine.actions import DRAW, DRAW_ACTION, EXCHANGE_ACTIONS, PASS_ACTION, PLACE, REMOVE
from .engine.arrangement import SIDE_COLOURS
from .engine.board import LAYOUT, five_cells
from .engine.cards import JACKS, parse_card
from .graces import Graces, computer_plan
from .guest import Guest
from .history import GameHistory, send_history
from .journal import Journal, SavedTable, replay_game
from .present import (
    hand_message,
    hand_part,
    legal_message,
    rules_of,
    snapshot,
    update,
)
from .refusal import Refusal

HandPart = tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[str, ...]]


def engine_action(msg: ActionMessage) -> Action:
    """The engine's action for a validated protocol action message."""
    if isinstance(msg, Draw):
        return DRAW_ACTION
    if isinstance(msg, Pass):
        return PASS_ACTION
    card = parse_card(msg.card)
    if isinstance(msg, Exchange):
        return EXCHANGE_ACTIONS[card]
    if isinstance(msg, Remove):
        return Action(REMOVE, card, msg.cell)
    fives = tuple(five_cells(five) for five in msg.fives)
    return Action(PLACE, card, msg.cell, fives)


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        arrangement: Arrangement,
        takeover: str | None,
        rng: random.Random,
        journal: Journal,
        on_game_over: Callable[[Table], None],
        wake_computer: Callable[[Table], None] = lambda table: None,
        computers: list[Computer | None] | None = None,
        hand_over_after: float = 60.0,
        draw_grace: float = 8.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.id = table_id
        self.journal = journal
        self.name = name
        self.arrangement = arrangement
        self.takeover = takeover  # the level that stands in for an away player, if any
        players = arrangement.players
        self.seats: list[Guest | None] = [None] * players  # the people
        self.computers: list[Computer | None] = computers or [None] * players
        self.ready = self._computers_ready()
        self.spectators: list[Guest] = []
        # When the sweep first saw each full table's seat waiting on a player who is not
        # ready, and first saw the game with no player connected (lobby.sweep).
        self.unready_since: dict[int, float] = {}
        self.deserted_since: float | None = None
        self.game: Game | None = None
        self.rematch: set[int] = set()
        self.games_played = 0
        self._rng = rng
        self._on_game_over = on_game_over
        self._wake_computer = wake_computer
        self.hand_over_after = hand_over_after
        self.clock = clock
        self.handed: dict[int, str] = {}  # away people's seats handed to the computer
        self.graces = Graces(clock, hand_over_after, draw_grace)
        self.away_since = self.graces.away_since  # when each away seat's player went
        self.taken_over: set[int] = set()  # seats whose takeover the members were told
        # False once the lobby has parked or closed this table: a table is one object
        # for as long as it is in memory, and a dead one never plays or writes again
        # (a copy brought back from the journal is the table from then on).
        self.live = True
        self._reset_game_state()

    def _computers_ready(self) -> list[bool]:
        return [c is not None for c in self.computers]

    def _reset_game_state(self) -> None:
        players = self.arrangement.players
        self.version = 0  # every change members see during a game moves it on by one
        self.acted_at = 0  # the version the last accepted action led to
        # Per seat, the action ids accepted in this game: id -> (action, version).
        self.accepted: list[dict[int, tuple[Action, int]]] = [{} for _ in range(players)]
        # Per seat, the hand part last sent, so a hand goes out only when it changed.
        self._hands_sent: list[HandPart | None] = [None] * players
        self.history = GameHistory()  # every public change, for members who come later
        # The versions whose action a computer made for a person's seat (a stand-in's
        # or a handed seat's), not a computer seat's own.
        self.stand_ins: set[int] = set()

    def restore(
        self, saved: SavedTable, guests: dict[str, Guest], watchers: Sequence[Guest] = ()
    ) -> None:
        """Bring the table back as the journal kept it: its seats (every player away
        until they resume, the computer's seats playing on), its latest game, replayed
        action by action, and its spectators (`watchers`), watching again once they
        resume."""
        for guest in watchers:
            guest.table, guest.seat = self, None
        if saved.game is not None:
            self._replay(saved)
        now = self.clock()
        for seat, held in enumerate(saved.seats):
            if held is not None:
                guest = self.seats[seat] = guests[held[0]]
                # A guest comes back to the game in play, if it holds a seat in one.
                if guest.table is None or self.in_play:
                    guest.table, guest.seat = self, seat
                # Gone since the restart: the server cannot know since when before it.
                self.graces.gone(seat, now)
        if self.in_play:
            self.handed = dict(saved.handed)
            people = [s for s, held in enumerate(saved.seats) if held is not None]
            self.history.everyone_away(self.version, people)
        self.wake_computer()

    def _replay(self, saved: SavedTable) -> None:
        kept = saved.game
        assert kept is not None
        self.game = replay_game(
            self.arrangement,
            kept,
            self._rng,
            lambda a, made: self.history.record(a.version, tuple(made)),
        )
        self.games_played = kept.number
        for a in kept.actions:
            self.acted_at = a.version
            if a.action_id is not None:
                self.accepted[a.seat][a.action_id] = (Action.parse(a.action), a.version)
            if a.stand_in:
                self.stand_ins.add(a.version)
        self.graces.draws_waiting(self.game.pending_draw)
        # Everyone is away now: a change like any other, so versions only grow.
        self.version = max(saved.version, self.acted_at) + 1
        self.journal.table_version(self.id, self.version)

    # ----- who is here ---------------------------------------------------

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def in_play(self) -> bool:
        return self.game is not None and self.game.outcome is None

    @property
    def empty(self) -> bool:
        """No person seated or watching (computers keep no table open)."""
        return not self.spectators and all(g is None for g in self.seats)

    @property
    def full(self) -> bool:
        return all(
            g is not None or c is not None for g, c in zip(self.seats, self.computers, strict=True)
        )

    @property
    def abandoned(self) -> bool:
        """No game in play, no one watching, and no seated player connected."""
        return not self.in_play and not self.spectators and not self._anyone_here()

    def seated_here(self, seat: int) -> Guest | None:
        """The guest in `seat` if they are at this table and connected now."""
        g = self.seats[seat]
        return g if g is not None and g.table is self and g.connected else None

    def _anyone_here(self) -> bool:
        """Whether some seated player is at this table and connected now."""
        return any(self.seated_here(seat) is not None for seat in range(len(self.seats)))

    def members(self) -> list[Guest]:
        """Everyone who gets this table's messages now."""
        seated = [g for g in self.seats if g is not None and g.table is self]
        return seated + self.spectators

    def names(self) -> list[str]:
        return [
            g.name if g else c.name if c else f"Seat {i + 1}"
            for i, (g, c) in enumerate(zip(self.seats, self.computers, strict=True))
        ]

    def away(self) -> list[bool]:
        """Per seat, whether it is a person's seat with the person not here."""
        return [
            c is None and (g is None or not g.connected or g.table is not self)
            for g, c in zip(self.seats, self.computers, strict=True)
        ]

    def stood_in(self) -> list[bool]:
        """Per seat, whether the stand-in may play it: a person's seat whose person has
        been away the whole grace (`graces`)."""
        now = self.clock()
        return [a and now >= self.graces.stand_in_from(s) for s, a in enumerate(self.away())]

    def level_for(self, seat: int, due: list[bool] | None = None) -> str | None:
        """The level of the computer that plays `seat` now, if one does (`due`: the
        seats `stood_in` now, if known)."""
        computer = self.computers[seat]
        if computer is not None:
            return computer.level
        level = self.handed.get(seat)
        if level is not None:
            return level
        if self.takeover is None or not self.in_play:
            return None
        return self.takeover if (self.stood_in() if due is None else due)[seat] else None

    def last_id(self, seat: int | None) -> int | None:
        """The highest action id accepted for `seat` in this game, if any."""
        if seat is None or self.game is None or not self.accepted[seat]:
            return None
        return max(self.accepted[seat])

    @property
    def computer_takeover(self) -> str | Literal[False]:
        """`takeover` as the wire says it: a level, or false."""
        return self.takeover or False

    def summary(self) -> TableSummary:
        names = self.names()
        return TableSummary(
            id=self.id,
            name=self.name,
            players=self.arrangement.players,
            teams=self.arrangement.sides,
            seated=tuple(
                names[i] if g is not None or c is not None else None
                for i, (g, c) in enumerate(zip(self.seats, self.computers, strict=True))
            ),
            spectators=len(self.spectators),
            started=self.started,
            rules=rules_of(self.arrangement),
            computer_takeover=self.computer_takeover,
            computers=tuple(
                c.level if c else g.computer if g else None
                for g, c in zip(self.seats, self.computers, strict=True)
            )
            if any(self.computers) or any(g and g.computer for g in self.seats)
            else (),
            _trusted=True,
        )

    def view_for(self, guest: Guest) -> TableView:
        return self._view(guest.seat if guest.table is self else None)

    def _view(self, seat: int | None) -> TableView:
        away = self.away()
        due = self.stood_in() if self.in_play and self.takeover is not None else None
        names = self.names()
        return TableView(
            id=self.id,
            name=self.name,
            players=self.arrangement.players,
            teams=self.arrangement.sides,
            seats=tuple(
                Seat(
                    name=names[i] if g is not None or c is not None else None,
                    ready=self.ready[i],
                    away=g is not None and away[i],
                    computer=self.level_for(i, due) or (g.computer if g else None),
                    _trusted=True,
                )
                for i, (g, c) in enumerate(zip(self.seats, self.computers, strict=True))
            ),
            spectators=len(self.spectators),
            started=self.started,
            rules=rules_of(self.arrangement),
            computer_takeover=self.computer_takeover,
            seat=seat,
            rematch=tuple(sorted(self.rematch)),
            _trusted=True,
        )

    # ----- the waiting room ----------------------------------------------

    def join(self, guest: Guest, seat: int | None, side: int | None) -> None:
        if guest in self.seats:  # coming back to a seat this guest holds
            self.welcome_back(guest)
            return
        if self.started:
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
        self._check_name(guest)
        self._set_seat(free[0], guest)
        guest.table, guest.seat = self, free[0]
        self.send_table()
        self._notice("joined", guest, free[0])

    def _check_seat(self, seat: int) -> None:
        if seat >= self.arrangement.players:
            raise Refusal("no_such_seat", f"This table has {self.arrangement.players} seats.")

    def _taken(self, seat: int) -> str:
        computer = self.computers[seat]
        if computer is not None:
            return f"Seat {seat + 1} is {computer.name}'s, a computer player's."
        return f"Seat {seat + 1} is taken."

    def squatters(self, now: float, patience: float) -> list[Guest]:
        """The guests who hold up a full waiting table by never being ready."""
        if self.started or any(
            g is None and c is None for g, c in zip(self.seats, self.computers, strict=True)
        ):
            self.unready_since.clear()
            return []
        late = []
        for seat, guest in enumerate(self.seats):
            if guest is None or self.ready[seat]:
                self.unready_since.pop(seat, None)
                continue
            since = self.unready_since.setdefault(seat, now)
            if now - since > patience:
                late.append(guest)
        return late

    @property
    def left_by_all(self) -> bool:
        """A game in play that none of its players is connected to."""
        return self.in_play and not self._anyone_here()

    def deserted(self, now: float, patience: float) -> bool:
        """True for a game in play whose players have all been gone for a while."""
        if not self.left_by_all:
            self.deserted_since = None
            return False
        if self.deserted_since is None:
            self.deserted_since = now
        return now - self.deserted_since > patience

    def _check_name(self, guest: Guest) -> None:
        """One name, one person at a table: no one can chat or play as another."""
        seated = [
            name
            for name, g, c in zip(self.names(), self.seats, self.computers, strict=True)
            if (g is not None and g is not guest) or c is not None
        ]
        watching = [g.name for g in self.spectators if g is not guest]
        if guest.name.casefold() in {n.casefold() for n in (*seated, *watching)}:
            raise Refusal(
                "name_taken",
                f"Someone at this table is already called {guest.name}; connect again"
                " under another name to join.",
            )

    def _set_seat(self, seat: int, guest: Guest | None) -> None:
        self.seats[seat] = guest
        if guest is not None:
            self.journal.guest(guest.id, guest.name, guest.keys)
        self.journal.seat(self.id, seat, None if guest is None else guest.id)

    def spectate(self, guest: Guest) -> None:
        if len(self.spectators) >= MAX_SPECTATORS:
            raise Refusal(
                "too_many_spectators", f"This table already has {MAX_SPECTATORS} spectators."
            )
        self._check_name(guest)
        self.spectators.append(guest)
        guest.table, guest.seat = self, None
        self.journal.guest(guest.id, guest.name, guest.keys)
        self.journal.spectator(self.id, guest.id, True)
        # Told to the players and the newcomer only: with many watching, telling every
        # spectator of every other would cost the square of their number.
        self.send_table(self._players_here() + [guest])
        if self.game is not None:
            self._send_snapshot(guest)
        self._notice("watching", guest, to=self._players_here())

    def sit(self, guest: Guest, seat: int) -> None:
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
            self.journal.spectator(self.id, guest.id, False)
        self._set_seat(seat, guest)
        self.ready[seat] = False
        guest.seat = seat
        self._notice("seated", guest, seat)
        self.send_table()

    def set_ready(self, guest: Guest, ready: bool) -> None:
        if guest.seat is None:
            raise Refusal("not_a_player", "Spectators don't need to be ready.")
        if self.started:
            raise Refusal("game_started", "The game has started.")
        self.ready[guest.seat] = ready
        self._notice("ready" if ready else "unready", guest, guest.seat)
        self.send_table()
        if all(self.ready) and self.full:
            self._start()

    def leave(self, guest: Guest) -> None:
        """The guest goes back to the lobby. During a game their seat, hand and
        turn are kept for them; otherwise the seat is freed."""
        if guest in self.spectators:
            self.spectators.remove(guest)
            self.journal.spectator(self.id, guest.id, False)
            guest.table = guest.seat = None
            self.send_table(self._players_here())
            return
        seat = guest.seat
        guest.table = guest.seat = None
        if seat is None:
            return
        if self.in_play:
            self._gone(seat)
            return
        self._set_seat(seat, None)
        self.ready[seat] = False
        self._notice("left", guest, seat)
        if self.game is not None:
            # A seat freed after a game: no rematch with the same seats, so the
            # table becomes a waiting room again, open to a new player.
            self.game = None
            self.ready = self._computers_ready()
            self.rematch.clear()
            self.handed.clear()
        self.send_table()

    def went_away(self, guest: Guest) -> None:
        """The guest's connection is gone. A seat in a game is held for them."""
        if guest.seat is not None and self.in_play:
            self._gone(guest.seat)
        else:
            self.leave(guest)

    def _gone(self, seat: int) -> None:
        # Gone on purpose (`leave`) or not, the seat is kept the same: the stand-in
        # waits its grace either way.
        self.graces.gone(seat)
        self._seat_change(Away(seat))
        self.send_table()

    def welcome_back(self, guest: Guest) -> None:
        """A seat holder is back (a new connection, or a `join` from the lobby): the
        seat is theirs again, whoever played it meanwhile. A spectator from before a
        restart watches again."""
        if guest not in self.seats:
            if guest in self.spectators:  # a second connection took over from the first
                self.send_table([guest])
                if self.game is not None:
                    guest.send(self._snapshot_for(None))
            else:
                guest.table = None
                self.spectate(guest)
            return
        guest.table = self
        seat = guest.seat = self.seats.index(guest)
        self.taken_over.discard(seat)
        self.graces.back(seat)
        if self.handed.pop(seat, None) is not None:
            self.journal.seat(self.id, seat, guest.id)
        if self.in_play:
            self._seat_change(Back(seat), but=guest)
        self.send_table()
        if self.game is not None:
            self._send_snapshot(guest)

    def hand_over(self, guest: Guest, seat: int) -> None:
        """A player at the table lets the computer play an away player's seat, once
        that player has been away `hand_over_after` seconds; at medium, unless the
        table's own stand-in level says otherwise. The player takes it back by
        coming back."""
        if guest.seat is None:
            raise Refusal("not_a_player", "Only a seated player can hand a seat over.")
        # The session allows `hand_over` only while the table's game is on.
        assert self.game is not None
        self._check_seat(seat)
        name = self.names()[seat]
        if self.level_for(seat) is not None:
            raise Refusal("already_computer", f"The computer already plays for {name}.")
        if not self.away()[seat]:
            raise Refusal("not_away", f"{name} is here; only an away player's seat is handed over.")
        gone = self.graces.away_for(seat)
        if gone < self.hand_over_after:
            raise Refusal(
                "too_soon",
                f"{name} has been away {int(gone)} s; the seat can be handed to the computer"
                f" after {self.hand_over_after:g} s.",
            )
        level = self.handed[seat] = self.takeover or "medium"
        held = self.seats[seat]
        assert held is not None  # an away seat is a person's
        self.journal.seat(self.id, seat, held.id, level)
        self.send_table()
        self.wake_computer()

    # ----- the game -------------------------------------------------------

    def _start(self) -> None:
        self.game = Game.new(self.arrangement, self._rng)
        self.rematch.clear()
        self.taken_over.clear()
        self.handed.clear()
        self._reset_game_state()
        self.graces.reset()
        self.games_played += 1
        self.journal.game_started(self.id, self.games_played, self.game.cut, self.game.deck)
        self.send_table()
        for guest in self.members():
            self._send_snapshot(guest)
        self._after_change()

    def act(self, guest: Guest, msg: ActionMessage) -> None:
        """A game action: answered once per action id, refused if stale."""
        game = self.game
        seat = guest.seat
        if seat is None:
            raise Refusal("not_a_player", "Only a seated player can play; spectators watch.")
        # The session allows actions only while the table's game is on or just over.
        assert game is not None
        action = engine_action(msg)
        earlier = self.accepted[seat].get(msg.id)
        if earlier is not None:
            if earlier[0] != action:
                raise Refusal(
                    "id_reused",
                    f"Action id {msg.id} already stands for another action in this game;"
                    " use a new id.",
                )
            guest.send(Ack(id=msg.id, version=earlier[1], _trusted=True))
            return
        if msg.version > self.version:
            raise Refusal(
                "bad_version",
                f"The game has not reached version {msg.version} (it is at {self.version}).",
            )
        if msg.version < self.acted_at:
            guest.send(
                Error(
                    code="stale_version",
                    message="The game has moved on since; here is where it stands now.",
                    id=msg.id,
                    _trusted=True,
                )
            )
            self._send_snapshot(guest)
            return
        events = self._apply(seat, action, msg.id)
        guest.send(Ack(id=msg.id, version=self.version, _trusted=True))
        self._publish(events)

    def ask_rematch(self, guest: Guest) -> None:
        if guest.seat is None:
            raise Refusal("not_a_player", "Only a seated player can ask for a rematch.")
        # The session allows a rematch only once the table's game is over.
        assert self.game is not None and self.game.outcome is not None
        self.rematch.add(guest.seat)
        self._notice("rematch", guest, guest.seat)
        if len(self.rematch) == self.arrangement.players and self.full:
            self._start()
        else:
            self.send_table()

    def sync(self, guest: Guest) -> None:
        """A member lost track of the updates: a fresh snapshot."""
        # The session allows `sync` only while the table has a game.
        assert self.game is not None
        self._send_snapshot(guest)

    # ----- the computer --------------------------------------------------

    def _computer_plan(self) -> tuple[list[int], float | None]:
        """The seats the computer plays that have something to do now, and when a
        grace runs out (graces.py)."""
        return computer_plan(self)

    def computer_due(self) -> float | None:
        """When (on `clock`) the computer may have a move to make here that it has not
        now, if a grace is running: the trio side sleeps until then."""
        return self._computer_plan()[1]

    def wake_computer(self) -> None:
        if not self.live:
            return
        ready, due = self._computer_plan()
        if ready or due is not None:
            self._wake_computer(self)

    def computer_turn(self) -> Turn | None:
        """The next move the computer is to make here, with the seat's view."""
        if not self.live:
            return None
        seats = self._computer_plan()[0]
        if not seats:
            return None
        game = self.game
        assert game is not None
        seat = seats[0]
        level = self.level_for(seat)
        assert level is not None
        return Turn(seat, level, seat_view(game, seat), game, len(game.history))

    def computer_thinking(self, seat: int) -> None:
        """Tell the members the computer is choosing a move for `seat` (and, the first
        time it plays for an away person, that it does)."""
        name = self.names()[seat]
        if self.computers[seat] is None and seat not in self.taken_over:
            self.taken_over.add(seat)
            self._broadcast(Notice(kind="takeover", name=name, seat=seat, _trusted=True))
        self._broadcast(Notice(kind="thinking", name=name, seat=seat, _trusted=True))

    def computer_move(self, turn: Turn, action: Action) -> bool:
        """Make the computer's move, if the game is where it was when the computer
        began to think and the computer still plays the seat. True if made."""
        game = self.game
        if not self.live or game is not turn.game or len(game.history) != turn.moves:
            return False
        seat = turn.seat
        if self.level_for(seat) is None or seat not in self._computer_plan()[0]:
            return False
        stand_in = self.computers[seat] is None  # a person's seat, played for them
        try:
            events = self._apply(seat, action, None, stand_in)
        except EngineError:
            return False  # not this seat's to make any more: the next turn decides
        self._publish(events, stand_in)
        if action.kind != DRAW and seat in game.pending_draw and game.outcome is None:
            # The draw with the move, in the same step: no one can play before it.
            self._publish(self._apply(seat, DRAW_ACTION, None, stand_in), stand_in)
        return True

    def _apply(
        self, seat: int, action: Action, action_id: int | None, stand_in: bool = False
    ) -> list[Change]:
        """Apply an action to the game and write it to the journal; refused
        (EngineError) before anything changes."""
        game = self.game
        assert game is not None
        reshuffled = len(game.reshuffles)
        events = game.apply(seat, action)
        self.version += 1
        self.acted_at = self.version
        if action_id is not None:
            self.accepted[seat][action_id] = (action, self.version)
        if stand_in:
            self.stand_ins.add(self.version)
        self.graces.draws_waiting(game.pending_draw)
        self.journal.action(
            self.id, self.games_played, game.version, seat, str(action), action_id,
            self.version, game.reshuffles[reshuffled:], stand_in,
        )  # fmt: skip
        if game.outcome is not None:
            self.journal.game_finished(self.id, self.games_played)
            # A computer is always up for another game.
            self.rematch.update(i for i, c in enumerate(self.computers) if c is not None)
        return events

    def _publish(self, events: list[Change], stand_in: bool = False) -> None:
        """Tell everyone what the action just applied did (`stand_in`: a computer did it
        for a person's seat)."""
        game = self.game
        assert game is not None
        made = tuple(events)
        self.history.record(self.version, made)
        self._broadcast(update(self.version, game, made, stand_in))
        self._after_change(events)
        if game.outcome is not None:
            if self.rematch:
                self.send_table()  # the computers' seats ask for a rematch at once
            self._on_game_over(self)

    # ----- sending --------------------------------------------------------

    def _snapshot_for(self, seat: int | None) -> ServerMessage:
        assert self.game is not None
        return snapshot(
            self.id, self.version, self.game, seat, self.names(), self.away(), self.last_id(seat)
        )

    def _send_snapshot(self, guest: Guest) -> None:
        seat = guest.seat
        guest.send(self._snapshot_for(seat))
        send_history(self.history, guest, self.version, self.stand_ins)
        if seat is not None and self.game is not None:
            self._hands_sent[seat] = hand_part(self.game, seat)

    def _after_change(self, events: list[Change] | None = None) -> None:
        """After the public update: each seat's new hand, if it changed, and the legal
        actions of every seat that has something to do. `events`, what changed, lets
        it look only at the seats whose hand part can have changed."""
        game = self.game
        assert game is not None
        if game.outcome is not None:
            return  # the final update's result shows every hand
        touched = None if events is None else _touched(events)
        for seat in range(self.arrangement.players):
            guest = self.seated_here(seat)
            before = self._hands_sent[seat]
            if guest is None:
                self._hands_sent[seat] = None
            elif before is None or touched is None or _may_change(game.hands[seat], seat, touched):
                part = hand_part(game, seat)
                spent = _spent(events, seat)
                # A seat that drew the twin of the card it spent holds what it held: it
                # still learns that it drew, and what.
                if part != before or spent is not None:
                    self._hands_sent[seat] = part
                    guest.send(hand_message(self.version, part, _drawn(before, part, spent)))
        for seat in dict.fromkeys((game.turn, *game.pending_draw)):
            guest = self.seated_here(seat)
            legal = None if guest is None else legal_message(self.version, game, seat)
            if guest is not None and legal is not None:
                guest.send(legal)
        self.wake_computer()

    def _seat_change(self, change: Away | Back, but: Guest | None = None) -> None:
        """A player went away or came back: a change like any other, with a version."""
        assert self.game is not None
        self.version += 1
        self.journal.table_version(self.id, self.version)
        made = (change,)
        self.history.record(self.version, made)
        message = update(self.version, self.game, made)
        self._broadcast(message, [g for g in self.members() if g is not but])
        # Either way a grace starts or ends: the computer looks again.
        self.wake_computer()

    def send_table(self, to: list[Guest] | None = None) -> None:
        for guest in self.members() if to is None else to:
            guest.send(self.view_for(guest))

    def _players_here(self) -> list[Guest]:
        return [g for g in self.seats if g is not None and g.table is self]

    def _notice(
        self, kind: str, guest: Guest, seat: int | None = None, to: list[Guest] | None = None
    ) -> None:
        self._broadcast(Notice(kind=kind, name=guest.name, seat=seat, _trusted=True), to)

    def _broadcast(self, message: ServerMessage, guests: list[Guest] | None = None) -> None:
        """Send one message to many: encoded once, whoever receives it."""
        frame = None
        for guest in self.members() if guests is None else guests:
            outbox = guest.outbox
            if outbox is not None:
                if frame is None:
                    frame = outbox.encode(message)
                outbox.send_encoded(message, frame)


def _touched(events: list[Change]) -> tuple[set[int], set[int]]:
    """(seats whose hand changed, cards whose space's chip or lock changed) after an
    action."""
    seats, cells = set(), set()
    for e in events:
        match e:
            case Played(seat=seat, cell=cell) | Removed(seat=seat, cell=cell):
                seats.add(seat)
                cells.add(cell)
            case Exchanged(seat=seat) | Drew(seat=seat):
                seats.add(seat)
            case SequenceMade(fives=fives):
                for five in fives:
                    cells.update(five_cells(five))
            case (
                NoDraw() | Reshuffled() | DrawForfeited() | Passed() | Won() | DrawnGame()
                | Away() | Back()
            ):  # fmt: skip
                pass
            case _:
                assert_never(e)
    return seats, {LAYOUT[c] for c in cells} | JACKS


def _may_change(hand: list[int], seat: int, touched: tuple[set[int], set[int]]) -> bool:
    """Whether a seat's hand, targets or dead cards can have changed: its hand did, or
    it holds a card of a touched space or a jack (whose targets follow the whole
    board; `_touched` counts the jacks among the touched cards)."""
    seats, cards = touched
    return seat in seats or not cards.isdisjoint(hand)


def _spent(events: list[Change] | None, seat: int) -> str | None:
    """The card the seat gave up, if it gave one up and drew in the same action."""
    if events is None or Drew(seat) not in events:
        return None
    spent = [given[1] for given in map(_given_up, events) if given and given[0] == seat]
    return spent[0] if len(spent) == 1 else None


def _given_up(e: Change) -> tuple[int, str] | None:
    """(seat, card) when the change takes a card from a hand."""
    match e:
        case Played(seat=seat, card=card) | Removed(seat=seat, card=card):
            return seat, card
        case Exchanged(seat=seat, card=card):
            return seat, card
        case (
            Drew() | NoDraw() | Reshuffled() | DrawForfeited() | Passed() | SequenceMade()
            | Won() | DrawnGame() | Away() | Back()
        ):  # fmt: skip
            return None
        case _:
            assert_never(e)


def _drawn(before: HandPart | None, after: HandPart, spent: str | None = None) -> str | None:
    """The card that came into the hand, when one did (and only one); `spent`, the
    card that left it, tells a card drawn from one given up of the same name."""
    if before is None:
        return None
    held = list(before[0])
    if spent is not None and spent in held:
        held.remove(spent)
    rest = list(after[0])
    for card in held:
        if card in rest:
            rest.remove(card)
    return rest[0] if len(rest) == 1 else None
