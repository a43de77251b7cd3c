"""Golden bytes: every example encodes to the bytes docs/protocol.md shows and decodes
back, whole and one byte at a time; and the examples tell one consistent moment of a
real game, as the server would write it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sarja.protocol import examples as ex
from sarja.protocol.base import _MISSING, _plain
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from sarja.protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES, Snapshot, WireMap
from sarja.protocol.mirror import GameMirror
from sarja.protocol.moves import action_message
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED, SessionState

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def doc_golden() -> dict[str, bytes]:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"Golden bytes, `(\w+:\w+)`, (\d+) bytes:\s*```text\n(.*?)```", text, re.S)
    out = {}
    for key, size, body in blocks:
        data = bytes.fromhex("".join(body.split()))
        assert len(data) == int(size), key
        out[key] = data
    return out


GOLDEN = doc_golden()
EXAMPLES = [("client", m) for m in CLIENT_EXAMPLES] + [("server", m) for m in SERVER_EXAMPLES]
IDS = [f"{d}:{m.TYPE}" for d, m in EXAMPLES]
# Examples beyond one per message, shown where the docs explain them.
MORE = {
    "server:stand_in": ex.STAND_IN_UPDATE,
    "server:stand_in_last": ex.STAND_IN_LAST,
    "server:match_table": ex.MATCH_TABLE,
    "client:turn_clock": ex.CLOCK_TABLE,
    "server:clock": ex.CLOCK_UPDATE,
    "server:clock_end": ex.CLOCK_FINAL,
}


def state_allowing(direction: str, t: str) -> SessionState:
    allowed = CLIENT_ALLOWED if direction == "client" else SERVER_ALLOWED
    return next(s for s in SessionState if t in allowed[s])


def sender(direction: str, t: str) -> ClientCodec | ServerCodec:
    codec = ClientCodec() if direction == "client" else ServerCodec()
    codec.session.state = state_allowing(direction, t)
    return codec


def receiver(direction: str, t: str) -> ClientCodec | ServerCodec:
    codec = ServerCodec() if direction == "client" else ClientCodec()
    codec.session.state = state_allowing(direction, t)
    return codec


def test_every_message_type_has_one_example_and_golden_bytes() -> None:
    assert [m.TYPE for m in CLIENT_EXAMPLES] == list(CLIENT_MESSAGES)
    assert [m.TYPE for m in SERVER_EXAMPLES] == list(SERVER_MESSAGES)
    assert [k for k in GOLDEN if k not in MORE] == IDS and MORE.keys() <= GOLDEN.keys()


@pytest.mark.parametrize("key", sorted(MORE))
def test_more_examples_encode_to_their_golden_bytes_and_back(key: str) -> None:
    msg = MORE[key]
    direction = key.split(":")[0]
    assert sender(direction, msg.TYPE).send(msg) == GOLDEN[key]
    codec = receiver(direction, msg.TYPE)
    codec.receive_data(GOLDEN[key])
    assert codec.next_message() == msg


@pytest.mark.parametrize(("direction", "msg"), EXAMPLES, ids=IDS)
def test_encodes_to_golden_bytes(direction: str, msg: WireMap) -> None:
    codec: Any = sender(direction, msg.TYPE)
    assert codec.send(msg) == GOLDEN[f"{direction}:{msg.TYPE}"]


@pytest.mark.parametrize(("direction", "msg"), EXAMPLES, ids=IDS)
def test_decodes_whole_and_byte_at_a_time(direction: str, msg: WireMap) -> None:
    data = GOLDEN[f"{direction}:{msg.TYPE}"]
    whole = receiver(direction, msg.TYPE)
    whole.receive_data(data)
    assert whole.next_message() == msg
    assert whole.next_message() is None

    drip = receiver(direction, msg.TYPE)
    got = []
    for i in range(len(data)):
        drip.receive_data(data[i : i + 1])
        m = drip.next_message()
        if m is not None:
            got.append((i, m))
    assert got == [(len(data) - 1, msg)]
    assert drip.session.state == whole.session.state


def test_a_whole_stream_splits_anywhere() -> None:
    """The server examples as one stream: any split point gives the same messages."""
    data = b"".join(GOLDEN[f"server:{m.TYPE}"] for m in SERVER_EXAMPLES)

    def decode(chunks: list[bytes]) -> list[object]:
        codec = ClientCodec()
        out = []
        for chunk in chunks:
            codec.receive_data(chunk)
            while True:
                codec.session.state = SessionState.GAME  # welcome then is wrong_state
                try:
                    m = codec.next_message()
                except Exception as exc:
                    out.append(getattr(exc, "code", exc))
                    continue
                if m is None:
                    break
                out.append(m)
        return out

    whole = decode([data])
    # During a game, what only the lobby hears (welcome, the standings) is wrong_state.
    in_game = SERVER_ALLOWED[SessionState.GAME]
    assert whole == [m if m.TYPE in in_game else "wrong_state" for m in SERVER_EXAMPLES]
    for cut in range(1, len(data), 11):  # b"" would mean the end of the stream
        assert decode([data[:cut], data[cut:]]) == whole


# ----- the examples tell one moment of one game ---------------------------------------


def test_the_examples_follow_on_through_a_mirror() -> None:
    mirror = GameMirror(ex.SNAPSHOT)
    assert mirror.apply(ex.LEGAL_LIST)  # what the seat on turn holds at version 12
    assert action_message("5H@E5", ex.PLAY.id, ex.SNAPSHOT.version).cell == ex.PLAY.cell
    assert [list(o) for o in ex.CHOICES[0].options].index([ex.PLAY.fives[0]]) == 1
    assert ex.PLAY.id == ex.SNAPSHOT.last_id + 1 == ex.ACK.id  # type: ignore[operator]
    for msg in (ex.ACK, ex.UPDATE, ex.HAND_UPDATE):
        assert mirror.apply(msg), msg.TYPE
    after = mirror.snapshot()
    assert after.version == ex.ACK.version == 13
    assert after.last_id == ex.PLAY.id
    assert after.board[41:46] == "BBBBB" and after.board[40] == "b"
    assert after.sequences == (((41, 45),), ())
    assert after.discard == (*ex.DISCARD, "5H")
    assert after.hand == ex.HAND_UPDATE.hand
    assert [p.held for p in after.players] == [7, 7]
    assert after.legal == () and after.turn == 1


def test_the_game_examples_are_what_the_server_writes() -> None:
    """The same position built in the engine gives the same snapshot, legal list,
    update and hand through the server's own presentation code."""
    from sarja.server import present
    from sarja.server.engine.actions import PLACE, Action
    from sarja.server.engine.board import five_cells
    from sarja.server.engine.cards import parse_card

    from .engine_helpers import position

    def game() -> Any:
        g = position(
            2,
            hands=[" ".join(ex.HAND), "3D 4S 6C 8H TH KC KS"],
            chips={c: 0 for c in ("A5", "B5", "C5", "D5", "F5")}
            | {c: 1 for c in ("C3", "H4", "E6", "G7", "H8")},
            discard=" ".join(ex.DISCARD),
        )
        eight = parse_card("8S")  # the next card drawn
        g.draw_pile.remove(eight)
        g.draw_pile.append(eight)
        return g

    g = game()
    snap = present.snapshot("t1", 12, g, 0, ["Aino", "Bertil"], [False, False], 6)
    same = ("board", "hand", "targets", "dead", "legal", "choices", "draw_size", "discard")
    for field in (*same, "players", "sequences", "turn", "rules", "needed", "sides"):
        assert getattr(snap, field) == getattr(ex.SNAPSHOT, field), field
    assert present.legal_message(12, g, 0) == ex.LEGAL_LIST
    (start, end), *_ = ex.PLAY.fives
    played = Action(PLACE, parse_card(ex.PLAY.card), ex.PLAY.cell, (five_cells((start, end)),))
    events = g.apply(0, played)  # type: ignore[arg-type]
    assert present.update(13, g, tuple(events)) == ex.UPDATE
    assert present.hand_message(13, present.hand_part(g, 0), "8S") == ex.HAND_UPDATE
    assert present.table_shapes() == ex.SHAPES


