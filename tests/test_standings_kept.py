"""The standings over TCP: a request reads nothing of the journal, however many games
it holds (the figures are built once as the server starts); `forget` has a share per
address, which new connections do not refill. (The kept figures on their own:
test_standings_book.py.)"""

from __future__ import annotations

from pathlib import Path

from sarja.protocol.messages import AskStandings, Forget
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.journal import FILE_NAME, Journal, token_hash

from .netclient import NetClient

_PERSON = "INSERT OR REPLACE INTO people (person, name, computer, mu, sigma) VALUES (?, ?, ?, ?, ?)"
_GAME = (
    "INSERT INTO person_games (person, table_id, game, finished_at, name, side, outcome,"
    " sequences, removed, exchanged, moves, move_time) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, 0, 10,"
    " 20.0)"
)


def fill(path: Path, games: int, keys: list[str], at: float) -> None:
    """`games` two-player games between the people with `keys`, in turns, the first
    of each pair winning, written as the journal keeps them."""
    journal = Journal(path)
    people = [token_hash(k) for k in keys]
    journal.write([(_PERSON, (p, f"P{i}", None, 25.0, 8.0)) for i, p in enumerate(people)])
    for n in range(games):
        a, b = people[n % len(people)], people[(n + 1) % len(people)]
        journal.write(
            [
                (_GAME, (a, f"t{n}", 1, at, "A", 0, "win")),
                (_GAME, (b, f"t{n}", 1, at, "B", 1, "loss")),
            ]
        )
    journal.close()


async def test_standings_are_answered_without_reading_the_journal(nursery, tmp_path):
    keys = [f"{'k' * 30}{i:02d}" for i in range(4)]
    fill(tmp_path / FILE_NAME, 400, keys, at=1.0)  # long ago: none of the evening
    server = await nursery.start(
        serve, ServerConfig(host="127.0.0.1", port=0, seed=1, data_dir=tmp_path)
    )
    read: list[str] = []
    server.journal.read(lambda db: db.set_trace_callback(read.append))
    try:
        client = await NetClient.connect(server.port, "Aino", person=keys[0])
        for _ in range(3):
            await client.send(AskStandings())
            got = await client.expect("standings")
    finally:
        server.journal.read(lambda db: db.set_trace_callback(None))
    # Answered from what was kept: not one statement read the games or the people.
    assert [sql for sql in read if "person_games" in sql or "people" in sql] == []
    assert got.you is not None and got.you.games == 200 and got.you.wins == 100
    assert sorted(s.games for s in got.all_time) == [200] * 4
    assert got.evening == ()


async def test_forget_is_refused_past_its_share_over_new_connections_too(nursery):
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=1))
    codes = []
    for i in range(8):  # each a new connection, as a flood that reconnects would be
        client = await NetClient.connect(server.port, f"F{i}", person=f"{'f' * 30}{i:02d}")
        await client.send(Forget())
        while (reply := await client.receive()).TYPE not in ("forgotten", "error"):
            pass
        codes.append(reply.code if reply.TYPE == "error" else reply.TYPE)
        await client.aclose()
    assert codes == ["forgotten"] * 6 + ["forget_too_fast"] * 2
