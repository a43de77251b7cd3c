"""A scripted client for tests: real TCP, the one client session (protocol/client_session.py),
and only what the server sends to decide on moves."""

from __future__ import annotations

from typing import Any

import trio

from sarja.protocol.client_session import ClientSession
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import Hello, Snapshot, Sync
from sarja.protocol.mirror import GameMirror
from sarja.protocol.moves import action_message

from .dial import dial

# A guard against a hang, never a measure of speed: it only ends a test that would
# otherwise wait for ever, so it is long enough for a busy 2-core machine.
PATIENCE = 120.0


class NetClient:
    """One connection. Keeps every message received, and the game as the session's
    mirror, built from the last snapshot and the updates after it (`state`)."""

    def __init__(self, stream: trio.abc.Stream, name: str) -> None:
        self.stream = stream
        self.name = name
        self.session = ClientSession()
        self.received: list[Any] = []
        self.sent: list[Any] = []
        self.frames: list[bytes] = []  # every raw frame, for hidden-information checks
        self.welcome: Any = None
        # Decoded, not yet taken in: a test may read ahead, or drop one to make a gap.
        self._pending: list[Any] = []

    @property
    def state(self) -> GameMirror | None:
        return self.session.game

    @property
    def table(self) -> Any:
        return self.session.table

    @property
    def gaps(self) -> int:
        """Gaps found, each answered with a sync."""
        return self.session.gaps

    @classmethod
    async def connect(
        cls, port: int, name: str, resume: str | None = None, computer: str | None = None,
        person: str | None = None, source: str | None = None,
    ) -> NetClient:  # fmt: skip
        stream = await dial(port, source=source)
        client = cls(stream, name)
        hello = Hello(
            version=PROTOCOL_VERSION, name=name, resume=resume, computer=computer, person=person
        )
        await client.send(hello)
        client.welcome = await client.expect("welcome")
        return client

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.session.send(msg))
        self.sent.append(msg)

    async def receive(self) -> Any:
        """The next message from the server."""
        while not self._pending:
            await self._fill()
        msg = self._pending.pop(0)
        self.received.append(msg)
        self.session.take(msg)
        for reply in self.session.replies():  # a pong, a sync
            await self.send(reply)
        return msg

    async def expect(self, kind: str, timeout: float = PATIENCE) -> Any:
        """Read until a message of `kind` arrives (others are kept, not lost)."""
        with trio.fail_after(timeout):
            while True:
                msg = await self.receive()
                if msg.TYPE == kind:
                    return msg
                if msg.TYPE == "error" and kind != "error":
                    raise AssertionError(f"{self.name} got an error: {msg}")

    async def state_at(self, version: int, timeout: float = PATIENCE) -> GameMirror:
        """Read until the game reaches `version`."""
        with trio.fail_after(timeout):
            while self.state is None or self.state.version < version:
                await self.receive()
        return self.state

    async def legal_at(self, version: int, timeout: float = PATIENCE) -> GameMirror:
        """Read until this seat's legal actions for `version` have come."""
        with trio.fail_after(timeout):
            while self.state is None or self.state.version < version or not self.state.legal:
                await self.receive()
        return self.state

    async def check_mirror(self, timeout: float = PATIENCE) -> Snapshot:
        """Ask for a snapshot and check that the mirror, built from updates, says the
        same. Everything the server sent before the snapshot is read first, in order."""
        await self.send(Sync())
        with trio.fail_after(timeout):
            while True:
                while not self._pending:
                    await self._fill()
                msg = self._pending[0]
                if isinstance(msg, Snapshot):
                    assert self.state is not None
                    mine = self.state.snapshot()
                    assert mine == msg, _difference(mine, msg)
                    await self.receive()
                    return msg
                await self.receive()

    async def _fill(self) -> None:
        data = await self.stream.receive_some(65536)
        self.frames.append(data)
        self.session.receive_data(data)
        if not data:
            raise EOFError("the server closed the connection")
        while (msg := self.session.next_message()) is not None:
            self._pending.append(msg)

    def next_id(self) -> int:
        return self.session.take_id()

    def action_message(self, notation: str, action_id: int | None = None) -> Any:
        """The protocol message for a legal action in notation, at the current version."""
        if action_id is None:
            return self.session.action(notation)
        assert self.state is not None
        return action_message(notation, action_id, self.state.version)

    async def aclose(self) -> None:
        await self.stream.aclose()


def _difference(mine: Snapshot, theirs: Snapshot) -> str:
    """The fields where the mirror and the snapshot differ, for the assertion."""
    a, b = mine.to_wire(), theirs.to_wire()
    keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    return "; ".join(f"{k}: mirror {a.get(k)!r} != snapshot {b.get(k)!r}" for k in keys)
