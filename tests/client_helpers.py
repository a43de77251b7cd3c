"""Protocol 2 messages for the client's pure tests, the client app without a terminal,
and real clients against a real server, headless, in one thread.

The messages are built here or from protocol/examples.py's (the welcome, with ids of its
own, and Aino's table), and reach the model the way they do in the client: encoded to
bytes and decoded by the model's client session, whose session state goes with each one.

`Headless` is the whole client app (layout, key bindings, text boxes) with no terminal
and no network: keys go through prompt_toolkit's own key processor, messages through
the session, and the screen is the layout written to a prompt_toolkit `Screen` of any
size, read back as text; every region of it reports whether its lines fitted.

For the real-server tests, one asyncio loop (pytest's test is a plain function that
calls `asyncio.run`) carries the prompt_toolkit applications, each with a pipe for its
keyboard and a dummy output of 80×24; one trio guest run on that loop carries the server
on 127.0.0.1 port 0 and every client's network link. The tests type keys into the pipes
and look at each client's model and at its screen as text.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import trio
from prompt_toolkit.application.current import create_app_session, set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import DummyInput, create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.key_binding.key_processor import _Flush
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from sarja.client.app import ClientApp, GuestRun
from sarja.client.facts import choice_options
from sarja.client.model import Model
from sarja.client.parts import Region
from sarja.client.receive import apply
from sarja.client.settings import Settings
from sarja.protocol import examples
from sarja.protocol.cards import LAYOUT_CODES, ONE_EYED, TWO_EYED, cell_name
from sarja.protocol.codec import ServerCodec
from sarja.protocol.messages import (
    Choice,
    ClientMessage,
    Draw,
    Exchange,
    Last,
    Play,
    Remove,
    Result,
    Rules,
    Seat,
    ServerMessage,
    Snapshot,
    TableList,
    Welcome,
)
from sarja.protocol.messages import (
    Player as GamePlayer,
)
from sarja.protocol.moves import action_message
from sarja.server.app import serve
from sarja.server.config import ServerConfig

from .netclient import PATIENCE

# ----- messages, as a server would send them ------------------------------------------

RESUME = "q2v9X0c3T7mZpW1yK8rB4nE6dF5gH_aJ-sL0uVxYz"
RULES = Rules(hand_size=7, manual_draw=False)
WELCOME = dataclasses.replace(examples.WELCOME, session="s1", server_id="srv1")
# The fingerprint of the key the model's server proved it holds: its tokens go under it.
KEY = "5e" * 32
TABLES = TableList(tables=(examples.FRIDAY,))  # the lobby with one table: examples.py's
TABLE = dataclasses.replace(  # Bertil not yet sat down
    examples.TABLE,
    seats=(Seat(name="Aino", ready=True, away=False), Seat(name=None, ready=False, away=False)),
)
STARTED = dataclasses.replace(
    TABLE,
    seats=(Seat(name="Aino", ready=True, away=False), Seat(name="Bertil", ready=True, away=False)),
    started=True,
)
BOARD = "".join(
    (
        "*........*",
        "..........",
        "..........",
        ".......g..",  # H4: Bertil's 8♦
        "bbbb.b....",  # 5♥ at E5 makes six in a row: a real choice of five
        "g.........",  # A6
        "..........",
        "..........",
        "..........",
        "*........*",
    )
)
HAND = ("2C", "5H", "7H", "9S", "JD", "QS", "AD")  # sorted as the server sorts: by rank
CHOICE_CELL = 44  # E5
CHOICE_OPTIONS = (((40, 44),), ((41, 45),))  # A5–E5 or B5–F5


def spaces(board: str, card: str, side: int) -> tuple[int, ...]:
    """The cells `card` could take on `board` for `side`: what the server would list in
    `targets` (worked out here only to make consistent test messages)."""
    if card in TWO_EYED:
        return tuple(i for i, x in enumerate(board) if x == ".")
    if card in ONE_EYED:
        mine = "bgr"[side]
        return tuple(i for i, x in enumerate(board) if x in "bgr" and x != mine)
    return tuple(i for i, code in enumerate(LAYOUT_CODES) if code == card and board[i] == ".")


def legal_for(hand: tuple[str, ...], board: str, dead: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Side 0's legal actions, in notation, with every choice of fives at E5."""
    out: list[str] = []
    for card in hand:
        for cell in spaces(board, card, 0):
            if card in ONE_EYED:
                out.append(f"{card}x{cell_name(cell)}")
            elif cell == CHOICE_CELL and board == BOARD:
                for option in CHOICE_OPTIONS:
                    fives = ",".join(f"{cell_name(a)}-{cell_name(b)}" for a, b in option)
                    out.append(f"{card}@{cell_name(cell)}[{fives}]")
            else:
                out.append(f"{card}@{cell_name(cell)}")
    out += [f"dead:{card}" for card in dead]
    return tuple(dict.fromkeys(out))


