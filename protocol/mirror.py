"""A member's copy of the game, kept from a snapshot and the updates after it. Sans-IO.

    mirror = GameMirror(snapshot)
    mirror.apply(msg)        # an update, a hand or a legal list; False: a gap, ask `sync`
    mirror.snapshot()        # what a fresh snapshot at this version would say

The server sends what changed; this module is the one place that knows how a change
changes the picture, so every client (the terminal one, `sarja-bot`, the tests) reads
the game the same way. Nothing here knows the rules: chips, counters and cards move
only as the server's changes say.

Nor does it trust them: a message that does not fit the table's shape (a seat or side
the table lacks, a chip taken from an empty space, cards that no longer add up to the
deck) raises `ServerProtocolError` (distrust.py) and leaves the mirror as it was. So
what it keeps stays bounded whatever the server sends: the discard pile is part of the
104 cards, each side's sequences at most MAX_FIVES.
"""

from __future__ import annotations

import dataclasses
from typing import assert_never

from . import changes as ch
from . import distrust as check
from . import notation
from .cards import cell_name, five_cells
from .changes import Change, seat_only
from .distrust import CHIPS as _CHIP
from .distrust import ServerProtocolError, refuse
from .limits import MAX_FIVES
from .messages import Ack, Hand, Last, Legal, Snapshot, Update

__all__ = ["GameMirror", "ServerProtocolError"]


