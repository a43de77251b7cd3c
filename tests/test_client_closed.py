"""A window whose connection the server ended for good says so, and offers only quit
(a window replaced by a second client of the same person)."""

from __future__ import annotations

from sarja.client.words.connect import NOT_CONNECTED
from sarja.protocol.messages import Bye

from .client_helpers import SNAPSHOT, STARTED, headless

REPLACED = "You connected again from somewhere else."


def test_a_replaced_window_shows_no_turn_and_offers_quit():
    h = headless(STARTED, SNAPSHOT)
    assert "▶ YOUR TURN ◀" in h.screen()
    h.feed(Bye(code="replaced", message=REPLACED))
    h.client._on_link("closed", REPLACED)  # what the link says once the server has gone
    screen = h.screen()
    assert "YOUR TURN" not in screen and "this window is closed" in screen.splitlines()[0]
    words = " ".join(screen.split())
    assert "You play on in that window; this one is done: press q to close it." in words
    assert screen.splitlines()[-1].strip() == "q quit"
    assert not h.unfit()
    h.press("1", "enter")
    assert h.sent == [] and NOT_CONNECTED not in h.screen()
    assert h.model.status != NOT_CONNECTED
    h.press("q")  # no question about leaving a game this window no longer plays
    assert h.model.overlay is None and h.model.goodbye == ""
