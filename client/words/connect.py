"""Words of the connection and the name screen: connecting, the connection's troubles,
the name asked for, and what became of what the player did while it was down."""

from __future__ import annotations

from sarja.lang import N_, _, translated
from sarja.protocol.limits import MAX_NAME

CONNECTED_AGAIN = N_("Connected again.")
DROPPED = N_("The connection dropped; reconnecting…")
NOT_CONNECTED = N_("Not connected just now, so nothing was sent; try again once it is back.")
CHAT_KEPT = N_("Not connected: your line will be sent when the connection is back.")
NAME_FIRST = N_("Type a name first.")


def unusable(what: str) -> str:
    """The server said something no game can be in."""
    return _("The server sent something this client could not use: {what}").format(what=what)


def unusable_log(what: str) -> str:
    return unusable(what) + " " + _("Connecting again for a fresh picture.")


def name_too_long(length: int) -> str:
    return _("A name has at most {most} characters; this one has {length}. Shorten it.").format(
        most=MAX_NAME, length=length
    )


# ----- the connect and name screens, the status line ------------------------------------

SARJA = "Sarja"
WHAT_NAME = N_("What is your name?")
NAME_SEEN = N_("Others see it at the table. It is remembered for next time.")
NAME_PROMPT = N_("Name: ")
SAY_PROMPT = N_(" Say: ")


def joining(address: str, name: str) -> str:
    return _("Joining {address} as {name}…").format(address=address, name=name)


def disconnected(why: str) -> str:
    return _("Disconnected: {why}").format(why=why)


def connected_to(address: str) -> str:
    return _("Connected to {address}.").format(address=address)


def answers(address: str) -> str:
    """Something answers at the address; only the answer to the hello, sent with the
    name, says a Sarja server is there."""
    return _("{address} answers; Enter sends your name to it.").format(address=address)


def connecting_to(address: str) -> str:
    return _("Connecting to {address}…").format(address=address)


def link_line(link: str, why: str, replaced: bool) -> str:
    """The status line while the connection is down."""
    if link == "closed" and replaced:
        return _(
            "Disconnected: {why} You play on in that window; this one is done: press q to close it."
        ).format(why=why)
    if link == "closed":
        return _("Disconnected: {why} Press q to quit.").format(why=why)
    if link == "stopped":
        return disconnected(why)
    return why or DROPPED


def too_small(least: tuple[int, int], size: tuple[int, int]) -> list[str]:
    return [
        _("Sarja needs a terminal of at least {w}×{h};").format(w=least[0], h=least[1]),
        _("this one is {w}×{h}. Please make it bigger.").format(w=size[0], h=size[1]),
        _("Keys do nothing until then, except Ctrl-C to quit."),
    ]


def connect_keys() -> list[tuple[str, str]]:
    return [("r", _("try again now")), ("q", _("quit"))]


def name_keys() -> list[tuple[str, str]]:
    return [("Enter", _("continue")), ("Ctrl-C", _("quit"))]


def closed_keys() -> list[tuple[str, str]]:
    """A connection closed for good leaves one thing to do."""
    return [("q", _("quit"))]


translated(__name__)
