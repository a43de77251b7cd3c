"""What a bench player reads of the one client session: the figures of the game and
the table that its moves depend on, with a stand-in value before there is one.

Shared by the benches that drive sarja-server through `ClientSession` (server.py's
players and hostile.py's), which keep only their own counts and I/O.
"""

from __future__ import annotations

from typing import Any

from sarja.protocol.client_session import ClientSession


class SessionView:
    """Read-only figures of `self.session` (set by the subclass)."""

    session: ClientSession

    @property
    def welcomed(self) -> bool:
        return self.session.welcome is not None

    @property
    def table_id(self) -> str | None:
        table = self.session.table
        return None if table is None else table.id

    @property
    def seat(self) -> int | None:
        table = self.session.table
        return None if table is None else table.seat

    @property
    def version(self) -> int:
        game = self.session.game
        return -1 if game is None else game.version

    @property
    def turn(self) -> int:
        game = self.session.game
        return -1 if game is None else game.turn

    @property
    def hand(self) -> tuple[str, ...]:
        game = self.session.game
        return () if game is None else game.hand

    @property
    def legal(self) -> tuple[str, ...]:
        game = self.session.game
        return () if game is None else game.legal

    @property
    def result(self) -> Any:
        game = self.session.game
        return None if game is None else game.result
