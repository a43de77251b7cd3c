"""Framing: the length prefix alone decides an oversize frame; framing errors are fatal."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import LocalProtocolError, RemoteProtocolError
from sarja.protocol.framing import FrameDecoder, encode_frame
from sarja.protocol.limits import MAX_CLIENT_FRAME, MAX_SERVER_FRAME


def test_frame_round_trip() -> None:
    assert encode_frame(b"\x80", 10) == b"\x00\x00\x00\x01\x80"
    dec = FrameDecoder(10)
    dec.receive_data(b"\x00\x00\x00\x02ab\x00\x00")
    assert dec.next_frame() == b"ab"
    assert dec.next_frame() is None
    dec.receive_data(b"\x00\x01c")
    assert dec.next_frame() == b"c"


def test_encode_refuses_empty_and_oversize() -> None:
    with pytest.raises(LocalProtocolError, match="empty_frame"):
        encode_frame(b"", 10)
    with pytest.raises(LocalProtocolError, match="frame_too_large"):
        encode_frame(b"x" * 11, 10)


@settings(max_examples=50)
@given(st.integers(MAX_CLIENT_FRAME + 1, 2**32 - 1))
def test_oversize_client_frame_refused_from_the_prefix_alone(n: int) -> None:
    codec = ServerCodec()
    with pytest.raises(RemoteProtocolError) as err:
        codec.receive_data(n.to_bytes(4, "big"))  # no body at all
    assert err.value.code == "frame_too_large" and err.value.fatal


@settings(max_examples=50)
@given(st.integers(MAX_SERVER_FRAME + 1, 2**32 - 1))
def test_oversize_server_frame_refused_from_the_prefix_alone(n: int) -> None:
    codec = ClientCodec()
    with pytest.raises(RemoteProtocolError, match="frame_too_large"):
        for b in n.to_bytes(4, "big"):  # even one byte at a time
            codec.receive_data(bytes([b]))
            codec.next_message()


def test_limits_differ_by_direction() -> None:
    prefix = (MAX_CLIENT_FRAME + 1).to_bytes(4, "big")
    client = ClientCodec()
    client.receive_data(prefix)  # a server may send this much
    assert client.next_message() is None
    with pytest.raises(RemoteProtocolError, match="frame_too_large"):
        ServerCodec().receive_data(prefix)


def test_zero_length_is_fatal_and_sticks() -> None:
    codec = ServerCodec()
    with pytest.raises(RemoteProtocolError) as err:
        codec.receive_data(b"\x00\x00\x00\x00")
    assert err.value.code == "empty_frame" and err.value.fatal
    with pytest.raises(RemoteProtocolError, match="empty_frame"):
        codec.next_message()
    with pytest.raises(RemoteProtocolError, match="empty_frame"):
        codec.receive_data(b"\x00\x00\x00\x01\x80")


def test_end_of_stream() -> None:
    codec = ServerCodec()
    codec.receive_data(b"")
    assert codec.next_message() is None and codec.at_eof
    codec = ServerCodec()
    codec.receive_data(b"\x00\x00\x00\x05\x81")
    codec.receive_data(b"")
    with pytest.raises(RemoteProtocolError) as err:
        codec.next_message()
    assert err.value.code == "truncated_frame" and err.value.fatal
    codec = ServerCodec()
    codec.receive_data(b"\x00\x00")
    codec.receive_data(b"")
    with pytest.raises(RemoteProtocolError, match="truncated_frame"):
        codec.next_message()


def test_the_protocol_imports_no_io_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sarja.protocol, sarja.protocol.examples;"
        "bad = {'trio', 'prompt_toolkit', 'asyncio', 'socket'} & set(sys.modules);"
        "sys.exit(sorted(bad) or 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_a_chunk_that_is_one_frame_keeps_its_place_in_the_stream() -> None:
    dec = FrameDecoder(10)
    dec.receive_data(b"\x00\x00\x00\x02ab")  # exactly one frame: kept as it came
    dec.receive_data(b"\x00\x00\x00\x01c")  # more, before the first was taken
    dec.receive_data(b"")
    assert not dec.at_eof
    assert dec.next_frame() == b"ab"
    assert dec.next_frame() == b"c"
    assert dec.next_frame() is None and dec.at_eof


@given(st.lists(st.binary(min_size=1, max_size=12), max_size=6), st.data())
def test_frames_come_out_in_order_however_the_stream_is_cut(
    bodies: list[bytes], data: st.DataObject
) -> None:
    stream = b"".join(encode_frame(b, 12) for b in bodies)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    dec, got = FrameDecoder(12), []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        if end > start:
            dec.receive_data(stream[start:end])
        if data.draw(st.booleans()):  # take frames now, or leave them for later
            while (body := dec.next_frame()) is not None:
                got.append(body)
    dec.receive_data(b"")
    while (body := dec.next_frame()) is not None:
        got.append(body)
    assert got == bodies and dec.at_eof
