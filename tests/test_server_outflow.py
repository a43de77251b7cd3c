"""The outflow passes the first connection's frames of a commit (the mover's ack and
update) to its writer a scheduling round before everyone else's, so the mover's write
never waits behind the other seats'; frames queued meanwhile wait behind the held ones,
each connection's in order."""

from __future__ import annotations

import math

import trio

from sarja.protocol.messages import Ping
from sarja.server.journal import Journal
from sarja.server.outflow import Outflow

PING = Ping(n=1, _trusted=True)


class Sink:
    """A connection's end as the outflow sees it, with a writer task as a connection
    has: `deliver` hands the bytes to a channel the writer drains."""

    def __init__(self, name: str, wrote: list[tuple[str, bytes]]) -> None:
        self.name = name
        self.wrote = wrote
        self.send, self.receive = trio.open_memory_channel[bytes](math.inf)

    def encode(self, msg: object) -> bytes:
        raise AssertionError("frames come encoded here")

    def admit(self, msg: object, frame: bytes) -> bool:
        return True

    def deliver(self, data: bytes, frames: int) -> None:
        self.send.send_nowait(data)

    async def write_all(self) -> None:
        async for data in self.receive:
            self.wrote.append((self.name, data))


async def test_the_first_connection_of_a_commit_is_written_first():
    journal = Journal(None)
    outflow = Outflow(journal)
    wrote: list[tuple[str, bytes]] = []
    mover, other = Sink("mover", wrote), Sink("other", wrote)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(outflow.run)
        nursery.start_soon(mover.write_all)
        nursery.start_soon(other.write_all)
        # trio runs the tasks woken in one round in either order: had both writers been
        # woken together, some of these moves would be written the other seat first.
        for n in range(40):
            outflow.write([("SELECT 1", ())])
            outflow.send(mover, PING, b"ack%d" % n)
            outflow.send(other, PING, b"update%d" % n)
            outflow.send(mover, PING, b"update%d" % n)
            while len(wrote) < 2 * (n + 1):
                await trio.sleep(0)
        nursery.cancel_scope.cancel()
    journal.close()
    for n in range(40):
        assert wrote[2 * n] == ("mover", b"ack%d" % n + b"update%d" % n)
        assert wrote[2 * n + 1] == ("other", b"update%d" % n)


async def test_frames_queued_while_others_are_held_wait_behind_them():
    journal = Journal(None)
    outflow = Outflow(journal)
    wrote: list[tuple[str, bytes]] = []
    other = Sink("other", wrote)

    class Eager(Sink):
        """The mover's writer queues a frame for the other seat as soon as it runs (a
        reply sent while the other's frames may still be held, with no rows to wait
        for): it must not overtake the frames held for that seat."""

        async def write_all(self) -> None:
            async for data in self.receive:
                self.wrote.append((self.name, data))
                outflow.send(other, PING, b"later" + data[3:])

    mover = Eager("mover", wrote)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(outflow.run)
        nursery.start_soon(mover.write_all)
        nursery.start_soon(other.write_all)
        for n in range(40):  # the writers' order varies: the held frames first each time
            outflow.write([("SELECT 1", ())])
            outflow.send(mover, PING, b"ack%d" % n)
            outflow.send(other, PING, b"update%d" % n)
            while len(wrote) < 3 * (n + 1):
                await trio.sleep(0)
        nursery.cancel_scope.cancel()
    journal.close()
    others = b"".join(data for name, data in wrote if name == "other")
    assert others == b"".join(b"update%d" % n + b"later%d" % n for n in range(40))
