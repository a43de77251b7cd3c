"""What the client remembers between runs: the player's name.

Kept as JSON under $XDG_CONFIG_HOME/sarja (or ~/.config/sarja); a missing or broken
file just means nothing is remembered.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def settings_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sarja" / "client.json"


def load_name(path: Path | None = None) -> str:
    try:
        data = json.loads((path or settings_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else ""


def save_name(name: str, path: Path | None = None) -> None:
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"name": name}) + "\n", encoding="utf-8")
    except OSError:
        pass  # not remembering the name is no reason to stop playing
