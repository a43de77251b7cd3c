"""Keeping finished games: each record is written whole or not at all."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from .engine import record_json
from .table import Table

log = logging.getLogger("sarja.server")


def default_data_dir() -> Path:
    """The user's data folder, as the XDG convention has it."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "sarja"


class RecordStore:
    def __init__(self, data_dir: Path | None) -> None:
        self.directory = None if data_dir is None else Path(data_dir) / "records"

    def snapshot(self, table: Table) -> tuple[str, str] | None:
        """The file name and text of the table's finished game, taken at once
        (the table may start a rematch before the file is written)."""
        if self.directory is None or table.game is None:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        name = f"{stamp}-{table.id}-game{table.games_played}.json"
        return name, record_json(table.game, table.names())

    def write(self, name: str, text: str) -> Path:
        """Write atomically: a crash leaves the old state or the whole file."""
        assert self.directory is not None
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / name
        partial = path.with_suffix(".partial")
        with open(partial, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
        log.info("game record written: %s", path)
        return path
