"""A match over real TCP against the real `sarja-server` process: first to 2 game wins,
with a `kill -9` of the server between two of its games and another in the middle of
one. The score and the game in play survive each; the match ends at 2 and says who won;
the usual rematch starts a new match."""

from __future__ import annotations

import random
import re
import signal
import subprocess
from pathlib import Path

import trio

from sarja.protocol.messages import (
    CreateTable,
    Join,
    Leave,
    ListTables,
    MatchScore,
    Ready,
    Rematch,
    TableView,
)
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.guest import Guest
from sarja.server.match import Match

from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end
from .test_server_process import SERVER, read_lines_until
from .test_server_table import Room, play_out, seat_everyone

_PORT = re.compile(r"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$")


class Server:
    """The real server process on `data_dir`, until `kill` (SIGKILL, `kill -9`)."""

    def __init__(self, process: trio.Process, port: int) -> None:
        self.process, self.port = process, port

    @classmethod
    async def start(cls, data_dir: Path) -> Server:
        command = [SERVER, "--host", "127.0.0.1", "--port", "0", "--seed", "4",
                   "--data-dir", str(data_dir)]  # fmt: skip
        process = await trio.lowlevel.open_process(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        assert process.stdout is not None
        seen: list[str] = []
        try:
            match = await read_lines_until(process.stdout, _PORT, seen)
        except BaseException:
            process.kill()
            await process.wait()
            raise
        return cls(process, int(match.group(1)))

    async def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        with trio.fail_after(PATIENCE):
            await self.process.wait()


async def resume_all(server: Server, clients: list[NetClient]) -> list[NetClient]:
    """Every client connects again with its newest resume token, in seat order."""
    back = []
    for client in clients:
        await client.aclose()
        token = client.session.welcome.resume
        back.append(await NetClient.connect(server.port, client.name, resume=token))
    return back


async def table_with(client: NetClient, games: int) -> object:
    """Read until the table shows a match score of `games` games."""
    with trio.fail_after(PATIENCE):
        while (
            client.table is None
            or client.table.match is None
            or (len(client.table.match.games) != games)
        ):
            await client.receive()
    return client.table.match


async def next_game(clients: list[NetClient], number: int) -> None:
    """Everyone is ready; the next game of the match is dealt to each."""
    for client in clients:
        await client.send(Ready(ready=True))
    for client in clients:
        with trio.fail_after(PATIENCE):
            while client.state is None or client.state.result is not None:
                await client.receive()


async def play_some(clients: list[NetClient], rng: random.Random, moves: int) -> int:
    """`moves` random legal actions (the game goes on after them)."""
    for client in clients:  # each up to date: whoever came back last moved it on
        await client.check_mirror()
    version = max(c.state.version for c in clients if c.state is not None)
    for _ in range(moves):
        for client in clients:
            await client.state_at(version)
        state = clients[0].state
        assert state is not None and state.result is None
        seat = rng.choice([state.turn, *state.pending_draw])
        mover = next(c for c in clients if c.state is not None and c.state.seat == seat)
        mine = await mover.legal_at(version)
        await mover.send(mover.action_message(rng.choice(mine.legal)))
        version = (await mover.expect("ack")).version
    return version


async def test_a_match_to_two_survives_kill_9_between_games_and_in_one(tmp_path):
    rng = random.Random(3)
    server = await Server.start(tmp_path)
    try:
        aino = await NetClient.connect(server.port, "Aino")
        bertil = await NetClient.connect(server.port, "Bertil")
        await aino.send(CreateTable(name="Evening", players=2, teams=2, match_to=2))
        table = await aino.expect("table")
        assert table.match.to == 2 and table.match.games == ()
        await bertil.send(Join(table=table.id))
        await bertil.expect("table")
        clients = [aino, bertil]
        await next_game(clients, 1)
        games: list[int | None] = []
        killed_between = killed_during = False
        while True:
            final = await play_to_the_end(clients, rng, check_every=40)
            assert final.result is not None
            games.append(final.result.side)
            for client in clients:
                match = await table_with(client, len(games))
                assert list(match.games) == games
            if match.winner is not None:
                break
            if not killed_between:
                # Between two games of the match: the score must come back.
                await server.kill()
                server = await Server.start(tmp_path)
                clients = await resume_all(server, clients)
                for client in clients:
                    assert list((await table_with(client, len(games))).games) == games
                killed_between = True
            await next_game(clients, len(games) + 1)
            if not killed_during:
                # In the middle of a game of the match: it goes on where it was.
                version = await play_some(clients, rng, 12)
                board = (await clients[0].state_at(version)).board
                await server.kill()
                server = await Server.start(tmp_path)
                clients = await resume_all(server, clients)
                for client in clients:
                    assert list((await table_with(client, len(games))).games) == games
                    await client.expect("snapshot")
                    assert client.state is not None and client.state.result is None
                    assert client.state.board == board
                killed_during = True
        assert killed_between and killed_during
        winner = match.winner
        assert winner is not None and games.count(winner) == 2
        # The lobby's list says it too.
        watcher = await NetClient.connect(server.port, "Cecilia")
        await watcher.send(ListTables())
        listed = await watcher.expect("tables")
        assert [t.match.games for t in listed.tables] == [tuple(games)]
        # The match is over: the usual rematch starts a new one, from nothing.
        for client in clients:
            await client.send(Rematch())
        for client in clients:
            await table_with(client, 0)
            with trio.fail_after(PATIENCE):
                while client.state is None or client.state.result is not None:
                    await client.receive()
    finally:
        await server.kill()


# ----- in this process: the table's rules of a match ---------------------------------


def test_a_drawn_game_counts_for_nobody_and_the_match_ends_at_n():
    match = Match(2)
    match.game_over("t1", None)
    match.game_over("t1", 1)
    assert match.winner is None and not match.over
    match.game_over("t1", 0)
    assert match.winner is None
    match.game_over("t1", 1)
    assert match.winner == 1 and match.over
    assert match.part() == MatchScore(to=2, games=(None, 1, 0, 1))
    match.new_match("t1")
    assert match.games == [] and match.number == 2


async def two_at_a_match(port: int) -> list[NetClient]:
    aino = await NetClient.connect(port, "Aino")
    bertil = await NetClient.connect(port, "Bertil")
    await aino.send(CreateTable(name="Evening", players=2, teams=2, match_to=3))
    table = await aino.expect("table")
    await bertil.send(Join(table=table.id))
    await bertil.expect("table")
    await next_game([aino, bertil], 1)
    return sorted([aino, bertil], key=lambda c: c.state.seat if c.state else 0)


async def test_between_games_ready_or_rematch_starts_the_next_and_leaving_keeps_the_score(nursery):
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=7))
    clients = await two_at_a_match(server.port)
    aino, bertil = clients
    cecilia = await NetClient.connect(server.port, "Cecilia")  # in the lobby
    final = await play_to_the_end(clients, random.Random(5), check_every=50)
    won = final.result.side
    for client in clients:
        assert (await table_with(client, 1)).games == (won,)
    # The lobby is told the new score, without asking.
    with trio.fail_after(PATIENCE):
        while True:
            listed = await cecilia.expect("tables")
            if listed.tables and listed.tables[0].match.games == (won,):
                break
    # Ready for game 2: a rematch counts as ready, and nobody votes.
    await aino.send(Rematch())
    with trio.fail_after(PATIENCE):
        while not aino.table.seats[aino.state.seat].ready:
            await aino.receive()
    assert aino.table.rematch == () and aino.state.result is not None
    await bertil.send(Ready(ready=True))
    for client in clients:
        with trio.fail_after(PATIENCE):
            while client.state.result is not None:
                await client.receive()
    assert aino.table.match.games == (won,)
    # A game of the match ends; Bertil leaves before the next: the table waits for a
    # player again, and the match goes on with the score as it was.
    await play_to_the_end(clients, random.Random(6), check_every=50)
    score = (await table_with(aino, 2)).games
    await bertil.send(Leave())
    with trio.fail_after(PATIENCE):
        while aino.table.started:
            await aino.receive()
    assert aino.table.match == MatchScore(to=3, games=score)


