"""The Sarja wire protocol: framed msgpack, typed messages, strict validation. Sans-IO.

    codec = ServerCodec()           # or ClientCodec() on the other end
    codec.receive_data(data)        # bytes from the socket; b"" at end of stream
    while (msg := codec.next_message()) is not None:
        ...                         # a validated, frozen message
    sock.send(codec.send(reply))    # bytes to write

Errors are ProtocolError: RemoteProtocolError when the peer is at fault (answer it with
`error_reply(exc)`; close if `exc.fatal`), LocalProtocolError when we are.
"""

from .codec import ClientCodec, ServerCodec, error_reply
from .errors import CODES, LocalProtocolError, ProtocolError, RemoteProtocolError
from .limits import PROTOCOL_VERSION
from .session import Session, SessionState

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
