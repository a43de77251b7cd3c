"""Sessions over real TCP: dropping and resuming, stale and repeated actions,
wrong tokens, chat, leaving and rematches."""

from __future__ import annotations

import contextlib
import random

import pytest
import trio

from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import (
    Chat,
    CreateTable,
    Hello,
    Join,
    Leave,
    Legal,
    ListTables,
    Play,
    Ready,
    Rematch,
    Resume,
    Spectate,
)
from sarja.protocol.moves import action_message
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.journal import token_hash

from .dial import dial
from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end, seat_table


def turn_order(*clients: NetClient) -> tuple[NetClient, NetClient]:
    """(the client on turn, another one), from what the server sent them."""
    mover = next(c for c in clients if c.state.seat == c.state.turn)
    return mover, next(c for c in clients if c is not mover)


async def play_alone(client: NetClient, rng: random.Random) -> None:
    """Play every legal list this client gets until the game ends (the computer
    plays the other seat)."""
    with trio.fail_after(PATIENCE):
        while client.state is None or client.state.result is None:
            msg = await client.receive()
            if isinstance(msg, Legal) and client.state.version == msg.version:
                await client.send(client.action_message(rng.choice(msg.legal)))


@pytest.fixture
async def server(nursery, tmp_path):
    config = ServerConfig(host="127.0.0.1", port=0, seed=3, data_dir=tmp_path)
    return await nursery.start(serve, config)


async def test_a_player_drops_mid_turn_and_resumes_with_the_token(server):
    alice, bob = await seat_table(server, 2)
    mover, other = turn_order(alice, bob)
    hand, version, seat = mover.state.hand, mover.state.version, mover.state.seat
    token = mover.welcome.resume
    await mover.aclose()  # the lid closes mid-turn
    away = await other.state_at(version + 1)  # going away is a change like any other
    assert away.players[seat].away

    back = await NetClient.connect(server.port, mover.name, resume=token)
    assert back.welcome.resume != token  # a token works once; the welcome has the next
    table = await back.expect("table")
    assert table.seat == seat and table.started
    state = await back.expect("snapshot")
    assert (state.hand, state.version, state.turn) == (hand, version + 2, seat)
    assert not any(p.away for p in state.players)
    # And the game goes on from where it was: an action made against the version
    # before the player went away is still good, since no action came between.
    await back.send(back.action_message(state.legal[0]))
    ack = await back.expect("ack")
    assert ack.version == version + 3
    await other.state_at(version + 3)
    await other.check_mirror()


async def test_others_hear_who_is_away_and_who_is_back(server):
    alice, bob = await seat_table(server, 2)
    token = bob.welcome.resume
    await bob.aclose()
    kinds = []
    with trio.fail_after(PATIENCE):
        while "away" not in kinds:
            kinds += [c.kind for c in (await alice.expect("update")).changes]
    await NetClient.connect(server.port, "P1", resume=token)
    with trio.fail_after(PATIENCE):
        while "back" not in kinds:
            kinds += [c.kind for c in (await alice.expect("update")).changes]
    assert kinds == ["away", "back"]
    await alice.check_mirror()


async def test_a_wrong_resume_token_is_refused(server):
    stream = await dial(server.port)
    client = NetClient(stream, "Mallory")
    await client.send(Hello(version=PROTOCOL_VERSION, name="Mallory", resume="x" * 43))
    error = await client.expect("error")
    assert error.code == "unknown_resume" and "resume" in error.message
    # The connection is still open: a plain hello joins afresh.
    await client.send(Hello(version=PROTOCOL_VERSION, name="Mallory"))
    welcome = await client.expect("welcome")
    assert welcome.resume != "x" * 43


async def test_a_stale_action_gets_the_current_snapshot(server):
    alice, bob = await seat_table(server, 2)
    mover, _ = turn_order(alice, bob)
    first = mover.action_message(mover.state.legal[0])
    await mover.send(first)
    await mover.expect("ack")
    stale = action_message(mover.state.legal[-1], mover.next_id(), first.version)
    await mover.send(stale)
    error = await mover.expect("error")
    assert error.code == "stale_version" and error.id == stale.id
    state = await mover.expect("snapshot")
    assert state.version == first.version + 1
    # A version the game has not reached is a different mistake.
    await mover.send(action_message("pass", mover.next_id(), 99))
    assert (await mover.expect("error")).code == "bad_version"


