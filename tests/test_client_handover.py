"""`o` hands an away player's seat to the computer: the log says so as soon as the
server's table shows it, not after the computer's first move there (issue 20, item 8)."""

from __future__ import annotations

import dataclasses

from sarja.protocol.messages import HandOver, Notice, Seat
from sarja.protocol.messages import Player as GamePlayer

from .client_helpers import HAND, STARTED, headless, snapshot

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
        GamePlayer(name="Aino", side=0, away=False, hand_size=len(HAND)),
        GamePlayer(name="Bertil", side=1, away=True, hand_size=7),
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
