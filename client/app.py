"""The full-screen prompt_toolkit application, and trio guest mode under it.

prompt_toolkit owns the asyncio loop (the terminal, keys, redraws); the network is trio
code (net.py) run as a *guest* on that same loop with `trio.lowlevel.start_guest_run`.
Both live in one thread, so a server message is applied to the model and the screen
redrawn with no locks. The application itself is a single window whose text is
`render.screen_lines(model, ...)`: the layout has no state of its own, and key bindings
only turn keys into intents (intents.py).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style

from sarja.protocol import PROTOCOL_VERSION, SessionState
from sarja.protocol.messages import Hello, ListTables, ServerMessage, Welcome

from . import model as m
from .intents import Command, Intent, intent_for, perform, screen
from .net import Link
from .render import hit, screen_lines
from .settings import load_resume, save_name, save_resume

LOBBY_REFRESH = 3.0  # seconds: the server does not push the lobby list, so ask again
RESUME_WAIT = 0.5  # seconds after a resumed welcome for the table to come, if any

STYLE = Style.from_dict(
    {
        "title": "reverse",
        "myturn": "bg:ansigreen fg:ansiblack bold",
        "card.red": "fg:ansired",
        "card.black": "",
        "corner": "fg:ansiyellow bold",
        "chip.b": "bg:ansiblue fg:ansiwhite bold",
        "chip.g": "bg:ansigreen fg:ansiblack bold",
        "chip.r": "bg:ansired fg:ansiwhite bold",
        "locked": "underline",
        "winning": "bg:ansimagenta fg:ansiwhite bold",
        "choice": "bg:ansicyan fg:ansiblack bold",
        "target": "bg:ansiyellow fg:ansiblack bold",
        "cursor": "reverse bold",
        "side.b": "fg:ansibrightblue bold",
        "side.g": "fg:ansigreen bold",
        "side.r": "fg:ansired bold",
        "turn": "bold",
        "dead": "fg:ansibrightblack strike",
        "picked": "reverse bold",
        "label": "bold",
        "keyname": "bold",
        "dim": "fg:ansibrightblack",
        "info": "italic",
        "rule": "fg:ansibrightblack",
        "log.chat": "fg:ansicyan",
        "log.error": "fg:ansired bold",
        "log.big": "bold",
        "status": "fg:ansiyellow bold",
        "link": "bg:ansired fg:ansiwhite bold",
        "ask": "bg:ansiyellow fg:ansiblack bold",
        "prompt": "bold",
        "caret": "reverse",
        "input": "underline",
        "keys": "bg:ansibrightblack fg:ansiwhite",
        "selected": "reverse",
    }
)

# Keys with names; every other key arrives as the character typed (Keys.Any).
_NAMED_KEYS = {
    "up": "up", "down": "down", "left": "left", "right": "right",
    "enter": "enter", "tab": "tab", "s-tab": "s-tab", "backspace": "backspace",
    "escape": "escape", "c-c": "c-c",
}  # fmt: skip


def color_depth() -> ColorDepth | None:
    """No colour at all under NO_COLOR (https://no-color.org); otherwise the terminal's
    own depth. Bold, underline and reverse stay, and the screen never relies on colour."""
    return ColorDepth.DEPTH_1_BIT if os.environ.get("NO_COLOR") else None


class ScreenControl(FormattedTextControl):
    """The whole screen as one text; a click is looked up by position (render.hit),
    which is cheaper than a handler on every space and card."""

    def __init__(self, client: ClientApp) -> None:
        super().__init__(client._text, focusable=True, show_cursor=False)
        self.client = client

    def mouse_handler(self, mouse_event: MouseEvent) -> Any:
        if mouse_event.event_type != MouseEventType.MOUSE_UP:
            return NotImplemented
        columns, rows = self.client.model.size
        x, y = mouse_event.position.x, mouse_event.position.y
        intent = hit(self.client.model, columns, rows, x, y)
        if intent is None:
            return NotImplemented
        self.client.do(intent)
        return None


class ClientApp:
    """One player's screen: the model, its link to the server, and the Application."""

    def __init__(
        self,
        model: m.Model,
        host: str,
        port: int,
        *,
        input: Input | None = None,
        output: Output | None = None,
        remember: Callable[[str], None] = save_name,
        remember_resume: Callable[[str, str, str], None] = save_resume,
        recall_resume: Callable[[str, str], str | None] = load_resume,
        backoff: tuple[float, ...] | None = None,
    ) -> None:
        self.model = model
        self._remember = remember
        self._remember_resume = remember_resume
        self._recall_resume = recall_resume
        extra = {"backoff": backoff} if backoff else {}
        self.link = Link(
            host, port, hello=self._hello, on_message=self._message, on_link=self._on_link, **extra
        )
        control = ScreenControl(self)
        self.app: Application[None] = Application(
            layout=Layout(Window(control, wrap_lines=False)),
            key_bindings=self._bindings(),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            color_depth=color_depth,
        )
        self.renders = 0

    # ----- drawing ----------------------------------------------------------------

    def _text(self) -> list[Any]:
        size = self.app.output.get_size()
        self.model.size = (size.columns, size.rows)
        lines = screen_lines(self.model, size.columns, size.rows)
        fragments: list[Any] = []
        for i, line in enumerate(lines):
            if i:
                fragments.append(("", "\n"))
            fragments.extend(line)
        self.renders += 1
        return fragments

    # ----- keys and intents ---------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add(Keys.Any)
        def _typed(event: Any) -> None:
            self.key(event.data)

        for key, name in _NAMED_KEYS.items():
            kb.add(key)(lambda event, name=name: self.key(name))
        return kb

    def key(self, name: str) -> None:
        intent = intent_for(self.model, name)
        if intent is not None:
            self.do(intent)
        self.app.invalidate()

    def do(self, intent: Intent) -> None:
        for effect in perform(self.model, intent):
            if effect is Command.QUIT:
                future = self.app.future
                if self.app.is_running and future is not None and not future.done():
                    self.app.exit()
            elif effect is Command.RETRY:
                self.link.retry_now()
            elif effect is Command.GREET:
                self._remember(self.model.name)
                self.link.greet()
            else:
                self.link.send(effect)
        self.app.invalidate()

    # ----- the link's callbacks (run in trio, same thread) --------------------------

    def _hello(self) -> Hello | None:
        if not self.model.named:
            return None
        model = self.model
        if model.resume is None:
            # A fresh start: the token an earlier run kept for this server and name.
            model.resume = self._recall_resume(model.address, model.name)
        return Hello(version=PROTOCOL_VERSION, name=model.name, resume=model.resume)

    def _message(self, msg: ServerMessage, state: SessionState) -> None:
        for reply in m.apply(self.model, msg, state):
            self.link.send(reply)
        if isinstance(msg, Welcome):
            # Kept across runs: closing the client mid-game and starting it again
            # takes the player back to their seat.
            self._remember_resume(self.model.address, self.model.name, msg.resume)
            if self.link.resumed:
                # Back at a table, the server sends it next; asking for the lobby's list
                # would be refused there. Only if no table comes is the list wanted.
                asyncio.get_running_loop().call_later(RESUME_WAIT, self._list_in_lobby)
            else:
                self.link.send(ListTables())
        self.app.invalidate()

    def _list_in_lobby(self) -> None:
        if self.model.phase == SessionState.LOBBY:
            self.link.send(ListTables())

    def _on_link(self, kind: str, text: str) -> None:
        m.set_link(self.model, kind, text)
        self.app.invalidate()

    async def refresh_lobby(self) -> None:
        """Keep the lobby list fresh while it is on screen."""
        while True:
            await asyncio.sleep(LOBBY_REFRESH)
            if screen(self.model) == "lobby" and self.model.phase == SessionState.LOBBY:
                self.link.send(ListTables())


class GuestRun:
    """A trio run hosted on the running asyncio loop; `stop()` cancels it and waits."""

    def __init__(self, main: Callable[[], Awaitable[Any]]) -> None:
        self._main = main
        self._scope: trio.CancelScope | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._started = asyncio.Event()

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def done(outcome: Any) -> None:
            if not self._done.done():
                self._done.set_result(outcome)

        trio.lowlevel.start_guest_run(
            self._run,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            done_callback=done,
            host_uses_signal_set_wakeup_fd=True,
        )

    async def _run(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            self._scope = scope
            self._started.set()
            await self._main()

    async def wait_started(self) -> None:
        await self._started.wait()

    async def stop(self) -> Any:
        if self._token is not None and self._scope is not None and not self._done.done():
            self._token.run_sync_soon(self._scope.cancel)
        outcome = await self._done
        return outcome.unwrap()


async def run_client(client: ClientApp) -> None:
    """Run one player's client until they quit: the app on asyncio, the link in trio."""
    guest = GuestRun(client.link.run)
    guest.start()
    refresher = asyncio.ensure_future(client.refresh_lobby())
    try:
        await client.app.run_async()
    finally:
        refresher.cancel()
        await guest.stop()
