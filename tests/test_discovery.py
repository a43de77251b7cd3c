"""Discovery with DNS-SD, with real processes on loopback only: every server
passes `--host 127.0.0.1` (so it announces on loopback alone) and every browser looks
through 127.0.0.1 alone (`--discover-on 127.0.0.1`). Other test runs on this machine may
announce servers too: each test names its servers uniquely and looks only for those.
Nothing is timed: each wait is for the event, with a generous fail-safe (PATIENCE);
bench/discovery.py measures how soon servers are listed and dropped."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sarja.client.find import Finder
from sarja.client.find_screen import FindScreen
from sarja.protocol.discovery import Found, instance_name, read_found, txt_record
from sarja.protocol.limits import PROTOCOL_VERSION

from .netclient import PATIENCE
from .test_client_e2e import TURN, Terminal, command, hurry

JOIN_LINE = re.compile(r"^\s+\S*sarja-client 127\.0\.0\.1:(\d+)$")


def unique(what: str) -> str:
    """A server name no other test run on this machine uses."""
    return f"t-{what}-{os.getpid()}-{secrets.token_hex(3)}"


class ServerProcess:
    def __init__(self, name: str, *extra: str) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            [*command("sarja-server"), "--host", "127.0.0.1", "--port", "0", "--name", name,
             *extra],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        self.lines: list[str] = []
        for line in self.proc.stdout:
            self.lines.append(line)
            if found := JOIN_LINE.match(line.rstrip("\n")):
                self.port = int(found.group(1))
                self.address = f"127.0.0.1:{self.port}"
                break
        else:
            raise AssertionError(f"the server did not say where to connect: {self.lines}")
        # The rest of what it says, so its pipe never fills.
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def stop(self) -> None:
        """As its host stops it: Ctrl-C."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(PATIENCE)


@contextlib.contextmanager
def servers(*specs: tuple[str, ...]) -> Iterator[list[ServerProcess]]:
    running: list[ServerProcess] = []
    try:
        for name, *extra in specs:
            running.append(ServerProcess(name, "--ephemeral", *extra))
        yield running
    finally:
        for s in running:
            s.stop()


