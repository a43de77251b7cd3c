"""One table: its seats, spectators and readiness, and the game played at it.

Every method runs to completion without awaiting, so a table changes in one
step as trio sees it: no locks, and every member sees messages in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sarja.protocol.messages import Ack, Error, Seat, TableInfo
from sarja.protocol.messages import Event as EventMessage
from sarja.protocol.messages import Table as TableMessage

from . import bot
from .engine import Action, Arrangement, EngineError, Game, seat_view
from .engine.actions import DEAD, DRAW, PASS, PLACE, REMOVE
from .engine.board import five_between
from .engine.cards import card_label, parse_card
from .guest import Guest
from .present import StateFactory, event_message, rules_of, state_message
from .refusal import Refusal

_ACTION_KINDS = {"play": PLACE, "remove": REMOVE, "exchange": DEAD, "draw": DRAW, "pass": PASS}


def engine_action(msg: Any) -> Action:
    """The engine's action for a validated protocol action message."""
    kind = _ACTION_KINDS[msg.TYPE]
    if kind in (DRAW, PASS):
        return Action(kind)
    card = parse_card(msg.card)
    if kind == DEAD:
        return Action(kind, card)
    row, col = msg.cell
    fives = ()
    if kind == PLACE and msg.fives:
        fives = tuple(five_between(r1 * 10 + c1, r2 * 10 + c2) for r1, c1, r2, c2 in msg.fives)
    return Action(kind, card, row * 10 + col, fives)  # type: ignore[arg-type]


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        arrangement: Arrangement,
        computer_takeover: bool,
        rng: random.Random,
        on_game_over: Callable[[Table], None],
        answers_kept: int = 64,
        schedule_autoplay: Callable[[Table], None] = lambda table: None,
    ) -> None:
        self.id = table_id
        self.name = name
        self.arrangement = arrangement
        self.computer_takeover = computer_takeover
        self.seats: list[Guest | None] = [None] * arrangement.players
        self.ready = [False] * arrangement.players
        self.spectators: list[Guest] = []
        self.game: Game | None = None
        self.rematch: set[int] = set()
        self.games_played = 0
        self._rng = rng
        self._on_game_over = on_game_over
        self._answers_kept = answers_kept
        self._schedule_autoplay = schedule_autoplay
        self.taken_over: set[int] = set()  # seats the computer plays for now

    # ----- who is here ---------------------------------------------------

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def empty(self) -> bool:
        return not self.spectators and all(g is None for g in self.seats)

    @property
    def abandoned(self) -> bool:
        """No game in play, no one watching, and no seated player connected."""
        return (
            not self.in_play
            and not self.spectators
            and not any(g is not None and g.connected and g.table is self for g in self.seats)
        )

    def members(self) -> list[Guest]:
        """Everyone who gets this table's messages now."""
        seated = [g for g in self.seats if g is not None and g.table is self]
        return seated + self.spectators

    def names(self) -> list[str]:
        return [g.name if g else f"Seat {i + 1}" for i, g in enumerate(self.seats)]

    def away(self) -> list[bool]:
        return [g is None or not g.connected or g.table is not self for g in self.seats]

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id,
            name=self.name,
            players=self.arrangement.players,
            teams=self.arrangement.sides,
            seated=tuple(g.name if g else None for g in self.seats),
            spectators=len(self.spectators),
            started=self.started,
            rules=rules_of(self.arrangement),
            computer_takeover=self.computer_takeover,
        )

    def table_message(self, guest: Guest) -> TableMessage:
        away = self.away()
        return TableMessage(
            id=self.id,
            name=self.name,
            players=self.arrangement.players,
            teams=self.arrangement.sides,
            seats=tuple(
                Seat(
                    name=g.name if g else None, ready=self.ready[i], away=g is not None and away[i]
                )
                for i, g in enumerate(self.seats)
            ),
            spectators=len(self.spectators),
            started=self.started,
            rules=rules_of(self.arrangement),
            computer_takeover=self.computer_takeover,
            seat=guest.seat if guest.table is self else None,
        )

    # ----- the waiting room ----------------------------------------------

    def join(self, guest: Guest, seat: int | None, side: int | None) -> None:
        if guest in self.seats:  # coming back to a seat this guest holds
            self.welcome_back(guest)
            return
        if self.started:
            raise Refusal("game_started", "The game at this table has started; you can watch it.")
        free = [i for i, g in enumerate(self.seats) if g is None]
        if side is not None:
            if side >= self.arrangement.sides:
                raise Refusal("no_such_seat", f"This table has {self.arrangement.sides} sides.")
            free = [i for i in free if self.arrangement.side_of(i) == side]
        if seat is not None:
            if seat >= self.arrangement.players:
                raise Refusal("no_such_seat", f"This table has {self.arrangement.players} seats.")
            if seat not in free:
                raise Refusal("seat_taken", f"Seat {seat + 1} is taken.")
            free = [seat]
        if not free:
            raise Refusal("table_full", "Every seat at this table is taken.")
        self.seats[free[0]] = guest
        guest.table, guest.seat = self, free[0]
        self.send_table()
        self._announce("joined", f"{guest.name} sat down at seat {free[0] + 1}", free[0])

    def spectate(self, guest: Guest) -> None:
        self.spectators.append(guest)
        guest.table, guest.seat = self, None
        self.send_table()
        if self.game is not None:
            guest.send(self._state_for(None))
        self._announce("joined", f"{guest.name} is watching")

    def sit(self, guest: Guest, seat: int) -> None:
        if self.started:
            raise Refusal("game_started", "The game has started; seats can't change now.")
        if seat >= self.arrangement.players:
            raise Refusal("no_such_seat", f"This table has {self.arrangement.players} seats.")
        if self.seats[seat] is not None and self.seats[seat] is not guest:
            raise Refusal("seat_taken", f"Seat {seat + 1} is taken.")
        if guest.seat is not None:
            self.seats[guest.seat] = None
            self.ready[guest.seat] = False
        elif guest in self.spectators:
            self.spectators.remove(guest)
        self.seats[seat] = guest
        self.ready[seat] = False
        guest.seat = seat
        self._announce("seated", f"{guest.name} moved to seat {seat + 1}", seat)
        self.send_table()

    def set_ready(self, guest: Guest, ready: bool) -> None:
        if guest.seat is None:
            raise Refusal("not_a_player", "Spectators don't need to be ready.")
        if self.started:
            raise Refusal("game_started", "The game has started.")
        self.ready[guest.seat] = ready
        word = "ready" if ready else "unready"
        self._announce(word, f"{guest.name} is {'ready' if ready else 'not ready'}", guest.seat)
        self.send_table()
        if all(self.ready) and all(self.seats):
            self._start()

    @property
    def in_play(self) -> bool:
        return self.game is not None and self.game.outcome is None

    def leave(self, guest: Guest) -> None:
        """The guest goes back to the lobby. During a game their seat, hand and
        turn are kept for them; otherwise the seat is freed."""
        if guest in self.spectators:
            self.spectators.remove(guest)
            guest.table = guest.seat = None
            self.send_table()
            return
        seat = guest.seat
        guest.table = guest.seat = None
        if seat is None:
            return
        if self.in_play:
            self._announce("away", f"{guest.name} left the table; the seat is kept", seat)
            self.send_table()
            self.send_states()
            return
        self.seats[seat] = None
        self.ready[seat] = False
        self._announce("left", f"{guest.name} left the table", seat)
        if self.game is not None:
            # A seat freed after a game: no rematch with the same seats, so the
            # table becomes a waiting room again, open to a new player.
            self.game = None
            self.ready = [False] * self.arrangement.players
            self.rematch.clear()
        self.send_table()

    def went_away(self, guest: Guest) -> None:
        """The guest's connection is gone. A seat in a game is held for them."""
        if guest.seat is not None and self.in_play:
            self._announce(
                "away", f"{guest.name} lost the connection; the seat is kept", guest.seat
            )
            self.send_table()
            self.send_states()
        else:
            self.leave(guest)

    def welcome_back(self, guest: Guest) -> None:
        """A seat holder is back (a new connection, or a `join` from the lobby)."""
        guest.table = self
        guest.seat = self.seats.index(guest)
        self.taken_over.discard(guest.seat)
        self.send_table()
        if self.game is not None:
            self.send_states()
        self._announce("back", f"{guest.name} is back", guest.seat)

    # ----- the game -------------------------------------------------------

    def _start(self) -> None:
        self.game = Game.new(self.arrangement, self._rng)
        self.rematch.clear()
        self.taken_over.clear()
        self.games_played += 1
        names = self.names()
        self._announce("started", f"Game {self.games_played} begins")
        for number, cut_round in enumerate(self.game.cut):
            shown = ", ".join(f"{names[s]} {card_label(c)}" for s, c in cut_round)
            again = " (cut again)" if number else ""
            self._announce("cut", f"The cut{again}: {shown}")
        first = self.game.first
        self._announce("dealt", f"{names[first]} cut lowest and plays first", first)
        self.send_table()
        self.send_states()

    def act(self, guest: Guest, msg: Any) -> None:
        """A game action: refused if stale, answered once per action id."""
        game = self.game
        if guest.seat is None:
            raise Refusal("not_a_player", "Only a seated player can play; spectators watch.")
        if game is None:
            raise Refusal("no_game", "No game is being played at this table yet.")
        earlier = guest.earlier_answer(msg.id)
        if earlier is not None:
            guest.send(earlier)  # the same answer again, nothing applied twice
            return
        if msg.version != game.version:
            answer = Error(
                code="stale_version",
                message=f"The game has moved on (version {game.version}); here is the"
                " current state.",
                id=msg.id,
            )
            guest.remember_answer(msg.id, answer, self._answers_kept)
            guest.send(answer)
            guest.send(self._state_for(guest.seat))
            return
        try:
            events = game.apply(guest.seat, engine_action(msg))
        except EngineError as refusal:
            answer = Error(code=refusal.code, message=refusal.message, id=msg.id)
            guest.remember_answer(msg.id, answer, self._answers_kept)
            guest.send(answer)
            return
        answer = Ack(id=msg.id, version=game.version)
        guest.remember_answer(msg.id, answer, self._answers_kept)
        guest.send(answer)
        self._send_events(events)
        self.send_states(first=guest)
        if game.outcome is not None:
            self._on_game_over(self)

    def ask_rematch(self, guest: Guest) -> None:
        if guest.seat is None:
            raise Refusal("not_a_player", "Only a seated player can ask for a rematch.")
        if self.game is None or self.game.outcome is None:
            raise Refusal("game_not_over", "A rematch can be asked for once the game is over.")
        self.rematch.add(guest.seat)
        wanted = f"{len(self.rematch)} of {self.arrangement.players}"
        self._announce("rematch", f"{guest.name} wants a rematch ({wanted})", guest.seat)
        if len(self.rematch) == self.arrangement.players and all(self.seats):
            self._start()

    # ----- sending --------------------------------------------------------

    def _state_for(self, seat: int | None) -> Any:
        return state_message(self.id, self.game, seat, self.names(), self.away(), self.arrangement)

    def send_states(self, first: Guest | None = None) -> None:
        """Each seat its own view; spectators one shared view with no hand.

        `first`, the player who just acted, gets theirs first and at once: the
        mover waits for it, the others are not waiting for anything."""
        if self.game is None:
            return
        states = StateFactory(self.id, self.game, self.names(), self.away(), self.arrangement)
        if first is not None and first.outbox is not None:
            first.send(states.for_seat(first.seat))
            first.outbox.flush()
        others = [
            guest
            for guest in self.seats
            if guest is not None and guest is not first and guest.table is self and guest.connected
        ]
        # Packing the shared fields once costs what packing about two whole states
        # does, so it pays from three states on (measured; see shared_state.py).
        if len(others) >= 3:
            for guest in others:
                guest.send_encoded(*states.encoded(guest.seat))
        else:
            for guest in others:
                guest.send(states.for_seat(guest.seat))
        if self.spectators:
            self._broadcast(states.for_seat(None), self.spectators)
        if self.computer_takeover and self._seats_for_computer():
            self._schedule_autoplay(self)

    def _seats_for_computer(self) -> list[int]:
        """Absent players' seats that have something to do now."""
        if not self.in_play:
            return []
        away, game = self.away(), self.game
        return [s for s in range(self.arrangement.players) if away[s] and game.legal_actions(s)]

    def autoplay(self) -> None:
        """The computer moves for absent players, when the table allows it."""
        for seat in self._seats_for_computer() if self.computer_takeover else ():
            if seat not in self.taken_over:
                self.taken_over.add(seat)
                name = self.names()[seat]
                self._announce("takeover", f"The computer plays for {name} until they return", seat)
            action = bot.choose(seat_view(self.game, seat), self._rng)
            events = self.game.apply(seat, action)
            self._send_events(events)
            self.send_states()
            if self.game.outcome is not None:
                self._on_game_over(self)
            return  # one move at a time, so people can follow

    def send_table(self) -> None:
        for guest in self.members():
            guest.send(self.table_message(guest))

    def _send_events(self, events: list) -> None:
        version = self.game.version if self.game else 0
        names = self.names()
        for event in events:
            message = event_message(version, event, names, self.arrangement)
            if message is not None:
                self._broadcast(message)

    def _announce(self, kind: str, text: str, seat: int | None = None) -> None:
        version = self.game.version if self.game else 0
        self._broadcast(EventMessage(version=version, kind=kind, text=text[:200], seat=seat))

    def _broadcast(self, message: Any, guests: list[Guest] | None = None) -> None:
        """Send one message to many: encoded once, whoever receives it."""
        frame = None
        for guest in self.members() if guests is None else guests:
            if guest.outbox is not None:
                if frame is None:
                    frame = guest.outbox.encode(message)
                guest.outbox.send_encoded(message, frame)
