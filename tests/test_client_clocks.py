"""Turn clocks in the client: the new-table form offers one (arrows, or seconds
typed, refused out of range before sending); the mirror keeps the clocks the server
tells and refuses one for a seat the table lacks; the clock line counts down from
when they were told; a tick redraws the clock's line alone."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from prompt_toolkit.application.current import set_app

from sarja.client import app as app_module
from sarja.client.form import CreateForm
from sarja.client.render_clock import clock_lines, clock_text
from sarja.protocol.cards import card_label, cell_name
from sarja.protocol.changes import Played
from sarja.protocol.messages import CreateTable, Update
from sarja.protocol.mirror import GameMirror, ServerProtocolError

from .client_helpers import STARTED, TABLES, WELCOME, _render, headless, snapshot
from .test_client_intents import sent

TURN = "▶ YOUR TURN ◀"

TO_CLOCK = ["down"] * CreateForm.FIELDS.index("turn_clock")  # from the name to its line


def test_the_form_offers_a_turn_clock_by_arrows_or_typed_seconds():
    h = headless(TABLES)
    h.press("n", *TO_CLOCK)
    assert "Turn clock" in h.screen() and "off" in h.screen()
    h.press("right")
    assert h.model.form.turn_clock == 30 and "30 s" in h.screen()
    h.press("right", "right")
    assert h.model.form.turn_clock == 120 and "2 min" in h.screen() and not h.unfit()
    h.press("backspace", "backspace", "backspace", *"45")
    assert h.model.form.turn_clock == 45
    h.press("right")  # from a typed number, the next choice up
    assert h.model.form.turn_clock == 60
    h.press("backspace", "backspace", *"45")
    [create] = sent(h, "enter")
    assert create == CreateTable(name="Aino's table", players=2, teams=2, turn_clock=45)


@pytest.mark.parametrize("typed", ["5", "3601"])
def test_a_clock_out_of_range_is_not_sent_and_says_why(typed):
    h = headless(TABLES)
    h.press("n", *TO_CLOCK, *typed)
    assert sent(h, "enter") == []
    assert "10 to 3600 seconds" in h.model.status


def test_digits_on_other_lines_of_the_form_change_nothing():
    h = headless(TABLES)
    h.press("n", "down", *"45")
    assert h.model.form.turn_clock == 0 and h.model.form.players == 2


def test_the_mirror_keeps_the_clocks_told_and_refuses_a_seat_the_table_lacks():
    snap = snapshot(clocks=((0, 30000),))
    game = GameMirror(snap)
    assert game.clocks == ((0, 30000),) and game.snapshot() == snap
    move = Update(
        version=13, changes=(Played(seat=0, card=snap.hand[0], cell=snap.targets[0][0]),),
        turn=1, draw_size=snap.draw_size,
    )  # fmt: skip
    lie = dataclasses.replace(move, clocks=((5, 30000),))
    with pytest.raises(ServerProtocolError):
        game.apply(lie)
    assert game.snapshot() == snap  # nothing of it taken
    assert game.apply(dataclasses.replace(move, clocks=((1, 29000),)))
    assert game.clocks == ((1, 29000),)


def test_the_clock_line_counts_down_from_when_the_clocks_were_told():
    h = headless(STARTED, snapshot(clocks=((0, 30000),)))
    model = h.model
    model.clocks_told, model.clock_now = 100.0, 107.2
    assert clock_text(model) == "⏱ your turn: 0:23"
    assert "⏱ your turn: 0:23" in h.screen() and not h.unfit()
    model.clock_now = 200.0
    assert clock_text(model) == "⏱ your turn: 0:00"  # run out: the server's move follows
    assert model.game is not None
    model.game.clocks = ((1, 61000),)
    model.clock_now = 100.0
    assert clock_text(model) == "⏱ Bertil (draw): 1:01"  # not on turn: a waiting draw
    model.game.clocks = ()
    assert clock_lines(model, 80) == []


def test_a_tick_redraws_the_clock_line_alone():
    h = headless(STARTED, snapshot(clocks=((0, 30000),)))
    screen = h.client.screen
    drawn: dict[str, int] = {"board": 0, "clock": 0}
    for name in drawn:
        region = screen.named[name]
        region.draw = _counting(region.draw, drawn, name)
    h.model.clocks_told, h.model.clock_now = 100.0, 100.0
    first = h.screen().splitlines()
    assert drawn["board"] and drawn["clock"]
    before = dict(drawn)
    h.model.clock_now += 1.0
    ticked = redraw(h).splitlines()  # nothing changed but the time
    assert drawn["board"] == before["board"] and drawn["clock"] > before["clock"]
    # The same screen but the clock's line.
    assert [a == b for a, b in zip(first, ticked, strict=True)].count(False) == 1
    assert "⏱ your turn: 0:29" in ticked and "⏱ your turn: 0:30" in first
    screen.changed()  # a message or a key: everything is drawn again
    redraw(h)
    assert drawn["board"] > before["board"]


def redraw(h) -> str:
    """A redraw as the app makes one (whoever asked for it): nothing counted as changed."""
    with set_app(h.client.app):
        return _render(h.client, *h.size)[0]


def test_a_move_is_drawn_everywhere_when_the_clock_asks_for_the_redraw(monkeypatch):
    """Our move's update changes the clock's line (our clock stops, Bertil's starts), so
    the clock's next look asks for a redraw too. On a loaded machine it looks before the
    redraw the update asked for is drawn; that one redraw must show the move on the
    board and in the title as it does in the log, not the clock alone."""
    snap = snapshot(clocks=((0, 30000),))
    h = headless(STARTED, snap)
    h.model.clocks_told = h.model.clock_now = 100.0
    first = redraw(h)
    assert TURN in first and "your turn: 0:30" in first
    card, cell = snap.hand[0], snap.targets[0][0]
    move = Update(
        version=13, changes=(Played(seat=0, card=card, cell=cell),), turn=1,
        draw_size=snap.draw_size, clocks=((1, 30000),),
    )  # fmt: skip
    h.feed(move)  # the app asks for a redraw (not drawn yet) ...
    monkeypatch.setattr(app_module, "CLOCK_TICK", 0.0)

    async def one_look() -> None:  # ... and the clock looks before it is drawn
        with set_app(h.client.app):
            ticker = asyncio.ensure_future(h.client.tick_clocks())
            await asyncio.sleep(0.01)
            ticker.cancel()

    asyncio.run(one_look())
    shown = redraw(h)
    said = f"You played {card_label(card)} at {cell_name(cell)}."
    assert said in shown and "Bertil: 0:30" in shown
    assert TURN not in shown, shown
    row = shown.splitlines()[1 + int(cell_name(cell)[1:])]
    assert "(B)" in row, shown


def _counting(draw, drawn, name):
    def counted(width, height):
        drawn[name] += 1
        return draw(width, height)

    return counted


def test_a_seat_the_clock_handed_over_says_how_to_take_it_back():
    handed = dataclasses.replace(
        STARTED,
        seats=(
            dataclasses.replace(STARTED.seats[0], computer="medium"),
            STARTED.seats[1],
        ),
    )
    h = headless(handed, snapshot(clocks=()))
    assert "make a move to play again" in clock_text(h.model)
    assert "make a move to play again" in h.screen() and not h.unfit()


def test_the_clocks_are_not_counted_while_there_is_no_connection():
    """Cut off, the client cannot know what the server's clocks do (one may run out and
    the turn move on): the line says so instead of counting down, until a snapshot (or
    an update with clocks) tells them again, and never jumps back to a fresh 30 s."""
    snap = snapshot(clocks=((0, 30000),))
    h = headless(STARTED, snap)
    h.model.clocks_told, h.model.clock_now = 100.0, 104.0
    assert "your turn: 0:26" in h.screen()
    with set_app(h.client.app):
        h.client._on_link("reconnecting", "")
    h.model.clock_now = 110.0
    cut_off = h.screen()
    assert "⏱ your turn" not in cut_off and "not known while there is no connection" in cut_off
    assert not h.unfit()
    h.reconnect()  # online again: the resume's snapshot is still to come
    h.feed(WELCOME, STARTED)
    assert "⏱ your turn" not in h.screen()
    h.feed(dataclasses.replace(snap, clocks=((0, 12000),)))
    h.model.clock_now = h.model.clocks_told
    assert "your turn: 0:12" in h.screen()
