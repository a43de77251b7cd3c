"""Each malformed field and each limit is refused with its code: as a LocalProtocolError
when we build the message, and as a RemoteProtocolError when it arrives on the wire."""

from typing import Any

import msgpack
import pytest

from sarja.protocol.change_wire import change_from_wire, change_to_wire
from sarja.protocol.changes import Won
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import LocalProtocolError, RemoteProtocolError
from sarja.protocol.examples import CLIENT_EXAMPLES, INCOMPATIBLE, SERVER_EXAMPLES, V1_HELLO
from sarja.protocol.messages import Hello, Ping, WireMap
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED, SessionState

CLIENT = {m.TYPE: m for m in CLIENT_EXAMPLES}
SERVER = {m.TYPE: m for m in SERVER_EXAMPLES}
SNAP = SERVER["snapshot"]
BOARD = SNAP.board


def frame(obj: Any) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def deliver(codec: ClientCodec | ServerCodec, obj: Any) -> Any:
    """Decode one map as the peer would send it, in a state that allows its type."""
    allowed = SERVER_ALLOWED if isinstance(codec, ClientCodec) else CLIENT_ALLOWED
    t = obj.get("t") if isinstance(obj, dict) else None
    codec.session.state = next((s for s in SessionState if t in allowed[s]), SessionState.GAME)
    codec.receive_data(frame(obj))
    return codec.next_message()


def with_field(example: WireMap, key: str, value: Any) -> dict[str, Any]:
    wire = example.to_wire()
    wire[key] = value
    return wire


PLAYED = {"kind": "played", "seat": 0, "card": "5H", "cell": 44}

