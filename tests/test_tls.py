"""TLS on the game's connection, and the server's key: what a guest on the LAN sees on
the wire, what an older client is told, and the key the server keeps."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import secrets
import stat
from functools import partial
from types import SimpleNamespace
from typing import Any

import msgpack
import pytest
import trio

from sarja.protocol import examples
from sarja.protocol.codec import ServerCodec
from sarja.protocol.fingerprint import ALPHABET, CODE_BITS, short_code
from sarja.protocol.messages import Hand, Snapshot
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.tls import KEY_FILE, server_key

from .dial import dial
from .netclient import PATIENCE, NetClient
from .server_helpers import play_to_the_end, seat_table


class Relay:
    """A TCP relay on 127.0.0.1 that passes bytes both ways and keeps every one: what
    anyone on the LAN with a packet capture reads."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self.captured: list[bytes] = []

    async def start(self, nursery: trio.Nursery) -> None:
        listeners = await nursery.start(partial(trio.serve_tcp, self._relay, 0, host="127.0.0.1"))
        self.port = listeners[0].socket.getsockname()[1]

    async def _relay(self, near: trio.SocketStream) -> None:
        far = await trio.open_tcp_stream("127.0.0.1", self.target)
        async with near, far, trio.open_nursery() as nursery:
            nursery.start_soon(self._pass, near, far, nursery.cancel_scope)
            nursery.start_soon(self._pass, far, near, nursery.cancel_scope)

    async def _pass(
        self, source: trio.SocketStream, sink: trio.SocketStream, both: trio.CancelScope
    ) -> None:
        try:
            while data := await source.receive_some(65536):
                self.captured.append(data)
                await sink.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        both.cancel()

    @property
    def wire(self) -> bytes:
        return b"".join(self.captured)


def hidden(clients: list[NetClient]) -> set[bytes]:
    """Every hand each client was dealt or held, in every form it could take on the
    wire (its msgpack array, the codes one after another), and every secret."""
    found: set[bytes] = set()
    for client in clients:
        for msg in client.received:
            cards: tuple[str, ...] = ()
            if isinstance(msg, Hand | Snapshot):
                cards = msg.hand
            if len(cards) >= 3:
                found.add(msgpack.packb(list(cards)))
                found.add("".join(cards).encode())
                found.add(b"".join(msgpack.packb(c) for c in cards[:3]))
        found.add(client.welcome.resume.encode())
    return found


async def test_a_capture_of_a_whole_game_shows_no_hand_and_no_secret(nursery):
    """Everything on the wire of a game, both ways, read as a guest on the LAN would:
    no hand, no card sequence of one, no resume token, no person key."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0, seed=11))
    relay = Relay(server.port)
    await relay.start(nursery)
    clients = await seat_table(SimpleNamespace(port=relay.port), 2)  # type: ignore[arg-type]
    person = secrets.token_urlsafe(32)
    watcher = await NetClient.connect(relay.port, "Cecilia", person=person)
    final = await play_to_the_end(clients, random.Random(3), check_every=50)
    assert final.result is not None
    secrets_and_hands = hidden(clients) | {person.encode()}
    wire = relay.wire
    assert len(wire) > 10_000 and wire[:1] == b"\x16"  # a TLS handshake opens it
    plain = b"".join(b"".join(c.frames) for c in clients)
    assert any(h in plain for h in secrets_and_hands)  # what is looked for is real
    assert [h for h in secrets_and_hands if h in wire] == []
    for client in [*clients, watcher]:
        await client.aclose()


async def test_a_client_without_tls_gets_one_clear_refusal(nursery):
    """A protocol-2 client says hello in the clear: it gets one error frame it can read,
    saying the server speaks protocol 3 over TLS, then the end of the stream."""
    server = await nursery.start(serve, ServerConfig(host="127.0.0.1", port=0))
    body = msgpack.packb(examples.V2_HELLO)
    stream = await trio.open_tcp_stream("127.0.0.1", server.port)
    await stream.send_all(len(body).to_bytes(4, "big") + body)
    answer = b""
    with trio.fail_after(PATIENCE):
        while data := await stream.receive_some(65536):
            answer += data
    assert answer == ServerCodec().encode(examples.OLDER_CLIENT)
    assert "protocol version 3, over TLS" in examples.OLDER_CLIENT.message
    await stream.aclose()
    # The server goes on serving those who speak TLS.
    client = await NetClient.connect(server.port, "Aino")
    await client.aclose()


async def test_the_key_is_made_once_kept_private_and_shown_as_a_short_code(tmp_path, nursery):
    first = server_key(tmp_path)
    path = tmp_path / KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert server_key(tmp_path).fingerprint == first.fingerprint  # the same each start
    code = first.code
    assert len(code) == CODE_BITS // 5 + CODE_BITS // 20 - 1  # four groups of four
    assert all(c in ALPHABET for c in code.replace("-", ""))
    assert short_code(first.fingerprint) == code
    # The fingerprint a client reads from the handshake is the one the server keeps.
    config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path / "data")
    server: Any = await nursery.start(serve, config)
    from sarja.client.tls import fingerprint

    stream = await dial(server.port)
    assert fingerprint(stream) == server.key.fingerprint
    assert server_key(tmp_path / "data").fingerprint == server.key.fingerprint
    await stream.aclose()


def test_a_fake_server_with_the_real_id_gets_no_secret_and_is_told_apart(tmp_path):
    """Aino has played at a server; someone on the LAN runs a server that answers with
    that server's id, announced by discovery (on loopback here). The finder marks it,
    and the client, connecting to it, sends it neither her seat's token nor her person
    key, keeps her real token, and says the server's key differs."""
    asyncio.run(_fake_server(tmp_path))


