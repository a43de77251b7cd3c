"""The two ends of a connection: bytes in, messages out; messages in, bytes out.

`ServerCodec` decodes client messages and encodes server ones; `ClientCodec` the reverse.
Neither does I/O: feed `receive_data`, call `next_message` until it returns None, and
write what `send` returns. Each keeps the session state (see session.py) as messages
pass, so a message sent or received in the wrong state is refused.
"""

from typing import Any, Generic, TypeVar

import msgpack

from .base import WireMap
from .errors import LocalProtocolError, RemoteProtocolError
from .framing import FrameDecoder, encode_frame, pack_length
from .limits import (
    CLIENT_DECODE,
    MAX_CLIENT_FRAME,
    MAX_ID,
    MAX_SERVER_FRAME,
    SERVER_DECODE,
    SUPPORTED_VERSIONS,
)
from .messages import ACTIONS, CLIENT_MESSAGES, SERVER_MESSAGES, ClientMessage, Error, ServerMessage
from .session import SERVER_ALLOWED, TRANSITIONS, Session, SessionState
from .wire import check_shape, loads, shown, unpack_options

In = TypeVar("In", bound=WireMap)  # what this end receives
Out = TypeVar("Out", bound=WireMap)  # what it sends

# One Packer for every codec: packing never waits, so codecs can take turns with it,
# and a connection then holds no packing buffer of its own while it is idle.
_pack = msgpack.Packer(use_bin_type=True).pack

# The server message types that can move a session to another state; the others (an
# ack, an update in play, a hand, a legal list: most of what a server sends) leave it.
_MOVING = frozenset(trigger.split(":")[0] for _, trigger in TRANSITIONS)


class _Codec(Generic[In, Out]):
    """One end, as its class says: its role, the messages each way, the frame limits."""

    _role = ""
    _peer = ""
    _incoming: dict[str, Any] = {}
    _outgoing: dict[str, Any] = {}
    _max_in = 0  # the largest frame the peer may send
    _max_out = 0
    _decode: dict[str, int] = {}  # the peer's bounds for msgpack (limits.py)
    # Forward compatibility, for a client only (docs/protocol.md, "Versions and new
    # fields"): `_open` leaves out the fields it does not know; a type outside
    # `_other_way` is ignored. A server refuses both: its peer may be hostile.
    _open = False
    _other_way: frozenset[str] | None = None  # unknown_type; None: every unknown type

    def __init__(self) -> None:
        self._frames = FrameDecoder(self._max_in)
        self._max_depth = self._decode["max_depth"]
        self._options = unpack_options(**self._decode)
        self._out_types = frozenset(self._outgoing.values())
        self.session = Session(self._role)

    @property
    def state(self) -> SessionState:
        return self.session.state

    @property
    def at_eof(self) -> bool:
        """True once the peer closed the stream and every whole message was taken."""
        return self._frames.at_eof

    @property
    def in_frame(self) -> bool:
        """True while a frame has begun to arrive and is not whole yet."""
        return self._frames.partial

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; b"" means the peer closed the stream."""
        self._frames.receive_data(data)

    def next_message(self) -> In | None:
        """The next message from the peer, or None when more bytes are needed.

        Raises RemoteProtocolError for anything the peer got wrong. Unless the error is
        `fatal`, only that frame is dropped and the next call reads on.
        """
        while True:
            body = self._frames.next_frame()
            if body is None:
                return None
            # In this order: the frame, msgpack, the shape, the type, the version of a
            # greeting, every field, and last the session state (docs/protocol.md, §4).
            obj = check_shape(loads(body, self._options), self._max_depth)
            t = obj["t"]
            cls = self._incoming.get(t)
            if cls is not None:
                break
            if self._other_way is not None and t not in self._other_way:
                continue  # a newer server's message type: ignored, the next is read
            raise RemoteProtocolError(
                "unknown_type", f"{shown(t)} is not a message a {self._role} accepts."
            )
        if t == "hello" or t == "welcome":
            self._check_version(obj.get("version"))
        try:
            msg: In = cls.from_wire(obj, open=self._open)
        except LocalProtocolError as exc:
            raise RemoteProtocolError(exc.code, exc.message, id=_action_id(obj)) from None
        self._received(msg)
        return msg

    def send(self, msg: Out) -> bytes:
        """The bytes to write for `msg`; refuses (LocalProtocolError) what we may not send.

        A refused message changes nothing: the state moves only once the bytes exist.
        The message was validated when it was built, so it is not checked again here.
        """
        if type(msg) not in self._out_types:
            raise LocalProtocolError(
                "unknown_type", f"A {self._role} cannot send {type(msg).__name__}."
            )
        self._check_send(msg)
        frame = self.encode(msg)
        self._sent(msg)
        return frame

    def encode(self, msg: Out) -> bytes:
        """The frame for `msg`, touching no session state: to encode a message once
        and hand it to many connections with `send_encoded`."""
        payload: bytes = _pack(msg.to_wire())
        n = len(payload)
        if not 0 < n <= self._max_out:
            encode_frame(payload, self._max_out)  # raises the framing error
        return pack_length(n) + payload

    def send_encoded(self, msg: Out, frame: bytes) -> bytes:
        """Like `send`, for a frame `encode` already made from `msg` (one update
        encoded once for every member): the same checks and state changes."""
        if type(msg) not in self._out_types:
            raise LocalProtocolError(
                "unknown_type", f"A {self._role} cannot send {type(msg).__name__}."
            )
        self._check_send(msg)
        self._sent(msg)
        return frame

    def sent(self, msg: Out) -> None:
        """`send_encoded` without the frame: the checks and the state change of a
        message whose bytes another codec's `encode` made."""
        self.send_encoded(msg, b"")

    def _check_version(self, v: Any) -> None:
        if type(v) is not int or v not in SUPPORTED_VERSIONS:
            speaks = " or ".join(map(str, SUPPORTED_VERSIONS))
            raise RemoteProtocolError(
                "incompatible_version",
                f"This {self._role} speaks protocol version {speaks} only;"
                f" the {self._peer} sent {v!r:.20}.",
            )

    def _received(self, msg: In) -> None: ...
    def _check_send(self, msg: Out) -> None: ...
    def _sent(self, msg: Out) -> None: ...


