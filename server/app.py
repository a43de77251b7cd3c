"""The server as a whole: a listening socket, the lobby, and graceful shutdown.

server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
server.port          # the port actually bound
await server.shutdown("Closing time.")
"""

from __future__ import annotations

import contextlib
import errno
import logging
import math
import random
import secrets
import socket
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

import trio

from sarja.protocol.codec import ServerCodec
from sarja.protocol.fields import ID_RE
from sarja.protocol.messages import Bye

from .alarms import Alarms
from .budget import RequestBudget
from .computers import Computers
from .config import ServerConfig
from .connection import (
    Connection,
    Lingering,
    close_gracefully,
    close_stream,
    enable_keepalive,
    peer_address,
    serve_connection,
)
from .datalock import DataDirLock
from .journal import FILE_NAME as JOURNAL_FILE
from .journal import Journal, JournalError
from .journal_error import damaged
from .lobby import Lobby
from .outflow import Outflow
from .private import narrow_if_there, private_directory, private_file
from .rating import Skill
from .records import RecordStore
from .standings import counted_game, rows_of
from .standings_read import StandingsBook
from .tls import OLDER_CLIENT_REFUSAL, TLS_HANDSHAKE, server_key

log = logging.getLogger("sarja.server")

# Connections past an address's limit that still get their handshake, to be told why.
HANDSHAKES_TO_REFUSE = 4


