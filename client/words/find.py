"""Words of the finder: the servers found on the LAN (sarja-client with no address),
what to do when none is found, and sarja-bot's lines about the servers it found."""

from __future__ import annotations

from sarja.lang import N_, _, ngettext, translated
from sarja.protocol.limits import DEFAULT_PORT

TITLE = N_("Sarja servers on this network")
LOOKING = N_("Looking for Sarja servers on this network…")
YOUR_SEAT = N_("your seat")
NEW_KEY = N_("new to you: compare its key")
OTHER_KEY = N_("NOT THE KEY IT HAD: impostor?")
OTHER_VERSION = N_("another version")


def waiting(count: int | None) -> str:
    if count is None:
        return ""
    if count == 0:
        return _("no table waiting")
    return ngettext("{n} table waiting", "{n} tables waiting", count).format(n=count)


def nothing_found(seconds: int, client: str) -> list[str]:
    """No server answered: the usual causes, and the way that always works."""
    return [
        ngettext(
            "No Sarja server answered in {n} second. Usually that is because:",
            "No Sarja server answered in {n} seconds. Usually that is because:",
            seconds,
        ).format(n=seconds),
        "  • " + _("the server is on another network (another Wi-Fi, a guest network, a VPN);"),
        "  • " + _("a firewall (here, on the server, in the router) drops multicast DNS;"),
        "  • " + _("the server was started with --no-discovery, or is not running yet."),
        _("The server prints the line to type: quit (q) and join by its address, like"),
        f"    {client} 192.168.1.20:{DEFAULT_PORT}",
        _("This list keeps looking meanwhile: a server found later shows up here."),
    ]


def find_keys(any_found: bool) -> list[tuple[str, str]]:
    if any_found:
        return [("↑↓", _("choose")), ("Enter", _("join")), ("q", _("quit"))]
    return [("q", _("quit"))]


# ----- sarja-bot -------------------------------------------------------------------------


BOT_JOINS = N_("found {name!r} at {address} on the LAN; joining it")
BOT_NONE = N_(
    "found no Sarja server on the LAN (another network, or a firewall that drops"
    " multicast?); give its address, like: {example}"
)


def bot_several(count: int) -> str:
    return ngettext(
        "found {n} Sarja server on the LAN; say which, by address, as one of these:",
        "found {n} Sarja servers on the LAN; say which, by address, as one of these:",
        count,
    ).format(n=count)


BOT_BY_NAME = N_("or by the name in brackets: --server-name NAME, with the rest as you typed it.")


translated(__name__)
