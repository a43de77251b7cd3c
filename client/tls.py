"""The client's end of TLS: encrypted, and the server known by its key's fingerprint.

No certificate authority vouches for a server on a LAN, so the certificate is not
checked against one: the client reads the fingerprint of the key the server proved it
holds in the handshake (`fingerprint`) and compares it with the one it remembers for
that server (pins.py), as SSH does. Until then it sends nothing secret.
"""

from __future__ import annotations

import ssl
from functools import cache
from typing import Any, TypeVar

import trio

from sarja.protocol.fingerprint import of_certificate

S = TypeVar("S", bound=trio.abc.Stream)
SEEN = 200  # bytes of a peer's first answer kept, to tell what it is


class Heard(trio.abc.Stream):
    """A stream that keeps the first bytes it received (`seen`): what a peer that does
    not speak TLS answered instead, for the words that say what it is."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.seen = b""

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        data = await self.stream.receive_some(max_bytes)
        if len(self.seen) < SEEN:
            self.seen += data[: SEEN - len(self.seen)]
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


Secure = trio.SSLStream[Heard]


@cache
def context() -> ssl.SSLContext:
    made = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    made.minimum_version = ssl.TLSVersion.TLSv1_3
    # Pinning (the fingerprint) checks the server; there is no authority or name to check.
    made.check_hostname = False
    made.verify_mode = ssl.CERT_NONE
    return made


async def secure(stream: S) -> trio.SSLStream[S]:
    """TLS over `stream`, its handshake done (BrokenResourceError if it failed)."""
    # https_compatible: the end of the TCP stream ends the connection, close_notify or
    # not (frames carry their length, so a cut one is seen).
    tls = trio.SSLStream(stream, context(), https_compatible=True)
    await tls.do_handshake()
    return tls


def fingerprint(stream: trio.SSLStream[Any]) -> str:
    """The fingerprint of the key the server proved it holds (after the handshake)."""
    der = stream.getpeercert(binary_form=True)
    if not der:
        raise trio.BrokenResourceError("the server showed no certificate")
    try:
        return of_certificate(der)
    except ValueError as err:
        raise trio.BrokenResourceError("the server's certificate cannot be read") from err
