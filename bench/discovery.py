"""How soon a `sarja-server` is found on the LAN, and how soon a stopped one is gone
(listed within 2 s, dropped within 5 s). On loopback only: each server runs
with `--host 127.0.0.1` (it announces on loopback alone) and the browser, the client's
own Finder, looks through 127.0.0.1 alone.

Each round starts two servers one after the other, and stops the first with Ctrl-C
(SIGINT, as its host does). Figures, in seconds, the worst of the rounds:
- `list_from_start_s`: from starting the process to the browser listing it (the
  process's start-up included: Python, imports, the journal);
- `list_from_ready_s`: from the server printing its join line to being listed;
- `second_list_from_start_s`: the same for the second server, the first one running;
- `gone_after_stop_s`: from Ctrl-C to the browser dropping the server (its goodbye).
A server killed with -9 sends no goodbye: browsers drop it when its records expire
(python-zeroconf's default TTLs: 2 minutes for the address); not measured here.

    python bench/discovery.py [--rounds N] [--quick]
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import sys
import time
from pathlib import Path
from typing import Any

from sarja.client.find import Finder

SERVER = str(Path(sys.executable).parent / "sarja-server")
JOIN_LINE = re.compile(rb"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$")
STEP = 60.0  # seconds any one step may take before the bench calls it a failure


class Watch:
    def __init__(self) -> None:
        self.finder = Finder("127.0.0.1", self._changed)
        self.changed = asyncio.Event()

    def _changed(self) -> None:
        self.changed.set()

    def listed(self, name: str) -> bool:
        return any(s.name == name for s in self.finder.found.values())

    async def until(self, test: Any) -> float:
        """Wait for `test()`; the moment it first held (monotonic seconds)."""
        async with asyncio.timeout(STEP):
            while not test():
                self.changed.clear()
                await self.changed.wait()
        return time.monotonic()


async def start(name: str) -> tuple[asyncio.subprocess.Process, float, float]:
    """A server; when it was started, and when it printed its join line."""
    started = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        SERVER, "--host", "127.0.0.1", "--port", "0", "--ephemeral", "--name", name,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    async with asyncio.timeout(STEP):
        while not JOIN_LINE.match((await process.stdout.readline()).rstrip()):
            pass
    ready = time.monotonic()
    asyncio.ensure_future(process.stdout.read())  # the rest, so the pipe never fills
    return process, started, ready


async def one_round(watch: Watch) -> dict[str, float]:
    tag = f"{os.getpid()}-{secrets.token_hex(3)}"
    first, second = f"bench-a-{tag}", f"bench-b-{tag}"
    a, a_started, a_ready = await start(first)
    stopped = 0.0
    try:
        a_listed = await watch.until(lambda: watch.listed(first))
        b, b_started, _ = await start(second)
        try:
            b_listed = await watch.until(lambda: watch.listed(second))
        finally:
            b.send_signal(signal.SIGINT)
            await b.wait()
        a.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        gone = await watch.until(lambda: not watch.listed(first))
    finally:
        if not stopped:  # a second Ctrl-C would interrupt its stopping
            a.send_signal(signal.SIGINT)
        await a.wait()
    return {
        "list_from_start_s": a_listed - a_started,
        "list_from_ready_s": a_listed - a_ready,
        "second_list_from_start_s": b_listed - b_started,
        "gone_after_stop_s": gone - stopped,
    }


async def main(rounds: int) -> dict[str, Any]:
    watch = Watch()
    await watch.finder.start()
    try:
        results = [await one_round(watch) for _ in range(rounds)]
    finally:
        await watch.finder.stop()
    figures: dict[str, Any] = {"rounds": rounds}
    for key in results[0]:
        values = sorted(r[key] for r in results)
        figures[key] = round(values[-1], 3)
        figures[key[:-2] + "_median_s"] = round(values[len(values) // 2], 3)
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    rounds = 1 if quick else 5
    if "--rounds" in sys.argv:
        rounds = max(1, int(sys.argv[sys.argv.index("--rounds") + 1]))
    figures = asyncio.run(main(rounds))
    print(f"worst of {rounds}: listed {figures['list_from_start_s']} s after start,"
          f" dropped {figures['gone_after_stop_s']} s after Ctrl-C")  # fmt: skip
    print(json.dumps(figures))
