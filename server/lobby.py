"""The lobby: every guest and table on this server, and where requests go.

`handle` takes one validated message from one guest and does all its work
before returning (no awaits), so the server's state changes in whole steps.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from sarja.protocol.messages import ChatFrom, Tables, Welcome

from .config import ServerConfig
from .engine import Arrangement, ArrangementError, HouseRules
from .engine.board import LAYOUT_CODES
from .guest import Guest, Outbox
from .refusal import Refusal
from .table import Table

log = logging.getLogger("sarja.server")

MAX_LISTED_TABLES = 100
# Requests after which the lobby's table list may read differently.
_CHANGES_TABLE_LIST = frozenset(
    {"create_table", "join", "spectate", "sit", "ready", "leave", "rematch"}
)  # the most a `tables` message carries: open tables first


class Lobby:
    def __init__(
        self,
        config: ServerConfig,
        rng: random.Random,
        on_game_over: Callable[[Table], None] = lambda table: None,
        schedule_autoplay: Callable[[Table], None] = lambda table: None,
    ) -> None:
        self.config = config
        self.rng = rng
        self.tables: dict[str, Table] = {}
        self.guests: dict[str, Guest] = {}  # by resume token
        self._table_numbers = 0
        self._on_game_over = on_game_over
        self._schedule_autoplay = schedule_autoplay

    # ----- connections ----------------------------------------------------

    def hello(self, name: str, resume: str | None, outbox: Outbox) -> Guest:
        """Greet a connection: a new guest, or one coming back with its token."""
        if resume is not None:
            guest = self.guests.get(resume)
            if guest is None:
                raise Refusal(
                    "unknown_resume",
                    "That resume token is not known here; say hello without one to join afresh.",
                )
            if guest.outbox is not None:
                guest.outbox.close("replaced", "You connected again from somewhere else.")
            guest.name = name
        else:
            guest = Guest(name)
            self.guests[guest.token] = guest
        guest.outbox = outbox
        guest.send(
            Welcome(
                version=1,
                session=guest.session,
                resume=guest.token,
                layout=LAYOUT_CODES,
                server=self.config.server_name,
            )
        )
        table = guest.table
        if table is not None:
            table.welcome_back(guest)
        return guest

    def disconnected(self, guest: Guest, outbox: Outbox) -> None:
        if guest.outbox is not outbox:
            return  # already replaced by a newer connection
        guest.outbox = None
        table = guest.table
        if table is not None:
            table.went_away(guest)
            self._drop_if_empty(table)
            self._tell_the_lobby()
        if not self._holds_seat(guest):
            # Nothing to come back to: forget the guest and its token.
            self.guests.pop(guest.token, None)

    # ----- requests -------------------------------------------------------

    def handle(self, guest: Guest, msg: Any) -> None:
        """Carry out one request; Refusal or an engine error for what can't be done."""
        handler = getattr(self, "_on_" + msg.TYPE, None)
        if handler is None:
            raise AssertionError(f"no handler for {msg.TYPE}")
        handler(guest, msg)
        if msg.TYPE in _CHANGES_TABLE_LIST:
            self._tell_the_lobby(but=guest)

    def _on_list_tables(self, guest: Guest, msg: Any) -> None:
        guest.send(self.tables_message())

    def _on_create_table(self, guest: Guest, msg: Any) -> None:
        if len(self.tables) >= self.config.max_tables:
            raise Refusal("too_many_tables", "The server has as many tables as it allows.")
        self._check_no_other_seat(guest)
        try:
            arrangement = Arrangement.of(
                msg.players, msg.teams, HouseRules(msg.hand_size, msg.manual_draw)
            )
        except ArrangementError as err:
            raise Refusal(err.code, err.message) from None
        self._table_numbers += 1
        table_id = f"t{self._table_numbers}"
        table = Table(
            table_id,
            msg.name,
            arrangement,
            msg.computer_takeover,
            self.rng,
            self._on_game_over,
            self.config.answers_kept,
            self._schedule_autoplay,
        )
        self.tables[table_id] = table
        table.join(guest, None, None)
        log.info("table %s (%s) created by %s", table_id, msg.name, guest.name)

    def _on_join(self, guest: Guest, msg: Any) -> None:
        table = self._table(msg.table)
        if guest not in table.seats:
            self._check_no_other_seat(guest)
        table.join(guest, msg.seat, msg.side)

    def _on_spectate(self, guest: Guest, msg: Any) -> None:
        self._table(msg.table).spectate(guest)

    def _on_sit(self, guest: Guest, msg: Any) -> None:
        self._at_table(guest).sit(guest, msg.seat)

    def _on_ready(self, guest: Guest, msg: Any) -> None:
        self._at_table(guest).set_ready(guest, msg.ready)

    def _on_leave(self, guest: Guest, msg: Any) -> None:
        table = self._at_table(guest)
        table.leave(guest)
        self._drop_if_empty(table)
        guest.send(self.tables_message())

    def _on_rematch(self, guest: Guest, msg: Any) -> None:
        self._at_table(guest).ask_rematch(guest)

    def _on_chat(self, guest: Guest, msg: Any) -> None:
        table = self._at_table(guest)
        now = time.monotonic()
        times = guest.chat_times
        while times and now - times[0] > self.config.chat_window:
            times.popleft()
        if len(times) >= self.config.chat_burst:
            raise Refusal("chat_too_fast", "Slow down: a few chat lines every few seconds.")
        times.append(now)
        line = ChatFrom(sender=guest.name, seat=guest.seat, text=msg.text)
        for member in table.members():
            member.send(line)

    def _on_play(self, guest: Guest, msg: Any) -> None:
        self._at_table(guest).act(guest, msg)

    _on_remove = _on_exchange = _on_draw = _on_pass = _on_play

    # ----- helpers ----------------------------------------------------------

    def tables_message(self) -> Tables:
        # Tables with a free seat first, then games to watch.
        ordered = sorted(self.tables.values(), key=lambda t: t.started or all(t.seats))
        return Tables(tables=tuple(t.info() for t in ordered[:MAX_LISTED_TABLES]))

    def _tell_the_lobby(self, but: Guest | None = None) -> None:
        """Push the table list to everyone in the lobby (not at a table), so new
        tables and free seats show at once. Built once, only if someone is there."""
        message = None
        for guest in self.guests.values():
            if guest.table is None and guest.connected and guest is not but:
                message = message or self.tables_message()
                guest.send(message)

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise Refusal("no_such_table", f"There is no table {table_id!r}.")
        return table

    def _at_table(self, guest: Guest) -> Table:
        if guest.table is None:
            raise Refusal("no_such_table", "You are not at a table.")
        return guest.table

    def _holds_seat(self, guest: Guest) -> bool:
        return any(guest in t.seats for t in self.tables.values())

    def _check_no_other_seat(self, guest: Guest) -> None:
        for table in self.tables.values():
            if guest in table.seats and table.in_play:
                raise Refusal(
                    "seat_held",
                    f"You have a seat in the game at table {table.name!r}; join it to go on.",
                )

    def _drop_if_empty(self, table: Table) -> None:
        """Forget a table no one is at, and a finished one whose only remaining
        players are gone (they would hold their seats for ever)."""
        if self.tables.get(table.id) is not table:
            return
        if table.empty or table.abandoned:
            del self.tables[table.id]
            for guest in table.seats:
                if guest is not None and guest.table is table:
                    guest.table = guest.seat = None
                if guest is not None and not guest.connected and not self._holds_seat(guest):
                    self.guests.pop(guest.token, None)

    def shutdown(self, message: str) -> None:
        for guest in list(self.guests.values()):
            if guest.outbox is not None:
                guest.outbox.close("shutdown", message)
