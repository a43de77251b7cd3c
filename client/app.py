"""The full-screen prompt_toolkit application, and trio guest mode under it.

prompt_toolkit owns the asyncio loop (the terminal, keys, redraws); the network is trio
code (net.py) run as a *guest* on that same loop with `trio.lowlevel.start_guest_run`.
Both live in one thread, so a server message is applied to the model and the screen
redrawn with no locks. The layout (layout.py) reads the model; key bindings (keys.py)
and mouse handlers only make intents (intents.py), which `perform` carries out
(perform.py); server messages change the model through `apply` (receive.py).

One redraw path: every change of the model (an intent, a server message, the link's
news, a worker's result) ends in `_after`, which counts it (`ScreenLayout.changed`)
before asking for a redraw, and a key pressed counts as one too. The redraw that
follows draws every part afresh if anything was counted since the last one, whoever
asked for it: the clock's tick only asks, so its redraw cannot show a stale board
beside a log and a clock that moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from sarja.protocol.messages import (
    Forgotten,
    ListTables,
    ServerMessage,
    Snapshot,
    Update,
    Welcome,
)
from sarja.protocol.session import SessionState

from . import analysis
from . import intents as ask
from . import model as m
from .attention import Attention
from .command import client_command
from .effects import Command
from .facts import follow_away, hand_over_seat, holding
from .keys import key_bindings
from .layout import ScreenLayout
from .model import note
from .net import Link
from .perform import perform
from .receive import apply, set_link
from .render_clock import clock_text
from .settings import Settings
from .styles import color_depth, no_color, style
from .words import connect

LOBBY_REFRESH = 10.0  # seconds: the server pushes changes; this is a safety net
CLOCK_TICK = 0.2  # seconds between looks at the turn clocks' line


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
        settings: Settings | None = None,
        backoff: tuple[float, ...] | None = None,
        welcome_timeout: float | None = None,
        accept_new_key: bool = False,
    ) -> None:
        """`accept_new_key`: the player says this server was reinstalled, so a key other
        than the one it showed before is taken, once (`--accept-new-key`)."""
        self.model = model
        self.accept_new_key = accept_new_key
        self.settings = settings if settings is not None else Settings(None)
        if not model.seats:
            model.seats = {k: dict(v) for k, v in self.settings.seats.items()}
        self._seats_kept = _copy(model.seats)  # the tokens as last remembered
        model.alerts = model.alerts or self.settings.alerts
        self._alerts_kept = model.alerts  # the bell setting as last remembered
        self._language_kept = model.language
        self.attention = Attention()
        extra: dict[str, Any] = {"backoff": backoff} if backoff else {}
        if welcome_timeout is not None:
            extra["welcome_timeout"] = welcome_timeout
        self.link = Link(
            host, port, name=self._name, on_message=self._message, on_link=self._on_link,
            session=model.session, person=self._person, **extra,
        )  # fmt: skip
        self.screen = ScreenLayout(model, self.do, lambda: self.app.output.get_size())
        self.app: Application[None] = Application(
            layout=self.screen.layout,
            key_bindings=key_bindings(model, self.screen, self.do),
            style=style(no_color()),
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            color_depth=color_depth,
            before_render=lambda _: self._before_render(),
        )
        self.app.ttimeoutlen = 0.05  # a lone Esc need not wait half a second
        # A key may change what the screen shows without an intent (a text box's count).
        self.app.key_processor.after_key_press += lambda _: self.screen.changed()

    # ----- intents ------------------------------------------------------------------

    def do(self, intent: ask.Intent) -> None:
        self.model.clock_now = time.monotonic()  # a key acts at the time it is pressed
        for effect in perform(self.model, intent):
            if effect is Command.QUIT:
                future = self.app.future
                if self.app.is_running and future is not None and not future.done():
                    self.app.exit()
            elif effect is Command.RETRY:
                self.link.retry_now()
            elif effect is Command.GREET:
                self._keep()
                self.link.greet()
            elif effect is Command.ANALYSE:
                self._analyse()
            else:
                self.link.send(effect)
        self._after()

    def _analyse(self) -> None:
        loop = asyncio.get_running_loop()  # keys come on the screen's loop
        analysis.start(self.model, lambda change: self._from_worker(loop, change))

    def _from_worker(self, loop: asyncio.AbstractEventLoop, change: Callable[[], None]) -> None:
        """A worker's change to the model, made on the screen's loop, then drawn."""

        def apply() -> None:
            change()
            self._after()

        with contextlib.suppress(RuntimeError):  # the loop is closed: the client ended
            loop.call_soon_threadsafe(apply)

    def _after(self) -> None:
        self.screen.changed()
        self.screen.sync()
        self.app.invalidate()
        if self.model.alerts != self._alerts_kept:
            self._alerts_kept = self.model.alerts
            self.settings.save_alerts(self.model.alerts)
        held = holding(self.model)
        if held is not None and self.model.practice is None:
            self.settings.save_held(*held)
        if self.model.language != self._language_kept:
            self._language_kept = self.model.language
            self.settings.save_language(self.model.language)
        self.attention.check(self.model, self.app.output)

    # ----- the link's callbacks (run in trio, same thread) --------------------------

    def _name(self) -> str | None:
        return self.model.name if self.model.named else None

    def _before_render(self) -> None:
        self.model.clock_now = time.monotonic()  # what the turn clocks count down by
        self.screen.sync()

    async def tick_clocks(self) -> None:
        """Count the turn clocks down: redraw when what their line says changes, a few
        times a second at most; nothing while no clock runs. The redraw draws the clock
        alone unless the model changed since the last one (parts.py)."""
        shown = ""
        handed = hand_over_seat(self.model)
        while True:
            await asyncio.sleep(CLOCK_TICK)
            self.model.clock_now = time.monotonic()
            now = clock_text(self.model)
            if hand_over_seat(self.model) != handed:  # `o` works now: the keys say so
                handed = hand_over_seat(self.model)
                self._after()
            elif now != shown:
                shown = now
                self.app.invalidate()

    def _person(self, fingerprint: str) -> str | None:
        # A practice server is gone with the client: no standing to keep there.
        if self.model.practice is not None:
            return None
        return self.settings.person_for(fingerprint)

    def _message(self, msg: ServerMessage, state: SessionState) -> None:
        if isinstance(msg, Welcome) and self.model.practice is None and not self._pinned(msg):
            return
        if isinstance(msg, Forgotten) and self.model.session.peer_key:
            self.settings.forget_person(self.model.session.peer_key)
        if isinstance(msg, Snapshot) or (isinstance(msg, Update) and msg.clocks is not None):
            self.model.clocks_told = time.monotonic()  # the clocks count down from now
        for reply in apply(self.model, msg, state):
            self.link.send(reply)
        follow_away(self.model, time.monotonic())
        # Tokens change on a welcome, and on a refused resume too (the welcome's own
        # token is ours then: resume.refused), which no welcome follows: whichever
        # message changed them, they are kept at once, or the next run would ask for
        # its seat with a token the server never heard of.
        if isinstance(msg, Welcome) or self.model.seats != self._seats_kept:
            self._keep()
        self._after()

    def _pinned(self, msg: Welcome) -> bool:
        """Whether the welcome came over the key its server showed before. If not,
        nothing more is sent: the link ends with a warning, or, the player having said
        the server was reinstalled, the new key is taken and the hello goes again (with
        what was kept under the old key)."""
        key = self.model.session.peer_key
        first = msg.server_id not in self.settings.pins
        if self.settings.learn(key, msg.server_id, self.link.person_sent):
            if first:
                note(self.model, "info", [("", connect.first_key(msg.server, key))])
            return True
        if self.accept_new_key:
            self.accept_new_key = False
            old = self.settings.pins.get(msg.server_id)
            self.settings.accept_key(msg.server_id, key)
            if old is not None and old in self.model.seats:
                self.model.seats[key] = self.model.seats.pop(old)
            self.link.drop()  # hello again, with the person key moved to the new key
            return False
        where = self.link.where
        said = connect.key_changed(where, msg.server, key, client_command())
        self.link.refuse(said, connect.KEY_GIST)
        return False

    def _keep(self) -> None:
        """Remember the name (--name too) and the seats' newest tokens."""
        if self.model.named:
            # A practice server is gone with the client: its seats are not worth keeping.
            seats = {} if self.model.practice is not None else self.model.seats
            self.settings.save(self.model.name, seats)
            self._seats_kept = _copy(self.model.seats)

    def _on_link(self, kind: str, text: str) -> None:
        set_link(self.model, kind, text)
        self._after()

    async def refresh_lobby(self) -> None:
        """Ask for the lobby's list now and then while it is on screen."""
        while True:
            await asyncio.sleep(LOBBY_REFRESH)
            if m.screen(self.model) == "lobby" and self.model.phase == SessionState.LOBBY:
                self.link.send(ListTables())


def _copy(seats: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    return {server: dict(tokens) for server, tokens in seats.items()}


class GuestRun:
    """A trio run hosted on the running asyncio loop; `stop()` cancels it and waits."""

    def __init__(self, main: Callable[[], Awaitable[Any]]) -> None:
        self._main = main
        self._scope: trio.CancelScope | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

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
            await self._main()

    async def stop(self) -> Any:
        if self._token is not None and self._scope is not None and not self._done.done():
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(self._scope.cancel)
        outcome = await self._done
        return outcome.unwrap()


async def run_client(client: ClientApp) -> None:
    """Run one player's client until they quit: the app on asyncio, the link in trio."""
    guest = GuestRun(client.link.run)
    guest.start()
    refresher = asyncio.ensure_future(client.refresh_lobby())
    ticker = asyncio.ensure_future(client.tick_clocks())
    try:
        await client.app.run_async()
    finally:
        refresher.cancel()
        ticker.cancel()
        await guest.stop()


async def run_offline(model: m.Model) -> None:
    """Run the screen without a server: a replay."""
    client = ClientApp(model, "replay", 0)
    await client.app.run_async()
