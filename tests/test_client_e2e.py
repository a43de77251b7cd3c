"""End to end, as people use it: the real `sarja-server` process and real
`sarja-client` processes, each in a pseudo-terminal (80×24 unless said) whose screen is
read through a terminal emulator (pyte). Keys are typed into the terminals, never the
API. Besides whole games: coming back to a seat through another address of the same
server, the server stopping and starting again, peers that are not Sarja servers, an
unknown host, a server that cannot listen, and keys behind the "too small" message."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Any

import pyte
import pytest

from .netclient import PATIENCE

BIN = Path(sys.executable).parent


def command(name: str) -> list[str]:
    """The installed console script, or the module when scripts are elsewhere."""
    script = BIN / name
    if script.exists():
        return [str(script)]
    module = {"sarja-server": "sarja.server.cli", "sarja-client": "sarja.client"}[name]
    return [sys.executable, "-m", module]


class Terminal:
    """A program in a pseudo-terminal, and what a person would see on its screen."""

    def __init__(self, argv: list[str], env: dict[str, str], cols: int = 80, rows: int = 24):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {**env, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        os.set_blocking(master, False)
        self.fd = master
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""  # everything the program wrote, to look for tracebacks

    def pump(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            self.raw += data
            self.stream.feed(data)

    def text(self) -> str:
        self.pump()
        return "\n".join(line.rstrip() for line in self.screen.display)

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_for(self, what: str | re.Pattern[str], timeout: float = PATIENCE) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            found = what.search(screen) if isinstance(what, re.Pattern) else what in screen
            if found:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{what!r} never appeared on the screen:\n{screen}")
            time.sleep(0.01)

    def resize(self, cols: int, rows: int) -> None:
        """Change the window size, as dragging a terminal's corner does."""
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)
        self.proc.send_signal(signal.SIGWINCH)

    def wait_for_status(self, what: re.Pattern[str], timeout: float = PATIENCE) -> str:
        """Wait for the status line (the one above the keys) to match; return it."""
        deadline = time.monotonic() + timeout
        while not what.search(line := self.text().splitlines()[-2]):
            assert time.monotonic() < deadline, f"{what!r} not in the status line:\n{self.text()}"
            time.sleep(0.005)
        return line

    def finish(self, timeout: float = PATIENCE) -> int:
        """Wait for the program to end (reading what it writes meanwhile)."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            assert time.monotonic() < deadline, f"still running:\n{self.text()}"
            self.pump()
            time.sleep(0.01)
        time.sleep(0.05)
        self.pump()
        return self.proc.returncode

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.fd)


class Server:
    """The real `sarja-server`, with a data directory (so it keeps its id and its games
    across a restart), on 127.0.0.1."""

    def __init__(self, data: Path, port: int = 0) -> None:
        self.data = data
        self.proc = subprocess.Popen(
            [*command("sarja-server"), "--host", "127.0.0.1", "--port", str(port),
             "--seed", "4", "--data-dir", str(data)],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "sarja-client 127.0.0.1:" in line:
                self.address = line.split()[-1]
                self.port = int(self.address.rsplit(":", 1)[1])
                return
        raise AssertionError("the server did not say where to connect")

    def stop(self) -> None:
        """Stop it as its host does, with Ctrl-C."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(PATIENCE)

    def restart(self) -> None:
        self.stop()
        deadline = time.monotonic() + PATIENCE
        while True:  # the port may take a moment to be free again
            try:
                self.__init__(self.data, self.port)  # type: ignore[misc]
                return
            except AssertionError:
                assert time.monotonic() < deadline
                time.sleep(0.2)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path / "data")
    try:
        yield running.address
    finally:
        running.stop()


@pytest.fixture
def host(tmp_path):
    running = Server(tmp_path / "data")
    try:
        yield running
    finally:
        running.stop()


TURN = "▶ YOUR TURN ◀"


