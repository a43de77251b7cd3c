"""A person at the server, known by a resume token across connections."""

from __future__ import annotations

import secrets
from collections import deque
from typing import TYPE_CHECKING, Protocol

from sarja.protocol.messages import ServerMessage

if TYPE_CHECKING:
    from .table import Table


class Outbox(Protocol):
    """Where messages to one connection go. `send` never blocks: a peer that
    cannot keep up is disconnected by its outbox, not waited for."""

    def send(self, msg: ServerMessage) -> None: ...
    def encode(self, msg: ServerMessage) -> bytes: ...
    def send_encoded(self, msg: ServerMessage, frame: bytes) -> None: ...
    def close(self, code: str, message: str) -> None: ...


class Guest:
    __slots__ = ("session", "token", "name", "outbox", "table", "seat", "chat_times")

    def __init__(self, name: str) -> None:
        self.session = secrets.token_hex(8)
        self.token = ""
        self.new_token()
        self.name = name
        self.outbox: Outbox | None = None  # None while disconnected
        self.table: Table | None = None  # the table this guest is at (or holds a seat in)
        self.seat: int | None = None  # None: spectating, or at no table
        self.chat_times: deque[float] = deque()

    def new_token(self) -> None:
        # Unguessable, shown to no one else: it alone restores a seat.
        self.token = secrets.token_urlsafe(32)

    @property
    def connected(self) -> bool:
        return self.outbox is not None

    def send(self, msg: ServerMessage) -> None:
        if self.outbox is not None:
            self.outbox.send(msg)

    def __repr__(self) -> str:
        return f"Guest({self.name!r}, seat={self.seat})"
