"""Starting a real server on 127.0.0.1 port 0 and seating scripted clients."""

from __future__ import annotations

import random
from typing import Any

from sarja.protocol.messages import CreateTable, Join, Ready
from sarja.protocol.mirror import GameMirror
from sarja.server.app import Server

from .netclient import NetClient

# What makes a new journal file one of version 9 again, less the columns of the version
# before it (a test that starts from an older version drops those too): what versions 11
# and 10 added.
BEFORE_10 = (
    "DROP INDEX tables_by_creator_person; DROP TRIGGER game_people_gone;"
    " DROP TABLE game_people;"
    " ALTER TABLE person_games DROP COLUMN own_moves;"
    " ALTER TABLE person_games DROP COLUMN seat_moves;"
    " ALTER TABLE person_games DROP COLUMN counted;"
)


async def seat_table(
    server: Server,
    players: int,
    teams: int | None = None,
    name: str = "Table",
    **rules: Any,
) -> list[NetClient]:
    """Connect `players` clients, seat them at a new table, ready them all, and
    return them in seat order once the game has started."""
    clients = [await NetClient.connect(server.port, f"P{i}") for i in range(players)]
    await clients[0].send(
        CreateTable(
            name=name, players=players, teams=teams or (players if players <= 3 else 2), **rules
        )
    )
    table = await clients[0].expect("table")
    for client in clients[1:]:
        await client.send(Join(table=table.id))
        await client.expect("table")
    for client in clients:
        await client.send(Ready(ready=True))
    for client in clients:
        await client.state_at(0)
    return sorted(
        clients, key=lambda c: c.state.seat if c.state and c.state.seat is not None else 0
    )


async def play_to_the_end(
    clients: list[NetClient], rng: random.Random, max_moves: int = 3000, check_every: int = 1
) -> GameMirror:
    """Seats play random legal actions, each from what the server sent it, until the
    game ends. Every `check_every` versions each client asks for a snapshot and checks
    that its mirror, built from updates alone, says the same. Returns the final game."""
    assert clients[0].state is not None
    version = clients[0].state.version
    for move in range(max_moves):
        for client in clients:
            await client.state_at(version)
            if move % check_every == 0:
                await client.check_mirror()
        state = clients[0].state
        assert state is not None
        if state.result is not None:
            return state
        seat = rng.choice([state.turn, *state.pending_draw])
        mover = next(c for c in clients if c.state is not None and c.state.seat == seat)
        mine = await mover.legal_at(version)
        await mover.send(mover.action_message(rng.choice(mine.legal)))
        ack = await mover.expect("ack")
        version = ack.version
    raise AssertionError("the game did not end")


# A new journal made as version 8 left its files: less what versions 9 to 11 added.
BACK_TO_VERSION_8 = BEFORE_10 + (
    " ALTER TABLE tables DROP COLUMN creator_person; PRAGMA user_version = 8;"
)