async def _fake_server(tmp_path):
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.output import DummyOutput

    from sarja.client.find_screen import FindScreen
    from sarja.server.announce import Announcer

    from .client_helpers import harness
    from .fake_server import Liar, position
    from .test_client_app import seat_two
    from .test_discovery import Browser, unique

    async with harness(tmp_path) as h:
        aino, _bertil = await seat_two(h)
        settings = aino.settings
        real_key = aino.model.session.peer_key
        server_id = aino.model.server_id
        token = aino.model.seats[real_key]["Aino"]
        person = settings.people[real_key]
        assert settings.pins == {server_id: real_key}

        welcome, table, snap = position()
        welcome = dataclasses.replace(welcome, server_id=server_id, server="Sarja")
        liar = Liar(lambda n: iter(()), position=(welcome, table, snap))

        async def run_liar(task_status=trio.TASK_STATUS_IGNORED) -> None:
            async with trio.open_nursery() as nursery:
                task_status.started(await liar.start(nursery))

        port = await h.host.start_task(run_liar)
        name = unique("fake")
        announcer = Announcer("127.0.0.1", port, name, server_id, liar.key.fingerprint)
        h.host.start_soon(announcer.run, lambda: 42)
        browser = Browser()
        try:
            found = await asyncio.to_thread(
                browser.wait, lambda f: any(s.name == name for s in f), "the fake announced"
            )
        finally:
            browser.close()
        [fake] = [s for s in found if s.name == name]
        assert fake.server_id == server_id and fake.port == port
        screen = FindScreen("127.0.0.1", settings.pins, set(settings.seats))
        with create_app_session(output=DummyOutput()):
            line = "".join(text for _, text in screen._line(fake, True))
        assert "NOT THE KEY IT HAD" in line and "your seat" not in line

        again = await h.player("Aino", settings=settings, where=None, port=port)
        await again.wait(lambda: again.model.link == "stopped", "the refusal")
        told = again.model.link_text
        assert "shows another key" in told and "--accept-new-key" in told
        assert short_code(liar.key.fingerprint) in told
        # What the fake heard: a hello with a person key made for its own key, no more.
        heard = repr(liar.received)
        assert token not in heard and person not in heard
        assert [m.TYPE for m in liar.received] == ["hello"]
        assert liar.received[0].resume is None and liar.received[0].person != person
        # Aino's real token and key are as they were, under the real server's key only.
        assert aino.model.seats[real_key]["Aino"] == token
        assert settings.seats[real_key]["Aino"] == token and settings.people[real_key] == person
        assert liar.key.fingerprint not in settings.seats
        assert settings.pins == {server_id: real_key}


async def test_a_key_file_that_cannot_be_read_stops_the_server_and_is_kept(tmp_path):
    """A new key would make every client warn: the host is told, and the file stays."""
    from sarja.server.cli import host_can_fix
    from sarja.server.tls import KeyFileError

    (tmp_path / KEY_FILE).write_text("not a key\n")
    with pytest.raises(KeyFileError) as refused:
        server_key(tmp_path)
    assert "delete it to make a new key" in (host_can_fix(refused.value, 7474) or "")
    assert (tmp_path / KEY_FILE).read_text() == "not a key\n"


def test_a_welcome_over_another_key_sends_nothing_and_accepting_moves_what_was_kept():
    """The client's side alone: a welcome naming a pinned server over another key is
    neither answered (no resume) nor kept; with --accept-new-key the key is taken and
    what was kept under the old one moves to it."""
    from sarja.client.settings import Settings

    from .client_helpers import KEY, WELCOME, Headless

    other = "0f" * 32
    for accept in (False, True):
        settings = Settings(None)
        settings.learn(KEY, WELCOME.server_id, "p" * 43)
        settings.save("Aino", {KEY: {"Aino": "old" * 11}})
        h = Headless()
        h.client.settings, h.client.accept_new_key = settings, accept
        h.model.seats = {KEY: {"Aino": "old" * 11}}
        h.session.peer_key = other  # the handshake showed another key
        h.feed(WELCOME)
        assert h.sent == [] and h.model.welcome is None  # no resume, nothing taken in
        if accept:
            assert settings.pins == {WELCOME.server_id: other}
            assert settings.people == {other: "p" * 43}
            assert h.model.seats == {other: {"Aino": "old" * 11}}
        else:
            assert settings.pins == {WELCOME.server_id: KEY} and other not in h.model.seats
            assert "shows another key" in (h.client.link._stopped or "")
