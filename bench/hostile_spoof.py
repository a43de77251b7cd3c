"""A guest's own server pretending to be the real one, for bench/hostile.py.

Aino sits at a table of a real `sarja-server` (127.0.0.1, a data directory of its own)
through the real terminal client (`sarja-client` in a pseudo-terminal, its settings in
a folder of its own): she then holds a resume token and a person key for that server,
in her client.json. Then, with the same settings:

- The fake: a server with a TLS key of its own, which answers `hello` with the real
  server's own `welcome` (same server id and name, a token of its own) and records every
  byte it receives after the handshake. The client must say the key differs
  (`spoof_refused_by_client`) and send it nothing secret.
- The relay: the real server's certificate cannot be shown without its key (`ssl`
  refuses to load the one without the other, and the handshake proves the key), so the
  nearest a fake gets to replaying it is passing the real handshake through: a relay to
  the real server, recording every byte both ways. It sees only ciphertext; Aino gets
  her seat back through it (`spoof_relay_seat_back`).

`spoof_secrets_leaked` counts the secrets the client holds (every token and person key
in its settings after the first sitting) found, in any form (as sent, their bytes in
hex or in base64), in what the fake and the relay received: the target is 0.
`spoof_attempts` is how many connections the fake got.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import os
import secrets
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

import trio
from hostile_bounds import start  # beside this file
from hostile_tables import HOST, Client  # beside this file
from support.processes import stop  # bench/support/
from support.pty_screen import Terminal  # bench/support/

from sarja.protocol.codec import ServerCodec
from sarja.protocol.errors import ProtocolError
from sarja.protocol.messages import Hello, Welcome
from sarja.server.tls import server_key

CLIENT = str(Path(sys.executable).parent / "sarja-client")
PLAYING = "Hand "  # the game on her screen
CHANGED = "shows another key"
PATIENCE = 60.0


def client(port: int, settings: Path) -> Terminal:
    env = {**os.environ, "XDG_CONFIG_HOME": str(settings)}
    return Terminal([CLIENT, f"{HOST}:{port}", "--name", "Aino", "--lang", "en"], env)


def sit(port: int, settings: Path) -> None:
    """Aino, through the client, makes a table, seats a computer, starts the game and
    quits: the server holds her seat, for the token she keeps."""
    aino = client(port, settings)
    try:
        aino.wait_for("No tables yet")
        aino.type("n")
        aino.wait_for("New table")
        aino.type("\r")
        aino.wait_for("Aino (you)")
        aino.type("ja")  # a computer in the other seat
        aino.wait_for("(computer, easy)")
        aino.type("r")
        aino.wait_for(PLAYING)
    finally:
        aino.close()


def screen_says(port: int, settings: Path, what: str) -> bool:
    """The client run against `port` with the same settings: whether its screen came
    to say `what` (blanks and line ends folded) within PATIENCE seconds."""
    aino = client(port, settings)
    try:
        deadline = time.monotonic() + PATIENCE
        while what not in " ".join(aino.text().split()):
            if time.monotonic() > deadline or aino.proc.poll() is not None:
                return False
            time.sleep(0.05)
        return True
    finally:
        aino.close()


def kept_secrets(settings: Path) -> list[str]:
    """Every resume token and person key the client keeps."""
    data = json.loads((settings / "sarja" / "client.json").read_text())
    tokens = [t for seat in data.get("seats", {}).values() for t in seat.values()]
    return [*tokens, *data.get("people", {}).values()]


def forms(secret: str) -> list[bytes]:
    """A secret as the client keeps it, and its bytes in the other usual spellings."""
    out = [secret.encode()]
    try:
        raw = base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))
    except (binascii.Error, ValueError):
        return out
    return [*out, raw, raw.hex().encode(), base64.b64encode(raw).rstrip(b"=")]


def found(secrets_: list[str], heard: bytes) -> int:
    return sum(any(form in heard for form in forms(s)) for s in secrets_)


@dataclasses.dataclass
class Fake:
    """A server with a key of its own answering `hello` with `welcome`."""

    welcome: Welcome
    key: Any = dataclasses.field(default_factory=lambda: server_key(None))
    heard: bytearray = dataclasses.field(default_factory=bytearray)
    connections: int = 0

    async def serve(self, tcp: trio.SocketStream) -> None:
        stream = trio.SSLStream(tcp, self.key.context, server_side=True)
        try:
            await stream.do_handshake()
        except trio.BrokenResourceError:
            await trio.aclose_forcefully(tcp)
            return
        self.connections += 1
        codec = ServerCodec()
        with trio.move_on_after(60):
            try:
                while data := await stream.receive_some(65536):
                    self.heard += data
                    codec.receive_data(data)
                    while True:
                        try:
                            msg = codec.next_message()
                        except ProtocolError:
                            continue
                        if msg is None:
                            break
                        if isinstance(msg, Hello):  # the real welcome, a token of its own
                            fresh = secrets.token_urlsafe(32)
                            welcome = dataclasses.replace(self.welcome, resume=fresh)
                            await stream.send_all(codec.encode(welcome))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
        await trio.aclose_forcefully(stream)


@dataclasses.dataclass
class Relay:
    """Every byte passed on to the real server and back, and recorded."""

    port: int
    heard: bytearray = dataclasses.field(default_factory=bytearray)

    async def serve(self, tcp: trio.SocketStream) -> None:
        real = await trio.open_tcp_stream(HOST, self.port)
        async with tcp, real, trio.open_nursery() as nursery:
            nursery.start_soon(self._pass, tcp, real, nursery.cancel_scope)
            nursery.start_soon(self._pass, real, tcp, nursery.cancel_scope)

    async def _pass(
        self, source: trio.SocketStream, to: trio.SocketStream, done: trio.CancelScope
    ) -> None:
        try:
            while data := await source.receive_some(65536):
                self.heard += data
                await to.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        done.cancel()


async def listen(nursery: trio.Nursery, handler: Any) -> int:
    listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host=HOST))
    return int(listeners[0].socket.getsockname()[1])


async def spoof(quick: bool, folder: Path) -> dict[str, Any]:
    process, port = await start(folder / "real")
    settings = folder / "aino"
    try:
        await trio.to_thread.run_sync(sit, port, settings)
        held = kept_secrets(settings)
        probe = await Client.connect(port, "Probe")
        await probe.aclose()
        fake, relay = Fake(probe.welcome), Relay(port)
        async with trio.open_nursery() as nursery:
            fake_port = await listen(nursery, fake.serve)
            relay_port = await listen(nursery, relay.serve)
            refused = await trio.to_thread.run_sync(screen_says, fake_port, settings, CHANGED)
            back = await trio.to_thread.run_sync(screen_says, relay_port, settings, PLAYING)
            nursery.cancel_scope.cancel()
    finally:
        await stop(process)
    return {
        "spoof_secrets_leaked": found(held, bytes(fake.heard)) + found(held, bytes(relay.heard)),
        "spoof_attempts": fake.connections,
        "spoof_refused_by_client": refused,
        "spoof_secrets_held": len(held),
        "spoof_bytes_heard": len(fake.heard),
        "spoof_relay_seat_back": back,
        "spoof_relay_bytes_heard": len(relay.heard),
        "spoof_relay_name_in_clear": b"Aino" in relay.heard,
    }


async def alone(quick: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sarja-spoof-") as folder:
        return await spoof(quick, Path(folder))


if __name__ == "__main__":
    # Alone, as every bench does: its figures as one JSON object, the last line.
    print(json.dumps(trio.run(alone, "--quick" in sys.argv)))