class Server:
    def __init__(self, config: ServerConfig, nursery: trio.Nursery) -> None:
        self.config = config
        self._nursery = nursery
        # Shuffles: reproducible with a seed (tests), unpredictable otherwise.
        rng = random.Random(config.seed) if config.seed is not None else secrets.SystemRandom()
        self.key = server_key(config.data_dir)  # its TLS key (tls.py)
        self.records = RecordStore(config.data_dir, directory=config.records_dir)
        # Opening and reading the journal refuses (JournalError) a file it cannot trust:
        # the server never starts empty over games it could not read.
        path = None if config.data_dir is None else Path(config.data_dir) / JOURNAL_FILE
        self.journal = Journal(path, config.durability, config.wal_limit)
        self.journal.on_failure = self._journal_failed
        self.journal.compact()
        self.outflow = Outflow(self.journal)  # commit, then send
        # The standings, read once before anyone connects (`read_standings`), then
        # kept as games are counted: a request never reads every game.
        self.standings = StandingsBook()
        self.lobby = Lobby(
            config,
            rng,
            server_id(config.data_dir),
            self.journal,
            clock=trio.current_time,  # the graces' timers sleep on trio's clock
            standings=self.standings,
        )
        # The computer players; `computers.run` must run in the server's nursery.
        self.computers = Computers(
            config.takeover_delay, config.computer_budget, config.think_time, config.seed,
            workers=config.search_workers, processes=config.search_processes,
            carry=self.carry, clock=trio.current_time,
        )  # fmt: skip
        self.alarms = Alarms(self.carry, trio.current_time)  # the tables' turn clocks
        self.listeners: list[trio.SocketListener] = []
        self._port: int | None = None
        self.connections = 0
        self._per_address: Counter[str] = Counter()
        self._handshaking: Counter[str] = Counter()  # sockets in their TLS handshake
        # What each address may ask, all its connections together (budget.py); kept
        # after its last connection closes until it has refilled, so reconnecting
        # does not refill it.
        self._budgets: dict[str, RequestBudget] = {}
        self._live: set[Connection] = set()
        self.records_written: list[Path] = []
        self.games_counted = 0  # finished games the standings have counted (for tests)
        self._records_due = trio.Event()
        self._list_due = trio.Event()
        # Called when the lobby's list may say something new (the LAN announcement).
        self.list_watchers: list[Callable[[], None]] = []
        self.failure: str | None = None  # why the server stopped by itself, if it did
        self.goodbye: str | None = None  # what `shutdown` tells everyone, once it began
        self.lobby.restore(self.journal.load())
        self.carry()

    def carry(self) -> None:
        """Carry out what the lobby's and its tables' steps left (effects.py): their
        rows, then their messages (the outflow sends them once the rows are kept), the
        connections to close, the computers' timers, the records and the lobby's list
        now due. Called after every step: a request, a computer's move, the sweep."""
        fx = self.lobby.fx.take()
        outflow = self.outflow
        outflow.write(fx.rows)
        outflow.send_all(fx.sends)
        for outbox, code, message in fx.closes:
            outbox.close(code, message)
        for timer in fx.timers:
            if timer.kind == "clock":
                self.alarms.set(timer.table, timer.at)
            else:
                self.computers.wake(timer.table, timer.at)
        for table in fx.stopped:
            self.computers.stop(table)
            self.alarms.set(table, None)
        if fx.games_over:
            self._records_due.set()
        if fx.list_changed:
            self._list_due.set()
            for watch in self.list_watchers:
                watch()

    @property
    def port(self) -> int:
        if self._port is None:  # asked first while listening: `shutdown` closes them
            self._port = int(self.listeners[0].socket.getsockname()[1])
        return self._port

    async def accept(self, listener: trio.SocketListener) -> None:
        """Take connections as they come. Out of file descriptors (or memory for a
        socket), stop taking them for a moment instead of failing in a loop: the
        ones waiting are taken once some close."""
        paused = False
        while True:
            try:
                stream = await listener.accept()
            except trio.ClosedResourceError:
                return  # the server is shutting down (`shutdown`)
            except OSError as err:
                if err.errno not in _OUT_OF_RESOURCES:
                    raise
                if not paused:
                    log.warning("no more connections for now: %s", err.strerror)
                    paused = True
                await trio.sleep(ACCEPT_PAUSE)
                continue
            if paused:
                log.warning("taking connections again")
                paused = False
            self._nursery.start_soon(self.handle, stream)

    async def handle(self, tcp: trio.SocketStream) -> None:
        address = peer_address(tcp)
        enable_keepalive(tcp)
        # Sockets still in their TLS handshake count against their address too, so one
        # address cannot hold more than a few past its limit, however silent they stay;
        # a few spare ones are let through to hear why they are refused.
        if self._per_address[address] + self._handshaking[address] >= (
            self.config.max_per_address + HANDSHAKES_TO_REFUSE
        ):
            await close_stream(tcp)
            return
        stream = None
        self._handshaking[address] += 1
        try:
            with trio.move_on_after(self.config.handshake_timeout):
                stream = await self._secure(tcp)
        finally:
            self._handshaking[address] -= 1
            if not self._handshaking[address]:
                del self._handshaking[address]
        if stream is None:
            await close_stream(tcp)
            return
        if self.goodbye is not None:  # taken just before the listeners closed
            await _refuse(stream, "shutdown", self.goodbye)
            return
        if self.connections >= self.config.max_connections:
            await _refuse(stream, "server_full", "The server is full; try again later.")
            return
        if self._per_address[address] >= self.config.max_per_address:
            await _refuse(stream, "too_many_connections", "Too many connections from your address.")
            return
        self._per_address[address] += 1
        self.connections += 1
        shared = self._budgets.get(address)
        if shared is None:
            c = self.config
            share = c.address_request_share
            now = trio.current_time()
            shared = self._budgets[address] = RequestBudget(
                c.request_rate * share, c.request_burst * share, now
            )
        connection = Connection(
            stream, self.lobby, self.config, address, self.outflow, self.carry,
            advise=self.computers.advise, shared=shared,
        )  # fmt: skip
        self._live.add(connection)
        try:
            await serve_connection(connection)
        finally:
            self._live.discard(connection)
            self.connections -= 1
            self._per_address[address] -= 1
            if not self._per_address[address]:
                del self._per_address[address]

    async def _secure(self, tcp: trio.SocketStream) -> trio.SSLStream[Lingering] | None:
        """TLS over `tcp`, its handshake done; None if the peer went, or spoke without
        TLS: an older client, answered with the one frame it can read (tls.py)."""
        try:
            first = await tcp.socket.recv(1, socket.MSG_PEEK)
        except OSError:
            return None
        if not first:
            return None
        if first[0] != TLS_HANDSHAKE:
            await _refuse_plain(tcp)
            return None
        # https_compatible: the end of the TCP stream ends the connection, close_notify
        # or not, as it did before TLS (a stream cut inside a frame is `truncated_frame`).
        stream = trio.SSLStream(
            Lingering(tcp), self.key.context, server_side=True, https_compatible=True
        )
        try:
            await stream.do_handshake()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return None
        return stream

    async def heartbeat(self) -> None:
        """Ping quiet peers, so a dead one is noticed within about `idle_timeout`:
        one task for the server, not one per connection."""
        while True:
            c = self.config
            await trio.sleep(min(c.ping_interval, c.send_timeout, c.frame_timeout) / 10)
            for connection in list(self._live):
                connection.ping()

    async def sweeper(self) -> None:
        while True:
            await trio.sleep(self.config.sweep_every)
            now = trio.current_time()
            self.lobby.sweep(now)
            self.carry()
            for address, budget in list(self._budgets.items()):
                if address not in self._per_address and budget.full(now):
                    del self._budgets[address]

    async def push_table_lists(self) -> None:
        """The lobby's table list, pushed to the lobby at most every
        `table_list_every` seconds, however often it changes."""
        while True:
            await self._list_due.wait()
            self._list_due = trio.Event()
            self.lobby.push_table_list()
            self.carry()
            await trio.sleep(self.config.table_list_every)

    async def write_records(self) -> None:
        """Write finished games' records from the journal: at start (games finished
        before a stop), after each game, and a minute after a failed try."""
        while True:
            await self.journal.durable(self.journal.epoch)  # the game's end is kept
            try:
                due = self.records.due(self.journal)
                fresh: dict[str, Skill] = {}  # ratings written but not yet committed
                for table_id, number, name, text, result in due:
                    if self.records.directory is not None:
                        path = await trio.to_thread.run_sync(self.records.write, name, text)
                        result.record = path.name
                        self.records_written.append(path)
                    # The standings' share of it, counted while its actions are kept, and
                    # in the commit that lets them go (so never counted twice).
                    self._count_standings(table_id, number, fresh)
                    # What is kept of the game; its actions go, the record holding them.
                    self.journal.game_recorded(table_id, number, result)
                    self.games_counted += 1
                if due and self.records.directory is not None:
                    await trio.to_thread.run_sync(self.records.prune)
                delay = math.inf
            except (OSError, JournalError) as err:
                log.error("could not write game records (will try again): %s", err)
                delay = 60.0
            with trio.move_on_after(delay):
                await self._records_due.wait()
            self._records_due = trio.Event()

    def _count_standings(self, table_id: str, number: int, fresh: dict[str, Skill]) -> None:
        saved = self.journal.table(table_id, number)
        if saved is None or saved.game is None:
            return
        counted = self.journal.read(partial(counted_game, saved=saved, fresh=fresh))
        self.journal.write(rows_of(counted))
        self.standings.counted(counted, time.time())

    async def read_standings(self) -> None:
        """The standings as the journal keeps them, read before the server listens and
        before any game is counted: in a thread, on a connection of its own (a long
        journal takes a while), so the loop goes on committing meanwhile."""
        path, now = self.journal.path, time.time()
        if path is None:  # kept in memory: nothing was kept before this start
            self.journal.read(partial(self.standings.read, now=now))
            return

        def read() -> None:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                self.standings.read(db, now)
            finally:
                db.close()

        try:
            await trio.to_thread.run_sync(read)
        except sqlite3.Error as err:
            raise JournalError(damaged(str(path), str(err))) from None

    def _journal_failed(self, message: str) -> None:
        self.failure = message
        self._nursery.start_soon(self.shutdown, "The server cannot save games; it stops.")

    async def shutdown(self, message: str = "The server is shutting down.") -> None:
        """Stop taking connections, tell every client, give the goodbyes a moment to
        leave, then stop. Nothing new is let in meanwhile: a client that tried again at
        once after its goodbye was welcomed, then dropped when the server went; now it
        finds no one listening, as when the server is down, and tries again later."""
        if self.goodbye is not None:
            return  # already on its way (a signal and a failing journal both ask)
        self.goodbye = message
        with trio.CancelScope(shield=True):
            for listener in self.listeners:  # their `accept` ends; the port is free
                await listener.aclose()
        self.lobby.shutdown(message)
        for connection in list(self._live):
            if connection.guest is None:  # connected, no hello yet: none will be answered
                connection.close("shutdown", message)
        self.carry()
        with trio.move_on_after(self.config.shutdown_grace):
            while self.connections:
                await trio.sleep(0.02)
        self._nursery.cancel_scope.cancel()


