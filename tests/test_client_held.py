"""The lobby offers what the server will do with a table where someone has our name:
back to our seat only where the server keeps one for us (it knows us by our token,
never by the name), and otherwise says plainly that the name is taken there and how
to join under another. Without a terminal or a network (client_helpers.Headless)."""

from __future__ import annotations

import dataclasses

from sarja import lang
from sarja.client import model as m
from sarja.client import resume
from sarja.client.held import name_taken, ours
from sarja.client.words import lobby
from sarja.protocol.messages import (
    Error,
    Join,
    ListTables,
    Pong,
    Rules,
    TableList,
    TableSummary,
)

from .client_helpers import KEY, SNAPSHOT, STARTED, WELCOME, Headless, Wire, headless

PLAYING = TableSummary(
    id="t1", name="Friday", players=2, teams=2, seated=("Aino", "Bertil"), spectators=0,
    started=True, rules=Rules(hand_size=7, manual_draw=False), computer_takeover=False,
)  # fmt: skip
BACK = lobby.detail_hints(True, True)[0]


def details(h: Headless) -> str:
    """The lobby's lines about the chosen table, as one line."""
    return " ".join(" ".join(h.screen(100, 24).splitlines()[4:7]).split())


def test_a_second_aino_is_told_the_name_is_taken_not_offered_a_seat():
    # Greeted afresh, this Aino holds no seat anywhere: the Aino at the table is someone
    # else, and the server refuses both a seat and watching. The lobby offered "Enter
    # takes you back to your seat" and sent the join.
    # Look-alikes too, of other alphabets' letters (Cyrillic A): one name to the server.
    for name in ("Aino", "ＡＩＮＯ", "aino\u3164", "\u0410ino"):
        h = headless(TableList(tables=(PLAYING,)), columns=100)
        h.model.name = name
        shown = details(h)
        assert "already called" in shown and BACK[2:] not in shown, shown
        h.press("enter")
        h.press("s")
        assert h.sent == []
        # The one at the table is named as she spells it, not as we typed it.
        assert h.model.status == lobby.name_taken_here("Aino", "Friday")
        assert "connect again under another name." in " ".join(h.screen(100, 24).split())


def test_a_waiting_table_refuses_a_persons_name_but_not_a_computers():
    waiting = dataclasses.replace(PLAYING, started=False, seated=("aino", None))
    h = headless(TableList(tables=(waiting,)), columns=100)
    assert "already called aino" in details(h)  # as she spells it, not as we do
    h.press("enter")
    assert h.sent == [] and "Friday" in h.model.status
    # A computer called Aino takes another name when she sits down (the server's rule).
    computer = dataclasses.replace(waiting, seated=(None, "Aino"), computers=(None, "easy"))
    h = headless(TableList(tables=(computer,)), columns=100)
    assert "already called" not in details(h)
    h.press("enter")
    assert h.sent == [Join(table="t1")]


def test_the_seat_we_left_is_offered_back_and_another_ainos_is_not():
    h = headless(STARTED, SNAPSHOT, columns=100)
    h.model.leaving = True  # as the l key does
    elsewhere = dataclasses.replace(PLAYING, id="t2", name="Saturday")
    h.feed(TableList(tables=(PLAYING, elsewhere)))
    assert h.model.kept_at == "t1"
    assert BACK[2:] in details(h)
    h.press("enter")
    assert h.sent == [Join(table="t1")]
    h.sent.clear()
    h.press("down")
    assert "already called Aino" in details(h)
    h.press("enter")
    assert h.sent == [] and h.model.status == lobby.name_taken_here("Aino", "Saturday")


def test_after_a_resume_into_the_lobby_a_kept_seat_may_be_ours():
    # The client does not know which table kept our seat after a restart of its own:
    # the server takes us back to it, so the lobby offers it.
    model = m.Model(address="h:1", name="Aino", named=True, link="online",
                    seats={KEY: {"Aino": "old" * 11}})  # fmt: skip
    wire = Wire(model)
    wire.feed(WELCOME, dataclasses.replace(WELCOME, resume="new" * 11))
    assert wire.feed(Pong(n=resume.RESUME_PING)) == [ListTables()]
    assert ours(model, PLAYING) and not name_taken(model, PLAYING)
    # A token the server no longer knows: we are the guest the hello made, seatless.
    model = m.Model(address="h:1", name="Aino", named=True, link="online",
                    seats={KEY: {"Aino": "old" * 11}})  # fmt: skip
    wire = Wire(model)
    wire.feed(WELCOME, Error(code="unknown_resume", message="That resume token is not known."))
    assert not ours(model, PLAYING) and name_taken(model, PLAYING)


def test_a_game_we_watch_does_not_forget_the_seat_we_hold():
    # Holding a seat in play, we may still watch another table, and leave it.
    h = headless(STARTED, SNAPSHOT, columns=100)
    h.model.leaving = True
    h.feed(TableList(tables=(PLAYING,)))
    watched = dataclasses.replace(STARTED, id="t2", name="Saturday", seat=None)
    h.model.leaving = True
    h.feed(watched, TableList(tables=(PLAYING,)))
    assert h.model.kept_at == "t1" and BACK[2:] in details(h)


def test_after_a_resume_into_the_lobby_a_computer_called_as_we_are_holds_no_seat_of_ours():
    # A started table whose computer took the name Aino: its seat is the computer's (the
    # summary gives it a level), never one kept for a person, and the server refuses an
    # Aino there. The lobby offered "Enter takes you back to your seat" at it as well.
    model = m.Model(address="h:1", name="Aino", named=True, link="online",
                    seats={KEY: {"Aino": "old" * 11}})  # fmt: skip
    h = Headless(model, columns=100)
    h.feed(WELCOME, dataclasses.replace(WELCOME, resume="new" * 11), Pong(n=resume.RESUME_PING))
    assert model.kept_unknown
    computer = dataclasses.replace(
        PLAYING, id="t2", name="Saturday", seated=("Aino", "Bertil"),
        computers=("medium", None),
    )  # fmt: skip
    h.feed(TableList(tables=(PLAYING, computer)))
    assert BACK[2:] in details(h)  # Friday: a seat kept for us, as far as we know
    h.press("down")
    shown = details(h)
    assert "already called Aino" in shown and BACK[2:] not in shown, shown
    h.sent.clear()
    h.press("enter")
    assert h.sent == [] and h.model.status == lobby.name_taken_here("Aino", "Saturday")


def test_a_table_of_many_seats_keeps_the_name_taken_in_its_details():
    # Six seats or more fill the lobby's three lines about a table: the hint that our
    # name is taken there, after the rules, was the first thing left out, and Enter then
    # did nothing with no word of why. It keeps a line of its own, in either language.
    names = ("Aino", "Bertil", "Cecilia", "Daniel", "Eero", "Fanny", "Gunnar", "Helmi",
             "Iiris", "Juha", "Kalle", "Liisa")  # fmt: skip
    for players, teams in ((6, 2), (9, 3), (12, 2)):
        table = dataclasses.replace(
            PLAYING, players=players, teams=teams, seated=names[:players], spectators=3,
            rules=Rules(hand_size=5, manual_draw=True), computer_takeover="hard",
        )  # fmt: skip
        for language in ("en", "fi"):
            lang.use(language)
            h = headless(TableList(tables=(table,)))
            screen = h.screen()
            shown = " ".join(" ".join(screen.splitlines()[4:7]).split())
            taken = lobby.detail_hints(True, False, "Aino")[1]  # ". The name … here."
            assert taken.removeprefix(". ") in shown, screen
            assert screen.splitlines()[7].strip() == "" and not h.unfit(), screen
