"""What one address can set running at a server: tables where the computer may play
or advise (computer seats, a stand-in level, a turn clock, hints) count against the
address at creation and at every game start; a game with a turn clock that every
player left is put away within a minute; hints are bounded per address and the
search workers go first to whoever they served longest ago; and a match frees a seat
never readied between games, as a waiting room does."""

from __future__ import annotations

import random
import threading
from typing import Any

import trio

from sarja.protocol.messages import AskHint, CreateTable, Join, Ready, Rematch
from sarja.server.app import serve
from sarja.server.computers import Computers
from sarja.server.engine import Arrangement, Game, seat_view

from .netclient import PATIENCE, NetClient
from .test_server_computer_budget import computer_table, connect
from .test_server_computers import fast, over, play_until
from .test_server_hints import my_turn
from .test_server_match import one_game_won


async def test_a_rematch_counts_against_the_address_as_a_new_table_would(nursery):
    """Two computer games from one address played out, two more tables made while they
    were over (finished games free their places), then a rematch at the first: refused,
    and no third game of computers runs from that address."""
    server = await nursery.start(serve, fast(computer_tables_per_address=2))
    lobby = server.lobby
    first = [await connect(server.port, f"Aino{i}") for i in range(2)]
    for i, client in enumerate(first):
        await computer_table(client, level="easy")
        await play_until(client, random.Random(i), over)
    later = [await connect(server.port, f"Bertil{i}") for i in range(2)]
    for client in later:
        await computer_table(client, level="easy")  # two in play: the address's two places
    await first[0].send(Rematch())
    error = await first[0].expect("error")
    assert error.code == "too_many_computer_tables"
    assert sum(t.in_play for t in lobby.tables.values()) == 2
    elsewhere = await connect(server.port, "Cecilia", source="127.0.0.2")
    assert (await computer_table(elsewhere, level="easy")).TYPE == "table"  # not held back


async def test_the_next_game_of_a_match_counts_too(nursery):
    """A match between its games holds no place; its next game must find one."""
    server = await nursery.start(serve, fast(computer_tables_per_address=1))
    aino = await connect(server.port, "Aino")
    await aino.send(
        CreateTable(name="Match", players=2, teams=2, computers=(None, "easy"), match_to=3)
    )
    await aino.expect("table")
    await aino.send(Ready(ready=True))
    await aino.expect("snapshot")
    await play_until(aino, random.Random(3), over)
    bertil = await connect(server.port, "Bertil")
    await computer_table(bertil, level="easy")  # the address's one place, while Aino's is over
    await aino.send(Ready(ready=True))
    assert (await aino.expect("error")).code == "too_many_computer_tables"


async def test_tables_with_a_turn_clock_or_hints_count_against_the_address(nursery):
    """A turn clock hands a person's turns to the computer, and hints are the computer's
    searches: from one address, tables with either count as those with computer seats."""
    server = await nursery.start(serve, fast(computer_tables_per_address=1))
    aino = await connect(server.port, "Aino")
    await aino.send(CreateTable(name="Clock", players=2, teams=2, turn_clock=10))
    assert (await aino.expect("table")).turn_clock == 10
    for rules in ({"turn_clock": 10}, {"hints": True}, {"computer_takeover": "easy"}):
        bertil = await connect(server.port, "Bertil")
        await bertil.send(CreateTable(name="More", players=2, teams=2, **rules))
        assert (await bertil.expect("error")).code == "too_many_computer_tables", rules
        await bertil.aclose()
    bertil = await connect(server.port, "Bertil")
    await bertil.send(CreateTable(name="People", players=2, teams=2))
    await bertil.expect("table")
    other = await connect(server.port, "Cecilia", source="127.0.0.2")
    await other.send(CreateTable(name="Hints", players=2, teams=2, hints=True))
    await other.expect("table")


async def two_left(server: Any, **rules: Any) -> Any:
    """Two people from one address start a two-seat game with `rules` and both go: the
    table."""
    aino, bertil = [await connect(server.port, name) for name in ("Aino", "Bertil")]
    await aino.send(CreateTable(name="Left", players=2, teams=2, **rules))
    reply = await aino.expect("table")
    await bertil.send(Join(table=reply.id))
    await bertil.expect("table")
    for client in (aino, bertil):
        await client.send(Ready(ready=True))
    for client in (aino, bertil):
        await client.expect("snapshot")
        await client.aclose()
    table = server.lobby.tables[reply.id]
    with trio.fail_after(PATIENCE):
        while not table.left_by_all:
            await trio.sleep(0.01)
    return table


async def test_a_clock_game_everyone_left_is_put_away_at_the_next_sweep(nursery):
    """Its players' clocks would run out one after another once their stand-in grace
    ended, and the computer would play the whole game for no one: the sweep after the
    one that finds it deserted puts it away (sweeps come every 30 s, so within a minute
    and before the grace of a minute is out), where a game without a clock is kept for
    ten minutes."""
    server = await nursery.start(serve, fast(computer_tables_per_address=10))
    lobby = server.lobby
    clock = await two_left(server, turn_clock=10)
    plain = await two_left(server)
    now = trio.current_time()
    lobby.sweep(now)
    assert clock.id in lobby.tables
    lobby.sweep(now + lobby.config.sweep_every)
    assert clock.id not in lobby.tables  # parked: kept in the journal, out of memory
    assert plain.id in lobby.tables
    lobby.sweep(now + lobby.config.abandon_after + 1)
    assert plain.id not in lobby.tables


