"""The waiting room's toggles: a player saying ready and not ready as fast as they can,
or the creator changing a computer's level back and forth, reached every other member
as a `table` and a notice each time. Now the others hear the state at most twice a
second, and the toggler gets a few a while before being refused."""

from __future__ import annotations

import random

from sarja.protocol.messages import CreateTable, Notice, Ping, Ready, SeatComputer, TableView
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.effects import Effects
from sarja.server.engine import Arrangement
from sarja.server.guest import Guest
from sarja.server.seating import Seating
from sarja.server.table import Table

from .netclient import NetClient


class Here:
    """An outbox that is there (the table only asks whether a guest is connected)."""

    def encode(self, msg: object) -> bytes:
        return b""

    def admit(self, msg: object, frame: bytes) -> bool:
        return True

    def deliver(self, data: bytes, frames: int) -> None:
        pass

    def close(self, code: str, message: str) -> None:
        pass


def three_waiting() -> tuple[Table, Effects, list[Guest]]:
    """Aino's table of four: Aino, Bertil and Cai seated, no one ready, a seat free."""
    fx, seating = Effects(), Seating[Table]()
    table = Table("t1", "Friday", Arrangement.of(4, 2), None, random.Random(1), seating, fx)
    seating.tables["t1"] = table
    people = [Guest("Aino"), Guest("Bertil"), Guest("Cai")]
    for seat, guest in enumerate(people):
        guest.outbox = Here()  # type: ignore[assignment]
        table.join(guest, seat, None, 0.0)
    table.made(people[0])
    fx.take()
    return table, fx, people


def told(fx: Effects, guest: Guest) -> tuple[list[TableView], list[Notice]]:
    sent = [m for g, m in fx.take().messages() if g is guest]
    tables = [m for m in sent if isinstance(m, TableView)]
    notices = [m for m in sent if isinstance(m, Notice) and m.kind in ("ready", "unready")]
    return tables, notices


def test_ready_toggled_a_hundred_times_a_second_reaches_the_others_twice():
    table, fx, (aino, bertil, cai) = three_waiting()
    tables, notices = [], []
    for i in range(100):
        now = 10.0 + i / 100
        table.set_ready(aino, i % 2 == 0, now)
        if i == 50:
            table.set_ready(cai, True, now)  # and Cai, once, in the middle of it
        # The table's timer rings (early, late or on time: the table looks at the time).
        table.clock_ran_out(now)
        got = told(fx, bertil)
        tables += got[0]
        notices += got[1]
    assert 2 <= len(tables) <= 3 and len(notices) <= 3  # in 1 s: at once, then every 0.5 s
    # At the end the state is told as it is: Aino not ready (her last toggle), Cai ready.
    table.clock_ran_out(12.0)
    tables += told(fx, bertil)[0]
    assert [s.ready for s in tables[-1].seats][:3] == [False, False, True]


def test_a_computer_s_level_changed_back_and_forth_reaches_the_others_as_its_last_level():
    table, fx, (aino, bertil, _) = three_waiting()
    levels = ["easy", "hard"] * 20
    seen = []
    for i, level in enumerate(levels):
        table.seat_computer(aino, 3, level, 10.0 + i / 100)
        seen += told(fx, bertil)[0]
    assert len(seen) == 1  # the first at once; the rest wait for the timer
    table.clock_ran_out(10.5)
    [last] = told(fx, bertil)[0]
    assert last.seats[3].computer == "hard"


async def test_a_toggler_is_refused_after_a_few(nursery):
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=1))
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=3, teams=3))
    await aino.expect("table")
    codes = []
    for i in range(12):
        await aino.send(Ready(ready=i % 2 == 0))
        await aino.send(SeatComputer(seat=2, level="easy" if i % 2 else "hard"))
    await aino.send(Ping(n=77))  # its pong comes after every answer above
    while (reply := await aino.receive()).TYPE != "pong" or reply.n != 77:
        if reply.TYPE == "error":
            codes.append(reply.code)
    # The guest's share: a few in any ten seconds, then `changes_too_fast`.
    assert codes and set(codes) == {"changes_too_fast"} and len(codes) >= 12
