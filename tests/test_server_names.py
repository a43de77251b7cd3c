"""Names people can tell apart, at a real server on 127.0.0.1: a name that only looks
like one at the table (other case, full-width forms, invisible or blank characters,
letters of other alphabets) is that name, for a seat taken, a seat kept for one who
left its game, and a computer that gives up its name to a person; the refusal names
the one at the table as they spell it (the table's own step too, without sockets)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sarja.protocol.messages import CreateTable, Join, Leave, Ready, Spectate
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.effects import Effects
from sarja.server.engine import Arrangement
from sarja.server.guest import Guest
from sarja.server.refusal import Refusal
from sarja.server.seating import Seating
from sarja.server.table import Table

from .netclient import NetClient

# Aino as she might be typed to pass for her: full width, a variation selector (drawn
# as nothing), a Hangul filler at the end (drawn as a blank), a Braille blank, a
# Cyrillic capital A, Greek capitals, an accent on a letter (a dot above the o, an
# acute on the i), a zero for the o.
AINO_ALIKE = (
    "ＡＩＮＯ", "A\ufe0fino", "aino\u3164", "\u2800Aino", "\u0410ino",
    "\u0391\u0399\u039d\u039f", "Ain\u022f", "A\u00edno", "Ain0",
)  # fmt: skip


def config(**more: Any) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, **more)


async def test_a_look_alike_of_a_name_at_the_table_can_neither_join_nor_watch(nursery):
    server = await nursery.start(serve, config())
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=3, teams=3))
    made = await aino.expect("table")
    for name in AINO_ALIKE:
        alike = await NetClient.connect(server.port, name)  # a name of its own: accepted
        await alike.send(Join(table=made.id))
        refused = await alike.expect("error")
        # Named as the one at the table spells it, not as the newcomer typed it.
        assert refused.code == "name_taken" and "already called Aino;" in refused.message
        await alike.send(Spectate(table=made.id))
        assert (await alike.expect("error")).code == "name_taken"
        await alike.aclose()
    aina = await NetClient.connect(server.port, "Aina")  # another name: a seat
    await aina.send(Join(table=made.id))
    assert (await aina.expect("table")).seat == 1
    aino_with_a = await NetClient.connect(server.port, "\u00c4ino")  # a Finnish letter of its own
    await aino_with_a.send(Join(table=made.id))
    assert (await aino_with_a.expect("table")).seat == 2


async def test_a_seat_kept_for_one_who_left_is_not_taken_by_a_look_alike(nursery):
    server = await nursery.start(serve, config())
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=2, teams=2))
    made = await aino.expect("table")
    bertil = await NetClient.connect(server.port, "Bertil")
    await bertil.send(Join(table=made.id))
    await bertil.expect("table")
    for player in (aino, bertil):
        await player.send(Ready(ready=True))
    for player in (aino, bertil):
        await player.expect("snapshot")
    await aino.send(Leave())  # the game goes on: her seat is kept for her
    await aino.expect("tables")
    for name in ("aino", *AINO_ALIKE):
        other = await NetClient.connect(server.port, name)
        # Refused for the name, not sent to watch (which the name would be refused too).
        await other.send(Join(table=made.id))
        assert (await other.expect("error")).code == "name_taken"
        await other.send(Spectate(table=made.id))
        assert (await other.expect("error")).code == "name_taken"
        await other.aclose()
    await aino.send(Join(table=made.id))  # she, by her connection, is back in her seat
    assert (await aino.expect("table")).seat == 0
    await aino.expect("snapshot")


# Full width, and Cyrillic Ve, Ie and Ghe.
@pytest.mark.parametrize("alike", ["ＢＥＲＴＩＬ", "\u0412\u0435\u0433til"])
async def test_a_computer_gives_up_its_name_to_a_look_alike_of_it(nursery, alike):
    server = await nursery.start(serve, config(think_time=0.02))
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=3, teams=3, computers=(None, "easy")))
    made = await aino.expect("table")
    assert made.seats[1].name == "Bertil"
    bertil = await NetClient.connect(server.port, alike)
    await bertil.send(Join(table=made.id))
    table = await bertil.expect("table")
    names = [s.name for s in table.seats]
    assert names[2] == alike  # shown as typed
    assert table.seats[1].computer == "easy" and names[1] not in ("Bertil", "Aino")


def test_the_same_name_refusal_names_the_one_at_the_table_as_they_spell_it():
    # "Someone at this table is already called ＡＩＮＯ": the newcomer's spelling, not
    # the name of the one already there.
    seating = Seating[Table]()
    table = Table("t1", "Friday", Arrangement.of(2, 2), None, random.Random(1), seating, Effects())
    seating.tables["t1"] = table
    table.join(Guest("Aino"), None, None, 0.0)
    for name in AINO_ALIKE:
        with pytest.raises(Refusal) as refused:
            table.join(Guest(name), None, None, 1.0)
        assert refused.value.code == "name_taken"
        assert "already called Aino;" in refused.value.message, name
