"""Words of the connection and the name screen: connecting, the connection's troubles,
the name asked for, and what became of what the player did while it was down."""

from __future__ import annotations

import errno
import os

from sarja.lang import N_, _, language, translated
from sarja.protocol.fingerprint import short_code
from sarja.protocol.limits import MAX_NAME

from ..keybar import KeyItem, Need

CONNECTED_AGAIN = N_("Connected again.")
DROPPED = N_("The connection dropped; reconnecting…")
NOT_CONNECTED = N_("Not connected just now, so nothing was sent; try again once it is back.")
CHAT_KEPT = N_("Not connected: your line will be sent when the connection is back.")
NAME_FIRST = N_("Type a name first.")
NAME_UNSEEN = N_("A name needs a letter, digit or sign that others can see.")
CHAT_UNSEEN = N_("Nothing sent: the line shows nothing others could see.")
TOO_MANY_MARKS = N_("A letter carries at most 2 accents or marks; this has more on one.")

# The server said something no game can be in.
UNUSABLE = N_("The server sent something this client could not use: {what}")


def unusable_log(what: str) -> str:
    return UNUSABLE.format(what=what) + " " + _("Connecting again for a fresh picture.")


def name_too_long(length: int) -> str:
    return _("A name has at most {most} characters; this one has {length}. Shorten it.").format(
        most=MAX_NAME, length=length
    )


# ----- the connect and name screens, the status line ------------------------------------

SARJA = "Sarja"
WHAT_NAME = N_("What is your name?")
NAME_SEEN = N_("Others see it at the table. It is remembered for next time.")
# Practice: no one else is there, and no server to tell about.
NAME_PRACTICE = N_("The computers call you by it. It is remembered for next time.")
PRACTICE_READY = N_("Enter starts the practice game.")
NAME_PROMPT = N_("Name: ")
SAY_PROMPT = N_(" Say: ")
JOINING = N_("Joining {address} as {name}…")
DISCONNECTED = N_("Disconnected: {why}")
CONNECTED_TO = N_("Connected to {address}.")

# Something answers at the address; only the answer to the hello, sent with the
# name, says a Sarja server is there.
ANSWERS = N_("{address} answers; Enter sends your name to it.")
CONNECTING_TO = N_("Connecting to {address}…")


def link_line(link: str, why: str, replaced: bool) -> str:
    """The status line while the connection is down."""
    if link == "closed" and replaced:
        return _(
            "Disconnected: {why} You play on in that window; this one is done: press q to close it."
        ).format(why=why)
    if link == "closed":
        return _("Disconnected: {why} Press q to quit.").format(why=why)
    if link == "stopped":
        return DISCONNECTED.format(why=why)
    return why or DROPPED


def too_small(least: tuple[int, int], size: tuple[int, int]) -> list[str]:
    return [
        _("Sarja needs a terminal of at least {w}×{h};").format(w=least[0], h=least[1]),
        _("this one is {w}×{h}. Please make it bigger.").format(w=size[0], h=size[1]),
        _("Keys do nothing until then, except Ctrl-C to quit."),
    ]


def connect_keys() -> list[KeyItem]:
    return [KeyItem("r", _("try again now")), KeyItem("q", _("quit"), Need.OUT)]


def name_keys() -> list[KeyItem]:
    return [KeyItem("Enter", _("continue")), KeyItem("Esc", _("quit"), Need.OUT)]  # Ctrl-C too


def chat_keys() -> list[KeyItem]:
    """While a chat line is being written: the keys are the box's."""
    return [KeyItem("Enter", _("send"), Need.MAIN), KeyItem("Esc", _("cancel"), Need.OUT)]


def closed_keys() -> list[KeyItem]:
    """A connection closed for good leaves one thing to do."""
    return [KeyItem("q", _("quit"), Need.OUT)]


# ----- the connection's troubles (net.py) ------------------------------------------------

NOT_CONNECTED_NOW = N_("Not connected just now, so nothing was sent.")
# In short, inside "Cannot reach 1.2.3.4:7474 (…)."
NO_NAME_GIST = N_("its name cannot be looked up")
ELSE_GIST = N_("something else answers there")
HUNG_UP_GIST = N_("it hung up without a word")
QUIET_GIST = N_("the server went quiet")
CLOSED_GIST = N_("the server closed it")
KEY_GIST = N_("the server's key is not the one it showed before")
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


def unreachable(where: str, error: str, server_said: str) -> str:
    """Why no server was reached, for the shell once the player quits (nothing is
    tried again then)."""
    return server_said or _("Cannot reach {where} ({error}).").format(where=where, error=error)


HUNG_UP = N_(
    "{where} closed the connection without a word: it does not seem to be a Sarja"
    " server. Check the address (the server prints the line to type)."
)
OLDER_SERVER = N_(
    "{where} is a Sarja server older than this client: it does not speak TLS"
    " (protocol 3). Its host needs to update it."
)
NO_SARJA_ANSWER = N_(
    "Nothing at {where} answered as a Sarja server does: something else may be"
    " listening on that port. Check the address (the server prints the line to type)."
)


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


NOT_NOW = N_("Not now: {why}")
ODD = N_("The server sent something odd: {why}")
NO_WELCOME = N_("it answered the hello with “{what}”, not a welcome")
KEEPS_UNUSABLE = N_(
    "{where} keeps sending messages this client cannot use ({why}). Press r to try again."
)
UNKNOWN_HOST = N_(
    "No computer called “{host}” is known here. Check the spelling, or use the address"
    " the server prints (like 192.168.1.20:{port})."
)
LOOKUP_LATER = N_("The name “{host}” cannot be looked up just now (is the network up?).")
LOOKUP_FAILED = N_("The name “{host}” cannot be looked up ({why}).")


# ----- the commands' lines, sarja-client's and sarja-bot's --------------------------------

DISCOVER_ON_HELP = N_(
    "look for servers only through the interface with this address (127.0.0.1:"
    " this machine alone); default: every interface"
)
ACCEPT_NEW_KEY_HELP = N_(
    "take the key the server at this address shows now, once, after its host has"
    " reinstalled it (what was kept for its old key moves to the new one)"
)


def first_key(server: str, fingerprint: str) -> str:
    """The first connection to a server: its key's code, to compare with its join line."""
    return _(
        "First connection to {server}: its key is {code}. Compare it with the code on"
        " the server's join line."
    ).format(server=server, code=short_code(fingerprint))


def key_changed(where: str, server: str, fingerprint: str, command: str = "") -> str:
    """A known server over another key: what it may mean, and how to take the new key
    (`command`: the client's own, "" for sarja-bot, which keeps keys only while it runs)."""
    code = short_code(fingerprint)
    said = _(
        "{server} at {where} shows another key ({code}) than it showed before: someone on"
        " the network may be pretending to be it, or its host reinstalled it. Nothing"
        " secret was sent to it."
    ).format(server=server, where=where, code=code)
    if command:
        more = _(
            "If its host says it was reinstalled and its join line shows {code}, take the"
            " new key with: {command} --accept-new-key {where}"
        ).format(code=code, command=command, where=where)
    else:
        more = _(
            "If its host says it was reinstalled, start sarja-bot again: it remembers a"
            " server's key only while it runs."
        )
    return f"{said} {more}"


NAME_UNREADABLE = N_("--name must be a name people can read")
NOT_AN_ADDRESS = N_("{address!r} is not an address like 192.168.1.20:{port}")


translated(__name__)
