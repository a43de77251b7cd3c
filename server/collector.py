"""Python's cycle collector on a timetable, instead of after every few hundred allocations.

A waiting connection holds a chain of suspended frames, and it makes a new chain for
every message it reads. With a thousand or more connections, each young-generation
collection walks tens of thousands of such live objects: under bench/server.py's load
(500 tables, 2,000 connections) those pauses reached 25-35 ms of CPU and were the bulk
of the p99 latency. Nearly all of this server's garbage is freed at once by reference
counting; the little that forms cycles waits for a full collection every `interval`
seconds, one pause a minute instead of several a second.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import trio

_holders = 0  # servers running in this process with the automatic collector off
_was_enabled = True  # as the first of them found it


@contextmanager
def collector_on_a_timetable() -> Iterator[None]:
    """Turn off automatic collection while the block runs, and leave what lives
    now (the modules, the server's own setup) out of every collection until then.
    Once the last server in the process stops, the collector is as it was."""
    global _holders, _was_enabled
    if _holders == 0:
        _was_enabled = gc.isenabled()
        gc.collect()  # what is garbage now must not be frozen with the rest
        gc.freeze()
    gc.disable()
    _holders += 1
    try:
        yield
    finally:
        _holders -= 1
        if _holders == 0:
            gc.unfreeze()
            if _was_enabled:
                gc.enable()


async def collect_every(interval: float) -> None:
    """The full collections the timetable promises."""
    while True:
        await trio.sleep(interval)
        gc.collect()
