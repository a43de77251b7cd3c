"""`seat_computer` at a real server on 127.0.0.1: a table's creator seats a computer in
a free seat of the waiting room, changes its level in place and takes it away again;
anyone else, any other seat, any other moment and any other level is refused; the seat
survives a restart. And the table's own steps, without trio: a level changes in one
step, and seating a computer never starts the game (its creator is not ready after)."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import struct
from pathlib import Path
from typing import Any

import msgpack
import pytest
import trio

from sarja.protocol.messages import (
    CreateTable,
    Forget,
    Join,
    Leave,
    Ready,
    SeatComputer,
    Sit,
    Spectate,
    TableView,
)
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.effects import Effects
from sarja.server.engine import Arrangement
from sarja.server.guest import Guest
from sarja.server.journal import FILE_NAME, Journal, token_hash
from sarja.server.refusal import Refusal
from sarja.server.seating import Seating
from sarja.server.table import Table

from .netclient import NetClient
from .server_helpers import BACK_TO_VERSION_8


def config(**more: Any) -> ServerConfig:
    settings: dict[str, Any] = {"takeover_delay": 0, "think_time": 0.02, "seed": 7}
    return ServerConfig(host="127.0.0.1", port=0, **{**settings, **more})


async def answer(client: NetClient) -> Any:
    """The next `table`, or the error's code."""
    while (reply := await client.receive()).TYPE not in ("table", "error"):
        pass
    return reply if reply.TYPE == "table" else str(reply.code)


async def two_at_three_seats(port: int) -> tuple[NetClient, NetClient, str]:
    aino = await NetClient.connect(port, "Aino")
    await aino.send(CreateTable(name="Friday", players=3, teams=3))
    table = await aino.expect("table")
    bertil = await NetClient.connect(port, "Bertil")
    await bertil.send(Join(table=table.id, seat=1))
    await bertil.expect("table")
    await answer(aino)  # the table with Bertil in it
    return aino, bertil, table.id


async def test_the_creator_seats_a_computer_and_takes_it_away_again(nursery):
    server = await nursery.start(serve, config())
    aino, bertil, _ = await two_at_three_seats(server.port)
    await aino.send(SeatComputer(seat=2, level="hard"))
    table = await answer(aino)
    seat = table.seats[2]
    assert seat.computer == "hard" and seat.ready and seat.name not in ("Aino", "Bertil")
    seen = await answer(bertil)  # every member sees it
    assert seen.seats[2] == seat
    await aino.send(SeatComputer(seat=2))
    table = await answer(aino)
    assert table.seats[2].name is None and table.seats[2].computer is None
    assert not table.seats[2].ready
    # Seated again, with every person ready: the game starts, and the computer plays.
    await aino.send(SeatComputer(seat=2, level="easy"))
    await answer(aino)
    for person in (aino, bertil):
        await person.send(Ready(ready=True))
    snapshot = await aino.expect("snapshot")
    assert snapshot.result is None and snapshot.players[2].name == seat.name


async def test_only_the_creator_only_a_free_seat_only_in_the_waiting_room(nursery):
    server = await nursery.start(serve, config())
    aino, bertil, table_id = await two_at_three_seats(server.port)
    refusals = [
        (bertil, SeatComputer(seat=2, level="easy"), "not_creator"),
        (aino, SeatComputer(seat=1, level="easy"), "seat_taken"),  # Bertil's
        (aino, SeatComputer(seat=0, level="easy"), "seat_taken"),  # her own
        (aino, SeatComputer(seat=3, level="easy"), "no_such_seat"),
        (aino, SeatComputer(seat=2), "not_computer"),  # free already
        (aino, SeatComputer(seat=1), "not_computer"),  # a person's
    ]
    for who, request, code in refusals:
        await who.send(request)
        assert await answer(who) == code, request
    await aino.send(SeatComputer(seat=2, level="medium"))
    await answer(aino)
    await answer(bertil)
    await bertil.send(SeatComputer(seat=2))
    assert await answer(bertil) == "not_creator"
    await aino.send(SeatComputer(seat=2, level="hard"))
    assert (await answer(aino)).seats[2].computer == "hard"  # a computer's: its level changes
    await answer(bertil)
    # Hostile bytes the codec of a real client would not send: an unknown level, a seat
    # out of range, and the message in the lobby and during a game.
    hostile = [({"seat": 2, "level": "genius"}, "bad_format"), ({"seat": 99}, "out_of_range")]
    for fields, code in hostile:
        body = msgpack.packb({"t": "seat_computer", **fields})
        await bertil.stream.send_all(struct.pack(">I", len(body)) + body)
        assert await answer(bertil) == code
    lobby = await NetClient.connect(server.port, "Cecilia")
    body = msgpack.packb({"t": "seat_computer", "seat": 2, "level": "easy"})
    await lobby.stream.send_all(struct.pack(">I", len(body)) + body)
    assert await answer(lobby) == "wrong_state"
    # Watching her table, Aino could make it a game of computers only.
    await aino.send(Leave())
    await aino.expect("tables")
    await aino.send(Spectate(table=table_id))
    await answer(aino)
    await aino.send(SeatComputer(seat=0, level="easy"))
    assert await answer(aino) == "not_a_player"
    await aino.send(Sit(seat=0))
    await answer(aino)
    for person in (aino, bertil):
        await person.send(Ready(ready=True))
    await aino.expect("snapshot")
    body = msgpack.packb({"t": "seat_computer", "seat": 2})
    await aino.stream.send_all(struct.pack(">I", len(body)) + body)
    assert await answer(aino) == "wrong_state"
    assert server.lobby.tables[table_id].computers[2] is not None  # still playing


