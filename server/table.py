"""One table: its seats, spectators and readiness, and the game played at it.

Every method runs to completion without awaiting, so a table changes in one
step as trio sees it: no locks, and every member sees messages in the same order.

During a game the table keeps a `version` that every change the members see moves
on by one: each accepted action, and each player going away or coming back. A member
is sent a snapshot once, then one public update per change; the seat whose hand
changed gets its `hand`, and each seat with something to do its `legal` list.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sarja.protocol.limits import MAX_SPECTATORS
from sarja.protocol.messages import (
    Ack,
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
from sarja.protocol.messages import (
    Action as ActionMessage,
)

from . import bot
from .engine import Action, Arrangement, Event, Game, seat_view
from .engine.actions import DEAD_ACTIONS, DRAW_ACTION, PASS_ACTION, PLACE, REMOVE
from .engine.board import CARD_CELLS, five_between
from .engine.cards import CARD_KIND, NORMAL, parse_card
from .guest import Guest
from .journal import Journal, SavedTable, replay_game
from .present import (
    changes,
    hand_message,
    hand_part,
    legal_message,
    rules_of,
    seat_change,
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
        return DEAD_ACTIONS[card]
    if isinstance(msg, Remove):
        return Action(REMOVE, card, msg.cell)
    fives = tuple(five_between(start, end) for start, end in msg.fives)
    return Action(PLACE, card, msg.cell, fives)  # type: ignore[arg-type]


class Table:
    def __init__(
        self,
        table_id: str,
        name: str,
        arrangement: Arrangement,
        computer_takeover: bool,
        rng: random.Random,
        journal: Journal,
        on_game_over: Callable[[Table], None],
        schedule_autoplay: Callable[[Table], None] = lambda table: None,
    ) -> None:
        self.id = table_id
        self.journal = journal
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
        self._schedule_autoplay = schedule_autoplay
        self.taken_over: set[int] = set()  # seats the computer plays for now
        self._reset_game_state()

    def _reset_game_state(self) -> None:
        players = self.arrangement.players
        self.version = 0  # every change members see during a game moves it on by one
        self.acted_at = 0  # the version the last accepted action led to
        # Per seat, the action ids accepted in this game: id -> (action, version).
        self.accepted: list[dict[int, tuple[Action, int]]] = [{} for _ in range(players)]
        # Per seat, the hand part last sent, so a hand goes out only when it changed.
        self._hands_sent: list[HandPart | None] = [None] * players

    def restore(self, saved: SavedTable, guests: dict[str, Guest]) -> None:
        """Bring the table back as the journal kept it: its seats (every player away
        until they resume) and its latest game, replayed action by action."""
        if saved.game is not None:
            self._replay(saved)
        for seat, held in enumerate(saved.seats):
            if held is not None:
                guest = self.seats[seat] = guests[held[0]]
                # A guest comes back to the game in play, if it holds a seat in one.
                if guest.table is None or self.in_play:
                    guest.table, guest.seat = self, seat

    def _replay(self, saved: SavedTable) -> None:
        kept = saved.game
        assert kept is not None
        self.game = replay_game(self.arrangement, kept, self._rng)
        self.games_played = kept.number
        for a in kept.actions:
            self.acted_at = a.version
            if a.action_id is not None:
                self.accepted[a.seat][a.action_id] = (Action.parse(a.action), a.version)
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
        return not self.spectators and all(g is None for g in self.seats)

    @property
    def abandoned(self) -> bool:
        """No game in play, no one watching, and no seated player connected."""
        return (
            not self.in_play
            and not self.spectators
            and not any(g is not None and g.connected and g.table is self for g in self.seats)
        )

    def seated_here(self, seat: int) -> Guest | None:
        """The guest in `seat` if they are at this table and connected now."""
        g = self.seats[seat]
        return g if g is not None and g.table is self and g.connected else None

    def members(self) -> list[Guest]:
        """Everyone who gets this table's messages now."""
        seated = [g for g in self.seats if g is not None and g.table is self]
        return seated + self.spectators

    def names(self) -> list[str]:
        return [g.name if g else f"Seat {i + 1}" for i, g in enumerate(self.seats)]

    def away(self) -> list[bool]:
        return [g is None or not g.connected or g.table is not self for g in self.seats]

    def last_id(self, seat: int | None) -> int | None:
        """The highest action id accepted for `seat` in this game, if any."""
        if seat is None or self.game is None or not self.accepted[seat]:
            return None
        return max(self.accepted[seat])

    def summary(self) -> TableSummary:
        return TableSummary(
            id=self.id,
            name=self.name,
            players=self.arrangement.players,
            teams=self.arrangement.sides,
            seated=tuple(g.name if g else None for g in self.seats),
            spectators=len(self.spectators),
            started=self.started,
            rules=rules_of(self.arrangement),
            computer_takeover=self.computer_takeover,
            _trusted=True,
        )

    def view_for(self, guest: Guest) -> TableView:
        away = self.away()
        return TableView(
            id=self.id,
            name=self.name,
            players=self.arrangement.players,
            teams=self.arrangement.sides,
            seats=tuple(
                Seat(
                    name=g.name if g else None,
                    ready=self.ready[i],
                    away=g is not None and away[i],
                    _trusted=True,
                )
                for i, g in enumerate(self.seats)
            ),
            spectators=len(self.spectators),
            started=self.started,
            rules=rules_of(self.arrangement),
            computer_takeover=self.computer_takeover,
            seat=guest.seat if guest.table is self else None,
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
        self._set_seat(free[0], guest)
        guest.table, guest.seat = self, free[0]
        self.send_table()
        self._notice("joined", guest, free[0])

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
        self.spectators.append(guest)
        guest.table, guest.seat = self, None
        self.send_table()
        if self.game is not None:
            guest.send(self._snapshot_for(None))
        self._notice("watching", guest)

    def sit(self, guest: Guest, seat: int) -> None:
        if self.started:
            raise Refusal("game_started", "The game has started; seats can't change now.")
        if seat >= self.arrangement.players:
            raise Refusal("no_such_seat", f"This table has {self.arrangement.players} seats.")
        if self.seats[seat] is not None and self.seats[seat] is not guest:
            raise Refusal("seat_taken", f"Seat {seat + 1} is taken.")
        if guest.seat is not None:
            self._set_seat(guest.seat, None)
            self.ready[guest.seat] = False
        elif guest in self.spectators:
            self.spectators.remove(guest)
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
        if all(self.ready) and all(self.seats):
            self._start()

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
            self._seat_change("away", seat)
            self.send_table()
            return
        self._set_seat(seat, None)
        self.ready[seat] = False
        self._notice("left", guest, seat)
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
            self._seat_change("away", guest.seat)
            self.send_table()
        else:
            self.leave(guest)

    def welcome_back(self, guest: Guest) -> None:
        """A seat holder is back (a new connection, or a `join` from the lobby)."""
        guest.table = self
        seat = guest.seat = self.seats.index(guest)
        self.taken_over.discard(seat)
        if self.in_play:
            self._seat_change("back", seat, but=guest)
        self.send_table()
        if self.game is not None:
            self._send_snapshot(guest)

    # ----- the game -------------------------------------------------------

    def _start(self) -> None:
        self.game = Game.new(self.arrangement, self._rng)
        self.rematch.clear()
        self.taken_over.clear()
        self._reset_game_state()
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
        if len(self.rematch) == self.arrangement.players and all(self.seats):
            self._start()
        else:
            self.send_table()

    def sync(self, guest: Guest) -> None:
        """A member lost track of the updates: a fresh snapshot."""
        # The session allows `sync` only while the table has a game.
        assert self.game is not None
        self._send_snapshot(guest)

    # ----- the computer --------------------------------------------------

    def _seats_for_computer(self) -> list[int]:
        """Absent players' seats that have something to do now."""
        game = self.game
        if game is None or game.outcome is not None:
            return []
        away = self.away()
        return [s for s in range(self.arrangement.players) if away[s] and game.legal_actions(s)]

    def autoplay(self) -> None:
        """The computer moves for an absent player, when the table allows it; one
        move at a time, so people can follow."""
        game = self.game
        seats = self._seats_for_computer() if self.computer_takeover else []
        if game is None or not seats:
            return
        seat = seats[0]
        if seat not in self.taken_over:
            self.taken_over.add(seat)
            for member in self.members():
                member.send(
                    Notice(kind="takeover", name=self.names()[seat], seat=seat, _trusted=True)
                )
        action = bot.choose(seat_view(game, seat), self._rng)
        assert action is not None  # the seat has legal actions
        self._publish(self._apply(seat, action, None))

    def _apply(self, seat: int, action: Action, action_id: int | None) -> list[Event]:
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
        self.journal.action(
            self.id, self.games_played, game.version, seat, str(action), action_id,
            self.version, game.reshuffles[reshuffled:],
        )  # fmt: skip
        if game.outcome is not None:
            self.journal.game_finished(self.id, self.games_played)
        return events

    def _publish(self, events: list[Event]) -> None:
        """Tell everyone what the action just applied did."""
        game = self.game
        assert game is not None
        self._broadcast(update(self.version, game, changes(events)))
        self._after_change(events)
        if game.outcome is not None:
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
        if seat is not None and self.game is not None:
            self._hands_sent[seat] = hand_part(self.game, seat)

    def _after_change(self, events: list[Event] | None = None) -> None:
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
                if part != before:
                    self._hands_sent[seat] = part
                    guest.send(hand_message(self.version, part, _drawn(before, part)))
        for seat in dict.fromkeys((game.turn, *game.pending_draw)):
            guest = self.seated_here(seat)
            legal = None if guest is None else legal_message(self.version, game, seat)
            if guest is not None and legal is not None:
                guest.send(legal)
        if self.computer_takeover and self._seats_for_computer():
            self._schedule_autoplay(self)

    def _seat_change(self, kind: str, seat: int, but: Guest | None = None) -> None:
        """A player went away or came back: a change like any other, with a version."""
        assert self.game is not None
        self.version += 1
        self.journal.table_version(self.id, self.version)
        message = update(self.version, self.game, seat_change(kind, seat))
        self._broadcast(message, [g for g in self.members() if g is not but])
        if kind == "away" and self.computer_takeover and self._seats_for_computer():
            self._schedule_autoplay(self)

    def send_table(self) -> None:
        for guest in self.members():
            guest.send(self.view_for(guest))

    def _notice(self, kind: str, guest: Guest, seat: int | None = None) -> None:
        self._broadcast(Notice(kind=kind, name=guest.name, seat=seat, _trusted=True))

    def _broadcast(self, message: ServerMessage, guests: list[Guest] | None = None) -> None:
        """Send one message to many: encoded once, whoever receives it."""
        frame = None
        for guest in self.members() if guests is None else guests:
            outbox = guest.outbox
            if outbox is not None:
                if frame is None:
                    frame = outbox.encode(message)
                outbox.send_encoded(message, frame)


def _touched(events: list[Event]) -> tuple[set[int], set[int]]:
    """(seats whose hand changed, cells whose chip or lock changed) after an action."""
    seats, cells = set(), set()
    for e in events:
        if e.kind in ("played", "removed", "dead_card", "drew") and e.seat is not None:
            seats.add(e.seat)
        if e.cell >= 0:
            cells.add(e.cell)
        for five in e.fives:
            cells.update(five)
    return seats, cells


def _may_change(hand: list[int], seat: int, touched: tuple[set[int], set[int]]) -> bool:
    """Whether a seat's hand, targets or dead cards can have changed: its hand did, it
    holds a jack (whose targets follow the whole board), or a card of a touched cell."""
    seats, cells = touched
    if seat in seats:
        return True
    return any(CARD_KIND[c] != NORMAL or not cells.isdisjoint(CARD_CELLS[c]) for c in hand)


def _drawn(before: HandPart | None, after: HandPart) -> str | None:
    """The card that came into the hand, when one did (and only one)."""
    if before is None:
        return None
    rest = list(after[0])
    for card in before[0]:
        if card in rest:
            rest.remove(card)
    return rest[0] if len(rest) == 1 else None
