"""A person who takes their seat back with a saved token after a restart is still the
person their hello's key says: the standings' "you" line is theirs."""

from __future__ import annotations

import random
import secrets

import trio

from sarja.protocol.messages import AskStandings, CreateTable, Leave, Ready, Rematch, Resume
from sarja.server.app import serve

from .netclient import PATIENCE, NetClient
from .test_server_computers import fast, over, play_until


async def test_the_standings_know_a_person_who_resumed_after_a_restart(tmp_path):
    key = secrets.token_urlsafe(32)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(data_dir=tmp_path))
        aino = await NetClient.connect(server.port, "Aino", person=key)
        await aino.send(CreateTable(name="Duo", players=2, teams=2, computers=(None, "easy")))
        await aino.expect("table")
        await aino.send(Ready(ready=True))
        await aino.expect("snapshot")
        await play_until(aino, random.Random(5), over, timeout=PATIENCE)
        with trio.fail_after(PATIENCE):
            while server.games_counted < 1:
                await trio.sleep(0.01)
        await aino.send(Rematch())  # a seat in the next game: kept across the restart
        with trio.fail_after(PATIENCE):
            while aino.state is None or aino.state.result is not None:
                await aino.receive()
        await server.journal.durable(server.journal.epoch)
        token = aino.welcome.resume
        nursery.cancel_scope.cancel()
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, fast(data_dir=tmp_path))
        # A client that keys its tokens by the server's id says hello first, then
        # resumes: the guest it takes back came from the journal.
        back = await NetClient.connect(server.port, "Aino", person=key)
        await back.send(Resume(token=token))
        await back.expect("welcome")
        await back.expect("snapshot")
        await back.send(Leave())  # to the lobby, where the standings are asked for
        await back.expect("tables")
        await back.send(AskStandings())
        standings = await back.expect("standings")
        assert standings.you is not None and standings.you.games == 1, standings.you
        assert standings.you.name == "Aino"
        nursery.cancel_scope.cancel()
