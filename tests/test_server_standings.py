"""Standings over real TCP on 127.0.0.1: an evening of six games among four people,
counted by hand from what the players saw and compared with the server's reply; a
person known by their key across names, an impostor typing their name, a restart,
and forgetting."""

from __future__ import annotations

import random
import secrets
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
import trio
from openskill.models import PlackettLuce

from sarja.protocol.changes import Exchanged, Removed, SequenceMade
from sarja.protocol.framing import encode_frame
from sarja.protocol.messages import (
    AskStandings,
    CreateTable,
    Forget,
    Join,
    Leave,
    Ready,
    Update,
)
from sarja.server.app import Server, serve
from sarja.server.config import ServerConfig

from .dial import dial
from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end

SERVER = str(Path(sys.executable).parent / "sarja-server")


@dataclass
class Expected:
    """A person's figures, counted by the test from the updates it received."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    sequences: int = 0
    removed: int = 0
    exchanged: int = 0


@dataclass
class Evening:
    people: dict[str, Expected] = field(default_factory=dict)
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    pair_wins: Counter[tuple[str, str]] = field(default_factory=Counter)
    # openskill's own figures, game after game, to compare with the server's ratings
    model: PlackettLuce = field(default_factory=PlackettLuce)
    ratings: dict[str, object] = field(default_factory=dict)


async def start(nursery: trio.Nursery, data_dir: Path) -> Server:
    config = ServerConfig(host="127.0.0.1", port=0, seed=7, data_dir=data_dir)
    server: Server = await nursery.start(serve, config)
    return server


async def play_game(
    seating: list[NetClient], teams: int, evening: Evening, rng: random.Random
) -> None:
    """The clients, in seat order, play one game at a new table to its end, and go
    back to the lobby; the evening's figures are counted from the updates seen."""
    first = seating[0]
    await first.send(CreateTable(name="Evening", players=len(seating), teams=teams))
    table = await first.expect("table")
    for seat, client in enumerate(seating[1:], start=1):
        await client.send(Join(table=table.id, seat=seat))
        await client.expect("table")
    start = len(first.received)
    for client in seating:
        await client.send(Ready(ready=True))
    for client in seating:
        await client.state_at(0)
    final = await play_to_the_end(seating, rng, check_every=10**6)
    assert final.result is not None
    names = [c.name for c in seating]
    for name in names:
        evening.people.setdefault(name, Expected()).games += 1
    count_changes(first.received[start:], names, evening)
    winner = final.result.side if final.result.result == "win" else None
    sides = [[n for i, n in enumerate(names) if i % teams == side] for side in range(teams)]
    count_outcome(sides, winner, evening)
    rate_by_hand(sides, winner, evening)
    for client in seating:
        await client.send(Leave())
        await client.expect("tables")


def count_changes(received: list[object], names: list[str], evening: Evening) -> None:
    for msg in received:
        if not isinstance(msg, Update):
            continue
        for change in msg.changes:
            match change:
                case SequenceMade(seat=seat, fives=fives):
                    evening.people[names[seat]].sequences += len(fives)
                case Removed(seat=seat):
                    evening.people[names[seat]].removed += 1
                case Exchanged(seat=seat):
                    evening.people[names[seat]].exchanged += 1


def count_outcome(sides: list[list[str]], winner: int | None, evening: Evening) -> None:
    for side, members in enumerate(sides):
        for name in members:
            e = evening.people[name]
            if winner is None:
                e.draws += 1
            elif side == winner:
                e.wins += 1
            else:
                e.losses += 1
        for a in members:
            for b in members:
                if a < b:
                    evening.pairs[a, b] += 1
                    evening.pair_wins[a, b] += side == winner


def rate_by_hand(sides: list[list[str]], winner: int | None, evening: Evening) -> None:
    """openskill itself, game after game: what the server's ratings must equal."""
    m = evening.model
    now = [[evening.ratings.get(n) or m.rating() for n in side] for side in sides]
    ranks = [0.0 if winner is None or i == winner else 1.0 for i in range(len(sides))]
    for side, rated in zip(sides, m.rate(now, ranks=ranks), strict=True):  # type: ignore[arg-type]
        for name, r in zip(side, rated, strict=True):
            evening.ratings[name] = r


async def counted(server: Server, games: int) -> None:
    """Wait until the standings have counted `games` games and the count is kept."""
    with trio.fail_after(PATIENCE):
        while server.games_counted < games:
            await trio.sleep(0.01)
    await server.journal.durable(server.journal.epoch)


