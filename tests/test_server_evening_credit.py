"""A scripted evening over TCP in which the computer makes some of a person's moves,
and every place that keeps or tells the moves says who made each one: the standings
(docs/rules.md, "Leaving and coming back": a person is credited with their own moves
only, and a game counts for them only if they made half their seat's moves), the game
records (`computer_moves`, docs/records.md), the replay's log and the coach.

Aino plays every move of her own. In the first game Berra lets two turn clocks run
out (the computer plays those turns), plays, drops his connection after a move (the
table's stand-in plays for him once the grace is over), comes back with his token and
plays to the end. In the second he plays three moves and drops for good; Aino hands
his seat to the computer (`o`), which plays the rest. Run on trio's mock clock; the
expected figures are counted from the updates Aino received, by hand.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from sarja.client.record import load
from sarja.client.replay import go
from sarja.protocol.changes import Exchanged, NoDraw, Passed, Played, Removed, SequenceMade
from sarja.protocol.messages import AskStandings, CreateTable, HandOver, Join, Leave, Ready, Update
from sarja.server.app import serve
from sarja.server.coach import analyse
from sarja.server.config import ServerConfig
from sarja.server.rating import NEW, Skill, rate, shown

from .netclient import NetClient

CLOCK = 30
GRACE = 5.0  # the stand-in grace, and the away time after which a seat may be handed over
ACTS = (Played, Removed, Exchanged, Passed)  # an update with one of these is an action


async def until(check: Callable[[], Any], limit: float = 36000.0) -> None:
    """Wait (on the mock clock) until `check()` holds."""
    with trio.fail_after(limit):
        while not check():
            await trio.sleep(0.05)


@dataclass
class Seat:
    """A seat's moves in one game, counted from the updates."""

    own: int = 0
    moves: int = 0
    sequences: int = 0
    removed: int = 0
    exchanged: int = 0


@dataclass
class Game:
    actions: list[Update] = field(default_factory=list)  # the updates of actions, in order
    seats: list[Seat] = field(default_factory=lambda: [Seat(), Seat()])
    winner: int | None = None

    def counts(self, seat: int) -> bool:
        s = self.seats[seat]
        return 2 * s.own >= s.moves

    def by_computer(self) -> list[int]:
        return [i for i, u in enumerate(self.actions) if u.stand_in]


def tally(received: list[Any]) -> Game:
    """One game as Aino saw it: who made each action, and what it made."""
    game = Game()
    for msg in received:
        if not isinstance(msg, Update):
            continue
        acts = [c for c in msg.changes if isinstance(c, ACTS)]
        if acts:
            game.actions.append(msg)
            seat = game.seats[acts[0].seat]
            seat.moves += 1
            if not msg.stand_in:
                seat.own += 1
                for c in msg.changes:
                    seat.sequences += len(c.fives) if isinstance(c, SequenceMade) else 0
                    seat.removed += isinstance(c, Removed)
                    seat.exchanged += isinstance(c, Exchanged)
        if msg.result is not None:
            game.winner = msg.result.side if msg.result.result == "win" else None
    return game


class Player:
    """A person's connection, playing random legal moves as `plan(turn)` says for the
    seat's n-th turn: "play", "wait" (the clock runs out) or "drop" (after playing)."""

    def __init__(self, client: NetClient, seat: int, seed: int) -> None:
        self.client = client
        self.seat = seat
        self.rng = random.Random(seed)
        self.turns = 0

    async def play(
        self, plan: Callable[[int], str], before: Callable[[], Any] | None = None
    ) -> None:
        """Until the game is over, or this player drops."""
        seen = -1
        while True:
            state = self.client.state
            if state is not None and state.result is not None:
                return
            mine = state is not None and state.turn == self.seat and bool(state.legal)
            if mine and state is not None and state.version != seen:
                seen = state.version
                step = plan(self.turns)
                self.turns += 1
                if step != "wait":
                    if before is not None:
                        await before()
                    await self.client.send(self.client.action_message(self.rng.choice(state.legal)))
                    if step == "drop":
                        await self.client.expect("ack")
                        await self.client.aclose()
                        return
            await self.client.receive()


async def leave(client: NetClient) -> None:
    await client.send(Leave())
    await client.expect("tables")


async def new_game(aino: NetClient, berra: NetClient, takeover: str | None) -> int:
    """A two-player table with a turn clock, Aino's; both ready. The index in Aino's
    received messages where the game begins."""
    await aino.send(
        CreateTable(name="Evening", players=2, teams=2, turn_clock=CLOCK,
                    computer_takeover=takeover or False)
    )  # fmt: skip
    table = await aino.expect("table")
    await berra.send(Join(table=table.id, seat=1))
    await berra.expect("table")
    start = len(aino.received)
    for person in (aino, berra):
        await person.send(Ready(ready=True))
    for person in (aino, berra):
        await person.expect("snapshot")
    return start


