"""Fair to the people at the table, end to end: the real `sarja-server` process and real
`sarja-client` processes in pseudo-terminals (see test_client_e2e.py).

- A 4-seat table, two people and two computers, manual draw, the computer standing in
  for away players: the server is killed (`kill -9`, or stopped with SIGTERM) mid-game,
  started again on the same data directory, and the people come back after 5 and after
  20 seconds. No computer plays either person's seat meanwhile (the journal says so), and
  each person's first move after coming back goes through.
- Manual draw against a computer that moves at once: the person draws 2 seconds after
  their move and keeps the draw.
- A seat taken on the token a refused resume left the client comes back after the
  client quits and the server restarts (that token is written down too).
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .test_client_e2e import TURN, Terminal, command, hurry

DRAW_BANNER = "TAKE YOUR DRAW"
JOURNAL = "journal.sqlite3"


class Host:
    """The real `sarja-server` on 127.0.0.1, keeping its games in `data`."""

    def __init__(self, data: Path, port: int = 0, *more: str) -> None:
        self.data, self.more = data, more
        self.proc = subprocess.Popen(
            [*command("sarja-server"), "--host", "127.0.0.1", "--port", str(port),
             "--seed", "4", "--data-dir", str(data), *more],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if "sarja-client 127.0.0.1:" in line:
                self.address = line.split()[-1]
                self.port = int(self.address.rsplit(":", 1)[1])
                return
        raise AssertionError("the server did not say where to connect")

    def end(self, how: signal.Signals) -> None:
        self.proc.send_signal(how)
        self.proc.wait(15)

    def start_again(self) -> None:
        deadline = time.monotonic() + 15
        while True:  # the port may take a moment to be free again
            try:
                self.__init__(self.data, self.port, *self.more)  # type: ignore[misc]
                return
            except AssertionError:
                assert time.monotonic() < deadline
                time.sleep(0.2)

    def actions(self) -> list[tuple[int, int, str, int | None, int]]:
        """(n, seat, action, action id, stand-in mark) of every action journalled."""
        db = sqlite3.connect(f"file:{self.data / JOURNAL}?mode=ro", uri=True)
        try:
            return db.execute(
                "SELECT n, seat, action, action_id, stand_in FROM actions ORDER BY game, n"
            ).fetchall()
        finally:
            db.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def footer(person: Terminal) -> str:
    return person.text().splitlines()[-1]


def wait_until(test: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def play_one(person: Terminal, host: Host, seat: int) -> None:
    """A move by keys (see `hurry`), and the five chosen if asked; returns once it is in
    the journal (which the server writes before it tells anyone)."""
    made = len([a for a in host.actions() if a[1] == seat])
    hurry(person)
    if "Which five" in person.wait_for(re.compile(r"Which five|Hand ")):
        person.type("\r")
    wait_until(
        lambda: len([a for a in host.actions() if a[1] == seat]) > made,
        f"the move never landed:\n{person.text()}",
    )
    # ... and on the screen: the turn gone on, or the draw waiting.
    wait_until(
        lambda: TURN not in (screen := person.text()) or DRAW_BANNER in screen,
        f"the move never showed:\n{person.text()}",
    )


def draw(person: Terminal, host: Host, seat: int) -> None:
    """Take the waiting draw by its key; returns once it is journalled and shown."""
    person.wait_for(DRAW_BANNER)
    person.type("d")
    wait_until(lambda: DRAW_BANNER not in footer(person), f"no draw:\n{person.text()}")
    assert [a[2] for a in host.actions() if a[1] == seat][-1] == "draw", person.text()


def new_table(aino: Terminal, fields: str) -> None:
    """Aino names herself and opens the new-table form; `fields` are the keys typed in it
    (Tab to the next field, space to change one), then Enter."""
    aino.wait_for("What is your name?")
    aino.type("Aino\r")
    aino.wait_for("No tables yet")
    aino.type("n")
    aino.wait_for("New table")
    aino.type(fields + "\r")
    aino.wait_for("Aino (you)")


def test_no_computer_plays_for_people_after_a_restart(tmp_path):
    """The same evening twice at once, on servers of their own: one ended by `kill -9`,
    one by SIGTERM. Each mostly waits (for 5 and 20 seconds), so they share the wait."""
    hows = {"kill-9": signal.SIGKILL, "sigterm": signal.SIGTERM}
    with ThreadPoolExecutor(len(hows)) as pool:
        runs = {n: pool.submit(restart_evening, tmp_path / n, how) for n, how in hows.items()}
    for name, run in runs.items():
        try:
            run.result()
        except BaseException as e:
            raise AssertionError(f"after {name}: {e}") from e


def restart_evening(tmp_path: Path, how: signal.Signals) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    host = Host(tmp_path / "data")
    aino = Terminal([*command("sarja-client"), host.address], env)
    bertil = Terminal([*command("sarja-client"), host.address, "--name", "Öljy"], env)
    terminals = [aino, bertil]
    try:
        # 4 players, manual draw, 2 computers (the last seats), the computer stands in.
        new_table(aino, "\t  \t\t\t \t  \t\t ")
        screen = aino.text()
        assert "Aino (you)" in screen and "(computer, medium)" in screen, screen
        bertil.type("r")
        bertil.wait_for("Aino's table")
        bertil.type("\r")
        bertil.wait_for("Öljy (you)")
        aino.type("r")
        bertil.type("r")
        for person in (aino, bertil):
            person.wait_for("Hand ")

        # Seats: Aino 0, Bertil 1, computers 2 and 3. Play (each drawing at once) until
        # Bertil has made two moves, the second with its draw still waiting: the
        # computer after him waits for that draw.
        moves = 0
        while True:
            wait_until(
                lambda: TURN in aino.text() or TURN in bertil.text(),
                f"no one's turn:\n{aino.text()}\n\n{bertil.text()}",
            )
            mover = aino if TURN in aino.text() else bertil
            play_one(mover, host, 0 if mover is aino else 1)
            if mover is bertil:
                moves += 1
                if moves == 2:
                    break
            if DRAW_BANNER in footer(mover):  # not after a pass
                draw(mover, host, 0 if mover is aino else 1)
        assert DRAW_BANNER in footer(bertil)
        before = host.actions()
        last = before[-1]
        assert last[1] == 1 and last[3] is not None  # Bertil's play, his draw waiting

        host.end(how)  # mid-game
        for person in (aino, bertil):  # the people go too, to come back when we say
            os.kill(person.proc.pid, signal.SIGKILL)
            person.proc.wait(10)
        assert host.actions() == before  # everything shown was kept
        host.start_again()
        restarted = time.monotonic()

        def since_restart() -> list[tuple[int, int, str, int | None, int]]:
            return [a for a in host.actions() if a[0] > last[0]]

        def people(actions: list[tuple[int, int, str, int | None, int]]) -> list[object]:
            return [a for a in actions if a[1] in (0, 1)]

        time.sleep(max(0.0, restarted + 5 - time.monotonic()))
        assert people(since_restart()) == []
        aino = Terminal([*command("sarja-client"), host.address, "--name", "Aino"], env)
        terminals.append(aino)
        screen = aino.wait_for("You are back in the game")
        assert "Aino (you)" in screen

        time.sleep(max(0.0, restarted + 20 - time.monotonic()))
        # Twenty seconds on: nothing was played for either of them (the computer after
        # Bertil still waits for his draw, so nothing was played at all).
        assert people(since_restart()) == [] and since_restart() == []
        bertil = Terminal([*command("sarja-client"), host.address, "--name", "Öljy"], env)
        terminals.append(bertil)
        bertil.wait_for("You are back in the game")
        wait_until(lambda: DRAW_BANNER in footer(bertil), f"no draw waits:\n{bertil.text()}")
        draw(bertil, host, 1)  # his first move: the draw he left waiting
        assert "lost your draw" not in bertil.text()

        aino.wait_for(TURN, timeout=30)  # the computers have played; Aino's first move
        play_one(aino, host, 0)
        mine = re.search(r"You played (\S+) at ([A-J]\d+)\.", aino.text())
        assert mine, aino.text()
        assert "The computer played for you" not in aino.text() + bertil.text()

        made = since_restart()
        assert [a[1] for a in made][:1] == [1] and made[0][2] == "draw"
        for _n, seat, _action, action_id, stand_in in made:
            assert not stand_in, made
            if seat in (0, 1):
                assert action_id is not None, made  # made by the person's own client
        assert 0 in [a[1] for a in made]  # Aino's move went through
    finally:
        for terminal in terminals:
            terminal.close()
        host.close()


def test_a_draw_taken_two_seconds_after_the_move_is_kept(tmp_path):
    """The computer after Aino would move (and draw, taking hers) at once; it waits for
    her draw, so two seconds later it is still hers."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    host = Host(tmp_path / "data", 0, "--computer-pace", "0")
    aino = Terminal([*command("sarja-client"), host.address], env)
    try:
        new_table(aino, "\t\t\t\t \t ")  # manual draw, one computer
        aino.type("r")
        aino.wait_for("Hand ")
        for _ in range(3):
            aino.wait_for(TURN)
            play_one(aino, host, 0)
            aino.wait_for(DRAW_BANNER)
            time.sleep(2)
            draw(aino, host, 0)
        assert "lost your draw" not in aino.text()
        hers = [a[2] for a in host.actions() if a[1] == 0]
        assert hers.count("draw") == 3 and len(hers) == 6, hers  # every draw kept
    finally:
        aino.close()
        host.close()