async def test_a_seated_computer_and_the_creator_come_back_after_a_restart(tmp_path):
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(data_dir=tmp_path))
        aino, _, _ = await two_at_three_seats(server.port)
        await aino.send(SeatComputer(seat=2, level="hard"))
        name = (await answer(aino)).seats[2].name
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(data_dir=tmp_path))
        back = await NetClient.connect(server.port, "Aino", resume=aino.welcome.resume)
        table = await answer(back)
        assert (table.seats[2].name, table.seats[2].computer) == (name, "hard")
        await back.send(SeatComputer(seat=2))  # still the creator
        assert (await answer(back)).seats[2].name is None
        nursery.cancel_scope.cancel()


async def test_at_the_limit_a_computer_can_change_level_and_one_taken_away_frees_its_place(
    nursery,
):
    # An address may keep one table where computers play. The client changes a
    # computer's level by taking it away and seating another: the guard counted the
    # table itself, so the second half was refused and the seat left empty. And a
    # table whose computers were all taken away kept its place.
    server = await nursery.start(serve, config(computer_tables_per_address=1))
    aino, bertil, _ = await two_at_three_seats(server.port)
    await aino.send(SeatComputer(seat=2, level="easy"))
    await answer(aino)
    await aino.send(SeatComputer(seat=2))
    await answer(aino)
    await aino.send(SeatComputer(seat=2, level="medium"))
    assert (await answer(aino)).seats[2].computer == "medium"
    await aino.send(SeatComputer(seat=2))  # none plays at Aino's table now
    await answer(aino)
    cecilia = await NetClient.connect(server.port, "Cecilia")  # the same address
    await cecilia.send(CreateTable(name="Bots", players=2, teams=2, computers=(None, "hard")))
    assert (await answer(cecilia)).seats[1].computer == "hard"
    await aino.send(SeatComputer(seat=2, level="easy"))  # and now the place is taken
    assert await answer(aino) == "too_many_computer_tables"


async def test_the_creator_dropped_from_the_waiting_room_is_the_creator_again_by_person(nursery):
    # Aino's link dropped in the waiting room: her seat was freed and her guest (and
    # its token) forgotten, so her client came back as a new guest, no longer the
    # creator of her own table. Her person key says it is she; another's does not.
    server = await nursery.start(serve, config())
    key, other = "k" * 40, "o" * 40
    aino = await NetClient.connect(server.port, "Aino", person=key)
    await aino.send(CreateTable(name="Friday", players=3, teams=3))
    made = await aino.expect("table")
    table_id = made.id
    assert made.creator  # each `table` says so to the creator alone
    bertil = await NetClient.connect(server.port, "Bertil", person=other)
    await bertil.send(Join(table=table_id, seat=1))
    assert not (await bertil.expect("table")).creator
    await aino.aclose()
    while (await answer(bertil)).seats[0].name is not None:
        pass  # Aino's seat is free
    await bertil.send(SeatComputer(seat=2, level="easy"))
    assert await answer(bertil) == "not_creator"
    for name, person in (("Aino", None), ("Aino", other)):
        impostor = await NetClient.connect(server.port, name, person=person)
        await impostor.send(Join(table=table_id, seat=0))
        assert not (await answer(impostor)).creator
        await impostor.send(SeatComputer(seat=2, level="easy"))
        assert await answer(impostor) == "not_creator", person
        await impostor.send(Leave())
        await impostor.expect("tables")
    back = await NetClient.connect(server.port, "Aino", person=key)
    await back.send(Join(table=table_id, seat=0))
    assert (await answer(back)).creator  # her client, started again, knows it so
    await back.send(SeatComputer(seat=2, level="easy"))
    assert (await answer(back)).seats[2].computer == "easy"
    assert server.lobby.tables[table_id].creator is server.lobby.seating.tables[table_id].seats[0]


