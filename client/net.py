"""The connection to the server: trio, the one client session, and reconnecting.

The client's networking is trio code, like the server's, run in trio's *guest mode* on
the asyncio loop that prompt_toolkit drives (see app.py): one thread, so the link calls
back into the model directly and the screen never sees a half-applied message. Calls
from the asyncio side into trio (`send`, `retry_now`, `greet`) go through the run's
`TrioToken.run_sync_soon`, the one entry point trio allows from outside its tasks.

Every connection says `hello` with the name (and the person key, and a bot's level)
only; what to do next (take back a seat with a remembered token, or look at the
lobby) is the model's call, made from the `welcome` and the server's identity in it
(resume.py). sarja-bot runs the same link (bot.py), without a screen. A dropped
connection is retried with pauses that double (BACKOFF, up to its last, each cut by a
random part of itself, JITTER, so the players of a restarted server do not all come
back at once); only a connection that served a while (STEADY) brings them back to the
first. What cannot get better by waiting stops the retries until the player asks (r):
an unknown host, or a peer that is not a Sarja server (it answers something else, or
nothing, to the hello). `bye` `replaced` and a fatal error end the link for good.

A message the model cannot use (`on_message` raises `ServerProtocolError`: a seat the
table lacks, cards that do not add up), a frame the codec refuses as fatal (too large,
empty: `on_link("unusable", why)` says which) or, from a server that welcomed us
before, an answer to the hello that is no welcome, is the server's fault, never the
client's crash: the link hangs up and connects afresh, and the resumed seat brings a
snapshot. A server that keeps doing it (UNUSABLE_LIMIT connections in a row) is not
retried until the player asks.

The protocol is the client session's (protocol/client_session.py), which the model
owns and hands to the link: each connection starts it afresh (`connect`: a new codec,
and so a new session state) and feeds it the bytes; every message is handed on with
the state it led to, for the model to take in (`session.take`: the game, sync on a
gap, pongs), and the model keeps no second copy of the table of transitions.
"""

from __future__ import annotations

import contextlib
import math
import random
import re
import socket
from collections.abc import Callable
from typing import Any

import trio

from sarja.protocol.client_session import ClientSession
from sarja.protocol.errors import LocalProtocolError, ProtocolError
from sarja.protocol.limits import DEFAULT_PORT, PROTOCOL_VERSION
from sarja.protocol.messages import (
    Bye,
    ClientMessage,
    Error,
    Hello,
    ServerMessage,
    Welcome,
)
from sarja.protocol.mirror import ServerProtocolError
from sarja.protocol.session import SessionState

from .tls import Heard, Secure, fingerprint, secure
from .words import connect, refusals

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds between attempts; the last one repeats
JITTER = 0.5  # each pause is cut by up to this part of itself, at random
STEADY = 30.0  # seconds a welcomed connection lasts for the pauses to start afresh
CONNECT_TIMEOUT = 5.0
WELCOME_TIMEOUT = 5.0  # a Sarja server answers a hello at once; silence means it is not one
SILENCE_LIMIT = 35.0  # the server pings after 20 s of quiet; this long silent is a dead link
RECEIVE_SIZE = 65536
UNUSABLE_LIMIT = 3  # connections in a row that brought an unusable message: stop trying

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """ "host:port", "host", "[::1]:7474", "::1", and the same written as a URL
    ("http://host:port/") -> (host, port); ValueError when malformed."""
    text = _SCHEME.sub("", text.strip()).split("/", 1)[0]
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":") or str(default_port)
        if rest and not rest.startswith(":"):
            raise ValueError(f"not a host:port address: {text!r}")
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:  # a bare host, or a bare IPv6 address
        host, port = text, str(default_port)
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or " " in host:
        raise ValueError(f"not a host:port address: {text!r}")
    return host, int(port)


