"""The finder: `sarja-client` with no address lists the Sarja servers found on the LAN,
updated as they come and go; Enter joins the chosen one.

A screen of its own, before the game's: its own small prompt_toolkit Application on
the same asyncio loop, with the Finder (find.py) browsing beside it. `choose_server`
returns the server chosen, or None when the player quits.
"""

from __future__ import annotations

import asyncio
import contextlib

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, Layout, Window
from prompt_toolkit.output import Output

from sarja.protocol.discovery import Found

from .command import client_command
from .find import Finder
from .fit import column
from .net import address_text
from .styles import color_depth, no_color, style
from .words import find as say

NOTHING_AFTER = 4  # seconds with no server found before the finder says why that may be
NAME_WIDTH = 24


class FindScreen:
    def __init__(self, interface: str | None, pins: dict[str, str], seats: set[str]) -> None:
        self.pins = pins  # server_id -> the fingerprint of the key it showed first
        self.seats = seats  # the fingerprints of the servers where a seat waits now
        self.finder = Finder(interface, self._changed)
        self.servers: list[Found] = []
        self.chosen = 0
        self.moved = False  # the player chose: until then the first listed is chosen
        self.waited = False  # NOTHING_AFTER has passed
        self.app: Application[Found | None] | None = None

    def _changed(self) -> None:
        key = self.servers[self.chosen].key if self.servers else None
        self.servers = self.finder.servers()
        keys = [s.key for s in self.servers]
        # The choice stays on the same server when others come and go, once the player
        # chose one; until then it is the first listed, whichever came first.
        if not self.moved:
            self.chosen = 0
        else:
            self.chosen = (
                keys.index(key) if key in keys else min(self.chosen, max(0, len(keys) - 1))
            )
        if self.app is not None:
            self.app.invalidate()

    def lines(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("class:title", f" {say.TITLE} "), ("", "\n\n")]
        for i, server in enumerate(self.servers):
            out += self._line(server, i == self.chosen)
        if not self.servers:
            out.append(("class:info", say.LOOKING + "\n"))
            if self.waited:
                out.append(("", "\n"))
                for line in say.nothing_found(NOTHING_AFTER, client_command()):
                    out.append(("", line + "\n"))
        out.append(("", "\n"))
        for key, what in say.find_keys(bool(self.servers)):
            out += [("class:keyname", key), ("", f" {what}   ")]
        return out

    def _line(self, server: Found, chosen: bool) -> StyleAndTextTuples:
        name = column(server.name, NAME_WIDTH)
        notes = [say.waiting(server.waiting)]
        known = self.pins.get(server.server_id)
        if known is None:
            notes.append(say.NEW_KEY)
        elif server.fingerprint and server.fingerprint != known:
            notes.append(say.OTHER_KEY)  # what it announces: the handshake will tell
        elif known in self.seats:
            notes.append(say.YOUR_SEAT)
        if not server.compatible:
            notes.append(say.OTHER_VERSION)
        text = f"{name}  {address_text(server.host, server.port):<21}  "
        text += ", ".join(n for n in notes if n)
        mark = "› " if chosen else "  "
        return [("class:cursor" if chosen else "", f"{mark}{text}"), ("", "\n")]

    def keys(self) -> KeyBindings:
        kb = KeyBindings()

        @kb.add("up")
        def _(event: KeyPressEvent) -> None:
            self.chosen, self.moved = max(0, self.chosen - 1), True

        @kb.add("down")
        def _(event: KeyPressEvent) -> None:
            self.chosen, self.moved = min(max(0, len(self.servers) - 1), self.chosen + 1), True

        @kb.add("enter")
        def _(event: KeyPressEvent) -> None:
            if self.servers:
                event.app.exit(result=self.servers[self.chosen])

        @kb.add("q")
        @kb.add("c-c")
        def _(event: KeyPressEvent) -> None:
            event.app.exit(result=None)

        return kb

    async def _wait(self) -> None:
        await asyncio.sleep(NOTHING_AFTER)
        self.waited = True
        if self.app is not None:
            self.app.invalidate()

    async def run(self, input: Input | None = None, output: Output | None = None) -> Found | None:
        self.app = Application(
            layout=Layout(Window(FormattedTextControl(self.lines), wrap_lines=True)),
            key_bindings=self.keys(),
            style=style(no_color()),
            full_screen=True,
            input=input,
            output=output,
            color_depth=color_depth,
        )
        await self.finder.start()
        timer = asyncio.ensure_future(self._wait())
        try:
            return await self.app.run_async()
        finally:
            timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timer
            await self.finder.stop()


async def choose_server(
    interface: str | None, pins: dict[str, str], seats: set[str]
) -> Found | None:
    return await FindScreen(interface, pins, seats).run()
