"""What one address can set running, for bench/hostile.py: each part against a
`sarja-server` process of its own.

- Clock tables: from one loopback address, games with a 10 s turn clock are started
  (two connections each, which then go) until the server refuses one. A turn clock
  hands the turns of the gone to the computer, so such tables count against the
  address as tables with computers do: `clock_tables_per_address` is how many it got
  (at most the server's computer-table limit). In the full run the bench then waits
  for them to be put away (`clock_tables_gone_s`, the server sweeps every 30 s) and
  for the address to be allowed a table again (`clock_table_after`).
- Hints: a real player at a table of her own (from 127.0.0.200, against a medium
  computer) asks a hint on each of her turns and plays it, timed from `ask_hint` to
  `hint`: first alone (`hint_p50_calm_ms`), then while attackers from several
  addresses, each at as many hint tables as the server lets one address have, ask a
  hint at every turn of theirs and play at once (`hint_p50_under_flood_ms`, measured
  once the flood has run a while, her first few hints under it not counted; the target
  is at most 1.5 times the calm figure).
  She thinks `THINK` seconds on each turn before she asks, as a person would (and as
  the server's hints per address allow: 10 a minute); the attackers ask at once, and
  their hints answered and refused (`hints_too_fast`) are counted too.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from hostile_tables import HOST, SERVER, Client  # beside this file
from support.processes import read_port, stop  # bench/support/

from sarja.protocol.messages import AskHint, CreateTable, Join, ListTables, Ready, Rematch

A_CLOCKS, A_HINTS, PLAYER = 120, 130, "127.0.0.200"
CLOCK_S = 10
FLOOD = {False: 8, True: 2}  # attacking addresses: the full run's, the quick run's
HINTS = {False: 12, True: 3}  # the real player's hints timed, calm and under the flood
THINK = {False: 6.5, True: 0.0}  # seconds she takes on each turn before asking
WARM = {False: 5, True: 1}  # her hints under the flood before the timed ones (not counted)


async def start(folder: Path, *more: str) -> tuple[trio.Process, int]:
    """The server on the data directory `folder`, its log beside it (`folder`.log)."""
    command = [SERVER, "--host", HOST, "--port", "0", "--data-dir", str(folder),
               "--log-level", "info", *more]  # fmt: skip
    with open(folder.with_suffix(".log"), "wb") as log:
        process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, stderr=log)
    return process, await read_port(process)


# ----- clock tables ----------------------------------------------------------------------


async def clock_game(port: int, n: int, source: str) -> str:
    """Two people from `source` start a game with a turn clock and go: "started", or
    the code the table was refused with."""
    a = await Client.connect(port, f"Clock{n}a", source=source)
    b = await Client.connect(port, f"Clock{n}b", source=source)
    try:
        await a.send(CreateTable(name=f"Clock {n}", players=2, teams=2, turn_clock=CLOCK_S))
        reply = await a.until("table", "error")
        if reply.TYPE == "error":
            return str(reply.code)
        await b.send(Join(table=reply.id))
        await b.until("table")
        for client in (a, b):
            await client.send(Ready(ready=True))
        for client in (a, b):
            await client.until("snapshot")
        return "started"
    finally:
        await a.aclose()
        await b.aclose()


async def listed(port: int, names: str) -> int:
    """How many tables whose name starts with `names` the lobby lists."""
    probe = await Client.connect(port, "Probe", source=f"127.0.0.{A_CLOCKS + 1}")
    try:
        await probe.send(ListTables())
        tables = (await probe.until("tables")).tables
        return sum(t.name.startswith(names) for t in tables)
    finally:
        await probe.aclose()


async def clock_tables(quick: bool, folder: Path) -> dict[str, Any]:
    process, port = await start(folder)
    where = f"127.0.0.{A_CLOCKS}"
    try:
        made = 0
        while made < 50 and await clock_game(port, made, where) == "started":
            made += 1
        figures: dict[str, Any] = {"clock_tables_per_address": made}
        if not quick:  # the sweep puts the deserted games away: up to a minute
            began = time.monotonic()
            while time.monotonic() - began < 150 and await listed(port, "Clock "):
                await trio.sleep(1)
            figures["clock_tables_gone_s"] = round(time.monotonic() - began, 1)
            figures["clock_table_after"] = await clock_game(port, made, where)
    finally:
        await stop(process)
    return figures


# ----- hints -------------------------------------------------------------------------------


class Hinter:
    """One person at a two-seat table against a computer, with hints allowed: on each
    of their turns, a hint asked (and timed), then its move played."""

    def __init__(self, client: Client, think: float = 0.0) -> None:
        self.client = client
        self.think = think  # seconds on each turn before the hint is asked
        self.times: list[float] = []  # seconds from `ask_hint` to `hint`
        self.refused: dict[str, int] = {}

    @classmethod
    async def sit(
        cls, port: int, name: str, source: str, level: str, think: float = 0.0
    ) -> Hinter | None:
        client = await Client.connect(port, name, source=source)
        await client.send(
            CreateTable(name=name, players=2, teams=2, computers=(None, level), hints=True)
        )
        reply = await client.until("table", "error")
        if reply.TYPE == "error":
            await client.aclose()
            return None
        await client.send(Ready(ready=True))
        await client.until("snapshot")
        return cls(client, think)

    async def play(self, hints: int | None) -> None:
        """Ask and play until `hints` are timed (None: until cancelled)."""
        session, asked = self.client.session, -1
        while hints is None or len(self.times) < hints:
            game, table = session.game, session.table
            if game is None or table is None:
                await self.client.next()
                continue
            if game.result is not None:
                await self.client.send(Rematch())
                await self.client.until("snapshot")
                continue
            if game.turn != table.seat or not game.legal or game.version == asked:
                await self.client.next()
                continue
            asked, legal = game.version, game.legal
            await trio.sleep(self.think)
            sent = time.monotonic()
            await self.client.send(AskHint(version=asked))
            reply = await self.client.until("hint", "error")
            move = legal[0]
            if reply.TYPE == "hint":
                self.times.append(time.monotonic() - sent)
                move = reply.action
            else:
                self.refused[reply.code] = self.refused.get(reply.code, 0) + 1
            await self.client.send(session.action(move))
            await self.client.until("ack", "error")


async def hints(quick: bool, folder: Path) -> dict[str, Any]:
    process, port = await start(folder, "--computer-pace", "0.05")
    count = HINTS[quick]
    flooders: list[Hinter] = []
    try:
        her = await Hinter.sit(port, "Aino", PLAYER, "medium", THINK[quick])
        assert her is not None, "the real player's table was refused"
        with trio.fail_after(60 + 15 * count):
            await her.play(count)
        calm = list(her.times)
        tables_refused = 0
        for a in range(FLOOD[quick]):
            for t in range(20):  # until the address is refused a hint table
                hinter = await Hinter.sit(port, f"Flood{a}x{t}", f"127.0.0.{A_HINTS + a}", "easy")
                if hinter is None:
                    tables_refused += 1
                    break
                flooders.append(hinter)
        async with trio.open_nursery() as nursery:
            for hinter in flooders:
                nursery.start_soon(hinter.play, None)
            # She plays on meanwhile (a connection silent for 30 s is dropped as idle).
            with trio.fail_after(120 + 15 * (count + WARM[quick])):
                await her.play(WARM[quick])
                her.times.clear()
                await her.play(count)
            nursery.cancel_scope.cancel()
    finally:
        for hinter in flooders:
            await hinter.client.aclose()
        await stop(process)
    ms = lambda values: round(statistics.median(values) * 1e3, 1)  # noqa: E731
    refused: dict[str, int] = {}
    for hinter in flooders:
        for code, n in hinter.refused.items():
            refused[code] = refused.get(code, 0) + n
    return {
        "hint_p50_calm_ms": ms(calm),
        "hint_p50_under_flood_ms": ms(her.times),
        "hint_max_under_flood_ms": round(max(her.times) * 1e3, 1),
        "hint_flood_addresses": FLOOD[quick],
        "hint_flood_tables": len(flooders),
        "hint_flood_answered": sum(len(h.times) for h in flooders),
        "hint_flood_refused": refused.get("hints_too_fast", 0),
        "hint_flood_tables_refused": tables_refused,
        "hint_real_refused": sum(her.refused.values()),
    }


async def alone(quick: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sarja-bounds-") as folder:
        figures = await clock_tables(quick, Path(folder) / "clocks")
        return figures | await hints(quick, Path(folder) / "hints")


if __name__ == "__main__":
    # Alone, as every bench does: its figures as one JSON object, the last line.
    print(json.dumps(trio.run(alone, "--quick" in sys.argv)))
