"""The lobby: every guest and table on this server, and where requests go.

`handle` takes one validated message from one guest and does all its work
before returning (no awaits), so the server's state changes in whole steps.
"""

from __future__ import annotations

import logging
import random
import time
import weakref
from collections.abc import Callable

from sarja.protocol.cards import LAYOUT_CODES
from sarja.protocol.limits import MAX_TABLES, PROTOCOL_VERSION
from sarja.protocol.messages import (
    Chat,
    ChatLine,
    ClientMessage,
    CreateTable,
    Draw,
    Exchange,
    HandOver,
    Join,
    Leave,
    ListTables,
    Pass,
    Play,
    Ready,
    Rematch,
    Remove,
    Sit,
    Spectate,
    Sync,
    TableList,
    TableSummary,
    Welcome,
)

from .computers import Computer, Computers, computer_names
from .config import ServerConfig
from .engine import Arrangement, ArrangementError, EngineError, HouseRules
from .guest import Guest, Outbox, within_limit
from .journal import Journal, JournalError, SavedTable, token_hash
from .present import table_shapes
from .refusal import Refusal
from .table import Table

log = logging.getLogger("sarja.server")


class Lobby:
    def __init__(
        self,
        config: ServerConfig,
        rng: random.Random,
        server_id: str,
        journal: Journal,
        on_game_over: Callable[[Table], None] = lambda table: None,
        push_soon: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.clock = clock  # the tables' graces are counted on it
        self.rng = rng
        self.server_id = server_id
        self.journal = journal
        self.stopping = False
        self._shapes = table_shapes()
        self.tables: dict[str, Table] = {}
        self.guests: dict[str, Guest] = {}  # by the hash of their resume token
        self._table_numbers = 0
        self._on_game_over = on_game_over
        self._push_soon = push_soon
        # The computer players; `computers.run` must run in the server's nursery.
        self.computers = Computers(
            config.takeover_delay, config.computer_budget, config.think_time, config.seed,
            workers=config.search_workers, processes=config.search_processes,
        )  # fmt: skip
        # The address each table where computers play was made from (bounded per address).
        self._made_from: weakref.WeakKeyDictionary[Table, str] = weakref.WeakKeyDictionary()
        self._list: TableList | None = None  # the table list, while it holds
        self._list_frame: bytes | None = None  # ... and packed
        self._pushed: tuple[TableSummary, ...] = ()  # the list the lobby was last sent
        # (table id, guest id or address) -> when the sweep freed that seat squatter.
        self._freed: dict[tuple[str, str], float] = {}

    def restore(self, saved: list[SavedTable]) -> None:
        """Bring back the tables the journal kept, their players away until they resume."""
        # Guests already here (a table parked while its players sat elsewhere too).
        guests: dict[str, Guest] = {g.id: g for g in self.guests.values()}
        for kept in saved:
            for held in kept.seats:
                if held is not None and held[0] not in guests:
                    guest_id, name, keys = held
                    guest = guests[guest_id] = Guest(name, guest_id, keys)
                    self._file(guest)
        # Spectators watch again when they resume, unless they are here already (and
        # have moved on since).
        watchers: dict[str, list[Guest]] = {}
        for kept in saved:
            for guest_id, name, keys in kept.spectators:
                if guest_id not in guests:
                    guest = guests[guest_id] = Guest(name, guest_id, keys)
                    self._file(guest)
                    watchers.setdefault(kept.id, []).append(guest)
        for kept in saved:
            try:
                computers = [None if c is None else Computer(*c) for c in kept.computers]
                table = self._new_table(
                    kept.id, kept.name, kept.arrangement(), kept.takeover, computers,
                    journal=False,
                )  # fmt: skip
                table.restore(kept, guests, watchers.get(kept.id, []))
            except EngineError as err:
                raise JournalError(
                    f"table {kept.id} in the journal {self.journal.path} does not replay:"
                    f" {err.message}"
                ) from None
            self._table_numbers = max(self._table_numbers, kept.number)
        if saved:
            log.info("brought back %d tables from the journal", len(saved))

    def _new_table(
        self, table_id: str, name: str, arrangement: Arrangement, takeover: str | None,
        computers: list[Computer | None], journal: bool = True,
    ) -> Table:  # fmt: skip
        table = Table(
            table_id, name, arrangement, takeover, self.rng, self.journal,
            self._game_over, self.computers.wake, computers, self.config.hand_over_after,
            self.config.draw_grace, self.clock,
        )  # fmt: skip
        self.tables[table_id] = table
        if journal:
            self.journal.table_opened(
                table_id, self._table_numbers, name, arrangement.players, arrangement.sides,
                arrangement.hand_size, arrangement.manual_draw, takeover,
            )  # fmt: skip
            for seat, computer in enumerate(computers):
                if computer is not None:
                    self.journal.seat(table_id, seat, None, computer.level, computer.name)
        return table

    # ----- connections ----------------------------------------------------

    def hello(
        self, name: str, resume: str | None, outbox: Outbox, address: str = "",
        computer: str | None = None,
    ) -> Guest:  # fmt: skip
        """Greet a connection from `address`: a new guest, or one coming back with its
        token; `computer`, the level of a computer player that says it plays here."""
        if resume is not None:
            guest = self._take_back(resume, outbox)
            guest.name = name
        else:
            guest = Guest(name)
            self._file(guest)
            guest.outbox = outbox
        guest.address = address
        guest.computer = computer
        self._welcome(guest)
        return guest

    def resume(self, current: Guest, token: str, outbox: Outbox) -> Guest:
        """A greeted connection takes back the guest its token names (and its seat);
        the guest it was until now is forgotten, unless it holds a seat."""
        guest = self._take_back(token, outbox)
        if guest is not current:
            current.outbox = None
            if not self._holds_seat(current):
                self._forget(current)
        self._welcome(guest)
        return guest

    def _take_back(self, token: str, outbox: Outbox) -> Guest:
        key = token_hash(token)
        guest = self.guests.get(key) or self._unpark(key)
        if guest is None:
            raise Refusal(
                "unknown_resume",
                "That resume token is not known here; say hello without one to join afresh.",
            )
        if guest.outbox is not None and guest.outbox is not outbox:
            guest.outbox.close("replaced", "You connected again from somewhere else.")
        # Each use brings a new token (in the welcome); the used one stays good until
        # the new one is used, in case the welcome is lost.
        self._forget(guest)
        guest.new_token(used=token)
        self._file(guest)
        guest.outbox = outbox
        if self._holds_seat(guest) or guest.table is not None:  # a seat, or watching
            self.journal.guest(guest.id, guest.name, guest.keys)
        return guest

    def _welcome(self, guest: Guest) -> None:
        table = guest.table
        if table is not None and self.tables.get(table.id) is not table:
            table = guest.table = None  # a spectator's table closed while they were gone
        guest.send(
            Welcome(
                version=PROTOCOL_VERSION,
                session=guest.session,
                resume=guest.token,
                server_id=self.server_id,
                layout=LAYOUT_CODES,
                server=self.config.server_name,
                shapes=self._shapes,
                last_id=None if table is None else table.last_id(guest.seat),
                _trusted=True,
            )
        )
        if table is not None:
            table.welcome_back(guest)

    def disconnected(self, guest: Guest, outbox: Outbox) -> None:
        if guest.outbox is not outbox or self.stopping:
            return  # replaced by a newer connection, or the server is stopping
        guest.outbox = None
        table = guest.table
        if table is not None:
            table.went_away(guest)
            self._drop_if_empty(table)
            self._tell_the_lobby()
        if not self._holds_seat(guest):
            # Nothing to come back to: forget the guest and its token.
            self._forget(guest)

    # ----- requests -------------------------------------------------------

    def handle(self, guest: Guest, msg: ClientMessage) -> None:
        """Carry out one request; Refusal or an engine error for what can't be done."""
        match msg:
            case ListTables():
                self._send_list(guest)
                return
            case CreateTable():
                self._create_table(guest, msg)
            case Join():
                self._not_too_fast(guest)
                table = self._table(msg.table)
                if guest not in table.seats:
                    self._check_no_other_seat(guest)
                    self._check_not_freed(guest, table)
                table.join(guest, msg.seat, msg.side)
            case Spectate():
                self._not_too_fast(guest)
                self._table(msg.table).spectate(guest)
            case Sit():
                table = self._at_table(guest)
                if guest not in table.seats:
                    self._check_not_freed(guest, table)
                table.sit(guest, msg.seat)
            case Ready():
                self._at_table(guest).set_ready(guest, msg.ready)
            case Leave():
                self._not_too_fast(guest)
                table = self._at_table(guest)
                table.leave(guest)
                self._drop_if_empty(table)
                self._send_list(guest)
            case Rematch():
                self._at_table(guest).ask_rematch(guest)
            case HandOver():
                self._at_table(guest).hand_over(guest, msg.seat)
            case Sync():
                self._at_table(guest).sync(guest)
                return
            case Chat():
                self._chat(guest, msg)
                return
            case Play() | Remove() | Exchange() | Draw() | Pass():
                self._at_table(guest).act(guest, msg)
                return
            case _:  # hello, resume, ping and pong are the connection's business
                raise AssertionError(f"the lobby does not handle {msg.TYPE}")
        self._tell_the_lobby()  # every request above may change the table list

    def _create_table(self, guest: Guest, msg: CreateTable) -> None:
        if len(self.tables) >= self.config.max_tables:
            # Full: tables no one is at make room at once, without waiting for the
            # sweep, so games made to be abandoned cannot lock new tables out.
            for table in [t for t in self.tables.values() if t.left_by_all or t.abandoned]:
                self._park(table)
        if len(self.tables) >= self.config.max_tables:
            raise Refusal("too_many_tables", "The server has as many tables as it allows.")
        self._check_no_other_seat(guest)
        try:
            arrangement = Arrangement.of(
                msg.players, msg.teams, HouseRules(msg.hand_size, msg.manual_draw)
            )
        except ArrangementError as err:
            raise Refusal(err.code, err.message) from None
        levels = [*msg.computers, *[None] * (arrangement.players - len(msg.computers))]
        computers_play = any(levels) or bool(msg.computer_takeover)
        if computers_play:
            self._check_computer_tables(guest.address)
        names = computer_names(levels, {guest.name})
        computers = [
            None if level is None or name is None else Computer(level, name)
            for level, name in zip(levels, names, strict=True)
        ]
        self._table_numbers += 1
        table_id = f"t{self._table_numbers}"
        table = self._new_table(
            table_id, msg.name, arrangement, msg.computer_takeover or None, computers
        )
        if computers_play:
            self._made_from[table] = guest.address
        table.join(guest, None, None)
        log.info("table %s (%r) created by %r", table_id, msg.name, guest.name)

    def _check_computer_tables(self, address: str) -> None:
        """Computers play on with no one there: one address may keep only a few such
        tables open (parked, closed and finished ones do not count), so no guest can
        fill the server with them."""
        most = self.config.computer_tables_per_address
        open_here = sum(
            1
            for t in self.tables.values()
            if self._made_from.get(t) == address and not (t.started and not t.in_play)
        )
        if open_here >= most:
            raise Refusal(
                "too_many_computer_tables",
                f"Guests from your address already have {most} open tables where computers"
                " play; one frees when its game ends.",
            )

    def _not_too_fast(self, guest: Guest) -> None:
        """Joining, watching and leaving, a few times in a while: each one tells a
        table's players, and churn must not flood them."""
        if not within_limit(guest.move_times, self.config.move_burst, self.config.move_window):
            raise Refusal("too_fast", "Slow down: a few joins and leaves every half minute.")

    def sweep(self, now: float) -> None:
        """Run now and then (the server's sweeper): free the seats of guests who hold
        up a full waiting table by never being ready, and park games every player has
        left for a while, so they never hold a place new tables need."""
        changed = False
        patience = self.config.ready_timeout
        self._freed = {k: t for k, t in self._freed.items() if now - t < patience}
        for table in list(self.tables.values()):
            for guest in table.squatters(now, patience):
                for who in (guest.id, guest.address):
                    if who:
                        self._freed[table.id, who] = now
                table.leave(guest)
                self._send_list(guest)
                changed = True
            if table.deserted(now, self.config.abandon_after) or table.abandoned:
                # A game everyone has left for a while, or a finished one (or a waiting
                # room after a restart) that no one is at: out of the count.
                self._park(table)
                changed = True
        if changed:
            self._tell_the_lobby()

    def _park(self, table: Table) -> None:
        """Out of memory, kept in the journal: a player who resumes brings it back.
        The table object is dead from now on (its computer stops), so a copy brought
        back later is the only one that plays."""
        del self.tables[table.id]
        self._retire(table)
        self.journal.table_parked(table.id, self.config.max_parked)
        for spectator in table.spectators:
            spectator.table = None
            self.journal.spectator(table.id, spectator.id, False)
            self._send_list(spectator)
        for guest in {id(g): g for g in table.seats if g is not None}.values():
            if guest.table is table:
                guest.table = guest.seat = None
            if not guest.connected and not self._holds_seat(guest):
                self._forget(guest)
        log.info("table %s parked: every player has been gone a while", table.id)

    def _unpark(self, key: str) -> Guest | None:
        """The guest a token names, from a table parked in the journal, if any."""
        table_id = self.journal.table_of(key)
        if table_id is None or table_id in self.tables:
            return None
        saved = self.journal.table(table_id)
        if saved is None:
            return None
        self.restore([saved])
        self.journal.table_reopened(table_id)
        log.info("table %s back from the journal", table_id)
        return self.guests.get(key)

    def _chat(self, guest: Guest, msg: Chat) -> None:
        table = self._at_table(guest)
        if not within_limit(guest.chat_times, self.config.chat_burst, self.config.chat_window):
            raise Refusal("chat_too_fast", "Slow down: a few chat lines every few seconds.")
        line = ChatLine(sender=guest.name, seat=guest.seat, text=msg.text, _trusted=True)
        for member in table.members():
            member.send(line)

    # ----- helpers ----------------------------------------------------------

    def _retire(self, table: Table) -> None:
        """`table` has left the lobby (parked or closed): it never plays again."""
        table.live = False
        self.computers.stop(table)

    def _game_over(self, table: Table) -> None:
        if self.tables.get(table.id) is table and table.abandoned:
            # Finished with no one here (the computer finished it for absent people):
            # kept for them in the journal, not in the count of tables.
            self._park(table)
            self._tell_the_lobby()
        self._on_game_over(table)

    def table_list(self) -> TableList:
        """The lobby's list, built once per change of it."""
        if self._list is None:
            # Tables with a free seat first, then games to watch.
            ordered = sorted(self.tables.values(), key=lambda t: t.started or t.full)
            tables = tuple(t.summary() for t in ordered[:MAX_TABLES])
            self._list = TableList(tables=tables, _trusted=True)
        return self._list

    def _send_list(self, guest: Guest) -> None:
        """The table list to one guest, packed once however many ask for it."""
        outbox = guest.outbox
        if outbox is not None:
            msg = self.table_list()
            if self._list_frame is None:
                self._list_frame = outbox.encode(msg)
            outbox.send_encoded(msg, self._list_frame)

    def _tell_the_lobby(self) -> None:
        """The table list changed. Everyone in the lobby gets the newest one soon: the
        server pushes it at most every `table_list_every` seconds, so a storm of
        changes costs one list, not one per change and per guest."""
        self._list = self._list_frame = None
        self._push_soon()

    def push_table_list(self) -> None:
        """Send the newest table list to everyone in the lobby (not at a table), if it
        says anything new: most changes at a table (who is ready) do not show in it."""
        tables = self.table_list().tables
        if tables == self._pushed:
            return
        self._pushed = tables
        for guest in {id(g): g for g in self.guests.values()}.values():
            if guest.table is None and guest.connected:
                self._send_list(guest)

    def _file(self, guest: Guest) -> None:
        for key in guest.keys:
            self.guests[key] = guest

    def _forget(self, guest: Guest) -> None:
        for key in guest.keys:
            if self.guests.get(key) is guest:
                del self.guests[key]

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

    def _check_not_freed(self, guest: Guest, table: Table) -> None:
        """A seat squatter the sweep freed cannot sit down again at once, from the
        same connection or another at the same address: the seat goes to someone
        who will play."""
        now, patience = self.clock(), self.config.ready_timeout
        for who in (guest.id, guest.address):
            freed = self._freed.get((table.id, who)) if who else None
            if freed is not None and now - freed < patience:
                wait = int(patience - (now - freed)) + 1
                raise Refusal(
                    "not_ready_in_time",
                    f"You were taken off this table for not getting ready; you can sit"
                    f" there again in {wait} s.",
                )

    def _drop_if_empty(self, table: Table) -> None:
        """Forget a table no one is at, and a finished one whose only remaining
        players are gone (they would hold their seats for ever)."""
        if self.tables.get(table.id) is not table:
            return
        if table.empty or table.abandoned:
            del self.tables[table.id]
            self._retire(table)
            log.info("table %s closed", table.id)
            self.journal.table_closed(table.id)
            for guest in table.seats:
                if guest is not None and guest.table is table:
                    guest.table = guest.seat = None
                if guest is not None and not guest.connected and not self._holds_seat(guest):
                    self._forget(guest)

    def shutdown(self, message: str) -> None:
        """Say goodbye to everyone. Their connections end as the server's does: no one
        leaves a table or a game, and the journal keeps every seat for the next start."""
        self.stopping = True
        for guest in list(self.guests.values()):
            if guest.outbox is not None:
                guest.outbox.close("shutdown", message)
