"""Crash test: games survive the server being killed at any moment.

Run: python bench/crash.py   (about ten minutes; --quick for a few seconds, as the test
suite runs it). Scripted players play games at several tables against the real
`sarja-server` process, on 127.0.0.1 only. The server is killed at random moments --
SIGKILL mostly, SIGTERM sometimes -- and started again on the same data directory;
the players reconnect with the tokens they hold and play on. They also ask for
rematches, and some leave the table mid-game and come back, so kills land during table
creation, rematches and departures too.

Each player keeps every acknowledgement it received. After the last stop the journal
is read: every acknowledged action must be in it, in order, exactly once. (A finished
game whose record is written leaves the journal: its actions are read from its record
file instead, which has no action ids; there each seat's acknowledged actions must be
the record's actions of that seat, in order, one for one.) A player
whose action was not acknowledged before a kill sends it again with the same id once
it is back: the server either answers with the first acknowledgement (it was kept) or
applies it now -- never twice.

The last line is one JSON object: kills, games, games_resumed, acked_lost (must be 0),
applied_twice (must be 0), and more.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from support.dial import dial  # bench/support/

from sarja.protocol import messages
from sarja.protocol.client_session import ClientSession, Event
from sarja.protocol.errors import ProtocolError
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.moves import action_message
from sarja.server.journal import FILE_NAME, Journal

SERVER = [sys.executable, "-c", "from sarja.server.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """The real sarja-server, started and stopped again and again on one data dir."""

    def __init__(self, port: int, data_dir: Path) -> None:
        self.port, self.data_dir = port, data_dir
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.logs = Path(tempfile.mkdtemp(prefix="sarja-crash-logs-"))
        self.log = self.logs / "server.log"

    def tracebacks(self) -> list[str]:
        """What the server logged as errors, every run."""
        found = []
        for log in sorted(self.logs.iterdir()):
            text = log.read_text(errors="replace")
            if "Traceback" in text or "ERROR" in text or "CRITICAL" in text:
                found.append(f"{log.name}:\n{text}")
        return found

    async def start(self) -> None:
        command = [*SERVER, "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--data-dir", str(self.data_dir), "--log-level", "error"]
        for attempt in range(50):  # the port may linger a moment after a kill
            self.log = self.logs / f"server-{self.starts + 1}-{attempt}.log"
            with open(self.log, "wb") as log:
                self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log)
            line = await trio.to_thread.run_sync(self.process.stdout.readline)  # type: ignore[union-attr]
            if b"listening" in line:
                self.starts += 1
                return
            self.process.wait()
            error = self.log.read_text()
            if "in use" not in error:
                raise RuntimeError(f"the server did not start: {error}")
            await trio.sleep(0.1 * (attempt + 1))
        raise RuntimeError("the port stayed in use")

    async def stop(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)
        await trio.to_thread.run_sync(self.process.wait)
        if self.process.stdout:
            self.process.stdout.close()


@dataclass
class Plan:
    """One table: who plays there, and how many games they still want."""

    number: int
    players: int
    table_id: str | None = None
    stopping: bool = False  # finish the game in hand, then leave


@dataclass
class Ack_:
    table: str
    seat: int
    id: int
    action: str
    version: int
    run: int  # which run of the server acknowledged it


@dataclass
class Player:
    name: str
    plan: Plan
    creator: bool
    rng: random.Random
    token: str | None = None
    # The protocol's side, kept across connections as a client keeps it: the game,
    # action ids above every one the server holds.
    session: ClientSession = field(default_factory=ClientSession)
    pending: tuple[int, str] | None = None  # sent, not yet answered
    acks: list[Ack_] = field(default_factory=list)
    done: bool = False
    unknown_resume: int = 0
    errors: list[str] = field(default_factory=list)

    async def run(self, server: ServerProcess, leave_rate: float) -> None:
        while not self.done:
            try:
                stream = await dial(server.port)
            except OSError:
                await trio.sleep(0.05)
                continue
            try:
                async with stream:
                    await Connection(self, stream, server, leave_rate).run()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError, EOFError):
                pass
            except ProtocolError:
                pass  # a frame cut by a kill
            if not self.done:
                await trio.sleep(0.02)


class Connection:
    """One connection of one player, on the player's client session."""

    def __init__(
        self, player: Player, stream: trio.SocketStream, server: ServerProcess, leave_rate: float
    ) -> None:
        self.p, self.stream, self.server, self.leave_rate = player, stream, server, leave_rate
        self.session = player.session
        self.session.connect()
        self.rematch_asked = -1
        self.left = False

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.session.send(msg))

    async def run(self) -> None:
        await self.send(
            messages.Hello(version=PROTOCOL_VERSION, name=self.p.name, resume=self.p.token)
        )
        while not self.p.done:
            data = await self.stream.receive_some(65536)
            if not data:
                raise EOFError
            self.session.receive_data(data)
            while (event := self.session.next_event()) is not None:
                await self.handle(event)
                await self.stream.send_all(self.session.data_to_send())  # pongs, syncs

    async def handle(self, msg: Event) -> None:
        """One message, once the session took it in (gaps and pings are its own)."""
        p = self.p
        if isinstance(msg, messages.Welcome):
            p.token = msg.resume
            # Lobby or table? `list_tables` is refused at a table, answered in the lobby.
            await self.send(messages.ListTables())
        elif isinstance(msg, messages.TableList):
            await self.from_the_lobby()
        elif isinstance(msg, messages.TableView):
            if self.p.plan.table_id is None:
                self.p.plan.table_id = msg.id
            if msg.seat is not None and not msg.started and not msg.seats[msg.seat].ready:
                await self.send(messages.Ready(ready=True))
        elif isinstance(msg, messages.Snapshot):
            if p.pending is not None:  # not answered before the connection went: again
                action_id, notation = p.pending
                await self.send(action_message(notation, action_id, msg.version))
            await self.after_change()
        elif isinstance(msg, messages.Update | messages.Hand | messages.Legal):
            await self.after_change()
        elif isinstance(msg, messages.Ack):
            table, game = self.session.table, self.session.game
            assert table is not None and game is not None and game.seat is not None
            if p.pending is not None and p.pending[0] == msg.id:
                seat, run = game.seat, self.server.starts
                p.acks.append(Ack_(table.id, seat, msg.id, p.pending[1], msg.version, run))
                p.pending = None
        elif isinstance(msg, messages.Error):
            if msg.code == "unknown_resume":
                p.unknown_resume += 1
                p.token = None
                await self.send(messages.Hello(version=PROTOCOL_VERSION, name=p.name))
            elif p.pending is not None and msg.id == p.pending[0]:
                p.pending = None  # refused (stale after a restart): choose again
            elif msg.code not in ("wrong_state", "stale_version", "seat_held"):
                p.errors.append(f"{p.name}: {msg}")
                if msg.fatal:
                    raise EOFError

    async def from_the_lobby(self) -> None:
        p, plan = self.p, self.p.plan
        if plan.table_id is None:
            if p.creator:
                teams = plan.players if plan.players <= 3 else 2
                name = f"Crash {plan.number}"
                await self.send(messages.CreateTable(name=name, players=plan.players, teams=teams))
            else:
                await trio.sleep(0.05)
                await self.send(messages.ListTables())
            return
        await self.send(messages.Join(table=plan.table_id))

    async def after_change(self) -> None:
        p, m, plan = self.p, self.session.game, self.p.plan
        assert m is not None
        if m.result is not None:
            if plan.stopping:
                p.done = True
                await self.send(messages.Leave())
            elif self.rematch_asked != m.version:
                self.rematch_asked = m.version
                await self.send(messages.Rematch())
            return
        if not m.legal or p.pending is not None:
            return
        if not self.left and p.rng.random() < self.leave_rate:
            self.left = True  # leave mid-game, seat kept; come back through the lobby
            await self.send(messages.Leave())
            return
        notation = p.rng.choice(m.legal)
        action = self.session.action(notation)
        p.pending = (action.id, notation)
        await self.send(action)


