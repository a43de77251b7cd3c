"""The client application against a real server on 127.0.0.1, driven by key presses.

Each test is a plain function running one asyncio loop: the prompt_toolkit apps read
keys from pipes and draw to dummy 80×24 terminals, and the server and the clients' links
run as one trio guest on the same loop (see client_helpers.py).
"""

from __future__ import annotations

import asyncio
import socket

from prompt_toolkit.input import create_pipe_input

from sarja.server.app import serve
from sarja.server.config import ServerConfig

from .client_helpers import (
    PATIENCE,
    Player,
    TrioHost,
    greedy_action,
    harness,
    keys_for,
    parse_action,
)


async def seat_two(h) -> tuple[Player, Player]:
    """Aino creates a table with the form, Bertil joins from the lobby; both ready."""
    a = await h.player("Aino")
    b = await h.player("Bertil")
    a.press("n")
    await a.wait(lambda: a.model.overlay == "create", "the new-table form")
    a.press(*["backspace"] * 40, "Friday", "enter")
    await a.wait(lambda: a.model.table is not None, "the waiting room")
    assert "Friday" in a.screen() and "Aino (you)" in a.screen()
    b.press("r")
    await b.wait(lambda: b.model.tables, "the table list")
    assert "Friday" in b.screen() and "1 free" in b.screen()
    b.press("enter")
    await b.wait(lambda: b.model.table is not None, "a seat")
    a.press("r")
    b.press("r")
    for p in (a, b):
        await p.wait(lambda p=p: p.model.game is not None, "the game")
    return a, b


async def take_turn(players: list[Player], prefer: tuple[str, ...] = ()) -> str:
    """Whoever's turn it is chooses an action and types its keys; all see the result."""
    mover = next(p for p in players if p.model.my_turn)
    version = mover.model.game.version
    action = greedy_action(mover.model, prefer)
    keys = keys_for(mover.model, action)
    mover.press(*keys)
    await mover.wait(
        lambda: mover.model.game.version > version, f"{action} typed as {' '.join(keys)}"
    )
    for p in players:
        await p.wait_version(version + 1)
    return action


def test_two_players_play_whole_games_by_keys(tmp_path):
    asyncio.run(_whole_games(tmp_path))


async def _whole_games(tmp_path):
    async with harness(tmp_path, seed=7) as h:
        a, b = await seat_two(h)
        players = [a, b]
        assert "[1]" in a.screen() and "Draw pile" in a.screen()

        # A refused move: the player not on turn tries to play; the server says why.
        idle = next(p for p in players if not p.model.my_turn)
        idle.press("1", "enter")
        await idle.wait(lambda: "turn" in idle.model.status, "the refusal")
        assert idle.model.status in idle.screen()

        done: set[str] = set()
        games = 0
        log: list[str] = []  # every game's (each starts its own)
        while games < 6:
            while a.model.game.result is None:
                prefer = tuple(k for k in ("remove", "dead") if k not in done)
                mover = next(p for p in players if p.model.my_turn)
                choices = mover.model.game.choices
                action = await take_turn(players, prefer)
                kind, _, cell = parse_action(action)
                done.add(kind)
                if any(c.cell == cell and len(c.options) > 1 for c in choices):
                    done.add("fives")
            games += 1
            log += [line.text for line in a.model.log]
            winner = a.model.game.result.side
            assert a.model.game.result.result == "win"
            for p in players:
                screen = p.screen()
                assert "Game over" in screen and "wins" in screen
                assert f"{a.name} held:" in screen and f"{b.name} held:" in screen
                assert "*[" in screen  # the winning sequences, marked on the board
            assert len(a.model.game.sequences[winner]) >= 2
            if {"remove", "dead", "fives"} <= done:
                break
            a.press("r")
            b.press("r")
            for p in players:
                await p.wait(lambda p=p: p.model.game.result is None, "the rematch")
        assert {"place", "remove", "dead", "fives"} <= done, done
        assert any("removed" in t for t in log) and any("exchanged a dead" in t for t in log)


def test_chat_mouse_and_a_dropped_connection_resumed(tmp_path):
    asyncio.run(_chat_mouse_resume(tmp_path))