async def restarted(tmp_path: Any, before: Any, after: Any) -> None:
    """Run `before(port)` at a server on `tmp_path`, stop it, and `after(server)` at a
    new one on the same journal."""
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(data_dir=tmp_path))
        await before(server.port)
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(data_dir=tmp_path))
        await after(server)
        nursery.cancel_scope.cancel()


async def made_and_joined(
    port: int, key: str, kept: dict[str, Any], bertil_person: str | None = None
) -> tuple[NetClient, NetClient]:
    """Aino (person `key`) makes a table of three, Bertil takes seat 2: the table's id
    goes in `kept`."""
    aino = await NetClient.connect(port, "Aino", person=key)
    await aino.send(CreateTable(name="Friday", players=3, teams=3))
    kept["table"] = (await aino.expect("table")).id
    bertil = await NetClient.connect(port, "Bertil", person=bertil_person)
    await bertil.send(Join(table=kept["table"], seat=1))
    await bertil.expect("table")
    return aino, bertil


async def test_the_creator_in_the_lobby_at_a_restart_is_the_creator_after_it(tmp_path):
    # Aino made the table and went back to the lobby, which freed her seat and took her
    # guest out of the journal: after a restart the table had no creator she could be.
    key = "k" * 40
    kept: dict[str, Any] = {}

    async def before(port: int) -> None:
        aino, bertil = await made_and_joined(port, key, kept, bertil_person="b" * 40)
        kept["bertil"] = bertil.welcome.resume
        await aino.send(Leave())
        await aino.expect("tables")
        while (await answer(bertil)).seats[0].name is not None:
            pass

    async def after(server: Any) -> None:
        bertil = await NetClient.connect(server.port, "Bertil", resume=kept["bertil"])
        await answer(bertil)  # the table is back, with Bertil at it
        await bertil.send(SeatComputer(seat=2, level="easy"))
        assert await answer(bertil) == "not_creator"
        aino = await NetClient.connect(server.port, "Aino", person=key)
        await aino.send(Join(table=kept["table"], seat=0))
        await answer(aino)
        await aino.send(SeatComputer(seat=2, level="easy"))
        assert (await answer(aino)).seats[2].computer == "easy"

    await restarted(tmp_path, before, after)


async def test_the_creator_back_as_a_new_guest_is_the_creator_after_a_restart(tmp_path):
    # Aino's link dropped in the waiting room and she came back as a new guest: the
    # server knew her by her person key's hash, in memory only.
    key = "k" * 40
    kept: dict[str, Any] = {}

    async def before(port: int) -> None:
        aino, bertil = await made_and_joined(port, key, kept)
        await aino.aclose()
        while (await answer(bertil)).seats[0].name is not None:
            pass
        back = await NetClient.connect(port, "Aino", person=key)
        await back.send(Join(table=kept["table"], seat=0))
        await answer(back)
        kept["aino"] = back.welcome.resume

    async def after(server: Any) -> None:
        aino = await NetClient.connect(server.port, "Aino", resume=kept["aino"], person=key)
        await answer(aino)
        await aino.send(SeatComputer(seat=2, level="easy"))
        assert (await answer(aino)).seats[2].computer == "easy"

    await restarted(tmp_path, before, after)