# (direction, type, wire key, bad value, code)
BAD_FIELDS = [
    ("client", "hello", "name", 5, "bad_type"),
    ("client", "hello", "name", "", "bad_text"),
    ("client", "hello", "name", "   ", "bad_text"),
    ("client", "hello", "name", "x" * 25, "bad_text"),
    ("client", "hello", "name", "Ai\nno", "bad_text"),
    ("client", "hello", "name", "Ai\x00no", "bad_text"),
    # Nothing to see once blanks and invisible characters are gone: an empty name.
    ("client", "hello", "name", "\u2800\u2800", "invisible_text"),
    ("client", "hello", "name", "\u3164", "invisible_text"),
    ("client", "hello", "name", "\u115f\u1160\uffa0", "invisible_text"),
    ("client", "hello", "name", "\u0301\u0308", "invisible_text"),
    ("client", "hello", "name", "\u034f\ufe0f \u2800", "invisible_text"),
    ("client", "hello", "name", "Ai\u0301\u0301\u0301no", "too_many_marks"),
    ("client", "hello", "resume", "too-short", "bad_format"),
    ("client", "hello", "resume", "x" * 40 + "=", "bad_format"),
    ("client", "hello", "resume", 7, "bad_type"),
    ("client", "ping", "n", -1, "out_of_range"),
    ("client", "ping", "n", 2**31, "out_of_range"),
    ("client", "ping", "n", True, "bad_type"),
    ("client", "ping", "n", 1.5, "bad_type"),
    ("client", "ping", "n", None, "bad_type"),
    ("client", "pong", "n", "8", "bad_type"),
    ("client", "create_table", "name", "x" * 33, "bad_text"),
    ("client", "create_table", "name", "\u2800\u3164", "invisible_text"),
    ("client", "create_table", "players", 1, "out_of_range"),
    ("client", "create_table", "players", 13, "out_of_range"),
    ("client", "create_table", "teams", 1, "out_of_range"),
    ("client", "create_table", "teams", 4, "out_of_range"),
    ("client", "create_table", "hand_size", 0, "out_of_range"),
    ("client", "create_table", "hand_size", 11, "out_of_range"),
    ("client", "create_table", "manual_draw", 1, "bad_type"),
    ("client", "create_table", "computer_takeover", None, "bad_type"),
    ("client", "join", "table", "", "bad_format"),
    ("client", "join", "table", "a b", "bad_format"),
    ("client", "join", "table", "x" * 33, "bad_format"),
    ("client", "join", "seat", 12, "out_of_range"),
    ("client", "join", "side", 3, "out_of_range"),
    ("client", "spectate", "table", 7, "bad_type"),
    ("client", "sit", "seat", -1, "out_of_range"),
    ("client", "ready", "ready", "yes", "bad_type"),
    ("client", "chat", "text", "", "bad_text"),
    ("client", "chat", "text", "   ", "bad_text"),
    ("client", "chat", "text", "x" * 201, "bad_text"),
    ("client", "chat", "text", "bell\x07", "bad_text"),
    # A line that shows nothing: blanks, fillers, marks with nothing to sit on.
    ("client", "chat", "text", "\u2800" * 50, "invisible_text"),
    ("client", "chat", "text", "\u3164 \u115f\u1160 \uffa0", "invisible_text"),
    ("client", "chat", "text", "\u0301" * 199, "invisible_text"),
    ("client", "chat", "text", " \ufe0f\u034f \u2800", "invisible_text"),
    # A smear: more than 2 marks on one character.
    ("client", "chat", "text", "a" + "\u0301" * 199, "too_many_marks"),
    ("client", "chat", "text", "hi\u0300\u0301\u0302 there", "too_many_marks"),
    ("server", "chat", "text", "\u2800\u2800", "invisible_text"),
    ("server", "chat", "text", "Z\u0335\u0336\u0337a", "too_many_marks"),
    ("client", "play", "id", -1, "out_of_range"),
    ("client", "play", "id", "3", "bad_type"),
    ("client", "play", "version", 2**31, "out_of_range"),
    ("client", "play", "card", "1H", "bad_card"),
    ("client", "play", "card", "7h", "bad_card"),
    ("client", "play", "card", "10H", "bad_card"),
    ("client", "play", "card", "XX", "bad_card"),
    ("client", "play", "card", ["7H"], "bad_type"),
    ("client", "play", "cell", 100, "bad_cell"),
    ("client", "play", "cell", -1, "bad_cell"),
    ("client", "play", "cell", [4, 4], "bad_cell"),
    ("client", "play", "cell", "E5", "bad_cell"),
    ("client", "play", "cell", True, "bad_cell"),
    ("client", "play", "cell", 44.0, "bad_cell"),
    ("client", "play", "fives", [[0, 4]] * 5, "out_of_range"),
    ("client", "play", "fives", [[0, 3]], "bad_five"),  # four cells
    ("client", "play", "fives", [[4, 0]], "bad_five"),  # end first
    ("client", "play", "fives", [[0, 41]], "bad_five"),  # not a line
    ("client", "play", "fives", [[6, 50]], "bad_five"),  # wraps round a row
    ("client", "play", "fives", [[60, 100]], "bad_five"),  # off the board
    ("client", "play", "fives", [[0, 4, 8]], "bad_five"),
    ("client", "play", "fives", [[0, True]], "bad_five"),
    ("client", "play", "fives", [4], "bad_five"),
    ("client", "play", "fives", 4, "bad_type"),
    ("client", "remove", "card", "JX", "bad_card"),
    ("client", "remove", "cell", 100, "bad_cell"),
    ("client", "exchange", "card", None, "bad_type"),
    ("client", "draw", "version", -5, "out_of_range"),
    ("client", "pass", "id", 2.0, "bad_type"),
    ("server", "welcome", "layout", ["XX"] * 100, "bad_format"),
    ("server", "welcome", "layout", ["XX"] * 99, "out_of_range"),
    ("server", "welcome", "layout", [1] * 100, "bad_type"),
    ("server", "welcome", "resume", "short", "bad_format"),
    ("server", "welcome", "session", "", "bad_format"),
    ("server", "welcome", "server_id", "a b", "bad_format"),
    ("server", "welcome", "server", "", "bad_text"),
    ("server", "welcome", "shapes", [], "out_of_range"),
    ("server", "welcome", "shapes", [{"players": 2, "teams": 2, "hand_size": 7}], "missing_field"),
    (
        "server",
        "welcome",
        "shapes",
        [{"players": 2, "teams": 2, "hand_size": 7, "needed": 3}],
        "out_of_range",
    ),
    ("server", "welcome", "last_id", -1, "out_of_range"),
    ("server", "error", "code", "Not Your Turn", "bad_format"),
    ("server", "error", "code", 7, "bad_type"),
    ("server", "error", "message", "x" * 201, "bad_text"),
    ("server", "error", "fatal", "no", "bad_type"),
    ("server", "bye", "code", "", "bad_format"),
    ("server", "tables", "tables", [{"id": "t1"}], "missing_field"),
    ("server", "tables", "tables", [5], "bad_type"),
    (
        "server",
        "tables",
        "tables",
        [{**SERVER["tables"].tables[0].to_wire(), 1: 2}],
        "unknown_field",
    ),
    ("server", "table", "seats", [], "out_of_range"),
    ("server", "table", "seats", [{"name": None, "ready": False}] * 2, "missing_field"),
    ("server", "table", "seat", 2, "out_of_range"),
    ("server", "table", "rematch", [0, 2], "out_of_range"),
    ("server", "table", "rules", {"hand_size": 0, "manual_draw": False}, "out_of_range"),
    ("server", "table", "rules", {"hand_size": 7}, "missing_field"),
    ("server", "notice", "kind", "exploded", "bad_format"),
    ("server", "notice", "name", "", "bad_text"),
    ("server", "notice", "seat", 12, "out_of_range"),
    ("server", "chat", "from", "", "bad_text"),
    ("server", "chat", "seat", -1, "out_of_range"),
    ("server", "ack", "version", -1, "out_of_range"),
    ("server", "snapshot", "board", BOARD[:-1], "bad_format"),
    ("server", "snapshot", "board", "." + BOARD[1:], "bad_format"),
    ("server", "snapshot", "board", BOARD[:50] + "*" + BOARD[51:], "bad_format"),
    ("server", "snapshot", "board", BOARD[:50] + "y" + BOARD[51:], "bad_format"),
    ("server", "snapshot", "hand", ["7H"] * 11, "out_of_range"),
    ("server", "snapshot", "hand", ["7H", 7], "bad_type"),
    ("server", "snapshot", "targets", [[14, 36]], "out_of_range"),  # one per card
    ("server", "snapshot", "targets", [[100]] * 7, "bad_cell"),
    ("server", "snapshot", "dead", ["ZZ"], "bad_card"),
    ("server", "snapshot", "discard", ["7H", "ZZ"], "bad_card"),
    ("server", "snapshot", "legal", ["7H@K1"], "bad_format"),
    ("server", "snapshot", "legal", ["JS@A1"], "bad_format"),
    ("server", "snapshot", "legal", ["7HxA1"], "bad_format"),
    ("server", "snapshot", "legal", ["dead:JD"], "bad_format"),
    ("server", "snapshot", "legal", ["pass\n"], "bad_format"),
    ("server", "snapshot", "legal", [["pass"]], "bad_type"),
    ("server", "snapshot", "sequences", [[], [], []], "out_of_range"),
    ("server", "snapshot", "sequences", [[[0, 4]] * 5, []], "out_of_range"),
    ("server", "snapshot", "sequences", [[[0, 5]], []], "bad_five"),
    ("server", "snapshot", "turn", 2, "out_of_range"),
    ("server", "snapshot", "seat", 2, "out_of_range"),
    ("server", "snapshot", "first", 2, "out_of_range"),
    ("server", "snapshot", "last_id", "6", "bad_type"),
    ("server", "snapshot", "players", [SNAP.players[0].to_wire()], "out_of_range"),
    (
        "server",
        "snapshot",
        "players",
        [p.to_wire() | {"side": 2} for p in SNAP.players],
        "out_of_range",
    ),
    ("server", "snapshot", "needed", 3, "out_of_range"),
    ("server", "snapshot", "sides", 4, "out_of_range"),
    ("server", "snapshot", "cut", [[[0, "3C", 1]]], "bad_type"),
    ("server", "snapshot", "cut", [[[5, "3C"]]], "out_of_range"),
    ("server", "snapshot", "cut", [[[0, "3X"]]], "bad_card"),
    ("server", "snapshot", "cut", [[]], "out_of_range"),
    ("server", "snapshot", "cut", [], "out_of_range"),
    ("server", "snapshot", "last", {"seat": 0, "action": "nope"}, "bad_format"),
    ("server", "snapshot", "last", {"seat": 0}, "missing_field"),
    ("server", "snapshot", "last", {"seat": 0, "action": "pass", 1: 1}, "unknown_field"),
    ("server", "snapshot", "choices", [{"cell": 44, "options": []}], "out_of_range"),
    ("server", "snapshot", "choices", [{"cell": 44, "options": [[], [[0, 4]]]}], "out_of_range"),
    ("server", "snapshot", "choices", [{"cell": 44, "options": [[[0, 4]]] * 65}], "out_of_range"),
    ("server", "snapshot", "choices", [{"cell": [4, 4], "options": [[[0, 4]]] * 2}], "bad_cell"),
    ("server", "snapshot", "pending_draw", [7], "out_of_range"),
    ("server", "snapshot", "passes", 13, "out_of_range"),
    ("server", "snapshot", "draw_size", 105, "out_of_range"),
    ("server", "snapshot", "result", {"result": "lose", "side": 0, "hands": []}, "bad_format"),
    ("server", "snapshot", "result", {"result": "draw", "side": 0, "hands": []}, "bad_type"),
    ("server", "snapshot", "result", {"result": "win", "side": None, "hands": []}, "bad_type"),
    (
        "server",
        "snapshot",
        "result",
        {"result": "draw", "side": None, "hands": [[]]},
        "out_of_range",
    ),
    ("server", "update", "changes", [], "out_of_range"),
    ("server", "update", "changes", [PLAYED] * 13, "out_of_range"),
    ("server", "update", "changes", [{"kind": 5}], "bad_format"),  # a new kind is ignored
    ("server", "update", "changes", [{"kind": "played", "seat": 0}], "bad_format"),
    ("server", "update", "changes", [{**PLAYED, "side": 0}], "bad_format"),
    ("server", "update", "changes", [{**PLAYED, "card": "ZZ"}], "bad_card"),
    ("server", "update", "changes", [{**PLAYED, "cell": 100}], "bad_cell"),
    ("server", "update", "changes", [{**PLAYED, "seat": 12}], "out_of_range"),
    (
        "server",
        "update",
        "changes",
        [{"kind": "sequence", "seat": 0, "side": 0, "fives": []}],
        "out_of_range",
    ),
    ("server", "update", "changes", [{"kind": "reshuffled", "seat": 0}], "bad_format"),
    ("server", "update", "turn", 12, "out_of_range"),
    ("server", "hand", "drawn", "KS", "bad_card"),  # not in the hand
    ("server", "hand", "targets", [], "out_of_range"),
    ("server", "hand", "dead", "7H", "bad_type"),
    ("server", "legal", "legal", ["pass"] * 501, "out_of_range"),
    ("server", "legal", "legal", ["pass"] * 513, "value_too_large"),
    ("server", "legal", "legal", ["7H@D5[A5-E5,A5-E5,A5-E5,A5-E5,A5-E5]"], "bad_format"),
    ("server", "legal", "choices", [{"cell": 44}], "missing_field"),
]