async def ask(client: NetClient):  # type: ignore[no-untyped-def]
    await client.send(AskStandings())
    return await client.expect("standings")


def figures(standing) -> Expected:  # type: ignore[no-untyped-def]
    s = standing
    return Expected(s.games, s.wins, s.losses, s.draws, s.sequences, s.removed, s.exchanged)


async def test_an_evening_of_six_games_is_counted_as_by_hand(tmp_path):
    keys = {name: secrets.token_urlsafe(32) for name in ("Aino", "Bo", "Cai", "Dana")}
    evening = Evening()
    rng = random.Random(3)
    async with trio.open_nursery() as nursery:
        server = await start(nursery, tmp_path)
        c = {n: await NetClient.connect(server.port, n, person=k) for n, k in keys.items()}
        a, b, cc, d = c["Aino"], c["Bo"], c["Cai"], c["Dana"]
        # Three games of two players, three of two teams of two (seat i plays for
        # side i % 2: the first and third seats are partners).
        for seating, teams in (
            ([a, b], 2), ([cc, d], 2), ([a, cc], 2),
            ([a, cc, b, d], 2), ([a, b, cc, d], 2), ([a, cc, b, d], 2),
        ):  # fmt: skip
            await play_game(seating, teams, evening, rng)
        await counted(server, 6)
        reply = await ask(a)
        for lines in (reply.all_time, reply.evening):
            assert {s.name: figures(s) for s in lines} == evening.people
        assert figures(reply.you) == evening.people["Aino"]
        # All time by rating: openskill's own figures, game after game.
        ratings = {n: round((r.mu - 3 * r.sigma) * 10) for n, r in evening.ratings.items()}  # type: ignore[attr-defined]
        assert {s.name: s.rating for s in reply.all_time} == ratings
        assert [s.rating for s in reply.all_time] == sorted(ratings.values(), reverse=True)
        wins = [s.wins for s in reply.evening]
        assert wins == sorted(wins, reverse=True)
        assert all(s.move_ms >= 0 for s in reply.all_time)
        # A pair's names come in the order of their key hashes, not of the names.
        assert {frozenset((p.first, p.second)): (p.games, p.wins) for p in reply.pairs} == {
            frozenset(k): (g, evening.pair_wins[k]) for k, g in evening.pairs.items()
        }
        assert sum(p.games for p in reply.pairs) == 6  # two pairs in each of three games

        # Aino comes back as "Annikki": the same key, the same standing.
        renamed = await NetClient.connect(server.port, "Annikki", person=keys["Aino"])
        assert figures((await ask(renamed)).you) == evening.people["Aino"]
        # Someone else types "Aino": a key of their own, or none, gets no standing.
        for impostor_key in (secrets.token_urlsafe(32), None):
            impostor = await NetClient.connect(server.port, "Aino", person=impostor_key)
            assert (await ask(impostor)).you is None
        impostor = await NetClient.connect(server.port, "Aino", person=secrets.token_urlsafe(32))
        aino_games = evening.people["Aino"].games
        await play_game([renamed, impostor], 2, evening, rng)
        await counted(server, 7)
        lines = (await ask(renamed)).all_time
        mine = [s for s in lines if s.name == "Annikki"]
        theirs = [s for s in lines if s.name == "Aino"]
        assert len(mine) == 1 and mine[0].games == aino_games + 1
        assert len(theirs) == 1 and theirs[0].games == 1
        before = await ask(b)
        # The host's command prints the same lines, beside the running server.
        done = await trio.run_process(
            [SERVER, "standings", "--data-dir", str(tmp_path)], capture_stdout=True
        )
        printed = done.stdout.decode()
        assert all(len(line) <= 80 for line in printed.splitlines()), printed
        evening_part, all_time_part = printed.split("Ids, for")[0].split("All time")
        for part, lines in ((evening_part, before.evening), (all_time_part, before.all_time)):
            rows = [r.split() for r in part.splitlines() if r[:3].strip().isdigit()]
            assert [r[1] for r in rows] == [s.name for s in lines]
            assert [[int(x) for x in r[2:9]] for r in rows] == [
                [s.games, s.wins, s.losses, s.draws, s.sequences, s.removed, s.exchanged]
                for s in lines
            ]
            assert [r[10] for r in rows] == [f"{s.rating / 10:.1f}" for s in lines]
        nursery.cancel_scope.cancel()

    # With the server stopped, the host forgets the impostor by the id shown.
    ids = printed.split("Ids, for sarja-server forget:")[1].split("\n\n")[0]
    impostor_line = next(r for r in ids.splitlines() if " Aino " in r)
    done = await trio.run_process(
        [SERVER, "forget", impostor_line.split()[-1], "--data-dir", str(tmp_path)],
        capture_stdout=True,
    )
    assert "in 1 game." in done.stdout.decode()

    # After a restart, the same figures.
    async with trio.open_nursery() as nursery:
        server = await start(nursery, tmp_path)
        bo = await NetClient.connect(server.port, "Bo", person=keys["Bo"])
        after = await ask(bo)
        kept = [s for s in before.all_time if s.name != "Aino"]  # the impostor is gone
        assert (after.all_time, after.pairs, after.you) == (tuple(kept), before.pairs, before.you)
        assert after.evening == tuple(s for s in before.evening if s.name != "Aino")
        # Bo asks to be forgotten: his line and his pairs go, the others' stay.
        await bo.send(Forget())
        gone = await bo.expect("forgotten")
        assert gone.games == evening.people["Bo"].games
        await server.journal.durable(server.journal.epoch)
        left = await ask(bo)
        assert left.you is None and "Bo" not in {s.name for s in left.all_time}
        assert len(left.all_time) == len(after.all_time) - 1
        assert all("Bo" not in (p.first, p.second) for p in left.pairs)
        nursery.cancel_scope.cancel()


