"""How a test opens a connection to a server it started: every test dials through here,
so the transport (TLS over TCP, as the clients speak it) changes in one place."""

from __future__ import annotations

import socket
import ssl

import trio

from sarja.client.tls import context, secure


async def dial(
    port: int, *, source: str | None = None, receive_buffer: int | None = None
) -> trio.SSLStream[trio.abc.Stream]:
    """A TLS stream, its handshake done, to the server on 127.0.0.1:`port`, from the
    loopback address `source`; `receive_buffer`: the socket's SO_RCVBUF (a client that
    reads slowly)."""
    if receive_buffer is None:
        tcp = await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
    else:
        sock = trio.socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        if source is not None:
            await sock.bind((source, 0))
        await sock.connect(("127.0.0.1", port))
        tcp = trio.SocketStream(sock)
    try:
        return await secure(tcp)
    except BaseException:
        await trio.aclose_forcefully(tcp)
        raise


def dial_blocking(port: int, timeout: float | None = None) -> ssl.SSLSocket:
    """The same, as a blocking socket (for a test's thread or child process)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return context().wrap_socket(sock)