@pytest.mark.parametrize(
    ("direction", "t", "key", "value", "code"),
    BAD_FIELDS,
    ids=[f"{d}:{t}.{k}-{c}-{i}" for i, (d, t, k, _, c) in enumerate(BAD_FIELDS)],
)
def test_bad_field_is_refused_with_its_code(
    direction: str, t: str, key: str, value: Any, code: str
) -> None:
    example = (CLIENT if direction == "client" else SERVER)[t]
    wire = with_field(example, key, value)
    codec = ServerCodec() if direction == "client" else ClientCodec()
    with pytest.raises(RemoteProtocolError) as remote:
        deliver(codec, wire)
    assert remote.value.code == code
    assert not remote.value.fatal
    assert 0 < len(remote.value.message) <= 200
    if code == "value_too_large":
        return  # the decoder's limit: a message built here is not decoded
    # Building the same message ourselves is our own error, with the same code.
    attr = "sender" if key == "from" else key
    kwargs = {a: getattr(example, a) for _, a, _ in type(example)._SPEC}
    kwargs[attr] = value
    with pytest.raises(LocalProtocolError) as local:
        type(example)(**kwargs)
    assert local.value.code == code


def test_a_trusted_message_is_not_checked_but_the_receiver_checks_it() -> None:
    bad = Ping(n=-1, _trusted=True)  # the server's own, built without checks
    server = ServerCodec()
    client = ClientCodec()
    client.receive_data(server.send(bad))
    with pytest.raises(RemoteProtocolError, match="out_of_range"):
        client.next_message()