def test_a_version_8_journal_keeps_the_hash_of_a_creator_it_still_keeps(tmp_path: Path) -> None:
    # Version 8 kept the creator by their guest only; the guest's row had the key's
    # hash while the creator held a seat. (A file of version 8, as the code before
    # version 9 made it, has the tables below less the new column.)
    path = tmp_path / FILE_NAME
    Journal(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(
            BACK_TO_VERSION_8
            + "INSERT INTO tables (id, number, name, players, teams, hand_size, manual_draw,"
            " computer_takeover, creator) VALUES"
            " ('t1', 1, 'Seated', 2, 2, 7, 0, 0, 'g1'), ('t2', 2, 'Gone', 3, 3, 7, 0, 0, 'g2'),"
            " ('t3', 3, 'Old', 2, 2, 7, 0, 0, NULL);"
            f"INSERT INTO guests (id, name, token_hash, person) VALUES"
            f" ('g1', 'Aino', 'aaa', '{token_hash('k' * 40)}'), ('g3', 'Dan', 'ddd', NULL);"
            "INSERT INTO seats (table_id, seat, guest_id) VALUES ('t1', 0, 'g1'), ('t2', 1, 'g3');"
        )
    journal = Journal(path)
    kept = {table.id: table.creator_person for table in journal.load()}
    journal.close()
    assert kept == {"t1": token_hash("k" * 40), "t2": None, "t3": None}


async def test_a_program_s_seat_says_it_is_remote_and_is_not_the_creator_s_to_take(nursery):
    # sarja-bot joined as a guest that says it is a computer: its seat showed a level,
    # as one of the server's computers did, and the creator's client offered to take it
    # away, which the server refuses. The seat says which it is.
    server = await nursery.start(serve, config())
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=3, teams=3, computers=(None, "hard")))
    table_id = (await aino.expect("table")).id
    bot = await NetClient.connect(server.port, "Botti", computer="easy")
    await bot.send(Join(table=table_id, seat=2))
    await bot.expect("table")
    seats = (await answer(aino)).seats
    assert (seats[1].computer, seats[1].remote) == ("hard", False)
    assert (seats[2].computer, seats[2].remote) == ("easy", True)
    assert not seats[0].remote
    await aino.send(SeatComputer(seat=2))
    assert await answer(aino) == "not_computer"


async def test_a_creator_who_forgets_themselves_leaves_no_hash_with_their_table(tmp_path):
    # `forget` drops the person key's hash from the journal: the tables' copy too.
    key = "k" * 40
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(data_dir=tmp_path))
        kept: dict[str, Any] = {}
        aino, _ = await made_and_joined(server.port, key, kept)
        table_id = kept["table"]
        await aino.send(Leave())
        await aino.expect("tables")
        await aino.send(Forget())
        await aino.expect("forgotten")
        with contextlib.closing(sqlite3.connect(tmp_path / FILE_NAME)) as db:
            kept = db.execute("SELECT creator_person FROM tables").fetchall()
        assert kept == [(None,)]
        assert server.lobby.tables[table_id].creator_person is None
        nursery.cancel_scope.cancel()


async def test_a_creator_who_forgets_themselves_is_not_known_by_the_key_after(nursery):
    # Aino's link dropped in the waiting room; back in the lobby she forgot herself. Her
    # dropped guest, which the table still knew as its creator, kept the key's hash.
    key = "k" * 40
    server = await nursery.start(serve, config())
    kept: dict[str, Any] = {}
    aino, bertil = await made_and_joined(server.port, key, kept)
    table_id = kept["table"]
    await aino.aclose()
    while (await answer(bertil)).seats[0].name is not None:
        pass
    back = await NetClient.connect(server.port, "Aino", person=key)
    await back.send(Forget())
    await back.expect("forgotten")
    again = await NetClient.connect(server.port, "Aino", person=key)  # the same key still
    await again.send(Join(table=table_id, seat=0))
    await answer(again)
    await again.send(SeatComputer(seat=2, level="easy"))
    assert await answer(again) == "not_creator"


async def test_a_program_away_from_its_seat_is_not_said_to_be_played_by_a_computer(nursery):
    # sarja-bot's link dropped in the game at a table with no computer to stand in: its
    # seat still said a computer played it at the bot's level ("away; the computer
    # plays"), though no one did until the bot came back.
    server = await nursery.start(serve, config())
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=2, teams=2))
    table_id = (await aino.expect("table")).id
    bot = await NetClient.connect(server.port, "Botti", computer="easy")
    await bot.send(Join(table=table_id, seat=1))
    await bot.expect("table")
    await bot.send(Ready(ready=True))
    await aino.send(Ready(ready=True))
    while not (await answer(aino)).started:
        pass
    await bot.aclose()
    while not (seat := (await answer(aino)).seats[1]).away:
        pass
    assert (seat.name, seat.computer, seat.remote) == ("Botti", None, True)


# ----- the table's steps, without sockets ---------------------------------------------


class Here:
    """Stands for a connection: a guest with one is here."""

    def close(self, code: str, message: str) -> None: ...


