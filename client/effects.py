"""What carrying out an intent asks of the rest: messages for the server, or a
`Command` for the app (app.py does both)."""

from __future__ import annotations

from enum import Enum
from typing import TypeAlias

from sarja.protocol.messages import ClientMessage


class Command(Enum):
    QUIT = "quit"
    RETRY = "retry"  # try to connect now instead of waiting out the backoff
    GREET = "greet"  # the name is chosen: say hello
    ANALYSE = "analyse"  # start the coach's analysis of the replay, in a worker


Effect: TypeAlias = ClientMessage | Command