def test_a_change_carries_only_its_kind_s_fields() -> None:
    assert change_to_wire(Won(side=1)) == {"kind": "won", "side": 1}
    with pytest.raises(LocalProtocolError, match="bad_format"):
        change_from_wire({"kind": "won", "side": 1, "seat": 0})


def test_refusal_echoes_the_action_id() -> None:
    with pytest.raises(RemoteProtocolError) as err:
        deliver(ServerCodec(), with_field(CLIENT["play"], "card", "ZZ"))
    assert err.value.id == CLIENT["play"].id
    with pytest.raises(RemoteProtocolError) as err:
        deliver(ServerCodec(), with_field(CLIENT["play"], "id", -1))
    assert err.value.id is None  # no usable id to echo


def test_card_semantics_are_the_game_s_not_the_codec_s() -> None:
    """A one-eyed jack in `play`, a seven in `remove` and a jack in `exchange` are
    well formed: the rules refuse them (wrong_card, card_not_dead), not the codec."""
    for t, card in (("play", "JS"), ("remove", "7H"), ("exchange", "JD")):
        msg = deliver(ServerCodec(), with_field(CLIENT[t], "card", card))
        assert msg.card == card


def test_unknown_and_missing_fields() -> None:
    with pytest.raises(RemoteProtocolError, match="unknown_field"):
        deliver(ServerCodec(), {**CLIENT["hello"].to_wire(), "colour": "blue"})
    hello = CLIENT["hello"].to_wire()
    del hello["name"]
    with pytest.raises(RemoteProtocolError, match="missing_field"):
        deliver(ServerCodec(), hello)
    # Unknown keys are reported before missing ones.
    with pytest.raises(RemoteProtocolError, match="unknown_field"):
        deliver(ServerCodec(), {"t": "hello", "version": 3, "colour": "blue"})


