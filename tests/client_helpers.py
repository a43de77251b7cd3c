"""Running real clients against a real server, headless, in one thread.

One asyncio loop (pytest's test is a plain function that calls `asyncio.run`) carries
the prompt_toolkit applications, each with a pipe for its keyboard and a dummy output of
80×24; one trio guest run on that loop carries the server on 127.0.0.1 port 0 and every
client's network link. The tests type keys into the pipes and look at each client's
model and at its screen as text.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import trio
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from sarja.client.app import ClientApp, GuestRun
from sarja.client.model import Model, choice_options, parse_action
from sarja.client.render import plain_text, screen_lines
from sarja.server.app import serve
from sarja.server.config import ServerConfig

KEYS = {
    "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "enter": "\r", "tab": "\t", "s-tab": "\x1b[Z", "backspace": "\x7f", "escape": "\x1b",
}  # fmt: skip


class SizedOutput(DummyOutput):
    """A dummy terminal of a chosen size (prompt_toolkit's says 80×40)."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


class TrioHost:
    """A trio guest run with a nursery the asyncio side can start tasks in."""

    def __init__(self) -> None:
        self._nursery: trio.Nursery | None = None
        self._ready = asyncio.Event()
        self.guest = GuestRun(self._main)

    async def _main(self) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self._token = trio.lowlevel.current_trio_token()
            self._ready.set()
            await trio.sleep_forever()

    async def start(self) -> None:
        self.guest.start()
        await self._ready.wait()

    def start_soon(self, fn: Callable[..., Any], *args: Any) -> None:
        assert self._nursery is not None
        self._token.run_sync_soon(self._nursery.start_soon, fn, *args)

    async def start_task(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Like `nursery.start`, awaited from asyncio: the value passed to `started`."""
        future = asyncio.get_running_loop().create_future()

        async def runner() -> None:
            assert self._nursery is not None
            value = await self._nursery.start(fn, *args)
            future.set_result(value)

        self.start_soon(runner)
        return await future


class Player:
    """A client app typed into through a pipe, its screen read as plain text."""

    def __init__(
        self,
        name: str,
        port: int,
        pipe: Any,
        columns: int = 80,
        rows: int = 24,
        named: bool = True,
        backoff: tuple[float, ...] = (0.05, 0.1, 0.2),
    ) -> None:
        self.name = name
        self.pipe = pipe
        self.model = Model(address=f"127.0.0.1:{port}", name=name, name_draft=name, named=named)
        self.remembered: list[str] = []
        self.tokens: list[tuple[str, str]] = []
        self.client = ClientApp(
            self.model,
            "127.0.0.1",
            port,
            input=pipe,
            output=SizedOutput(columns, rows),
            remember=self.remembered.append,
            remember_resume=lambda address, name, token: self.tokens.append((address, token)),
            recall_resume=lambda address, name: None,
            backoff=backoff,
        )
        self.client.app.ttimeoutlen = 0.02  # a lone Esc need not wait half a second

    def press(self, *keys: str) -> None:
        """Type keys: names from KEYS, or literal text."""
        self.pipe.send_text("".join(KEYS.get(k, k) for k in keys))

    def screen(self, columns: int = 80, rows: int = 24) -> str:
        return plain_text(screen_lines(self.model, columns, rows))

    async def wait(self, condition: Callable[[], Any], what: str = "", timeout: float = 10) -> Any:
        """Poll until `condition()` is true (the loop runs meanwhile)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not (value := condition()):
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(
                    f"{self.name}: timed out waiting for {what}\n{self.screen()}\n"
                    f"status={self.model.status!r} link={self.model.link}"
                )
            await asyncio.sleep(0.005)
        return value

    async def wait_version(self, version: int) -> None:
        await self.wait(
            lambda: self.model.state is not None and self.model.state.version >= version,
            f"version {version}",
        )


class Harness:
    def __init__(self, host: TrioHost, port: int, stack: contextlib.AsyncExitStack) -> None:
        self.host = host
        self.port = port
        self._stack = stack
        self.players: list[Player] = []
        self._tasks: list[asyncio.Task[Any]] = []

    async def player(
        self, name: str, columns: int = 80, rows: int = 24, resume: str | None = None
    ) -> Player:
        """A player at the lobby; or, with the `resume` token a client remembered
        from an earlier run, back wherever that token's seat is."""
        pipe = self._stack.enter_context(create_pipe_input())
        player = Player(name, self.port, pipe, columns, rows)
        player.model.resume = resume
        self.host.start_soon(player.client.link.run)
        self._tasks.append(asyncio.ensure_future(player.client.app.run_async()))
        self.players.append(player)
        where = "lobby" if resume is None else "game"
        await player.wait(lambda: player.model.phase.value == where, f"the {where}")
        return player


@contextlib.asynccontextmanager
async def harness(data_dir: Path, seed: int = 1) -> AsyncIterator[Harness]:
    host = TrioHost()
    await host.start()
    config = ServerConfig(host="127.0.0.1", port=0, seed=seed, data_dir=data_dir)
    server = await host.start_task(serve, config)
    async with contextlib.AsyncExitStack() as stack:
        h = Harness(host, server.port, stack)
        try:
            yield h
        finally:
            for player in h.players:
                if player.client.app.is_running:
                    player.client.app.exit()
            await asyncio.gather(*h._tasks, return_exceptions=True)
            await host.guest.stop()


# ----- what a person at the keyboard would do -----------------------------------------


def keys_to(model: Model, cell: tuple[int, int]) -> list[str]:
    """Arrow presses that move the cursor from where it is to `cell`."""
    r, c = model.cursor
    dr, dc = cell[0] - r, cell[1] - c
    return (["down"] * dr if dr > 0 else ["up"] * -dr) + (
        ["right"] * dc if dc > 0 else ["left"] * -dc
    )


def keys_for(model: Model, action: str) -> list[str]:
    """The keys that make `action` (in notation): pick its card, aim, confirm."""
    kind, card, cell = parse_action(action)
    if kind == "pass":
        return ["p"]
    if kind == "draw":
        return ["d"]
    index = model.hand.index(card)
    pick = str((index + 1) % 10)
    if kind == "dead":
        return [pick, "x"]
    assert cell is not None
    # Picking moves the cursor to the nearest space; aim from there.
    from sarja.client.intents import Intent, perform

    probe = Model(address="", welcome=model.welcome, state=model.state, cursor=model.cursor)
    perform(probe, Intent("pick", index))
    keys = [pick, *keys_to(probe, cell), "enter"]
    if len(choice_options(model, cell)) > 1:
        keys.append("2")  # the chooser opens: take the second way, to see it matter
    return keys


def line_score(board: str, cell: tuple[int, int], mine: str) -> int:
    """How much a chip at `cell` helps `mine` (a side letter): the best count of own
    chips and corners in any five through it that no opponent blocks."""
    best = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for back in range(5):
            r0, c0 = cell[0] - dr * back, cell[1] - dc * back
            cells = [(r0 + dr * i, c0 + dc * i) for i in range(5)]
            if not all(0 <= r < 10 and 0 <= c < 10 for r, c in cells):
                continue
            marks = [board[r * 10 + c] for r, c in cells]
            if any(x not in (".", "*") and x.lower() != mine for x in marks):
                continue
            best = max(best, sum(x == "*" or x.lower() == mine for x in marks))
    return best


def greedy_action(model: Model, prefer: tuple[str, ...] = ()) -> str:
    """A sensible legal action: any kind in `prefer` first (e.g. "remove", "dead"),
    then the placement that builds the longest line."""
    state = model.state
    assert state is not None and state.legal
    for kind in prefer:
        for action in state.legal:
            if parse_action(action)[0] == kind:
                return action
    mine = "bgr"[state.players[state.seat].side]
    placements = [a for a in state.legal if parse_action(a)[0] == "place"]
    if not placements:
        return state.legal[0]

    def score(action: str) -> tuple[int, int]:
        _, card, cell = parse_action(action)
        assert cell is not None
        wild = card in ("JD", "JC")
        return (line_score(state.board, cell, mine) - (2 if wild else 0), -cell[0])

    return max(placements, key=score)