class ServerCodec(_Codec[ClientMessage, ServerMessage]):
    """The server's end of one connection: decodes client messages, encodes its own."""

    _role, _peer = "server", "client"
    _incoming, _outgoing = CLIENT_MESSAGES, SERVER_MESSAGES
    _max_in, _max_out, _decode = MAX_CLIENT_FRAME, MAX_SERVER_FRAME, CLIENT_DECODE

    def _received(self, msg: ClientMessage) -> None:
        self.session.check_client(msg)

    def _check_send(self, msg: ServerMessage) -> None:
        self.session.check_server(msg)

    def _sent(self, msg: ServerMessage) -> None:
        self.session.advance(msg)  # _check_send has checked it

    def sent(self, msg: ServerMessage) -> None:
        # The same checks as `send_encoded`, in fewer calls: this runs for every frame
        # to every seat of every move.
        session = self.session
        t = msg.TYPE
        if type(msg) not in self._out_types or t not in SERVER_ALLOWED[session.state]:
            self.send_encoded(msg, b"")  # refuses it (LocalProtocolError)
            return
        if t in _MOVING:
            session.advance(msg)


class ClientCodec(_Codec[ServerMessage, ClientMessage]):
    """The client's end: decodes server messages, encodes its own."""

    _role, _peer = "client", "server"
    _incoming, _outgoing = SERVER_MESSAGES, CLIENT_MESSAGES
    _max_in, _max_out, _decode = MAX_SERVER_FRAME, MAX_CLIENT_FRAME, SERVER_DECODE
    # A client's message type coming from a server is a broken server, not a newer one.
    _open, _other_way = True, frozenset(CLIENT_MESSAGES)

    def _received(self, msg: ServerMessage) -> None:
        self.session.on_server(msg)

    def _check_send(self, msg: ClientMessage) -> None:
        self.session.check_client(msg)


def _action_id(obj: dict[str, Any]) -> int | None:
    """The refused action's id, when it carried a usable one, to echo in the error."""
    i = obj.get("id")
    if obj["t"] in ACTIONS and type(i) is int and 0 <= i <= MAX_ID:
        return i
    return None


def error_reply(exc: RemoteProtocolError) -> Error:
    """The `error` message that answers a refused client message."""
    return Error(code=exc.code, message=exc.message, id=exc.id, fatal=exc.fatal)