class GameMirror:
    """Snapshot fields as mutable values, moved on by each message in order."""

    def __init__(self, snap: Snapshot) -> None:
        self.reset(snap)

    def reset(self, snap: Snapshot) -> None:
        """Take a snapshot as the whole picture (ServerProtocolError if it does not fit)."""
        check.snapshot_fits(snap)
        self._take(snap)

    def _take(self, snap: Snapshot) -> None:
        self.table = snap.table
        self.version = snap.version
        self.seat = snap.seat
        self.last_id = snap.last_id
        self.players = list(snap.players)
        self.sides = snap.sides
        self.needed = snap.needed
        self.rules = snap.rules
        self.first = snap.first
        self.cut = snap.cut
        self.board = list(snap.board)
        self.sequences = [list(s) for s in snap.sequences]
        self.discard = list(snap.discard)
        self.last = snap.last
        self.turn = snap.turn
        self.draw_size = snap.draw_size
        self.passes = snap.passes
        self.exchanged = snap.exchanged
        self.pending_draw = snap.pending_draw
        self.result = snap.result
        self.hand = snap.hand
        self.targets = snap.targets
        self.dead = snap.dead
        self.legal = snap.legal
        self.choices = snap.choices
        # The turn clocks as last told ([seat, ms left then]); the client counts down.
        self.clocks = snap.clocks
        self.drawn: str | None = None  # the card last drawn into our hand, to mark it

    def apply(self, msg: Update | Hand | Legal | Ack) -> bool:
        """Take in one message; False if it does not follow on (ask for a snapshot).
        ServerProtocolError if it does not fit the game; then nothing of it is taken."""
        if isinstance(msg, Ack):  # our own action, accepted: its update follows
            self.last_id = msg.id if self.last_id is None else max(self.last_id, msg.id)
            return True
        if isinstance(msg, Update):
            if msg.version != self.version + 1:
                return False
            before, drawn = self.snapshot(), self.drawn
            try:
                self._update(msg)
            except ServerProtocolError:
                self._take(before)  # all of it or nothing: the picture stays whole
                self.drawn = drawn
                raise
            return True
        if msg.version != self.version:
            return False
        if self.seat is None:
            raise refuse(f"A spectator was sent a '{msg.TYPE}' message.")
        if isinstance(msg, Hand):
            check.hand_fits(msg.hand, self.players[self.seat].held, self.discard)
            check.legal_fits(self.legal, msg.hand, msg.dead)
            self.hand, self.targets, self.dead = msg.hand, msg.targets, msg.dead
            self.drawn = msg.drawn
        else:
            check.legal_fits(msg.legal, self.hand, self.dead)
            check.copies([*self.hand, *self.discard])  # the hand is this version's now
            self.legal, self.choices = msg.legal, msg.choices
        return True

    def _update(self, msg: Update) -> None:
        self.version = msg.version
        if not all(map(seat_only, msg.changes)):
            self.legal, self.choices = (), ()  # a `legal` for the new version follows if any
        # A player going away or coming back changes no one's legal actions, and the
        # server sends no `legal` after it: the list in hand still holds.
        last = self.last
        for change in msg.changes:
            self._change(change)
        if msg.stand_in and self.last is not last and self.last is not None:
            # The computer's move for the seat's person: its last move says so.
            self.last = Last(seat=self.last.seat, action=self.last.action, stand_in=True,
                             _trusted=True)  # fmt: skip
        check.turn_fits(msg.turn, msg.pending_draw, len(self.players))
        check.held_fits(self.players, self.rules.hand_size)
        check.cards_add_up(self.players, len(self.discard), msg.draw_size)
        if msg.result is not None:
            check.result_fits(msg.result, self.players, self.sides, self.discard)
        if msg.clocks is not None:
            for s, _ in msg.clocks:
                check.seat(s, len(self.players), "A turn clock")
            self.clocks = msg.clocks
        if msg.result is not None:
            self.clocks = ()  # over: no clock runs
        self.turn, self.draw_size, self.passes = msg.turn, msg.draw_size, msg.passes
        self.exchanged, self.pending_draw = msg.exchanged, msg.pending_draw
        self.result = msg.result
        if msg.result is not None and self.seat is not None:
            # Over: no hand message follows; the result shows every hand, ours too.
            self.hand = msg.result.hands[self.seat]
            self.targets, self.dead = ((),) * len(self.hand), ()

    def _change(self, c: Change) -> None:
        what = f"A '{c.kind}' change"
        players = len(self.players)
        match c:
            case ch.Played(seat=seat, card=card, cell=cell):
                check.seat(seat, players, what)
                self._played(seat, card, cell)
            case ch.Removed(seat=seat, card=card, cell=cell, side=side):
                check.seat(seat, players, what)
                check.side(side, self.sides, what)
                self._removed(seat, card, cell, side)
            case ch.Exchanged(seat=seat, card=card):
                check.seat(seat, players, what)
                self._discarded(seat, card, notation.exchange(card))
            case ch.Drew(seat=seat):
                check.seat(seat, players, what)
                self._drew(seat)
            case ch.Reshuffled():
                self.draw_size = len(self.discard)
                self.discard = []
            case ch.Passed(seat=seat):
                check.seat(seat, players, what)
                self.last = Last(seat=seat, action="pass", _trusted=True)
            case ch.SequenceMade(seat=seat, side=side, fives=fives):
                check.seat(seat, players, what)
                check.side(side, self.sides, what)
                self._sequence(side, fives)
            case ch.Away(seat=seat) | ch.Back(seat=seat):
                check.seat(seat, players, what)
                self.players[seat] = dataclasses.replace(
                    self.players[seat], away=isinstance(c, ch.Away), _trusted=True
                )
            case ch.NoDraw(seat=seat) | ch.DrawForfeited(seat=seat):
                check.seat(seat, players, what)  # the counters say the rest
            case ch.Won(side=side):
                check.side(side, self.sides, what)  # the result says the rest
            case ch.DrawnGame():
                pass  # the result says it all
            case _:
                assert_never(c)

    def _played(self, seat: int, card: str, cell: int) -> None:
        if self.board[cell] != ".":
            raise refuse(f"A chip is played on {cell_name(cell)}, which is not open.")
        self.board[cell] = _CHIP[self.players[seat].side]
        self._discarded(seat, card, notation.place(card, cell))

    def _removed(self, seat: int, card: str, cell: int, side: int) -> None:
        if self.board[cell] != _CHIP[side]:
            raise refuse(f"A chip is removed from {cell_name(cell)}, which holds none.")
        self.board[cell] = "."
        self._discarded(seat, card, notation.remove(card, cell))

    def _drew(self, seat: int) -> None:
        if self.draw_size < 1:
            raise refuse("A card is drawn from an empty draw pile.")
        self._held(seat, +1)
        self.draw_size -= 1

    def _sequence(self, side: int, fives: tuple[tuple[int, int], ...]) -> None:
        if len(self.sequences[side]) + len(fives) > MAX_FIVES:
            raise refuse(f"Side {side} would hold more than {MAX_FIVES} sequences.")
        chip = _CHIP[side]
        for five in fives:
            if any(self.board[c].lower() not in (chip, "*") for c in five_cells(five)):
                raise refuse(f"A sequence of side {side} covers a space without its chip.")
        self.sequences[side].extend(fives)
        for five in fives:
            for cell in five_cells(five):
                if self.board[cell] != "*":
                    self.board[cell] = chip.upper()

    def _discarded(self, seat: int, card: str, action: str) -> None:
        self.discard.append(card)
        self._held(seat, -1)
        self.last = Last(seat=seat, action=action, _trusted=True)

    def _held(self, seat: int, by: int) -> None:
        p = self.players[seat]
        if p.held + by < 0:
            raise refuse(f"Seat {seat} plays a card from an empty hand.")
        self.players[seat] = dataclasses.replace(p, held=p.held + by, _trusted=True)

    def snapshot(self) -> Snapshot:
        """What a fresh snapshot at this version says, as far as this mirror knows."""
        return Snapshot(
            table=self.table,
            version=self.version,
            seat=self.seat,
            last_id=self.last_id,
            players=tuple(self.players),
            sides=self.sides,
            needed=self.needed,
            rules=self.rules,
            first=self.first,
            cut=self.cut,
            board="".join(self.board),
            sequences=tuple(tuple(s) for s in self.sequences),
            discard=tuple(self.discard),
            last=self.last,
            turn=self.turn,
            draw_size=self.draw_size,
            passes=self.passes,
            exchanged=self.exchanged,
            pending_draw=self.pending_draw,
            result=self.result,
            hand=self.hand,
            targets=self.targets,
            dead=self.dead,
            legal=self.legal,
            choices=self.choices,
            clocks=self.clocks,
            _trusted=True,
        )