async def test_a_connection_lost_between_games_keeps_the_seat_and_the_score(nursery):
    # A dropped link between two games of a match freed the seat, as leaving does, and
    # the score started afresh for everyone.
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=7))
    aino, bertil = await two_at_a_match(server.port)
    final = await play_to_the_end([aino, bertil], random.Random(5), check_every=50)
    won = final.result.side
    await table_with(bertil, 1)
    token = bertil.session.welcome.resume
    seat = bertil.state.seat
    await bertil.aclose()
    with trio.fail_after(PATIENCE):
        while not aino.table.seats[seat].away:
            await aino.receive()
    assert aino.table.seats[seat].name == "Bertil" and aino.table.match.games == (won,)
    back = await NetClient.connect(server.port, "Bertil", resume=token)
    table = await back.expect("table")
    assert table.seat == seat and table.match.games == (won,) and not table.seats[seat].away
    await next_game([aino, back], 2)
    assert aino.table.match.games == (won,)


async def away_between_games(client: NetClient, seat: int) -> None:
    with trio.fail_after(PATIENCE):
        while client.table is None or not client.table.seats[seat].away:
            await client.receive()


async def test_every_player_dropping_between_games_keeps_the_match_for_them(nursery):
    # The last connection lost between two games closed the table: the match was
    # gone and the resume token refused (one person against computers lost it so).
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=7))
    aino, bertil = await two_at_a_match(server.port)
    final = await play_to_the_end([aino, bertil], random.Random(5), check_every=50)
    await table_with(aino, 1)
    await table_with(bertil, 1)
    await bertil.aclose()
    await away_between_games(aino, bertil.state.seat)
    await aino.aclose()
    back = await NetClient.connect(server.port, "Aino", resume=aino.session.welcome.resume)
    table = await back.expect("table")
    assert table.seat == aino.state.seat and table.match.games == (final.result.side,)


