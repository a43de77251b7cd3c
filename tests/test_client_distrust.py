"""`sarja-bot` and the client's link against a server that lies (tests/fake_server.py,
on 127.0.0.1 port 0): an update that does not fit the table, or a frame no server may
send, ends the bot with one line on stderr, never a traceback, and makes the link say
so and connect afresh (stopping when the server keeps at it); the pauses between tries
double up to a bound, on trio's MockClock; an endless stream of updates that fit grows
neither."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest
import trio

from sarja.client import model as m
from sarja.client import receive
from sarja.client.bot import HISTORY_KEPT, RemoteBot
from sarja.client.net import BACKOFF, JITTER, STEADY, UNUSABLE_LIMIT, Link
from sarja.protocol.framing import pack_length
from sarja.protocol.limits import DECK_SIZE, MAX_SERVER_FRAME
from sarja.protocol.messages import Ping, Pong, ServerMessage

from .fake_server import Liar, bad_updates, endless, position
from .test_remote_bot import command

_, _, SNAP = position()
BAD = bad_updates(SNAP)
# Frames no server may send, after the game has started: fatal, the rest unreadable.
BROKEN = {
    "oversize": pack_length(MAX_SERVER_FRAME + 1) + b"\x80" * 64,
    "huge": pack_length(2**32 - 1) + b"x",
    "empty": pack_length(0) + b"\x80",
}


def once(*messages: ServerMessage) -> Iterator[ServerMessage]:
    yield from messages


async def bot_process(liar: Liar) -> trio.Process:
    """sarja-bot, run as a player would run it, at `liar`; its outcome."""
    async with trio.open_nursery() as nursery:
        port = await liar.start(nursery)
        with trio.fail_after(60):
            done = await trio.run_process(
                [*command("sarja-bot"), f"127.0.0.1:{port}", "--level", "easy"],
                capture_stdout=True, capture_stderr=True, check=False,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )  # fmt: skip
        nursery.cancel_scope.cancel()
    return done


@pytest.mark.parametrize("name", list(BROKEN))
async def test_the_bot_process_stops_with_one_line_on_a_broken_frame(name):
    done = await bot_process(Liar(lambda n: iter([BROKEN[name]])))
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "the server sent something this bot cannot use" in err
    assert ("length was 0" if name == "empty" else "over the limit") in err


@pytest.mark.parametrize("name", list(BAD))
async def test_the_bot_process_stops_with_one_line_on_a_lie(name):
    done = await bot_process(Liar(lambda n: once(BAD[name])))
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "the server sent something this bot cannot use (bad_server_message:" in err


async def test_the_bot_keeps_a_bounded_history_over_an_endless_stream():
    """20k updates that fit, each a play the bot would remember: it keeps the newest
    HISTORY_KEPT, and its mirror a discard pile of at most the deck."""
    count = 20_000
    liar = Liar(lambda n: iter([*endless(SNAP, count), Ping(n=1)]))
    async with trio.open_nursery() as nursery:
        port = await liar.start(nursery)
        bot = RemoteBot("127.0.0.1", port, "easy", "Easy bot")
        nursery.start_soon(bot.run)
        with trio.fail_after(240):
            await liar.done.wait()  # the pong after the stream: every update was taken
        assert bot.mirror is not None and bot.mirror.version == count
        assert len(bot.history) == HISTORY_KEPT
        assert len(bot.mirror.discard) <= DECK_SIZE
        nursery.cancel_scope.cancel()


def linked(
    port: int,
    model: m.Model,
    events: list[tuple[str, str]],
    backoff: tuple[float, ...] = (0.05,),
    heard: Callable[[str, str], None] = lambda kind, text: None,
) -> Link:
    """A link driving `model` as the app does (without a screen); `heard` hears what
    the link tells, after the model."""

    def message(msg: ServerMessage, state) -> None:
        for reply in receive.apply(model, msg, state):
            link.send(reply)

    def on_link(kind: str, text: str) -> None:
        events.append((kind, text))
        receive.set_link(model, kind, text)
        heard(kind, text)

    link = Link("127.0.0.1", port, name=lambda: "Aino", on_message=message, on_link=on_link,
                backoff=backoff, session=model.session)  # fmt: skip
    return link


async def test_the_client_says_it_could_not_use_a_lie_and_connects_afresh():
    """The first connection brings seat 11 at a 2-seat table; the link hangs up, says
    why, and the next connection's snapshot puts the game back on screen."""
    liar = Liar(lambda n: once(BAD["seat 11"]) if n == 0 else iter([Ping(n=2)]))
    model = m.Model(address="127.0.0.1", name="Aino", named=True)
    events: list[tuple[str, str]] = []
    async with trio.open_nursery() as nursery:
        port = await liar.start(nursery)
        link = linked(port, model, events)
        nursery.start_soon(link.run)
        with trio.fail_after(30):  # the second connection's ping answered: all before it read
            while Pong(n=2) not in liar.received:
                await trio.sleep(0.01)
        told = [line.text for line in model.log if line.kind == "error"]
        assert told and told[0].startswith("The server sent something this client could not")
        assert "seat 11 at a table of 2 seats" in told[0]
        assert any(kind == "reconnecting" and "could not use" in text for kind, text in events)
        assert model.online and model.game is not None and model.my_turn  # a fresh picture
        assert not any(kind == "stopped" for kind, _ in events)
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("name", ["side 2", "turn of seat 5", "cards beyond the deck"])
async def test_a_server_that_keeps_lying_is_not_retried_until_the_player_asks(name):
    liar = Liar(lambda n: once(BAD[name]))
    model = m.Model(address="127.0.0.1", name="Aino", named=True)
    events: list[tuple[str, str]] = []
    async with trio.open_nursery() as nursery:
        port = await liar.start(nursery)
        link = linked(port, model, events)
        nursery.start_soon(link.run)
        with trio.fail_after(30):
            while not any(kind == "stopped" for kind, _ in events):
                await trio.sleep(0.01)
        [(_, text)] = [e for e in events if e[0] == "stopped"]
        assert "keeps sending messages this client cannot use" in text
        assert link.connections == UNUSABLE_LIMIT
        assert model.link == "stopped" and not model.my_turn  # no stale "your turn"
        await trio.sleep(0.3)
        assert link.connections == UNUSABLE_LIMIT  # no retry until asked
        link.retry_now()
        with trio.fail_after(30):
            while link.connections == UNUSABLE_LIMIT:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()