class Browser:
    """The client's Finder on an asyncio loop of its own thread, through loopback only."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._servers: list[Found] = []
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)
        self._thread.start()
        assert self._ready.wait(PATIENCE)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        finder: Finder

        def changed() -> None:
            with self._changed:
                self._servers = finder.servers()
                self._changed.notify_all()

        finder = Finder("127.0.0.1", changed)
        await finder.start()
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await finder.stop()

    def wait(self, until: Callable[[list[Found]], bool], what: str) -> list[Found]:
        deadline = time.monotonic() + PATIENCE
        with self._changed:
            while not until(self._servers):
                left = deadline - time.monotonic()
                assert left > 0, f"never {what}: {self._servers}"
                self._changed.wait(left)
            return list(self._servers)

    def named(self, name: str) -> list[Found]:
        with self._changed:
            return [s for s in self._servers if s.name == name]

    def close(self) -> None:
        assert self._loop is not None and self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(PATIENCE)


@pytest.fixture
def browser() -> Iterator[Browser]:
    b = Browser()
    try:
        yield b
    finally:
        b.close()


def has(name: str, **want: object) -> Callable[[list[Found]], bool]:
    return lambda found: any(
        s.name == name and all(getattr(s, k) == v for k, v in want.items()) for s in found
    )


def test_servers_are_listed_as_they_start_and_dropped_when_they_stop(browser, tmp_path):
    first, second = unique("first"), unique("second")
    data = tmp_path / "data"
    with servers((first,)) as [a]:
        found = browser.wait(has(first), "listed the first server")
        [one] = [s for s in found if s.name == first]
        assert (one.host, one.port) == ("127.0.0.1", a.port)
        assert one.version == PROTOCOL_VERSION and one.waiting == 0
        # A second server, keeping its id on disk: the TXT says that same id.
        b = ServerProcess(second, "--data-dir", str(data))
        try:
            found = browser.wait(lambda f: has(first)(f) and has(second)(f), "listed both")
            [two] = [s for s in found if s.name == second]
            assert two.port == b.port
            assert two.server_id == (data / "server-id").read_text().strip()
            assert two.server_id != one.server_id
        finally:
            b.stop()
        # The stopped one withdraws; the first stays.
        browser.wait(lambda f: not has(second)(f), "dropped the stopped server")
        assert browser.named(first)
        assert any(re.search(r"just run \S*sarja-client\b", line) for line in a.lines), a.lines


def test_the_waiting_count_follows_the_tables(browser):
    name = unique("waiting")
    with servers((name,)) as [server]:
        browser.wait(has(name, waiting=0), "listed with no table waiting")
        waiting = subprocess.Popen(
            [*command("sarja-bot"), server.address, "--table", "Waiting", "--players", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            browser.wait(has(name, waiting=1), "listed with its one table waiting")
        finally:
            waiting.terminate()
            waiting.wait(PATIENCE)


def test_no_discovery_announces_nothing(browser):
    quiet, loud = unique("quiet"), unique("loud")
    with servers((quiet, "--no-discovery"), (loud,)) as [hidden, _]:
        # The announced one, started after the quiet one, is listed: had the quiet
        # one announced, it would have been by now too.
        browser.wait(has(loud), "listed the server that announces")
        time.sleep(1.0)  # and a moment more, for good measure (not a measure of speed)
        assert not browser.named(quiet)
        assert not _mdns_sockets(hidden.proc.pid), "--no-discovery opened an mDNS socket"


def _mdns_sockets(pid: int) -> list[str]:
    """The UDP sockets on port 5353 the process holds (Linux /proc; none elsewhere)."""
    try:
        inodes = {
            os.readlink(f"/proc/{pid}/fd/{fd}")[8:-1]
            for fd in os.listdir(f"/proc/{pid}/fd")
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        }
        rows = Path("/proc/net/udp").read_text().splitlines()[1:]
    except OSError:
        return []
    return [r for r in rows if r.split()[1].endswith(":14E9") and r.split()[9] in inodes]


def test_sarja_client_with_no_address_lists_a_server_and_enter_joins_it(tmp_path):
    name = unique("client")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    with servers((name, "--seed", "4")) as [server]:
        aino = Terminal([*command("sarja-client"), "--discover-on", "127.0.0.1"], env)
        bertil = Terminal([*command("sarja-client"), server.address, "--name", "Bertil"], env)
        again = None
        try:
            screen = aino.wait_for(name)
            assert "Sarja servers on this network" in screen
            assert re.search(rf"{name}\s+127\.0\.0\.1:{server.port}\s+no table waiting", screen)
            # Other servers on this machine may be listed too: choose ours.
            for _ in range(50):
                if re.search(rf"^› {name}", aino.text(), re.M):
                    break
                aino.type("\x1b[B")  # Down
                time.sleep(0.05)
            aino.wait_for(re.compile(rf"^› {name}", re.M))
            aino.type("\r")
            aino.wait_for("What is your name?")
            aino.type("Aino\r")
            aino.wait_for("No tables yet")
            aino.type("n")
            aino.wait_for("New table")
            aino.type("\r")
            aino.wait_for("Aino (you)")
            bertil.type("r")
            bertil.wait_for("Seats: Aino (Blue), free (Green)")
            bertil.type("\r")
            bertil.wait_for("Bertil (you)")
            aino.type("r")
            bertil.type("r")
            for person in (aino, bertil):
                person.wait_for("Hand ")
            # Aino, who found the server, plays a move; Bertil sees it.
            if TURN not in aino.text():
                hurry(bertil)
                aino.wait_for(TURN)
            hurry(aino)
            bertil.wait_for(re.compile(r"Aino played \S+ at [A-J]\d+"))
            # The finder says where the player holds a seat (client.json, by server_id).
            again = Terminal([*command("sarja-client"), "--discover-on", "127.0.0.1"], env)
            again.wait_for(re.compile(rf"{name}\s+127\.0\.0\.1:{server.port}\s+.*your seat"))
            again.type("q")
            assert again.finish() == 0
        finally:
            for t in (aino, bertil, again):
                if t is not None:
                    t.close()


def test_the_finder_says_why_when_it_finds_nothing():
    """Once NOTHING_AFTER has passed with no server found (no process here: servers of
    other test runs may be announced on this machine)."""
    screen = FindScreen("127.0.0.1", {}, set())
    looking = "".join(text for _, text in screen.lines())
    assert "Looking for Sarja servers" in looking and "firewall" not in looking
    screen.waited = True
    told = "".join(text for _, text in screen.lines())
    assert "No Sarja server answered in 4 seconds" in told
    assert "firewall" in told and "another network" in told and "multicast" in told
    assert re.search(r"sarja-client 192\.168\.1\.20:7474", told)
    key = "ab" * 32
    screen.servers = [Found("k", "127.0.0.1", 7474, "Kotona", "abc", PROTOCOL_VERSION, 2, key)]
    listed = "".join(text for _, text in screen.lines())
    assert re.search(r"› Kotona +127\.0\.0\.1:7474 +2 tables waiting, new to you", listed)
    screen.pins, screen.seats = {"abc": key}, {key}
    listed = "".join(text for _, text in screen.lines())
    assert "firewall" not in listed
    assert re.search(r"› Kotona +127\.0\.0\.1:7474 +2 tables waiting, your seat", listed)
    screen.pins = {"abc": "cd" * 32}  # it announces another key than it showed before
    listed = "".join(text for _, text in screen.lines())
    assert re.search(r"› Kotona .* NOT THE KEY IT HAD", listed)


def bot(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*command("sarja-bot"), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip


def test_sarja_bot_with_no_address_joins_the_one_server(browser):
    name = unique("bot")
    with servers((name,)) as [server]:
        browser.wait(has(name), "listed the server")
        finder = bot("--discover-on", "127.0.0.1", "--server-name", name, "--table", "Duel",
                     "--level", "easy", "--seed", "1")  # fmt: skip
        browser.wait(has(name, waiting=1), "listed the table the bot made")
        guest = bot(server.address, "--level", "easy", "--name", "Guest", "--seed", "2")
        out, err = finder.communicate(timeout=PATIENCE)
        guest.communicate(timeout=PATIENCE)
        assert finder.returncode == 0 and guest.returncode == 0, err
        assert f"found {name!r} at 127.0.0.1:{server.port}" in err
        assert "played 1:" in out


def test_sarja_bot_with_several_servers_found_asks_which(browser):
    name = unique("twins")
    with servers((name,), (name,)) as [a, b]:
        browser.wait(lambda f: len([s for s in f if s.name == name]) == 2, "listed both")
        lone = bot("--discover-on", "127.0.0.1", "--server-name", name)
        _, err = lone.communicate(timeout=PATIENCE)
        assert lone.returncode == 1, err
        assert "found 2 Sarja servers" in err
        assert f"127.0.0.1:{a.port}" in err and f"127.0.0.1:{b.port}" in err


# ----- the TXT record, as hostile input --------------------------------------------------


def test_a_txt_record_is_read_and_what_does_not_parse_is_dropped():
    txt = {k.encode(): v.encode() for k, v in txt_record("Kotona", "abc123", 3, "ab" * 32).items()}
    found = read_found("x", ["127.0.0.1"], 7474, txt)
    assert found == Found(
        "x", "127.0.0.1", 7474, "Kotona", "abc123", PROTOCOL_VERSION, 3, "ab" * 32
    )
    assert read_found("x", [], 7474, txt) is None  # no address
    assert read_found("x", ["127.0.0.1"], None, txt) is None
    assert read_found("x", ["127.0.0.1"], 7474, {**txt, b"id": b"no spaces here"}) is None
    odd = {**txt, b"waiting": b"-1", b"v": None, b"name": b"a\x1b[2Jb\nc", b"fp": b"AB" * 32}
    found = read_found("x", ["::1", "127.0.0.1"], 7474, odd)
    assert found is not None and found.waiting is None and found.version is None
    assert found.fingerprint == ""  # not a fingerprint as servers write it
    assert found.name == "a[2Jb c" and found.host == "127.0.0.1"  # no escape reaches a screen


def test_an_instance_name_fits_dns_and_keeps_the_id():
    name = instance_name("Ö" * 40 + ".x", "0123456789abcdef")
    assert len(name.encode()) <= 63 and name.endswith(" 0123456789abcdef") and "." not in name


# ----- the announcer's pace, on trio's MockClock ------------------------------------------


class FakeAnnouncement:
    """Stands in for zeroconf: records what would be announced."""

    made: list[FakeAnnouncement] = []

    def __init__(self, addresses: list[str], every_interface: bool) -> None:
        self.addresses, self.every = addresses, every_interface
        self.registered: list[int] = []
        self.updates: list[int] = []
        self.closed = False
        FakeAnnouncement.made.append(self)

    def register(self, name: str, server_id: str, port: int, waiting: int, fingerprint: str) -> str:
        self.registered.append(waiting)
        return f"{name} {server_id}"

    def update(self, name: str, server_id: str, waiting: int, fingerprint: str) -> None:
        self.updates.append(waiting)

    def close(self) -> None:
        self.closed = True


async def test_many_joins_are_announced_at_most_once_a_second(monkeypatch, autojump_clock):
    import trio

    from sarja.server import announce

    monkeypatch.setattr(announce, "Announcement", FakeAnnouncement)
    FakeAnnouncement.made.clear()
    announcer = announce.Announcer("127.0.0.1", 7474, "Kotona", "abc123", "ab" * 32)

    async def in_place(fn, *args, **_):
        return fn(*args)

    announcer.blocking = in_place
    count = [0]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(announcer.run, lambda: count[0])
        await trio.sleep(0.1)
        [zc] = FakeAnnouncement.made
        assert zc.addresses == ["127.0.0.1"] and not zc.every and zc.registered == [0]
        start = trio.current_time()
        for _ in range(100):  # a table filling and emptying, 100 changes in 5 seconds
            count[0] = (count[0] + 1) % 3
            announcer.changed()
            await trio.sleep(0.05)
        await trio.sleep(announce.UPDATE_EVERY * 2)
        elapsed = trio.current_time() - start
        assert 1 <= len(zc.updates) <= elapsed / announce.UPDATE_EVERY + 1
        assert zc.updates[-1] == count[0]  # the newest count is what stays announced
        nursery.cancel_scope.cancel()
    assert zc.closed  # withdrawn when the server stops


class StuckAnnouncement(FakeAnnouncement):
    """A zeroconf that never finishes closing (as one started out of files may not)."""

    release = threading.Event()

    def close(self) -> None:
        StuckAnnouncement.release.wait()


async def test_a_zeroconf_that_never_closes_does_not_hold_up_the_stop(monkeypatch):
    import trio

    from sarja.server import announce

    monkeypatch.setattr(announce, "Announcement", StuckAnnouncement)
    monkeypatch.setattr(announce, "CLOSE_PATIENCE", 0.1)
    announcer = announce.Announcer("127.0.0.1", 7474, "Kotona", "abc123", "ab" * 32)
    try:
        with trio.move_on_after(PATIENCE) as stopped:  # a fail-safe, not a timing
            async with trio.open_nursery() as nursery:
                nursery.start_soon(announcer.run, lambda: 0)
                while announcer.announced is None:  # zeroconf's threads at work
                    await trio.sleep(0.01)
                nursery.cancel_scope.cancel()  # the server stops: the close never ends
        assert not stopped.cancelled_caught  # run() gave up on the close by itself
    finally:
        StuckAnnouncement.release.set()  # let the left-behind thread end


def test_a_server_announces_on_the_addresses_it_listens_on():
    from sarja.server.announce import announced_addresses

    assert announced_addresses("127.0.0.1") == ["127.0.0.1"]
    assert announced_addresses("192.0.2.7") == ["192.0.2.7"]  # one interface, that one
    assert announced_addresses("::1") == []  # IPv6 is not announced