async def test_a_bad_person_key_is_refused_with_a_stable_code(tmp_path):
    async with trio.open_nursery() as nursery:
        server = await start(nursery, tmp_path)
        for bad, code in ((12345, "bad_type"), ("short", "bad_format"), ("x" * 300, "bad_format")):
            stream = await dial(server.port)
            client = NetClient(stream, "Eve")
            hello = {"t": "hello", "version": 3, "name": "Eve", "person": bad}
            await stream.send_all(encode_frame(msgpack.packb(hello), 8192))
            error = await client.expect("error")
            assert error.code == code, error
        # The server goes on: a good key is welcome, and one with no games has no line.
        fine = await NetClient.connect(server.port, "Eve", person=secrets.token_urlsafe(32))
        assert (await ask(fine)).you is None
        # Asking again and again is refused past six in a while (twenty at once: even a
        # very slow machine answers them within that while), and the connection goes on.
        for _ in range(20):
            await fine.send(AskStandings())
        answers: list = []
        while len(answers) < 20:
            msg = await fine.receive()
            if msg.TYPE in ("standings", "error"):  # not a heartbeat's ping
                answers.append(msg)
        refused = [m.code for m in answers if m.TYPE == "error"]
        assert refused and set(refused) == {"standings_too_fast"}
        # Forgetting with no key says why.
        plain = await NetClient.connect(server.port, "Fay")
        await plain.send(Forget())
        error = await plain.expect("error")
        assert error.code == "no_person"
        nursery.cancel_scope.cancel()


async def test_a_game_against_computers_counts_for_the_person_and_rates_the_level(nursery):
    """Aino and an easy computer against two medium ones: Aino's line, and one line
    per level, whatever the computers were called."""
    from .test_server_computers import fast, over, play_until

    server = await nursery.start(serve, fast())
    key = secrets.token_urlsafe(32)
    aino = await NetClient.connect(server.port, "Aino", person=key)
    levels = (None, "medium", "easy", "medium")
    await aino.send(CreateTable(name="Practice", players=4, teams=2, computers=levels))
    await aino.expect("table")
    await aino.send(Ready(ready=True))
    await aino.expect("snapshot")
    await play_until(aino, random.Random(4), over, timeout=PATIENCE)
    won = aino.state.result.side == 0
    await aino.send(Leave())
    await aino.expect("tables")
    await counted(server, 1)
    reply = await ask(aino)
    lines = {s.name: s for s in reply.all_time}
    assert set(lines) == {"Aino", "Computer (easy)", "Computer (medium)"}
    assert (lines["Aino"].games, lines["Aino"].wins) == (1, int(won))
    assert (lines["Computer (easy)"].computer, lines["Computer (easy)"].wins) == ("easy", int(won))
    # The second medium seat counts for no one (one line per level and game).
    assert (lines["Computer (medium)"].games, lines["Computer (medium)"].losses) == (1, int(won))
    assert reply.you == lines["Aino"] and reply.pairs == ()  # computers make no pairs
