"""Length-prefixed frames: a 4-byte unsigned big-endian length N, then N bytes.

The limit is checked as soon as the 4-byte prefix is in, so an oversize frame is refused
before any of its body is kept. Framing errors are fatal: once a prefix is wrong the
rest of the stream cannot be trusted, and the decoder refuses all further input.
"""

import struct

from .errors import LocalProtocolError, RemoteProtocolError
from .limits import HEADER_SIZE

_HEADER = struct.Struct(">I")  # HEADER_SIZE bytes, unsigned, big-endian
_unpack_length = _HEADER.unpack_from
pack_length = _HEADER.pack
assert _HEADER.size == HEADER_SIZE


def encode_frame(payload: bytes, max_frame: int) -> bytes:
    """Prefix `payload` with its length; refusing here keeps the peer from closing on us."""
    n = len(payload)
    if n == 0:
        raise LocalProtocolError("empty_frame", "A frame cannot be empty.")
    if n > max_frame:
        raise LocalProtocolError(
            "frame_too_large", f"A frame of {n} bytes is over the limit of {max_frame} bytes."
        )
    return _HEADER.pack(n) + payload


class FrameDecoder:
    """Bytes in (`receive_data`), whole frame bodies out (`next_frame`).

    `receive_data(b"")` marks the end of the stream, as in h11: after it, a partial frame
    left in the buffer is a `truncated_frame` error.
    """

    __slots__ = ("_buf", "_eof", "_error", "_need", "_whole", "max_frame")

    def __init__(self, max_frame: int) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        # A chunk that is exactly one valid frame, kept as it came when nothing else was
        # buffered: the usual case on a LAN, and it needs no copy into the buffer.
        self._whole: bytes | None = None
        self._eof = False
        self._error: RemoteProtocolError | None = None
        self._need = -1  # the body length of the frame at the buffer's head, once checked

    @property
    def partial(self) -> bool:
        """True while the start of a frame is buffered and its rest has not come."""
        return bool(self._buf)

    @property
    def at_eof(self) -> bool:
        """True once the peer has closed and every whole frame has been taken."""
        return self._eof and not self._buf and self._whole is None

    def receive_data(self, data: bytes) -> None:
        if self._error is not None:
            raise self._error
        if self._eof:
            raise LocalProtocolError("truncated_frame", "Data arrived after the end of stream.")
        if not data:
            self._eof = True
            return
        buf = self._buf
        if self._whole is not None:  # keep the stream in order behind the kept frame
            buf += self._whole
            self._whole = None
        elif not buf and len(data) > HEADER_SIZE and type(data) is bytes:
            n = _unpack_length(data)[0]
            if n == len(data) - HEADER_SIZE and n <= self.max_frame:
                self._whole = data
                return
        buf += data
        # Check a waiting prefix now, so the body of an oversize frame is never kept.
        if self._need < 0 and len(buf) >= HEADER_SIZE:
            n = _unpack_length(buf)[0]
            self._need = n if 0 < n <= self.max_frame else self._length()

    def next_frame(self) -> bytes | None:
        """The next whole frame body, or None if more data is needed."""
        if self._error is not None:
            raise self._error
        whole = self._whole
        if whole is not None:
            self._whole = None
            return whole[HEADER_SIZE:]
        buf = self._buf
        n = self._need
        if n < 0:
            if len(buf) < HEADER_SIZE:
                if self._eof and buf:
                    self._fail("truncated_frame", "The connection closed inside a frame's length.")
                return None
            n = self._need = self._length()
        end = HEADER_SIZE + n
        if len(buf) < end:
            if self._eof:
                self._fail("truncated_frame", "The connection closed inside a frame.")
            return None
        body = bytes(buf[HEADER_SIZE:end])
        del buf[:end]
        self._need = -1
        return body

    def _length(self) -> int:
        n: int = _unpack_length(self._buf)[0]
        if n == 0:
            self._fail("empty_frame", "A frame's length was 0; every frame holds one message.")
        if n > self.max_frame:
            self._fail(
                "frame_too_large",
                f"A frame of {n} bytes is over the limit of {self.max_frame} bytes.",
            )
        return n

    def _fail(self, code: str, message: str) -> None:
        self._buf.clear()
        self._need = -1
        self._error = RemoteProtocolError(code, message)
        raise self._error
