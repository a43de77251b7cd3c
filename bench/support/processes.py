"""Starting and stopping the server processes a bench measures: the port a server
says it listens on, and a stop that asks first (SIGTERM) and kills only after `grace`.

Shared by server.py, hostile.py and hostile_tables.py.
"""

from __future__ import annotations

import re

import trio


async def read_port(
    process: trio.Process,
    pattern: bytes = rb"listening on port (\d+)",
    what: str = "sarja-server",
    timeout: float = 30,
) -> int:
    """The port in the first line of `process`'s output that matches `pattern`."""
    assert process.stdout is not None
    buffer = b""
    with trio.fail_after(timeout):
        while not (match := re.search(pattern, buffer)):
            chunk = await process.stdout.receive_some(4096)
            if not chunk:
                raise RuntimeError(f"{what} did not start")
            buffer += chunk
    return int(match.group(1))


async def stop(process: trio.Process, grace: float = 10) -> None:
    """SIGTERM, and SIGKILL if it has not ended after `grace` seconds."""
    if process.returncode is None:
        process.terminate()
        with trio.move_on_after(grace):
            await process.wait()
    if process.returncode is None:
        process.kill()
        await process.wait()
