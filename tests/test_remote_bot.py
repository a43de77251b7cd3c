"""`sarja-bot`: the engine's view rebuilt from what the server sends a seat, bot
processes playing whole games against a real `sarja-server` process (and taking
their seats back when it is killed and started again), what a bot says while it waits
or when its server is gone, and in which language."""

from __future__ import annotations

import dataclasses
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from sarja import lang
from sarja.client.bot import RemoteBot, parse_args, plays_in, seat_view_of
from sarja.protocol import examples
from sarja.protocol.messages import (
    Bye,
    ClientMessage,
    CreateTable,
    Join,
    Leave,
    ListTables,
    Ready,
    Resume,
    TableList,
)
from sarja.protocol.mirror import GameMirror
from sarja.protocol.session import SessionState
from sarja.server.app import serve
from sarja.server.bots import make_player
from sarja.server.config import ServerConfig
from sarja.server.engine import Arrangement, Game, seat_view
from sarja.server.present import snapshot, update

from .netclient import PATIENCE, NetClient
from .test_server_process import read_lines_until

BIN = Path(sys.executable).parent
SAME = (
    "seat", "sides", "needed", "hand_size", "manual_draw", "seat_sides", "hand", "targets",
    "dead", "held", "board", "discard", "draw_size", "sequences", "turn", "first", "cut",
    "legal", "exchanged", "pending_draw", "passes",
)  # fmt: skip


@pytest.mark.parametrize(
    "players, teams, manual", [(2, None, False), (3, None, True), (4, 2, False), (6, 3, True)]
)
def test_the_view_a_bot_builds_from_the_wire_is_the_servers(players, teams, manual):
    """Every field a player decides on is what the server's own `seat_view` says, in
    random positions of whole games (the protocol's version, `last` without draws and
    the choices' shape aside)."""
    from sarja.server.engine import HouseRules

    rng = random.Random(players)
    arrangement = Arrangement.of(players, teams, HouseRules(None, manual))
    for _ in range(3):
        game = Game.new(arrangement, rng)
        names = [f"P{i}" for i in range(players)]
        while game.outcome is None:
            for seat in dict.fromkeys((game.turn, *game.pending_draw)):
                snap = snapshot("t1", 1, game, seat, names, [False] * players, None)
                mine, theirs = seat_view_of(GameMirror(snap)), seat_view(game, seat)
                for name in SAME:
                    assert getattr(mine, name) == getattr(theirs, name), name
                options = {cell: lines for cell, lines in theirs.choices}
                assert {cell for cell, _ in mine.choices} == set(options)
                if mine.legal:
                    assert make_player("medium", seed=1).choose(mine) in theirs.legal
            mover = rng.choice([game.turn, *game.pending_draw])
            game.apply(mover, rng.choice(game.legal_actions(mover)))


@pytest.mark.parametrize("players, teams", [(2, None), (3, None), (4, 2)])
def test_the_history_a_bot_gathers_from_updates_is_the_engines(players, teams):
    """The plays and exchanges told in the updates, in order, are the engine's own
    (chosen fives aside): what hard reads the other hands from at the server is what
    a `sarja-bot` reads from the wire."""
    from sarja.server.engine.actions import EXCHANGE, PLACE, REMOVE

    rng = random.Random(players)
    game = Game.new(Arrangement.of(players, teams), rng)
    gathered: list = []
    while game.outcome is None:
        seat = game.turn
        events = game.apply(seat, rng.choice(game.legal_actions(seat)))
        gathered += plays_in(update(len(game.history), game, tuple(events)).changes)
    expected = [
        (s, a._replace(fives=())) for s, a in game.history if a.kind in (PLACE, REMOVE, EXCHANGE)
    ]
    assert gathered == expected
    assert any(a.kind == REMOVE for _, a in gathered)
    snap = snapshot("t1", 1, game, 0, [f"P{i}" for i in range(players)], [False] * players, None)
    assert seat_view_of(GameMirror(snap), tuple(gathered)).history == tuple(gathered)


