"""Starting a real server on 127.0.0.1 port 0 and seating scripted clients."""

from __future__ import annotations

import random
from typing import Any

from sarja.protocol.messages import CreateTable, Join, Ready
from sarja.server.app import Server

from .netclient import NetClient


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
    return sorted(clients, key=lambda c: c.state.seat)


async def play_to_the_end(
    clients: list[NetClient], rng: random.Random, max_moves: int = 3000
) -> Any:
    """Each seat plays a random legal action from its own state until the game
    ends; every client reads every state. Returns the final state."""
    version = clients[0].state.version
    for _ in range(max_moves):
        for client in clients:
            await client.state_at(version)
        state = clients[0].state
        if state.outcome is not None:
            return state
        movers = [c for c in clients if c.state.legal]
        mover = rng.choice(movers)
        await mover.send(mover.action_message(rng.choice(mover.state.legal)))
        ack = await mover.expect("ack")
        version = ack.version
    raise AssertionError("the game did not end")
