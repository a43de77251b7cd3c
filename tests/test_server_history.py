"""The game's public history, asked for a page at a time after a snapshot: over real TCP
on 127.0.0.1, a spectator who arrives mid-game, a player who comes back, and players
back after the server stopped and started again (the history rebuilt from the journal's
replay); in every case exactly the updates that were broadcast, never a card from a
hand; and none of it unasked."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from sarja.protocol.messages import AskHistory, Spectate
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.engine import Arrangement, Game
from sarja.server.engine.arrangement import HouseRules
from sarja.server.history import GameHistory
from sarja.server.journal import SavedAction, SavedGame, replay_game

from .netclient import NetClient
from .server_helpers import seat_table
from .test_server_journal import play


def config(data_dir: Path | None = None) -> ServerConfig:
    return ServerConfig(host="127.0.0.1", port=0, seed=8, data_dir=data_dir)


def told(client: NetClient) -> list[tuple[int, tuple]]:
    """(version, changes) of every update this client received."""
    return [(m.version, m.changes) for m in client.received if m.TYPE == "update"]


async def history_after_snapshot(client: NetClient) -> tuple[object, list]:
    """The snapshot, then the history, asked for page after page."""
    snap = await client.expect("snapshot")
    pages: list = []
    after = 0
    while not pages or pages[-1].more:
        await client.send(AskHistory(after=after))
        pages.append(await client.expect("history"))
        after = pages[-1].entries[-1].version
    # None came unasked: one page for each time the client asked.
    assert [m for m in client.received if m.TYPE == "history"][-len(pages) :] == pages
    assert sum(m.TYPE == "history" for m in client.received) == len(pages)
    assert all(p.version == snap.version for p in pages)
    return snap, [e for p in pages for e in p.entries]


def cards_named(entries: list) -> Counter[str]:
    return Counter(
        c.card for e in entries for c in e.changes if getattr(c, "card", None) is not None
    )


async def test_a_spectator_who_arrives_mid_game_gets_every_update_so_far():
    rng = random.Random(3)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config())
        players = await seat_table(server, 2)
        await play(players, 9, rng)
        [table] = server.lobby.tables.values()
        table.stand_ins.add(4)  # as if the computer had made version 4's move for a person
        watcher = await NetClient.connect(server.port, "Watcher")
        await watcher.send(Spectate(table=table.id))
        await watcher.expect("table")
        snap, entries = await history_after_snapshot(watcher)
        assert [(e.version, e.changes) for e in entries] == told(players[0]) == told(players[1])
        assert [e.version for e in entries if e.stand_in] == [4]
        assert snap.version == 9
        # Nothing from a hand: the cards named are the discard pile's, exactly (no
        # reshuffle yet in nine moves), and no draw names its card.
        assert cards_named(entries) == Counter(snap.discard)
        assert all(
            getattr(c, "card", None) is None for e in entries for c in e.changes if c.kind == "drew"
        )
        nursery.cancel_scope.cancel()


async def test_a_returning_player_gets_the_history_and_a_quick_drop_leaves_no_trace():
    rng = random.Random(4)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config())
        players = await seat_table(server, 2)
        await play(players, 4, rng)
        # The one on turn stays (and moves while the other is gone).
        stayer, goer = sorted(players, key=lambda p: p.state.seat != p.state.turn)
        # A drop and a return with no move between: both changes left out.
        token = goer.welcome.resume
        await goer.aclose()
        await stayer.expect("update")  # away
        goer = await NetClient.connect(server.port, goer.name, resume=token)
        _, entries = await history_after_snapshot(goer)
        await stayer.expect("update")  # back
        assert [e.version for e in entries] == [1, 2, 3, 4]
        # Gone while the other moves: the away, the move and the back are all kept.
        token = goer.welcome.resume
        await goer.aclose()
        await stayer.expect("update")
        await play([stayer], 1, rng)
        goer = await NetClient.connect(server.port, goer.name, resume=token)
        snap, entries = await history_after_snapshot(goer)
        kinds = [[c.kind for c in e.changes] for e in entries[4:]]
        assert kinds == [["away"], ["played", "drew"], ["back"]]
        assert entries[4].changes[0].seat == snap.seat
        await stayer.expect("update")  # back
        assert [(e.version, e.changes) for e in entries] == [
            u
            for u in told(stayer)
            if u[0] not in (5, 6)  # the first drop and return
        ]
        nursery.cancel_scope.cancel()


async def test_the_history_is_whole_after_the_server_stops_and_starts_again(tmp_path):
    rng = random.Random(5)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        clients = await seat_table(server, 2)
        await play(clients, 7, rng)
        before = told(clients[0])
        tokens = [(c.name, c.welcome.resume) for c in clients]
        nursery.cancel_scope.cancel()
    for c in clients:
        await c.aclose()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config(tmp_path))
        first = await NetClient.connect(server.port, tokens[0][0], resume=tokens[0][1])
        snap, entries = await history_after_snapshot(first)
        assert [(e.version, e.changes) for e in entries[:-2]] == before
        restart, back = entries[-2:]  # every person went away when the server stopped
        assert [(c.kind, getattr(c, "seat", None)) for c in back.changes] == [("back", snap.seat)]
        assert restart.version == back.version - 1 == snap.version - 1
        assert sorted(c.seat for c in restart.changes) == [0, 1]
        assert {c.kind for c in restart.changes} == {"away"}
        assert cards_named(entries) == Counter(snap.discard)
        second = await NetClient.connect(server.port, tokens[1][0], resume=tokens[1][1])
        snap2, entries2 = await history_after_snapshot(second)
        assert entries2[: len(entries)] == entries
        assert [
            (c.kind, getattr(c, "seat", None)) for e in entries2[len(entries) :] for c in e.changes
        ] == [("back", snap2.seat)]
        nursery.cancel_scope.cancel()


async def test_a_long_history_comes_in_pages(monkeypatch):
    monkeypatch.setattr("sarja.server.history.MAX_HISTORY_PAGE", 4)
    rng = random.Random(6)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config())
        players = await seat_table(server, 2)
        await play(players, 10, rng)
        watcher = await NetClient.connect(server.port, "Watcher")
        [table] = server.lobby.tables.values()
        await watcher.send(Spectate(table=table.id))
        _, entries = await history_after_snapshot(watcher)
        pages = [m for m in watcher.received if m.TYPE == "history"]
        assert [len(p.entries) for p in pages] == [4, 4, 2]
        assert [p.more for p in pages] == [True, True, False]
        assert [(e.version, e.changes) for e in entries] == told(players[0])
        nursery.cancel_scope.cancel()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4, 6]),
       manual=st.booleans(), moves=st.integers(1, 150))  # fmt: skip
def test_the_replayed_history_is_the_one_told_as_it_happened(seed, players, manual, moves):
    """A game played at random, its changes recorded as the table tells them, and the
    same game replayed from what the journal keeps: the same history."""
    rng = random.Random(seed)
    teams = 2 if players in (4, 6) else None
    arrangement = Arrangement.of(players, teams, HouseRules(manual_draw=manual))
    game = Game.new(arrangement, rng)
    live = GameHistory()
    kept = SavedGame(number=1, cut=[[list(p) for p in r] for r in game.cut], deck=list(game.deck))
    for version in range(1, moves + 1):
        if game.outcome is not None:
            break
        seat = rng.choice([s for s in (game.turn, *game.pending_draw) if game.legal_actions(s)])
        action = rng.choice(game.legal_actions(seat))
        reshuffled = len(game.reshuffles)
        live.record(version, tuple(game.apply(seat, action)))
        orders = [list(o) for o in game.reshuffles[reshuffled:]]
        kept.actions.append(SavedAction(seat, str(action), None, version, orders))
    replayed = GameHistory()
    replay_game(arrangement, kept, random.Random(0),
                lambda a, events: replayed.record(a.version, tuple(events)))  # fmt: skip
    assert replayed.entries == live.entries
    for _, made in live.entries:
        assert all(getattr(c, "card", None) is None for c in made if c.kind == "drew")