def hurry(mover: Terminal) -> None:
    """One move as a hurried person makes it: Tab to the first card that can be used,
    then Enter (n first for a wild jack, to stand on an open space), x for a dead
    card, p when stuck; Enter again if asked which five."""
    mover.type("\t")
    status = mover.wait_for_status(re.compile(r": \d|is dead|cannot|wild"))
    if "is dead" in status:
        mover.type("x")
    elif "cannot" in status:
        mover.type("p")
    elif "wild" in status:
        mover.type("n\r")
    else:
        mover.type("\r")


def play_to_the_end(*people: Terminal, moves: int = 600) -> None:
    """Whoever's screen says it is their turn moves (see `hurry`), to the end."""
    started: dict[Terminal, str] = {}  # each one's screen before the move now being made
    for _ in range(moves):
        deadline = time.monotonic() + PATIENCE
        while True:
            screens = [p.text() for p in people]
            if any("Game over" in s for s in screens):
                return
            movers = [p for p, s in zip(people, screens, strict=True) if TURN in s]
            if movers:
                break
            assert time.monotonic() < deadline, "\n\n".join(screens)
            time.sleep(0.005)
        mover = movers[0]
        chosen = "Which five" in screens[people.index(mover)]
        if chosen:
            mover.type("\r")  # the move's five: it lands as any move does
        else:
            started[mover] = screens[people.index(mover)]
            hurry(mover)
        # Wait for the move to land (`_landed`).
        deadline = time.monotonic() + PATIENCE
        while not _landed(now := mover.text(), started[mover], chosen):
            assert time.monotonic() < deadline, now
            time.sleep(0.005)
    raise AssertionError("the game did not end")


def _landed(screen: str, before: str, chosen: bool = False) -> bool:
    """Whether the move begun on screen `before` shows on `screen`: the log grew, or
    the game is over, or, if the move only opened the five chooser, that it is open.
    Once a five is `chosen` the chooser closes at once and the log shows what it did
    before the move until the move lands. The turn need not be seen to pass: the
    computer's answer may come with the ack and show in the same drawing (on a busy
    machine, often), so the next screen read is our turn again."""
    if "Game over" in screen:
        return True
    if "Which five" in screen:
        return not chosen  # a second Enter before the move lands would send it twice
    lines = screen.splitlines()
    if chosen and "more than one way" in lines[-2]:
        return False  # the chooser's line goes with the ack (and is drawn after the log)
    return lines[14:22] != before.splitlines()[14:22]


def seat_two(aino: Terminal, bertil: Terminal) -> None:
    """Aino (who types her name) creates a table, Bertil joins it, both get ready."""
    aino.wait_for("What is your name?")
    aino.type("Aino\r")
    aino.wait_for("No tables yet")
    aino.type("n")
    aino.wait_for("New table")
    aino.type("\r")
    aino.wait_for("Aino (you)")
    bertil.type("r")
    lobby = bertil.wait_for("Seats: Aino (Blue), free (Green)")
    assert "Aino's table" in lobby and "2 players" in lobby and "1 free of 2" in lobby
    bertil.type("\r")
    bertil.wait_for("Bertil (you)")
    aino.type("r")
    bertil.type("r")
    for person in (aino, bertil):
        person.wait_for("Hand ")


def test_the_creator_seats_a_computer_from_the_waiting_room(server, tmp_path):
    # Computers could be chosen only in the new-table form: a seat no one came for
    # kept the table waiting. In the waiting room, `a` seats one, and `a` again makes it
    # harder; then the game starts once its one person is ready.
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    aino = Terminal([*command("sarja-client"), server, "--name", "Aino"], env)
    try:
        aino.wait_for("No tables yet")
        aino.type("n")
        aino.wait_for("New table")
        aino.type("\r")
        aino.wait_for("Aino (you)")
        aino.type("ja")
        aino.wait_for("Bertil (computer, easy)")
        aino.type("a")
        aino.wait_for("Bertil (computer, medium)")
        aino.type("r")
        aino.wait_for("Hand ")
        assert b"Traceback" not in aino.raw
    finally:
        aino.close()


