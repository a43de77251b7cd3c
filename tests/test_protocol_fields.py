"""Each malformed field and each limit is refused with its code: as a LocalProtocolError
when we build the message, and as a RemoteProtocolError when it arrives on the wire."""

from typing import Any

import msgpack
import pytest

from sarja.protocol import (
    ClientCodec,
    LocalProtocolError,
    RemoteProtocolError,
    ServerCodec,
    SessionState,
)
from sarja.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from sarja.protocol.messages import Record
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED

CLIENT = {m.TYPE: m for m in CLIENT_EXAMPLES}
SERVER = {m.TYPE: m for m in SERVER_EXAMPLES}
BOARD = SERVER["state"].board


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


def with_field(example: Record, key: str, value: Any) -> dict[str, Any]:
    wire = example.to_wire()
    wire[key] = value
    return wire


# (direction, type, wire key, bad value, code)
BAD_FIELDS = [
    ("client", "hello", "name", 5, "bad_type"),
    ("client", "hello", "name", "", "bad_text"),
    ("client", "hello", "name", "   ", "bad_text"),
    ("client", "hello", "name", "x" * 25, "bad_text"),
    ("client", "hello", "name", "Ai\nno", "bad_text"),
    ("client", "hello", "name", "Ai\x00no", "bad_text"),
    ("client", "hello", "resume", "too-short", "bad_format"),
    ("client", "hello", "resume", "x" * 40 + "=", "bad_format"),
    ("client", "ping", "n", -1, "out_of_range"),
    ("client", "ping", "n", 2**31, "out_of_range"),
    ("client", "ping", "n", True, "bad_type"),
    ("client", "ping", "n", 1.5, "bad_type"),
    ("client", "ping", "n", None, "bad_type"),
    ("client", "create_table", "name", "x" * 33, "bad_text"),
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
    ("client", "play", "id", -1, "out_of_range"),
    ("client", "play", "id", "3", "bad_type"),
    ("client", "play", "version", 2**31, "out_of_range"),
    ("client", "play", "card", "1H", "bad_card"),
    ("client", "play", "card", "7h", "bad_card"),
    ("client", "play", "card", "10H", "bad_card"),
    ("client", "play", "card", "JS", "bad_card"),
    ("client", "play", "card", ["7H"], "bad_type"),
    ("client", "play", "cell", [10, 0], "bad_cell"),
    ("client", "play", "cell", [0, -1], "bad_cell"),
    ("client", "play", "cell", [0], "bad_cell"),
    ("client", "play", "cell", [0, 0, 0], "bad_cell"),
    ("client", "play", "cell", "A1", "bad_cell"),
    ("client", "play", "cell", [True, 0], "bad_cell"),
    ("client", "play", "fives", [[0, 0, 0, 4]] * 5, "out_of_range"),
    ("client", "play", "fives", [[0, 0, 0, 3]], "bad_five"),
    ("client", "play", "fives", [[0, 4, 0, 0]], "bad_five"),
    ("client", "play", "fives", [[0, 0, 4, 1]], "bad_five"),
    ("client", "play", "fives", [[6, 0, 10, 4]], "bad_five"),
    ("client", "play", "fives", [[0, 0, 0]], "bad_five"),
    ("client", "play", "fives", [4], "bad_five"),
    ("client", "play", "fives", 4, "bad_type"),
    ("client", "remove", "card", "7H", "bad_card"),
    ("client", "remove", "card", "JD", "bad_card"),
    ("client", "exchange", "card", "JC", "bad_card"),
    ("client", "exchange", "card", "XX", "bad_card"),
    ("client", "draw", "version", -5, "out_of_range"),
    ("client", "pass", "id", 2.0, "bad_type"),
    ("server", "welcome", "layout", ["XX"] * 100, "bad_format"),
    ("server", "welcome", "layout", ["XX"] * 99, "out_of_range"),
    ("server", "welcome", "resume", "short", "bad_format"),
    ("server", "welcome", "session", "", "bad_format"),
    ("server", "welcome", "server", "", "bad_text"),
    ("server", "error", "code", "Not Your Turn", "bad_format"),
    ("server", "error", "message", "x" * 201, "bad_text"),
    ("server", "error", "fatal", "no", "bad_type"),
    ("server", "bye", "code", "", "bad_format"),
    ("server", "tables", "tables", [{"id": "t1"}], "missing_field"),
    ("server", "tables", "tables", [5], "bad_type"),
    ("server", "table", "seats", [], "out_of_range"),
    ("server", "table", "seat", 2, "out_of_range"),
    ("server", "table", "rules", {"hand_size": 0, "manual_draw": False}, "out_of_range"),
    ("server", "state", "board", BOARD[:-1], "bad_format"),
    ("server", "state", "board", "." + BOARD[1:], "bad_format"),
    ("server", "state", "board", BOARD[:50] + "*" + BOARD[51:], "bad_format"),
    ("server", "state", "board", BOARD[:50] + "y" + BOARD[51:], "bad_format"),
    ("server", "state", "hand", ["7H"] * 11, "out_of_range"),
    ("server", "state", "hand", ["7H", 7], "bad_type"),
    ("server", "state", "discard", ["7H", "ZZ"], "bad_card"),
    ("server", "state", "legal", ["7H@K1"], "bad_notation"),
    ("server", "state", "legal", ["JS@A1"], "bad_notation"),
    ("server", "state", "legal", ["7HxA1"], "bad_notation"),
    ("server", "state", "legal", ["dead:JD"], "bad_notation"),
    ("server", "state", "legal", ["pass\n"], "bad_notation"),
    ("server", "state", "legal", ["pass"] * 301, "out_of_range"),
    ("server", "state", "legal", [["pass"]], "bad_type"),
    ("server", "state", "sequences", [[], [], []], "out_of_range"),
    ("server", "state", "sequences", [[[0, 0, 0, 4]] * 5, []], "out_of_range"),
    ("server", "state", "turn", 2, "out_of_range"),
    ("server", "state", "seat", 2, "out_of_range"),
    ("server", "state", "players", [SERVER["state"].players[0].to_wire()], "out_of_range"),
    ("server", "state", "needed", 3, "out_of_range"),
    ("server", "state", "sides", 4, "out_of_range"),
    ("server", "state", "cut", [[[0, "3C", 1]]], "bad_type"),
    ("server", "state", "cut", [[[5, "3C"]]], "out_of_range"),
    ("server", "state", "cut", [[]], "out_of_range"),
    ("server", "state", "last", {"seat": 0, "action": "nope"}, "bad_notation"),
    ("server", "state", "last", {"seat": 0}, "missing_field"),
    ("server", "state", "choices", [{"cell": [4, 4], "options": []}], "out_of_range"),
    ("server", "state", "choices", [{"cell": [4, 4], "options": [[]]}], "out_of_range"),
    ("server", "state", "pending_draw", [7], "out_of_range"),
    ("server", "state", "passes", 13, "out_of_range"),
    ("server", "state", "outcome", {"result": "lose", "side": 0, "hands": []}, "bad_format"),
    ("server", "state", "outcome", {"result": "draw", "side": 0, "hands": []}, "bad_type"),
    ("server", "state", "outcome", {"result": "win", "side": None, "hands": []}, "bad_type"),
    ("server", "event", "kind", "exploded", "bad_format"),
    ("server", "event", "text", "", "bad_text"),
    ("server", "event", "action", "7H@", "bad_notation"),
    ("server", "chat", "from", "", "bad_text"),
    ("server", "ack", "version", -1, "out_of_range"),
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
    # Building the same message ourselves is our own error, with the same code.
    attr = "sender" if key == "from" else key
    kwargs = {n: getattr(example, n) for n in type(example).__dataclass_fields__}
    kwargs[attr] = value
    with pytest.raises(LocalProtocolError) as local:
        type(example)(**kwargs)
    assert local.value.code == code


def test_building_a_bad_hello_is_a_local_error() -> None:
    # On the wire a bad version is `incompatible_version` (tested below); built locally it
    # is just a bad field.
    with pytest.raises(LocalProtocolError, match="bad_type"):
        CLIENT["hello"].__class__(version="1", name="Aino")


def test_refusal_echoes_the_action_id() -> None:
    with pytest.raises(RemoteProtocolError) as err:
        deliver(ServerCodec(), with_field(CLIENT["play"], "card", "JS"))
    assert err.value.id == 3


def test_unknown_and_missing_fields() -> None:
    with pytest.raises(RemoteProtocolError, match="unknown_field"):
        deliver(ServerCodec(), {**CLIENT["hello"].to_wire(), "colour": "blue"})
    hello = CLIENT["hello"].to_wire()
    del hello["name"]
    with pytest.raises(RemoteProtocolError, match="missing_field"):
        deliver(ServerCodec(), hello)


def test_optional_fields_may_be_left_out() -> None:
    msg = deliver(ServerCodec(), {"t": "hello", "version": 1, "name": "  Aino "})
    assert msg == CLIENT["hello"]  # the name is stripped
    msg = deliver(ServerCodec(), {"t": "create_table", "name": "x", "players": 2, "teams": 2})
    assert (msg.hand_size, msg.manual_draw, msg.computer_takeover) == (None, False, False)


def test_unknown_types_are_refused_per_direction() -> None:
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ServerCodec(), {"t": "teleport"})
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ServerCodec(), SERVER["ack"].to_wire())  # a server-only message
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ClientCodec(), CLIENT["play"].to_wire())
    with pytest.raises(LocalProtocolError, match="unknown_type"):
        ServerCodec().send(CLIENT["hello"])  # type: ignore[arg-type]


@pytest.mark.parametrize("version", [0, 2, "1", True, None])
def test_incompatible_version_is_fatal(version: Any) -> None:
    codec = ServerCodec()
    with pytest.raises(RemoteProtocolError) as err:
        deliver(codec, {"t": "hello", "version": version, "name": "Aino", "extra": 1})
    assert err.value.code == "incompatible_version" and err.value.fatal
    assert "1" in err.value.message
    with pytest.raises(RemoteProtocolError, match="incompatible_version"):
        deliver(ClientCodec(), with_field(SERVER["welcome"], "version", 2))


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
    assert codec.next_message() == CLIENT["ping"].__class__(n=1)


def test_nesting_limit_is_per_direction() -> None:
    deep = {"t": "event", "x": [[[[[[[0]]]]]]]}  # depth 8: fine for a server frame
    with pytest.raises(RemoteProtocolError, match="unknown_field"):
        deliver(ClientCodec(), deep)
    with pytest.raises(RemoteProtocolError, match="too_deep"):
        deliver(ClientCodec(), {"t": "event", "x": [[[[[[[[0]]]]]]]]})
    with pytest.raises(RemoteProtocolError, match="too_deep"):
        deliver(ServerCodec(), {"t": "ping", "x": [[[[0]]]]})
