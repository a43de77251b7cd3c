"""One TCP connection: a reader that turns bytes into requests, and writes
that never wait: frames go straight to the socket when it takes them, and to a
bounded queue drained by a writer task when it does not, so a peer that stops
reading never stalls anyone.

Everything a peer sends goes through the protocol codec first; nothing from
the network reaches the lobby unvalidated. A protocol violation gets an error
frame, and a fatal one closes the connection after it.
"""

from __future__ import annotations

import logging
import math
import os
import socket
from typing import Any

import trio

from sarja.protocol import LocalProtocolError, RemoteProtocolError, ServerCodec, error_reply
from sarja.protocol.messages import Bye, Error, Ping, Pong

from .batching import WriteBatcher
from .config import ServerConfig
from .engine import EngineError
from .guest import Guest
from .lobby import Lobby
from .refusal import Refusal

log = logging.getLogger("sarja.server")

RECEIVE_SIZE = 16384
_ACTIONS = frozenset({"play", "remove", "exchange", "draw", "pass"})


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
        self,
        stream: trio.SocketStream,
        lobby: Lobby,
        config: ServerConfig,
        batcher: WriteBatcher,
    ) -> None:
        self.stream = stream
        self.lobby = lobby
        self.config = config
        self.codec = ServerCodec()
        self.guest: Guest | None = None
        self._out, self._queued = trio.open_memory_channel[bytes](config.outgoing_queue)
        self._scope = trio.CancelScope()
        self._closing = False
        self._pings = 0
        self.last_heard = self._last_ping = trio.current_time()
        self._batcher = batcher
        self._pending: list[bytes] = []  # frames of the current step, not yet written
        self._writer_busy = False
        # The same socket, for writes without a task switch (non-blocking, like trio's).
        # Where a socket can't be duplicated so (Windows), every write takes the queue.
        try:
            self._raw: socket.socket | None = socket.socket(fileno=os.dup(stream.socket.fileno()))
            self._raw.setblocking(False)  # whatever socket.setdefaulttimeout() says
        except OSError:
            self._raw = None

    # ----- Outbox ---------------------------------------------------------

    def send(self, msg: Any) -> None:
        self.send_encoded(msg, None)

    def encode(self, msg: Any) -> bytes:
        return self.codec.encode(msg)

    def send_encoded(self, msg: Any, frame: bytes | None) -> None:
        """Queue `msg` (as `frame`, when already encoded for another peer)."""
        if self._closing:
            return
        try:
            if frame is None:
                data = self.codec.send(msg)
            else:
                data = self.codec.send_encoded(msg, frame)
        except LocalProtocolError:
            log.exception("refused to send %s (a server bug)", type(msg).__name__)
            return
        if not self._pending:
            self._batcher.waiting(self)
        self._pending.append(data)

    def flush(self) -> None:
        """Write the frames of this step: to the socket if it takes them now and
        nothing is queued before them, else to the writer's queue."""
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending = []
        if self._scope.cancel_called:
            return
        raw = self._raw
        if (
            raw is not None
            and not self._writer_busy
            and not self._queued.statistics().current_buffer_used
        ):
            try:
                sent = raw.send(data)
            except BlockingIOError:
                sent = 0
            except OSError:  # the peer is gone; the reader will notice
                self._scope.cancel()
                return
            data = data[sent:]
            if not data:
                return
        try:
            self._out.send_nowait(data)
        except trio.WouldBlock:
            # The peer is not reading: drop it rather than let the queue grow.
            log.info("dropping %s: not keeping up", self._who())
            self._closing = True
            self._scope.cancel()
        except trio.ClosedResourceError:
            pass

    def close(self, code: str, message: str) -> None:
        """Say goodbye, let the queue drain, then end the connection."""
        if self._closing:
            return
        self.send(Bye(code=code, message=message))
        self._stop_sending()

    def _stop_sending(self) -> None:
        """Nothing more will be sent: the writer drains what is queued, then ends."""
        self.flush()
        self._closing = True
        self._out.close()

    # ----- running --------------------------------------------------------

    async def run(self) -> None:
        with self._scope:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._write_all, nursery.cancel_scope)
                await self._read_all()
                self._stop_sending()

    async def _write_all(self, connection_scope: trio.CancelScope) -> None:
        # One cancel scope for the connection's life, its deadline moved for
        # each write: cheaper than a new scope per write, on the busiest path.
        send_timeout = self.config.send_timeout
        with trio.CancelScope() as too_slow:
            try:
                async for data in self._queued:
                    # Everything queued goes out in one write: one move sends each
                    # peer several frames, and a system call per frame adds up.
                    batch = [data]
                    while True:
                        try:
                            batch.append(self._queued.receive_nowait())
                        except (trio.WouldBlock, trio.EndOfChannel):
                            break
                    too_slow.deadline = trio.current_time() + send_timeout
                    self._writer_busy = True
                    await self.stream.send_all(b"".join(batch) if len(batch) > 1 else data)
                    self._writer_busy = False
                    too_slow.deadline = math.inf
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            finally:
                # Nothing more can be written: the connection is over.
                connection_scope.cancel()

    async def _read_all(self) -> None:
        deadline = trio.current_time() + self.config.handshake_timeout
        idle_timeout = self.config.idle_timeout
        # Moving a deadline re-files it in trio: a busy peer's moves at most once
        # per `slack`, which changes when a silent peer is dropped by no more than that.
        slack = min(1.0, idle_timeout / 10)
        greeted = False
        with trio.CancelScope(deadline=deadline) as silence:
            while not self._closing:
                try:
                    data = await self._receive()
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    return
                if not self._batcher.step(self._take_messages, data) or not data:
                    return
                if self.guest is not None:
                    now = self.last_heard = trio.current_time()
                    if not greeted or silence.deadline < now + idle_timeout - slack:
                        silence.deadline = now + idle_timeout  # the handshake's ends here
                        greeted = True
            return
        self.close("idle", "No message arrived for too long; the connection closes.")

    async def _receive(self) -> bytes:
        """The next bytes from the peer; b"" once it has closed. Straight from our
        duplicate of the socket where there is one: on a busy server trio's stream
        layers cost more than the read, and leave more objects for the collector."""
        raw = self._raw
        if raw is None:
            return await self.stream.receive_some(RECEIVE_SIZE)
        await trio.lowlevel.checkpoint_if_cancelled()  # a cancel before a read loses nothing
        waited = False
        while True:
            try:
                data = raw.recv(RECEIVE_SIZE)
                break
            except BlockingIOError:
                pass  # waiting outside the handler: a held exception keeps frames alive
            except OSError as exc:
                raise trio.BrokenResourceError(exc) from None
            await trio.lowlevel.wait_readable(raw)
            waited = True
        if not waited:
            # The bytes were there already: yield, as trio's own reads do, so a peer
            # that floods us cannot hold the server (shielded: what was read is kept;
            # a cancel is noticed at the next read).
            await trio.lowlevel.cancel_shielded_checkpoint()
        return data

    def _take_messages(self, data: bytes) -> bool:
        """Handle every whole message received; False once the connection must end."""
        try:
            self.codec.receive_data(data)
        except RemoteProtocolError as exc:  # e.g. a frame too large, from its length alone
            self.send(error_reply(exc))
            return False
        while True:
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
            if self._closing:
                return False

    def _handle(self, msg: Any) -> None:
        kind = msg.TYPE
        if kind == "ping":
            self.send(Pong(n=msg.n))
            return
        if kind == "pong":
            return
        action_id = msg.id if kind in _ACTIONS else None
        try:
            if kind == "hello":
                self.guest = self.lobby.hello(msg.name, msg.resume, self)
            else:
                assert self.guest is not None  # the codec allows nothing else before hello
                self.lobby.handle(self.guest, msg)
        except Refusal as refusal:
            self.send(Error(code=refusal.code, message=refusal.message, id=action_id))
        except EngineError as refusal:
            self.send(Error(code=refusal.code, message=refusal.message, id=action_id))
        except Exception:
            # A bug: this connection ends, the server and every other table go on.
            log.exception("handling %s from %s failed", kind, self._who())
            self.send(
                Error(
                    code="internal_error",
                    message="Something went wrong in the server; please connect again.",
                    fatal=True,
                )
            )
            self._stop_sending()

    def ping(self) -> None:
        """The heartbeat: ask a greeted peer that has been quiet to answer, at
        most once a `ping_interval`."""
        now = trio.current_time()
        last_contact = max(self.last_heard, self._last_ping)
        if self.guest is None or now - last_contact < self.config.ping_interval:
            return
        self._last_ping = now
        self._pings += 1
        self.send(Ping(n=self._pings))

    def _who(self) -> str:
        return self.guest.name if self.guest else "a new connection"


async def serve_connection(connection: Connection) -> None:
    """Run one connection to its end. No exception escapes: one peer's trouble
    never reaches the server or any other peer."""
    stream, lobby = connection.stream, connection.lobby
    enable_keepalive(stream)
    try:
        await connection.run()
    except Exception:
        log.exception("connection of %s failed", connection._who())
    finally:
        if connection.guest is not None:
            try:
                lobby.disconnected(connection.guest, connection)
            except Exception:
                log.exception("cleaning up after %s failed", connection._who())
        if connection._raw is not None:  # only our duplicate; trio closes the stream
            trio.lowlevel.notify_closing(connection._raw)
            connection._raw.close()
        await trio.aclose_forcefully(stream)
