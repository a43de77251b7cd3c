"""One object per table, ever, and tables no one can come
back to leave the count. Each test failed on the server before the fix: parking a
game its computers were playing left them playing on the removed table, a resume
brought a second copy back from the journal, and the two wrote the same actions
(the journal's UNIQUE constraint stopped the server); a game the computer finished
for absent people stayed open for ever and locked `create_table` out."""

from __future__ import annotations

import sqlite3

import trio

from sarja.protocol.messages import CreateTable, ListTables, Ready
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.journal import PARKED, Journal

from .netclient import NetClient


def config(tmp_path, **kw):
    """A server for these tests. On the mock clock a worker thread (the journal's
    checkpoints, a record being written) lets virtual time race ahead, so tests that
    need no restart keep their journal in memory (`tmp_path` None): the same code,
    with no file and no thread."""
    kw.setdefault("takeover_delay", 0.01)  # quick games, where the test waits for ends
    return ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path, seed=7, **kw)


async def start_alone_with_a_computer(port: int, name: str) -> NetClient:
    """A person starts a game against a computer that also stands in for them, so it
    plays both seats once they are gone."""
    person = await NetClient.connect(port, name)
    await person.send(
        CreateTable(
            name=f"{name}'s", players=2, teams=2, computers=(None, "medium"),
            computer_takeover="medium",
        )
    )  # fmt: skip
    await person.expect("table")
    await person.send(Ready(ready=True))
    await person.expect("snapshot")
    return person


async def read_all(client: NetClient) -> None:
    """Keep reading, and so answering pings."""
    try:
        while True:
            await client.receive()
    except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def create(port: int, name: str, stay: list[NetClient] | None = None) -> str:
    """Try to create a table; the reply's type ("table") or error code. The creator
    stays at it (in `stay`) or leaves, which closes it."""
    client = await NetClient.connect(port, name)
    await client.send(CreateTable(name=name, players=2, teams=2))
    while (reply := await client.receive()).TYPE not in ("table", "error"):
        pass
    if stay is None:
        await client.aclose()
    else:
        stay.append(client)
    return "table" if reply.TYPE == "table" else str(reply.code)


async def test_parking_a_game_computers_play_and_resuming_it_leaves_one_table(
    nursery, tmp_path, autojump_clock
):
    # A move a second: the game goes on long after the stand-in's grace.
    server = await nursery.start(
        serve, config(None, max_tables=2, takeover_delay=1.0, hand_over_after=10)
    )
    aino = await start_alone_with_a_computer(server.port, "Aino")
    token, first = aino.welcome.resume, aino.table.id
    await aino.aclose()  # the computers play on, for her too
    await trio.sleep(server.config.hand_over_after + 5)  # past the stand-in's grace
    old = server.lobby.tables[first]
    here: list[NetClient] = []
    assert await create(server.port, "Second", here) == "table"
    # At the limit: the game Aino left is parked to make room.
    assert await create(server.port, "Third", here) == "table"
    assert first not in server.lobby.tables
    assert old.game is not None
    moves_when_parked = len(old.game.history)
    # Aino comes back: the game comes back from the journal, once.
    back = await NetClient.connect(server.port, "Aino", resume=token)
    await back.expect("snapshot")
    assert server.lobby.tables[first] is not old
    # Time for many computer moves at both copies, were there two; Aino watches (and
    # so answers pings) meanwhile.
    async with trio.open_nursery() as watching:
        watching.start_soon(read_all, back)
        await trio.sleep(60)
        watching.cancel_scope.cancel()
    assert server.failure is None and server.journal.failed is None
    assert not old.live
    assert old.game is not None and len(old.game.history) == moves_when_parked
    later = await NetClient.connect(server.port, "Later")
    await later.send(ListTables())
    await later.expect("tables")


async def test_a_game_finished_while_its_people_are_away_does_not_lock_out(nursery, autojump_clock):
    server = await nursery.start(serve, config(None, max_tables=2))
    for name in ("Aino", "Bertil"):
        person = await start_alone_with_a_computer(server.port, name)
        await person.aclose()
    # The computers finish both games for the absent people (a game lasts well
    # under an hour of their moves).
    for _ in range(60):
        if not any(t.in_play for t in server.lobby.tables.values()):
            break
        await trio.sleep(60)
    assert not any(t.in_play for t in server.lobby.tables.values())
    assert len(server.lobby.tables) < 2  # finished with no one here: out of the count
    assert await create(server.port, "Newcomer") == "table"
    assert await create(server.port, "Another") == "table"


async def test_finished_while_away_tables_do_not_lock_out_after_a_restart(tmp_path, autojump_clock):
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path, max_tables=2))
        for name in ("Aino", "Bertil"):
            person = await start_alone_with_a_computer(server.port, name)
            await person.aclose()
        for _ in range(60):
            if not any(t.in_play for t in server.lobby.tables.values()):
                break
            await trio.sleep(60)
        await server.shutdown()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path, max_tables=2))
        assert await create(server.port, "Newcomer") == "table"
        assert await create(server.port, "Another") == "table"
        await server.shutdown()


def test_parked_tables_are_not_loaded_at_start_and_their_number_is_bounded(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for number in range(1, 6):
        journal.table_opened(f"t{number}", number, f"T{number}", 2, 2, 7, False, None)
        journal.table_parked(f"t{number}", 2)
    journal.table_opened("t6", 6, "Open", 2, 2, 7, False, None)
    journal.close()  # commits what was written
    assert [t.id for t in Journal(path).load()] == ["t6"]
    db = sqlite3.connect(path)
    try:
        parked = db.execute(f"SELECT id FROM tables WHERE closed = {PARKED}").fetchall()
    finally:
        db.close()
    assert sorted(parked) == [("t4",), ("t5",)]  # the newest two kept for their players


async def test_a_parked_table_is_not_brought_back_by_a_restart_but_by_its_player(
    tmp_path, autojump_clock
):
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path, max_tables=1))
        aino = await start_alone_with_a_computer(server.port, "Aino")
        token, first = aino.welcome.resume, aino.table.id
        await aino.aclose()
        await trio.sleep(1)
        assert await create(server.port, "Second", []) == "table"  # parks Aino's
        await server.shutdown()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path, max_tables=1))
        assert first not in server.lobby.tables  # parked: only a resume brings it back
        back = await NetClient.connect(server.port, "Aino", resume=token)
        await back.expect("snapshot")
        assert first in server.lobby.tables
        await server.shutdown()
