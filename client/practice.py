"""`sarja-client --practice`: a game against the computer, with no server to start.

A real Sarja server runs in this process, in a thread of its own with its own trio
loop, listening on 127.0.0.1 on a free port and keeping no journal; the client
connects to it like to any other, creates a table whose other seats are computer
players, and is ready at once, so the game begins. When the client ends, so does
the server, once the records of the games finished are written: they go to the
client's data directory (kept.py), for `sarja-client --replay` to list. (This is
the one place the client imports the server: everything else in the client speaks
only the protocol.)
"""

from __future__ import annotations

import contextlib
import logging
import threading
from pathlib import Path
from typing import Any

import trio

from sarja.protocol.messages import CreateTable

from .words import lobby

# The computer's pause before each of its moves here: enough to see it, short enough
# that a game against three computers keeps going.
PACE = 0.7
RECORD_WAIT = 5.0  # seconds the end waits for a finished game's record to be written


class PracticeServer:
    """A server on 127.0.0.1, port 0, in a thread: `start()` returns its port,
    `stop()` ends it."""

    def __init__(self, pace: float = PACE, records: Path | None = None) -> None:
        self.pace = pace
        self.records = records  # where finished games' records go; None: not kept
        self._server: Any = None
        self.port = 0
        self.failure: BaseException | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sarja-practice", daemon=True)
        self._token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        # The server's log would scribble over the full-screen client: it goes nowhere.
        logging.getLogger("sarja.server").addHandler(logging.NullHandler())
        logging.getLogger("sarja.server").propagate = False

    def start(self, timeout: float = 10.0) -> int:
        self._thread.start()
        if not self._ready.wait(timeout) or not self.port:
            raise RuntimeError(self.failure)
        return self.port

    def stop(self) -> None:
        token, scope = self._token, self._scope
        if token is not None and scope is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(lambda: trio.lowlevel.spawn_system_task(self._finish, scope))
        self._thread.join(10)

    async def _finish(self, scope: trio.CancelScope) -> None:
        """End once the game just finished has its record (the player may quit the
        moment it ends, before the server has written it), or after a few seconds."""
        server = self._server
        with trio.move_on_after(RECORD_WAIT):
            while server is not None and server.records.due(server.journal):
                await trio.sleep(0.05)
        scope.cancel()

    def _run(self) -> None:
        try:
            trio.run(self._serve)
        except BaseException as err:  # told to the client by `start`
            self.failure = err
        finally:
            self._ready.set()

    async def _serve(self) -> None:
        from sarja.server.app import serve
        from sarja.server.config import ServerConfig

        config = ServerConfig(
            host="127.0.0.1", port=0, data_dir=None, server_name=lobby.PRACTICE,
            takeover_delay=self.pace, records_dir=self.records,
            hint_burst=1_000_000,  # one person, on a server of their own: a hint every turn
        )  # fmt: skip
        with trio.CancelScope() as scope:
            self._scope = scope
            self._token = trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                server: Any = await nursery.start(serve, config)
                self._server = server
                self.port = server.port
                self._ready.set()


def practice_table(
    players: int, teams: int, level: str, match_to: int | None = None
) -> CreateTable:
    """The table to play at: our seat first, a computer at `level` in every other; a
    match to `match_to` wins, if given."""
    return CreateTable(
        name=lobby.PRACTICE,
        players=players,
        teams=teams,
        computers=(None,) + (level,) * (players - 1),
        hints=True,  # practice is for learning: the coach is there
        match_to=match_to,
    )
