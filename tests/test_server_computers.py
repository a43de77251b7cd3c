"""Computer seats at a real server on 127.0.0.1: a person and three computers play a
whole game over TCP; an away player's seat is handed to the computer and taken back;
computer seats survive a restart; a search that runs late is cut short; a journal of
the first version is brought up to date."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import trio

from sarja.protocol.messages import (
    CreateTable,
    HandOver,
    Join,
    Leave,
    ListTables,
    Ready,
    Rematch,
    SeatComputer,
    Spectate,
)
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.journal import FILE_NAME, SCHEMA_VERSION, Journal

from .netclient import PATIENCE, NetClient
from .server_helpers import seat_table

LEVELS = (None, "easy", "medium", "hard")


def fast(**more: Any) -> ServerConfig:
    """A server whose computers move at once and search briefly."""
    settings: dict[str, Any] = {"takeover_delay": 0, "think_time": 0.02, "seed": 7}
    return ServerConfig(host="127.0.0.1", port=0, **{**settings, **more})


async def play_until(client: NetClient, rng: random.Random, done: Any, timeout: float = 60) -> None:
    """Play this client's seat (random legal moves, from what the server sent it) until
    `done(client)` holds after a message."""
    acted = -1
    with trio.fail_after(timeout):
        while not done(client):
            state = client.state
            mine = state is not None and state.result is None and bool(state.legal)
            if mine and state is not None and state.version != acted:
                acted = state.version
                await client.send(client.action_message(rng.choice(state.legal)))
            await client.receive()


def over(client: NetClient) -> bool:
    return client.state is not None and client.state.result is not None


def notices(client: NetClient, kind: str) -> list[Any]:
    return [m for m in client.received if m.TYPE == "notice" and m.kind == kind]


async def test_one_person_and_three_computers_play_a_game_to_the_end(nursery):
    server = await nursery.start(serve, fast())
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Solo", players=4, teams=2, computers=LEVELS))
    table = await aino.expect("table")
    assert table.seat == 0 and not table.started
    assert [s.computer for s in table.seats] == list(LEVELS)
    assert [s.ready for s in table.seats] == [False, True, True, True]
    names = [s.name for s in table.seats]
    assert names[0] == "Aino" and len(set(names)) == 4 and "Aino" not in names[1:]
    browsing = await NetClient.connect(server.port, "Browsing")
    await browsing.send(ListTables())
    [summary] = (await browsing.expect("tables")).tables
    assert summary.computers == LEVELS and summary.seated == tuple(names)
    await aino.send(Ready(ready=True))  # the only person: the game starts at once
    assert (await aino.expect("snapshot")).version == 0
    await play_until(aino, random.Random(1), over)
    assert aino.state.result is not None
    thinking = {n.seat for n in notices(aino, "thinking")}
    assert thinking == {1, 2, 3}  # every computer thought aloud, and only they did
    assert server.computers.moves > 0
    await aino.check_mirror()  # reads on past the `table` that follows the end
    # The computers ask for a rematch at once; ours starts the next game.
    assert aino.table.rematch == (1, 2, 3)
    await aino.send(Rematch())
    assert (await aino.expect("snapshot")).version == 0


async def test_a_computer_gives_up_its_name_to_a_person_who_comes_with_it(nursery, tmp_path):
    # Aino's table named its computer Bertil, and Bertil could not join ("Someone at
    # this table is already called Bertil"); "aino" could not even make a table with one.
    server = await nursery.start(serve, fast(data_dir=tmp_path))
    aino = await NetClient.connect(server.port, "aino")
    await aino.send(CreateTable(name="Friday", players=4, teams=2, computers=(None, "easy")))
    made = await aino.expect("table")
    assert [s.name for s in made.seats[:2]] == ["aino", "Bertil"]  # not "Aino"
    bertil = await NetClient.connect(server.port, "Bertil")
    await bertil.send(Join(table=made.id))
    table = await bertil.expect("table")
    names = [s.name for s in table.seats]
    assert table.seat == 2 and names[2] == "Bertil" and names[1] not in ("aino", "Bertil")
    assert table.seats[1].computer == "easy"
    with sqlite3.connect(tmp_path / FILE_NAME) as db:  # as it comes back after a restart
        kept = db.execute("SELECT name FROM seats WHERE seat = 1").fetchone()
    assert kept == (names[1],)


async def test_a_search_that_runs_late_is_cut_short(nursery):
    """A computer never keeps a table waiting past its budget: here hard may think for
    ten seconds but the budget is a twentieth of one, so medium's choice is played. The
    abandoned search keeps the one worker busy, so the moves after it play medium at
    once, without a search."""
    config = fast(think_time=10.0, computer_budget=0.05, search_workers=1)
    server = await nursery.start(serve, config)
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Hurry", players=2, teams=2, computers=(None, "hard")))
    await aino.expect("table")
    await aino.send(Ready(ready=True))
    await aino.expect("snapshot")
    computers = server.computers
    await play_until(aino, random.Random(2), lambda c: computers.moves >= 3)
    assert computers.late >= 1 and computers.late + computers.crowded >= 3
    assert computers.searches == computers.late  # never more searches than one worker runs


async def test_an_away_seat_is_handed_to_the_computer_and_taken_back(nursery):
    server = await nursery.start(serve, fast(hand_over_after=0))
    aino, bertil = await seat_table(server, 2)
    token = bertil.welcome.resume
    await aino.send(HandOver(seat=1))
    assert (await aino.expect("error")).code == "not_away"
    await bertil.aclose()
    with trio.fail_after(PATIENCE):
        while not aino.state.players[1].away:
            await aino.receive()
    await aino.send(HandOver(seat=1))
    table = await aino.expect("table")
    while table.seats[1].computer is None:  # the `table` of Bertil going came first
        table = await aino.expect("table")
    assert table.seats[1].computer == "medium" and table.seats[1].away
    await aino.send(HandOver(seat=1))
    assert (await aino.expect("error")).code == "already_computer"
    # The computer plays Bertil's seat: Aino's game goes on without him.
    rng = random.Random(3)
    await play_until(aino, rng, lambda c: len(notices(c, "thinking")) >= 2 or over(c))
    assert notices(aino, "takeover")[0].seat == 1
    # Bertil comes back: the seat is his again, and the computer stops.
    back = await NetClient.connect(server.port, "Bertil", resume=token)
    await back.expect("snapshot")
    with trio.fail_after(PATIENCE):
        while aino.table.seats[1].computer is not None or aino.state.players[1].away:
            await aino.receive()
    assert back.table.seats[1].computer is None and not back.table.seats[1].away
    made = server.computers.moves
    async with trio.open_nursery() as both:  # the two of them, to the end
        both.start_soon(play_until, aino, random.Random(5), over)
        await play_until(back, rng, over)
    assert server.computers.moves == made  # Bertil moved for himself
    assert aino.state.result == back.state.result


async def test_the_seats_show_the_computer_standing_in_for_an_away_player(nursery):
    # At a table whose computer stands in, the seats went on saying no computer played
    # the away seat once it did: the client offered `o`, and the server said "already".
    server = await nursery.start(serve, fast(hand_over_after=0.2))  # after Bertil's going
    aino, bertil = await seat_table(server, 2, computer_takeover="easy")
    await bertil.aclose()
    await play_until(aino, random.Random(6), lambda c: bool(notices(c, "takeover")) or over(c))
    assert not over(aino)
    with trio.fail_after(PATIENCE):
        while aino.table.seats[1].computer is None:
            await aino.receive()
    assert aino.table.seats[1].computer == "easy" and aino.table.seats[1].away


async def test_a_seat_is_handed_over_only_after_its_player_has_been_away_a_while(nursery):
    server = await nursery.start(serve, fast())  # the default: after 60 s
    aino, bertil = await seat_table(server, 2)
    await bertil.aclose()
    with trio.fail_after(PATIENCE):
        while not aino.state.players[1].away:
            await aino.receive()
    await aino.send(HandOver(seat=1))
    refused = await aino.expect("error")
    assert refused.code == "too_soon" and "60 s" in refused.message


async def test_computer_seats_survive_a_restart_and_play_on(tmp_path):
    rng = random.Random(4)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(data_dir=tmp_path))
        aino = await NetClient.connect(server.port, "Aino")
        await aino.send(CreateTable(name="Solo", players=4, teams=2, computers=LEVELS))
        before = await aino.expect("table")
        await aino.send(Ready(ready=True))
        await aino.expect("snapshot")
        await play_until(aino, rng, lambda c: c.state.version >= 8)
        token = aino.welcome.resume
        nursery.cancel_scope.cancel()
    await aino.aclose()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(data_dir=tmp_path))
        [table] = server.lobby.tables.values()
        # Aino is away, but the computers go on until it is her turn.
        with trio.fail_after(PATIENCE):
            while table.game.turn != 0 and table.game.outcome is None:
                await trio.sleep(0.01)
        back = await NetClient.connect(server.port, "Aino", resume=token)
        back._ids = iter(range((back.welcome.last_id or 0) + 1, 10**6))  # ids go on
        await back.expect("snapshot")
        assert [(s.name, s.computer) for s in back.table.seats] == [
            (s.name, s.computer) for s in before.seats
        ]
        await play_until(back, rng, over)
        assert {n.seat for n in notices(back, "thinking")} <= {1, 2, 3}
        nursery.cancel_scope.cancel()


V1_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, number INTEGER NOT NULL, name TEXT NOT NULL,
    players INTEGER NOT NULL, teams INTEGER NOT NULL, hand_size INTEGER NOT NULL,
    manual_draw INTEGER NOT NULL, computer_takeover INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 0, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE guests (id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL);
CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, guest_id TEXT,
    PRIMARY KEY (table_id, seat));
CREATE TABLE games (table_id TEXT NOT NULL, number INTEGER NOT NULL, cut TEXT NOT NULL,
    deck TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
    recorded INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, number));
CREATE TABLE actions (table_id TEXT NOT NULL, game INTEGER NOT NULL, n INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, action_id INTEGER,
    version INTEGER NOT NULL, reshuffles TEXT, PRIMARY KEY (table_id, game, n));
INSERT INTO tables VALUES ('t1', 1, 'Old', 2, 2, 7, 0, 1, 0, 0);
INSERT INTO guests VALUES ('g1', 'Aino', 'abc');
INSERT INTO seats VALUES ('t1', 0, 'g1');
PRAGMA user_version = 1;
"""