def snapshot(
    hand: tuple[str, ...] = HAND,
    board: str = BOARD,
    dead: tuple[str, ...] = (),
    turn: int = 0,
    **fields: Any,
) -> Snapshot:
    """Aino's snapshot at version 12 of a two-player game (her turn unless `turn`)."""
    mine = turn == 0 and fields.get("result") is None
    values: dict[str, Any] = dict(
        table="t1",
        version=12,
        seat=0,
        players=(
            GamePlayer(name="Aino", side=0, away=False, held=len(hand)),
            GamePlayer(name="Bertil", side=1, away=False, held=7),
        ),
        sides=2,
        needed=2,
        rules=RULES,
        first=0,
        cut=(((0, "3C"), (1, "KD")),),
        board=board,
        sequences=((), ()),
        discard=("2H", "3H", "4H", "AC", "6H", "8D"),
        last=Last(seat=1, action="8D@H4"),
        turn=turn,
        draw_size=84,
        hand=hand,
        targets=tuple(spaces(board, card, 0) for card in hand),
        dead=dead,
        legal=legal_for(hand, board, dead) if mine else (),
        choices=(
            (Choice(cell=CHOICE_CELL, options=CHOICE_OPTIONS),)
            if mine and board == BOARD and board[CHOICE_CELL] == "."
            else ()
        ),
    )
    values.update(fields)
    return Snapshot(**values)


SNAPSHOT = snapshot()
RESULT = Result(result="win", side=0, hands=(("2C", "QS"), ("4H", "KD")))


class Wire:
    """A model fed server messages as the client is: each one encoded to bytes,
    decoded by the model's client session, and applied with the state it led to."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.session = model.session
        self.session.peer_key = KEY  # as the connection's handshake would have set it
        self._encode = ServerCodec().encode  # no session: the messages are ours to choose
        self.sent: list[ClientMessage] = []  # what the model asked to send back

    def feed(self, *messages: ServerMessage) -> list[ClientMessage]:
        replies: list[ClientMessage] = []
        for msg in messages:
            self.session.receive_data(self._encode(msg))
            got = self.session.next_message()
            assert got is not None
            replies += apply(self.model, got, self.session.state)
        self.sent += replies
        return replies


def fed(*messages: ServerMessage, welcome: Welcome = WELCOME) -> Wire:
    """A named, online model that has had the welcome and then `messages`."""
    wire = Wire(Model(address="host:7474", name="Aino", named=True, link="online"))
    wire.feed(welcome)
    wire.sent.clear()  # the lobby's list, asked for after every plain welcome
    wire.feed(*messages)
    return wire


def model_at(*messages: ServerMessage) -> Model:
    return fed(*messages).model


KEYS = {
    "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "enter": "\r", "tab": "\t", "s-tab": "\x1b[Z", "backspace": "\x7f", "escape": "\x1b",
    "home": "\x1b[H", "end": "\x1b[F", "pageup": "\x1b[5~", "pagedown": "\x1b[6~",
    "f1": "\x1bOP",
}  # fmt: skip


class SizedOutput(DummyOutput):
    """A dummy terminal of a chosen size (prompt_toolkit's says 80×40)."""

    def __init__(self, columns: int = 80, rows: int = 24) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def key_presses(*keys: str) -> list[KeyPress]:
    """Keys as a terminal sends them (names from KEYS, or text), parsed as
    prompt_toolkit parses a terminal's input."""
    got: list[KeyPress] = []
    parser = Vt100Parser(got.append)
    for key in keys:
        parser.feed(KEYS.get(key, key))
        parser.flush()  # a lone Esc is a key of its own
    return got


def render(client: ClientApp, columns: int = 80, rows: int = 24) -> tuple[str, list[Region]]:
    """The client's screen at columns × rows as text, and its regions that did not fit,
    drawn afresh (a test may have changed the model behind the app's back). (In an event
    loop, as a text box loads its history in a background task.)"""
    client.screen.changed()
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_render_in_loop(client, columns, rows))
    return _render(client, columns, rows)