async def test_the_client_keeps_a_bounded_picture_over_an_endless_stream():
    count = 20_000
    liar = Liar(lambda n: iter([*endless(SNAP, count), Ping(n=1)]))
    model = m.Model(address="127.0.0.1", name="Aino", named=True)
    events: list[tuple[str, str]] = []
    async with trio.open_nursery() as nursery:
        port = await liar.start(nursery)
        nursery.start_soon(linked(port, model, events).run)
        with trio.fail_after(240):
            await liar.done.wait()
        assert model.game is not None and model.game.version == count
        assert len(model.game.discard) <= DECK_SIZE and len(model.log) <= m.LOG_KEPT
        assert not any(kind == "reconnecting" for kind, _ in events)
        nursery.cancel_scope.cancel()


async def tries_of(liar: Liar, count: int) -> tuple[list[float], Link, m.Model, list]:
    """When (on trio's clock) each of the first `count` connections was made, or each
    made before the link stopped trying; with the link's own pauses between tries (the
    tests that call this run on MockClock)."""
    model = m.Model(address="127.0.0.1", name="Aino", named=True)
    events: list[tuple[str, str]] = []
    times: list[float] = []
    enough = trio.Event()

    def heard(kind: str, text: str) -> None:
        if kind == "online" and not text:  # a connection made
            times.append(trio.current_time())
        if kind == "stopped" or len(times) >= count:
            enough.set()

    async with trio.open_nursery() as nursery:
        port = await liar.start(nursery)
        link = linked(port, model, events, BACKOFF, heard)
        nursery.start_soon(link.run)
        with trio.move_on_after(3600):
            await enough.wait()
        nursery.cancel_scope.cancel()
    return times, link, model, events


