"""The client's link on its own (trio, no screen): what it says about the connection,
against a real server on 127.0.0.1 and a peer that is not one."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import trio

from sarja.client.net import Link, address_text, parse_address
from sarja.protocol.messages import Welcome
from sarja.server.app import serve
from sarja.server.config import ServerConfig
from sarja.server.tls import server_key

from .netclient import PATIENCE


def telling(port: int, events: list[tuple[str, str]], **options: Any) -> Link:
    """Aino's link to 127.0.0.1:`port`, which hands on no message and puts what it
    says of the link in `events`."""
    return Link(
        "127.0.0.1", port, name=lambda: "Aino", on_message=lambda msg, state: None,
        on_link=lambda kind, text: events.append((kind, text)), **options,
    )  # fmt: skip


def test_addresses_are_read_as_people_write_them():
    assert parse_address("192.168.1.20:7474") == ("192.168.1.20", 7474)
    assert parse_address("host") == ("host", 7474)
    assert parse_address("http://127.0.0.1:7474") == ("127.0.0.1", 7474)
    assert parse_address("sarja://box.lan:8000/") == ("box.lan", 8000)
    assert parse_address("[::1]:7000") == ("::1", 7000)
    assert parse_address("::1") == ("::1", 7474)
    assert address_text("::1", 7000) == "[::1]:7000"
    for bad in ("", "host:", "host:x", "host:70000", ":7474", "a b:1", "[::1]x"):
        try:
            parse_address(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was taken for an address")


async def impostor(port: int, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Something else listening on `port`: it greets like an SSH server."""

    async def greet(stream: trio.SocketStream) -> None:
        async with stream:
            await stream.send_all(b"SSH-2.0-OpenSSH_9.6\r\n")
            await trio.sleep_forever()

    await trio.serve_tcp(greet, port, host="127.0.0.1", task_status=task_status)


async def started(nursery: trio.Nursery, fn, *args) -> None:
    """`nursery.start(fn, *args)`, again while the port is still being let go of."""
    with trio.fail_after(PATIENCE):
        while True:
            try:
                await nursery.start(fn, *args)
                return
            except* OSError:
                pass
            await trio.sleep(0.05)


async def test_once_welcomed_the_link_keeps_trying_whatever_answers_meanwhile(tmp_path):
    """Before the first welcome, a peer that is not a Sarja server stops the retries
    until the player asks (the address is wrong). After it, the same answer may be a
    passing thing (the server is being replaced), so the link goes on trying, and says
    why, until its server is back."""
    events: list[tuple[str, str]] = []
    welcomes: list[Welcome] = []
    async with trio.open_nursery() as nursery:
        config = ServerConfig(host="127.0.0.1", port=0, data_dir=tmp_path)
        server = await nursery.start(serve, config)
        port = server.port
        link = Link(
            "127.0.0.1", port, name=lambda: "Aino",
            on_message=lambda msg, state: welcomes.append(msg) if isinstance(msg, Welcome)
            else None,
            on_link=lambda kind, text: events.append((kind, text)),
            backoff=(0.05,),
        )  # fmt: skip
        nursery.start_soon(link.run)
        with trio.fail_after(PATIENCE):
            while not welcomes:
                await trio.sleep(0.01)
        await server.shutdown()
        fakes: list[trio.CancelScope] = []  # one per try: `started` may try again

        async def pretend(task_status=trio.TASK_STATUS_IGNORED) -> None:
            with trio.CancelScope() as fake:
                fakes.append(fake)
                await impostor(port, task_status=task_status)

        await started(nursery, pretend)
        with trio.fail_after(PATIENCE):
            while not any("something else answers there" in text for _, text in events):
                await trio.sleep(0.01)
        assert all(kind != "stopped" for kind, _ in events)
        assert any("The server is shutting down." in text for _, text in events)
        fakes[-1].cancel()
        await trio.sleep(0.1)
        config = ServerConfig(host="127.0.0.1", port=port, data_dir=tmp_path)
        await started(nursery, serve, config)
        with trio.fail_after(PATIENCE):
            while len(welcomes) < 2:
                await trio.sleep(0.01)
        assert welcomes[0].server_id == welcomes[1].server_id  # the same data directory
        nursery.cancel_scope.cancel()


