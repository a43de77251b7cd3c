"""Attacks on the table limit, for bench/hostile.py: each against a
`sarja-server` process of its own, started with a small `--max-tables` so that the
limit is reached in seconds, quick computers (`--computer-pace`) and a short
stand-in grace (`--hand-over-after`).

- The park race: a game its computers play for an absent person is parked when
  someone creates a table at the limit, and the person resumes it. Before
  the parked table's computer played on beside the copy the resume brought back, both
  wrote the same actions, and the journal's failure stopped the server.
  `park_race_stopped` is 1 if the server stopped (or stopped answering), else 0.
- The lockout: games the computer finishes while every person is away, as many as
  the limit; then a newcomer tries to create tables. `lockout_refused` counts the
  refusals (`too_many_tables`) of the newcomer's tries. One address may keep only a
  few tables where computers play (`too_many_computer_tables`), so the games come from
  as many loopback addresses as that takes, as a real attacker's would: each address
  makes games until it is refused, then the next one goes on; what the first was
  allowed is `lockout_per_address`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio
from support.dial import dial  # bench/support/
from support.processes import read_port, stop  # bench/support/

from sarja.protocol.client_session import ClientSession, message_of
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import CreateTable, Hello, ListTables, Ready

SERVER = str(Path(sys.executable).parent / "sarja-server")
HOST = "127.0.0.1"
STEP = 20.0  # seconds any one step may take before the bench calls it a failure
A_LOCKOUT = 70  # the lockout's games come from 127.0.0.70 on, one address after another


class Client:
    """One connection speaking the protocol through the one client session."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.session = ClientSession()
        self.received: list[Any] = []
        self.welcome: Any = None

    @classmethod
    async def connect(
        cls, port: int, name: str, resume: str | None = None, source: str | None = None
    ) -> Client:
        client = cls(await dial(port, source=source))
        await client.send(Hello(version=PROTOCOL_VERSION, name=name, resume=resume))
        client.welcome = await client.until("welcome")
        return client

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.session.send(msg))

    async def until(self, *kinds: str) -> Any:
        """The next message of one of `kinds` (pings answered on the way)."""
        with trio.fail_after(STEP):
            while True:
                msg = await self.next()
                if msg.TYPE in kinds:
                    return msg

    async def next(self) -> Any:
        """The next message, whatever it is (pings answered on the way)."""
        while (event := self.session.next_event()) is None:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError("the server closed the connection")
            self.session.receive_data(data)
        await self.stream.send_all(self.session.data_to_send())
        msg = message_of(event)
        self.received.append(msg)
        return msg

    async def aclose(self) -> None:
        await self.stream.aclose()


async def start(folder: Path, max_tables: int, pause: float, grace: float) -> tuple[Any, int]:
    command = [SERVER, "--host", HOST, "--port", "0", "--data-dir", str(folder),
               "--max-tables", str(max_tables), "--computer-pace", str(pause),
               "--hand-over-after", str(grace)]  # fmt: skip
    process = await trio.lowlevel.open_process(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    return process, await read_port(process)


async def game_left_to_computers(port: int, name: str, source: str | None = None) -> str:
    """A person (from `source`) starts a game against a computer that stands in for
    them, and goes: the person's resume token; the code it was refused with, prefixed
    "refused:", if the server made no table."""
    person = await Client.connect(port, name, source=source)
    await person.send(
        CreateTable(
            name=name, players=2, teams=2, computers=(None, "medium"),
            computer_takeover="medium",
        )
    )  # fmt: skip
    reply = await person.until("table", "error")
    if reply.TYPE == "error":
        await person.aclose()
        return f"refused:{reply.code}"
    await person.send(Ready(ready=True))
    await person.until("snapshot")
    await person.aclose()
    return str(person.welcome.resume)


async def create(port: int, name: str, stay: list[Client]) -> str:
    """ "table" or the refusal's code; the creator stays (in `stay`)."""
    client = await Client.connect(port, name)
    await client.send(CreateTable(name=name, players=2, teams=2))
    reply = await client.until("table", "error")
    stay.append(client)
    return "table" if reply.TYPE == "table" else str(reply.code)


async def answering(process: Any, port: int) -> bool:
    """Whether the server still runs and greets a newcomer."""
    if process.returncode is not None:
        return False
    try:
        probe = await Client.connect(port, "Probe")
        await probe.send(ListTables())
        await probe.until("tables")
        await probe.aclose()
    except (OSError, EOFError, trio.TooSlowError, trio.BrokenResourceError):
        return False
    return process.returncode is None


async def park_race(folder: Path, quick: bool) -> dict[str, Any]:
    limit = 3 if quick else 50
    process, port = await start(folder, limit, pause=0.2, grace=1.0)
    here: list[Client] = []
    try:
        token = await game_left_to_computers(port, "Aino")
        await trio.sleep(2)  # the grace is over: the computers play both seats
        for n in range(limit):  # the last one finds the limit and parks Aino's game
            await create(port, f"Filler {n}", here)
        back = await Client.connect(port, "Aino", resume=token)
        await back.until("snapshot")
        here.append(back)
        watch_until = time.monotonic() + (3 if quick else 20)
        while time.monotonic() < watch_until and process.returncode is None:
            with trio.move_on_after(1):
                await back.until("update")
        stopped = not await answering(process, port)
    except (OSError, EOFError, trio.TooSlowError, trio.BrokenResourceError):
        stopped = True
    finally:
        for client in here:
            await client.aclose()
        await stop(process)
    return {"park_race_stopped": int(stopped), "park_race_limit": limit}


async def lockout(folder: Path, quick: bool) -> dict[str, Any]:
    limit = 3 if quick else 100
    process, port = await start(folder, limit, pause=0.0, grace=0.5)
    here: list[Client] = []
    began = time.monotonic()
    per_address: int | None = None
    try:
        where, here_made, n = A_LOCKOUT, 0, 0
        while n < limit:
            made = await game_left_to_computers(port, f"Gone {n}", f"127.0.0.{where}")
            if not made.startswith("refused:"):
                n, here_made = n + 1, here_made + 1
                continue
            if here_made == 0 or where == 255:
                raise RuntimeError(f"a fresh address's game was refused: {made}")
            per_address = here_made if per_address is None else per_address
            where, here_made = where + 1, 0  # the attacker's next address
        # The computers finish every game for the absent people.
        probe = await Client.connect(port, "Watcher")
        here.append(probe)
        deadline = time.monotonic() + (90 if quick else 600)
        while time.monotonic() < deadline:
            await probe.send(ListTables())
            tables = (await probe.until("tables")).tables
            if not any(t.started for t in tables):
                break
            await trio.sleep(1)
        played = time.monotonic() - began
        tries = [await create(port, f"Newcomer {n}", here) for n in range(3)]
        refused = sum(t == "too_many_tables" for t in tries)
    finally:
        for client in here:
            await client.aclose()
        await stop(process)
    return {
        "lockout_refused": refused,
        "lockout_games": limit,
        "lockout_per_address": per_address,  # None: one address made every game
        "lockout_play_s": round(played, 1),
    }


async def table_limit_attacks(quick: bool, folder: Path) -> dict[str, Any]:
    figures = await park_race(folder / "race", quick)
    figures |= await lockout(folder / "lockout", quick)
    return figures


async def alone(quick: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sarja-tables-") as folder:
        return await table_limit_attacks(quick, Path(folder))


if __name__ == "__main__":
    # Alone, as every bench does: its figures as one JSON object, the last line.
    print(json.dumps(trio.run(alone, "--quick" in sys.argv)))
