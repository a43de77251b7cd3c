"""One TCP connection: a reader task that turns bytes into requests, and a writer
task that drains this connection's queue of frames, as trio-websocket does.

Sending never waits: a frame joins the queue, and the writer writes it. The queue is
bounded in bytes, so a peer that stops reading is dropped instead of holding memory or
stalling anyone. Only the writer writes, so frames reach the socket whole and in order.
Frames come through the outflow (outflow.py), which holds back those that tell of what
the journal has not kept yet; the connection knows nothing of the journal.

Everything a peer sends goes through the protocol codec first; nothing from the
network reaches the lobby unvalidated. A request over the peer's budget (budget.py)
waits until the budget holds it, and nothing more is read from the peer meanwhile:
what it sends waits in its socket, costing the server nothing, not even decoding. A
protocol violation gets an error frame, and a fatal one closes the connection after it
(the error is written before the close).
"""

from __future__ import annotations

import contextlib
import logging
import math
import socket
from collections.abc import Callable

import trio

from sarja.protocol.codec import ServerCodec, error_reply
from sarja.protocol.errors import LocalProtocolError, RemoteProtocolError
from sarja.protocol.messages import (
    ACTION_TYPES,
    AskHint,
    Bye,
    ClientMessage,
    Error,
    Hello,
    Ping,
    Pong,
    Resume,
    ServerMessage,
)

from .budget import RequestBudget
from .config import ServerConfig
from .engine import EngineError
from .guest import Guest
from .hints import Advise, HintDesk
from .lobby import Lobby
from .outflow import Outflow
from .refusal import Refusal

log = logging.getLogger("sarja.server")

RECEIVE_SIZE = 16384
MAX_RESUME_TRIES = 2  # unknown tokens one connection may try; `bye` follows the last
CLOSE_GRACE = 1.0  # seconds to wait for the peer's end after ours, so no reply is lost


def peer_address(stream: trio.SocketStream) -> str:
    """The peer's IP address, or "" if it is already gone."""
    try:
        return str(stream.socket.getpeername()[0])
    except OSError:
        return ""


def enable_keepalive(stream: trio.SocketStream) -> None:
    """TCP keepalive: a second line behind the ping, for peers that vanished."""
    sock = stream.socket
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 20), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
    except OSError:  # not every platform allows every option; the ping still works
        pass