async def test_an_evening_s_standings_and_records_give_each_move_to_whoever_made_it(
    nursery, autojump_clock, tmp_path
):
    config = ServerConfig(
        host="127.0.0.1", port=0, seed=7, records_dir=tmp_path, hand_over_after=GRACE,
        takeover_delay=0.5,
    )  # fmt: skip
    server = await nursery.start(serve, config)
    keys = {"Aino": secrets.token_urlsafe(32), "Berra": secrets.token_urlsafe(32)}
    aino = await NetClient.connect(server.port, "Aino", person=keys["Aino"])
    berra = await NetClient.connect(server.port, "Berra", person=keys["Berra"])

    # Game 1: two clocks run out, Berra plays, drops after his 8th turn, the stand-in
    # plays three of his turns, and he comes back and plays on.
    start = await new_game(aino, berra, takeover="easy")
    token = berra.welcome.resume
    a, b = Player(aino, 0, 1), Player(berra, 1, 2)

    def first(turn: int) -> str:
        return "wait" if turn < 2 else "drop" if turn == 7 else "play"

    def stood_in() -> int:
        return sum(1 for m in aino.received[start:] if isinstance(m, Update) and m.stand_in)

    async def berra_comes_back() -> None:
        await until(lambda: b.client is not berra or False)  # his first connection dropped
        await until(lambda: stood_in() >= 2 + 3)  # the clocks' two, and three of the stand-in's
        again = await NetClient.connect(server.port, "Berra", resume=token, person=keys["Berra"])
        b.client = again
        await Player(again, 1, 3).play(lambda turn: "play")

    async with trio.open_nursery() as evening:
        evening.start_soon(a.play, lambda turn: "play")
        evening.start_soon(b.play, first)
        await until(lambda: b.turns >= 8)
        b.client = None  # type: ignore[assignment]  # dropped: see berra_comes_back
        evening.start_soon(berra_comes_back)
    one = tally(aino.received[start:])
    berra = b.client
    for person in (aino, berra):
        await leave(person)

    # Game 2: no stand-in at this table; Berra plays three moves and is gone for good,
    # and Aino hands his seat to the computer once she may.
    start = await new_game(aino, berra, takeover=None)
    a, b = Player(aino, 0, 4), Player(berra, 1, 5)
    handed: list[bool] = []

    async def hand_over() -> None:
        state = aino.state
        if handed or state is None or not state.players[1].away:
            return
        await trio.sleep(GRACE + 1)  # her own clock has 30 s
        await aino.send(HandOver(seat=1))
        await aino.expect("table")
        handed.append(True)

    async with trio.open_nursery() as evening:
        evening.start_soon(a.play, lambda turn: "play", hand_over)
        evening.start_soon(b.play, lambda turn: "drop" if turn == 2 else "play")
    assert handed
    two = tally(aino.received[start:])
    await leave(aino)

    # What happened, as the test saw it: every kind of the computer's move for Berra.
    assert one.by_computer()[:2] and two.by_computer()
    assert one.counts(1) and not two.counts(1), (one.seats[1], two.seats[1])
    assert one.counts(0) and two.counts(0)
    # Aino goes home while the records are written (a connection that reads nothing
    # meanwhile would be dropped for its missed pings), and asks from a new one.
    await aino.aclose()
    with trio.fail_after(600):
        while server.games_counted < 2:
            await trio.sleep(0.05)
    aino = await NetClient.connect(server.port, "Aino", person=keys["Aino"])

    # The standings: Aino's and Berra's own moves only; game 2 is not Berra's.
    await aino.send(AskStandings())
    reply = await aino.expect("standings")
    lines = {s.name: s for s in reply.all_time}
    expected, ratings = by_hand((one, two), ("Aino", "Berra"))
    for name, e in expected.items():
        line = reply.you if name == "Aino" else lines[name]
        got = {k: getattr(line, k) for k in e}
        assert got == e, (name, got, e)
        assert line.rating == round(shown(ratings.get(name, NEW)) * 10), name

    # The records: the computer's moves marked, each Berra's seat's; the replay tells
    # them as the computer's, and the coach marks none of them as Berra's.
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 2
    for path, game in zip(records, (one, two), strict=True):
        check_record(path, game)


def by_hand(
    games: tuple[Game, ...], names: tuple[str, str]
) -> tuple[dict[str, dict[str, int]], dict[str, Skill]]:
    """Each person's standing and rating after `games`, as docs/rules.md says."""
    expected: dict[str, dict[str, int]] = {}
    ratings: dict[str, Skill] = {}
    for game in games:
        keys_in = [n if game.counts(seat) else None for seat, n in enumerate(names)]
        rated = rate([[ratings.get(k, NEW) if k else NEW] for k in keys_in], game.winner)
        for seat, name in enumerate(names):
            e = expected.setdefault(name, dict.fromkeys(
                ("games", "wins", "losses", "sequences", "removed", "exchanged"), 0))  # fmt: skip
            s = game.seats[seat]
            e["sequences"] += s.sequences
            e["removed"] += s.removed
            e["exchanged"] += s.exchanged
            if keys_in[seat] is not None:
                e["games"] += 1
                e["wins"] += game.winner == seat
                e["losses"] += game.winner is not None and game.winner != seat
                ratings[name] = rated[seat][0]
    return expected, ratings


def check_record(path: Path, game: Game) -> None:
    """The record marks the computer's moves; the replay and the coach follow it."""
    record = json.loads(path.read_text("utf-8"))
    made = record.get("computer_moves", [])
    assert made == game.by_computer()
    assert all(record["actions"][i][0] == 1 for i in made)
    assert not {m.at for m in analyse(record)} & set(made)
    model = load(path)
    replay = model.replay
    assert replay is not None
    go(model, len(replay.steps) - 1)
    told = [line.text for line in model.log]
    theirs = [t for t in told if t.startswith("The computer, for Berra,")]
    said = sum(
        1
        for i in made
        for c in game.actions[i].changes
        if isinstance(c, (*ACTS, NoDraw, SequenceMade))
    )
    assert len(theirs) == said, told
    own = [t for t in told if t.startswith("Berra ") and ("played" in t or "removed" in t)]
    assert len(own) <= game.seats[1].own
