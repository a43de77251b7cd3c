"""How a bench opens a connection to the server it started: every bench dials through
here, so the transport (plain TCP today) changes in one place."""

from __future__ import annotations

import trio


async def dial(port: int, *, source: str | None = None) -> trio.abc.Stream:
    """A stream to the server on 127.0.0.1:`port`, from the loopback address `source`."""
    return await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
