"""Commit, then send: the step of the server's loop that owns both the journal and the
connections' queues, so that neither knows of the other.

Whatever changes the server's state (a request, a computer's move, the sweep) leaves
rows for the journal and frames for connections. `write` adds the rows to the
journal's batch; `send` queues a frame. A frame queued while the journal holds rows not
yet committed waits here, with the journal's `epoch` of that moment; `run` commits the
batch, then hands each connection the frames that waited for it, in the order they were
queued, joined into one write. So an acknowledgement or update never leaves before what
it tells of is kept, and every request handled in one scheduling round shares one
commit (group commit). Frames queued when nothing waits (pings, chat, most of the time)
go at once. After a commit, the connection whose frame was queued first (a move's
mover: its ack comes first) is passed its frames a scheduling round before the rest,
so its write is the first one made.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Protocol

import trio

from sarja.protocol.messages import History, ServerMessage, Standings, TableList

from .guest import Guest
from .journal import Journal
from .journal_rows import Row


class Sink(Protocol):
    """A connection's end of the outflow (connection.py)."""

    def encode(self, msg: ServerMessage) -> bytes: ...

    def admit(self, msg: ServerMessage, frame: bytes) -> bool:
        """Whether `frame` (for `msg`) is to be sent: the session allows it, and the
        queue has room. Counted as owed to the writer until `deliver`."""
        ...

    def deliver(self, data: bytes, frames: int) -> None:
        """Hand `frames` admitted frames, joined into `data`, to the writer."""
        ...


# Messages sent again and again unchanged (the table list, a game's history pages, the
# standings between two games): encoded once and kept here while they hold.
_KEPT = frozenset({TableList, History, Standings})
_KEEP_AT_MOST = 256


class Outflow:
    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._waiting: deque[tuple[int, Sink, bytes]] = deque()
        self._frames: dict[int, tuple[ServerMessage, bytes]] = {}
        self._holding = False  # frames released but not passed on yet (`_pass_on`)

    def write(self, batch: list[Row]) -> None:
        """Rows for the next commit; every frame queued from now on waits for it."""
        if batch:
            self.journal.write(batch)

    def send(self, sink: Sink, msg: ServerMessage, frame: bytes | None = None) -> None:
        """Queue `msg` for `sink` (`frame`: already encoded, for many sinks)."""
        if frame is None:
            frame = self.frame(sink, msg)
        if not sink.admit(msg, frame):
            return
        journal = self.journal
        if self._waiting or self._holding or journal.epoch > journal.committed:
            self._waiting.append((journal.epoch, sink, frame))
        else:
            sink.deliver(frame, 1)

    def send_all(self, sends: list[tuple[Guest | Sequence[Guest], ServerMessage]]) -> None:
        """Queue the messages a step left for guests (effects.py), each encoded once
        however many it goes to; a guest with no connection now gets nothing."""
        journal = self.journal
        epoch = journal.epoch  # no row is written while this runs
        waiting = self._waiting
        hold = bool(waiting) or self._holding or epoch > journal.committed
        # (Class checks, not isinstance: this runs for every message of every move.)
        for to, msg in sends:
            shared: bytes | None = None  # encoded once, for every guest it goes to
            for guest in (to,) if to.__class__ is Guest else to:  # type: ignore[union-attr]
                sink = guest.outbox
                if sink is None:
                    continue
                if shared is None:
                    shared = (
                        sink.encode(msg) if msg.__class__ not in _KEPT else self.frame(sink, msg)
                    )
                if not sink.admit(msg, shared):
                    continue
                if hold:
                    waiting.append((epoch, sink, shared))
                else:
                    sink.deliver(shared, 1)

    def frame(self, sink: Sink, msg: ServerMessage) -> bytes:
        """The frame for `msg`: encoded once, for a message sent again unchanged."""
        if msg.__class__ not in _KEPT:
            return sink.encode(msg)
        kept = self._frames.get(id(msg))
        if kept is not None and kept[0] is msg:
            return kept[1]
        if len(self._frames) >= _KEEP_AT_MOST:
            self._frames.clear()
        frame = sink.encode(msg)
        self._frames[id(msg)] = (msg, frame)  # the message kept too: its id stays its own
        return frame

    def release(self, committed: int) -> None:
        """The journal has committed up to `committed`: pass on what waited for it,
        one write per connection however many frames it has."""
        for sink, frames in self._ready(committed).items():
            _deliver(sink, frames)

    def _ready(self, committed: int) -> dict[Sink, list[bytes]]:
        """What waited for `committed`, per connection, in the order first queued."""
        waiting = self._waiting
        ready: dict[Sink, list[bytes]] = {}
        while waiting and waiting[0][0] <= committed:
            _, sink, frame = waiting.popleft()
            frames = ready.get(sink)
            if frames is None:
                ready[sink] = [frame]
            else:
                frames.append(frame)
        return ready

    async def _pass_on(self, committed: int) -> None:
        """`release`, the first connection first: the one whose frame was queued first
        (the mover, whose ack a step queues before anything else) is passed its frames,
        and everyone else theirs one scheduling round later. trio runs the writers
        woken in one round in either order, so the mover's write would otherwise wait
        behind the other seats' half the time. Frames queued meanwhile wait behind."""
        ready = self._ready(committed)
        if len(ready) > 1:
            sink, frames = next(iter(ready.items()))
            del ready[sink]
            _deliver(sink, frames)
            self._holding = True
            try:
                # Not a cancel point: what was released is passed on, even at a stop.
                await trio.lowlevel.cancel_shielded_checkpoint()
            finally:
                self._holding = False
        for sink, frames in ready.items():
            _deliver(sink, frames)
        if self._waiting:  # queued while held, with nothing more to commit first
            self.release(self.journal.committed)

    async def run(self) -> None:
        """The loop: commit what was written, then release what waited for it, batch
        after batch, until cancelled (or the journal fails: then nothing that waited
        is ever sent); the log is emptied between two commits when due."""
        journal = self.journal
        async with trio.open_nursery() as nursery:
            journal.start(nursery)
            while journal.failed is None:
                quiet = await journal.wait_for_writes()
                if not quiet and await journal.commit():
                    await self._pass_on(journal.committed)
                await journal.tidy(quiet)
            nursery.cancel_scope.cancel()


def _deliver(sink: Sink, frames: list[bytes]) -> None:
    """One connection's frames of one commit, as one write."""
    sink.deliver(frames[0] if len(frames) == 1 else b"".join(frames), len(frames))
