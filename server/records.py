"""Finished games' records: JSON files in the data directory, written from the journal.

Every finished game the journal marks as not yet recorded is written, whole or not at
all, readable by the host alone; a record that cannot be written now stays marked and
is written on a later try (a minute later, or at the next start). The folder keeps the
newest `kept` records. Once a record is written, the journal keeps only a summary of
the game (a `Result`) and lets the rest go; with no data directory, no record is
written and the summary is all that is kept.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from .engine import record_json
from .journal import Journal, Result, replay_game

log = logging.getLogger("sarja.server")


def default_data_dir() -> Path:
    """The user's data folder, as the XDG convention has it."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "sarja"


class RecordStore:
    def __init__(
        self, data_dir: Path | None, kept: int = 1000, directory: Path | None = None
    ) -> None:
        if directory is None and data_dir is not None:
            directory = Path(data_dir) / "records"
        self.directory = directory
        self.kept = kept
        if self.directory is not None and self.directory.is_dir():
            for partial in self.directory.glob("*.partial"):  # left by a stop mid-write
                partial.unlink(missing_ok=True)

    def due(self, journal: Journal) -> list[tuple[str, int, str, str, Result]]:
        """(table id, game number, file name, text, summary) of every finished game not
        yet recorded (no text with no data directory). Reads the journal: call it where
        the journal lives, not in a thread."""
        due = []
        for table_id, number in journal.unrecorded():
            table = journal.table(table_id, number)
            if table is None or table.game is None:
                continue
            names = table.names()
            game = replay_game(table.arrangement(), table.game)
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            name = f"{stamp}-{table_id}-game{number}.json"
            made = [i for i, a in enumerate(table.game.actions) if a.stand_in]
            text = "" if self.directory is None else record_json(game, names, made)
            outcome = game.outcome
            computers = table.computers or [None] * table.players
            seats = [
                (
                    None if held is None else held[0],
                    names[i],
                    table.handed.get(i) if held else None if c is None else c[0],
                )  # fmt: skip
                for i, (held, c) in enumerate(zip(table.seats, computers, strict=True))
            ]
            result = Result(
                table.name, table.players, table.teams,
                "draw" if outcome is None else outcome.result,
                None if outcome is None else outcome.side, len(table.game.actions), seats,
            )  # fmt: skip
            due.append((table_id, number, name, text, result))
        return due

    def write(self, name: str, text: str) -> Path:
        """Atomically (a stop leaves no file or the whole one), for the host's eyes only."""
        assert self.directory is not None
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = self.directory / name
        partial = path.with_suffix(".partial")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
        log.info("game record written: %s", path)
        return path

    def prune(self) -> None:
        """Keep the newest `kept` records."""
        assert self.directory is not None
        records = sorted(self.directory.glob("*.json"), key=lambda p: p.stat().st_mtime)
        for old in records[: max(0, len(records) - self.kept)]:
            old.unlink(missing_ok=True)