def test_the_command_line():
    args = parse_args(["[::1]:7474", "--level", "hard", "--table", "Friday"])
    assert (args.host, args.port, args.level, args.table, args.name) == (
        "::1",
        7474,
        "hard",
        "Friday",
        "Hard bot",
    )
    with pytest.raises(SystemExit):
        parse_args(["nowhere"])


def command(name: str) -> list[str]:
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"sarja-server": "sarja.server.cli", "sarja-bot": "sarja.client.bot"}[name]
    return [sys.executable, "-m", module]


@pytest.fixture
def address():
    """A real `sarja-server` process on 127.0.0.1 that keeps nothing."""
    server = subprocess.Popen(
        [*command("sarja-server"), "--host", "127.0.0.1", "--port", "0", "--ephemeral"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    try:
        for line in server.stdout:
            if "sarja-client 127.0.0.1:" in line:
                yield line.split()[-1]
                break
        else:
            raise AssertionError("the server did not say where to connect")
    finally:
        server.terminate()
        server.wait(10)


def bot(address: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*command("sarja-bot"), address, *args], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip


def finish(*bots: subprocess.Popen[str], timeout: float = 240) -> list[str]:
    deadline = time.monotonic() + timeout
    outputs = []
    for b in bots:
        try:
            out, _ = b.communicate(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            b.kill()
            out, _ = b.communicate()
            raise AssertionError(f"a bot did not finish:\n{out}") from None
        outputs.append(out)
        assert b.returncode == 0, out
    return outputs


def test_two_bot_processes_play_whole_games_against_each_other(address):
    """One creates the table it is told to; the other, told nothing, takes the first
    free seat. They play two games (asking each other for a rematch), then leave."""
    host = bot(address, "--level", "hard", "--think-time", "0.05", "--table", "Duel",
               "--games", "2", "--seed", "1")  # fmt: skip
    time.sleep(0.5)  # the table is there before the second one looks
    guest = bot(address, "--level", "easy", "--name", "Easy one", "--games", "2", "--seed", "2")
    first, second = finish(host, guest)
    assert "Hard bot: played 2:" in first and "Easy one: played 2:" in second
    results = [line.rsplit(": ", 1)[1] for line in (first + second).splitlines() if ": game " in
               line]  # fmt: skip
    assert len(results) == 4 and results.count("won") == results.count("lost")


async def test_a_sarja_bot_seat_reads_as_a_computers(nursery):
    """The people at the table saw a `sarja-bot` seat as a person's
    ("Hard bot"); its `hello` now says it is a computer, and the table shows it."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    person = await NetClient.connect(server.port, "Aino")
    await person.send(CreateTable(name="Friday", players=2, teams=2))
    await person.expect("table")
    bot = await NetClient.connect(server.port, "Hard bot", computer="hard")
    await bot.send(Join(table=person.table.id))
    await bot.expect("table")
    while person.table.seats[1].name is None:
        await person.expect("table")
    assert person.table.seats[1].computer == "hard"
    assert person.table.seats[0].computer is None
    passer_by = await NetClient.connect(server.port, "Bertil")
    await passer_by.send(ListTables())
    listed = (await passer_by.expect("tables")).tables[0]
    assert listed.computers == (None, "hard")


def test_table_finds_its_table_by_the_same_name_key_as_the_server_s():
    # `--table friday` looked for a table called exactly "friday": it made a second
    # table beside Friday, which the people meant.
    found = []
    for wanted, listed in (
        ("friday", examples.FRIDAY),
        ("ＦＲＩＤＡＹ", examples.FRIDAY),
        ("Fr\u0456d\u0430y", examples.FRIDAY),  # Cyrillic i and a
        ("friday", dataclasses.replace(examples.FRIDAY, seated=("Aino", "Bertil"))),  # full
        ("Saturday", examples.FRIDAY),
    ):
        bot = RemoteBot("127.0.0.1", 0, "easy", "Botti", table=wanted)
        sent: list[ClientMessage] = []
        bot.send = sent.append  # type: ignore[method-assign]
        bot.find_seat(TableList(tables=(listed,)))
        found.append(sent)
    assert found == [
        [Join(table="t1")],
        [Join(table="t1")],
        [Join(table="t1")],
        [],  # Friday's, full: it waits for a seat there, as for the exact name
        [CreateTable(name="Saturday", players=2, teams=2)],
    ]


class Heard:
    """What an in-process bot said, and its exit status, to wait on (never the clock)."""

    def __init__(self, bot: RemoteBot) -> None:
        self.bot = bot
        self.said: list[str] = []
        self.complained: list[str] = []
        self.status: int | None = None
        self._changed = trio.Event()
        bot.say, bot.complain = self._noting(self.said), self._noting(self.complained)

    def _noting(self, lines: list[str]) -> Callable[[str], None]:
        def note(line: str) -> None:
            lines.append(line)
            self._wake()

        return note

    def _wake(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    async def run(self) -> None:
        self.status = await self.bot.run()
        self._wake()

    async def until(self, holds: Callable[[], object]) -> None:
        """Wait until `holds()`, looked at again after each line the bot says."""
        with trio.fail_after(PATIENCE):  # a hang guard only
            while not holds():
                await self._changed.wait()


async def test_table_at_a_full_table_says_once_that_it_waits_for_a_seat(nursery):
    # `sarja-bot --table Friday` at a table with no free seat said nothing at all.
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=2, teams=2))
    table = (await aino.expect("table")).id
    bertil = await NetClient.connect(server.port, "Bertil")
    await bertil.send(Join(table=table))
    await bertil.expect("table")
    heard = Heard(RemoteBot("127.0.0.1", server.port, "easy", "Botti", table="friday"))
    nursery.start_soon(heard.run)
    await heard.until(lambda: heard.said)
    assert heard.said == ["waiting for a free seat at Friday"]
    # The lobby changes (a table made elsewhere): everyone there is sent the list,
    # and the bot says nothing more. Dora, in the lobby too, sees when it is sent.
    dora = await NetClient.connect(server.port, "Dora")
    await dora.send(ListTables())
    await dora.expect("tables")
    cecilia = await NetClient.connect(server.port, "Cecilia")
    await cecilia.send(CreateTable(name="Saturday", players=2, teams=2))
    while len((await dora.expect("tables")).tables) < 2:
        pass
    # Bertil leaves: the bot takes the seat, having taken in every list before.
    await bertil.send(Leave())
    while aino.table.seats[1].name != "Botti":
        await aino.expect("table")
    assert heard.said == ["waiting for a free seat at Friday"]


async def gone_for_good(make: Callable[[int], RemoteBot]) -> Heard:
    """Run a bot (`make(port)`) against a server of its own until it waits in the
    lobby; then stop the server for good and wait for the bot to give up."""
    async with trio.open_nursery() as nursery:
        async with trio.open_nursery() as serving:
            server = await serving.start(serve, ServerConfig(host="127.0.0.1", port=0))
            heard = Heard(make(server.port))
            nursery.start_soon(heard.run)
            await heard.until(lambda: heard.said)  # it waits for a table
            # As if it crashed: no goodbye; its port is closed before the bot hears of it.
            serving.cancel_scope.cancel()
        await heard.until(lambda: heard.status is not None)
    return heard


async def test_a_bot_whose_server_is_gone_for_good_gives_up_after_its_tries():
    # sarja-bot stopped at the first drop (a server restarting lost its bots); it now
    # connects again, as the client does, but not for ever.
    heard = await gone_for_good(
        lambda port: RemoteBot("127.0.0.1", port, "easy", "Botti", backoff=(0.01,), tries=3)
    )
    assert heard.status == 1
    assert heard.said == [
        "waiting for a table with a free seat",
        "the connection dropped (the server closed it); connecting again",
    ]
    address = f"127.0.0.1:{heard.bot.port}"
    assert heard.complained == [
        f"gave up after 3 tries to connect to {address} again (connection refused)"
    ]
    assert heard.bot.link.connections == 1  # the three tries found no server


async def test_a_finnish_bot_s_name_and_lines_are_finnish():
    # `sarja-bot --lang fi` was "Hard bot", and its last line when the server stopped
    # "palvelin sulki yhteyden: The server is shutting down.": the wire's sentence.
    lang.use("fi")
    assert parse_args(["127.0.0.1:7474", "--level", "hard"]).name == "Vaikea botti"
    assert parse_args(["127.0.0.1:7474"]).name == "Keskitasoinen botti"
    bot = RemoteBot("127.0.0.1", 7474, "easy", "Helppo botti")
    said: list[str] = []
    bot.say = said.append
    bot.take(Bye(code="shutdown", message="The server is shutting down."), SessionState.LOBBY)
    bot._on_link("reconnecting", "…")  # as the link tells of the drop
    assert said == ["palvelin sulki yhteyden: Palvelin sammuu. Yhdistää uudelleen."]
    heard = await gone_for_good(
        lambda port: RemoteBot("127.0.0.1", port, "easy", "Helppo botti", backoff=(0.01,), tries=1)
    )
    assert heard.said + heard.complained == [
        "odottaa pöytää, jossa on vapaa paikka",
        "yhteys katkesi (palvelin sulki sen); yhdistää uudelleen",
        f"luovutti 1 yrityksen jälkeen: ei yhteyttä osoitteeseen 127.0.0.1:{heard.bot.port}"
        " (yhteys torjuttiin)",
    ]


class Output:
    """A process's lines as they come, to wait on."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self.done = False  # it may exit now

    async def read(self) -> None:
        buffer = b""
        assert self.process.stdout is not None
        async for chunk in self.process.stdout:
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            self.lines += [line.decode() for line in lines]
        await self.process.wait()
        if not self.done:
            raise AssertionError("a bot stopped early:\n" + "\n".join(self.lines))


LISTENING = re.compile(r"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$")


async def start_server(data: Path, port: int = 0) -> tuple[trio.Process, int]:
    """A real `sarja-server` on 127.0.0.1, keeping its journal in `data`."""
    server = await trio.lowlevel.open_process(
        [*command("sarja-server"), "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    assert server.stdout is not None
    listening = await read_lines_until(server.stdout, LISTENING, [])
    return server, int(listening.group(1))


async def kill(server: trio.Process) -> None:
    server.kill()  # SIGKILL: the server says goodbye to no one
    await server.wait()


async def test_bots_take_their_seats_back_after_the_server_is_killed_and_restarted(tmp_path):
    """Two bots make a waiting room for three; the server is killed (-9) and started
    again on its data directory and port. The bots exited at the drop, so the room
    waited for ever for their seats; now they take them back, Aino sits down and the
    game starts. Killed again in the middle of the game, with Aino to move: the bots
    come back once more and play the game out with her."""
    async with trio.open_nursery() as nursery:
        server, port = await start_server(tmp_path)
        try:
            bots = []
            for name, seed in (("Easy bot", "1"), ("Other bot", "2")):
                process = await trio.lowlevel.open_process(
                    [*command("sarja-bot"), f"127.0.0.1:{port}", "--table", "Trio",
                     "--players", "3", "--level", "easy", "--name", name, "--seed", seed],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                )  # fmt: skip
                bots.append(Output(process))
                nursery.start_soon(bots[-1].read)
            aino = await NetClient.connect(port, "Aino")
            await aino.send(ListTables())
            while not any(t.name == "Trio" and t.seated.count(None) == 1
                          for t in (await aino.expect("tables")).tables):  # fmt: skip
                pass
            await aino.aclose()

            await kill(server)
            server, _ = await start_server(tmp_path, port)
            aino = await NetClient.connect(port, "Aino")
            await aino.send(ListTables())
            [table] = [t.id for t in (await aino.expect("tables")).tables if t.name == "Trio"]
            await aino.send(Join(table=table))
            await aino.expect("table")
            await aino.send(Ready(ready=True))
            await aino.expect("snapshot")  # both bots are back, and ready
            moved = await play(aino, moves=1)  # then, her turn again: the game waits on her
            assert moved == 1 and aino.state is not None and aino.state.result is None

            await kill(server)
            server, _ = await start_server(tmp_path, port)
            aino = await NetClient.connect(port, "Aino", resume=aino.welcome.resume)
            for b in bots:
                b.done = True  # from here on they may finish
            await play(aino)
            assert aino.state is not None and aino.state.result is not None
            with trio.fail_after(PATIENCE):
                for b in bots:
                    assert await b.process.wait() == 0
        finally:
            if server.returncode is None:
                await kill(server)
            for b in bots:
                if b.process.returncode is None:
                    b.done = True
                    b.process.kill()
    for b in bots:
        said = "\n".join(b.lines)
        assert said.count("connected again") == 2, said
        assert "played 1:" in said, said


async def test_a_bot_s_seat_still_reads_as_a_computer_s_after_a_restart(tmp_path):
    """A bot's seat read "Easy bot (bot, easy)" in the waiting room, but after a kill -9
    and a restart only "Easy bot": the guest the journal brought back knew nothing of
    its `hello`, and the bot's `resume` (after a fresh hello, as client/resume.py does)
    took that guest back as it was."""
    server, port = await start_server(tmp_path)
    try:
        aino = await NetClient.connect(port, "Aino")
        await aino.send(CreateTable(name="Friday", players=2, teams=2))
        table = (await aino.expect("table")).id
        bot = await NetClient.connect(port, "Easy bot", computer="easy")
        await bot.send(Join(table=table))
        await bot.expect("table")
        with trio.fail_after(PATIENCE):
            while aino.table.seats[1].name is None:
                await aino.expect("table")
        before = aino.table.seats[1]
        assert before.remote and before.computer == "easy"
        tokens = (aino.welcome.resume, bot.welcome.resume)

        await kill(server)
        server, _ = await start_server(tmp_path, port)
        aino = await NetClient.connect(port, "Aino", resume=tokens[0])
        await aino.expect("table")
        bot = await NetClient.connect(port, "Easy bot", computer="easy")
        await bot.send(Resume(token=tokens[1]))
        assert (await bot.expect("table")).seat == 1
        with trio.fail_after(PATIENCE):
            while aino.table.seats[1].away:
                await aino.expect("table")
        after = aino.table.seats[1]
        assert after.name == "Easy bot" and after.remote and after.computer == "easy"
    finally:
        if server.returncode is None:
            await kill(server)


async def test_a_bot_at_a_match_table_plays_the_match_out_then_leaves(nursery):
    """`sarja-bot --games 1` at a table playing first to 2 left after game 1 of the
    match, and the score went with it; it now plays the match out (`--games` counts
    matches there) and leaves once the match is decided, its result still shown."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=2))
    aino = await NetClient.connect(server.port, "Aino")
    await aino.send(CreateTable(name="Friday", players=2, teams=2, match_to=2))
    await aino.expect("table")
    heard = Heard(RemoteBot("127.0.0.1", server.port, "easy", "Botti", table="friday", seed=3))
    nursery.start_soon(heard.run)
    with trio.fail_after(PATIENCE):
        while aino.table.seats[1].name is None:
            await aino.expect("table")
    await aino.send(Ready(ready=True))
    games = 0
    while True:
        with trio.fail_after(PATIENCE):
            while aino.state is None or aino.state.result is not None:
                await aino.receive()
        await play(aino)
        games += 1
        with trio.fail_after(PATIENCE):
            while aino.table.match is None or len(aino.table.match.games) < games:
                await aino.receive()
        if aino.table.match.over:
            break
        # Between two games of the match: the bot stays, and is ready for the next.
        with trio.fail_after(PATIENCE):
            while aino.table.seats[1].name == "Botti" and not aino.table.seats[1].ready:
                await aino.receive()
        assert aino.table.seats[1].name == "Botti"
        await aino.send(Ready(ready=True))
    final = aino.table.match
    await heard.until(lambda: heard.status is not None)
    assert heard.status == 0
    with trio.fail_after(PATIENCE):
        while aino.table.seats[1].name is not None:
            await aino.receive()
    assert aino.table.match == final and final.winner is not None


async def play(client: NetClient, moves: int | None = None) -> int:
    """Play `client`'s seat (its first legal action each turn) until the game ends, or
    until its turn comes after `moves` moves; how many it made."""
    made, at = 0, -1
    with trio.fail_after(PATIENCE):
        while True:
            game = client.state
            if game is not None and game.result is not None:
                return made
            if game is not None and game.legal and game.version != at:
                if made == moves:
                    return made
                await client.send(client.action_message(game.legal[0]))
                made, at = made + 1, game.version
            await client.receive()
