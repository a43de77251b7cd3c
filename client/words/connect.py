"""Words of the connection and the name screen: connecting, the connection's troubles,
the name asked for, and what became of what the player did while it was down."""

from __future__ import annotations

import errno
import os

from sarja.lang import N_, _, language, translated
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


# ----- the connection's troubles (net.py) ------------------------------------------------

NOT_CONNECTED_NOW = N_("Not connected just now, so nothing was sent.")
# In short, inside "Cannot reach 1.2.3.4:7474 (…)."
NO_NAME_GIST = N_("its name cannot be looked up")
ELSE_GIST = N_("something else answers there")
HUNG_UP_GIST = N_("it hung up without a word")
QUIET_GIST = N_("the server went quiet")
UNUSABLE_GIST = N_("it sent something this client could not use")
KEEPS_GIST = N_("it sends messages this client cannot use")
NO_ANSWER = N_("no answer")
BROKE = N_("the connection broke")
FAILED = N_("the connection failed")
# The usual reasons a connection fails, by errno (any other: the system's English words).
_OS_REASONS = {
    errno.ECONNREFUSED: N_("connection refused"),
    errno.ETIMEDOUT: N_("connection timed out"),
    errno.EHOSTUNREACH: N_("no route to host"),
    errno.ENETUNREACH: N_("network is unreachable"),
    errno.ECONNRESET: N_("connection reset by peer"),
}


def os_reason(number: int) -> str:
    if number in _OS_REASONS and language() != "en":
        return _(_OS_REASONS[number])
    return os.strerror(number).lower()


def waiting(where: str, error: str, server_said: str, greeted: bool, seconds: int) -> str:
    """The status line between two tries."""
    if server_said:
        return _("{said} Trying {where} again in {s} s.").format(
            said=server_said, where=where, s=seconds
        )
    if greeted:
        return _("No connection to {where} ({error}). Trying again in {s} s.").format(
            where=where, error=error, s=seconds
        )
    return _("Cannot reach {where} ({error}). Trying again in {s} s.").format(
        where=where, error=error, s=seconds
    )


def hung_up(where: str) -> str:
    return _(
        "{where} closed the connection without a word: it does not seem to be a Sarja"
        " server. Check the address (the server prints the line to type)."
    ).format(where=where)


def no_sarja_answer(where: str) -> str:
    return _(
        "Nothing at {where} answered as a Sarja server does: something else may be"
        " listening on that port. Check the address (the server prints the line to type)."
    ).format(where=where)


def not_sarja(where: str, first: str) -> str:
    """A peer that answered the hello with something else (its first words, if any)."""
    if first:
        return _(
            "{where} is not a Sarja server: it answered “{first}”. Check the address and"
            " the port (the server prints the line to type)."
        ).format(where=where, first=first)
    return _(
        "{where} is not a Sarja server. Check the address and the port (the server"
        " prints the line to type)."
    ).format(where=where)


def not_now(why: str) -> str:
    return _("Not now: {why}").format(why=why)


def odd(why: str) -> str:
    return _("The server sent something odd: {why}").format(why=why)


def keeps_unusable(where: str, why: str) -> str:
    return _(
        "{where} keeps sending messages this client cannot use ({why}). Press r to try again."
    ).format(where=where, why=why)


def unknown_host(host: str, port: int) -> str:
    return _(
        "No computer called “{host}” is known here. Check the spelling, or use the address"
        " the server prints (like 192.168.1.20:{port})."
    ).format(host=host, port=port)


def lookup_later(host: str) -> str:
    return _("The name “{host}” cannot be looked up just now (is the network up?).").format(
        host=host
    )


def lookup_failed(host: str, why: str) -> str:
    return _("The name “{host}” cannot be looked up ({why}).").format(host=host, why=why)


# ----- the commands' lines, sarja-client's and sarja-bot's --------------------------------

DISCOVER_ON_HELP = N_(
    "look for servers only through the interface with this address (127.0.0.1:"
    " this machine alone); default: every interface"
)
NAME_UNREADABLE = N_("--name must be a name people can read")


def not_an_address(address: str, port: int) -> str:
    return _("{address!r} is not an address like 192.168.1.20:{port}").format(
        address=address, port=port
    )


translated(__name__)
