"""One game version's `state`, encoded for many seats with the shared fields packed once.

Every seat's state at a version differs only in `seat`, `hand`, `legal` and `choices`.
A msgpack map is its header followed by each key and value packed in turn, so the
bytes between those four values are the same for every seat: they are packed once
here, and each seat's frame is those pieces with its own four values between them.
The result is byte for byte what `codec.encode` makes of the same message (a test
compares them on every state of whole games).

Packing the shared pieces costs about what encoding 1.7 whole states does, and each
seat's frame after that about a sixth of one (a mid-game state, measured): worth it
from three states of one version on.
"""

from typing import Any

import msgpack

from .framing import encode_frame, pack_length
from .limits import MAX_SERVER_FRAME
from .server_messages import State

_OWN_FIELDS = ("seat", "hand", "legal", "choices")  # in State's field order
# The shared keys before, between and after the seat's own, in `to_wire`'s order.
_SHARED: list[list[str]] = [[]]
for _key in ("t", *State._KEYS):
    if _key in _OWN_FIELDS:
        _SHARED.append([])
    else:
        _SHARED[-1].append(_key)
assert len(_SHARED) == len(_OWN_FIELDS) + 1 and all(len(keys) <= 15 for keys in _SHARED)
# One Packer for all: making one allocates a large buffer, and packing is never
# interleaved (each call returns its bytes before the next begins).
_packer = msgpack.Packer(use_bin_type=True)
_pack = _packer.pack
_MAP_HEADER = _packer.pack_map_header(1 + len(State._KEYS))  # "t" and every field
_OWN_KEYS = [_pack(key) for key in _OWN_FIELDS]


def _own_values(state: State) -> tuple[Any, ...]:
    """The wire values of the fields that differ between seats, as `to_wire` gives them."""
    return state.seat, state.hand, state.legal, [c.to_wire() for c in state.choices]


def _pairs(wire: dict[str, Any], keys: list[str]) -> bytes:
    """`keys` and their values packed in turn: a map of them without its header, which
    for at most 15 entries is one byte."""
    return _pack({key: wire[key] for key in keys})[1:]


class SharedStateEncoder:
    """Frames for the states of one game version, from any one of them (`sample`).

    Only for states that share every field but the seat's own: the server builds all
    of a version's states from one public part (see the server's present.py).
    """

    __slots__ = ("_pieces",)

    def __init__(self, sample: State) -> None:
        wire = sample.to_wire()
        first, *middle, last = _SHARED
        self._pieces = [
            _MAP_HEADER + _pairs(wire, first) + _OWN_KEYS[0],
            *(_pairs(wire, keys) + own for keys, own in zip(middle, _OWN_KEYS[1:], strict=True)),
            _pairs(wire, last),
        ]

    def frame(self, state: State) -> bytes:
        """The frame of `state`, which must share the sample's public fields."""
        pack, pieces = _pack, self._pieces
        seat, hand, legal, choices = _own_values(state)
        payload = b"".join(
            (
                pieces[0], pack(seat), pieces[1], pack(hand), pieces[2], pack(legal),
                pieces[3], pack(choices), pieces[4],
            )
        )  # fmt: skip
        n = len(payload)
        if n > MAX_SERVER_FRAME:
            encode_frame(payload, MAX_SERVER_FRAME)  # raises the framing error
        return pack_length(n) + payload
