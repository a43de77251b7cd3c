"""Whole games over real TCP on 127.0.0.1: every arrangement to a win, with
every frame checked for hidden information, and the record replaying."""

from __future__ import annotations

import json
import random

import pytest
import trio

from sarja.protocol.cards import LAYOUT_CODES, cell_name
from sarja.protocol.messages import (
    CreateTable,
    Hand,
    Join,
    Legal,
    Ready,
    Snapshot,
    Spectate,
    Update,
)
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.engine import Action, replay
from sarja.server.engine.cards import FULL_DECK, card_code, parse_card
from sarja.server.engine.record import initial_game

from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end, seat_table


@pytest.fixture
async def server(nursery, tmp_path):
    config = ServerConfig(host="127.0.0.1", port=0, seed=11, data_dir=tmp_path)
    return await nursery.start(serve, config)


def check_hidden_information(client: NetClient, record: dict) -> int:
    """Every message this seat received shows its own true hand and nothing of any
    other hand or the draw pile's order. Returns the private messages checked.
    (No one goes away in these games, so a version is the engine's version.)"""
    game = initial_game(record)
    seat = client.state.seat if client.state else None
    true_hands = {0: [sorted(card_code(c) for c in h) for h in game.hands]}
    public = {0: (len(game.draw_pile), [card_code(c) for c in game.discard])}
    for version, (who, text) in enumerate(record["actions"], start=1):
        game.apply(who, Action.parse(text))
        true_hands[version] = [sorted(card_code(c) for c in h) for h in game.hands]
        public[version] = (len(game.draw_pile), [card_code(c) for c in game.discard])
    own_at = {v: (hands[seat] if seat is not None else []) for v, hands in true_hands.items()}
    checked = 0
    for msg in client.received:
        if isinstance(msg, Snapshot | Hand):
            assert sorted(msg.hand) == own_at[msg.version], (seat, msg.version)
            checked += 1
        if isinstance(msg, Snapshot):
            assert (msg.draw_size, list(msg.discard)) == public[msg.version]
        if isinstance(msg, Hand) and msg.drawn is not None:
            assert msg.drawn in own_at[msg.version]
        if isinstance(msg, Snapshot | Legal):
            # Legal actions name only this seat's own cards.
            for action in msg.legal:
                if action not in ("draw", "pass"):
                    assert action.removeprefix("dead:")[:2] in own_at[msg.version]
        if isinstance(msg, Update):
            assert msg.draw_size == public[msg.version][0]
            for change in msg.changes:
                # Only public cards: those played, removed with, or exchanged.
                assert getattr(change, "card", None) is None or change.kind in (
                    "played",
                    "removed",
                    "exchanged",
                )
            if msg.result is not None:
                assert [sorted(h) for h in msg.result.hands] == true_hands[msg.version]
        raw = b"".join(client.frames)
        assert b"deck" not in raw and b"draw_pile" not in raw
    return checked


@pytest.mark.parametrize(
    "players, teams",
    [(2, None), (3, None), (4, 2), (6, 2), (6, 3), (8, 2), (9, 3), (10, 2), (12, 2), (12, 3)],
    ids=["2p", "3p", "2x2", "2x3", "3x2", "2x4", "3x3", "2x5", "2x6", "3x4"],
)
async def test_a_whole_game_to_the_end(server, tmp_path, players, teams):
    """Every arrangement: each member's game, built from a snapshot and the updates
    after it, equals a fresh snapshot at every version; no one sees a hidden card."""
    clients = await seat_table(server, players, teams)
    assert [c.state.seat for c in clients] == list(range(players))
    check_every = 1 if players <= 4 else 5
    final = await play_to_the_end(clients, random.Random(players), check_every=check_every)
    assert final.result is not None
    assert {c.state.result for c in clients} == {final.result}
    assert all(c.gaps == 0 for c in clients)
    # The record is written, replays to the same end, and shows no other seat
    # more than it was entitled to during the game.
    with trio.fail_after(PATIENCE):
        while not server.records_written:
            await trio.sleep(0.01)
    record = json.loads(server.records_written[0].read_text())
    assert record["outcome"]["result"] == final.result.result
    assert replay(record).outcome.side == final.result.side
    assert record["names"] == [f"P{i}" for i in range(players)]
    for client in clients:
        assert check_hidden_information(client, record) > 10


