"""While a server runs, reference cycles are collected on its timetable, not by
Python's allocation counts; afterwards the collector is as it was."""

import gc
import weakref

import trio

from sarja.server.app import serve
from sarja.server.config import ServerConfig


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector can free it


async def test_cycles_are_collected_on_the_timetable_and_the_collector_restored() -> None:
    assert gc.isenabled()
    config = ServerConfig(host="127.0.0.1", port=0, collect_every=0.05)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        assert not gc.isenabled()
        garbage = weakref.ref(Node())
        with trio.fail_after(5):
            while garbage() is not None:
                await trio.sleep(0.01)
        await server.shutdown()
    assert gc.isenabled()


async def test_without_a_timetable_the_collector_is_left_alone() -> None:
    config = ServerConfig(host="127.0.0.1", port=0, collect_every=None)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        assert gc.isenabled()
        await server.shutdown()