@pytest.mark.parametrize("name", list(BROKEN))
async def test_the_client_refuses_a_broken_frame_and_stops_when_it_keeps_coming(
    name, autojump_clock
):
    """Each connection: the game, then a frame no server may send. The link says so in
    the log (one line each), hangs up, tries again after a growing pause, and after
    UNUSABLE_LIMIT such connections waits for the player, saying why."""
    times, link, model, events = await tries_of(Liar(lambda n: iter([BROKEN[name]])), 10)
    assert link.connections == UNUSABLE_LIMIT
    told = [line.text for line in model.log if line.kind == "error"]
    assert len(told) == UNUSABLE_LIMIT
    assert all(t.startswith("The server sent something this client could not use") for t in told)
    [(_, why)] = [e for e in events if e[0] == "stopped"]
    assert "keeps sending messages this client cannot use" in why and "Press r" in why
    assert model.link == "stopped" and not model.my_turn
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    for i, gap in enumerate(gaps):  # the pauses double, each cut by at most JITTER
        assert BACKOFF[i] * (1 - JITTER) <= gap <= BACKOFF[i] + 0.01, gaps


async def test_the_pauses_double_up_to_a_bound_and_differ(autojump_clock):
    """A server that welcomes and hangs up at once, for ever: the link keeps trying
    (the network may be at fault), each pause twice the last up to BACKOFF's last, cut
    by a random part (JITTER), so the players of a restarted server come back spread."""
    times, link, _, events = await tries_of(Liar(lambda n: iter([]), hold=lambda n: 0), 14)
    assert len(times) == 14 and not any(kind == "stopped" for kind, _ in events)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    for i, gap in enumerate(gaps):
        most = BACKOFF[min(i, len(BACKOFF) - 1)]
        assert most * (1 - JITTER) <= gap <= most + 0.01, gaps
    at_bound = gaps[len(BACKOFF) :]
    assert len(set(at_bound)) == len(at_bound)  # jitter: no two the same


async def test_a_connection_that_served_a_while_starts_the_pauses_afresh(autojump_clock):
    """Four connections hung up on at once, then one that lasts past STEADY: the pause
    after it is the first one again."""
    liar = Liar(lambda n: iter([]), hold=lambda n: STEADY + 5 if n == 4 else 0)
    times, *_ = await tries_of(liar, 6)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps[3] >= BACKOFF[3] * (1 - JITTER)
    assert gaps[4] >= STEADY  # the connection itself
    assert gaps[4] - (STEADY + 5) <= BACKOFF[0] + 0.01


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (BAD["seat 11"], "may not send 'update' before the handshake"),
        (Pong(n=1), "answered the hello with “pong”, not a welcome"),
    ],
)
async def test_a_server_that_stops_welcoming_is_not_retried_for_ever(answer, said, autojump_clock):
    """Welcomed once, then every hello answered with something else: not what a Sarja
    server does, and no reason to knock every half second for ever. The link stops
    after UNUSABLE_LIMIT such answers and says why."""
    liar = Liar(lambda n: iter([] if n == 0 else [answer]), greets=lambda n: n == 0,
                hold=lambda n: 0 if n == 0 else None)  # fmt: skip
    times, link, model, events = await tries_of(liar, 100)
    [(_, why)] = [e for e in events if e[0] == "stopped"]
    assert "keeps sending messages this client cannot use" in why and said in why
    assert link.connections == 1 + UNUSABLE_LIMIT
