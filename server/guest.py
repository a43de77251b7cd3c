"""A person at the server, known by a resume token across connections."""

from __future__ import annotations

import secrets
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any, Protocol

from sarja.protocol.messages import SERVER_MESSAGES

if TYPE_CHECKING:
    from .table import Table


class Outbox(Protocol):
    """Where messages to one connection go. `send` never blocks: a peer that
    cannot keep up is disconnected by its outbox, not waited for. Messages go
    out when the server's current step ends, or at once on `flush`."""

    def send(self, msg: Any) -> None: ...
    def encode(self, msg: Any) -> bytes: ...
    def send_encoded(self, msg: Any, frame: bytes) -> None: ...
    def flush(self) -> None: ...
    def close(self, code: str, message: str) -> None: ...


class Guest:
    __slots__ = ("session", "token", "name", "outbox", "table", "seat", "answers", "chat_times")

    def __init__(self, name: str) -> None:
        self.session = secrets.token_hex(8)
        # Unguessable, shown to no one else: it alone restores a seat.
        self.token = secrets.token_urlsafe(32)
        self.name = name
        self.outbox: Outbox | None = None  # None while disconnected
        self.table: Table | None = None  # the table this guest is at (or holds a seat in)
        self.seat: int | None = None  # None: spectating, or at no table
        # The first answer to each recent action id, to repeat for a repeated id:
        # its type and field values, plain strings and numbers that the cycle
        # collector need not walk (a busy server holds many thousands of them).
        self.answers: OrderedDict[int, tuple[str, tuple[Any, ...]]] = OrderedDict()
        self.chat_times: deque[float] = deque()

    @property
    def connected(self) -> bool:
        return self.outbox is not None

    def send(self, msg: Any) -> None:
        if self.outbox is not None:
            self.outbox.send(msg)

    def send_encoded(self, msg: Any, frame: bytes | None) -> None:
        """`msg` as `frame`, made already; None: encode it here."""
        if self.outbox is not None:
            if frame is None:
                self.outbox.send(msg)
            else:
                self.outbox.send_encoded(msg, frame)

    def remember_answer(self, action_id: int, answer: Any, keep: int) -> None:
        self.answers[action_id] = (answer.TYPE, answer._values(answer))
        while len(self.answers) > keep:
            self.answers.popitem(last=False)

    def earlier_answer(self, action_id: int) -> Any:
        """The answer remembered for `action_id`, or None."""
        kept = self.answers.get(action_id)
        if kept is None:
            return None
        kind, values = kept
        return SERVER_MESSAGES[kind]._trusted(*values)

    def __repr__(self) -> str:
        return f"Guest({self.name!r}, seat={self.seat})"