async def test_a_table_a_resume_brings_back_counts_against_the_address(nursery):
    """A game the computer may play, parked while everyone was gone and brought back by
    a resume, counts as it did before: else parking and resuming would let one address
    keep any number of them playing."""
    config = fast(computer_tables_per_address=1, takeover_delay=30)  # no move meanwhile
    server = await nursery.start(serve, config)
    lobby = server.lobby
    aino = await connect(server.port, "Aino")
    reply = await computer_table(aino, level="easy")
    token = aino.welcome.resume
    await aino.aclose()
    table = lobby.tables[reply.id]
    with trio.fail_after(PATIENCE):
        while not table.left_by_all:
            await trio.sleep(0.01)
    now = trio.current_time()
    lobby.sweep(now)
    lobby.sweep(now + lobby.config.abandon_after + 1)
    assert not lobby.tables
    back = await NetClient.connect(server.port, "Aino", resume=token)  # from 127.0.0.1
    await back.expect("snapshot")
    assert reply.id in lobby.tables
    bertil = await connect(server.port, "Bertil")
    await bertil.send(CreateTable(name="More", players=2, teams=2, computers=(None, "easy")))
    assert (await bertil.expect("error")).code == "too_many_computer_tables"


async def test_hints_are_bounded_per_address(nursery):
    """However many connections one address opens, it gets only so many hints in the
    window (each may start a search); a hint asked again for the same position is
    answered from the last one and not counted; other addresses are not held back."""
    config = fast(search_processes=False, hint_burst=2, computer_tables_per_address=10)
    server = await nursery.start(serve, config)
    clients = []
    for i, source in enumerate(("127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.2")):
        client = await connect(server.port, f"Aino{i}", source=source)
        await client.send(
            CreateTable(name="Lesson", players=2, teams=2, computers=(None, "easy"), hints=True)
        )
        await client.expect("table")
        await client.send(Ready(ready=True))
        await client.expect("snapshot")
        clients.append(client)
    for client in clients[:2]:
        version = await my_turn(client)
        for _ in range(2):
            await client.send(AskHint(version=version))
            await client.expect("hint")
    version = await my_turn(clients[2])
    await clients[2].send(AskHint(version=version))
    error = await clients[2].expect("error")
    assert error.code == "hints_too_fast" and "2 hints" in error.message
    version = await my_turn(clients[3])
    await clients[3].send(AskHint(version=version))
    await clients[3].expect("hint")


class Gate:
    """A search in a worker thread that waits for the test to let each one end, and
    says whose it was (by the view's seat)."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer  # the move every search comes back with
        self.order: list[int | None] = []
        self.started = threading.Semaphore(0)
        self.go = threading.Semaphore(0)

    def __call__(self, level: str, seed: int, think: float | None, view: Any) -> Any:
        self.order.append(view.seat)
        self.started.release()
        self.go.acquire(timeout=PATIENCE)
        return self.answer


async def test_a_rare_askers_hint_goes_before_a_floods_queue():
    """One worker, held by an address that asks hint after hint: a player who asks
    once gets the worker as soon as the search under way ends, before the flood's
    queued ones (served first come, first served, she waited behind all of them and
    got medium's move when her budget ran out)."""
    game = Game.new(Arrangement.of(2, 2), random.Random(1))
    flood_view, her_view = seat_view(game, 0), seat_view(game, 1)
    computers = Computers(0.0, 60.0, 0.01, 1, workers=1, processes=False)
    gate = computers.search = Gate(game.legal_actions(game.turn)[0])
    answers: list[str] = []

    async def ask(view: Any, address: str) -> None:
        await computers.advise(view, address)
        answers.append(address)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(ask, flood_view, "127.0.0.2")
        assert await trio.to_thread.run_sync(gate.started.acquire, True, PATIENCE)
        for _ in range(3):
            nursery.start_soon(ask, flood_view, "127.0.0.2")
        await trio.sleep(0.05)  # the flood's hints wait in line for the worker
        nursery.start_soon(ask, her_view, "127.0.0.3")
        await trio.sleep(0.05)
        for _ in range(5):
            gate.go.release()
            await trio.to_thread.run_sync(gate.started.acquire, True, 1.0)
    computers._close_pool()
    assert gate.order[:2] == [0, 1]  # hers right after the search under way
    assert computers.searches == 5 and computers.crowded == 0


def test_a_match_frees_a_seat_never_readied_between_games():
    """Between two games of a match, a connected player who never says ready held the
    seat (and the match) for ever; a full waiting room frees such a seat after the
    patience, and so does a match now."""
    room, (aino, bertil) = one_game_won(random.Random(5))
    table = room.table
    assert table.between_games
    table.set_ready(aino, True, room.now)
    assert bertil.connected and bertil.table is table
    assert table.squatters(room.now, 10.0) == []
    assert table.squatters(room.now + 11.0, 10.0) == [bertil]