async def _chat_mouse_resume(tmp_path):
    async with harness(tmp_path, seed=3) as h:
        a, b = await seat_two(h)
        a.press("c", "Good luck!", "enter")
        await b.wait(lambda: "Aino: Good luck!" in b.screen(), "the chat line")

        # A click on a card picks it; a click on one of its spaces plays it there.
        mover = next(p for p in (a, b) if p.model.my_turn)
        version = mover.model.game.version
        action = greedy_action(mover.model)
        _, card, cell = parse_action(action)
        index = mover.model.hand.index(card)
        column = mover.screen().splitlines()[13].index(f"[{index + 1}]") + 1
        mover.press(f"\x1b[<0;{column};14M\x1b[<0;{column};14m")
        await mover.wait(lambda: mover.model.picked == card, "the clicked card")
        x, y = 3 + cell % 10 * 5 + 2 + 1, cell // 10 + 3
        mover.press(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m")
        await mover.wait(lambda: mover.model.game.version > version, "the clicked move")

        # Bertil's connection drops: his screen says so, and he comes back to his seat.
        connections = b.client.link.connections
        b.client.link.drop()
        await b.wait(lambda: b.model.link == "reconnecting", "reconnecting")
        assert "reconnecting" in b.screen()
        await a.wait(lambda: a.model.game.players[1].away, "Bertil away on Aino's screen")
        assert "Bertil is away; the seat is kept." in a.screen()
        await b.wait(lambda: b.model.link == "online" and b.model.phase.value == "game", "resume")
        assert b.client.link.connections == connections + 1
        await a.wait(lambda: not a.model.game.players[1].away, "Bertil back")
        assert "Bertil is back." in a.screen()
        assert b.model.game.seat == 1 and b.model.table.seat == 1
        # The game goes on from the server's state, by keys, on both screens.
        for _ in range(2):
            await take_turn([a, b])
        assert "Connected again." in b.screen()
        assert "Not now" not in b.model.status, b.model.status

        # Bertil starts the client afresh (the old one is still open), through another
        # address of the same server: the seat it remembered for the server's key (with
        # the newest token: each welcome after a resume brings one) takes him back, and
        # the old window is told why it closed.
        key = b.model.session.peer_key
        assert b.settings.seats[key]["Bertil"] == b.model.seats[key]["Bertil"]
        again = await h.player("Bertil", settings=b.settings, where="game", host="localhost")
        assert again.model.game.seat == 1 and again.model.game.hand == b.model.game.hand
        # Its action ids go on above those the server holds for the seat (Bertil has
        # moved), so its first move is not taken for one of the old window's.
        last = again.model.game.last_id
        assert last is not None and again.model.session.next_id == last + 1
        await b.wait(lambda: b.model.link != "online", "the old window closed")
        assert "connected again from somewhere else" in b.screen()
        await take_turn([a, again])


def test_unreachable_server_then_retry_and_the_name(tmp_path):
    asyncio.run(_unreachable(tmp_path))


async def _unreachable(tmp_path):
    with socket.socket() as probe:  # a port nothing listens on, until the server starts
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    host = TrioHost()
    await host.start()
    try:
        with create_pipe_input() as pipe:
            # A long backoff: only the r key can make it connect within the test.
            p = Player("Ain", port, pipe, named=False, backoff=(60.0,))  # "Ain": remembered
            host.start_soon(p.client.link.run)
            app = asyncio.ensure_future(p.client.app.run_async())
            await p.wait(lambda: p.model.link == "unreachable", "unreachable")
            screen = p.screen()
            # The name is asked for at once; the connection's trouble shows below it.
            assert "What is your name?" in screen and "Name: Ain" in screen
            assert f"Cannot reach 127.0.0.1:{port} (connection refused)" in screen, screen
            config = ServerConfig(host="127.0.0.1", port=port, data_dir=tmp_path)
            await host.start_task(serve, config)
            p.press("end", "o", "enter")  # adding to the remembered name
            await p.wait(lambda: "r try again now" in p.screen(), "the connect screen")
            p.press("r")
            await p.wait(lambda: p.model.phase.value == "lobby", "the lobby")
            assert p.settings.name == "Aino" and "No tables yet" in p.screen()
            p.press("q")
            await asyncio.wait_for(app, PATIENCE)
    finally:
        await host.guest.stop()


def test_too_small_and_larger_terminals(tmp_path):
    asyncio.run(_sizes(tmp_path))


async def _sizes(tmp_path):
    async with harness(tmp_path, seed=5) as h:
        a, b = await seat_two(h)
        small = a.screen(70, 20)
        assert "at least 80×24" in small and "this one is 70×20" in small
        big = a.screen(120, 40).splitlines()
        assert len(big) == 40 and max(len(line) for line in big) <= 120
        assert any("Hand" in line for line in big)
        # More room: wider spaces on the board, more of the log.
        assert len(big[1].rstrip()) > len(a.screen().splitlines()[1].rstrip())
