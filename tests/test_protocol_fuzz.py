"""Property tests of the codec: every example round-trips; whatever arrives, only
RemoteProtocolError escapes; bytes fed whole or in any pieces give the same messages."""

from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.protocol import examples as ex
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import RemoteProtocolError
from sarja.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from sarja.protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES, Snapshot, WireMap
from sarja.protocol.session import SessionState

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.integers(-3, 120)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=10)
    | st.sampled_from(["7H", "JS", "E5", "pass", "7H@D5", "t1", "Aino", "played", "*" * 100])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8) | st.integers(0, 3), inner, max_size=5)
    ),
    max_leaves=20,
)
ALL_KEYS = sorted(
    {k for cls in (*CLIENT_MESSAGES.values(), *SERVER_MESSAGES.values()) for k in cls._ALLOWED}
)
FINISHED = Snapshot(
    **{a: getattr(ex.SNAPSHOT, a) for _, a, _ in Snapshot._SPEC}
    | {"result": ex.RESULT, "legal": (), "choices": ()}
)
# Every example, and the few more the docs show, with the codec that receives it.
RECEIVED: list[tuple[type[ServerCodec] | type[ClientCodec], WireMap]] = [
    *((ServerCodec, m) for m in CLIENT_EXAMPLES),
    *((ClientCodec, m) for m in SERVER_EXAMPLES),
    (ClientCodec, ex.FINAL_UPDATE),
    (ClientCodec, FINISHED),
    (ClientCodec, ex.INCOMPATIBLE),
]


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def encoded(msg: WireMap) -> bytes:
    return frame(msgpack.packb(msg.to_wire(), use_bin_type=True))


def drain(codec: ClientCodec | ServerCodec, data: bytes, state: SessionState) -> list[Any]:
    """Feed `data` and take every message. Only RemoteProtocolError may escape the
    codec, and a fatal one ends the stream as a real connection would. Whatever is
    accepted encodes again to a message equal to itself."""
    out: list[Any] = []
    try:
        codec.receive_data(data)
    except RemoteProtocolError as exc:
        assert exc.fatal
        return [exc.code]
    while True:
        codec.session.state = state
        try:
            msg = codec.next_message()
        except RemoteProtocolError as exc:
            out.append(exc.code)
            assert 0 < len(exc.message) <= 200
            if exc.fatal:
                return out
            continue
        if msg is None:
            return out
        again = msgpack.unpackb(msgpack.packb(msg.to_wire()), use_list=False, raw=False)
        assert type(msg).from_wire(again) == msg
        out.append(msg)


def codecs() -> st.SearchStrategy[tuple[ClientCodec | ServerCodec, SessionState]]:
    return st.tuples(
        st.sampled_from([ServerCodec, ClientCodec]), st.sampled_from(SessionState)
    ).map(lambda p: (p[0](), p[1]))


def state_for(codec_cls: Any, t: str) -> SessionState:
    from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED

    allowed = CLIENT_ALLOWED if codec_cls is ServerCodec else SERVER_ALLOWED
    return next(s for s in SessionState if t in allowed[s])


# ----- every example round-trips -----------------------------------------------------


@FUZZ
@given(st.sampled_from(RECEIVED), st.lists(st.integers(1, 64), min_size=1, max_size=8))
def test_every_example_round_trips_in_any_pieces(example: Any, sizes: list[int]) -> None:
    codec_cls, msg = example
    data = encoded(msg)
    state = state_for(codec_cls, msg.TYPE)
    assert drain(codec_cls(), data, state) == [msg]
    codec, got, i = codec_cls(), [], 0
    while i < len(data):
        n = sizes[i % len(sizes)]
        got += drain(codec, data[i : i + n], state)
        i += n
    assert got == [msg]
    assert type(msg).from_wire(msg.to_wire()) == msg


# ----- only RemoteProtocolError escapes ------------------------------------------------


@FUZZ
@given(codecs(), st.binary(max_size=300))
def test_arbitrary_bytes(pair: Any, data: bytes) -> None:
    drain(pair[0], data, pair[1])


@FUZZ
@given(codecs(), values)
def test_arbitrary_msgpack_values_in_valid_frames(pair: Any, value: Any) -> None:
    drain(pair[0], frame(msgpack.packb(value, use_bin_type=True)), pair[1])


@FUZZ
@given(
    codecs(),
    st.sampled_from(sorted({*CLIENT_MESSAGES, *SERVER_MESSAGES, "nope"})),
    st.dictionaries(st.sampled_from(ALL_KEYS), values, max_size=8),
)
def test_arbitrary_fields_under_a_real_type(pair: Any, t: str, fields: dict[str, Any]) -> None:
    drain(pair[0], frame(msgpack.packb({"t": t, **fields}, use_bin_type=True)), pair[1])


