"""Opening python-zeroconf on chosen interfaces, for the server's announcement and the
client's search alike: every interface, or only the one with a given address (such as
127.0.0.1, for this machine alone)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from typing import Any


def interfaces_for(addresses: list[str] | None) -> Any:
    """zeroconf's `interfaces` argument: None means every interface."""
    from zeroconf import InterfaceChoice

    return InterfaceChoice.All if addresses is None else list(addresses)


def loopback_only(addresses: list[str] | None) -> bool:
    return bool(addresses) and all(ipaddress.ip_address(a).is_loopback for a in addresses or ())


def keep_to_loopback(zc: Any) -> None:
    """Hold zeroconf's shared listening socket to the loopback device. Bound to every
    address (multicast needs it), it would otherwise hear another interface's packets
    and could answer one through itself (a unicast reply goes back by the socket it
    came in on); its per-interface senders, bound to 127.0.0.1, cannot leave loopback
    anyway. Where the system refuses, the interface choice alone stands."""
    engine = getattr(zc, "engine", None)
    sockets = [getattr(engine, "_listen_socket", None)]
    sockets += [getattr(t, "sock", None) for t in getattr(engine, "readers", [])]
    for sock in sockets:
        # Readers hold asyncio's stand-in for the socket, which has setsockopt too.
        if sock is not None and hasattr(socket, "SO_BINDTODEVICE"):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"lo")