async def _render_in_loop(client: ClientApp, columns: int, rows: int) -> tuple[str, list[Region]]:
    done = _render(client, columns, rows)
    await asyncio.sleep(0)
    for task in list(client.app._background_tasks):
        task.cancel()
    return done


def _render(client: ClientApp, columns: int, rows: int) -> tuple[str, list[Region]]:
    """A redraw as the app makes one, counting no change of its own."""
    app = client.app
    output = app.output
    assert isinstance(output, SizedOutput)
    size, output.size = output.size, Size(rows=rows, columns=columns)
    try:
        with set_app(app):
            client.screen.sync()
            app.render_counter += 1
            screen = Screen()
            app.layout.container.write_to_screen(
                screen, MouseHandlers(), WritePosition(0, 0, columns, rows), "", False, None
            )
            screen.draw_all_floats()
            visible = screen.visible_windows
    finally:
        output.size = size
    text = "\n".join(
        "".join(screen.data_buffer[y][x].char for x in range(columns)).rstrip() for y in range(rows)
    )
    unfit = [w.content for w in visible if isinstance(w.content, Region) and not w.content.fits]
    return text, unfit


class Headless:
    """The client app, driven without a terminal or a network: `press` keys, `feed`
    server messages, `screen()` what it shows; `sent` is what it would send."""

    def __init__(self, model: Model | None = None, columns: int = 80, rows: int = 24) -> None:
        self.model = model or Model(address="host:7474", name="Aino", named=True, link="online")
        self.client = ClientApp(
            self.model, "host", 7474, input=DummyInput(), output=SizedOutput(columns, rows),
            settings=Settings(None),
        )  # fmt: skip
        self.client.app.timeoutlen = None  # no loop runs here to time a lone Esc out
        self.sent: list[Any] = []
        self.client.link.send = self.sent.append  # type: ignore[method-assign]
        self.session = self.model.session
        self.session.peer_key = KEY  # as the connection's handshake would have set it
        self._encode = ServerCodec().encode
        self.size = (columns, rows)

    def feed(self, *messages: ServerMessage) -> None:
        with set_app(self.client.app):
            for msg in messages:
                self.session.receive_data(self._encode(msg))
                got = self.session.next_message()
                assert got is not None
                self.client._message(got, self.session.state)

    def reconnect(self) -> None:
        """A new connection: the session's new codec, and the model told it is online."""
        self.session.connect(KEY)
        with set_app(self.client.app):
            self.client._on_link("online", "")

    def press(self, *keys: str) -> None:
        """Type `keys`. Text boxes start background tasks as they change, so the keys are
        processed inside an event loop (one per call), as in the running app."""
        asyncio.run(self._press(keys))

    async def _press(self, keys: tuple[str, ...]) -> None:
        app = self.client.app
        output = app.output
        assert isinstance(output, SizedOutput)
        output.size = Size(rows=self.size[1], columns=self.size[0])
        with set_app(app):
            self.client.screen.sync()
            for press in key_presses(*keys):
                app.key_processor.feed(press)
                app.key_processor.process_keys()
                if app.key_processor.key_buffer:  # as a terminal's pause after a lone Esc
                    app.key_processor.feed(_Flush)
                    app.key_processor.process_keys()
            await asyncio.sleep(0)
            for task in list(app._background_tasks):
                task.cancel()

    def screen(self, columns: int | None = None, rows: int | None = None) -> str:
        text, unfit = render(self.client, columns or self.size[0], rows or self.size[1])
        return text

    def unfit(self, columns: int = 80, rows: int = 24) -> list[Region]:
        return render(self.client, columns, rows)[1]


def headless(*messages: ServerMessage, welcome: Welcome = WELCOME, **kw: Any) -> Headless:
    h = Headless(**kw)
    h.feed(welcome, *messages)
    h.sent.clear()
    return h


