"""The connection to the server: trio, the shared sans-IO codec, and reconnecting.

The client's networking is trio code, like the server's, run in trio's *guest mode* on
the asyncio loop that prompt_toolkit drives (see app.py): one thread, so the link calls
back into the model directly and the screen never sees a half-applied message. Calls
from the asyncio side into trio (`send`, `retry_now`, `greet`) go through the run's
`TrioToken.run_sync_soon`, the one entry point trio allows from outside its tasks.

A dropped connection is retried with growing pauses; the `hello` then carries the
resume token from the last `welcome`, and the server answers with the table and a
snapshot of the game, which redraw the screen from scratch.

Each connection has its own codec, and so its own session state: every message is
handed on with the state it led to, and the model keeps no second copy of the table of
transitions.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable
from typing import Any

import trio

from sarja.protocol import ClientCodec, LocalProtocolError, ProtocolError, SessionState
from sarja.protocol.messages import Bye, ClientMessage, Error, Hello, Ping, Pong, ServerMessage

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds between attempts; the last one repeats
CONNECT_TIMEOUT = 5.0
SILENCE_LIMIT = 35.0  # the server pings every 10 s; this long without a byte is a dead link
RECEIVE_SIZE = 65536


def parse_address(text: str, default_port: int = 7474) -> tuple[str, int]:
    """ "host:port", "host", "[::1]:7474" -> (host, port); ValueError when malformed."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":") or str(default_port)
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, str(default_port)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not a host:port address: {text!r}")
    return host, int(port)


