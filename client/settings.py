"""What the client remembers between runs: the player's name, and the seats they hold.

A seat is remembered by the server's lasting identity (`welcome.server_id`) and the
player's name, never by the address typed: the same server is reached as `localhost`,
by its IP address or by a name, and a seat must come back whichever was used. Two
people on one machine share the file, never a seat, since the name is part of the key.

Kept as JSON in the user's config directory (platformdirs: `$XDG_CONFIG_HOME/sarja` or
`~/.config/sarja` on Linux, the usual places elsewhere). A missing or broken file just
means nothing is remembered. A token is as good as the seat: the file is written
readable by its owner only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from platformdirs import user_config_path

SEATS_KEPT = 50  # servers remembered; the oldest are forgotten first


def settings_path() -> Path:
    return user_config_path("sarja", appauthor=False) / "client.json"


class Settings:
    """The file, read once at start and written whenever something worth keeping
    changes. `path=None` keeps everything in memory only (tests, replays)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        data = _load(path) if path is not None else {}
        name = data.get("name")
        self.name: str = name if isinstance(name, str) else ""
        seats = data.get("seats")
        self.seats: dict[str, dict[str, str]] = {}
        if isinstance(seats, dict):
            for server, tokens in seats.items():
                if isinstance(server, str) and isinstance(tokens, dict):
                    kept = {k: v for k, v in tokens.items() if isinstance(v, str)}
                    if kept:
                        self.seats[server] = kept

    def save(self, name: str, seats: dict[str, dict[str, str]]) -> None:
        """Remember `name`, and its tokens in `seats`. The file is read again first and
        only this name's tokens are written: another client on this machine (another
        player) may have kept its own since we started."""
        mine = {server: tokens[name] for server, tokens in seats.items() if name in tokens}
        if name == self.name and all(self.seats.get(s, {}).get(name) == t for s, t in mine.items()):
            return
        fresh = Settings(self.path) if self.path is not None else self
        for server, token in mine.items():
            fresh.seats.setdefault(server, {})[name] = token
        newest = list(fresh.seats.items())[-SEATS_KEPT:]
        self.name, self.seats = name, {server: dict(tokens) for server, tokens in newest}
        if self.path is not None:
            _save({"name": self.name, "seats": self.seats}, self.path)


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, Any], path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(json.dumps(data, ensure_ascii=False) + "\n")
        os.replace(partial, path)
    except OSError:
        pass  # not remembering is no reason to stop playing
