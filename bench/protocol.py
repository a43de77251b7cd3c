"""How much framing and validation cost over plain msgpack, for the two hot messages.

Run: python bench/protocol.py   (a few seconds). Prints microseconds per operation for an
action (`play`, client -> server) and a seat's `state` (server -> client, sent per seat
per move), next to msgpack.packb/unpackb of the same map in the same run, and the ratio.
"""

import timeit
from collections.abc import Callable

import msgpack
from sarja.protocol import ClientCodec, ServerCodec, SessionState
from sarja.protocol.messages import Choice, Last, Play, Player, Rules, State
from sarja.protocol.notation import cell_name


def mid_game_state(legal_wanted: int) -> State:
    """A four-player game some 30 moves in; `legal_wanted` sizes the legal list."""
    board = list("." * 100)
    for i in (0, 9, 90, 99):
        board[i] = "*"
    for k, i in enumerate(range(11, 89, 3)):
        board[i] = "bg"[k % 2]
    for i in (41, 42, 43, 44, 45):
        board[i] = "B"
    open_cells = [(i // 10, i % 10) for i, ch in enumerate(board) if ch == "."]
    legal = [f"JD@{cell_name(r, c)}" for r, c in open_cells]
    legal += [f"JC@{cell_name(r, c)}" for r, c in open_cells]
    taken = [(i // 10, i % 10) for i, ch in enumerate(board) if ch == "g"]
    legal += [f"J{s}x{cell_name(r, c)}" for s in "SH" for r, c in taken]
    legal = [*legal[: legal_wanted - 2], "7H@D5[A5-E5]", "pass"]
    return State(
        table="t1",
        version=61,
        seat=0,
        players=[
            Player(name=n, side=i % 2, away=False, hand_size=6)
            for i, n in enumerate(("Aino", "Bertil", "Cecilia", "Dmitri"))
        ],
        sides=2,
        needed=2,
        hand=["7H", "JD", "QS", "2C", "AD", "9S"],
        board="".join(board),
        discard=["5H", "KD", "JS", "3C", "TS", "4D", "8H", "2S", "QD"] * 3,
        draw_size=50,
        sequences=[[(4, 1, 4, 5)], []],
        turn=0,
        first=2,
        cut=[[(0, "9C"), (1, "4H"), (2, "2S"), (3, "KD")]],
        last=Last(seat=3, action="QC@D8"),
        legal=legal,
        choices=[Choice(cell=(4, 0), options=[[(4, 0, 4, 4)], [(4, 1, 4, 5)]])],
        exchanged=False,
        pending_draw=[],
        passes=0,
        rules=Rules(hand_size=6, manual_draw=False),
        outcome=None,
    )


def loops(fn: Callable[[], object], seconds: float) -> int:
    """How many calls of `fn` take about `seconds`."""
    t = timeit.timeit(fn, number=20)
    return max(1, int(20 * seconds / max(t, 1e-9)))


def pair(ours: Callable[[], object], plain: Callable[[], object]) -> tuple[float, float]:
    """Microseconds per call of each, best of 7 rounds taken in turn.

    Alternating the two keeps a busy machine's slow spells from landing on one side only.
    """
    n_ours, n_plain = loops(ours, 0.01), loops(plain, 0.01)
    best_ours = best_plain = float("inf")
    for _ in range(7):
        best_ours = min(best_ours, timeit.timeit(ours, number=n_ours) / n_ours)
        best_plain = min(best_plain, timeit.timeit(plain, number=n_plain) / n_plain)
    return best_ours * 1e6, best_plain * 1e6


def receiver(codec_cls: type, state: SessionState) -> Callable[[bytes], object]:
    codec = codec_cls()

    def decode(frame: bytes) -> object:
        codec.session.state = state  # a state message would move a client on to `ended`
        codec.receive_data(frame)
        return codec.next_message()

    return decode


def row(label: str, ours: Callable[[], object], plain: Callable[[], object]) -> None:
    us, them = pair(ours, plain)
    print(f"  {label:<32} {us:8.2f} µs   msgpack {them:7.2f} µs   ratio {us / them:5.2f}×")


def bench_action() -> None:
    play = Play(id=17, version=61, card="7H", cell=(4, 3), fives=[(4, 0, 4, 4)])
    client = ClientCodec()
    client.session.state = SessionState.GAME
    wire = play.to_wire()
    frame = client.send(play)
    decode = receiver(ServerCodec, SessionState.GAME)
    assert decode(frame) == play
    body = frame[4:]
    print(f"play ({len(frame)} bytes framed)")
    row("encode  send(msg)", lambda: client.send(play), lambda: msgpack.packb(wire))
    row(
        "encode  build msg + send",
        lambda: client.send(Play(id=17, version=61, card="7H", cell=(4, 3), fives=((4, 0, 4, 4),))),
        lambda: msgpack.packb(wire),
    )
    row("decode  receive + next_message", lambda: decode(frame), lambda: msgpack.unpackb(body))


def bench_state(legal: int) -> None:
    state = mid_game_state(legal)
    server = ServerCodec()
    server.session.state = SessionState.GAME
    wire = state.to_wire()
    frame = server.send(state)
    decode = receiver(ClientCodec, SessionState.GAME)
    assert decode(frame) == state
    body = frame[4:]
    kwargs = {name: getattr(state, name) for name in State.__dataclass_fields__}
    print(f"state, {len(state.legal)} legal actions ({len(frame)} bytes framed)")
    row("encode  send(msg)", lambda: server.send(state), lambda: msgpack.packb(wire))
    row(
        "encode  build msg + send",
        lambda: server.send(State(**kwargs)),
        lambda: msgpack.packb(wire),
    )
    row("decode  receive + next_message", lambda: decode(frame), lambda: msgpack.unpackb(body))


if __name__ == "__main__":
    bench_action()
    bench_state(60)
    bench_state(300)