class Link:
    """One player's connection. Runs (and reconnects) until cancelled or told to stop.

    `hello()` returns the greeting to send, or None until the player has a name;
    `on_message(msg, state)` gets every server message and the session state it led
    to; `on_link(kind, text)` hears about the connection: connecting, unreachable,
    online, reconnecting or closed.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        hello: Callable[[], Hello | None],
        on_message: Callable[[ServerMessage, SessionState], None],
        on_link: Callable[[str, str], None],
        backoff: tuple[float, ...] = BACKOFF,
    ) -> None:
        self.host, self.port = host, port
        self._hello = hello
        self._on_message = on_message
        self._on_link = on_link
        self._backoff = backoff
        self._token: trio.lowlevel.TrioToken | None = None
        self._outgoing: trio.MemorySendChannel[ClientMessage] | None = None
        self._wake = trio.Event()
        self._stream: trio.SocketStream | None = None
        self._stop_reason: str | None = None
        self.connections = 0  # how many times a connection was made (tests look)
        self.resumed = False  # the last hello carried a resume token

    # ----- called from anywhere in the thread (the app's key handlers) -------------

    def send(self, msg: ClientMessage) -> None:
        """Queue a message for the server; dropped (with a note) while disconnected."""
        self._soon(self._send_now, msg)

    def retry_now(self) -> None:
        """Stop waiting out the backoff and try to connect at once."""
        self._soon(self._wake_up)

    def greet(self) -> None:
        """The player has chosen a name: the hello can go."""
        self._soon(self._wake_up)

    def drop(self) -> None:
        """Close the socket as if the network failed (for tests and the bench)."""
        self._soon(self._drop_now)

    def _soon(self, fn: Callable[..., None], *args: Any) -> None:
        if self._token is not None:
            self._token.run_sync_soon(fn, *args)

    # ----- inside trio --------------------------------------------------------------

    def _send_now(self, msg: ClientMessage) -> None:
        if self._outgoing is None:
            return  # not connected: the screen already says so
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
            self._outgoing.send_nowait(msg)

    def _wake_up(self) -> None:
        self._wake.set()

    def _drop_now(self) -> None:
        if self._stream is not None:
            self._stream.socket.close()

    async def run(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        attempt = 0
        greeted = False
        while self._stop_reason is None:
            if attempt:
                pause = self._backoff[min(attempt - 1, len(self._backoff) - 1)]
                self._on_link(
                    "unreachable" if not greeted else "reconnecting",
                    self._wait_text(attempt, pause),
                )
                await self._pause(pause)
            self._on_link("connecting" if not greeted else "reconnecting", "")
            try:
                with trio.fail_after(CONNECT_TIMEOUT):
                    stream = await trio.open_tcp_stream(self.host, self.port)
            except (OSError, trio.TooSlowError) as err:
                attempt += 1
                self._last_error = _reason(err)
                continue
            attempt = 0
            self.connections += 1
            said_hello = await self._serve(stream)
            greeted = greeted or said_hello
            if not said_hello:
                await trio.sleep(0.2)  # hung up on before the hello: no tight loop
            if self._stop_reason is None and said_hello:
                attempt = 1  # a drop after a good session: tell the player, then retry
                self._last_error = "the connection dropped"
        self._on_link("closed", self._stop_reason or "")

    _last_error = ""

    def _wait_text(self, attempt: int, pause: float) -> str:
        where = f"{self.host}:{self.port}"
        return (
            f"Cannot reach {where} ({self._last_error}). "
            f"Trying again in {math.ceil(pause)} s (attempt {attempt + 1}); r retries now."
        )

    async def _pause(self, seconds: float) -> None:
        self._wake = trio.Event()
        with trio.move_on_after(seconds):
            await self._wake.wait()

    async def _serve(self, stream: trio.SocketStream) -> bool:
        """Run one connection to its end; True if it got as far as the hello."""
        codec = ClientCodec()
        send, receive = trio.open_memory_channel[ClientMessage](256)
        self._stream = stream
        hello_sent = False
        try:
            async with stream:
                self._on_link("online", "")
                hello = self._hello()
                if hello is None:
                    # Wait for a name before the hello. The server allows 10 s for it, so
                    # a player still typing may be hung up on, and is connected afresh.
                    async with trio.open_nursery() as waiting:
                        waiting.start_soon(_close_when_eof, stream, waiting.cancel_scope)
                        while (hello := self._hello()) is None:
                            self._wake = trio.Event()
                            await self._wake.wait()
                        waiting.cancel_scope.cancel()
                    if hello is None:
                        return False
                await stream.send_all(codec.send(hello))
                self.resumed = hello.resume is not None
                hello_sent = True
                async with trio.open_nursery() as nursery:
                    self._outgoing = send
                    nursery.start_soon(self._write_all, stream, codec, receive)
                    await self._read_all(stream, codec)
                    nursery.cancel_scope.cancel()
        except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass  # the connection is gone; run() decides whether to try again
        finally:
            self._outgoing = None
            self._stream = None
        return hello_sent

    async def _write_all(
        self,
        stream: trio.SocketStream,
        codec: ClientCodec,
        queue: trio.MemoryReceiveChannel[ClientMessage],
    ) -> None:
        async for msg in queue:
            try:
                data = codec.send(msg)
            except LocalProtocolError as err:
                # Our state says the message cannot be sent now (e.g. the game just
                # ended): tell the player instead of sending something refused. A lobby
                # refresh overtaken by a resumed table is simply not needed any more.
                if msg.TYPE != "list_tables":
                    self._on_link("online", f"Not now: {err.message}")
                continue
            await stream.send_all(data)

    async def _read_all(self, stream: trio.SocketStream, codec: ClientCodec) -> None:
        while True:
            with trio.move_on_after(SILENCE_LIMIT) as silent:
                data = await stream.receive_some(RECEIVE_SIZE)
            if silent.cancelled_caught:
                return  # the server went quiet: treat it as a dropped connection
            codec.receive_data(data)
            while True:
                try:
                    msg = codec.next_message()
                except ProtocolError as err:
                    self._on_link("online", f"The server sent something odd: {err.message}")
                    if getattr(err, "fatal", False):
                        return
                    continue
                if msg is None:
                    break
                if not self._handle(msg, codec.state):
                    return
            if not data:
                return

    def _handle(self, msg: ServerMessage, state: SessionState) -> bool:
        """Deal with what is the link's business, pass the rest on; False to hang up."""
        if isinstance(msg, Ping):
            self._send_now(Pong(n=msg.n))
            return True
        if isinstance(msg, Pong):
            return True
        if isinstance(msg, Error) and msg.code == "unknown_resume":
            # The server no longer knows us (it restarted, or we held no seat): start over.
            hello = self._hello()
            if hello is not None:
                self.resumed = False
                self._send_now(Hello(version=hello.version, name=hello.name, resume=None))
            return True
        self._on_message(msg, state)
        if isinstance(msg, Bye) and msg.code in ("replaced", "shutdown"):
            self._stop_reason = msg.message
            return False
        return not (isinstance(msg, Error) and msg.fatal)


async def _close_when_eof(stream: trio.SocketStream, scope: trio.CancelScope) -> None:
    """While waiting for a name, notice the server hanging up."""
    try:
        while await stream.receive_some(RECEIVE_SIZE):
            pass
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    scope.cancel()


def _reason(err: BaseException) -> str:
    """A few words on why connecting failed ("connection refused", "no answer")."""
    if isinstance(err, trio.TooSlowError):
        return "no answer"
    cause = err.__cause__
    # trio tries every address and reports the failures as a group under its own error.
    while isinstance(cause, BaseExceptionGroup) and cause.exceptions:
        cause = cause.exceptions[0]
    for e in (cause, err):
        if isinstance(e, OSError) and e.errno:
            return os.strerror(e.errno).lower()
    return str(err) or type(err).__name__
