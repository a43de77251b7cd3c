"""Whole games over real TCP on 127.0.0.1: every arrangement to a win, with
every frame checked for hidden information, and the record replaying."""

from __future__ import annotations

import json
import random

import pytest
import trio

from sarja.protocol.messages import Spectate
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.engine import Action, replay
from sarja.server.engine.cards import card_code
from sarja.server.engine.record import initial_game

from .netclient import NetClient
from .server_helpers import play_to_the_end, seat_table


@pytest.fixture
async def server(nursery, tmp_path):
    config = ServerConfig(host="127.0.0.1", port=0, seed=11, data_dir=tmp_path)
    return await nursery.start(serve, config)


def check_hidden_information(client: NetClient, record: dict) -> int:
    """Every state this seat received shows its own true hand and nothing of
    any other hand or the draw pile's order. Returns the states checked."""
    game = initial_game(record)
    true_hands = {0: [sorted(card_code(c) for c in h) for h in game.hands]}
    true_piles = {0: (len(game.draw_pile), [card_code(c) for c in game.discard])}
    for version, (seat, text) in enumerate(record["actions"], start=1):
        game.apply(seat, Action.parse(text))
        true_hands[version] = [sorted(card_code(c) for c in h) for h in game.hands]
        true_piles[version] = (len(game.draw_pile), [card_code(c) for c in game.discard])
    checked = 0
    for msg in client.received:
        if msg.TYPE == "state":
            seat, version = msg.seat, msg.version
            own = true_hands[version][seat] if seat is not None else []
            assert sorted(msg.hand) == own, (seat, version)
            assert (msg.draw_size, list(msg.discard)) == true_piles[version]
            # Legal actions name only this seat's own cards.
            for action in msg.legal:
                if action not in ("draw", "pass"):
                    assert action.removeprefix("dead:")[:2] in own
            if msg.outcome is not None:
                assert [sorted(h) for h in msg.outcome.hands] == true_hands[version]
            checked += 1
        elif msg.TYPE == "event":
            # Only public cards: those played, removed with, exchanged, or cut.
            assert msg.card is None or msg.kind in ("played", "removed", "dead_card"), msg
            assert msg.kind != "drew" or msg.card is None
    return checked


@pytest.mark.parametrize(
    "players, teams", [(2, None), (3, None), (4, 2), (6, 3)], ids=["2p", "3p", "2x2", "3x2"]
)
async def test_a_whole_game_to_a_win(server, tmp_path, players, teams):
    clients = await seat_table(server, players, teams)
    assert [c.state.seat for c in clients] == list(range(players))
    final = await play_to_the_end(clients, random.Random(players))
    assert final.outcome.result == "win", final.outcome
    winners = {c.state.outcome.side for c in clients}
    assert len(winners) == 1
    # The record is written, replays to the same end, and shows no other seat
    # more than it was entitled to during the game.
    with trio.fail_after(5):
        while not server.records_written:
            await trio.sleep(0.01)
    record = json.loads(server.records_written[0].read_text())
    assert record["outcome"]["side"] == final.outcome.side
    assert replay(record).outcome.side == final.outcome.side
    assert record["names"] == [f"P{i}" for i in range(players)]
    for client in clients:
        assert check_hidden_information(client, record) > 10
    events = [m for m in clients[0].received if m.TYPE == "event"]
    texts = [e.text for e in events]
    assert any(" played " in t for t in texts) and any("wins!" in t for t in texts)
    assert any(e.kind == "cut" for e in events)


async def test_a_spectator_follows_a_game(server):
    clients = await seat_table(server, 2)
    table_id = clients[0].table.id
    rng = random.Random(5)
    for _ in range(6):  # a few moves before the spectator arrives
        mover = next(c for c in clients if c.state.legal)
        await mover.send(mover.action_message(rng.choice(mover.state.legal)))
        ack = await mover.expect("ack")
        for c in clients:
            await c.state_at(ack.version)
    watcher = await NetClient.connect(server.port, "Watcher")
    await watcher.send(Spectate(table=table_id))
    state = await watcher.expect("state")
    assert state.seat is None and state.hand == () and state.legal == ()
    final = await play_to_the_end(clients, rng)
    seen = await watcher.state_at(final.version)
    assert seen.outcome is not None and seen.board == final.board
    assert all(m.hand == () for m in watcher.received if m.TYPE == "state")


def test_every_server_refusal_code_is_in_the_protocol_document(pytestconfig):
    from sarja.server.refusal import SERVER_CODES

    doc = (pytestconfig.rootpath / "docs" / "protocol.md").read_text()
    missing = [code for code in SERVER_CODES if f"`{code}`" not in doc]
    assert missing == []
