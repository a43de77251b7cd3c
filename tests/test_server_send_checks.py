"""The server's quick check of each frame it sends (`ServerCodec.sent`, used for every
frame to every seat of every move) refuses and moves the session exactly as
`send_encoded` does, in every state, for every server message."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sarja.protocol.codec import ServerCodec
from sarja.protocol.errors import LocalProtocolError
from sarja.protocol.examples import SERVER_EXAMPLES
from sarja.protocol.parts import Result
from sarja.protocol.session import SessionState

OVER = Result(result="win", side=0, hands=(("2C",), ("3C",)))


def variants() -> list[Any]:
    """Every example, and its twin that triggers the other transition where one type
    means two things (an update or a snapshot with a result and without, a table
    started and waiting)."""
    out: list[Any] = []
    for msg in SERVER_EXAMPLES:
        out.append(msg)
        if msg.TYPE in ("update", "snapshot"):
            over = None if msg.result is not None else OVER
            out.append(dataclasses.replace(msg, result=over))
        if msg.TYPE == "table":
            out.append(dataclasses.replace(msg, started=not msg.started))
    return out


def outcome(codec: ServerCodec, send: str, msg: Any) -> tuple[str | None, SessionState]:
    try:
        if send == "sent":
            codec.sent(msg)
        else:
            codec.send_encoded(msg, b"")
    except LocalProtocolError as exc:
        return exc.code, codec.state
    return None, codec.state


@pytest.mark.parametrize("state", list(SessionState))
def test_the_quick_check_agrees_with_send_encoded(state):
    for msg in variants():
        quick, full = ServerCodec(), ServerCodec()
        quick.session.state = full.session.state = state
        assert outcome(quick, "sent", msg) == outcome(full, "send_encoded", msg), (state, msg)


def test_the_quick_check_refuses_a_message_of_the_wrong_direction():
    from sarja.protocol.examples import CLIENT_EXAMPLES

    codec = ServerCodec()
    codec.session.state = SessionState.GAME
    with pytest.raises(LocalProtocolError):
        codec.sent(CLIENT_EXAMPLES[0])
