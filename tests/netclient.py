"""A scripted client for tests: real TCP, the real protocol codec, and only
what the server sends to decide on moves."""

from __future__ import annotations

import itertools
from typing import Any

import trio

from sarja.protocol import ClientCodec
from sarja.protocol.messages import Hello
from sarja.protocol.moves import action_message


class NetClient:
    """One connection. Keeps every message received, and the latest state."""

    def __init__(self, stream: trio.SocketStream, name: str) -> None:
        self.stream = stream
        self.name = name
        self.codec = ClientCodec()
        self.received: list[Any] = []
        self.frames: list[bytes] = []  # every raw frame, for hidden-information checks
        self.state: Any = None
        self.table: Any = None
        self.welcome: Any = None
        self._ids = itertools.count(1)
        self._pending: list[Any] = []

    @classmethod
    async def connect(cls, port: int, name: str, resume: str | None = None) -> NetClient:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        client = cls(stream, name)
        await client.send(Hello(version=1, name=name, resume=resume))
        client.welcome = await client.expect("welcome")
        return client

    async def send(self, msg: Any) -> None:
        await self.stream.send_all(self.codec.send(msg))

    async def receive(self) -> Any:
        """The next message from the server."""
        while not self._pending:
            data = await self.stream.receive_some(65536)
            self.frames.append(data)
            self.codec.receive_data(data)
            if not data:
                raise EOFError("the server closed the connection")
            while (msg := self.codec.next_message()) is not None:
                self._pending.append(msg)
        msg = self._pending.pop(0)
        self.received.append(msg)
        if msg.TYPE == "state":
            self.state = msg
        elif msg.TYPE == "table":
            self.table = msg
        elif msg.TYPE == "ping":
            from sarja.protocol.messages import Pong

            await self.send(Pong(n=msg.n))
        return msg

    async def expect(self, kind: str, timeout: float = 5) -> Any:
        """Read until a message of `kind` arrives (others are kept, not lost)."""
        with trio.fail_after(timeout):
            while True:
                msg = await self.receive()
                if msg.TYPE == kind:
                    return msg
                if msg.TYPE == "error" and kind != "error":
                    raise AssertionError(f"{self.name} got an error: {msg}")

    async def state_at(self, version: int, timeout: float = 5) -> Any:
        """Read until the state reaches `version`."""
        with trio.fail_after(timeout):
            while self.state is None or self.state.version < version:
                await self.receive()
        return self.state

    def next_id(self) -> int:
        return next(self._ids)

    def action_message(self, notation: str, action_id: int | None = None) -> Any:
        """The protocol message for a legal action in notation, at the current version."""
        i = self.next_id() if action_id is None else action_id
        return action_message(notation, i, self.state.version)

    async def aclose(self) -> None:
        await self.stream.aclose()