async def test_a_player_who_drops_between_games_is_no_longer_ready_for_the_next(nursery):
    # Ready, then gone: the next game was dealt to a seat no one was at.
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=7))
    aino, bertil = await two_at_a_match(server.port)
    await play_to_the_end([aino, bertil], random.Random(5), check_every=50)
    await table_with(bertil, 1)
    seat = bertil.state.seat
    await bertil.send(Ready(ready=True))
    with trio.fail_after(PATIENCE):
        while not aino.table.seats[seat].ready:
            await aino.receive()
    await bertil.aclose()
    await away_between_games(aino, seat)
    assert not aino.table.seats[seat].ready
    back = await NetClient.connect(server.port, "Bertil", resume=bertil.session.welcome.resume)
    await back.expect("table")
    assert aino.state.result is not None  # still between the games
    await next_game([aino, back], 2)


async def test_a_seat_kept_between_games_is_freed_when_its_player_stays_away(nursery):
    # A seat kept for a dropped player held the next game up for ever.
    config = ServerConfig(host="127.0.0.1", port=0, seed=7, ready_timeout=0.2, sweep_every=0.05)
    server = await nursery.start(serve, config)
    aino, bertil = await two_at_a_match(server.port)
    await play_to_the_end([aino, bertil], random.Random(5), check_every=50)
    await table_with(aino, 1)
    await aino.send(Ready(ready=True))  # Aino waits for Bertil (unready, she is freed too)
    seat = bertil.state.seat
    await bertil.aclose()
    with trio.fail_after(PATIENCE):  # away, then freed by the sweep: a waiting room
        while aino.table is None or aino.table.seats[seat].name is not None:
            await aino.receive()
    assert not aino.table.started and aino.table.seats[aino.table.seat].name == "Aino"


def match_room(to: int, games: list[int | None]) -> tuple[Room, list[Guest]]:
    """Two people at a table playing a match to `to`, its score `games` so far."""
    room = Room(2, None, seed=3)
    room.table.match = Match(to, list(games))
    return room, seat_everyone(room, ["Aino", "Bertil"])