async def test_a_repeated_action_id_gets_its_first_answer_and_is_not_applied_twice(server):
    alice, bob = await seat_table(server, 2)
    mover, other = turn_order(alice, bob)
    action = mover.action_message(mover.state.legal[0])
    await mover.send(action)
    ack = await mover.expect("ack")
    await other.legal_at(ack.version)
    await mover.send(action)  # the same id again, as after a timeout
    again = await mover.expect("ack")
    assert again == ack
    # Nothing more happened: the other seat's next move is at the next version.
    await other.send(other.action_message(other.state.legal[0]))
    assert (await other.expect("ack")).version == ack.version + 1
    # The same id for another action is refused with its own code.
    other_action = action_message("pass", action.id, ack.version + 1)
    await mover.send(other_action)
    assert (await mover.expect("error")).code == "id_reused"
    # A refusal is not remembered: the refused id, corrected, goes through.
    await mover.legal_at(ack.version + 1)
    fresh = mover.next_id()
    await mover.send(action_message("draw", fresh, ack.version + 1))
    refused = await mover.expect("error")
    assert refused.id == fresh and refused.code == "nothing_to_draw"
    await mover.send(action_message(mover.state.legal[0], fresh, ack.version + 1))
    assert (await mover.expect("ack")).id == fresh


async def test_an_illegal_action_is_refused_with_the_rules_sentence(server):
    alice, bob = await seat_table(server, 2)
    mover, waiting = turn_order(alice, bob)
    assert waiting.state.legal == ()
    await waiting.send(waiting.action_message("pass"))
    error = await waiting.expect("error")
    assert error.code == "not_your_turn" and error.message == "It is not your turn."
    # A move on a taken space, by the player on turn:
    card = mover.state.hand[0]
    await mover.send(mover.action_message(f"{card}@A1"))
    error = await mover.expect("error")
    assert error.code in ("corner_space", "wrong_card") and error.message.endswith(".")
    # Which card does what is the rules' call, with the rules' code and sentence.
    await mover.send(Play(id=mover.next_id(), version=mover.state.version, card="JS", cell=44))
    assert (await mover.expect("error")).code in ("wrong_card", "card_not_in_hand")


async def test_chat_reaches_the_table_and_is_rate_limited(server):
    alice, bob = await seat_table(server, 2)
    await alice.send(Chat(text="good luck!"))
    line = await bob.expect("chat")
    assert (line.sender, line.text, line.seat) == ("P0", "good luck!", alice.state.seat)
    for i in range(5):
        await alice.send(Chat(text=f"spam {i}"))
    error = await alice.expect("error")
    assert error.code == "chat_too_fast"


async def test_a_chat_line_that_shows_nothing_or_smears_is_refused_and_not_delivered(server):
    alice, bob = await seat_table(server, 2)
    # Built without the checks, as a client of another making would send them.
    for text, code in [
        ("\u2800" * 40, "invisible_text"),  # Braille blanks
        ("\u3164\u115f \uffa0", "invisible_text"),  # Hangul fillers
        ("\u0301" * 199, "invisible_text"),  # accents with nothing to sit on
        ("a" + "\u0301" * 199, "too_many_marks"),  # one letter under a smear
    ]:
        await alice.send(Chat(text=text, _trusted=True))
        error = await alice.expect("error")
        assert error.code == code and error.message.endswith(".")
    await alice.send(Chat(text="Hyv\u00e4\u00e4 peli\u00e4, e\u0323\u0302!"))
    line = await bob.expect("chat")  # the first line Bertil gets is the one he can read
    assert line.text == "Hyv\u00e4\u00e4 peli\u00e4, e\u0323\u0302!"


async def test_leaving_a_waiting_table_frees_the_seat(server):
    alice = await NetClient.connect(server.port, "Aino")
    await alice.send(CreateTable(name="Evening", players=2, teams=2))
    table = await alice.expect("table")
    bob = await NetClient.connect(server.port, "Bo")
    await bob.send(Join(table=table.id))
    await bob.expect("table")
    await bob.send(Leave())
    tables = await bob.expect("tables")
    assert tables.tables[0].seated == ("Aino", None)
    await alice.send(Leave())
    await alice.expect("tables")
    await bob.send(ListTables())
    assert (await bob.expect("tables")).tables == ()  # the empty table is gone


async def test_a_free_seat_on_another_side_is_refused_as_such(server):
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Teams", players=4, teams=2))
    table = await aino.expect("table")  # Aino has seat 1; seat 2 is free, and Green's
    bo = await NetClient.connect(server.port, "Bo")
    await bo.send(Join(table=table.id, seat=1, side=0))
    error = await bo.expect("error")
    assert (error.code, error.message) == ("wrong_side", "Seat 2 is on Green's side, not Blue's.")
    await bo.send(Join(table=table.id, seat=0, side=0))  # taken, and on that side
    assert (await bo.expect("error")).code == "seat_taken"
    await bo.send(Join(table=table.id, seat=2, side=0))
    assert (await bo.expect("table")).seat == 2


async def test_a_refused_arrangement_says_why(server):
    alice = await NetClient.connect(server.port, "Aino")
    await alice.send(CreateTable(name="Odd", players=8, teams=3))
    error = await alice.expect("error")
    assert error.code == "bad_team_count" and "8 players" in error.message


