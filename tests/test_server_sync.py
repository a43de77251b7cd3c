"""`sync` answers with the snapshot alone: it sent the whole history after it (7.8 KB
for a 7-byte request at version 151), so a flood of syncs pulled hundreds of bytes out
for each byte in. A client that wants the history asks for it a page at a time
(test_server_history.py)."""

from __future__ import annotations

import random

import trio

from sarja.protocol.messages import Ping, Sync
from sarja.server.app import serve
from sarja.server.config import ServerConfig

from .server_helpers import seat_table
from .test_server_journal import play


async def test_sync_answers_with_the_snapshot_alone():
    rng = random.Random(5)
    async with trio.open_nursery() as nursery:
        config = ServerConfig(host="127.0.0.1", port=0, seed=8)
        server = await nursery.start(serve, config)
        players = await seat_table(server, 2)
        await play(players, 12, rng)
        aino = players[0]
        seen = len(aino.received)
        await aino.send(Sync())
        await aino.expect("snapshot")
        await aino.send(Ping(n=5))
        while (await aino.receive()).TYPE != "pong":
            pass
        got = [m.TYPE for m in aino.received[seen:] if m.TYPE in ("snapshot", "history")]
        assert got == ["snapshot"]
        nursery.cancel_scope.cancel()
