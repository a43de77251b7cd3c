"""A server that lies, for the clients' tests: a trio listener on 127.0.0.1 port 0 that
speaks the protocol with the real codec, puts the client at a real game's position
(welcome, table, snapshot, all as a real server would send them) and then sends what
the test scripts: updates that do not fit the table, or an endless stream that does,
or raw bytes no frame may hold. It can also answer a hello with no welcome, or hang up
a while after the script.

Everything it sends is well formed, field by field: only the game's picture can tell
a lie from the truth. It speaks TLS as a server does, with a key of its own (`key`):
another server's key it cannot show, which is what makes it a fake.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import trio

from sarja.protocol.cards import CARD_CODES, LAYOUT_CODES
from sarja.protocol.changes import (
    Change,
    DrawnGame,
    Drew,
    Exchanged,
    Passed,
    Played,
    Reshuffled,
    SequenceMade,
)
from sarja.protocol.codec import ServerCodec
from sarja.protocol.errors import ProtocolError
from sarja.protocol.examples import SHAPES
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import (
    Ping,
    Pong,
    Result,
    Rules,
    Seat,
    ServerMessage,
    Snapshot,
    TableView,
    Update,
    Welcome,
)
from sarja.server.engine import Arrangement, Game
from sarja.server.present import snapshot
from sarja.server.tls import ServerKey, server_key

TOKEN = "f" * 43
NAMES = ("Aino", "Bertil")
# Every non-jack card: a dead card exchanged in turn, each at most twice in a pile.
ROTATION = tuple(c for c in CARD_CODES if c[0] != "J")


def position(seed: int = 1) -> tuple[Welcome, TableView, Snapshot]:
    """A real two-player game just dealt, seen from the seat on turn: its turn."""
    game = Game.new(Arrangement.of(2), random.Random(seed))
    seat = game.turn
    snap = snapshot("t1", 0, game, seat, NAMES, [False, False], None)
    welcome = Welcome(
        version=PROTOCOL_VERSION, session="s1", resume=TOKEN, server_id="liar", layout=LAYOUT_CODES,
        server="Liar", shapes=SHAPES,
    )  # fmt: skip
    table = TableView(
        id="t1", name="Friday", players=2, teams=2,
        seats=tuple(Seat(name=n, ready=True, away=False) for n in NAMES), spectators=0,
        started=True, rules=Rules(hand_size=7, manual_draw=False), computer_takeover=False,
        seat=seat,
    )  # fmt: skip
    return welcome, table, snap


def bad_updates(snap: Snapshot) -> dict[str, Update]:
    """Updates whose every field is valid on its own and which do not fit `snap`'s
    two-seat, two-sided table (the version follows on)."""
    other = 1 - (snap.seat or 0)
    open_cell = snap.board.index(".")

    def one(*changes: Change, **counters: Any) -> Update:
        fields: dict[str, Any] = {"turn": other, "draw_size": snap.draw_size, **counters}
        return Update(version=snap.version + 1, changes=changes, **fields)

    return {
        "seat 11": one(Played(seat=11, card="7H", cell=open_cell)),
        "side 2": one(SequenceMade(seat=other, side=2, fives=((40, 44),))),
        "five off the board": one(SequenceMade(seat=other, side=1, fives=((40, 44),))),
        "turn of seat 5": one(Passed(seat=other), turn=5),
        "result with one hand": one(
            DrawnGame(),
            result=Result(result="draw", side=None, hands=((), (), ())),
        ),
        "chip on a corner": one(Played(seat=other, card="7H", cell=0)),
        "cards beyond the deck": one(Exchanged(seat=other, card="7H"), Drew(seat=other)),
    }


def endless(snap: Snapshot, count: int) -> Iterator[Update]:
    """`count` updates that fit: the other seat exchanges a dead card and draws, again
    and again, the discard pile shuffled into a new draw pile whenever it runs out."""
    other = 1 - (snap.seat or 0)
    draw, discard = snap.draw_size, len(snap.discard)
    for i in range(count):
        changes = [Exchanged(seat=other, card=ROTATION[i % len(ROTATION)])]
        discard += 1
        if not draw:
            changes.append(Reshuffled())
            draw, discard = discard, 0
        changes.append(Drew(seat=other))
        draw -= 1
        yield Update(
            version=snap.version + 1 + i, changes=tuple(changes), turn=other, draw_size=draw
        )


Script = Callable[[int], Iterator[ServerMessage | bytes]]


@dataclass
class Liar:
    """The listener; `script(n)` is what the n-th connection (from 0) gets after the
    welcome, the table and the snapshot (only if `greets(n)`), messages or raw bytes. A
    `Ping` in it waits for its `pong`. After the script, the connection stays open until
    the client closes it, or for `hold(n)` seconds where that is not None."""

    script: Script
    position: tuple[Welcome, TableView, Snapshot] = field(default_factory=position)
    greets: Callable[[int], bool] = lambda n: True
    hold: Callable[[int], float | None] = lambda n: None
    connections: int = 0
    received: list[Any] = field(default_factory=list)
    port: int = 0
    done: trio.Event = field(default_factory=trio.Event)  # the last script's end
    key: ServerKey = field(default_factory=lambda: server_key(None))

    async def start(self, nursery: trio.Nursery) -> int:
        listeners = await nursery.start(partial(trio.serve_tcp, self._serve, 0, host="127.0.0.1"))
        self.port = listeners[0].socket.getsockname()[1]
        return self.port

    async def _serve(self, tcp: trio.SocketStream) -> None:
        stream = trio.SSLStream(tcp, self.key.context, server_side=True)
        try:
            await stream.do_handshake()
        except trio.BrokenResourceError:
            await trio.aclose_forcefully(tcp)
            return
        n = self.connections
        self.connections += 1
        codec = ServerCodec()  # its session stays "connected": it reads pongs, skips the rest
        pongs: trio.MemorySendChannel[int]
        pongs, waiting = trio.open_memory_channel[int](16)
        async with stream, trio.open_nursery() as nursery:
            nursery.start_soon(self._read, stream, codec, pongs)
            try:
                first = self.position if self.greets(n) else ()
                for msg in (*first, *self.script(n)):
                    await stream.send_all(msg if isinstance(msg, bytes) else codec.encode(msg))
                    if isinstance(msg, Ping):
                        with trio.fail_after(60):
                            while await waiting.receive() != msg.n:
                                pass
                self.done.set()
                with trio.move_on_after(_forever(self.hold(n))):
                    while True:  # until the client hangs up: what it should do after a lie
                        await waiting.receive()
            except (trio.BrokenResourceError, trio.ClosedResourceError, trio.EndOfChannel):
                pass
            self.done.set()
            nursery.cancel_scope.cancel()

    async def _read(
        self, stream: trio.abc.Stream, codec: ServerCodec, pongs: trio.MemorySendChannel[int]
    ) -> None:
        while data := await _receive(stream):
            codec.receive_data(data)
            while True:
                try:
                    msg = codec.next_message()
                except ProtocolError:
                    continue  # a message the fake's session would not take: it is only a fake
                if msg is None:
                    break
                self.received.append(msg)
                if isinstance(msg, Pong):
                    await pongs.send(msg.n)
        pongs.close()  # no more pongs: a script waiting for one ends


def _forever(seconds: float | None) -> float:
    return math.inf if seconds is None else seconds


async def _receive(stream: trio.abc.Stream) -> bytes:
    try:
        return bytes(await stream.receive_some(65536))
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        return b""
