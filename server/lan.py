"""This machine's addresses on the LAN, found without sending a packet."""

from __future__ import annotations

import contextlib
import socket
import struct
import sys


def _linux_interface_addresses() -> list[str]:
    import fcntl  # POSIX only; imported here so other platforms still load the module

    siocgifaddr = 0x8915
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            packed = struct.pack("256s", name.encode()[:15])
            with contextlib.suppress(OSError):
                reply = fcntl.ioctl(probe.fileno(), siocgifaddr, packed)
                found.append(socket.inet_ntoa(reply[20:24]))
    return found


def lan_addresses() -> list[str]:
    """IPv4 addresses other machines on the LAN may reach this one at."""
    found: list[str] = []
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            found = _linux_interface_addresses()
    if not found:
        with contextlib.suppress(OSError):
            found = [
                str(info[4][0])
                for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            ]
    usable = [a for a in dict.fromkeys(found) if not a.startswith("127.")]
    return usable