async def killer(server: ServerProcess, kills: list[int], target: int, rng: random.Random) -> None:
    """Kill and restart the server at random moments until `target` kills."""
    while len(kills) < target:
        await trio.sleep(rng.uniform(0.05, 0.5))
        sig = signal.SIGTERM if rng.random() < 0.1 else signal.SIGKILL
        await server.stop(sig)
        kills.append(sig)
        await trio.sleep(rng.uniform(0, 0.1))
        await server.start()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few kills, a few seconds")
    parser.add_argument("--kills", type=int, default=None, help="how many times to kill")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    target = args.kills or (4 if args.quick else 120)
    tables = (2, 2) if args.quick else (2, 2, 2, 4, 2, 4)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="sarja-crash-") as folder:
        data_dir = Path(folder)
        started = time.monotonic()
        results = trio.run(run, data_dir, target, tables, rng, args.quick)
        results["seconds"] = round(time.monotonic() - started, 1)
    r = results
    print(f"kills {r['kills']} (SIGTERM {r['sigterms']}), restarts {r['restarts']}")
    print(f"games finished {r['games']}, {r['games_resumed']} of them resumed after a kill")
    print(f"acknowledged actions {r['acked']}: lost {r['acked_lost']}, twice {r['applied_twice']}")
    print(f"kept but never acknowledged {r['kept_unacked']}; unfinished games {r['unfinished']}")
    print(f"tokens not known after a restart {r['unknown_resume']}; {r['seconds']} s")
    print(json.dumps(results))