async def serve(
    config: ServerConfig, *, task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED
) -> None:
    """Listen and serve until cancelled or shut down; `task_status` gets the Server."""
    server: Server | None = None
    lock = DataDirLock.take(config.data_dir)  # before anything there is read or written
    try:
        async with trio.open_nursery() as nursery:
            server = Server(config, nursery)
            await _run(server, nursery, task_status)
    finally:
        # Only now: the connections' own endings (above) wrote nothing, the server
        # being the one that stopped; what was written before is committed here.
        if server is not None:
            server.journal.close()
        lock.release()


async def _run(server: Server, nursery: trio.Nursery, task_status: trio.TaskStatus[Server]) -> None:
    config = server.config
    try:
        nursery.start_soon(server.outflow.run)  # the journal's commits, then the frames
        await nursery.start(server.computers.run)  # the computer players
        await nursery.start(server.alarms.run)  # the turn clocks
        await server.read_standings()
        server.listeners = await trio.open_tcp_listeners(config.port, host=config.host)
        for listener in server.listeners:
            nursery.start_soon(server.accept, listener)
        nursery.start_soon(server.heartbeat)
        nursery.start_soon(server.write_records)
        nursery.start_soon(server.push_table_lists)
        nursery.start_soon(server.sweeper)
        log.info("listening on port %d", server.port)
        task_status.started(server)
        await trio.sleep_forever()
    finally:
        # Connections that end from here on end because the server stops: their
        # players leave no table and no seat.
        server.lobby.stopping = True
        with trio.CancelScope(shield=True):
            for listener in server.listeners:  # the port is free again at once
                await listener.aclose()


