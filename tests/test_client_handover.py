"""Seats that change hands around a game: `o` hands an away player's
seat to the computer, and the log says so as soon as the server's table shows it, not
after the computer's first move there; an opponent who leaves right after the game
leaves the final board on screen until the player moves on; a server's goodbye is told
once, in its place."""

from __future__ import annotations

import dataclasses

from prompt_toolkit.application.current import set_app

from sarja.protocol.messages import Bye, HandOver, Last, Notice, Seat
from sarja.protocol.messages import Player as GamePlayer

from .client_helpers import HAND, RESULT, STARTED, WELCOME, headless, snapshot

AWAY = dataclasses.replace(
    STARTED,
    seats=(Seat(name="Aino", ready=True, away=False), Seat(name="Bertil", ready=True, away=True)),
)
HANDED = dataclasses.replace(
    AWAY,
    seats=(
        Seat(name="Aino", ready=True, away=False),
        Seat(name="Bertil", ready=True, away=True, computer="medium"),
    ),
)
GONE = snapshot(
    turn=1,
    players=(
        GamePlayer(name="Aino", side=0, away=False, held=len(HAND)),
        GamePlayer(name="Bertil", side=1, away=True, held=7),
    ),
)
TOLD = "The computer plays for Bertil until they return."


def told(h) -> int:
    return sum(line.text == TOLD for line in h.model.log)


def test_handing_a_seat_over_is_told_when_the_table_shows_it():
    h = headless(AWAY, GONE)
    h.press("o")
    assert h.sent == [HandOver(seat=1)]
    assert "You asked the computer to play for Bertil." in h.screen()
    h.feed(HANDED)  # the server's answer, before the computer has moved
    assert told(h) == 1 and TOLD in h.screen()
    h.feed(Notice(kind="takeover", name="Bertil", seat=1))  # as it starts to think
    assert told(h) == 1  # said once
    assert "(computer)" in h.screen()


# ----- an opponent leaving right after the game ----------------------------------------

OVER = dataclasses.replace(
    snapshot(), version=13, legal=(), choices=(), result=RESULT, last=Last(seat=1, action="8D@H4")
)
FREED = dataclasses.replace(
    STARTED,
    started=False,
    seats=(Seat(name="Aino", ready=False, away=False), Seat(name=None, ready=False, away=False)),
)


def test_the_final_board_stays_when_the_opponent_leaves_at_once():
    # It used to vanish: straight to the waiting room as the table went back to waiting.
    h = headless(STARTED, OVER)
    assert "Game over" in h.screen()
    h.feed(Notice(kind="left", name="Bertil", seat=1), FREED)
    screen = h.screen()
    assert "Game over" in screen and "Bertil" in screen and "Seat 2" not in screen
    assert "Bertil played 8♦ at H4" in " ".join(screen.split())
    assert "Enter to the waiting room" in screen and not h.unfit()
    h.press("enter")
    screen = h.screen()
    assert "waiting room" in screen.splitlines()[0] and "— free —" in screen
    assert h.sent == []


def test_the_request_to_hand_over_leaves_the_status_once_the_log_tells_it():
    # The request's line stayed under the log while later moves were told above it, so
    # it read as said after them.
    h = headless(AWAY, GONE)
    h.press("o")
    h.feed(HANDED)
    screen = h.screen()
    assert TOLD in screen and "You asked the computer" not in screen


def test_a_goodbye_is_told_once_and_not_followed_by_a_dropped_connection():
    # "The connection dropped" came after the server's own "shutting down" (which said
    # why), and the goodbye was told again by each try while the server stopped.
    h = headless(STARTED, snapshot())
    h.feed(Bye(code="shutdown", message="The server is shutting down."))
    waiting = "The server is shutting down. Trying host:7474 again in 1 s."
    with set_app(h.client.app):
        h.client._on_link("reconnecting", waiting)
    screen = h.screen()
    # Once in the log, once in the connection's line (not a third time under it).
    assert screen.count("The server is shutting down.") == 2, screen
    h.reconnect()
    h.feed(Bye(code="shutdown", message="The server is shutting down."))  # a try too early
    with set_app(h.client.app):
        h.client._on_link("reconnecting", "")
    lines = [line.text for line in h.model.log]
    assert lines.count("The server is shutting down.") == 1
    assert lines[-1] == "The server is shutting down.", lines
    h.reconnect()
    h.feed(WELCOME)
    assert "Connected again." in [line.text for line in h.model.log]