async def test_a_rematch_keeps_the_seats(server):
    clients = await seat_table(server, 2)
    final = await play_to_the_end(clients, random.Random(2))
    assert final.result is not None
    for client in clients:
        await client.send(Rematch())
    for client in clients:
        with trio.fail_after(PATIENCE):
            while client.state is None or client.state.result is not None:
                await client.receive()
        assert client.state.version == 0 and len(client.state.hand) == 7
    assert [c.state.seat for c in clients] == [0, 1]


async def test_the_computer_plays_for_an_absent_player_when_the_table_allows(nursery, tmp_path):
    # The stand-in's grace (tests/test_server_graces.py) is not waited out here.
    config = ServerConfig(
        host="127.0.0.1", port=0, seed=5, data_dir=tmp_path, takeover_delay=0, hand_over_after=0
    )
    server = await nursery.start(serve, config)
    alice, bob = await seat_table(server, 2, computer_takeover="medium")
    await bob.aclose()
    rng = random.Random(4)
    await play_alone(alice, rng)
    kinds = {m.kind for m in alice.received if m.TYPE == "notice"}
    assert "takeover" in kinds and alice.state.result is not None


async def test_without_takeover_the_game_waits_for_an_absent_player(server):
    alice, bob = await seat_table(server, 2)
    if alice.state.turn == 0:  # make it Bob's turn
        await alice.legal_at(alice.state.version)
        await alice.send(alice.action_message(alice.state.legal[0]))
        await alice.state_at((await alice.expect("ack")).version)
    await bob.aclose()
    version = alice.state.version
    await alice.state_at(version + 1)  # Bob is away...
    with trio.move_on_after(0.5):  # ...and nothing more comes (no computer plays for him)
        while True:
            await alice.receive()
    assert alice.state.version == version + 1 and alice.state.turn == 1  # only "away"
    assert alice.state.players[1].away
    assert not any(m.TYPE == "notice" and m.kind == "takeover" for m in alice.received)


async def test_the_lobby_hears_of_new_tables_and_taken_seats_at_once(server):
    browsing = await NetClient.connect(server.port, "Browsing")
    host = await NetClient.connect(server.port, "Host")
    await host.send(CreateTable(name="Late night", players=2, teams=2))
    listing = await browsing.expect("tables")
    assert [t.name for t in listing.tables] == ["Late night"]
    assert listing.tables[0].seated == ("Host", None)
    guest = await NetClient.connect(server.port, "Guest")
    await guest.send(Join(table=listing.tables[0].id))
    while listing.tables[0].seated != ("Host", "Guest"):
        listing = await browsing.expect("tables")


async def test_after_a_game_a_freed_seat_reopens_the_table(server):
    clients = await seat_table(server, 2)
    await play_to_the_end(clients, random.Random(2))
    leaver, stayer = clients
    await leaver.send(Leave())
    await leaver.expect("tables")
    with trio.fail_after(PATIENCE):
        while stayer.table.started:
            await stayer.expect("table")
    newcomer = await NetClient.connect(server.port, "Newcomer")
    await newcomer.send(Join(table=stayer.table.id))
    assert (await newcomer.expect("table")).seat == leaver.state.seat
    for client in (stayer, newcomer):
        await client.send(Ready(ready=True))
    state = await newcomer.expect("snapshot")
    assert state.version == 0 and state.result is None


async def test_a_finished_table_left_only_to_absent_players_is_forgotten(nursery, tmp_path):
    config = ServerConfig(
        host="127.0.0.1", port=0, seed=5, data_dir=tmp_path, takeover_delay=0, hand_over_after=0
    )
    server = await nursery.start(serve, config)
    alice, bob = await seat_table(server, 2, computer_takeover="medium")
    await bob.aclose()  # gone for good; the computer finishes his game
    rng = random.Random(4)
    await play_alone(alice, rng)
    assert server.lobby.tables  # Bob's seat is still held: he might come back
    await alice.send(Leave())
    await alice.expect("tables")
    assert server.lobby.tables == {}
    assert token_hash(bob.welcome.resume) not in server.lobby.guests


async def test_a_table_refuses_spectators_past_the_limit(server, monkeypatch):
    monkeypatch.setattr("sarja.server.table.MAX_SPECTATORS", 2)  # 999 in the protocol
    clients = await seat_table(server, 2)
    table_id = clients[0].table.id
    watchers = [await NetClient.connect(server.port, f"W{i}") for i in range(3)]
    for watcher in watchers[:2]:
        await watcher.send(Spectate(table=table_id))
        await watcher.expect("snapshot")
    await watchers[2].send(Spectate(table=table_id))
    error = await watchers[2].expect("error")
    assert error.code == "too_many_spectators" and "2 spectators" in error.message