def waiting_room(players: int = 4) -> tuple[Table, Effects, list[Guest]]:
    """Aino's table (she made it, seat 1), Bertil in seat 2 and a bot (a program that
    said it is a computer) in seat 3, all three ready; the other seats free."""
    fx, seating = Effects(), Seating[Table]()
    table = Table("t1", "Friday", Arrangement.of(players, 2), None, random.Random(1), seating, fx)
    seating.tables["t1"] = table
    people = [Guest("Aino"), Guest("Bertil"), Guest("Botti")]
    people[2].computer = "easy"
    for seat, guest in enumerate(people):
        guest.outbox = Here()  # type: ignore[assignment]
        table.join(guest, seat, None, 0.0)
        table.set_ready(guest, True, 0.0)
    table.made(people[0])
    fx.take()
    return table, fx, people


def tables_to(fx: Effects, guest: Guest) -> list[TableView]:
    return [m for g, m in fx.take().messages() if g is guest and isinstance(m, TableView)]


def test_a_computer_s_level_changes_in_one_step_and_its_seat_is_never_free():
    # The client changed a level by taking the computer away and seating another: two
    # tables, the seat free between them (a person could take it), and a log that read
    # "now plays easy" after hard, free, easy.
    table, fx, (aino, bertil, _) = waiting_room()
    table.seat_computer(aino, 3, "easy", 1.0)
    name = tables_to(fx, bertil)[-1].seats[3].name
    for at, level in ((2.0, "medium"), (3.0, "hard")):  # each told at once (toggles.py)
        table.seat_computer(aino, 3, level, at)
        [seen] = tables_to(fx, bertil)  # one table, with the computer at its new level
        assert (seen.seats[3].name, seen.seats[3].computer, seen.seats[3].ready) == (
            name,
            level,
            True,
        )
    table.seat_computer(aino, 3, "hard", 3.0)  # the level it has: nothing changes
    assert table.computers[3] is not None and table.computers[3].level == "hard"
    table.seat_computer(aino, 3, None, 4.0)
    assert table.computers[3] is None and not table.ready[3]


def test_seating_a_computer_in_the_last_free_seat_leaves_the_creator_to_start_the_game():
    # With everyone else ready, an easy computer in the last free seat started the game
    # at once: the creator never got to choose medium or hard.
    table, fx, (aino, bertil, botti) = waiting_room()
    table.seat_computer(aino, 3, "easy", 1.0)
    assert not table.started
    [seen] = tables_to(fx, bertil)
    assert [seat.ready for seat in seen.seats] == [False, True, True, True]  # only Aino's
    table.seat_computer(aino, 3, "hard", 2.0)
    assert not table.started
    table.set_ready(aino, True, 3.0)
    assert table.started and table.computers[3] is not None
    assert table.computers[3].level == "hard"


def test_a_level_changed_or_a_computer_taken_away_takes_back_the_creator_s_ready_only():
    table, fx, (aino, bertil, botti) = waiting_room(players=6)
    table.seat_computer(aino, 3, "easy", 1.0)
    for change in ("medium", None):
        table.set_ready(aino, True, 2.0)  # a seat is free: no game yet
        table.seat_computer(aino, 3, change, 3.0)
        assert table.ready[:3] == [False, True, True], change
    table.set_ready(aino, True, 4.0)
    with pytest.raises(Refusal):
        table.seat_computer(aino, 3, None, 5.0)  # nothing there: refused, nothing changes
    assert table.ready[0]


def test_a_on_one_s_own_seat_says_it_is_one_s_own():
    table, _, (aino, _, _) = waiting_room()
    for seat, said in ((0, "Seat 1 is yours"), (1, "Seat 2 is taken")):
        with pytest.raises(Refusal) as refused:
            table.seat_computer(aino, seat, "easy", 1.0)
        assert refused.value.code == "seat_taken" and said in refused.value.message


async def test_a_level_changed_is_one_table_on_the_wire_and_kept_across_a_restart(tmp_path):
    kept: dict[str, Any] = {}

    async def before(port: int) -> None:
        aino, bertil, _ = await two_at_three_seats(port)
        await aino.send(SeatComputer(seat=2, level="easy"))
        kept["name"] = (await answer(aino)).seats[2].name
        await answer(bertil)
        await aino.send(SeatComputer(seat=2, level="hard"))
        for person in (aino, bertil):
            seat = (await answer(person)).seats[2]  # the next table: no free seat between
            assert (seat.name, seat.computer) == (kept["name"], "hard")
        kept["aino"] = aino.welcome.resume

    async def after(server: Any) -> None:
        aino = await NetClient.connect(server.port, "Aino", resume=kept["aino"])
        seat = (await answer(aino)).seats[2]
        assert (seat.name, seat.computer) == (kept["name"], "hard")

    await restarted(tmp_path, before, after)
