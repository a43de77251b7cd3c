"""The states the server builds: every seat's frame, packed from shared pieces, is byte
for byte what the codec makes of the same message, and decodes to it."""

import random

import pytest

from sarja.protocol import ClientCodec, LocalProtocolError, ServerCodec, SessionState
from sarja.protocol.shared_state import SharedStateEncoder
from sarja.server.engine import Arrangement, Game
from sarja.server.guest import Guest
from sarja.server.present import StateFactory


@pytest.mark.parametrize("players, teams", [(2, 2), (3, 3), (4, 2), (12, 3)])
def test_every_seats_frame_is_what_the_codec_makes(players: int, teams: int) -> None:
    rng = random.Random(players)
    arrangement = Arrangement.of(players, teams)
    game = Game.new(arrangement, random.Random(1))
    names = [f"P{i}" for i in range(players)]
    codec, reader = ServerCodec(), ClientCodec()
    frames = 0
    while True:
        away = [rng.random() < 0.2 for _ in range(players)]
        factory = StateFactory("t1", game, names, away, arrangement)
        for seat in [*rng.sample(range(players), players), None]:
            state, frame = factory.encoded(seat)
            assert frame == codec.encode(state)
            reader.session.state = SessionState.GAME
            reader.receive_data(frame)
            assert reader.next_message() == state
            frames += 1
        if game.outcome is not None:
            break
        seat = next(s for s in range(players) if game.legal_actions(s))
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert frames > 50 * players


def test_a_frame_over_the_limit_is_refused() -> None:
    arrangement = Arrangement.of(2, 2)
    factory = StateFactory("t1", Game.new(arrangement, random.Random(1)), ["A", "B"],
                           [False, False], arrangement)  # fmt: skip
    state = factory.for_seat(0)
    encoder = SharedStateEncoder(state)
    huge = state.__class__._trusted(*(  # a legal list no real game has, 300 KB of it
        ("x" * 30,) * 10_000 if name == "legal" else getattr(state, name)
        for name in state._FIELDS
    ))  # fmt: skip
    with pytest.raises(LocalProtocolError, match="frame_too_large"):
        encoder.frame(huge)


def test_a_state_too_large_to_send_is_left_to_the_codec_to_refuse(monkeypatch) -> None:
    """One seat's oversize state must not stop the others' being sent: it comes back
    unencoded, and the seat's connection refuses it (and logs it) alone."""

    def too_large(self: object, state: object) -> bytes:
        raise LocalProtocolError("frame_too_large", "too large")

    monkeypatch.setattr(SharedStateEncoder, "frame", too_large)
    arrangement = Arrangement.of(4, 2)
    factory = StateFactory("t1", Game.new(arrangement, random.Random(1)), list("ABCD"),
                           [False] * 4, arrangement)  # fmt: skip
    state, frame = factory.encoded(2)
    assert frame is None and state == factory.for_seat(2)
    sent = []

    class Outbox:
        def send(self, msg: object) -> None:
            sent.append(msg)

    guest = Guest("C")
    guest.outbox = Outbox()  # type: ignore[assignment]
    guest.send_encoded(state, frame)
    assert sent == [state]