@pytest.mark.parametrize("takeover", [0, 1])
def test_a_first_version_journal_is_brought_up_to_date(tmp_path: Path, takeover: int) -> None:
    path = tmp_path / FILE_NAME
    db = sqlite3.connect(path)
    db.executescript(V1_SCHEMA.replace("7, 0, 1, 0, 0", f"7, 0, {takeover}, 0, 0"))
    db.close()
    journal = Journal(path)
    [table] = journal.load()
    assert table.takeover == ("medium" if takeover else None)
    assert table.names() == ["Aino", "Seat 2"] and table.computers == [None, None]
    journal.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


async def test_a_computer_never_takes_the_name_of_a_person_on_the_server(tmp_path):
    # A computer seat was called "Bertil" while Bertil was in the lobby, and one "Aino"
    # while Aino was connected; and one that had played kept its name in the waiting
    # room after, so Bertil arriving later could neither join nor watch.
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(data_dir=tmp_path))
        cecilia = await NetClient.connect(server.port, "Cecilia")
        bertil = await NetClient.connect(server.port, "Bertil")  # in the lobby
        aino = await NetClient.connect(server.port, "aino")  # connected too
        await cecilia.send(CreateTable(name="Trio", players=3, teams=3, computers=(None, "easy")))
        made = await cecilia.expect("table")
        assert made.seats[1].name not in ("Aino", "Bertil", "Cecilia"), made.seats
        assert aino.welcome is not None
        # A computer seated in the waiting room, too.
        await cecilia.send(SeatComputer(seat=2, level="easy"))
        seated = await cecilia.expect("table")
        assert seated.seats[2].name not in ("Aino", "Bertil", "Cecilia", made.seats[1].name)
        await cecilia.send(SeatComputer(seat=2, level=None))
        await cecilia.expect("table")
        await bertil.send(Join(table=made.id))
        await bertil.expect("table")
        for person in (cecilia, bertil):
            await person.send(Ready(ready=True))
        async with trio.open_nursery() as players:
            for person in (cecilia, bertil):
                players.start_soon(play_until, person, random.Random(3), over)
        played = cecilia.table.seats[1].name  # the computer that played the game
        await bertil.send(Leave())
        await bertil.expect("tables")
        with trio.fail_after(PATIENCE):
            while cecilia.table.started:
                await cecilia.receive()
        # A person arriving later with the computer's name gets it; the computer takes
        # another, and the table and the game show the new name.
        arrives = await NetClient.connect(server.port, played)
        with trio.fail_after(PATIENCE):
            while cecilia.table.seats[1].name == played:
                await cecilia.receive()
        renamed = cecilia.table.seats[1].name
        assert renamed not in (played, "Bertil", "Cecilia") and cecilia.table.seats[1].computer
        await arrives.send(ListTables())  # the lobby's list shows the new name too
        [listed] = (await arrives.expect("tables")).tables
        assert listed.seated[1] == renamed
        for request in (Spectate(table=made.id),):
            await arrives.send(request)
            assert await answer(arrives) == "table"
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:  # and so after a restart
        server = await nursery.start(serve, fast(data_dir=tmp_path))
        back = await NetClient.connect(server.port, renamed)
        await back.send(Spectate(table=made.id))
        assert await answer(back) == "table"
        assert back.table.seats[1].name not in (renamed, played)
        nursery.cancel_scope.cancel()


