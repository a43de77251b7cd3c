"""One table as a state machine, driven without sockets or trio: requests and the time
go in, effects come out (rows for the journal, messages and to whom, timers), and
whole games are played through it from what it sends.

- the table module loads without trio;
- people play whole games from their `legal` lists and rematch, each seeing its own
  hand only, every version once, every action kept as a row before the game ends;
- a computer seat plays through `computer_turn`/`computer_move`, and the table asks
  for it with a "computer" timer: at once, or when a grace runs out;
- the outflow sends a frame only once the rows written before it are committed.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections import defaultdict

import trio

from sarja.protocol.messages import (
    Ack,
    Hand,
    Legal,
    Ping,
    ServerMessage,
    Snapshot,
    Update,
)
from sarja.protocol.moves import action_message
from sarja.server.bots import make_player
from sarja.server.effects import Effects
from sarja.server.engine import Arrangement
from sarja.server.engine.cards import CARD_CODES
from sarja.server.guest import Guest
from sarja.server.journal import Journal
from sarja.server.outflow import Outflow
from sarja.server.seating import Seating
from sarja.server.table import Table
from sarja.server.turns import Computer


def test_the_table_loads_without_trio():
    code = (
        "import sys, sarja.server.table, sarja.server.seating, sarja.server.effects;"
        " assert 'trio' not in sys.modules, 'trio'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


class Here:
    """Stands for a connection: a guest with one is here."""

    def close(self, code: str, message: str) -> None: ...


class Room:
    """A table and its people, with what it sent each of them."""

    def __init__(self, players: int, teams: int | None, seed: int, **kw: object) -> None:
        self.fx = Effects()
        self.seating: Seating[Table] = Seating()
        self.now = 100.0
        self.table = Table(
            "t1", "Ilta", Arrangement.of(players, teams), None, random.Random(seed),
            self.seating, self.fx, **kw,  # type: ignore[arg-type]
        )  # fmt: skip
        self.seating.tables["t1"] = self.table
        self.got: dict[str, list[ServerMessage]] = defaultdict(list)
        self.rows = 0
        self.timers: list[float | None] = []
        self._ids = iter(range(1, 1_000_000))

    def carry(self) -> None:
        fx = self.fx.take()
        self.rows += len(fx.rows)
        for guest, msg in fx.messages():
            if guest.connected:
                self.got[guest.name].append(msg)
        self.timers += [t.at for t in fx.timers if t.kind == "computer"]

    def guest(self, name: str) -> Guest:
        guest = Guest(name)
        guest.outbox = Here()  # type: ignore[assignment]
        return guest

    def last(self, guest: Guest, kind: type) -> ServerMessage | None:
        return next((m for m in reversed(self.got[guest.name]) if isinstance(m, kind)), None)

    def act(self, guest: Guest, notation: str) -> None:
        msg = action_message(notation, next(self._ids), self.table.version)
        self.table.act(guest, msg, self.now)
        self.carry()


def seat_everyone(room: Room, names: list[str]) -> list[Guest]:
    people = [room.guest(n) for n in names]
    for person in people:
        room.table.join(person, None, None, room.now)
    for person in people:
        room.table.set_ready(person, True, room.now)
    room.carry()
    return people


def play_out(room: Room, people: list[Guest], rng: random.Random) -> int:
    """Each move from the mover's own latest `legal` list; the number of moves. After
    each, every `hand` a seat was sent is that seat's own hand, as the game has it."""
    table, moves = room.table, 0
    game = table.game
    assert game is not None
    while game.outcome is None:
        movers = [p for p in people if p.seat in (game.turn, *game.pending_draw)]
        mover = rng.choice(movers)
        legal = room.last(mover, Legal)
        assert isinstance(legal, Legal) and legal.version == table.version
        told = {p.name: len(room.got[p.name]) for p in people}
        room.act(mover, rng.choice(legal.legal))
        ack = room.last(mover, Ack)
        assert isinstance(ack, Ack) and ack.version == table.version
        for person in people:
            assert person.seat is not None
            held = tuple(sorted(CARD_CODES[c] for c in game.hands[person.seat]))
            for msg in room.got[person.name][told[person.name] :]:
                assert not isinstance(msg, Hand) or tuple(sorted(msg.hand)) == held
        moves += 1
        assert moves < 2000
    return moves


