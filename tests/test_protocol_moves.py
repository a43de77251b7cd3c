"""Actions in notation become the messages that make them."""

from __future__ import annotations

import doctest

import sarja.protocol.moves as moves
from sarja.protocol.notation import SIMPLE_ACTIONS


def test_every_notation_becomes_the_message_that_makes_it() -> None:
    assert doctest.testmod(moves).failed == 0
    for notation in SIMPLE_ACTIONS:
        msg = moves.action_message(notation, 1, 2)
        assert (msg.id, msg.version) == (1, 2)
        assert msg.TYPE == {"@": "play", "x": "remove"}.get(
            notation[2:3], {"dr": "draw", "pa": "pass", "de": "exchange"}.get(notation[:2])
        )
