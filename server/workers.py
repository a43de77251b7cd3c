"""What a search worker runs, in a process of its own: a level's choice from one seat's
view. Nothing here imports trio, so a worker starts with the bots and the engine only.
"""

from __future__ import annotations

import signal

from .bots import make_player
from .engine import Action
from .engine.view import SeatView


def quiet() -> None:
    """A worker's start: Ctrl+C in the host's terminal reaches every process of the
    group; the server stops its workers itself, so they must not print tracebacks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def choose(level: str, seed: int, think_time: float | None, view: SeatView) -> Action:
    """The level's choice for the seat whose view this is."""
    return make_player(level, seed=seed, think_time=think_time).choose(view)