def test_optional_fields_may_be_left_out_or_sent_as_their_default() -> None:
    msg = deliver(ServerCodec(), {"t": "hello", "version": 3, "name": "  Aino "})
    assert msg == CLIENT["hello"]  # the name is stripped
    msg = deliver(ServerCodec(), {"t": "hello", "version": 3, "name": "Aino", "resume": None})
    assert msg == CLIENT["hello"]
    msg = deliver(ServerCodec(), {"t": "create_table", "name": "x", "players": 2, "teams": 2})
    assert (msg.hand_size, msg.manual_draw, msg.computer_takeover) == (None, False, False)
    wire = {**SERVER["error"].to_wire(), "fatal": False}
    assert deliver(ClientCodec(), wire) == SERVER["error"]


def test_defaults_are_left_out_on_the_wire() -> None:
    assert CLIENT["create_table"].to_wire() == {
        "t": "create_table", "name": "Friday", "players": 2, "teams": 2,
    }  # fmt: skip
    assert "fatal" not in SERVER["error"].to_wire()
    assert "seat" in SERVER["snapshot"].to_wire()  # required, even when nil
    spectator = SERVER["snapshot"].to_wire() | {"seat": None, "last_id": None}
    spectator |= {"hand": [], "targets": [], "legal": [], "choices": []}
    assert deliver(ClientCodec(), spectator).seat is None


