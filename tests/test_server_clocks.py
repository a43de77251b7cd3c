"""Turn clocks over real TCP: a person's clock of 30 s runs out and the computer
plays that turn for them, marked; three in a row hand the seat to the computer, which
then plays at once; the person's next action takes the seat back; after a restart the
person on turn gets a fresh clock. The clock tests run on trio's mock clock (autojump),
their journal in memory (see test_server_one_table.config); the restart test keeps a
real journal file and waits only on messages.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
import trio

from sarja.protocol.errors import LocalProtocolError
from sarja.protocol.messages import CreateTable, Ready, Update
from sarja.server import journal_rows as rows
from sarja.server.app import serve
from sarja.server.journal import FILE_NAME, Journal

from .netclient import NetClient
from .server_helpers import seat_table
from .test_server_one_table import config, read_all

CLOCK = 30


async def until(check: Callable[[], Any], limit: float = 3600.0) -> None:
    """Wait (on the mock clock) until `check()` holds."""
    with trio.fail_after(limit):
        while not check():
            await trio.sleep(0.05)


def my_turn(person: NetClient, seat: int, after: int) -> bool:
    state = person.state
    return (
        state is not None
        and state.version > after
        and state.turn == seat
        and bool(state.legal)
        and state.result is None
    )


def stand_ins(person: NetClient, seat: int) -> list[Update]:
    """The updates of moves the computer made for `seat`, marked as such."""
    return [
        m
        for m in person.received
        if isinstance(m, Update) and m.stand_in and any(c.seat == seat for c in m.changes)
    ]


def played_by(person: NetClient, seat: int) -> str | None:
    """The level of the computer that plays `seat`, as the last `table` message says."""
    views = [m for m in person.received if m.TYPE == "table"]
    return views[-1].seats[seat].computer if views else None


async def start(port: int, name: str = "Aino") -> tuple[NetClient, int]:
    person = await NetClient.connect(port, name)
    await person.send(
        CreateTable(name="Quick", players=2, teams=2, computers=(None, "easy"), turn_clock=CLOCK)
    )
    view = await person.expect("table")
    assert view.turn_clock == CLOCK
    await person.send(Ready(ready=True))
    await person.expect("snapshot")
    return person, view.seat


async def test_a_clock_out_is_played_for_the_person_three_hand_the_seat_over_and_an_action_takes_it_back(  # noqa: E501
    nursery, autojump_clock
):
    server = await nursery.start(serve, config(None, takeover_delay=2.0))
    person, seat = await start(server.port)
    nursery.start_soon(read_all, person)
    version = -1
    # Three turns the person lets run out: each one the computer plays, at 30 s.
    for run in range(1, 4):
        await until(lambda v=version: my_turn(person, seat, v))
        state = person.state
        assert state is not None
        began = trio.current_time()
        # The clock was told once, when the turn began: 30 000 ms left.
        assert state.clocks == ((seat, CLOCK * 1000),)
        await until(lambda n=run: len(stand_ins(person, seat)) == n)
        assert trio.current_time() - began >= CLOCK  # not before the clock ran out
        version = person.state.version
        if run < 3:
            assert played_by(person, seat) is None  # one turn only
    # The third: the seat is the computer's (the stand-in level: medium, the table has
    # none of its own), and it plays the next turn without waiting for a clock.
    await until(lambda: played_by(person, seat) == "medium")
    await until(lambda: my_turn(person, seat, version))
    began = trio.current_time()
    await until(lambda: len(stand_ins(person, seat)) == 4)
    # Played without a clock, after a pause (the draw grace) that lets the person, who
    # is here, take the seat back first.
    assert server.config.draw_grace - 0.1 < trio.current_time() - began < CLOCK
    version = person.state.version
    assert person.state.clocks == ()  # no clock runs for a computer
    # The person plays themselves, before the computer's pause is over: the seat is
    # theirs again, and their next turn has a clock of its own.
    await until(lambda: my_turn(person, seat, version))
    mine = person.action_message(person.state.legal[0])
    await person.send(mine)
    await until(lambda: any(m.TYPE == "ack" and m.id == mine.id for m in person.received))
    acted = trio.current_time()
    await until(lambda: played_by(person, seat) is None)
    assert len(stand_ins(person, seat)) == 4  # the computer did not play that turn
    version = person.state.version
    await until(lambda: my_turn(person, seat, version))
    # The computer's pause for the seat it no longer plays ended with the person's move:
    # its own seat's move came at its usual pace.
    assert trio.current_time() - acted < server.config.draw_grace
    assert person.state.clocks == ((seat, CLOCK * 1000),)
    await until(lambda: len(stand_ins(person, seat)) == 5)
    assert played_by(person, seat) is None  # a run of one, after the person's action
    assert server.failure is None


async def test_no_clock_runs_for_an_away_person_within_the_stand_in_grace(nursery, autojump_clock):
    # The game everyone left is kept in memory past the grace here, to be looked at (by
    # default it is put away before: tests/test_server_bounds.py).
    server = await nursery.start(serve, config(None, takeover_delay=2.0, clock_abandon_after=600))
    person, seat = await start(server.port)
    token = person.welcome.resume
    nursery.start_soon(read_all, person)
    await until(lambda: my_turn(person, seat, -1))
    await person.aclose()  # away on their turn
    await trio.sleep(server.config.hand_over_after - 1)  # longer than the clock
    [table] = server.lobby.tables.values()
    assert table.game is not None and table.game.turn == seat  # the game waited
    back = await NetClient.connect(server.port, "Aino", resume=token)
    snap = await back.expect("snapshot")
    assert snap.clocks == ((seat, CLOCK * 1000),)  # a fresh clock on coming back
    nursery.start_soon(read_all, back)
    await until(lambda: len(stand_ins(back, seat)) == 1)


async def test_after_a_restart_the_person_on_turn_gets_a_fresh_clock(tmp_path):
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        person, seat = await start(server.port)
        token = person.welcome.resume
        with trio.fail_after(120):
            while not my_turn(person, seat, -1):
                await person.receive()
        await server.shutdown()
    # The clock set for the turn was journaled, with its deadline.
    db = sqlite3.connect(tmp_path / FILE_NAME)
    try:
        rows = db.execute("SELECT seat, deadline, runs FROM turn_clocks").fetchall()
        clock = db.execute("SELECT turn_clock FROM tables").fetchall()
    finally:
        db.close()
    assert clock == [(CLOCK,)]
    assert any(s == seat and deadline is not None for s, deadline, _ in rows)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        back = await NetClient.connect(server.port, "Aino", resume=token)
        snap = await back.expect("snapshot")
        assert snap.turn == seat
        assert snap.clocks == ((seat, CLOCK * 1000),)
        await server.shutdown()


@pytest.mark.parametrize("seconds", [-1, 1, 9, 3601, True])
def test_a_turn_clock_out_of_range_has_its_own_code(seconds):
    with pytest.raises(LocalProtocolError) as err:
        CreateTable(name="Quick", players=2, teams=2, turn_clock=seconds)
    assert err.value.code == ("bad_type" if seconds is True else "bad_turn_clock")


def test_the_journal_keeps_a_tables_clock_and_runs_and_drops_them_with_the_table(tmp_path):
    path = tmp_path / FILE_NAME
    journal = Journal(path)
    journal.write(rows.table_opened("t1", 1, "Quick", 2, 2, 7, False, None, CLOCK))
    journal.write(rows.turn_clock("t1", 0, float(CLOCK), 2))
    journal.close()
    journal = Journal(path)
    [kept] = journal.load()
    assert kept.turn_clock == CLOCK and kept.clock_runs == {0: 2}
    journal.write(rows.table_closed("t1"))
    journal.close()
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT * FROM turn_clocks").fetchall() == []
    finally:
        db.close()


async def test_under_manual_draw_a_waiting_draw_has_a_clock_of_its_own(nursery, autojump_clock):
    server = await nursery.start(serve, config(None, takeover_delay=2.0))
    players = await seat_table(server, 2, manual_draw=True, turn_clock=CLOCK)
    for p in players:
        nursery.start_soon(read_all, p)
    first = next(p for p in players if p.state is not None and p.state.turn == p.state.seat)
    other = next(p for p in players if p is not first)
    mover, waiting = first.state.seat, other.state.seat
    await until(lambda: bool(first.state.legal))
    play = next(a for a in first.state.legal if a != "draw")
    await first.send(first.action_message(play))
    # The turn is the other's now, and the first one's draw waits: a clock for each.
    await until(lambda: first.state.turn == waiting and mover in first.state.pending_draw)
    await until(lambda: first.state.clocks == ((0, CLOCK * 1000), (1, CLOCK * 1000)))
    # Neither acts: the computer takes the draw for the one and plays for the other.
    await until(lambda: stand_ins(first, mover) and stand_ins(first, waiting))
    [drew] = stand_ins(first, mover)
    assert [c.kind for c in drew.changes] == ["drew"]
    assert server.lobby.tables[first.table.id].clocks.runs == {mover: 1, waiting: 1}
