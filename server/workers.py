"""What a search worker runs, in a process of its own: a level's choice from one seat's
view. Nothing here imports trio: a worker needs only the bots and the engine.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

from .bots import make_player
from .engine import Action
from .engine.view import SeatView

NICE = 10


def start(server: int) -> None:
    """A worker's start. Ctrl+C in the host's terminal reaches every process of the
    group; the server stops its workers itself, so they ignore it rather than print
    tracebacks. And a worker ends with the server `server` (its process id), even one
    killed outright: nothing else would stop it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Searches are background work: when the cores are busy, people's games come first.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICE)
    threading.Thread(target=_orphaned, args=(server,), daemon=True).start()


def _orphaned(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


def choose(level: str, seed: int, think_time: float | None, view: SeatView) -> Action:
    """The level's choice for the seat whose view this is."""
    return make_player(level, seed=seed, think_time=think_time).choose(view)