class Connection:
    """The server's end of one peer. Also the peer's `Outbox`."""

    def __init__(
        self, stream: trio.abc.Stream, lobby: Lobby, config: ServerConfig, address: str,
        outflow: Outflow, carry: Callable[[], None], advise: Advise | None = None,
        shared: RequestBudget | None = None,
    ) -> None:  # fmt: skip
        self.stream = stream
        self.lobby = lobby
        self.address = address  # as `peer_address` gave it
        self.config = config
        self.codec = ServerCodec()
        self.guest: Guest | None = None
        self.outflow = outflow
        self.carry = carry  # carries out what the lobby's step left (app.py)
        # Unbounded as a channel; bounded by `queued` bytes, checked on every send.
        self._outgoing, self._queue = trio.open_memory_channel[bytes](math.inf)
        self.queued = 0  # bytes waiting for the writer (those the outflow holds included)
        self._owed = 0  # frames admitted that the outflow has not delivered yet
        self._closing = False
        self._sending_since: float | None = None  # when the write under way began
        self._frame_since: float | None = None  # when the frame being received began
        self._unknown_resumes = 0
        self._rest_until: float | None = None  # over budget: read nothing more till then
        self._waiting: ClientMessage | None = None  # the request over budget, till then
        self._budget = RequestBudget(config.request_rate, config.request_burst, trio.current_time())
        self._shared = shared  # the budget every connection from this address shares
        self._connection = trio.CancelScope()  # the running connection's, once it runs
        self._nursery: trio.Nursery | None = None  # the running connection's tasks
        self._advise = advise
        self.hints: HintDesk | None = None  # made at the first `ask_hint` (hints.py)
        self._pings = 0
        self.last_heard = self._last_ping = trio.current_time()

    # ----- Outbox, and the outflow's Sink -----------------------------------

    def send(self, msg: ServerMessage) -> None:
        self.outflow.send(self, msg)

    def encode(self, msg: ServerMessage) -> bytes:
        return self.codec.encode(msg)

    def send_encoded(self, msg: ServerMessage, frame: bytes) -> None:
        """`msg` as `frame`, encoded once for many connections."""
        self.outflow.send(self, msg, frame)

    def admit(self, msg: ServerMessage, frame: bytes) -> bool:
        """Whether `frame` goes to this peer: the session allows `msg` now, and the
        queue has room for it."""
        if self._closing:
            return False
        try:
            self.codec.sent(msg)
        except LocalProtocolError:
            log.exception("refused to send %s (a server bug)", type(msg).__name__)
            return False
        return self._enqueue(frame)

    def _enqueue(self, frame: bytes) -> bool:
        """Count `frame` against the queue's bound; False (and the peer dropped) if it
        is full."""
        if self.queued + len(frame) > self.config.max_queued_bytes:
            # The peer is not reading: drop it rather than let the queue grow.
            log.info("dropping %s: not keeping up", self._who())
            self._closing = True
            self._outgoing.close()
            self._queue.close()  # the writer stops at once; nothing more goes out
            return False
        self.queued += len(frame)
        self._owed += 1
        return True

    def deliver(self, data: bytes, frames: int) -> None:
        """Frames admitted earlier, now free to go (the outflow holds back those that
        tell of what is not kept yet): one item for the writer, however many."""
        self._owed -= frames
        try:
            self._outgoing.send_nowait(data)
        except trio.ClosedResourceError:  # dropped meanwhile
            return
        if self._closing and not self._owed:
            self._outgoing.close()

    def close(self, code: str, message: str) -> None:
        """Say goodbye; the writer sends what is queued, then the connection ends."""
        if self._closing:
            return
        self.send(Bye(code=code, message=message, _trusted=True))
        self._stop_sending()

    def _stop_sending(self) -> None:
        """Nothing more is queued: the writer sends what is, then ends the connection.
        (Frames the outflow still holds go first: the channel closes once they came.)"""
        self._closing = True
        if not self._owed:
            self._outgoing.close()

    # ----- running --------------------------------------------------------

    async def run(self) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._write_all, nursery.cancel_scope)
            await self._read_all()
            self._stop_sending()

    async def _write_all(self, connection: trio.CancelScope) -> None:
        """Write queued frames in order until the queue is closed and empty, then end
        the connection (the reader may still be waiting for bytes)."""
        self._connection = connection
        try:
            async for frame in self._queue:
                # Everything queued goes out in one write: a system call per item adds
                # up. (The outflow joins what one commit lets go already.)
                batch = [frame]
                while True:
                    try:
                        batch.append(self._queue.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                data = b"".join(batch)
                # A write that takes too long is ended by the heartbeat (`ping`):
                # cheaper than a deadline for every write.
                self._sending_since = trio.current_time()
                await self.stream.send_all(data)
                self._sending_since = None
                self.queued -= len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        connection.cancel()

    async def _read_all(self) -> None:
        idle_timeout = self.config.idle_timeout
        deadline = trio.current_time() + self.config.handshake_timeout
        with trio.CancelScope(deadline=deadline) as silence:
            while not self._closing:
                if self._rest_until is not None:
                    # Over budget: the peer's next request waits (in the socket, and
                    # what it sent before in the codec) until the budget holds it.
                    await trio.sleep_until(self._rest_until)
                    self._rest_until = None
                    self._frame_since = None  # a frame it holds back is not late: ours
                    data = None
                else:
                    try:
                        data = bytes(await self.stream.receive_some(RECEIVE_SIZE))
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        return
                if not self._take_messages(data) or data == b"":
                    return
                now = trio.current_time()
                if not self.codec.in_frame:
                    self._frame_since = None
                elif self._frame_since is None:
                    self._frame_since = now
                if self.guest is not None:
                    self.last_heard = now
                    silence.deadline = now + idle_timeout
            return
        self.close("idle", "No message arrived for too long; the connection closes.")

    def _take_messages(self, data: bytes | None) -> bool:
        """Handle the whole messages received (`data`, and those waiting in the codec),
        until one is over budget; False once the connection must end."""
        try:
            if data is not None:
                self.codec.receive_data(data)
        except RemoteProtocolError as exc:  # e.g. a frame too large, from its length alone
            self.send(error_reply(exc))
            return False
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            self._handle(waiting)
        while not self._closing and self._rest_until is None:
            try:
                msg = self.codec.next_message()
            except RemoteProtocolError as exc:
                self.send(error_reply(exc))
                if exc.fatal:
                    return False
                continue
            if msg is None:
                return True
            self._handle(msg)
        return not self._closing  # resting, or closing

    def _handle(self, msg: ClientMessage) -> None:
        if isinstance(msg, Pong):
            return
        action_id = msg.id if isinstance(msg, ACTION_TYPES) else None
        now = trio.current_time()
        if not self._budget.spend(msg, now, self._shared):
            # Over budget: it waits its turn, and nothing more is read meanwhile.
            self._waiting = msg
            self._rest_until = now + self._budget.wait(msg, now, self._shared)
            return
        if isinstance(msg, Ping):
            self.send(Pong(n=msg.n, _trusted=True))
            return
        try:
            try:
                self._ask_lobby(msg)
            finally:
                self.carry()  # what the step did, done or refused half-way
        except (Refusal, EngineError) as refusal:
            self.send(
                Error(code=refusal.code, message=refusal.message, id=action_id, _trusted=True)
            )
            if refusal.code == "unknown_resume":
                self._unknown_resumes += 1
                if self._unknown_resumes >= MAX_RESUME_TRIES:  # guessing tokens, it seems
                    self.close("too_many_resumes", "Too many unknown resume tokens.")
        except Exception:
            # A bug: this connection ends, the server and every other table go on.
            log.exception("handling %s from %s failed", msg.TYPE, self._who())
            self.send(
                Error(
                    code="internal_error",
                    message="Something went wrong in the server; please connect again.",
                    fatal=True,
                    _trusted=True,
                )
            )
            self._stop_sending()

    def _ask_lobby(self, msg: ClientMessage) -> None:
        if isinstance(msg, Hello):
            self.guest = self.lobby.hello(
                msg.name, msg.resume, self, self.address, msg.computer, msg.person
            )
        elif isinstance(msg, Resume):
            assert self.guest is not None  # the codec allows it only after hello
            self.guest = self.lobby.resume(self.guest, msg.token, self)
        elif isinstance(msg, AskHint):
            assert self.guest is not None and self._nursery is not None
            if self.hints is None:  # most connections never ask: an idle one costs nothing
                self.hints = HintDesk(self._advise)
            self.hints.ask(self.lobby, self.guest, msg, self._nursery, self.send)
        else:
            assert self.guest is not None  # the codec allows nothing else before hello
            self.lobby.handle(self.guest, msg)

    def ping(self) -> None:
        """The heartbeat: drop a peer that has not taken our bytes for `send_timeout`;
        ask a greeted peer that has been quiet to answer, at most once a
        `ping_interval`."""
        now = trio.current_time()
        since = self._sending_since
        if since is not None and now - since > self.config.send_timeout:
            log.info("dropping %s: not reading", self._who())
            self._sending_since = None
            self._connection.cancel()
            return
        begun = self._frame_since
        resting = self._rest_until is not None  # the server holds back its frames
        if begun is not None and not resting and now - begun > self.config.frame_timeout:
            # A frame trickling in a byte at a time would hold the connection forever.
            self._frame_since = None
            self.close("slow_frame", "A message took too long to arrive; the connection closes.")
            return
        last_contact = max(self.last_heard, self._last_ping)
        if self.guest is None or now - last_contact < self.config.ping_interval:
            return
        self._last_ping = now
        self._pings += 1
        self.send(Ping(n=self._pings, _trusted=True))

    def _who(self) -> str:
        return repr(self.guest.name) if self.guest else "a new connection"


async def serve_connection(connection: Connection) -> None:
    """Run one connection to its end. No exception escapes: one peer's trouble
    never reaches the server or any other peer."""
    stream, lobby = connection.stream, connection.lobby
    try:
        await connection.run()
    except Exception:
        log.exception("connection of %s failed", connection._who())
    finally:
        # Cancelled from above: the server is stopping, and its players leave nothing.
        stopping = trio.current_effective_deadline() == -math.inf
        if connection.guest is not None and not stopping:
            try:
                lobby.disconnected(connection.guest, connection)
                connection.carry()
            except Exception:
                log.exception("cleaning up after %s failed", connection._who())
        with trio.CancelScope(shield=True):
            if stopping:  # no one waits for goodbyes now (they went before: `shutdown`)
                await trio.aclose_forcefully(stream)
            else:
                await close_stream(stream)


async def close_stream(stream: trio.abc.Stream) -> None:
    """Close a connection's stream without losing our last reply (the lingering close
    under its TLS: `Lingering`), within a bound."""
    with trio.move_on_after(3 * CLOSE_GRACE):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await stream.aclose()
    await trio.aclose_forcefully(stream)


class Lingering(trio.abc.Stream):
    """A TCP stream whose close ends our side first, then waits briefly for the peer's:
    closing a socket with unread bytes in it resets the connection, and the peer would
    lose our last reply. The server's TLS runs over it, and closing the TLS stream
    closes this one."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        return await self.stream.receive_some(max_bytes)

    async def aclose(self) -> None:
        await close_gracefully(self.stream)


async def close_gracefully(stream: trio.SocketStream) -> None:
    """End our side, then wait briefly for the peer's: closing a socket with unread
    bytes in it resets the connection, and the peer would lose our last reply."""
    try:
        await stream.send_eof()
        with trio.move_on_after(CLOSE_GRACE):
            while await stream.receive_some(RECEIVE_SIZE):
                pass
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass
    finally:
        await trio.aclose_forcefully(stream)
