"""Words of the finder: the servers found on the LAN (sarja-client with no address),
what to do when none is found, and sarja-bot's lines about the servers it found."""

from __future__ import annotations

from sarja.protocol.limits import DEFAULT_PORT

TITLE = "Sarja servers on this network"
LOOKING = "Looking for Sarja servers on this network…"
YOUR_SEAT = "your seat"
OTHER_VERSION = "another version"


def waiting(count: int | None) -> str:
    if count is None:
        return ""
    if count == 0:
        return "no table waiting"
    return "1 table waiting" if count == 1 else f"{count} tables waiting"


def nothing_found(seconds: int, client: str) -> list[str]:
    """No server answered: the usual causes, and the way that always works."""
    return [
        f"No Sarja server answered in {seconds} seconds. Usually that is because:",
        "  • the server is on another network (another Wi-Fi, a guest network, a VPN);",
        "  • a firewall (here, on the server, in the router) drops multicast DNS;",
        "  • the server was started with --no-discovery, or is not running yet.",
        "The server prints the line to type: quit (q) and join by its address, like",
        f"    {client} 192.168.1.20:{DEFAULT_PORT}",
        "This list keeps looking meanwhile: a server found later shows up here.",
    ]


def find_keys(any_found: bool) -> list[tuple[str, str]]:
    if any_found:
        return [("↑↓", "choose"), ("Enter", "join"), ("q", "quit")]
    return [("q", "quit")]


# ----- sarja-bot -------------------------------------------------------------------------


def bot_joins(name: str, address: str) -> str:
    return f"found {name!r} at {address} on the LAN; joining it"


def bot_none(client_hint: str) -> str:
    return (
        "found no Sarja server on the LAN (another network, or a firewall that drops"
        f" multicast?); give its address, like: {client_hint}"
    )


def bot_several(count: int) -> str:
    return f"found {count} Sarja servers on the LAN; say which, by address:"