def mutate(wire: Any, data: st.DataObject, depth: int = 0) -> Any:
    """One random change somewhere in a decoded message: a value replaced, a key
    dropped or added, an item dropped or added, at any depth."""
    if isinstance(wire, dict) and wire and depth < 4 and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(wire, key=str)))
        return {**wire, key: mutate(wire[key], data, depth + 1)}
    if isinstance(wire, list) and wire and depth < 4 and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(wire) - 1))
        return [*wire[:i], mutate(wire[i], data, depth + 1), *wire[i + 1 :]]
    how = data.draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "drop" and isinstance(wire, dict) and wire:
        key = data.draw(st.sampled_from(sorted(wire, key=str)))
        return {k: v for k, v in wire.items() if k != key}
    if how == "drop" and isinstance(wire, list) and wire:
        return wire[1:]
    if how == "add" and isinstance(wire, dict):
        return {**wire, data.draw(st.sampled_from(ALL_KEYS) | st.integers(0, 3)): data.draw(values)}
    if how == "add" and isinstance(wire, list):
        return [*wire, data.draw(values)]
    return data.draw(values)


@FUZZ
@given(st.sampled_from(RECEIVED), st.data())
def test_random_mutations_of_real_messages(example: Any, data: st.DataObject) -> None:
    codec_cls, msg = example
    wire = msgpack.unpackb(msgpack.packb(msg.to_wire()), raw=False)  # lists, as JSON
    mutated = mutate(wire, data)
    body = msgpack.packb(mutated, use_bin_type=True)
    drain(codec_cls(), frame(body), state_for(codec_cls, msg.TYPE))


@FUZZ
@given(st.sampled_from(RECEIVED), st.data())
def test_random_byte_damage_to_real_frames(example: Any, data: st.DataObject) -> None:
    codec_cls, msg = example
    raw = bytearray(encoded(msg))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        how = data.draw(st.sampled_from(["flip", "drop", "insert"]))
        if how == "flip":
            raw[i] = data.draw(st.integers(0, 255))
        elif how == "drop":
            del raw[i]
        else:
            raw.insert(i, data.draw(st.integers(0, 255)))
    drain(codec_cls(), bytes(raw), state_for(codec_cls, msg.TYPE))


# ----- whole or in pieces: the same ----------------------------------------------------

bodies = st.one_of(
    st.sampled_from([msgpack.packb(m.to_wire()) for _, m in RECEIVED]),
    values.map(lambda v: msgpack.packb(v)),
    st.binary(min_size=1, max_size=40),  # bad bytes, truncated values
    st.tuples(values, values).map(lambda p: msgpack.packb(p[0]) + msgpack.packb(p[1])),
)


@FUZZ
@given(
    st.sampled_from([ServerCodec, ClientCodec]),
    st.lists(bodies, min_size=1, max_size=8),
    st.lists(st.integers(1, 40), min_size=1, max_size=20),
)
def test_whole_one_byte_at_a_time_or_in_any_pieces_the_same(
    codec_cls: Any, items: list[bytes], sizes: list[int]
) -> None:
    data = b"".join(frame(b) for b in items)
    whole = drain(codec_cls(), data, SessionState.GAME)
    drip = codec_cls()
    one_by_one = []
    for i in range(len(data)):
        one_by_one += drain(drip, data[i : i + 1], SessionState.GAME)
        if one_by_one[-1:] and isinstance(one_by_one[-1], str) and _fatal(one_by_one[-1]):
            break
    assert one_by_one == whole
    pieces, got, i = codec_cls(), [], 0
    while i < len(data):
        n = sizes[i % len(sizes)]
        got += drain(pieces, data[i : i + n], SessionState.GAME)
        i += n
        if got[-1:] and isinstance(got[-1], str) and _fatal(got[-1]):
            break
    assert got == whole


def _fatal(code: str) -> bool:
    from sarja.protocol.errors import FATAL_CODES

    return code in FATAL_CODES


@FUZZ
@given(st.lists(bodies, min_size=1, max_size=8))
def test_a_refused_frame_leaves_the_next_one_decoded_as_if_first(items: list[bytes]) -> None:
    """Whatever an earlier frame on the connection did (refused or not), each frame
    decodes exactly as it would on a new connection."""
    reused = ServerCodec()
    for body in items:
        alone = drain(ServerCodec(), frame(body), SessionState.GAME)
        assert drain(reused, frame(body), SessionState.GAME) == alone
