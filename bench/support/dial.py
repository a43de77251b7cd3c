"""How a bench opens a connection to a server it started: every bench dials through here,
so the transport (TLS over TCP, as the clients speak it) changes in one place."""

from __future__ import annotations

from collections import Counter

import trio

from sarja.client.tls import secure

WIRE = "wire"  # the key of a tally's bytes as they crossed TCP (TLS records and all)


class Counted(trio.abc.Stream):
    """A TCP stream that adds every byte it receives to `tally[WIRE]`: what the server
    sent, TLS's own bytes included."""

    def __init__(self, stream: trio.SocketStream, tally: Counter[str]) -> None:
        self.stream, self.tally = stream, tally

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        data = await self.stream.receive_some(max_bytes)
        self.tally[WIRE] += len(data)
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


async def dial(
    port: int, *, source: str | None = None, tally: Counter[str] | None = None
) -> trio.SSLStream[trio.abc.Stream]:
    """A TLS stream, its handshake done, to the server on 127.0.0.1:`port`, from the
    loopback address `source`; `tally`: counts the bytes received on the wire (`WIRE`)."""
    tcp = await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
    transport: trio.abc.Stream = tcp if tally is None else Counted(tcp, tally)
    try:
        return await secure(transport)
    except BaseException:
        await trio.aclose_forcefully(tcp)
        raise
