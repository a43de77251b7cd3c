"""One server per data directory: a lock on a file in it, held while the server runs.

Two servers on one journal would each restore the same tables and write over the other's
moves. The lock is an `flock` on `DIR/server.lock`: the operating system drops it when
the process ends, however it ends (kill -9 included), so a crash leaves no stale lock.
Readers of the journal (`sarja-server export`) do not take it.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from sarja.lang import _

try:
    import fcntl
except ImportError:  # not POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

FILE_NAME = "server.lock"


class DataDirInUse(Exception):
    """The data directory cannot be locked; the message says which and what to do."""


class DataDirLock:
    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    @classmethod
    def take(cls, data_dir: Path | None) -> DataDirLock:
        """The lock on `data_dir` (none to take for None); DataDirInUse if another
        process holds it or it cannot be made."""
        if data_dir is None or fcntl is None:
            return cls(None)
        path = Path(data_dir) / FILE_NAME
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise DataDirInUse(
                _("cannot use the data directory {dir}: {why}").format(
                    dir=data_dir, why=err.strerror or err
                )
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise DataDirInUse(
                _(
                    "the data directory {dir} is in use by another sarja-server: stop that"
                    " one, or give this one another --data-dir"
                ).format(dir=data_dir)
            ) from None
        # Who holds it, for a host looking into the folder; the lock itself is the flock.
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        return cls(fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the flock
            self._fd = None


def in_use(data_dir: Path) -> bool:
    """Whether a server holds the lock on `data_dir` now (without taking it, nor
    writing in the lock file: a command that only reads asks this)."""
    path = Path(data_dir) / FILE_NAME
    if fcntl is None or not path.exists():
        return False  # no locks here, or no server has run there
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (closing it drops a shared lock taken)
    return False