def test_unknown_types_are_refused_per_direction() -> None:
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ServerCodec(), {"t": "teleport"})
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ServerCodec(), SERVER["ack"].to_wire())  # a server-only message
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ClientCodec(), CLIENT["play"].to_wire())
    with pytest.raises(LocalProtocolError, match="unknown_type"):
        ServerCodec().send(CLIENT["hello"])  # type: ignore[arg-type]


def test_a_version_1_hello_is_refused_as_fatal_incompatible_version() -> None:
    codec = ServerCodec()
    codec.receive_data(frame(V1_HELLO))
    with pytest.raises(RemoteProtocolError) as err:
        codec.next_message()
    assert err.value.code == "incompatible_version" and err.value.fatal
    assert err.value.message == INCOMPATIBLE.message


@pytest.mark.parametrize("version", [0, 1, 2, 4, "3", True, 3.0, None, [3]])
def test_any_other_version_is_fatal_whatever_else_the_hello_holds(version: Any) -> None:
    codec = ServerCodec()
    with pytest.raises(RemoteProtocolError) as err:
        deliver(codec, {"t": "hello", "version": version, "name": "", "extra": 1})
    assert err.value.code == "incompatible_version" and err.value.fatal
    assert "3" in err.value.message
    without = ServerCodec()
    with pytest.raises(RemoteProtocolError, match="incompatible_version"):
        deliver(without, {"t": "hello", "name": "Aino"})
    with pytest.raises(RemoteProtocolError) as err:
        deliver(ClientCodec(), with_field(SERVER["welcome"], "version", 1))
    assert err.value.code == "incompatible_version" and err.value.fatal


def test_building_a_hello_of_another_version_is_allowed() -> None:
    # Only the receiving codec speaks for a version; a bad type is still our error.
    assert Hello(version=1, name="Aino").version == 1
    with pytest.raises(LocalProtocolError, match="bad_type"):
        Hello(version="2", name="Aino")  # type: ignore[arg-type]


# --- the msgpack layer: limits, types and shape -------------------------------------


def body_frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\xc1", "malformed_msgpack"),  # a byte msgpack never uses
        (b"\x82\xa1t\xa4ping", "malformed_msgpack"),  # ends inside the map
        (msgpack.packb({"t": "ping", "n": 1}) + b"\x00", "malformed_msgpack"),  # extra
        (b"\x81\xa1t\xa2\xff\xfe", "malformed_msgpack"),  # not UTF-8
        (msgpack.packb({"t": "chat", "text": "x" * 1025}), "value_too_large"),
        (msgpack.packb({"t": "play", "fives": [0] * 17}), "value_too_large"),
        (msgpack.packb({str(i): i for i in range(17)}), "value_too_large"),
        (msgpack.packb({"t": "ping", "n": b"\x07"}, use_bin_type=True), "unsupported_type"),
        (msgpack.packb({"t": "ping", "n": b""}, use_bin_type=True), "bad_type"),
        (msgpack.packb({"t": "ping", "n": msgpack.ExtType(5, b"x")}), "unsupported_type"),
        (b"\x82\xa1t\xa4ping\xa1n\xc7\x00\x05", "unsupported_type"),  # empty ext
        (b"\x82\xa1t\xa4ping\xa1n\xd6\xff\x00\x00\x00\x00", "unsupported_type"),  # timestamp
        (msgpack.packb({"t": "play", "fives": [[[[0]]]]}), "too_deep"),
        (msgpack.packb([1, 2]), "not_a_message"),
        (msgpack.packb("ping"), "not_a_message"),
        (msgpack.packb({"n": 1}), "not_a_message"),
        (msgpack.packb({"t": 1}), "not_a_message"),
        (msgpack.packb({1: "ping"}), "not_a_message"),
        (msgpack.packb({"t": "ping", "n": 1, 5: 1}), "not_a_message"),  # an integer key
        (msgpack.packb({"t": "ping", "n": 1, None: 1}), "not_a_message"),
        (msgpack.packb({"t": "ping", "n": 1, 1.5: 1}), "not_a_message"),
        (msgpack.packb({"t": "ping", "n": 1, (1, 2): 1}), "not_a_message"),
        (b"\x82\xa1t\xa4ping\x80\x01", "not_a_message"),  # a map as a key
        (b"\x82\xa1t\xa4ping\xa1n\x81\x80\x01", "not_a_message"),  # ... at any depth
        (b"\x82\xa1t\xa4ping\xc4\x00\x01", "not_a_message"),  # an empty-bin key
        (msgpack.packb({"t": "ping", "n": 1.0}), "bad_type"),
        (msgpack.packb({"t": "ping", "n": 2**64 - 1}), "out_of_range"),
        (msgpack.packb({"t": "ping", "n": -(2**63)}), "out_of_range"),
    ],
)
def test_decoder_limits_and_shapes(body: bytes, code: str) -> None:
    codec = ServerCodec()
    codec.receive_data(body_frame(body))
    with pytest.raises(RemoteProtocolError) as err:
        codec.next_message()
    assert err.value.code == code
    assert not err.value.fatal
    # Not fatal: the connection reads on.
    codec.receive_data(frame({"t": "ping", "n": 1}))
    assert codec.next_message() == Ping(n=1)