async def test_a_greeted_player_takes_back_a_seat_from_the_lobby(server):
    """A client that keys its tokens by the server's id learns which one to use from
    `welcome`, and then resumes from the lobby."""
    alice, bob = await seat_table(server, 2)
    token, seat = bob.welcome.resume, bob.state.seat
    await bob.aclose()
    await alice.state_at(alice.state.version + 1)  # Bob is away
    again = await NetClient.connect(server.port, "Bob")
    assert again.welcome.server_id == bob.welcome.server_id
    await again.send(Resume(token=token))
    welcome = await again.expect("welcome")
    assert welcome.resume not in (token, again.welcome.resume)
    assert (await again.expect("table")).seat == seat
    snapshot = await again.expect("snapshot")
    assert snapshot.seat == seat and not snapshot.players[seat].away
    # The used token stays good until the new one is used (the welcome carrying the
    # new one may never have arrived); then it is spent.
    third = await NetClient.connect(server.port, "Bob")
    await third.send(Resume(token=welcome.resume))
    assert (await third.expect("welcome")).resume != welcome.resume
    other = await NetClient.connect(server.port, "Mallory")
    await other.send(Resume(token=token))
    assert (await other.expect("error")).code == "unknown_resume"


async def test_a_final_move_resent_after_the_end_gets_its_acknowledgement(server):
    clients = await seat_table(server, 2)
    rng = random.Random(7)
    final = await play_to_the_end(clients, rng, check_every=50)
    last_ack = None
    for client in clients:
        acks = [m for m in client.received if m.TYPE == "ack"]
        if acks and acks[-1].version == final.version:
            last_ack, mover = acks[-1], client
    assert last_ack is not None
    sent = next(m for m in reversed(mover.sent) if getattr(m, "id", None) == last_ack.id)
    await mover.send(sent)  # as after a lost connection
    assert await mover.expect("ack") == last_ack
    await mover.send(action_message("pass", mover.next_id(), final.version))
    assert (await mover.expect("error")).code == "game_over"


async def test_a_spectator_resuming_after_a_restart_is_watching_again(tmp_path):
    """Today's players come back to their seats after a restart; a spectator comes back
    to watching (before, the token was unknown and the client went to the lobby)."""
    config = ServerConfig(host="127.0.0.1", port=0, seed=3, data_dir=tmp_path)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        alice, bob = await seat_table(server, 2)
        cecilia = await NetClient.connect(server.port, "Cecilia")
        await cecilia.send(Spectate(table=alice.table.id))
        assert (await cecilia.expect("snapshot")).seat is None
        token = cecilia.welcome.resume
        nursery.cancel_scope.cancel()  # the server stops
    for client in (alice, bob, cecilia):
        await client.aclose()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        back = await NetClient.connect(server.port, "Cecilia", resume=token)
        view = await back.expect("table")
        assert view.seat is None and view.spectators == 1
        snap = await back.expect("snapshot")
        assert snap.seat is None and snap.hand == ()
        # And she hears the game go on: a player coming back, here.
        again = await NetClient.connect(server.port, "P0", resume=alice.welcome.resume)
        await again.expect("snapshot")
        update = await back.expect("update")
        assert [(c.kind, c.seat) for c in update.changes] == [("back", again.state.seat)]
        nursery.cancel_scope.cancel()


async def test_a_server_shutting_down_welcomes_no_one_new(nursery):
    """A client that connects again at once after the server's goodbye was welcomed
    (the server took connections all through its last moments) and then dropped. The
    server stops taking them when it says goodbye, and anyone who slipped in meanwhile,
    greeted or not, gets the goodbye too (`bye` `shutdown`)."""
    config = ServerConfig(
        host="127.0.0.1", port=0, shutdown_grace=PATIENCE, handshake_timeout=PATIENCE
    )
    server = await nursery.start(serve, config)
    aino = await NetClient.connect(server.port, "Aino")
    # Silent, so the server's last moments last until it goes: no hello yet.
    quiet = NetClient(await dial(server.port), "Quiet")
    nursery.start_soon(server.shutdown)
    assert (await aino.expect("bye")).code == "shutdown"
    try:
        stream = await dial(server.port)
    except OSError:
        stream = None  # no one listens there now, as when the server is down
    if stream is not None:
        again = NetClient(stream, "Aino")
        with contextlib.suppress(trio.BrokenResourceError):  # the goodbye came first
            await again.send(Hello(version=PROTOCOL_VERSION, name="Aino"))
        first = await again.receive()
        assert first.TYPE == "bye" and first.code == "shutdown", first
        await again.aclose()
    first = await quiet.receive()  # told without asking: the server goes
    assert first.TYPE == "bye" and first.code == "shutdown", first
    await quiet.aclose()
    await aino.aclose()
