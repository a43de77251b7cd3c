"""Run `sarja-server` (the same `main`, the same arguments) and count the garbage
collector's passes and their CPU time over a window the bench opens and closes with
signals: SIGUSR1 opens it, SIGUSR2 closes it and writes the figures as one JSON line
to the file named by SARJA_BENCH_COLLECTOR. The counting is two calls per pass,
nothing in between, so the server measured is the server that runs.

    python bench/support/collector.py --host 127.0.0.1 --port 0 ...
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import time
from typing import Any

from sarja.server.cli import main

_passes = [0, 0, 0]  # per generation
_seconds = [0.0, 0.0, 0.0]
_state: dict[str, Any] = {"open": False, "began": 0.0, "cpu": 0.0}


def _count(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _state["began"] = time.thread_time()
    elif _state["open"]:
        generation = info["generation"]
        _passes[generation] += 1
        _seconds[generation] += time.thread_time() - _state["began"]


def _open(signum: int, frame: Any) -> None:
    _passes[:] = [0, 0, 0]
    _seconds[:] = [0.0, 0.0, 0.0]
    _state["cpu"] = time.process_time()
    _state["open"] = True


def _close(signum: int, frame: Any) -> None:
    _state["open"] = False
    cpu = time.process_time() - _state["cpu"]
    figures = {
        "passes": list(_passes),
        "seconds": [round(s, 4) for s in _seconds],
        "cpu": round(cpu, 3),
        "share": round(sum(_seconds) / cpu, 4) if cpu > 0 else None,
        "threshold": list(gc.get_threshold()),
    }
    with open(os.environ["SARJA_BENCH_COLLECTOR"], "a") as out:
        out.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    gc.callbacks.append(_count)
    if os.environ.get("SARJA_BENCH_COLLECTOR"):
        signal.signal(signal.SIGUSR1, _open)
        signal.signal(signal.SIGUSR2, _close)
    sys.argv[0] = "sarja-server"
    main(sys.argv[1:])
