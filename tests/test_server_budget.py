"""Issue 19, item 7: `sync` (and every other request) had no rate limit: 12.6k
snapshots a second from one connection, each built for its seat, took a real
game's p99 from 7 to 70 ms. Now each connection has a budget of work."""

from __future__ import annotations

import trio

from sarja.protocol.messages import Ping, Sync
from sarja.server.app import serve
from sarja.server.budget import COSTS, RequestBudget
from sarja.server.config import ServerConfig

from .netclient import NetClient
from .server_helpers import seat_table


def test_a_budget_allows_its_burst_then_its_rate_and_tells_once():
    budget = RequestBudget(rate=100.0, burst=200.0, now=0.0)
    assert COSTS[Sync] == 100.0
    assert budget.spend(Sync(), 0.0) and budget.spend(Sync(), 0.0)
    assert not budget.spend(Sync(), 0.0)
    assert budget.tell() and not budget.tell()  # once per refusal spell
    assert not budget.spend(Sync(), 0.5)  # 50 units back: not enough for a snapshot
    assert budget.spend(Ping(n=1), 0.5)  # but enough for a ping
    assert budget.spend(Sync(), 1.6)
    assert budget.tell()  # a success ends the spell: the next refusal is told again
    assert budget.spend(Ping(n=1), 100.0) and budget._units <= 200.0  # never above its size


async def test_a_sync_flood_gets_a_bounded_share_and_one_error(nursery, autojump_clock):
    config = ServerConfig(host="127.0.0.1", port=0, request_rate=100.0, request_burst=100.0)
    server = await nursery.start(serve, config)
    flooder, other = await seat_table(server, 2)
    for _ in range(200):
        await flooder.send(Sync())
    await trio.sleep(0.5)  # the server reads everything in no time on the mock clock
    await flooder.send(Ping(n=99))
    while True:
        msg = await flooder.receive()
        if msg.TYPE == "pong" and msg.n == 99:
            break
    snapshots = [m for m in flooder.received if m.TYPE == "snapshot"]
    errors = [m for m in flooder.received if m.TYPE == "error"]
    assert len(snapshots) <= 1 + 10 + 5  # the start's, the burst's, half a second's
    assert [e.code for e in errors] == ["slow_down"]
    await other.check_mirror()  # the other player is served as ever


async def pongs(client: NetClient, n: int) -> tuple[int, bool]:
    """Send `n` pings; how many were answered before the first refusal, and whether
    there was one."""
    for i in range(n):
        await client.send(Ping(n=i))
    got = 0
    while got < n:
        msg = await client.receive()
        if msg.TYPE == "error":
            assert msg.code == "slow_down"
            return got, True
        got += msg.TYPE == "pong"
    return got, False


async def test_connections_from_one_address_share_its_budget_reconnecting_too(nursery):
    # A connection's budget is 100 units, refilled so slowly that what comes back while
    # the test runs is a few units; its address's, four connections' worth.
    config = ServerConfig(host="127.0.0.1", port=0, request_rate=1.0, request_burst=100.0)
    server = await nursery.start(serve, config)
    answered = []
    for _ in range(5):  # one connection after another, each asking nearly its own share
        client = await NetClient.connect(server.port, "Flood")
        answered.append(await pongs(client, 90))
        await client.aclose()
    # The address had 400 units: the fifth connection found little of it left.
    assert answered[:4] == [(90, False)] * 4
    got, refused = answered[4]
    assert refused and got < 60
    elsewhere = await NetClient.connect(server.port, "Else", source="127.0.0.2")
    assert await pongs(elsewhere, 90) == (90, False)  # another address is served in full
