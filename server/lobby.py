"""The lobby: every guest and table on this server, and where requests go.

`handle` takes one validated message from one guest and does all its work before
returning (no awaits), so the server's state changes in whole steps. Like its tables,
the lobby does no I/O of its own but reading the journal (to bring a parked table
back): what a step writes and sends is left in `fx` (effects.py), and the trio side
takes it and carries it out (app.py). Where each guest is, and who may sit where, is
`seating` (seating.py).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, assert_never

from sarja.protocol.cards import LAYOUT_CODES
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import (
    AskHistory,
    AskStandings,
    Chat,
    ChatLine,
    ClientMessage,
    CreateTable,
    Draw,
    Exchange,
    Forget,
    HandOver,
    Join,
    Leave,
    ListTables,
    Pass,
    Play,
    Ready,
    Rematch,
    Remove,
    SeatComputer,
    Sit,
    Spectate,
    Sync,
    TableList,
    Welcome,
)

from . import journal_rows as rows
from . import people
from .config import ServerConfig
from .effects import Effects
from .engine import Arrangement, ArrangementError, EngineError, HouseRules
from .guards import Guards
from .guest import Guest, Outbox, within_limit
from .journal_error import JournalError, does_not_replay
from .journal_rows import token_hash
from .journal_saved import SavedTable
from .listing import Listing
from .match import Match
from .present import table_shapes
from .quotas import Quotas
from .refusal import Refusal
from .seating import Seating
from .standings_read import StandingsBook
from .table import Table
from .turns import Computer, computer_names

if TYPE_CHECKING:  # the journal runs on trio; the lobby only calls it
    from .journal import Journal

log = logging.getLogger("sarja.server")


class Lobby:
    def __init__(
        self,
        config: ServerConfig,
        rng: random.Random,
        server_id: str,
        journal: Journal,
        clock: Callable[[], float] = time.monotonic,
        standings: StandingsBook | None = None,
    ) -> None:
        self.config = config
        self.clock = clock  # the tables' graces are counted on it
        self.rng = rng
        self.server_id = server_id
        self.journal = journal  # read here; written through `fx`
        self.fx = Effects()  # what the steps so far ask of the world (see the docstring)
        self.stopping = False
        self._shapes = table_shapes()
        self.seating: Seating[Table] = Seating()
        self.tables = self.seating.tables  # the open tables, by id
        self.guests: dict[str, Guest] = {}  # by the hash of their resume token
        self._table_numbers = 0
        self.guards = Guards(
            config.computer_tables_per_address, config.ready_timeout, config.hint_burst,
            config.hint_window,
        )  # fmt: skip
        self.listing = Listing(self.tables, self.fx)
        # The standings as kept (standings_read.py); a lobby on its own keeps none yet.
        self.standings = StandingsBook() if standings is None else standings
        self.quotas = Quotas()  # per address, for the requests that cost the most

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
                    journal=False, turn_clock=kept.turn_clock,
                )  # fmt: skip
                table.hints = kept.hints
                table.restore(kept, guests, watchers.get(kept.id, []), self.clock())
            except EngineError as err:
                why = does_not_replay(kept.id, self.journal.path, err.message)
                raise JournalError(why) from None
            self._table_numbers = max(self._table_numbers, kept.number)
        if saved:
            log.info("brought back %d tables from the journal", len(saved))

    def _new_table(
        self, table_id: str, name: str, arrangement: Arrangement, takeover: str | None,
        computers: list[Computer | None], journal: bool = True, turn_clock: int = 0,
    ) -> Table:  # fmt: skip
        table = Table(
            table_id, name, arrangement, takeover, self.rng, self.seating, self.fx,
            self._game_over, computers, self.config.hand_over_after, self.config.draw_grace,
            turn_clock, self._may_start,
        )  # fmt: skip
        table.people_on_server = self._names_in_use
        self.tables[table_id] = table
        if journal:
            self.fx.write(
                rows.table_opened(
                    table_id, self._table_numbers, name, arrangement.players,
                    arrangement.sides, arrangement.hand_size, arrangement.manual_draw, takeover,
                    turn_clock,
                )
            )  # fmt: skip
            for seat, computer in enumerate(computers):
                if computer is not None:
                    level, who = computer.level, computer.name
                    self.fx.write(rows.seat(table_id, seat, None, level, who))
        return table

    # ----- connections ----------------------------------------------------

    def hello(
        self, name: str, resume: str | None, outbox: Outbox, address: str = "",
        computer: str | None = None, person: str | None = None,
    ) -> Guest:  # fmt: skip
        """Greet a connection from `address`: a new guest, or one coming back with its
        token; `computer`, the level of a computer player that says it plays here;
        `person`, the secret key that says who this is (only its hash is kept)."""
        if resume is not None:
            guest = self._take_back(resume, outbox, address)
            guest.name = name
        else:
            guest = Guest(name)
            self._file(guest)
            guest.outbox = outbox
        guest.address = address
        guest.computer = computer
        # The name is this person's on the server now, the lobby's list says so too.
        if any([table.computer_yields(guest.name) for table in self.tables.values()]):
            self.listing.changed()
        if person is not None and guest.person != (known := token_hash(person)):
            guest.person = known
            if resume is not None and (self._holds_seat(guest) or guest.table is not None):
                self.fx.write(rows.guest(guest.id, guest.name, guest.keys, guest.person))
        self._welcome(guest)
        return guest

    def resume(self, current: Guest, token: str, outbox: Outbox) -> Guest:
        """A greeted connection takes back the guest its token names (and its seat);
        the guest it was until now is forgotten, unless it holds a seat."""
        guest = self._take_back(token, outbox, current.address)
        # What the connection said in its hello is this connection's, the guest's now:
        # where it comes from, whether a computer plays and who the person is (after a
        # restart the guest comes from the journal, which keeps none of them in memory:
        # a bot's seat read as a person's, and the standings knew no "you").
        guest.address, guest.computer = current.address, current.computer
        if current.person is not None and guest.person != current.person:
            guest.person = current.person
            self.fx.write(rows.guest(guest.id, guest.name, guest.keys, guest.person))
        if guest is not current:
            current.outbox = None
            if not self._holds_seat(current):
                self._forget(current)
        self._welcome(guest)
        return guest

    def _take_back(self, token: str, outbox: Outbox, address: str) -> Guest:
        key = token_hash(token)
        guest = self.guests.get(key) or self._unpark(key, address)
        if guest is None:
            raise Refusal(
                "unknown_resume",
                "That resume token is not known here; say hello without one to join afresh.",
            )
        if guest.outbox is not None and guest.outbox is not outbox:
            self.fx.closes.append(
                (guest.outbox, "replaced", "You connected again from somewhere else.")
            )
        # Each use brings a new token (in the welcome); the used one stays good until
        # the new one is used, in case the welcome is lost.
        self._forget(guest)
        guest.new_token(used=token)
        self._file(guest)
        guest.outbox = outbox
        if self._holds_seat(guest) or guest.table is not None:  # a seat, or watching
            self.fx.write(rows.guest(guest.id, guest.name, guest.keys, guest.person))
        return guest

    def _welcome(self, guest: Guest) -> None:
        table = self.seating.table_of(guest)
        if table is None:
            self.seating.place(guest, None)  # a spectator's table closed while they were gone
        self.fx.send(
            guest,
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
            ),
        )
        if table is not None:
            table.welcome_back(guest, self.clock())

    def disconnected(self, guest: Guest, outbox: Outbox) -> None:
        if guest.outbox is not outbox or self.stopping:
            return  # replaced by a newer connection, or the server is stopping
        guest.outbox = None
        table = self.seating.table_of(guest)
        if table is not None:
            table.went_away(guest, self.clock())
            self._drop_if_empty(table)
            self.listing.changed()
        if not self._holds_seat(guest):
            # Nothing to come back to: forget the guest and its token.
            self._forget(guest)

    # ----- requests -------------------------------------------------------

    def handle(self, guest: Guest, msg: ClientMessage) -> None:
        """Carry out one request; Refusal or an engine error for what can't be done."""
        now = self.clock()
        match msg:
            case ListTables():
                self.listing.send(guest)
                return
            case Chat():
                self._chat(guest, msg)
                return
            case Sync():
                self._at_table(guest).sync(guest, now)
                return
            case AskHistory():
                self._at_table(guest).send_history(guest, msg.after)
                return
            case AskStandings():
                self.fx.send(guest, people.ask(self.standings, self.quotas, guest))
                return
            case Forget():
                self._forget_person(guest)
                return
            case Play() | Remove() | Exchange() | Draw() | Pass():
                self._at_table(guest).act(guest, msg, now)
                return
            case CreateTable():
                self._create_table(guest, msg, now)
            case Join() | Spectate() | Leave():
                self._come_or_go(guest, msg, now)
            case Sit() | Ready() | Rematch() | HandOver() | SeatComputer():
                self._seat_request(guest, msg, now)
            case _:  # hello, resume, ping and pong are the connection's business
                raise AssertionError(f"the lobby does not handle {msg.TYPE}")
        self.listing.changed()  # every request above may change the table list

    def _come_or_go(self, guest: Guest, msg: Join | Spectate | Leave, now: float) -> None:
        """Joining, watching or leaving a table: a few times in a while (each one tells
        a table's players, and churn must not flood them)."""
        if not within_limit(guest.move_times, self.config.move_burst, self.config.move_window):
            raise Refusal("too_fast", "Slow down: a few joins and leaves every half minute.")
        match msg:
            case Join():
                table = self._table(msg.table)
                if guest not in table.seats:
                    self.seating.check_no_other_seat(guest)
                    self.guards.check_not_freed(guest, table, now)
                table.join(guest, msg.seat, msg.side, now)
            case Spectate():
                self._table(msg.table).spectate(guest, now)
            case Leave():
                table = self._at_table(guest)
                table.leave(guest, now)
                self._drop_if_empty(table)
                self.listing.send(guest)
            case _:
                assert_never(msg)

    def _seat_request(
        self, guest: Guest, msg: Sit | Ready | Rematch | HandOver | SeatComputer, now: float
    ) -> None:
        table = self._at_table(guest)
        match msg:
            case Sit():
                if guest not in table.seats:
                    self.guards.check_not_freed(guest, table, now)
                table.sit(guest, msg.seat, now)
            case Ready():
                with self.quotas.counted(guest, "toggle"):
                    table.set_ready(guest, msg.ready, now)
            case Rematch():
                table.ask_rematch(guest, now)
            case HandOver():
                table.hand_over(guest, msg.seat, now)
            case SeatComputer():
                with self.quotas.counted(guest, "toggle"):
                    self._seat_computer(table, guest, msg, now)
            case _:
                assert_never(msg)

    def _forget_person(self, guest: Guest) -> None:
        """`forget`: nor do the tables the person made keep the key's hash, in memory."""
        person = guest.person
        people.forget(self.standings, self.quotas, self.fx, guest, set(self.guests.values()))
        for table in self.tables.values():
            creator = table.creator  # a guest the lobby has forgotten since, it may be
            if table.creator_person == person:
                table.creator_person = None
            if creator is not None and creator.person == person:
                creator.person = None

    def _seat_computer(self, table: Table, guest: Guest, msg: SeatComputer, now: float) -> None:
        """A computer seated where the computer had nothing to do: the table counts
        among its creator's address's tables with computers (guards.py), as if made
        with one; the last one taken away, leaving it nothing: it no longer does (a
        level changed in place is neither)."""
        plays = table.computers_may_play
        if msg.level is not None and not plays and table.made_by(guest):
            self.guards.check_computer_tables(self.tables.values(), guest.address)
        table.seat_computer(guest, msg.seat, msg.level, now)
        if not plays and table.computers_may_play:
            self.guards.made(table, guest.address)
        elif plays and not table.computers_may_play:
            self.guards.unmade(table)

    def _may_start(self, table: Table) -> None:
        """A game is about to start at `table`: within its address's bound (guards.py)."""
        self.guards.check_start(self.tables.values(), table)

    def _create_table(self, guest: Guest, msg: CreateTable, now: float) -> None:
        if len(self.tables) >= self.config.max_tables:
            # Full: tables no one is at make room at once, without waiting for the
            # sweep, so games made to be abandoned cannot lock new tables out.
            for table in [t for t in self.tables.values() if t.left_by_all or t.abandoned]:
                self._park(table)
        if len(self.tables) >= self.config.max_tables:
            raise Refusal("too_many_tables", "The server has as many tables as it allows.")
        self.seating.check_no_other_seat(guest)
        try:
            arrangement = Arrangement.of(
                msg.players, msg.teams, HouseRules(msg.hand_size, msg.manual_draw)
            )
        except ArrangementError as err:
            raise Refusal(err.code, err.message) from None
        levels = [*msg.computers, *[None] * (arrangement.players - len(msg.computers))]
        # As `Table.computers_may_play` will say: a clock's run-outs and hints are the
        # computer's work too.
        computers_play = (
            any(levels) or bool(msg.computer_takeover) or msg.turn_clock > 0 or msg.hints
        )
        if computers_play:
            self.guards.check_computer_tables(self.tables.values(), guest.address)
        names = computer_names(levels, {guest.name, *self._names_in_use()})
        computers = [
            None if level is None or name is None else Computer(level, name)
            for level, name in zip(levels, names, strict=True)
        ]
        self._table_numbers += 1
        table_id = f"t{self._table_numbers}"
        table = self._new_table(
            table_id, msg.name, arrangement, msg.computer_takeover or None, computers,
            turn_clock=msg.turn_clock,
        )  # fmt: skip
        if msg.hints:
            table.hints = True
            self.fx.write(rows.table_allows_hints(table_id))
        if computers_play:
            self.guards.made(table, guest.address)
        if msg.match_to is not None:
            table.match = Match(msg.match_to)
            self.fx.write(table.match.row(table_id))
        table.made(guest)
        table.join(guest, None, None, now)
        log.info("table %s (%r) created by %r", table_id, msg.name, guest.name)

    def sweep(self, now: float) -> None:
        """Run now and then (the server's sweeper): free the seats of guests who hold
        up a full waiting table by never being ready, and park games every player has
        left for a while, so they never hold a place new tables need."""
        changed = False
        patience = self.config.ready_timeout
        self.guards.forget_freed(now)
        self.quotas.prune()
        for table in list(self.tables.values()):
            for guest in table.squatters(now, patience):
                self.guards.freed(table, guest, now)
                table.leave(guest, now)
                self.listing.send(guest)
                changed = True
            if table.deserted(now, self._patience(table)) or table.abandoned:
                # A game everyone has left for a while, or a finished one (or a waiting
                # room after a restart) that no one is at: out of the count.
                self._park(table)
                changed = True
        if changed:
            self.listing.changed()

    def _patience(self, table: Table) -> float:
        """How long a game every player has left is kept in memory: a short while if
        only its turn clocks would let the computer play it (no one chose a stand-in
        for away players: the clocks of the gone would hand every seat to it)."""
        quick = table.clocks.on and table.takeover is None
        return self.config.clock_abandon_after if quick else self.config.abandon_after

    def _park(self, table: Table) -> None:
        """Out of memory, kept in the journal: a player who resumes brings it back.
        The table object is dead from now on (its computer stops), so a copy brought
        back later is the only one that plays."""
        del self.tables[table.id]
        self._retire(table)
        self.fx.write(rows.table_parked(table.id, self.config.max_parked))
        for spectator in table.spectators:
            self.seating.place(spectator, None)
            self.fx.write(rows.spectator(table.id, spectator.id, False))
            self.listing.send(spectator)
        for guest in {id(g): g for g in table.seats if g is not None}.values():
            if guest.table is table:
                self.seating.place(guest, None)
            if not guest.connected and not self._holds_seat(guest):
                self._forget(guest)
        log.info("table %s parked: every player has been gone a while", table.id)

    def _unpark(self, key: str, address: str) -> Guest | None:
        """The guest a token names, from a table parked in the journal, if any. A
        table where the computer may play counts against the address that brought it
        back (never refused: the seat is theirs), or parking and resuming would let
        one address keep any number of them playing."""
        table_id = self.journal.table_of(key)
        if table_id is None or table_id in self.tables:
            return None
        saved = self.journal.table(table_id)
        if saved is None:
            return None
        self.restore([saved])
        table = self.tables[table_id]
        if table.computers_may_play:
            self.guards.made(table, address)
        self.fx.write(rows.table_reopened(table_id))
        log.info("table %s back from the journal", table_id)
        return self.guests.get(key)

    def _chat(self, guest: Guest, msg: Chat) -> None:
        table = self._at_table(guest)
        if not within_limit(guest.chat_times, self.config.chat_burst, self.config.chat_window):
            raise Refusal("chat_too_fast", "Slow down: a few chat lines every few seconds.")
        line = ChatLine(sender=guest.name, seat=guest.seat, text=msg.text, _trusted=True)
        self.fx.send(table.members(), line)

    # ----- helpers ----------------------------------------------------------

    def _retire(self, table: Table) -> None:
        """`table` has left the lobby (parked or closed): it never plays again."""
        table.live = False
        self.fx.stopped.append(table)

    def _game_over(self, table: Table) -> None:
        if table.match is not None:
            self.listing.changed()  # the list shows the match's new score
        if self.tables.get(table.id) is table and table.abandoned:
            # Finished with no one here (the computer finished it for absent people):
            # kept for them in the journal, not in the count of tables.
            self._park(table)
            self.listing.changed()

    def table_list(self) -> TableList:
        return self.listing.current()

    def push_table_list(self) -> None:
        """Send the newest table list to everyone in the lobby (not at a table)."""
        self.listing.push(g for g in self.guests.values() if g.table is None and g.connected)

    def _names_in_use(self) -> set[str]:
        """The names of the people (and programs) on the server: every guest it knows,
        here or holding a seat. No computer seated is called as one of them."""
        return {g.name for g in self.guests.values()}

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
        table = self.seating.table_of(guest)
        if table is None:
            raise Refusal("no_such_table", "You are not at a table.")
        return table

    def _holds_seat(self, guest: Guest) -> bool:
        return self.seating.holds_seat(guest)

    def _drop_if_empty(self, table: Table) -> None:
        """Forget a table no one is at, and a finished one whose only remaining
        players are gone (they would hold their seats for ever)."""
        if self.tables.get(table.id) is not table:
            return
        if table.match_goes_on and table.abandoned and not table.empty:
            # Every player of a match dropped while it goes on: kept for them in
            # the journal (a resume brings it back), as a game in play would be.
            self._park(table)
            return
        if table.empty or table.abandoned:
            del self.tables[table.id]
            self._retire(table)
            log.info("table %s closed", table.id)
            self.fx.write(rows.table_closed(table.id))
            for guest in table.seats:
                if guest is not None and guest.table is table:
                    self.seating.place(guest, None)
                if guest is not None and not guest.connected and not self._holds_seat(guest):
                    self._forget(guest)

    def shutdown(self, message: str) -> None:
        """Say goodbye to everyone. Their connections end as the server's does: no one
        leaves a table or a game, and the journal keeps every seat for the next start."""
        self.stopping = True
        for guest in list(self.guests.values()):
            if guest.outbox is not None:
                self.fx.closes.append((guest.outbox, "shutdown", message))
