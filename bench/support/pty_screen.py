"""A program in a pseudo-terminal, and what a person would see on its screen (read
through the pyte terminal emulator): for the benches that play through the real
client, as tests/test_client_e2e.py's people do."""

from __future__ import annotations

import fcntl
import os
import struct
import subprocess
import termios
import time

import pyte


class Terminal:
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
        self.raw = b""

    def pump(self) -> bool:
        """Read what the program wrote; whether there was anything."""
        got = False
        while True:
            try:
                data = os.read(self.fd, 65536)
            except (BlockingIOError, OSError):
                return got
            if not data:
                return got
            got = True
            self.raw += data
            self.stream.feed(data)

    def text(self) -> str:
        self.pump()
        return "\n".join(line.rstrip() for line in self.screen.display)

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def wait_for(self, what: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while what not in (screen := self.text()):
            if time.monotonic() > deadline:
                raise AssertionError(f"{what!r} never appeared on the screen:\n{screen}")
            time.sleep(0.01)
        return screen

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.fd)
