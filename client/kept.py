"""The game records kept on this machine, for `sarja-client --replay` to list.

Two folders hold them: the practice server's (`practice/` in the client's data
directory, platformdirs: `$XDG_DATA_HOME/sarja` or `~/.local/share/sarja` on Linux),
and a `sarja-server`'s own `records/` in its default data directory, when a server
on this machine keeps its games there. A file that cannot be read, or is not a
record, is left out of the list rather than stopping it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_path

from .words import game as words

LISTED = 20  # the newest records offered to choose from


def practice_records() -> Path:
    """Where the practice server writes its games' records."""
    return user_data_path("sarja", appauthor=False) / "practice"


def server_records() -> Path:
    """The records folder of a sarja-server run here with its default data directory."""
    from sarja.server.records import default_data_dir

    return default_data_dir() / "records"


@dataclass(frozen=True)
class Kept:
    path: Path
    practice: bool  # from a practice game (else from a server's records)
    when: float  # the file's time, seconds since the epoch
    names: tuple[str, ...]
    winner: str | None  # the winning side's names joined, None for a draw
    moves: int


def recent(limit: int = LISTED) -> list[Kept]:
    """The newest records of both folders, newest first."""
    found: list[Kept] = []
    for folder, practice in ((practice_records(), True), (server_records(), False)):
        try:
            files = list(folder.glob("*.json"))
        except OSError:
            continue
        for path in files:
            kept = _read(path, practice)
            if kept is not None:
                found.append(kept)
    found.sort(key=lambda k: k.when, reverse=True)
    return found[:limit]


def _read(path: Path, practice: bool) -> Kept | None:
    try:
        when = path.stat().st_mtime
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != "sarja-record":
        return None
    players, sides = data.get("players"), data.get("sides")
    if not isinstance(players, int) or not isinstance(sides, int) or sides < 1:
        return None
    given = data.get("names")
    names = tuple(
        str(given[i]) if isinstance(given, list) and i < len(given) else words.seat_name(i)
        for i in range(players)
    )
    outcome = data.get("outcome")
    side = outcome.get("side") if isinstance(outcome, dict) else None
    winner = None
    if isinstance(side, int) and 0 <= side < sides:
        winner = " & ".join(names[i] for i in range(side, players, sides))
    actions = data.get("actions")
    moves = len(actions) if isinstance(actions, list) else 0
    return Kept(path, practice, when, names, winner, moves)
