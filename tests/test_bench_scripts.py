"""The bench scripts still run (briefly) and print their figures. Nothing here
measures speed: the figures are for people, from full runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize(
    "script, args, expect",
    [
        ("engine.py", ["--seconds", "0.05", "--samples", "30"], "games/s"),
        ("protocol.py", [], "ratio"),
        ("client.py", ["--games", "1"], "median"),
        # This checkout as the "other" one too: its figures come last, after the load's.
        ("server.py", ["--quick", "--other", str(BENCH.parent)], "rtt_us_other1"),
        # bots.py --quick runs in tests/test_bots.py, which checks its figures too.
        ("blocks.py", ["--check", "medium"], "missed 0 of"),
        ("decisions.py", ["--quick"], "edge_hard-v1"),
        ("hostile.py", ["--quick"], "p99_attack_ms"),
        ("hostile_tables.py", ["--quick"], "park_race_stopped"),
        ("hostile_costs.py", ["--quick"], "toggle_notices_per_s"),
        ("discovery.py", ["--quick"], "gone_after_stop_s"),
        ("path.py", ["--quick"], "move_returns"),
        # stale.py --quick runs in tests/test_client_e2e_stale.py, which checks its figures.
    ],
)
def test_a_bench_script_runs(script, args, expect):
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert expect in done.stdout