async def test_a_person_who_arrives_mid_game_takes_the_name_of_a_computer_playing(nursery):
    server = await nursery.start(serve, fast())
    cecilia = await NetClient.connect(server.port, "Cecilia")
    await cecilia.send(CreateTable(name="Duo", players=2, teams=2, computers=(None, "easy")))
    computer = (await cecilia.expect("table")).seats[1].name
    await cecilia.send(Ready(ready=True))
    await cecilia.expect("snapshot")
    assert cecilia.state.players[1].name == computer
    arrives = await NetClient.connect(server.port, computer)
    with trio.fail_after(PATIENCE):
        while cecilia.state.players[1].name == computer:
            await cecilia.receive()
    assert cecilia.table.seats[1].name == cecilia.state.players[1].name
    await arrives.send(Spectate(table=cecilia.table.id))
    assert await answer(arrives) == "table"
    await arrives.expect("snapshot")
    assert arrives.state.players[1].name not in (computer, "Cecilia")


async def answer(client: NetClient) -> str:
    """The answer to a join or a watch: "table" if let in, else the error's code."""
    while (reply := await client.receive()).TYPE not in ("table", "error"):
        pass
    return "table" if reply.TYPE == "table" else str(reply.code)


def test_with_every_plain_name_taken_a_computer_is_numbered():
    from sarja.server.turns import COMPUTER_NAMES, computer_names, free_computer_name

    taken = {n.upper() for n in COMPUTER_NAMES}
    assert computer_names([None, "easy", "hard"], taken) == [None, "Aino 2", "Bertil 2"]
    assert free_computer_name([*COMPUTER_NAMES, "aino 2"]) == "Bertil 2"
