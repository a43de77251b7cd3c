"""The coach's hints at a real server on 127.0.0.1: a seat on turn at a table that
allows hints gets one of its own legal moves with a reason; the same position is
searched once; a table that does not allow them, another seat's turn, an old version
and a second hint while one is worked out are refused with their codes."""

from __future__ import annotations

import threading
from typing import Any

import trio

from sarja.protocol.messages import AskHint, CreateTable, ListTables, Ready
from sarja.protocol.server_messages import HINT_REASONS
from sarja.server.app import serve
from sarja.server.bots import make_player

from .netclient import PATIENCE, NetClient
from .test_server_computers import fast


async def seated_against_the_computer(server: Any, hints: bool) -> NetClient:
    aino = await NetClient.connect(server.port, "Aino")
    table = CreateTable(name="Lesson", players=2, teams=2, computers=(None, "medium"), hints=hints)
    await aino.send(table)
    assert (await aino.expect("table")).hints is hints  # the table says whether it allows them
    await aino.send(Ready(ready=True))
    await aino.expect("snapshot")
    return aino


async def my_turn(client: NetClient) -> int:
    """Wait until it is this client's turn; the version it is at."""
    with trio.fail_after(PATIENCE):
        while True:
            state = client.state
            if state is not None and state.turn == state.seat and state.legal:
                return state.version
            await client.receive()


async def test_a_hint_is_one_of_the_seats_own_moves_with_its_reason(nursery):
    server = await nursery.start(serve, fast(search_processes=False))
    aino = await seated_against_the_computer(server, hints=True)
    version = await my_turn(aino)
    await aino.send(AskHint(version=version))
    hint = await aino.expect("hint")
    assert hint.version == version
    assert hint.action in aino.state.legal and hint.reason in HINT_REASONS
    searches = server.computers.searches
    await aino.send(AskHint(version=version))  # the same position: the same answer, at once
    again = await aino.expect("hint")
    assert again == hint and server.computers.searches == searches
    await aino.send(AskHint(version=version + 1))
    assert (await aino.expect("error")).code == "no_hint"
    await aino.send(aino.action_message(hint.action))  # the hint is a move the server takes
    await aino.expect("ack")
    await aino.send(AskHint(version=version + 1))  # the computer's turn now
    assert (await aino.expect("error")).code == "no_hint"


async def test_a_table_that_does_not_allow_hints_refuses_them(nursery):
    server = await nursery.start(serve, fast(search_processes=False))
    aino = await seated_against_the_computer(server, hints=False)
    version = await my_turn(aino)
    await aino.send(AskHint(version=version))
    error = await aino.expect("error")
    assert error.code == "hints_off" and "hints" in error.message


async def test_one_hint_at_a_time_per_connection(nursery):
    server = await nursery.start(serve, fast(search_processes=False, computer_budget=30.0))
    go_on = threading.Event()

    def slow_search(level: str, seed: int, think: float | None, view: Any) -> Any:
        go_on.wait(PATIENCE)  # a search that takes a while (the budget is long)
        return make_player("medium", seed=seed).choose(view)

    server.computers.search = slow_search
    aino = await seated_against_the_computer(server, hints=True)
    version = await my_turn(aino)
    await aino.send(AskHint(version=version))
    await aino.send(AskHint(version=version))
    assert (await aino.expect("error")).code == "hint_busy"
    go_on.set()
    hint = await aino.expect("hint")
    assert hint.action in aino.state.legal


async def test_a_table_keeps_allowing_hints_after_a_restart(tmp_path):
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(search_processes=False, data_dir=tmp_path))
        aino = await seated_against_the_computer(server, hints=True)
        await my_turn(aino)
        token = aino.welcome.resume
        nursery.cancel_scope.cancel()
    await aino.aclose()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(search_processes=False, data_dir=tmp_path))
        back = await NetClient.connect(server.port, "Aino", resume=token)
        await back.expect("snapshot")
        assert back.table.hints
        version = await my_turn(back)
        [table] = server.lobby.tables.values()
        assert version != table.game.version  # the wire's versions go on from before
        await back.send(AskHint(version=version))
        assert (await back.expect("hint")).action in back.state.legal
        nursery.cancel_scope.cancel()


async def test_the_lobbys_list_says_which_tables_allow_hints(nursery):
    # The waiting room said "hints on"; the lobby's rules left it out: its list had no
    # field for it.
    server = await nursery.start(serve, fast(search_processes=False))
    hosts = []  # kept: a table no one is at goes
    for name, hints in (("Lesson", True), ("Duel", False)):
        hosts.append(await NetClient.connect(server.port, f"Host {name}"))
        await hosts[-1].send(CreateTable(name=name, players=2, teams=2, hints=hints))
        await hosts[-1].expect("table")
    bertil = await NetClient.connect(server.port, "Bertil")
    await bertil.send(ListTables())
    listed = {t.name: t.hints for t in (await bertil.expect("tables")).tables}
    assert listed == {"Lesson": True, "Duel": False}
