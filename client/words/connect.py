"""Words of the connection and the name screen: connecting, the connection's troubles,
the name asked for, and what became of what the player did while it was down."""

from __future__ import annotations

from sarja.protocol.limits import MAX_NAME

CONNECTED_AGAIN = "Connected again."
DROPPED = "The connection dropped; reconnecting…"
NOT_CONNECTED = "Not connected just now, so nothing was sent; try again once it is back."
CHAT_KEPT = "Not connected: your line will be sent when the connection is back."
NAME_FIRST = "Type a name first."


def unusable(what: str) -> str:
    """The server said something no game can be in."""
    return f"The server sent something this client could not use: {what}"


def unusable_log(what: str) -> str:
    return unusable(what) + " Connecting again for a fresh picture."


def name_too_long(length: int) -> str:
    return f"A name has at most {MAX_NAME} characters; this one has {length}. Shorten it."


# ----- the connect and name screens, the status line ------------------------------------

SARJA = "Sarja"
WHAT_NAME = "What is your name?"
NAME_SEEN = "Others see it at the table. It is remembered for next time."
NAME_PROMPT = "Name: "
SAY_PROMPT = " Say: "


def joining(address: str, name: str) -> str:
    return f"Joining {address} as {name}…"


def disconnected(why: str) -> str:
    return f"Disconnected: {why}"


def connected_to(address: str) -> str:
    return f"Connected to {address}."


def answers(address: str) -> str:
    """Something answers at the address; only the answer to the hello, sent with the
    name, says a Sarja server is there."""
    return f"{address} answers; Enter sends your name to it."


def connecting_to(address: str) -> str:
    return f"Connecting to {address}…"


def link_line(link: str, why: str, replaced: bool) -> str:
    """The status line while the connection is down."""
    if link == "closed" and replaced:
        return (
            f"Disconnected: {why} You play on in that window; this one is done: press q"
            " to close it."
        )
    if link == "closed":
        return f"Disconnected: {why} Press q to quit."
    if link == "stopped":
        return f"Disconnected: {why}"
    return why or DROPPED


def too_small(least: tuple[int, int], size: tuple[int, int]) -> list[str]:
    return [
        f"Sarja needs a terminal of at least {least[0]}×{least[1]};",
        f"this one is {size[0]}×{size[1]}. Please make it bigger.",
        "Keys do nothing until then, except Ctrl-C to quit.",
    ]


def connect_keys() -> list[tuple[str, str]]:
    return [("r", "try again now"), ("q", "quit")]


def name_keys() -> list[tuple[str, str]]:
    return [("Enter", "continue"), ("Ctrl-C", "quit")]


def closed_keys() -> list[tuple[str, str]]:
    """A connection closed for good leaves one thing to do."""
    return [("q", "quit")]