def test_two_people_play_a_game_in_real_terminals(server, tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("NO_COLOR", None)
    aino = Terminal([*command("sarja-client"), server], env)
    bertil = Terminal([*command("sarja-client"), server, "--name", "Bertil"], env)
    try:
        seat_two(aino, bertil)
        for person in (aino, bertil):
            screen = person.text()
            assert "A    B    C    D" in screen and "10" in screen and "★" in screen
            assert re.search(r"\[1\]\S", screen), screen
        # Both share one config, as two people on one machine would: the seats are
        # kept by the server's id, each name with its own token, so neither could take
        # the other's seat on a restart.
        remembered = json.loads((tmp_path / "config" / "sarja" / "client.json").read_text())
        assert remembered["name"] in ("Aino", "Bertil")
        [tokens] = remembered["seats"].values()
        assert set(tokens) == {"Aino", "Bertil"}

        # The first move, made by keys, appears on the other player's screen.
        first = aino if TURN in aino.text() else bertil
        other = bertil if first is aino else aino
        hurry(first)
        name = "Aino" if first is aino else "Bertil"
        moved = other.wait_for(re.compile(rf"{name} played \S+ at [A-J]\d+"))
        assert TURN in moved and re.search(r"\([BG]\)", moved) and "Last: " in moved

        # Behind the "too small" message keys do nothing: 1 then Enter plays no card.
        other.resize(79, 24)
        other.wait_for("Please make it bigger")
        other.type("1\r\t\r")
        time.sleep(0.5)
        other.resize(80, 24)
        assert TURN in other.wait_for("Hand ")
        assert TURN not in first.text()

        # Play on, by keys, to the end of the game; each side sees it end.
        play_to_the_end(aino, bertil)
        for person in (aino, bertil):
            end = person.wait_for("Game over")
            assert "wins" in end and "held:" in end and "*[" in end
        # Resizing redraws: too small says so, and back again the end screen returns.
        bertil.resize(70, 20)
        bertil.wait_for("Please make it bigger")
        bertil.resize(100, 30)
        # The wide board and the end both on screen: a redraw is read as it arrives.
        bertil.wait_for(re.compile(r"(?s)(?=.*Game over).*A {5,}B {5,}C"))
        aino.type("q")
        assert aino.finish() == 0
    finally:
        aino.close()
        bertil.close()


def take_turn(*people: Terminal) -> Terminal:
    """Whoever's screen says it is their turn makes one move by keys (see `hurry`);
    returns once the next player's screen says it is theirs."""
    deadline = time.monotonic() + PATIENCE
    while len(movers := [p for p in people if TURN in p.text()]) != 1:
        assert time.monotonic() < deadline, "\n\n".join(p.text() for p in people)
        time.sleep(0.005)
    mover = movers[0]
    hurry(mover)
    if "Which five" in mover.wait_for(re.compile(r"Which five|Hand ")):
        mover.type("\r")
    others = [p for p in people if p is not mover]
    deadline = time.monotonic() + PATIENCE
    while TURN in mover.text() or not any(TURN in p.text() for p in others):
        assert time.monotonic() < deadline, "\n\n".join(p.text() for p in people)
        time.sleep(0.005)
    return mover


def test_a_player_comes_back_through_another_address_of_the_same_server(server, tmp_path):
    """Quit mid-game at 127.0.0.1 (the shell is told how to come back), start again
    through localhost: the seat comes back, since it is remembered by the server's id;
    killed, and started again through 127.0.0.1, likewise. The first move after each
    return goes through (action ids go on above those the server holds), and a name
    given with --name is remembered too."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    port = server.rsplit(":", 1)[1]
    addresses = {"quit": f"localhost:{port}", "kill": f"127.0.0.1:{port}"}
    aino = Terminal([*command("sarja-client"), server], env)
    bertil = Terminal([*command("sarja-client"), server, "--name", "Bertil"], env)
    try:
        seat_two(aino, bertil)
        for how in ("quit", "kill"):
            # Mid-game, with moves by both behind them, and Aino to play.
            moved = {"Aino": 0, "Bertil": 0}
            while min(moved.values()) < 2 or TURN not in aino.text():
                mover = take_turn(aino, bertil)
                moved["Aino" if mover is aino else "Bertil"] += 1
            if how == "quit":
                aino.type("q")
                aino.wait_for("Quit in the middle of the game? Your seat is kept.")
                aino.type("y")
                assert aino.finish() == 0
                said = aino.raw.decode("utf-8", "replace")
                assert "Your seat in the game is kept. To come back, run:" in said
                assert f"sarja-client {server} --name Aino" in said.replace("\r\n", "")
            else:
                os.kill(aino.proc.pid, signal.SIGKILL)
                aino.proc.wait(10)
            away = bertil.wait_for("Aino (away)")
            assert "Aino is away; the seat is kept." in away and "lost the connection" not in away
            aino.close()

            # Started again through the other address, with the name given.
            aino = Terminal([*command("sarja-client"), addresses[how], "--name", "Aino"], env)
            screen = aino.wait_for(TURN)
            assert "Aino (you)" in screen and "Hand " in screen
            assert "You are back in the game at Aino's table." in screen
            assert "Last move: " in screen  # the log starts from the snapshot
            back = bertil.wait_for("Aino is back.")
            assert "Aino (away)" not in back

            # The first move goes through: acknowledged, on both boards and in both logs.
            take_turn(aino, bertil)
            mine = re.search(r"You played (\S+) at ([A-J]\d+)\.", aino.text())
            assert mine, aino.text()
            card, cell = mine.groups()
            bertil.wait_for(f"Aino played {card} at {cell}.")
            assert "Action id" not in aino.text()  # no refusal of an id the server holds
        # A name given with --name is remembered for next time, as one typed is.
        own = {**env, "XDG_CONFIG_HOME": str(tmp_path / "cecilia")}
        cecilia = Terminal([*command("sarja-client"), server, "--name", "Cecilia"], own)
        try:
            cecilia.wait_for("Aino's table")
            cecilia.type("q")
            assert cecilia.finish() == 0
        finally:
            cecilia.close()
        cecilia = Terminal([*command("sarja-client"), server], own)
        try:
            cecilia.wait_for("Name: Cecilia")
        finally:
            cecilia.close()
    finally:
        aino.close()
        bertil.close()


def test_the_server_stopping_and_coming_back(host, tmp_path):
    """The server stops mid-game: the players are told in words; what they type
    meanwhile is not lost silently (a move says it was not sent, chat waits); the server
    starts again and both are back in the game, the chat delivered, with no word of
    leaving the table. Stopped again, Enter, chat and quitting print no traceback."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    aino = Terminal([*command("sarja-client"), host.address], env)
    bertil = Terminal([*command("sarja-client"), host.address, "--name", "Bertil"], env)
    try:
        seat_two(aino, bertil)
        host.stop()
        aino.wait_for("The server is shutting down.")
        aino.type("1\r")
        assert "nothing was sent" in aino.wait_for("nothing was sent")
        aino.type("c")
        aino.type("Back in a minute\r")
        aino.wait_for("will be sent when the connection is back")

        host.restart()
        for person in (aino, bertil):
            person.wait_for("Connected again.", timeout=PATIENCE)
            screen = person.wait_for("Hand ")
            assert "You left" not in screen and "no longer at" not in screen
        # The line went to the server (everyone at the table gets it, the sender too;
        # Bertil only if he was back before Aino, as chat is not kept for later).
        aino.wait_for("Aino: Back in a minute")

        host.stop()
        aino.wait_for("The server is shutting down.")
        aino.type("\r")
        aino.type("c")
        aino.type("anyone?\r")
        time.sleep(0.3)
        aino.type("q")
        assert aino.finish() == 0
        said = aino.raw.decode("utf-8", "replace")
        assert "Traceback" not in said and "Press ENTER" not in said and "Exception" not in said
    finally:
        aino.close()
        bertil.close()


class Impostor:
    """A TCP server on 127.0.0.1 that is not a Sarja server: it greets every connection
    with `greeting` (or says nothing) and then reads and ignores what comes."""

    def __init__(self, greeting: bytes) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.greeting = greeting
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            if self.greeting:
                conn.sendall(self.greeting)
            threading.Thread(target=self._drain, args=(conn,), daemon=True).start()

    def _drain(self, conn: socket.socket) -> None:
        with contextlib.suppress(OSError), conn:
            while conn.recv(4096):
                pass

    def close(self) -> None:
        self.listener.close()


def test_what_is_not_a_sarja_server_is_told_in_words(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    ssh, silent = Impostor(b"SSH-2.0-OpenSSH_9.6\r\n"), Impostor(b"")
    people: list[Terminal] = []
    try:
        # Something that answers with something else: said at once, with its words.
        # The address written as a URL is understood, and shown as an address.
        people.append(Terminal([*command("sarja-client"), f"http://127.0.0.1:{ssh.port}/",
                                "--name", "Dora"], env))  # fmt: skip
        screen = people[-1].wait_for("is not a Sarja server", timeout=PATIENCE)
        assert "it answered “SSH-2.0-OpenSSH_9.6”" in screen
        assert f"127.0.0.1:{ssh.port}" in screen and "http" not in screen
        # Something that says nothing back (an HTTP server waits for a whole request).
        people.append(Terminal([*command("sarja-client"), f"127.0.0.1:{silent.port}",
                                "--name", "Dora"], env))  # fmt: skip
        screen = people[-1].wait_for("answered as a Sarja server does", timeout=PATIENCE)
        assert "Check the address" in screen and "Joining" not in screen
        # A host no one knows.
        people.append(Terminal([*command("sarja-client"), "nosuchhost.invalid:7474",
                                "--name", "Dora"], env))  # fmt: skip
        screen = people[-1].wait_for("nosuchhost.invalid", timeout=PATIENCE)
        screen = people[-1].wait_for(re.compile(r"No computer called|cannot be looked up"))
        assert "unknown error" not in screen and "-2" not in screen
        people[-1].type("q")
        assert people[-1].finish() == 1  # it never reached a server: the shell is told
    finally:
        for person in people:
            person.close()
        ssh.close()
        silent.close()


def test_quitting_after_cannot_reach_ends_with_a_failure_status(tmp_path):
    # It used to exit 0, as if the evening had gone well.
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # nothing listens here once it is closed
    client = Terminal([*command("sarja-client"), f"127.0.0.1:{port}", "--name", "Dora"], env)
    try:
        client.wait_for("Cannot reach", timeout=PATIENCE)
        client.type("q")
        assert client.finish() == 1
        said = client.raw.decode("utf-8", "replace")
        assert f"sarja-client: Cannot reach 127.0.0.1:{port}" in said
        assert "again" not in said.split("sarja-client:")[-1]  # it tries no more
        assert "Traceback" not in said
    finally:
        client.close()


def test_a_server_that_cannot_listen_says_why_in_one_line(tmp_path):
    def one_line(*args: str) -> str:
        done = subprocess.run(
            [*command("sarja-server"), *args, "--data-dir", str(tmp_path / "data")],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert done.returncode == 1
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        return lines[0]

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        line = one_line("--host", "127.0.0.1", "--port", str(port))
        assert line == f"sarja-server: cannot listen on port {port}: Address already in use"
    line = one_line("--host", "192.0.2.1", "--port", "7474")  # an address of no one here
    assert line.startswith("sarja-server: cannot listen on port 7474: ")


def test_a_finished_game_is_replayed_from_its_record(tmp_path):
    """`sarja-client --replay RECORD.json`: forwards, backwards, to the end, every hand
    shown; a file that is not a record is refused in one line."""
    from sarja.server.engine import Arrangement, Game, record_json

    rng = random.Random(3)
    game = Game.new(Arrangement.of(2), rng)
    while game.outcome is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    path = tmp_path / "game.json"
    path.write_text(record_json(game, ["Aino", "Bertil"]), encoding="utf-8")
    moves = len(game.history)
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    viewer = Terminal([*command("sarja-client"), "--replay", str(path)], env)
    try:
        screen = viewer.wait_for(f"move 0 of {moves}")
        assert "Aino:" in screen and "Bertil:" in screen  # both hands
        viewer.type("\x1b[C\x1b[C\x1b[C")  # → → →
        screen = viewer.wait_for(f"move 3 of {moves}")
        assert "Move 3: " in screen and "+" in screen
        viewer.type("\x1b[D")  # ←
        viewer.wait_for(f"move 2 of {moves}")
        viewer.type("\x1b[F")  # End
        assert "Game over" in viewer.wait_for(f"move {moves} of {moves}")
        viewer.type("q")
        assert viewer.finish() == 0
    finally:
        viewer.close()
    path.write_text('{"format": "something else"}', encoding="utf-8")
    done = subprocess.run(
        [*command("sarja-client"), "--replay", str(path)], capture_output=True, text=True,
        env=env, timeout=30,
    )  # fmt: skip
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "is not a game record Sarja can replay" in done.stderr


class Scripted:
    """A screen `play_to_the_end` plays on with no terminal: a headless client whose
    every action is answered (the next of `answers`, all of it at once) a few reads
    of the screen later, as on a busy machine the computer's quick move comes with
    our ack, before the screen is drawn or read again."""

    wait_for_status = Terminal.wait_for_status

    def __init__(self, headless: Any, answers: list[tuple[Any, ...]]) -> None:
        self.h, self.answers = headless, answers
        self.due: int | None = None  # reads of the screen until the answer comes
        self.reads = 0  # since the last key: a wait that never ends fails, not hangs
        self.chooser = False  # the five chooser was on screen

    def type(self, keys: str) -> None:
        assert self.due is None, "a key typed before the last action was answered"
        self.h.press(keys)
        self.reads = 0
        if self.h.sent:
            self.h.sent.clear()
            self.due = 3

    def text(self) -> str:
        screen = self.h.screen()
        self.chooser = self.chooser or "Which five" in screen
        self.reads += 1
        assert self.reads < 200, f"waited on a screen that does not change:\n{screen}"
        if self.due is not None:
            self.due -= 1
            if not self.due:
                self.due = None
                self.h.feed(*self.answers.pop(0))
        return screen


def test_a_move_whose_five_was_chosen_lands_though_the_turn_is_back_at_once():
    """The move's ack, its update, the computer's move and our new legal list come
    together: the screen after the five is chosen is our turn again, never Bertil's.
    The helper sees the move land by the log (it used to wait for the turn to pass)."""
    from sarja.protocol.changes import Drew, Played, SequenceMade, Won
    from sarja.protocol.messages import Ack, Hand, Legal, Result, Update

    from .client_helpers import BOARD, STARTED, headless, legal_for, snapshot, spaces

    hand = ("5H", "7H", "9S", "QS", "KD", "AD", "2C")  # Tab picks 5♥: E5 has a choice
    drawn = ("3C", *hand[1:])
    board = BOARD[:44] + "b" + BOARD[45:]
    bertil = spaces(board, "KH", 1)[0]
    then = board[:bertil] + "g" + board[bertil + 1 :]
    answers = [
        (
            Ack(id=1, version=13),
            Update(
                version=13,
                turn=1,
                draw_size=83,
                changes=(
                    Played(seat=0, card="5H", cell=44),
                    SequenceMade(seat=0, side=0, fives=((40, 44),)),
                    Drew(seat=0),
                ),
            ),
            Hand(
                version=13,
                hand=drawn,
                targets=tuple(spaces(board, c, 0) for c in drawn),
                drawn="3C",
            ),
            Update(
                version=14,
                turn=0,
                draw_size=82,
                changes=(Played(seat=1, card="KH", cell=bertil), Drew(seat=1)),
            ),
            Legal(version=14, legal=legal_for(drawn, then)),
        ),
        (
            Ack(id=2, version=15),
            Update(
                version=15,
                turn=1,
                draw_size=82,
                changes=(Won(side=0),),
                result=Result(result="win", side=0, hands=(drawn, ("4C",) * 2)),
            ),
        ),
    ]
    aino = Scripted(headless(STARTED, snapshot(hand=hand)), answers)
    play_to_the_end(aino)  # type: ignore[arg-type]
    assert aino.chooser and answers == [] and "Game over" in aino.text()
