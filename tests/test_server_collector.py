"""While a server runs, reference cycles are collected on its timetable, not by
Python's allocation counts; afterwards the collector is as it was."""

import gc
import weakref

import pytest
import trio

from sarja.server.app import serve
from sarja.server.config import ServerConfig


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector can free it


async def test_cycles_are_collected_on_the_timetable_and_the_collector_restored() -> None:
    assert gc.isenabled() and gc.get_freeze_count() == 0
    config = ServerConfig(host="127.0.0.1", port=0, collect_every=0.05)
    garbage_before = weakref.ref(Node())  # garbage already: not to be frozen for good
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        assert not gc.isenabled()
        assert garbage_before() is None
        garbage = weakref.ref(Node())
        with trio.fail_after(5):
            while garbage() is not None:
                await trio.sleep(0.01)
        await server.shutdown()
    assert gc.isenabled() and gc.get_freeze_count() == 0


async def test_without_a_timetable_the_collector_is_left_alone() -> None:
    config = ServerConfig(host="127.0.0.1", port=0, collect_every=None)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        assert gc.isenabled()
        await server.shutdown()


def test_the_interval_must_be_positive() -> None:
    for bad in (0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="collect_every"):
            ServerConfig(collect_every=bad)