async def run(
    data_dir: Path, target: int, tables: tuple[int, ...], rng: random.Random, quick: bool
) -> dict[str, Any]:
    server = ServerProcess(free_port(), data_dir)
    await server.start()
    plans = [Plan(i + 1, n) for i, n in enumerate(tables)]
    players = [
        Player(f"P{plan.number}-{s}", plan, s == 0, random.Random(rng.random()))
        for plan in plans
        for s in range(plan.players)
    ]
    kills: list[int] = []
    # A hang guard, not a timing: a quick run takes some 10 s alone, several times
    # that on a busy machine running the test suite two at a time.
    try:
        with trio.fail_after(240 if quick else 780):
            async with trio.open_nursery() as nursery:
                for player in players:
                    nursery.start_soon(player.run, server, 0.002)
                await killer(server, kills, target, rng)
                for plan in plans:
                    plan.stopping = True
                while not all(p.done for p in players):
                    await trio.sleep(0.05)
                nursery.cancel_scope.cancel()
    finally:  # a run that failed leaves no server behind
        with trio.CancelScope(shield=True):
            await server.stop(signal.SIGTERM)
    results = check(data_dir, players, kills, server.starts)
    errors = [e for p in players for e in p.errors]
    logged = server.tracebacks()
    for text in (errors + logged)[:5]:
        print(text[-3000:], file=sys.stderr)
    results["errors"] = len(errors)
    results["server_errors_logged"] = len(logged)
    return results


def check(data_dir: Path, players: list[Player], kills: list[int], starts: int) -> dict[str, Any]:
    journal = Journal(data_dir / FILE_NAME)
    try:
        games = journal.games()
        held = {(table_id, number) for table_id, number, _, _ in games}
        archived = sorted(
            (r.table_id, r.game, r.record) for r in journal.results()
            if (r.table_id, r.game) not in held
        )  # fmt: skip
        kept: dict[tuple[str, int, int], tuple[str, int]] = {}
        game_of: dict[tuple[str, int, int], tuple[str, int]] = {}
        twice = 0
        finished = unfinished = 0
        for table_id, number, _, done in games:
            table = journal.table(table_id, number)
            assert table is not None and table.game is not None
            seen: Counter[tuple[int, int]] = Counter()
            for a in table.game.actions:
                if a.action_id is not None:
                    seen[(a.seat, a.action_id)] += 1
                    kept[(table_id, a.seat, a.action_id)] = (a.action, a.version)
                    game_of[(table_id, a.seat, a.action_id)] = (table_id, number)
            twice += sum(n - 1 for n in seen.values() if n > 1)
            finished += done
            unfinished += not done and bool(table.game.actions)
    finally:
        journal.close()
    # The games the journal let go: each seat's actions, in order, from the records.
    recorded: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for table_id, number, record in archived:
        assert record is not None, f"game {number} of {table_id}: no record"
        data = json.loads((data_dir / "records" / record).read_text("utf-8"))
        for seat, notation in data["actions"]:
            recorded.setdefault((table_id, seat), []).append((notation, number))
        finished += 1
    acks = [a for p in players for a in p.acks]
    lost = sum(kept.get((a.table, a.seat, a.id)) != (a.action, a.version) for a in acks)
    # Kept but never acknowledged: every player resends what it was not told of, so
    # once all have finished, nothing kept should be unknown to its player.
    unacked = len(kept.keys() - {(a.table, a.seat, a.id) for a in acks})
    # Acknowledged but not in the journal: in a record, or lost.
    elsewhere: dict[tuple[str, int], list[Ack_]] = {}
    for a in acks:
        if (a.table, a.seat, a.id) not in kept:
            elsewhere.setdefault((a.table, a.seat), []).append(a)
    lost -= sum(len(v) for v in elsewhere.values())
    for key in recorded.keys() | elsewhere.keys():
        there, told = recorded.get(key, []), elsewhere.get(key, [])
        matched = 0
        for (notation, number), a in zip(there, told, strict=False):
            if notation != a.action:
                break
            matched += 1
            game_of[(a.table, a.seat, a.id)] = (a.table, number)
        lost += len(told) - matched
        unacked += len(there) - matched
    runs: dict[tuple[str, int], set[int]] = {}
    for a in acks:
        game = game_of.get((a.table, a.seat, a.id))
        if game is not None:
            runs.setdefault(game, set()).add(a.run)
    resumed = sum(len(r) > 1 for r in runs.values())
    return {
        "kills": len(kills),
        "sigterms": sum(1 for k in kills if k == signal.SIGTERM),
        "restarts": starts - 1,
        "games": finished,
        "games_resumed": resumed,
        "acked": len(acks),
        "acked_lost": lost,
        "applied_twice": twice,
        "unfinished": unfinished,
        "kept_unacked": unacked,
        "unknown_resume": sum(p.unknown_resume for p in players),
    }


if __name__ == "__main__":
    main()
