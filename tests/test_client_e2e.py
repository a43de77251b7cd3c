"""End to end, as people use it: the real `sarja-server` process and two real
`sarja-client` processes, each in a pseudo-terminal of 80×24 whose screen is read
through a terminal emulator (pyte). Keys are typed into the terminals, never the API."""

from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pyte
import pytest

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

    def pump(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 65536)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            self.stream.feed(data)

    def text(self) -> str:
        self.pump()
        return "\n".join(line.rstrip() for line in self.screen.display)

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_for(self, what: str | re.Pattern[str], timeout: float = 15) -> str:
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

    def wait_for_status(self, what: re.Pattern[str], timeout: float = 10) -> str:
        """Wait for the status line (the one above the keys) to match; return it."""
        deadline = time.monotonic() + timeout
        while not what.search(line := self.text().splitlines()[-2]):
            assert time.monotonic() < deadline, f"{what!r} not in the status line:\n{self.text()}"
            time.sleep(0.005)
        return line

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.fd)


@pytest.fixture
def server(tmp_path):
    proc = subprocess.Popen(
        [*command("sarja-server"), "--host", "127.0.0.1", "--port", "0", "--seed", "4",
         "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "sarja-client 127.0.0.1:" in line:
                yield line.split()[-1]
                break
        else:
            raise AssertionError("the server did not say where to connect")
    finally:
        proc.terminate()
        proc.wait(10)


TURN = "▶ YOUR TURN ◀"


def play_to_the_end(*people: Terminal, moves: int = 600) -> None:
    """Whoever's screen says it is their turn plays as a hurried person would: Tab to
    the first card that can be used, then Enter, x for a dead card, p when stuck."""
    for _ in range(moves):
        deadline = time.monotonic() + 15
        while True:
            screens = [p.text() for p in people]
            if any("Game over" in s for s in screens):
                return
            movers = [p for p, s in zip(people, screens, strict=True) if TURN in s]
            if movers:
                break
            assert time.monotonic() < deadline, "\n\n".join(screens)
            time.sleep(0.005)
        mover, before = movers[0], screens[people.index(movers[0])]
        if "Which five" in before:
            mover.type("\r")
        else:
            mover.type("\t")
            status = mover.wait_for_status(re.compile(r": \d|is dead|cannot"))
            mover.type("x" if "is dead" in status else "p" if "cannot" in status else "\r")
        # Wait for the move to land: the log grows (or the five chooser opens).
        log = before.splitlines()[14:22]
        deadline = time.monotonic() + 10
        while (now := mover.text()).splitlines()[14:22] == log and "Which five" not in now:
            assert time.monotonic() < deadline, now
            time.sleep(0.005)
    raise AssertionError("the game did not end")


def test_two_people_play_a_game_in_real_terminals(server, tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("NO_COLOR", None)
    aino = Terminal([*command("sarja-client"), server], env)
    bertil = Terminal([*command("sarja-client"), server, "--name", "Bertil"], env)
    try:
        aino.wait_for("What is your name?")
        aino.type("Aino\r")
        aino.wait_for("No tables yet")
        aino.type("n")
        aino.wait_for("New table")
        aino.type("\r")
        aino.wait_for("Aino (you)")
        bertil.type("r")
        lobby = bertil.wait_for("Aino's table")
        assert "2 players" in lobby and "1 free; Aino" in lobby
        bertil.type("\r")
        bertil.wait_for("Bertil (you)")
        aino.type("r")
        bertil.type("r")
        for person in (aino, bertil):
            screen = person.wait_for("Hand ")
            assert "A    B    C    D" in screen and "10" in screen and "★" in screen
            assert re.search(r"\[1\]\S", screen), screen
        # Both share one config, as two people on one machine would: each name has
        # its own token, so neither could take the other's seat on a restart.
        remembered = json.loads((tmp_path / "config" / "sarja" / "client.json").read_text())
        assert remembered["name"] in ("Aino", "Bertil")
        assert {key.split("@")[0] for key in remembered["resume"]} == {"Aino", "Bertil"}

        # The first move, made by keys, appears on the other player's screen.
        first = aino if TURN in aino.text() else bertil
        other = bertil if first is aino else aino
        first.type("\t\r")  # the first playable card, at its nearest space
        name = "Aino" if first is aino else "Bertil"
        moved = other.wait_for(re.compile(rf"{name} played \S+ at [A-J]\d+"))
        assert TURN in moved and re.search(r"\([BG]\)", moved)

        # Play on, by keys, to the end of the game; each side sees it end.
        play_to_the_end(aino, bertil)
        for person in (aino, bertil):
            end = person.wait_for("Game over")
            assert "wins" in end and "held:" in end and "*[" in end
        # Resizing redraws: too small says so, and back again the end screen returns.
        bertil.resize(70, 20)
        bertil.wait_for("Please make it bigger")
        bertil.resize(100, 30)
        assert "Game over" in bertil.wait_for(re.compile(r"A {5,}B {5,}C"))
        aino.type("q")
        assert aino.proc.wait(10) == 0
    finally:
        aino.close()
        bertil.close()


def take_turn(*people: Terminal) -> Terminal:
    """Whoever's screen says it is their turn makes one move by keys (as in
    `play_to_the_end`); returns once the next player's screen says it is theirs."""
    deadline = time.monotonic() + 15
    while len(movers := [p for p in people if TURN in p.text()]) != 1:
        assert time.monotonic() < deadline, "\n\n".join(p.text() for p in people)
        time.sleep(0.005)
    mover = movers[0]
    mover.type("\t")
    status = mover.wait_for_status(re.compile(r": \d|is dead|cannot"))
    mover.type("x" if "is dead" in status else "p" if "cannot" in status else "\r")
    if "Which five" in mover.wait_for(re.compile(r"Which five|Hand ")):
        mover.type("\r")
    others = [p for p in people if p is not mover]
    deadline = time.monotonic() + 15
    while TURN in mover.text() or not any(TURN in p.text() for p in others):
        assert time.monotonic() < deadline, "\n\n".join(p.text() for p in people)
        time.sleep(0.005)
    return mover


def test_a_player_who_quits_or_is_killed_comes_back_and_moves_at_once(server, tmp_path):
    """Issue 9's restart case: the client started again resumes the seat, and its first
    move goes through (its action ids go on above those the server holds)."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    client = [*command("sarja-client"), server]
    aino = Terminal(client, env)
    bertil = Terminal([*client, "--name", "Bertil"], env)
    try:
        aino.wait_for("What is your name?")
        aino.type("Aino\r")
        aino.wait_for("No tables yet")
        aino.type("n")
        aino.wait_for("New table")
        aino.type("\r")
        aino.wait_for("Aino (you)")
        bertil.type("r")
        bertil.wait_for("Aino's table")
        bertil.type("\r")
        bertil.wait_for("Bertil (you)")
        aino.type("r")
        bertil.type("r")
        for person in (aino, bertil):
            person.wait_for("Hand ")

        for how in ("quit", "kill"):
            # Mid-game, with moves by both behind them, and Aino to play.
            moved = {"Aino": 0, "Bertil": 0}
            while min(moved.values()) < 2 or TURN not in aino.text():
                mover = take_turn(aino, bertil)
                moved["Aino" if mover is aino else "Bertil"] += 1
            if how == "quit":
                aino.type("q")
                aino.wait_for("Quit in the middle of the game?")
                aino.type("y")
                assert aino.proc.wait(10) == 0
            else:
                os.kill(aino.proc.pid, signal.SIGKILL)
                aino.proc.wait(10)
            bertil.wait_for("Aino (away)")
            aino.close()

            # Started again as before: the remembered name, then straight back to the seat.
            aino = Terminal(client, env)
            aino.wait_for("Name: Aino")
            aino.type("\r")
            screen = aino.wait_for(TURN)
            assert "Aino (you)" in screen and "Hand " in screen
            back = bertil.wait_for("Aino is back.")
            assert "Aino (away)" not in back

            # The first move goes through: acknowledged, on both boards and in both logs.
            take_turn(aino, bertil)
            mine = re.search(r"You played (\S+) at ([A-J]\d+)\.", aino.text())
            assert mine, aino.text()
            card, cell = mine.groups()
            bertil.wait_for(f"Aino played {card} at {cell}.")
            assert "Action id" not in aino.text()  # no refusal of an id the server holds
    finally:
        aino.close()
        bertil.close()