def test_people_play_whole_games_through_the_table_and_rematch():
    rng = random.Random(7)
    for players, teams in ((2, None), (3, None), (4, 2), (6, 3)):
        room = Room(players, teams, seed=players)
        names = [f"P{i}" for i in range(players)]
        people = seat_everyone(room, names)
        table = room.table
        for game in (1, 2):
            assert table.in_play and table.games_played == game
            rows = room.rows
            moves = play_out(room, people, rng)
            assert room.rows >= rows + moves  # a row for every action, at least
            for person in people:
                got = room.got[person.name]
                snap = max(i for i, m in enumerate(got) if isinstance(m, Snapshot))
                updates = [m.version for m in got[snap:] if isinstance(m, Update)]
                start = got[snap].version  # type: ignore[attr-defined]
                assert updates == list(range(start + 1, table.version + 1))
                final = room.last(person, Update)
                assert isinstance(final, Update) and final.result is not None
                # Each snapshot was this seat's (its hand, no other's).
                assert all(m.seat == person.seat for m in got if isinstance(m, Snapshot))
            assert not table.in_play
            for person in people:
                table.ask_rematch(person, room.now)
            room.carry()
        assert room.timers == []  # only people here: the computer is never asked


def test_a_computer_seat_is_asked_for_by_a_timer_and_plays():
    room = Room(2, None, seed=3, computers=[None, Computer("easy", "Bertil")])
    [aino] = seat_everyone(room, ["Aino"])
    table, player = room.table, make_player("easy", seed=1)
    assert table.in_play
    while table.game is not None and table.game.outcome is None:
        if table.game.turn == aino.seat:
            legal = room.last(aino, Legal)
            assert isinstance(legal, Legal)
            room.act(aino, legal.legal[0])
            continue
        # The table asked for its computer at once, when its turn came.
        assert room.timers and room.timers[-1] == room.now
        turn = table.computer_turn(room.now)
        assert turn is not None and turn.seat == 1
        table.computer_thinking(turn.seat)
        assert table.computer_move(turn, player.choose(turn.view), room.now)
        room.carry()
    assert table.stand_ins == set()  # a computer seat's own moves are not marked


def test_an_away_persons_seat_is_played_by_the_stand_in_once_its_timer_runs_out():
    room = Room(2, None, seed=5, hand_over_after=60.0)
    room.table.takeover = "easy"
    aino, bertil = seat_everyone(room, ["Aino", "Bertil"])
    table = room.table
    assert table.game is not None
    mover = aino if table.game.turn == aino.seat else bertil
    mover.outbox = None  # the connection is gone
    table.went_away(mover, room.now)
    room.carry()
    assert room.timers[-1] == room.now + 60.0  # the stand-in's grace
    assert table.computer_turn(room.now + 59.0) is None
    turn = table.computer_turn(room.now + 60.0)
    assert turn is not None and turn.seat == mover.seat
    made = make_player("easy", seed=1).choose(turn.view)
    assert table.computer_move(turn, made, room.now + 60.0)
    room.carry()
    assert table.stand_ins == {table.acted_at}  # marked as played for the away person


async def test_the_outflow_sends_a_frame_once_what_it_tells_of_is_committed():
    journal = Journal(None)
    outflow = Outflow(journal)
    ping = Ping(n=1, _trusted=True)
    got: list[tuple[bytes, int]] = []

    class Sink:
        def encode(self, msg: object) -> bytes:
            return b"frame"

        def admit(self, msg: object, frame: bytes) -> bool:
            return True

        def deliver(self, data: bytes, frames: int) -> None:
            got.append((data, frames))

    sink = Sink()
    outflow.send(sink, ping)
    assert got == [(b"frame", 1)]  # nothing waits: at once
    outflow.write([("CREATE TABLE t (x)", ())])
    outflow.send(sink, ping, b"a")
    outflow.send(sink, ping, b"b")
    assert got == [(b"frame", 1)]  # they wait for the commit
    async with trio.open_nursery() as nursery:
        nursery.start_soon(outflow.run)
        await journal.durable(journal.epoch)
        await trio.sleep(0)
        nursery.cancel_scope.cancel()
    assert got == [(b"frame", 1), (b"ab", 2)]  # after it, in order, in one write
    journal.close()
