"""The log is the table's, not the window's: the lobby, another table and a new game
each start it afresh (a game's own past comes back with its history), and its lines
are kept as what they tell and put into words when shown, so a language switch (F in
the lobby) changes the lines already there too."""

from __future__ import annotations

import dataclasses

from sarja import lang
from sarja.lang import _
from sarja.protocol.changes import Played
from sarja.protocol.messages import Notice, Update

from .client_helpers import STARTED, TABLE, TABLES, headless, snapshot


def texts(h) -> list[str]:
    return [line.text for line in h.model.log]


def played(h) -> Update:
    snap = h.model.game.snapshot()
    return Update(
        version=snap.version + 1, turn=1, draw_size=snap.draw_size,
        changes=(Played(seat=0, card=snap.hand[0], cell=snap.targets[0][0]),),
    )  # fmt: skip


def test_the_lobby_another_table_and_a_new_game_start_the_log_afresh():
    h = headless(STARTED, snapshot())
    h.feed(played(h))
    assert any(t.startswith("You played") for t in texts(h))
    # Back in the lobby: the table's lines go; what took us there is the first line.
    h.feed(TABLES)
    assert texts(h) == ["You are no longer at table Friday."]
    # Another table: its own log.
    other = dataclasses.replace(TABLE, id="t2", name="Saturday")
    h.feed(other)
    assert texts(h) == []
    # A new game at it: the game's own lines, not the waiting room's.
    h.feed(dataclasses.replace(STARTED, id="t2", name="Saturday"))
    h.feed(dataclasses.replace(snapshot(), table="t2", version=0))
    assert texts(h)[0].startswith("The game begins.") and len(texts(h)) == 1
    # The same game told again (a resume): its log stays.
    h.feed(h.model.game.snapshot())
    assert texts(h)[0].startswith("The game begins.") and len(texts(h)) == 1


def test_a_language_switch_changes_the_lines_already_in_the_log():
    h = headless(STARTED, snapshot())
    h.feed(TABLES)  # in the lobby, one line
    english = "You are no longer at table Friday."
    assert texts(h) == [english] and english in h.screen()
    h.press("F")
    assert lang.language() == "fi"
    finnish = _("You are no longer at table {name}.").format(name="Friday")
    assert finnish != english
    assert texts(h) == [finnish] and finnish in h.screen() and english not in h.screen()
    h.press("F")
    assert texts(h) == [english]


def test_a_move_told_in_one_language_is_told_in_the_other_after_a_switch():
    h = headless(STARTED, snapshot())
    h.feed(played(h))
    said = next(t for t in texts(h) if t.startswith("You played"))
    lang.use("fi")
    now = next(line.text for line in h.model.log if line.kind == "played")
    assert now != said and "You" not in now


def test_a_table_told_again_keeps_its_log():
    h = headless(TABLE)
    h.feed(Notice(kind="joined", name="Bertil", seat=1))
    h.feed(dataclasses.replace(TABLE, seats=STARTED.seats))  # the table showing him seated
    assert texts(h) == ["Bertil sat down at seat 2 (Green)."]
