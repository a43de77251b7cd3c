"""The Sarja wire protocol: framed msgpack, typed messages, strict validation. Sans-IO.

    codec = ServerCodec()           # or ClientCodec() on the other end
    codec.receive_data(data)        # bytes from the socket; b"" at end of stream
    while (msg := codec.next_message()) is not None:
        ...                         # a validated, frozen message
    sock.send(codec.send(reply))    # bytes to write

Errors are ProtocolError: RemoteProtocolError when the peer is at fault (answer it with
`error_reply(exc)`; close if `exc.fatal`), LocalProtocolError when we are.

The names below load on first use, so that `sarja.protocol.cards`, the card and board
constants the rules engine shares, can be imported without msgpack.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .codec import ClientCodec, ServerCodec, error_reply
    from .errors import CODES, LocalProtocolError, ProtocolError, RemoteProtocolError
    from .limits import PROTOCOL_VERSION
    from .session import Session, SessionState

_WHERE = {
    "ClientCodec": "codec",
    "ServerCodec": "codec",
    "error_reply": "codec",
    "CODES": "errors",
    "LocalProtocolError": "errors",
    "ProtocolError": "errors",
    "RemoteProtocolError": "errors",
    "PROTOCOL_VERSION": "limits",
    "Session": "session",
    "SessionState": "session",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{module}", __name__), name)


__all__ = [
    "CODES",
    "PROTOCOL_VERSION",
    "ClientCodec",
    "LocalProtocolError",
    "ProtocolError",
    "RemoteProtocolError",
    "ServerCodec",
    "Session",
    "SessionState",
    "error_reply",
]