async def test_before_any_welcome_a_wrong_peer_waits_for_the_player():
    events: list[tuple[str, str]] = []
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(impostor, 0)
        port = listeners[0].socket.getsockname()[1]
        link = telling(port, events, backoff=(0.05,))
        nursery.start_soon(link.run)
        with trio.fail_after(PATIENCE):
            while not any(kind == "stopped" for kind, _ in events):
                await trio.sleep(0.01)
        [(_, text)] = [e for e in events if e[0] == "stopped"]
        assert text.startswith(f"127.0.0.1:{port} is not a Sarja server")
        assert "it answered “SSH-2.0-OpenSSH_9.6”" in text
        await trio.sleep(0.3)
        assert link.connections == 1  # no retry until asked
        link.retry_now()
        with trio.fail_after(PATIENCE):
            while link.connections < 2:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()


def test_the_name_screen_says_connected_only_after_a_welcome():
    # "Connected to 127.0.0.1:8099." was shown for a web server there, ~7 s before the
    # client found it was not a Sarja server.
    from sarja.client.model import Model
    from sarja.client.receive import apply
    from sarja.protocol.session import SessionState

    from .client_helpers import WELCOME, text

    model = Model(address="127.0.0.1:8099", link="online")
    assert "Connected" not in text(model) and "127.0.0.1:8099 answers" in text(model)
    apply(model, WELCOME, SessionState.LOBBY)
    model.named = False  # a new name asked for, say
    assert "Connected to 127.0.0.1:8099." in text(model)


async def test_a_web_server_that_answers_is_known_at_once():
    """An HTTP answer to the hello is not a frame ("HTTP" read as a length of 1.2 GB):
    known from its first bytes, not after the welcome's time-out (made endless here)."""

    async def web(stream: trio.SocketStream) -> None:
        await stream.receive_some(4096)
        await stream.send_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        await trio.sleep_forever()  # and keeps the connection open

    events: list[tuple[str, str]] = []
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(trio.serve_tcp, web, 0)
        port = listeners[0].socket.getsockname()[1]
        link = telling(port, events, welcome_timeout=math.inf)
        nursery.start_soon(link.run)
        with trio.fail_after(30):
            while not any(kind == "stopped" for kind, _ in events):
                await trio.sleep(0.01)
        [(_, text)] = [e for e in events if e[0] == "stopped"]
        assert "is not a Sarja server: it answered “HTTP/1.1 400 Bad Request”" in text
        nursery.cancel_scope.cancel()


async def test_a_goodbye_before_the_welcome_from_a_server_shutting_down_is_tried_again():
    """A server shutting down says `bye` `shutdown` to a connection it took in its last
    moments, before any `hello` is answered (docs/protocol.md: try again after a pause,
    the server may be starting again). The link took it for an end: it stopped for good
    and never came back to the server once it was up again."""
    from sarja.protocol.codec import ServerCodec
    from sarja.protocol.messages import Bye

    events: list[tuple[str, str]] = []
    greeted: list[int] = []

    key = server_key(None)

    async def going(tcp: trio.SocketStream) -> None:
        codec = ServerCodec()
        stream = trio.SSLStream(tcp, key.context, server_side=True)
        async with stream:
            while True:
                data = await stream.receive_some(4096)
                if not data:
                    return
                codec.receive_data(data)
                if codec.next_message() is not None:  # the hello
                    greeted.append(1)
                    bye = Bye(code="shutdown", message="The server is shutting down.")
                    await stream.send_all(codec.encode(bye))
                    return

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, going, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        link = telling(port, events, backoff=(0.05,))
        nursery.start_soon(link.run)
        with trio.fail_after(PATIENCE):
            while len(greeted) < 2 and not any(k in ("closed", "stopped") for k, _ in events):
                await trio.sleep(0.01)
        assert all(kind not in ("closed", "stopped") for kind, _ in events), events
        assert any("The server is shutting down." in text for _, text in events)
        nursery.cancel_scope.cancel()
