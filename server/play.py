"""The game at a table and what its members have been told of it: versions, action ids,
the history, and the hands last sent.

During a game the table keeps a `version` that every change the members see moves on
by one: each accepted action, and each player going away or coming back. A member is
sent a snapshot once, then one public update per change; the seat whose hand changed
gets its `hand`, and each seat with something to do its `legal` list. An action is
answered once per action id (`ack`, the same again for a repeat), and refused if it
was meant for a version the game has left.

Pure: what to send and to write goes into the table's effects (effects.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from sarja.protocol.changes import Away, Back, Change
from sarja.protocol.messages import Ack, ActionMessage, Draw, Error, Exchange, Pass, Remove

from . import hands
from . import journal_rows as rows
from .effects import Effects
from .engine import Action, Arrangement, Game
from .engine.actions import DRAW, DRAW_ACTION, EXCHANGE_ACTIONS, PASS_ACTION, PLACE, REMOVE
from .engine.board import five_cells
from .engine.cards import parse_card
from .guest import Guest
from .history import GameHistory
from .journal_saved import SavedGame, replay_game
from .present import (
    hand_message,
    hand_part,
    legal_message,
    snapshot,
    update,
)
from .refusal import Refusal

Clocks = tuple[tuple[int, int], ...]  # the turn clocks running: [seat, ms left] (clocks.py)


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


class Play:
    """Game `number` at table `table_id`, as its members have been told it."""

    def __init__(self, table_id: str, game: Game, number: int, fx: Effects) -> None:
        self.table_id = table_id
        self.game = game
        self.number = number
        self.fx = fx
        players = game.arrangement.players
        self.version = 0  # every change members see during a game moves it on by one
        self.acted_at = 0  # the version the last accepted action led to
        # Per seat, the action ids accepted in this game: id -> (action, version).
        self.accepted: list[dict[int, tuple[Action, int]]] = [{} for _ in range(players)]
        # Per seat, the hand part last sent, so a hand goes out only when it changed.
        self.hands_sent: list[hands.HandPart | None] = [None] * players
        self.history = GameHistory()  # every public change, for members who come later
        # The versions whose action a computer made for a person's seat (a stand-in's
        # or a handed seat's), not a computer seat's own.
        self.stand_ins: set[int] = set()
        self.last_stand_in = False  # the game's last move (a draw is none) was such

    @classmethod
    def new(cls, table_id: str, arrangement: Arrangement, number: int, rng: random.Random,
            fx: Effects) -> Play:  # fmt: skip
        game = Game.new(arrangement, rng)
        fx.write(rows.game_started(table_id, number, game.cut, game.deck))
        return cls(table_id, game, number, fx)

    @classmethod
    def replay(
        cls, table_id: str, arrangement: Arrangement, kept: SavedGame, version: int,
        rng: random.Random, fx: Effects,
    ) -> Play:  # fmt: skip
        """The game as the journal kept it, replayed action by action (EngineError if
        it does not replay), at a version past every one told before (`version`, the
        table's last): everyone is away now, a change like any other."""
        history = GameHistory()
        game = replay_game(
            arrangement, kept, rng, lambda a, made: history.record(a.version, tuple(made))
        )
        play = cls(table_id, game, kept.number, fx)
        play.history = history
        for a in kept.actions:
            play.acted_at = a.version
            if a.action_id is not None:
                play.accepted[a.seat][a.action_id] = (Action.parse(a.action), a.version)
            if a.stand_in:
                play.stand_ins.add(a.version)
            if a.action != "draw":
                play.last_stand_in = a.stand_in
        play.version = max(version, play.acted_at) + 1
        fx.write(rows.table_version(table_id, play.version))
        return play

    def last_id(self, seat: int) -> int | None:
        """The highest action id accepted for `seat` in this game, if any."""
        accepted = self.accepted[seat]
        return max(accepted) if accepted else None

    # ----- actions ----------------------------------------------------------

    def request(
        self, guest: Guest, seat: int, msg: ActionMessage
    ) -> list[Change] | Literal["repeat", "stale"]:
        """A person's action: applied (its events returned, the ack sent) unless it
        repeats an id ("repeat": the same ack again) or was meant for a version the
        game has left ("stale": an error; the table sends a fresh snapshot). Refusal
        or EngineError before anything changes."""
        action = engine_action(msg)
        earlier = self.accepted[seat].get(msg.id)
        fx = self.fx
        if earlier is not None:
            if earlier[0] != action:
                raise Refusal(
                    "id_reused",
                    f"Action id {msg.id} already stands for another action in this game;"
                    " use a new id.",
                )
            fx.sends.append((guest, Ack(id=msg.id, version=earlier[1], _trusted=True)))
            return "repeat"
        if msg.version > self.version:
            raise Refusal(
                "bad_version",
                f"The game has not reached version {msg.version} (it is at {self.version}).",
            )
        if msg.version < self.acted_at:
            stale = Error(
                code="stale_version",
                message="The game has moved on since; here is where it stands now.",
                id=msg.id,
                _trusted=True,
            )
            fx.send(guest, stale)
            return "stale"
        events = self.apply(seat, action, msg.id)
        fx.sends.append((guest, Ack(id=msg.id, version=self.version, _trusted=True)))
        return events

    def apply(
        self, seat: int, action: Action, action_id: int | None, stand_in: bool = False
    ) -> list[Change]:
        """Apply an action to the game and write it to the journal; refused
        (EngineError) before anything changes."""
        game = self.game
        reshuffled = len(game.reshuffles)
        events = game.apply(seat, action)
        self.version += 1
        version = self.acted_at = self.version
        if action_id is not None:
            self.accepted[seat][action_id] = (action, version)
        if stand_in:
            self.stand_ins.add(version)
        if action.kind != DRAW:
            self.last_stand_in = stand_in
        fx = self.fx
        fx.rows.append(
            rows.action(
                self.table_id, self.number, game.version, seat, str(action), action_id,
                version, game.reshuffles[reshuffled:], stand_in,
            )
        )  # fmt: skip
        if game.outcome is not None:
            fx.write(rows.game_finished(self.table_id, self.number))
        return events

    # ----- telling ----------------------------------------------------------

    def publish(
        self, events: list[Change], members: Sequence[Guest], here: Sequence[Guest | None],
        stand_in: bool = False, clocks: Clocks | None = None,
    ) -> None:  # fmt: skip
        """Tell everyone what the action just applied did (`stand_in`: a computer did
        it for a person's seat), then each seat `here` its hand and legal actions."""
        made = tuple(events)
        self.history.record(self.version, made)
        self.fx.sends.append((members, update(self.version, self.game, made, stand_in, clocks)))
        self.after_change(here, events)

    def seat_change(
        self, change: Away | Back, to: Sequence[Guest], clocks: Clocks | None = None
    ) -> None:
        """A player went away or came back: a change like any other, with a version."""
        self.version += 1
        self.fx.write(rows.table_version(self.table_id, self.version))
        made = (change,)
        self.history.record(self.version, made)
        self.fx.send(to, update(self.version, self.game, made, clocks=clocks))

    def send_snapshot(
        self, guest: Guest, seat: int | None, names: list[str], away: list[bool],
        clocks: Clocks = (),
    ) -> None:  # fmt: skip
        """Everything the member may know (its past: `send_history`, when asked)."""
        last_id = None if seat is None else self.last_id(seat)
        game, version = self.game, self.version
        last = self.last_stand_in
        made = snapshot(self.table_id, version, game, seat, names, away, last_id, clocks, last)
        self.fx.send(guest, made)
        if seat is not None:
            self.hands_sent[seat] = hand_part(self.game, seat)

    def send_history(self, guest: Guest, after: int) -> None:
        """A page of the game's past: the entries after version `after`."""
        self.fx.send(guest, self.history.page(self.version, self.stand_ins, after))

    def after_change(
        self, here: Sequence[Guest | None], events: list[Change] | None = None
    ) -> None:
        """After the public update: each seat's new hand, if it changed, and the legal
        actions of every seat that has something to do. `events`, what changed, lets
        it look only at the seats whose hand part can have changed."""
        game = self.game
        if game.outcome is not None:
            return  # the final update's result shows every hand
        seats: set[int]
        cards: set[int]
        if events is None:
            seats, cards = set(range(len(here))), set()  # every seat looks
        else:
            seats, cards = hands.touched(events)
        sent = self.hands_sent
        send = self.fx.sends.append  # (many a time per move)
        for seat, guest in enumerate(here):
            before = sent[seat]
            if guest is None:
                sent[seat] = None
            # Its hand changed, or it holds a card whose space changed, or a jack.
            elif before is None or seat in seats or not cards.isdisjoint(game.hands[seat]):
                part = hand_part(game, seat)
                spent = hands.spent(events, seat)
                # A seat that drew the twin of the card it spent holds what it held: it
                # still learns that it drew, and what.
                if part != before or spent is not None:
                    sent[seat] = part
                    drawn = hands.drawn(before, part, spent)
                    send((guest, hand_message(self.version, part, drawn)))
        for seat in dict.fromkeys((game.turn, *game.pending_draw)):
            guest = here[seat]
            legal = None if guest is None else legal_message(self.version, game, seat)
            if guest is not None and legal is not None:
                send((guest, legal))
