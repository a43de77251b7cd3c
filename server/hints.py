"""A player's hints (`ask_hint`): which table may have them, and the one connection's
hint under way.

The coach's move is hard's choice from the seat's own view (nothing the seat may not
see goes in), run as a computer seat's move is (`Computers.advise`: a shared search
worker, within the computer's budget, medium's choice when none is free), and its
reason is the coach's (coach.py). So hints cannot be used to burn the server's CPU:
a connection has at most one under way, an address only a few a minute (guards.py), a
hint is only for the seat on turn, each position is searched once (asking again at the
same version answers from the last hint), and every search shares the computers' few
workers, which serve first whoever they served longest ago (an address that floods
them waits behind the player who asks once a turn).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import trio

from sarja.protocol.messages import AskHint, Hint, ServerMessage

from .coach import reason
from .engine import Action, seat_view
from .engine.view import SeatView
from .guest import Guest
from .refusal import Refusal

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("sarja.server")

# (the seat's view, the asker's address: the workers serve addresses in turn) -> the move
Advise = Callable[[SeatView, str], Awaitable[Action]]


def hint_view(lobby: Lobby, guest: Guest, version: int) -> tuple[object, SeatView]:
    """(the table, the seat's view) for a hint at `version` (the table's, as the wire
    counts it: not the game's actions, after a restart); Refusal if none may be given."""
    table = lobby.seating.table_of(guest)
    if table is None or guest not in table.seats:
        raise Refusal("not_a_player", "Only a seated player can ask for a hint.")
    if not table.hints:
        raise Refusal("hints_off", "This table's creator did not allow hints.")
    game = table.game
    seat = table.seats.index(guest)
    if game is None or game.outcome is not None or table.version != version:
        raise Refusal("no_hint", "There is no move to hint at: the game has moved on.")
    view = seat_view(game, seat)
    if game.turn != seat or not view.legal:
        raise Refusal("no_hint", "A hint is for your turn; it is not your turn.")
    return table, view


class HintDesk:
    """One connection's hints: the one under way, and the last one given."""

    __slots__ = ("advise", "busy", "last")

    def __init__(self, advise: Advise | None) -> None:
        self.advise = advise
        self.busy = False
        self.last: tuple[object, Hint] | None = None  # (table, hint) of the last answer

    def ask(
        self, lobby: Lobby, guest: Guest, msg: AskHint, nursery: trio.Nursery,
        send: Callable[[ServerMessage], None],
    ) -> None:  # fmt: skip
        """Answer at once from the last hint, or start working one out; Refusal if no
        hint may be given now."""
        if self.advise is None:
            raise Refusal("hints_off", "This server gives no hints.")
        table, view = hint_view(lobby, guest, msg.version)
        if self.last is not None and self.last[0] is table and self.last[1].version == msg.version:
            send(self.last[1])
            return
        if self.busy:
            raise Refusal("hint_busy", "Your last hint is still being worked out.")
        lobby.guards.check_hint(guest.address)
        self.busy = True
        nursery.start_soon(self._work, lobby, guest, table, msg.version, view, send)

    async def _work(
        self, lobby: Lobby, guest: Guest, table: object, version: int, view: SeatView,
        send: Callable[[ServerMessage], None],
    ) -> None:  # fmt: skip
        try:
            assert self.advise is not None
            action = await self.advise(view, guest.address)
            hint = Hint(
                version=version, action=str(action), reason=reason(view, action), _trusted=True
            )
            try:
                hint_view(lobby, guest, version)  # still that position, still seated
            except Refusal:
                return  # the game moved on meanwhile: the hint is no use now
            self.last = (table, hint)
            send(hint)
        except Exception:
            log.exception("working out a hint failed")
        finally:
            self.busy = False