def text(model: Model, width: int = 80, height: int = 24) -> str:
    """The screen a model makes, through the real layout."""
    h = Headless(model, width, height)
    return h.screen()


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
        settings: Settings | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        self.name = name
        self.pipe = pipe
        self.settings = settings if settings is not None else Settings(None)
        self.model = Model(address=f"{host}:{port}", name=name, named=named)
        self.client = ClientApp(
            self.model,
            host,
            port,
            input=pipe,
            output=SizedOutput(columns, rows),
            settings=self.settings,
            backoff=backoff,
        )
        self.client.app.ttimeoutlen = 0.02  # a lone Esc need not wait half a second
        self._trio: Any = None  # the trio run the link is in, and its scope: `run_link`
        self._link_scope = trio.CancelScope()

    def press(self, *keys: str) -> None:
        """Type keys: names from KEYS, or literal text."""
        self.pipe.send_text("".join(KEYS.get(k, k) for k in keys))

    async def run_link(self) -> None:
        """The client's link, in trio, until `quit` ends it."""
        self._trio = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as self._link_scope:
            await self.client.link.run()

    def quit(self) -> None:
        """Close the client as a person does: the app ends, and its connection with it."""
        if self.client.app.is_running:
            self.client.app.exit()
        self._trio.run_sync_soon(self._link_scope.cancel)

    def screen(self, columns: int = 80, rows: int = 24) -> str:
        return render(self.client, columns, rows)[0]

    async def wait(
        self, condition: Callable[[], Any], what: str = "", timeout: float = PATIENCE
    ) -> Any:
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
            lambda: self.model.game is not None and self.model.game.version >= version,
            f"version {version}",
        )


async def run_app(client: ClientApp) -> None:
    """Run one client's app in an app session of its own: several apps share this
    loop, and each must find itself (not the last one started) as the current app."""
    with create_app_session(input=client.app.input, output=client.app.output):
        await client.app.run_async()


class Harness:
    def __init__(self, host: TrioHost, port: int, stack: contextlib.AsyncExitStack) -> None:
        self.host = host
        self.port = port
        self._stack = stack
        self.players: list[Player] = []
        self._tasks: list[asyncio.Task[Any]] = []

    async def player(
        self,
        name: str,
        columns: int = 80,
        rows: int = 24,
        settings: Settings | None = None,
        where: str | None = "lobby",
        host: str = "127.0.0.1",
        port: int | None = None,
    ) -> Player:
        """A player at the lobby; or, with the settings a client kept from an earlier
        run, back `where` that run's seat is (None: not waited for). `port`: another
        server's than the harness's."""
        pipe = self._stack.enter_context(create_pipe_input())
        player = Player(name, port or self.port, pipe, columns, rows, settings=settings, host=host)
        self.host.start_soon(player.run_link)
        self._tasks.append(asyncio.ensure_future(run_app(player.client)))
        self.players.append(player)
        if where is not None:
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


def parse_action(notation: str) -> tuple[str, str, int | None]:
    """(kind, card, cell) of an action in notation, read through the protocol's own
    notation-to-message function: kind is place, remove, dead, draw or pass."""
    msg = action_message(notation, 1, 0)
    if isinstance(msg, Play):
        return "place", msg.card, msg.cell
    if isinstance(msg, Remove):
        return "remove", msg.card, msg.cell
    if isinstance(msg, Exchange):
        return "dead", msg.card, None
    return ("draw" if isinstance(msg, Draw) else "pass"), "", None


def keys_to(model: Model, cell: int) -> list[str]:
    """Arrow presses that move the cursor from where it is to `cell`."""
    r, c = divmod(model.cursor, 10)
    dr, dc = cell // 10 - r, cell % 10 - c
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
    from sarja.client import intents as ask
    from sarja.client.perform import perform

    probe = Model(
        address="", named=True, welcome=model.welcome, game=model.game, cursor=model.cursor
    )
    perform(probe, ask.Pick(index))
    keys = [pick, *keys_to(probe, cell), "enter"]
    options = choice_options(model, cell)
    if len(options) > 1:
        # The chooser opens: take the way the action names.
        chosen = action_message(action, 1, 0)
        assert isinstance(chosen, Play)
        keys.append(str(options.index(chosen.fives) + 1) if chosen.fives in options else "1")
    return keys


def line_score(board: str, cell: int, mine: str) -> int:
    """How much a chip at `cell` helps `mine` (a side letter): the best count of own
    chips and corners in any five through it that no opponent blocks."""
    best = 0
    row, col = divmod(cell, 10)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for back in range(5):
            r0, c0 = row - dr * back, col - dc * back
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
    game = model.game
    assert game is not None and game.legal and game.seat is not None
    for kind in prefer:
        for action in game.legal:
            if parse_action(action)[0] == kind:
                return action
    mine = "bgr"[game.players[game.seat].side]
    placements = [a for a in game.legal if parse_action(a)[0] == "place"]
    if not placements:
        return game.legal[0]
    board = "".join(game.board)

    def score(action: str) -> tuple[int, int]:
        _, card, cell = parse_action(action)
        assert cell is not None
        wild = card in TWO_EYED
        return (line_score(board, cell, mine) - (2 if wild else 0), -(cell // 10))

    return max(placements, key=score)