def address_text(host: str, port: int) -> str:
    """How people write the address: host:port, [v6]:port."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class NotSarja(Exception):
    """The peer answered the hello with something no Sarja server sends."""


class Link:
    """One player's connection. Runs (and reconnects) until cancelled.

    `name()` returns the player's name, or None until they have one; `on_message(msg,
    state)` gets every server message and the session state it led to, and takes it
    into `session` (the model's `apply` does: that answers pings too); `on_link(kind,
    text)` hears about the connection: connecting, unreachable, online, reconnecting,
    stopped or closed (and, while online, problems worth a line), or that the
    connection is hung up on for a frame it could not use (unusable, and why).
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: Callable[[], str | None],
        on_message: Callable[[ServerMessage, SessionState], None],
        on_link: Callable[[str, str], None],
        backoff: tuple[float, ...] = BACKOFF,
        welcome_timeout: float = WELCOME_TIMEOUT,
        session: ClientSession | None = None,
        person: Callable[[str], str | None] = lambda where: None,
        computer: str | None = None,
    ) -> None:
        """`person(fingerprint)`: the person key to say hello with to the server that
        proved it holds that key (the TLS handshake: `fingerprint`);
        `computer`, the level a computer player (sarja-bot) says in its hello."""
        self.host, self.port = host, port
        self.computer = computer
        self.session = session if session is not None else ClientSession()
        self.where = address_text(host, port)
        self._name = name
        self._person = person
        self.person_sent: str | None = None  # the key the last hello carried
        self._on_message = on_message
        self._on_link = on_link
        self._backoff = backoff
        self._welcome_timeout = welcome_timeout
        self._token: trio.lowlevel.TrioToken | None = None
        self._outgoing: trio.MemorySendChannel[ClientMessage] | None = None
        self._wake = trio.Event()
        self._stream: Secure | None = None
        self._tcp: trio.SocketStream | None = None  # the connection's, under its TLS
        self.fingerprint = ""  # the key the server proved it holds on the last connection
        self._closed: str | None = None  # why the link ended for good
        self._stopped: str | None = None  # why it waits for the player before trying again
        self._stopped_gist = ""  # ... in a few words, for the line that says we try again
        self._last_error = ""
        self.unreachable = ""  # why the last try failed, without "trying again"
        self._server_said = ""  # why the server closed on us (bye), until it greets again
        self._unusable = 0  # connections in a row ended by a message we could not use
        self._firm = False  # the stop holds even after a welcome (see `run`)
        self._greeted = False  # a welcome came on some connection: now we *re*connect
        self._random = random.Random()
        self.connections = 0  # how many times a connection was made (tests look)

    @property
    def last_error(self) -> str:
        """Why the last try failed, in a few words ("connection refused")."""
        return self._last_error

    # ----- called from anywhere in the thread (the app's key handlers) -------------

    def send(self, msg: ClientMessage) -> None:
        """Queue a message for the server."""
        self._soon(self._send_now, msg)

    def retry_now(self) -> None:
        """Stop waiting (out the backoff, or for the player) and connect at once."""
        self._soon(self._wake_up)

    def greet(self) -> None:
        """The player has chosen a name: the hello can go."""
        self._soon(self._wake_up)

    def refuse(self, why: str, gist: str) -> None:
        """The player's side refuses this server (a key other than it showed before):
        hang up, send nothing more, and wait for the player (`why`; `gist` in short)."""
        self._firm = True
        self._stop(why, gist)
        self._last_error = gist

    def drop(self) -> None:
        """Close the socket as if the network failed (for tests and the bench)."""
        self._soon(self._drop_now)

    def _soon(self, fn: Callable[..., None], *args: Any) -> None:
        if self._token is None:
            return
        # After the run has ended (the app is closing) there is nothing to tell it.
        with contextlib.suppress(trio.RunFinishedError):
            self._token.run_sync_soon(fn, *args)

    # ----- inside trio --------------------------------------------------------------

    def _send_now(self, msg: ClientMessage) -> None:
        if self._outgoing is None:
            self._on_link("online", connect.NOT_CONNECTED_NOW)
            return
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
            self._outgoing.send_nowait(msg)

    def _stop(self, why: str, gist: str) -> None:
        """Wait for the player before trying again, for reason `why` (`gist` in short)."""
        self._stopped, self._stopped_gist = why, gist

    def _wake_up(self) -> None:
        self._stopped, self._firm = None, False
        self._wake.set()

    def _drop_now(self) -> None:
        if self._tcp is not None:
            self._tcp.socket.close()

    async def run(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        attempt = 0  # tries since the last steady connection: the pause grows with them
        while self._closed is None:
            attempt = await self._before_try(attempt)
            self._on_link("reconnecting" if self._greeted else "connecting", "")
            try:
                with trio.fail_after(CONNECT_TIMEOUT):
                    stream = await trio.open_tcp_stream(self.host, self.port)
            except socket.gaierror as err:
                self._stop(_unknown_host(self.host, err), connect.NO_NAME_GIST)
                continue
            except (OSError, trio.TooSlowError) as err:
                attempt += 1
                self._last_error = _reason(err)
                continue
            self.connections += 1
            tls = await self._secure(stream)
            if tls is None:
                if self._stopped is None:
                    attempt += 1
                continue
            unusable = self._unusable
            began = trio.current_time()
            ended = await self._serve(tls)
            if self._unusable == unusable:
                self._unusable = 0  # this connection was fine: start counting afresh
                if ended == "welcomed" and trio.current_time() - began >= STEADY:
                    attempt = 0  # it served: a drop now is tried again soon
            self._greeted = self._greeted or ended == "welcomed"
            if ended == "nameless":
                attempt = 0
                await trio.sleep(0.2)  # hung up on while the name was typed: connect afresh
            elif self._closed is None and self._stopped is None:
                attempt += 1  # tell the player, then try again
        self._on_link("closed", self._closed)
        await trio.sleep_forever()  # the app may still call in: keep the run alive

    async def _before_try(self, attempt: int) -> int:
        """Wait as long as `attempt` tries in a row call for (or, stopped, until the
        player asks again); the count of tries to go on with."""
        greeted = self._greeted
        if self._stopped is not None and greeted and not self._firm:
            # Once this address led to our server, what looks wrong now (a name
            # not found, something else answering) may be passing: keep trying.
            self._last_error, self._stopped = self._stopped_gist, None
            self._server_said = ""
            attempt = max(attempt, 1)
        if self._stopped is not None:
            self._on_link("stopped", self._stopped)
            await self._pause(math.inf)
            return 0
        if attempt:
            pause = self._backoff[min(attempt - 1, len(self._backoff) - 1)]
            pause *= 1 - JITTER * self._random.random()
            self._on_link(
                "reconnecting" if greeted else "unreachable", self._wait_text(pause, greeted)
            )
            await self._pause(pause)
        return attempt

    def _wait_text(self, pause: float, greeted: bool) -> str:
        self.unreachable = connect.unreachable(self.where, self._last_error, self._server_said)
        return connect.waiting(
            self.where, self._last_error, self._server_said, greeted, math.ceil(pause)
        )

    async def _pause(self, seconds: float) -> None:
        self._wake = trio.Event()
        with trio.move_on_after(seconds):
            await self._wake.wait()

    async def _secure(self, tcp: trio.SocketStream) -> Secure | None:
        """TLS over `tcp`, and the fingerprint of the server's key; None (and why) if
        the handshake failed: a peer that does not speak TLS is not a Sarja server of
        this version (what it said tells which)."""
        heard = Heard(tcp)
        self._tcp = tcp
        try:
            with trio.move_on_after(self._welcome_timeout):
                stream = await secure(heard)
                self.fingerprint = fingerprint(stream)
                return stream
            self._stop(connect.NO_SARJA_ANSWER.format(where=self.where), connect.ELSE_GIST)
        except trio.BrokenResourceError as err:
            if heard.seen:
                self._stop(_not_sarja(self.where, heard.seen), connect.ELSE_GIST)
            else:
                self._last_error = _reason(err)
        self._tcp = None
        await trio.aclose_forcefully(tcp)
        return None

    async def _serve(self, stream: Secure) -> str:
        """Run one connection to its end: "welcomed" if the server welcomed us on it,
        "nameless" if it hung up before we had a name, else "failed"."""
        session = self.session
        session.connect(self.fingerprint)
        send, receive = trio.open_memory_channel[ClientMessage](256)
        self._stream = stream
        ended = "failed"
        self._last_error = connect.CLOSED_GIST
        try:
            async with stream:
                self._on_link("online", "")
                if self._name() is None:
                    # Wait for a name before the hello. The server allows 10 s for it,
                    # so a player still typing may be hung up on, and is connected afresh.
                    async with trio.open_nursery() as waiting:
                        waiting.start_soon(_close_when_eof, stream, waiting.cancel_scope)
                        while self._name() is None:
                            self._wake = trio.Event()
                            await self._wake.wait()
                        waiting.cancel_scope.cancel()
                    if self._name() is None:
                        return "nameless"
                name = self._name()
                assert name is not None
                self.person_sent = self._person(self.fingerprint)
                hello = Hello(
                    version=PROTOCOL_VERSION, name=name, person=self.person_sent,
                    computer=self.computer,
                )  # fmt: skip
                await stream.send_all(session.send(hello))
                first = await self._handshake(stream, session)
                if first is None:
                    return ended
                ended = "welcomed"
                self._server_said = ""
                async with trio.open_nursery() as nursery:
                    self._outgoing = send
                    nursery.start_soon(self._write_all, stream, session, receive)
                    if self._deliver(first, session.state):
                        await self._read_all(stream, session)
                    nursery.cancel_scope.cancel()
        except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as group:
            self._last_error = _reason(group.exceptions[0])
        finally:
            self._outgoing = None
            self._stream = self._tcp = None
        return ended

    async def _handshake(self, stream: trio.abc.Stream, session: ClientSession) -> Welcome | None:
        """The answer to the hello: a welcome, or None (and why) if none came."""
        seen = b""
        with trio.move_on_after(self._welcome_timeout):
            while True:
                data = bytes(await stream.receive_some(RECEIVE_SIZE))
                seen += data[: 200 - len(seen)]
                try:
                    session.receive_data(data)
                    while (msg := session.next_message()) is not None:
                        if isinstance(msg, Welcome):
                            return msg
                        if isinstance(msg, Bye | Error):
                            self._on_message(msg, session.state)
                            if isinstance(msg, Bye) and msg.code == "server_full":
                                self._last_error = refusals.said(msg.code, msg.message)
                            elif isinstance(msg, Bye) and msg.code in ("shutdown", "idle"):
                                # As after a welcome (`_deliver`): the server may well be
                                # back soon (one shutting down says it to a connection
                                # taken in its last moments): try again after a pause.
                                self._server_said = refusals.said(msg.code, msg.message)
                            else:
                                self._closed = refusals.said(msg.code, msg.message)
                            return None
                        raise NotSarja(connect.NO_WELCOME.format(what=msg.TYPE))
                except (ProtocolError, NotSarja) as err:
                    self._stop(_not_sarja(self.where, seen), connect.ELSE_GIST)
                    if self._greeted:  # our server before: now it sends what we cannot use
                        why = _said(err) if isinstance(err, ProtocolError) else str(err)
                        self._unusable_now(why)
                    return None
                if not data:
                    self._stop(connect.HUNG_UP.format(where=self.where), connect.HUNG_UP_GIST)
                    return None
        self._stop(connect.NO_SARJA_ANSWER.format(where=self.where), connect.ELSE_GIST)
        return None

    async def _write_all(
        self,
        stream: trio.abc.Stream,
        session: ClientSession,
        queue: trio.MemoryReceiveChannel[ClientMessage],
    ) -> None:
        async for msg in queue:
            try:
                data = session.send(msg)
            except LocalProtocolError as err:
                # Our state says the message cannot be sent now (e.g. the game just
                # ended): tell the player instead of sending something refused.
                if msg.TYPE != "list_tables":
                    self._on_link("online", connect.NOT_NOW.format(why=err.message))
                continue
            await stream.send_all(data)

    async def _read_all(self, stream: trio.abc.Stream, session: ClientSession) -> None:
        while True:
            while True:  # first what the codec holds already
                try:
                    msg = session.next_message()
                except ProtocolError as err:
                    if err.fatal:
                        self._broken(err)
                        return
                    self._on_link("online", connect.ODD.format(why=err.message))
                    continue
                if msg is None:
                    break
                if not self._deliver(msg, session.state):
                    return
            if session.at_eof:
                return
            with trio.move_on_after(SILENCE_LIMIT) as silent:
                data = bytes(await stream.receive_some(RECEIVE_SIZE))
            if silent.cancelled_caught:
                self._last_error = connect.QUIET_GIST
                return
            try:
                session.receive_data(data)
            except ProtocolError as err:  # a length no frame may have: refused before its body
                self._broken(err)
                return

    def _deliver(self, msg: ServerMessage, state: SessionState) -> bool:
        """Pass a message on, then deal with what is the link's business; False to hang up."""
        try:
            self._on_message(msg, state)
            if self._stopped is not None and self._firm:
                return False  # refused (`refuse`): not one more message on this connection
        except ServerProtocolError as err:
            self._unusable_now(err.message)
            return False
        if isinstance(msg, Bye):
            if msg.code == "replaced":
                self._closed = refusals.said(msg.code, msg.message)
            else:  # shutdown, idle: the server may well be back soon
                self._server_said = refusals.said(msg.code, msg.message)
            return False
        if isinstance(msg, Error) and msg.fatal:
            self._closed = refusals.said(msg.code, msg.message)
            return False
        return True

    def _broken(self, err: ProtocolError) -> None:
        """A frame no server may send: say why, and hang up (counted as unusable)."""
        why = _said(err)
        self._on_link("unusable", why)
        self._unusable_now(why)

    def _unusable_now(self, why: str) -> None:
        """This connection brought something we cannot use (`why`): it ends, and after
        UNUSABLE_LIMIT such connections in a row the link waits for the player."""
        self._unusable += 1
        self._last_error = connect.UNUSABLE_GIST
        if self._unusable >= UNUSABLE_LIMIT:
            self._firm = True
            self._stop(connect.KEEPS_UNUSABLE.format(where=self.where, why=why), connect.KEEPS_GIST)


def _said(err: ProtocolError) -> str:
    return refusals.said(err.code, err.message)


async def _close_when_eof(stream: trio.abc.Stream, scope: trio.CancelScope) -> None:
    """While waiting for a name, notice the server hanging up."""
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        while await stream.receive_some(RECEIVE_SIZE):
            pass
    scope.cancel()


def _not_sarja(where: str, seen: bytes) -> str:
    """Words for a peer that answered the hello with something else: an older Sarja
    server (its frame says so), or another program."""
    if _older_sarja(seen):
        return connect.OLDER_SERVER.format(where=where)
    first = seen.split(b"\n", 1)[0].decode("utf-8", "replace")
    first = "".join(ch for ch in first if ch.isprintable()).strip()[:48]
    return connect.not_sarja(where, first if len(first) >= 3 else "")


def _older_sarja(seen: bytes) -> bool:
    """Whether `seen` (the answer to a TLS greeting) is a Sarja frame: a server older
    than TLS refusing what it took for a frame."""
    session = ClientSession()
    try:
        session.receive_data(seen)
        return isinstance(session.next_message(), Error)
    except ProtocolError:
        return False


def _unknown_host(host: str, err: socket.gaierror) -> str:
    if err.errno in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)):
        return connect.UNKNOWN_HOST.format(host=host, port=DEFAULT_PORT)
    if err.errno == socket.EAI_AGAIN:
        return connect.LOOKUP_LATER.format(host=host)
    return connect.LOOKUP_FAILED.format(host=host, why=str(err.strerror or err))


def _reason(err: BaseException) -> str:
    """A few words on why connecting failed ("connection refused", "no answer")."""
    if isinstance(err, trio.TooSlowError):
        return connect.NO_ANSWER
    if isinstance(err, trio.BrokenResourceError | trio.ClosedResourceError):
        return connect.BROKE
    cause = err.__cause__
    # trio tries every address and reports the failures as a group under its own error.
    while isinstance(cause, BaseExceptionGroup) and cause.exceptions:
        cause = cause.exceptions[0]
    for e in (cause, err):
        if isinstance(e, OSError) and e.errno and e.errno > 0:
            return connect.os_reason(e.errno)
    return connect.FAILED
