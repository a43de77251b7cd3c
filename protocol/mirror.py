"""A member's copy of the game, kept from a snapshot and the updates after it. Sans-IO.

    mirror = GameMirror(snapshot)
    mirror.apply(msg)        # an update, a hand or a legal list; False: a gap, ask `sync`
    mirror.snapshot()        # what a fresh snapshot at this version would say

The server sends what changed; this module is the one place that knows how a change
changes the picture, so every client (the terminal one, `sarja-bot`, the tests) reads
the game the same way. Nothing here knows the rules: chips, counters and cards move
only as the server's changes say.
"""

from __future__ import annotations

import dataclasses

from .cards import cell_name, five_cells
from .messages import Ack, Change, Hand, Last, Legal, Snapshot, Update

_CHIP = "bgr"
SEAT_ONLY = frozenset({"away", "back"})  # changes of who is here, not of the game


class GameMirror:
    """Snapshot fields as mutable values, moved on by each message in order."""

    def __init__(self, snap: Snapshot) -> None:
        self.reset(snap)

    def reset(self, snap: Snapshot) -> None:
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
        self.drawn: str | None = None  # the card last drawn into our hand, to mark it

    def apply(self, msg: Update | Hand | Legal | Ack) -> bool:
        """Take in one message; False if it does not follow on (ask for a snapshot)."""
        if isinstance(msg, Ack):  # our own action, accepted: its update follows
            self.last_id = msg.id if self.last_id is None else max(self.last_id, msg.id)
            return True
        if isinstance(msg, Update):
            if msg.version != self.version + 1:
                return False
            self._update(msg)
            return True
        if msg.version != self.version:
            return False
        if isinstance(msg, Hand):
            self.hand, self.targets, self.dead = msg.hand, msg.targets, msg.dead
            self.drawn = msg.drawn
        else:
            self.legal, self.choices = msg.legal, msg.choices
        return True

    def _update(self, msg: Update) -> None:
        self.version = msg.version
        if any(c.kind not in SEAT_ONLY for c in msg.changes):
            self.legal, self.choices = (), ()  # a `legal` for the new version follows if any
        # A player going away or coming back changes no one's legal actions, and the
        # server sends no `legal` after it: the list in hand still holds.
        for change in msg.changes:
            self._change(change)
        self.turn, self.draw_size, self.passes = msg.turn, msg.draw_size, msg.passes
        self.exchanged, self.pending_draw = msg.exchanged, msg.pending_draw
        self.result = msg.result
        if msg.result is not None and self.seat is not None:
            # Over: no hand message follows; the result shows every hand, ours too.
            self.hand = msg.result.hands[self.seat]
            self.targets, self.dead = ((),) * len(self.hand), ()

    def _change(self, c: Change) -> None:
        kind, seat = c.kind, c.seat
        if kind == "played":
            assert seat is not None and c.cell is not None and c.card is not None
            self.board[c.cell] = _CHIP[self.players[seat].side]
            self._discarded(seat, c.card, f"{c.card}@{cell_name(c.cell)}")
        elif kind == "removed":
            assert seat is not None and c.cell is not None and c.card is not None
            self.board[c.cell] = "."
            self._discarded(seat, c.card, f"{c.card}x{cell_name(c.cell)}")
        elif kind == "exchanged":
            assert seat is not None and c.card is not None
            self._discarded(seat, c.card, f"dead:{c.card}")
        elif kind == "drew":
            assert seat is not None
            self._hand_size(seat, +1)
            self.draw_size -= 1
        elif kind == "reshuffled":
            self.draw_size = len(self.discard)
            self.discard = []
        elif kind == "passed":
            assert seat is not None
            self.last = Last(seat=seat, action="pass", _trusted=True)
        elif kind == "sequence":
            assert c.side is not None and c.fives is not None
            self.sequences[c.side].extend(c.fives)
            letter = _CHIP[c.side].upper()
            for five in c.fives:
                for cell in five_cells(five):
                    if self.board[cell] != "*":
                        self.board[cell] = letter
        elif kind in SEAT_ONLY:
            assert seat is not None
            self.players[seat] = dataclasses.replace(
                self.players[seat], away=kind == "away", _trusted=True
            )
        # no_draw, draw_forfeited, won, drawn_game: the counters and result say it all.

    def _discarded(self, seat: int, card: str, notation: str) -> None:
        self.discard.append(card)
        self._hand_size(seat, -1)
        self.last = Last(seat=seat, action=notation, _trusted=True)

    def _hand_size(self, seat: int, by: int) -> None:
        p = self.players[seat]
        self.players[seat] = dataclasses.replace(p, hand_size=p.hand_size + by, _trusted=True)

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
            _trusted=True,
        )
