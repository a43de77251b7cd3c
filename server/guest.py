"""A person at the server, known by a resume token across connections."""

from __future__ import annotations

import secrets
import time
from typing import Protocol

from sarja.protocol.messages import ServerMessage

from .journal_rows import token_hash


def within_limit(times: list[float], burst: int, window: float) -> bool:
    """Count one more of something allowed `burst` times in any `window` seconds, its
    recent times in `times` (a list: at most `burst` long, and an empty one costs a
    tenth of an empty deque, on every idle connection): False, and nothing counted,
    once the limit is reached."""
    now = time.monotonic()
    while times and now - times[0] > window:
        del times[0]
    if len(times) >= burst:
        return False
    times.append(now)
    return True


class Outbox(Protocol):
    """Where messages to one connection go (connection.py's `Connection`, through the
    outflow: outflow.py's `Sink`). Nothing here blocks: a peer that cannot keep up is
    disconnected by its outbox, not waited for."""

    def encode(self, msg: ServerMessage) -> bytes: ...
    def admit(self, msg: ServerMessage, frame: bytes) -> bool: ...
    def deliver(self, data: bytes, frames: int) -> None: ...
    def close(self, code: str, message: str) -> None: ...


class Place(Protocol):
    """Where a guest is: a table (table.py), known here by what every place has."""

    @property
    def id(self) -> str: ...


class Guest:
    __slots__ = (
        "id", "session", "token", "keys", "name", "outbox", "table", "seat", "chat_times",
        "move_times", "address", "computer", "person", "limits",
    )  # fmt: skip

    def __init__(self, name: str, guest_id: str | None = None, keys: tuple[str, ...] = ()) -> None:
        """A new guest, or (with `guest_id` and `keys`) one brought back from the journal,
        whose tokens are known only by their hashes until the player resumes."""
        self.id = guest_id or secrets.token_hex(8)  # lasting: the journal knows it by this
        self.session = secrets.token_hex(8)
        self.token = ""
        # How the lobby finds this guest: the hashes of the tokens that resume it. The
        # newest, and the one it was resumed with last, in case the welcome carrying
        # the newest never arrived (the connection or the server died on the way).
        self.keys = keys
        if not keys:
            self.new_token()
        self.name = name
        self.outbox: Outbox | None = None  # None while disconnected
        # Where the guest is: written by the lobby's `Seating` only (seating.py).
        self.table: Place | None = None  # the table this guest is at (or holds a seat in)
        self.seat: int | None = None  # None: spectating, or at no table
        self.chat_times: list[float] = []
        self.move_times: list[float] = []  # joins, watches and leaves
        self.address = ""  # where its last connection came from
        self.computer: str | None = None  # a computer's level, if one says it plays here
        # The hash of the person key its client sent (standings.py): who this is,
        # whatever the name. None: no key (an older client), so no standing.
        self.person: str | None = None
        # The recent times of requests with a quota of their own, by kind (quotas.py).
        self.limits: dict[str, list[float]] | None = None

    def new_token(self, used: str | None = None) -> None:
        """A fresh token (unguessable, shown to no one else: it alone restores a seat);
        `used`, the token just resumed with, stays good until the fresh one is used."""
        self.token = secrets.token_urlsafe(32)
        self.keys = (token_hash(self.token),) + (() if used is None else (token_hash(used),))

    @property
    def connected(self) -> bool:
        return self.outbox is not None

    def __repr__(self) -> str:
        return f"Guest({self.name!r}, seat={self.seat})"
