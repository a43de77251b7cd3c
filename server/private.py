"""The data directory is the host's alone: the journal holds the deck order of every game
in progress, and the resume tokens' hashes. The directory is 0700, its files 0600,
whatever the umask; one that already exists with wider modes is narrowed, if it is ours
(a directory the host pointed at but does not own is left as it is).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600


def private_directory(path: Path) -> None:
    """`path`, made if it is missing (its parents as usual), readable by the host alone.
    OSError if it cannot be made."""
    path.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    _narrow(path, DIRECTORY_MODE)


def private_file(path: Path) -> None:
    """`path`, made empty if it is missing, readable by the host alone. OSError if it
    cannot be made."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        _narrow(path, FILE_MODE)


def narrow_if_there(path: Path) -> None:
    """An existing file of ours made 0600 (one left by an older server, say)."""
    with contextlib.suppress(FileNotFoundError):
        _narrow(path, FILE_MODE)


def _narrow(path: Path, mode: int) -> None:
    status = path.stat()
    if status.st_uid == os.getuid() and status.st_mode & 0o777 & ~mode:
        path.chmod(status.st_mode & 0o777 & mode)
