"""The mover's own screen shows the move it just made, in a pseudo-terminal: the real
server and two real clients at a table with a 30 s turn clock, a dozen own moves
(bench/stale.py --quick; the full 300 under CPU burners is the bench's run). A move
whose log line, clock or board shows while another part of the same screen still
shows the turn before it, one redraw later, is a stale screen."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_own_moves_show_on_the_movers_screen_within_one_redraw():
    done = subprocess.run(
        [sys.executable, str(BENCH / "stale.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["own_moves"] == 12
    assert figures["stale_screens"] == 0, done.stdout[-3000:]
