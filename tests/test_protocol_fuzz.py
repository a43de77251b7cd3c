"""Property tests: whatever arrives, only the protocol's own error type escapes."""

from typing import Any

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.protocol import ClientCodec, ProtocolError, ServerCodec, SessionState
from sarja.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from sarja.protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=10)
    | st.sampled_from(["7H", "JS", "A1", "pass", "7H@D5", "t1", "Aino", "*" * 100])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
ALL_KEYS = sorted(
    {k for cls in (*CLIENT_MESSAGES.values(), *SERVER_MESSAGES.values()) for k in cls._KEYS}
)


def frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def drain(codec: ClientCodec | ServerCodec, data: bytes, state: SessionState) -> list[Any]:
    """Feed `data`, take every message; only ProtocolError may escape, and a fatal one
    ends the stream as a real connection would."""
    out: list[Any] = []
    try:
        codec.receive_data(data)
    except ProtocolError as exc:
        assert exc.fatal
        return out
    while True:
        codec.session.state = state
        try:
            msg = codec.next_message()
        except ProtocolError as exc:
            out.append(exc.code)
            if exc.fatal:
                return out
            continue
        if msg is None:
            return out
        out.append(msg)


def codecs() -> st.SearchStrategy[tuple[ClientCodec | ServerCodec, SessionState]]:
    return st.tuples(
        st.sampled_from([ServerCodec, ClientCodec]), st.sampled_from(SessionState)
    ).map(lambda p: (p[0](), p[1]))


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


EXAMPLE_WIRES = [(ServerCodec, m.to_wire()) for m in CLIENT_EXAMPLES] + [
    (ClientCodec, m.to_wire()) for m in SERVER_EXAMPLES
]


@FUZZ
@given(st.sampled_from(EXAMPLE_WIRES), st.data())
def test_one_field_of_a_real_message_replaced(example: Any, data: st.DataObject) -> None:
    codec_cls, wire = example
    keys = [k for k in wire if k != "t"]
    if not keys:
        return
    key = data.draw(st.sampled_from(keys))
    mutated = {**wire, key: data.draw(values)}
    drain(codec_cls(), frame(msgpack.packb(mutated, use_bin_type=True)), SessionState.GAME)


@FUZZ
@given(st.lists(st.integers(1, 40), min_size=1, max_size=30))
def test_any_chunking_gives_the_same_messages(sizes: list[int]) -> None:
    data = b"".join(frame(msgpack.packb(m.to_wire())) for m in SERVER_EXAMPLES)
    whole = drain(ClientCodec(), data, SessionState.GAME)
    codec, got, i = ClientCodec(), [], 0
    while i < len(data):
        n = sizes[i % len(sizes)]
        got += drain(codec, data[i : i + n], SessionState.GAME)
        i += n
    assert got == whole


bodies = st.one_of(
    st.sampled_from([msgpack.packb(e.to_wire()) for e in CLIENT_EXAMPLES]),
    values.map(lambda v: msgpack.packb(v)),
    st.binary(min_size=1, max_size=40),  # bad bytes, truncated values
    st.tuples(values, values).map(lambda p: msgpack.packb(p[0]) + msgpack.packb(p[1])),
)


@FUZZ
@given(st.lists(bodies, min_size=1, max_size=8))
def test_a_refused_frame_leaves_the_next_one_decoded_as_if_first(items: list[bytes]) -> None:
    """The codec reuses one msgpack decoder across frames; whatever a frame did to it,
    each frame decodes exactly as it would on a new connection."""
    reused = ServerCodec()
    for body in items:
        alone = drain(ServerCodec(), frame(body), SessionState.GAME)
        assert drain(reused, frame(body), SessionState.GAME) == alone