def test_a_map_with_an_integer_key_is_not_a_message() -> None:
    for obj in ({"t": "hello", "version": 3, "name": "Aino", 0: 1}, {0: "hello"}):
        codec = ServerCodec()
        codec.receive_data(frame(obj))
        with pytest.raises(RemoteProtocolError) as err:
            codec.next_message()
        assert err.value.code == "not_a_message" and not err.value.fatal


def test_the_order_of_checks() -> None:
    """The first failing check decides: shape before depth, type before version,
    version before fields, keys before values, fields before the session state."""
    cases = [
        ({"t": 5, "x": [[[[[0]]]]]}, "not_a_message"),
        ({"t": "nope", "x": [[[[0]]]]}, "too_deep"),
        ({"t": "nope", "version": 1}, "unknown_type"),
        ({"t": "hello", "version": 1, "colour": 1}, "incompatible_version"),
        ({"t": "hello", "version": 3, "name": 5, "colour": 1}, "unknown_field"),
        ({"t": "play", "id": 1, "card": "ZZ"}, "missing_field"),
        ({"t": "play", "id": -1, "version": 0, "card": "ZZ", "cell": 0}, "out_of_range"),
        ({"t": "play", "id": 1, "version": 0, "card": "ZZ", "cell": 100}, "bad_card"),
    ]
    for obj, code in cases:
        codec = ServerCodec()  # in `connected`: every play would be wrong_state
        codec.receive_data(frame(obj))
        with pytest.raises(RemoteProtocolError) as err:
            codec.next_message()
        assert err.value.code == code, obj
    codec = ServerCodec()
    codec.receive_data(frame(CLIENT["play"].to_wire()))
    with pytest.raises(RemoteProtocolError, match="wrong_state"):
        codec.next_message()


def test_nesting_limit_is_per_direction() -> None:
    deep = {"t": "update", "x": [[[[[[[0]]]]]]]}  # depth 8: fine for a server frame
    with pytest.raises(RemoteProtocolError, match="missing_field"):  # "x" is left out
        deliver(ClientCodec(), deep)
    with pytest.raises(RemoteProtocolError, match="too_deep"):
        deliver(ClientCodec(), {"t": "update", "x": [[[[[[[[0]]]]]]]]})
    with pytest.raises(RemoteProtocolError, match="too_deep"):
        deliver(ServerCodec(), {"t": "ping", "x": [[[[0]]]]})