async def test_a_spectator_follows_a_game(server):
    clients = await seat_table(server, 2)
    table_id = clients[0].table.id
    rng = random.Random(5)
    for _ in range(6):  # a few moves before the spectator arrives
        for c in clients:
            await c.state_at(clients[0].state.version)
        mover = next(c for c in clients if c.state.seat == c.state.turn)
        await mover.legal_at(mover.state.version)
        await mover.send(mover.action_message(rng.choice(mover.state.legal)))
        ack = await mover.expect("ack")
        for c in clients:
            await c.state_at(ack.version)
    watcher = await NetClient.connect(server.port, "Watcher")
    await watcher.send(Spectate(table=table_id))
    state = await watcher.expect("snapshot")
    assert state.seat is None and state.hand == () and state.legal == ()
    final = await play_to_the_end(clients, rng, check_every=3)
    seen = await watcher.state_at(final.version)
    assert seen.result is not None and seen.board == final.board
    assert all(not isinstance(m, Hand | Legal) for m in watcher.received)
    assert all(m.hand == () for m in watcher.received if isinstance(m, Snapshot))


def test_every_server_refusal_code_is_in_the_protocol_document(pytestconfig):
    from sarja.server.refusal import SERVER_CODES

    doc = (pytestconfig.rootpath / "docs" / "protocol.md").read_text()
    missing = [code for code in SERVER_CODES if f"`{code}`" not in doc]
    assert missing == []


async def test_a_gap_in_the_updates_is_mended_by_a_snapshot(server):
    """A member that misses an update sees the next message skip a version, asks for a
    snapshot, and is whole again."""
    clients = await seat_table(server, 2)
    mover = next(c for c in clients if c.state.seat == c.state.turn)
    other = next(c for c in clients if c is not mover)
    await mover.legal_at(0)
    await mover.send(mover.action_message(mover.state.legal[0]))
    ack = await mover.expect("ack")
    with trio.fail_after(PATIENCE):  # the other seat's update, read by hand and thrown away
        while True:
            while not other._pending:
                await other._fill()
            if isinstance(other._pending.pop(0), Update):
                break
    await other.state_at(ack.version)  # its legal list shows the gap: sync, snapshot
    assert other.gaps == 1
    assert isinstance(other.received[-1], Snapshot) or any(
        isinstance(m, Snapshot) and m.version == ack.version for m in other.received
    )
    await other.check_mirror()
    final = await play_to_the_end(clients, random.Random(8), check_every=5)
    assert final.result is not None


class Rigged:
    """A shuffle the test chooses: seat 0 cuts low, and the deck is `deck`."""

    def __init__(self, deck: list[str]) -> None:
        self.deck = deck

    def sample(self, population: tuple[int, ...], k: int) -> list[int]:
        return [parse_card("2C"), parse_card("AS")][:k]

    def shuffle(self, x: list[int]) -> None:
        x[:] = [parse_card(c) for c in self.deck]


async def test_an_exchange_that_draws_the_other_copy_says_so(server):
    """Both 7♥ spaces covered; seat 0 exchanges its dead 7♥ and draws the other 7♥: its
    hand reads as before, but it drew a card, and its `hand` says which."""
    seven = [i for i, code in enumerate(LAYOUT_CODES) if code == "7H"]
    dealt = ["7H", "3S", "JD", "4S", "JC", "5S", "2D", "6S", "3D", "8S", "4D", "9S", "5D", "TS"]
    drawn = ["6D", "QS", "8D", "KS", "7H"]  # the last: seat 0's draw for its exchange
    rest = list(FULL_DECK)
    for card in dealt + drawn:
        rest.remove(parse_card(card))
    deck = dealt + drawn + [card_code(c) for c in rest]
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Sevens", players=2, teams=2))
    table_id = (await aino.expect("table")).id
    server.lobby.tables[table_id]._rng = Rigged(deck)
    bo = await NetClient.connect(server.port, "Bo")
    await bo.send(Join(table=table_id))
    await bo.expect("table")
    for c in (aino, bo):
        await c.send(Ready(ready=True))
    for c in (aino, bo):
        await c.state_at(0)
    assert aino.state.seat == 0 and aino.state.turn == 0
    version = 0
    for jack, cell in (("JD", seven[0]), ("JC", seven[1])):
        for mover, move in ((aino, f"{jack}@{cell_name(cell)}"), (bo, None)):
            await mover.legal_at(version)
            move = move or next(m for m in mover.state.legal if "@" in m)
            await mover.send(mover.action_message(move))
            version = (await mover.expect("ack")).version
            await aino.state_at(version)
    assert aino.state.dead == ("7H",) and aino.state.hand.count("7H") == 1
    before = aino.state.hand
    await aino.legal_at(version)
    await aino.send(aino.action_message("dead:7H"))
    version = (await aino.expect("ack")).version
    await aino.legal_at(version)  # the legal list comes last
    hands = [m for m in aino.received if isinstance(m, Hand) and m.version == version]
    assert len(hands) == 1 and hands[0].drawn == "7H", hands
    assert aino.state.hand == before and aino.state.dead == ("7H",)
    await aino.check_mirror()