def test_a_seat_taken_after_a_refused_resume_comes_back_after_a_restart(tmp_path):
    """Aino's first run leaves her lobby guest's token in her settings. The next run's
    resume of it is refused (a guest in the lobby is forgotten when it goes), so she
    plays on the new welcome's token; she quits mid-game, the server is stopped and
    started again, and her third run takes her seat back. That token was never written
    down (only a welcome saved tokens, and none follows the refusal): the third run
    asked with the first run's, was refused again, and its Aino was a stranger at her
    own table ('already called Aino')."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    host = Host(tmp_path / "data")
    runs: list[Terminal] = []

    def client() -> Terminal:
        runs.append(Terminal([*command("sarja-client"), host.address, "--name", "Aino"], env))
        return runs[-1]

    try:
        aino = client()
        aino.wait_for("No tables yet")
        aino.type("q")
        assert aino.finish() == 0

        aino = client()  # its resume refused: the welcome's token is hers now
        aino.wait_for("No tables yet")
        aino.type("n")
        aino.wait_for("New table")
        aino.type("\r")
        aino.wait_for("Aino (you)")
        aino.type("ja")  # a computer in the free seat
        aino.wait_for("(computer, easy)")
        aino.type("r")
        aino.wait_for("Hand ")
        aino.type("q")
        aino.wait_for("Your seat is kept")
        aino.type("y")
        assert aino.finish() == 0

        host.end(signal.SIGTERM)
        host.start_again()
        aino = client()
        screen = aino.wait_for(re.compile("You are back in the game|already called Aino"))
        assert "You are back in the game" in screen and "Aino (you)" in screen, screen
    finally:
        for terminal in runs:
            terminal.close()
        host.close()
