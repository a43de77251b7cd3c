"""End to end, in real terminals: a player killed mid-game and started again finds the
whole game in the log, scrolls it back to the first move, and is told what happened
while they were away (the real `sarja-server` and `sarja-client` in pseudo-terminals,
as in test_client_e2e.py)."""

from __future__ import annotations

import os
import re
import signal
import time

from .test_client_e2e import TURN, Terminal, command, hurry, seat_two, server, take_turn

__all__ = ["server"]  # the fixture, used by name

FIRST = re.compile(r"(You|Aino|Bertil) played (\S+) at ([A-J]\d+)\.")


def test_a_log_scrolled_back_to_the_first_move_after_a_reconnect(server, tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    aino = Terminal([*command("sarja-client"), server], env)
    bertil = Terminal([*command("sarja-client"), server, "--name", "Bertil"], env)
    try:
        seat_two(aino, bertil)
        mover = take_turn(aino, bertil)
        found = FIRST.search(aino.text())
        assert found, aino.text()
        _, card, cell = found.groups()
        first = f"{'Aino' if mover is aino else 'Bertil'} played {card} at {cell}."
        # Moves enough to push the first off the log, then Aino is gone on Bertil's turn.
        for _ in range(6):
            take_turn(aino, bertil)
        while TURN not in bertil.text():
            take_turn(aino, bertil)
        os.kill(aino.proc.pid, signal.SIGKILL)
        aino.proc.wait(10)
        bertil.wait_for("Aino (away)")
        hurry(bertil)  # one move while she is away
        if "Which five" in bertil.wait_for(re.compile(r"Which five|Hand ")):
            bertil.type("\r")
        deadline = time.monotonic() + 15
        while TURN in bertil.text():
            assert time.monotonic() < deadline, bertil.text()
            time.sleep(0.01)
        aino.close()

        aino = Terminal([*command("sarja-client"), server, "--name", "Aino"], env)
        back = aino.wait_for("While you were away: 1 move.")
        assert "The game begins" not in back and "newer line" not in back
        aino.type("\x1b[H")  # Home: the log's first line
        top = aino.wait_for("The game begins.")
        mine = first.replace("Aino played", "You played")
        assert mine in top, top
        assert re.search(r"↓ \d+ newer lines · PgDn, End: back to the newest", top)
        aino.type("\x1b[6~")  # PgDn: still back, nearer the newest
        aino.wait_for(re.compile(r"↓ \d+ newer lines"))
        aino.type("\x1b[F")  # End: the newest again
        newest = aino.wait_for("While you were away: 1 move.")
        assert "newer line" not in newest
        assert "Traceback" not in aino.raw.decode("utf-8", "replace")
    finally:
        aino.close()
        bertil.close()
