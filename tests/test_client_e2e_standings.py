"""End to end: the standings screen in a real `sarja-client` in a pseudo-terminal,
against the real `sarja-server` process on 127.0.0.1, after a game played by two
scripted people; the key `t` shows it, `f` then `y` forgets us. And a client that
meets a server for the first time keeps the person key it said hello with."""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import subprocess
import time

import trio

from sarja.client.tls import fingerprint
from sarja.protocol.messages import AskStandings, CreateTable, Join, Leave, Ready

from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end
from .test_client_e2e import Server, Terminal, command


async def a_game(port: int, keys: dict[str, str]) -> tuple[str, str, list]:
    """Aino and Bertil, with their keys, play one game to its end; the server's id
    and the standings once the game is counted."""
    aino = await NetClient.connect(port, "Aino", person=keys["Aino"])
    bertil = await NetClient.connect(port, "Bertil", person=keys["Bertil"])
    await aino.send(CreateTable(name="Friday", players=2, teams=2))
    table = await aino.expect("table")
    await bertil.send(Join(table=table.id))
    await bertil.expect("table")
    for c in (aino, bertil):
        await c.send(Ready(ready=True))
    for c in (aino, bertil):
        await c.state_at(0)
    seating = sorted((aino, bertil), key=lambda c: c.state.seat)
    await play_to_the_end(seating, random.Random(2), check_every=10**6)
    for c in (aino, bertil):
        await c.send(Leave())
        await c.expect("tables")
    with trio.fail_after(PATIENCE):
        while True:
            await trio.sleep(2.0)  # the standings count the game as its record is written
            await aino.send(AskStandings())
            reply = await aino.expect("standings")
            if reply.you is not None:
                return aino.welcome.server_id, fingerprint(aino.stream), list(reply.all_time)


def test_the_standings_screen_shows_the_evening_and_forgets_on_request(tmp_path):
    host = Server(tmp_path / "data")
    keys = {"Aino": secrets.token_urlsafe(32), "Bertil": secrets.token_urlsafe(32)}
    aino = None
    try:
        server_id, server_key, lines = trio.run(a_game, host.port, keys)
        assert sorted(s.name for s in lines) == ["Aino", "Bertil"]
        # Aino's client knows this server (by the key it proved it holds), and her key.
        config = tmp_path / "config"
        (config / "sarja").mkdir(parents=True)
        settings = config / "sarja" / "client.json"
        kept = {"name": "Aino", "people": {server_key: keys["Aino"]},
                "pins": {server_id: server_key}}  # fmt: skip
        settings.write_text(json.dumps(kept))
        env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
        aino = Terminal([*command("sarja-client"), host.address], env)
        aino.wait_for("Name: Aino")
        aino.type("\r")
        lobby = aino.wait_for("No tables yet")
        assert "t standings" in lobby  # the footer names the key
        aino.type("t")
        screen = aino.wait_for(re.compile(r"You Aino +1 "))
        assert "This evening (the last 12 hours)" in screen and "All time" in screen
        mine = next(s for s in lines if s.name == "Aino")
        row = re.search(r"1\. +(\w+) +1 +(\d) +(\d) +(\d) +(\d+) +(\d+) +(\d+)", screen)
        assert row is not None, screen
        first = next(s for s in lines if s.name == row[1])
        got = [int(x) for x in row.groups()[1:]]
        assert got == [first.wins, first.losses, first.draws, first.sequences, first.removed,
                       first.exchanged]  # fmt: skip
        assert screen.split("You Aino")[1].split("\n")[0].endswith(f" {mine.rating / 10:.1f}")
        # The host's command shows the same two lines.
        printed = subprocess.run(
            [*command("sarja-server"), "standings", "--data-dir", str(tmp_path / "data")],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        tables = printed.split("Ids, for sarja-server forget:")[0]
        assert tables.count(" Aino ") == 2 and tables.count(" Bertil ") == 2, printed
        # Forget me: asked first; n keeps us, y forgets.
        aino.type("f")
        aino.wait_for("Forget your standing")
        aino.type("n")
        aino.wait_for(re.compile(r"You Aino +1 "))
        aino.type("f")
        aino.wait_for("Forget your standing")
        aino.type("y")
        screen = aino.wait_for("You: no games here yet.")
        tables = screen.split("This evening")[1].split("You:")[0]
        assert "Aino" not in tables and "Bertil" in tables
        assert "forgot you" in aino.text()
        # The client dropped the key: its next hello offers a new one.
        deadline = time.monotonic() + PATIENCE
        while server_key in json.loads(settings.read_text()).get("people", {}):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        aino.type("\x1b")
        aino.wait_for("No tables yet")
        aino.type("q")
        assert aino.finish() == 0
        assert b"Traceback" not in aino.raw
    finally:
        if aino is not None:
            aino.close()
        host.stop()


def test_a_new_client_keeps_the_key_it_said_hello_with(tmp_path):
    host = Server(tmp_path / "data")
    config = tmp_path / "config"
    env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
    person = None
    try:
        person = Terminal([*command("sarja-client"), host.address], env)
        person.wait_for("What is your name?")
        person.type("Cai\r")
        person.wait_for("No tables yet")
        settings = config / "sarja" / "client.json"
        deadline = time.monotonic() + PATIENCE
        while not json.loads(settings.read_text() if settings.exists() else "{}").get("people"):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        kept = json.loads(settings.read_text())
        ((server_key, key),) = kept["people"].items()
        assert list(kept["pins"].values()) == [server_key] and len(key) >= 32
        person.type("t")
        person.wait_for("You: no games here yet.")
        person.type("q")
        assert person.finish() == 0
    finally:
        if person is not None:
            person.close()
        host.stop()