def test_a_decided_match_s_result_stays_when_a_player_leaves_after_it():
    # A sarja-bot leaving at the end of a match's last game wiped its score: the end
    # screen said "Blue 0, Green 0, game 1 of the match is next" under "Green wins".
    rng = random.Random(4)
    room, (aino, bertil) = match_room(2, [0, 1])  # 1 – 1: the next win decides it
    table = room.table
    while True:
        play_out(room, [aino, bertil], rng)
        assert table.match is not None
        if table.match.over:
            break
        for person in (aino, bertil):  # a drawn game: the match goes on
            table.set_ready(person, True, room.now)
        room.carry()
    final = table.match.part()
    table.leave(bertil, room.now)
    room.carry()
    assert table.match.part() == final and table.match.number == 1
    view = room.last(aino, TableView)
    assert isinstance(view, TableView) and view.match == final and view.match.winner is not None
    # The rematch, when the seat is taken again, starts the next match.
    dora = room.guest("Dora")
    table.join(dora, None, None, room.now)
    for person in (aino, dora):
        table.set_ready(person, True, room.now)
    assert table.in_play and table.match.games == [] and table.match.number == 2


def one_game_won(rng: random.Random) -> tuple[Room, list[Guest]]:
    """Aino and Bertil at a match to 3, after its first game that one of them won."""
    room, people = match_room(3, [])
    match = room.table.match
    assert match is not None
    play_out(room, people, rng)
    while match.games[-1] is None:  # drawn: play another
        for person in people:
            room.table.set_ready(person, True, room.now)
        play_out(room, people, rng)
    return room, people


def test_a_player_leaving_between_games_of_a_match_leaves_its_score_to_the_sides():
    # Leaving between two games started the score afresh (Blue's 1 – 0 became 0 – 0
    # under "Blue wins"): the score is the sides', and the match goes on with whoever
    # takes the seat.
    rng = random.Random(5)
    room, (aino, bertil) = one_game_won(rng)
    table = room.table
    assert table.match is not None
    score = table.match.part()
    assert not score.over
    table.leave(bertil, room.now)
    room.carry()
    assert not table.started and table.match.part() == score
    view = room.last(aino, TableView)
    assert isinstance(view, TableView) and view.match == score
    dora = room.guest("Dora")
    table.join(dora, None, None, room.now)
    for person in (aino, dora):
        table.set_ready(person, True, room.now)
    room.carry()
    assert table.in_play and table.match.part() == score and table.match.number == 1
    play_out(room, [aino, dora], rng)
    assert table.match.games[: len(score.games)] == list(score.games)
    assert len(table.match.games) == len(score.games) + 1


def test_a_connection_lost_while_a_match_waits_for_a_seat_keeps_the_seat():
    # A player who leaves between games leaves the score to the sides, and the table
    # waits for someone to take the seat: a dropped connection there freed the other
    # player's seat too, and their side's wins went to whoever sat down next.
    rng = random.Random(5)
    room, (aino, bertil) = one_game_won(rng)
    table = room.table
    assert table.match is not None
    score = table.match.part()
    table.leave(bertil, room.now)
    seat = aino.seat
    assert seat is not None
    aino.outbox = None  # the connection is gone
    table.went_away(aino, room.now)
    room.carry()
    assert table.seats[seat] is aino and table.away()[seat]
    assert table.match.part() == score
    # Someone else takes the free seat and is ready: the match waits for Aino.
    dora = room.guest("Dora")
    table.join(dora, None, None, room.now)
    table.set_ready(dora, True, room.now)
    assert not table.started
    # Not back within the ready timeout: the seat is freed, as between two games.
    assert table.squatters(room.now, 10.0) == []
    assert table.squatters(room.now + 11.0, 10.0) == [aino]


async def test_the_last_player_dropping_while_a_match_waits_for_a_seat_keeps_it(nursery):
    # Bertil leaves between games (the score stays the sides'), then Aino's connection
    # is lost: the table was closed with its match, and her resume token refused.
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=7))
    aino, bertil = await two_at_a_match(server.port)
    final = await play_to_the_end([aino, bertil], random.Random(5), check_every=50)
    await table_with(aino, 1)
    seat = aino.table.seat
    await bertil.send(Leave())
    with trio.fail_after(PATIENCE):
        while aino.table.started:
            await aino.receive()
    await aino.aclose()
    back = await NetClient.connect(server.port, "Aino", resume=aino.session.welcome.resume)
    table = await back.expect("table")
    assert table.seat == seat and table.match.games == (final.result.side,)
    await back.aclose()
    await bertil.aclose()
