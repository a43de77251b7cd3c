"""Finding Sarja servers on the LAN with DNS-SD, on the running asyncio loop.

`Finder` browses with python-zeroconf's asyncio API (AsyncZeroconf and
AsyncServiceBrowser), so it runs beside prompt_toolkit's loop without blocking it: a
service that appears is resolved (its address, port and TXT) in a task of its own, and
`on_change()` is called whenever the list of found servers changes. `find_servers`
collects them for a while, for sarja-bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from sarja.protocol.discovery import SERVICE_TYPE, Found, read_found

from .mdns import interfaces_for, keep_to_loopback, loopback_only
from .words import connect as connect_words

RESOLVE_MS = 3000  # how long a found service's address may take to come


class Finder:
    """The servers found so far, by instance name; `interface`: look only through the
    interface with this address (None: every interface)."""

    def __init__(self, interface: str | None, on_change: Callable[[], None]) -> None:
        self.interface = interface
        self.on_change = on_change
        self.found: dict[str, Found] = {}
        self._zc: Any = None
        self._browser: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        from zeroconf import IPVersion
        from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

        only = None if self.interface is None else [self.interface]
        self._zc = AsyncZeroconf(interfaces=interfaces_for(only), ip_version=IPVersion.V4Only)
        if loopback_only(only):
            keep_to_loopback(self._zc.zeroconf)
        self._browser = AsyncServiceBrowser(
            self._zc.zeroconf, SERVICE_TYPE, handlers=[self._changed]
        )

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            if self._browser is not None:
                await self._browser.async_cancel()
        if self._zc is not None:
            await self._zc.async_close()

    def servers(self) -> list[Found]:
        """The servers found, in a stable order: by name, then address."""
        return sorted(self.found.values(), key=lambda f: (f.name.casefold(), f.host, f.port))

    def _changed(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        from zeroconf import ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            if self.found.pop(name, None) is not None:
                self.on_change()
            return
        task = asyncio.ensure_future(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if not await info.async_request(self._zc.zeroconf, RESOLVE_MS):
            return
        found = read_found(name, info.parsed_addresses(), info.port, dict(info.properties))
        if found is None or self.found.get(name) == found:
            return
        self.found[name] = found
        self.on_change()


async def find_servers(interface: str | None, first_within: float, more_for: float) -> list[Found]:
    """The servers found: waits up to `first_within` seconds for one, then `more_for`
    seconds more for others (so "the one server" is not just the quickest of two)."""
    first = asyncio.Event()
    finder = Finder(interface, first.set)
    await finder.start()
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(first.wait(), first_within)
        if finder.found:
            await asyncio.sleep(more_for)
        return finder.servers()
    finally:
        await finder.stop()


def add_discover_on(parser: argparse.ArgumentParser) -> None:
    """The finder's one option, sarja-client's and sarja-bot's alike."""
    parser.add_argument(
        "--discover-on", default=None, metavar="ADDRESS", help=connect_words.DISCOVER_ON_HELP
    )
