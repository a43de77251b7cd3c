"""What framing and validation cost over plain msgpack, for the messages of every move.

Run: python bench/protocol.py   (a few seconds; --quick for the test suite). Prints
microseconds per operation for an action (`play`, client -> server), a public `update`
(server -> every member, every move) and a `snapshot` (on join, resume and `sync`),
next to plain msgpack on the same map in the same run, and the ratio:

- encode: `codec.send(msg)` (pack + frame + session check) against `msgpack.packb` of
  the map the message produces;
- decode: `receive_data` + `next_message` of the frame (framing, msgpack, every field
  checked, the message built, session check) against `msgpack.unpackb` of the body.

Rounds alternate ours and plain so a busy machine's slow spells hit both; the best
round of each is kept. The last line is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import timeit
from collections.abc import Callable
from typing import Any

import msgpack

from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.examples import PLAY, SNAPSHOT, UPDATE
from sarja.protocol.messages import WireMap
from sarja.protocol.session import SessionState


def best(fn: Callable[[], Any], number: int, rounds: int) -> float:
    """The best round's microseconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=rounds)) / number * 1e6


def measure(
    msg: WireMap, outgoing: Any, incoming: Any, number: int, rounds: int
) -> dict[str, float]:
    frame = outgoing().send(msg)
    body = frame[4:]
    wire = msg.to_wire()
    state = incoming().session.state

    def decode() -> None:
        codec = incoming()
        codec.session.state = state
        codec.receive_data(frame)
        codec.next_message()

    def encode() -> None:
        outgoing().send(msg)

    plain_decode = best(lambda: msgpack.unpackb(body, raw=False, use_list=False), number, rounds)
    plain_encode = best(lambda: msgpack.packb(wire), number, rounds)
    # A codec per call is part of both ours: subtract what building one costs.
    overhead_in = best(incoming, number, rounds)
    overhead_out = best(outgoing, number, rounds)
    ours_decode = best(decode, number, rounds) - overhead_in
    ours_encode = best(encode, number, rounds) - overhead_out
    return {
        "bytes": len(frame),
        "decode_us": ours_decode,
        "plain_decode_us": plain_decode,
        "decode_ratio": ours_decode / plain_decode,
        "encode_us": ours_encode,
        "plain_encode_us": plain_encode,
        "encode_ratio": ours_encode / plain_encode,
    }


def _in_state(cls: type[ServerCodec] | type[ClientCodec], state: SessionState) -> Any:
    def make() -> Any:
        codec = cls()
        codec.session.state = state
        return codec

    return make


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred calls only")
    args = parser.parse_args()
    number, rounds = (200, 2) if args.quick else (5000, 5)
    game = SessionState.GAME
    cases = {
        "play": (PLAY, _in_state(ClientCodec, game), _in_state(ServerCodec, game)),
        "update": (UPDATE, _in_state(ServerCodec, game), _in_state(ClientCodec, game)),
        "snapshot": (
            SNAPSHOT,
            _in_state(ServerCodec, SessionState.TABLE),
            _in_state(ClientCodec, SessionState.TABLE),
        ),
    }  # fmt: skip
    figures: dict[str, float] = {}
    print(f"{'message':10} {'bytes':>6} {'decode µs':>10} {'plain':>7} {'ratio':>6}"
          f" {'encode µs':>10} {'plain':>7} {'ratio':>6}")  # fmt: skip
    for name, (msg, outgoing, incoming) in cases.items():
        m = measure(msg, outgoing, incoming, number, rounds)
        print(
            f"{name:10} {m['bytes']:6.0f} {m['decode_us']:10.2f} {m['plain_decode_us']:7.2f}"
            f" {m['decode_ratio']:6.2f} {m['encode_us']:10.2f} {m['plain_encode_us']:7.2f}"
            f" {m['encode_ratio']:6.2f}"
        )
        figures[f"{name}_decode_ratio"] = round(m["decode_ratio"], 2)
        figures[f"{name}_encode_ratio"] = round(m["encode_ratio"], 2)
        figures[f"{name}_bytes"] = m["bytes"]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
