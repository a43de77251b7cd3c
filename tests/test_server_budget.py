"""`sync` (and every other request) had no rate limit: 12.6k
snapshots a second from one connection, each built for its seat, took a real
game's p99 from 7 to 70 ms. Now each connection has a budget of work."""

from __future__ import annotations

import trio
import trio.testing

from sarja.protocol.messages import Ping, Sync
from sarja.server.app import serve
from sarja.server.budget import COSTS, RequestBudget
from sarja.server.config import ServerConfig

from .netclient import NetClient
from .server_helpers import seat_table


def test_a_budget_allows_its_burst_then_its_rate_and_says_how_long_to_wait():
    budget = RequestBudget(rate=10.0, burst=20.0, now=0.0)
    assert COSTS[Sync] == 10.0
    assert budget.spend(Sync(), 0.0) and budget.spend(Sync(), 0.0)
    assert not budget.spend(Sync(), 0.0)
    assert budget.wait(Sync(), 0.0) == 1.001  # ten units back in a second
    assert not budget.spend(Sync(), 0.5)  # 5 units back: not enough for a snapshot
    assert budget.spend(Ping(n=1), 0.5)  # but enough for a ping
    assert budget.spend(Sync(), 1.6)
    shared = RequestBudget(rate=1.0, burst=10.0, now=0.0)
    assert budget.spend(Ping(n=1), 100.0, shared) and budget._units <= 20.0  # never above
    assert shared._units == 9.0  # both paid
    assert not budget.spend(Sync(), 100.0, shared) and budget._units == 19.0  # neither did
    assert budget.wait(Sync(), 100.0, shared) == 1.001  # the address's is the one short


async def test_a_sync_flood_gets_a_bounded_share_and_loses_nothing(nursery, autojump_clock):
    config = ServerConfig(host="127.0.0.1", port=0, request_rate=100.0, request_burst=100.0)
    server = await nursery.start(serve, config)
    flooder, other = await seat_table(server, 2)
    began = trio.current_time()
    for _ in range(60):
        await flooder.send(Sync())
    await flooder.send(Ping(n=99))
    came: list[float] = []
    while True:
        msg = await flooder.receive()
        if msg.TYPE == "snapshot":
            came.append(trio.current_time() - began)
        if msg.TYPE == "pong" and msg.n == 99:
            break
    assert len(came) == 60  # each one answered, none refused
    # At the budget's pace: its burst at once, then ten a second (100 units, 10 each).
    assert all(n <= 10 + 10 * at + 2 for n, at in enumerate(came, start=1))
    assert not [m for m in flooder.received if m.TYPE == "error"]
    await other.check_mirror()  # the other player is served as ever


async def pongs(client: NetClient, n: int) -> int:
    """Send `n` pings and read their pongs."""
    for i in range(n):
        await client.send(Ping(n=i))
    got = 0
    while got < n:
        got += (await client.receive()).TYPE == "pong"
    return got


async def test_connections_from_one_address_share_its_budget_reconnecting_too(nursery):
    # A connection's budget is 100 units and its address's 400 (four connections'
    # worth), refilled so slowly that nothing comes back while the test runs.
    config = ServerConfig(host="127.0.0.1", port=0, request_rate=0.01, request_burst=100.0)
    server = await nursery.start(serve, config)
    for _ in range(4):  # one connection after another, each asking nearly its own share
        client = await NetClient.connect(server.port, "Flood")
        assert await pongs(client, 90) == 90
        await client.aclose()
    fifth = await NetClient.connect(server.port, "Flood")
    for i in range(90):
        await fifth.send(Ping(n=i))
    await trio.testing.wait_all_tasks_blocked(cushion=0.1)  # the server did what it would
    [held] = [c for c in server._live if c.guest is not None and c.guest.name == "Flood"]
    # The address's budget is spent: the fifth connection's next ping waits for it,
    # and nothing more is read from it.
    assert held._waiting is not None and held._waiting.TYPE == "ping"
    elsewhere = await NetClient.connect(server.port, "Else", source="127.0.0.2")
    assert await pongs(elsewhere, 90) == 90  # another address is served in full
