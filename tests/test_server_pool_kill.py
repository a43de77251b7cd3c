"""A server killed outright (`kill -9`) while its search workers run: the host's shell
shows nothing after it. multiprocessing's resource tracker removes the worker pool's
semaphores then, and used to warn of "leaked semaphore objects" on the host's terminal."""

from __future__ import annotations

import subprocess
import sys

KILLED_WITH_WORKERS = """
import os, signal
from sarja.server.computers import Computers
pool = Computers(0.0, 1.0, workers=1)._workers()
assert pool.submit(abs, -1).result() == 1  # a worker runs
print("searching", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_servers_workers_leave_no_warning_on_the_hosts_terminal():
    # stderr is read to its end: the tracker and the worker hold it until they are gone
    # (the worker notices the server's end within a second, workers.py).
    done = subprocess.run(
        [sys.executable, "-c", KILLED_WITH_WORKERS], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == -9 and done.stdout == "searching\n", done.stderr
    assert "leaked" not in done.stderr and "resource_tracker" not in done.stderr, done.stderr