ACCEPT_PAUSE = 0.5  # seconds without accepting, when out of file descriptors
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


async def _refuse(stream: trio.abc.Stream, code: str, message: str) -> None:
    """Say why at once, before any hello, and close."""
    goodbye = Bye(code=code, message=message, _trusted=True)
    with trio.move_on_after(1), contextlib.suppress(trio.BrokenResourceError, OSError):
        await stream.send_all(ServerCodec().encode(goodbye))
    await close_stream(stream)


async def _refuse_plain(tcp: trio.SocketStream) -> None:
    """A peer that spoke without TLS (a protocol-2 client): one fatal error frame it can
    read, in the clear, then the connection closes (docs/protocol.md)."""
    with trio.move_on_after(1), contextlib.suppress(trio.BrokenResourceError, OSError):
        await tcp.send_all(OLDER_CLIENT_REFUSAL)
    await close_gracefully(tcp)


def server_id(data_dir: Path | None) -> str:
    """This server's lasting identity: clients key the seats they hold by it, so a
    seat comes back whatever address the player typed. Kept in the data directory;
    a server without one gets a new identity each run."""
    if data_dir is None:
        return secrets.token_hex(8)
    path = Path(data_dir) / "server-id"
    try:
        text = path.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    if ID_RE.fullmatch(text):
        with contextlib.suppress(OSError):
            narrow_if_there(path)  # an older server left it readable by all
        return text
    text = secrets.token_hex(8)
    try:
        private_directory(path.parent)
        private_file(path)
        path.write_text(text + "\n", "ascii")
    except OSError as err:
        log.warning("could not keep the server id in %s: %s", path, err.strerror)
    return text