def test_the_final_update_is_what_the_server_writes() -> None:
    from sarja.server import present
    from sarja.server.engine.actions import PLACE, Action
    from sarja.server.engine.board import five_cells
    from sarja.server.engine.cards import parse_card

    from .engine_helpers import position

    first = ("B5", "C5", "D5", "E5", "F5")
    g = position(
        2,
        hands=["2C 7H 8S 9S JS QS AD", "3D 4S 6C 8H TH KC KS"],
        chips={c: 0 for c in ("A5", *first, "B6", "B7", "B9")} | {"C3": 1, "H4": 1},
        locked=list(first),
    )
    g.sequences[0].append(five_cells((41, 45)))
    events = g.apply(0, Action(PLACE, parse_card("8S"), 71))
    final = present.update(27, g, tuple(events))
    assert final.changes == ex.FINAL_UPDATE.changes
    assert final.result == ex.FINAL_UPDATE.result
    assert final.turn == ex.FINAL_UPDATE.turn


def test_a_finished_snapshot_round_trips_and_ends_the_session() -> None:
    fields = {a: getattr(ex.SNAPSHOT, a) for _, a, _ in Snapshot._SPEC}
    over = Snapshot(**{**fields, "result": ex.RESULT, "legal": (), "choices": ()})
    server, client = ServerCodec(), ClientCodec()
    server.session.state = client.session.state = SessionState.GAME
    client.receive_data(server.send(over))
    assert client.next_message() == over
    assert client.state == server.state == SessionState.ENDED


@pytest.mark.parametrize("direction, msg", [*EXAMPLES, *(("", m) for m in MORE.values())])
def test_each_class_s_own_to_wire_makes_the_map_of_the_generic_loop(direction, msg):
    # `to_wire` passes the fields whose type needs no conversion as they are
    # (protocol/base.py, `_SEND`); the map is the one converting every field would make.
    generic = {"t": msg.TYPE} if msg.TYPE else {}
    for key, attr, default in msg._SPEC:
        v = getattr(msg, attr)
        if default is _MISSING or not (v == default and type(v) is type(default)):
            generic[key] = _plain(v)
    assert msg.to_wire() == generic
