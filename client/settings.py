"""What the client remembers between runs: the player's name, and for each
server and name the resume token that takes the player back to their seat.

Kept as JSON under $XDG_CONFIG_HOME/sarja (or ~/.config/sarja); a missing or broken
file just means nothing is remembered. The token is as good as the seat: the file is
written readable by its owner only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def settings_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "sarja" / "client.json"


def _load(path: Path | None) -> dict[str, Any]:
    try:
        data = json.loads((path or settings_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, Any], path: Path | None) -> None:
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(json.dumps(data) + "\n")
        os.replace(partial, path)
    except OSError:
        pass  # not remembering is no reason to stop playing


def load_name(path: Path | None = None) -> str:
    name = _load(path).get("name")
    return name if isinstance(name, str) else ""


def save_name(name: str, path: Path | None = None) -> None:
    data = _load(path)
    data["name"] = name
    _save(data, path)


def _token_key(address: str, name: str) -> str:
    # By name too: two people on one machine (one config) must not share a seat.
    return f"{name}@{address}"


def load_resume(address: str, name: str, path: Path | None = None) -> str | None:
    """The token the server at `address` gave `name` last time, if any."""
    tokens = _load(path).get("resume")
    token = tokens.get(_token_key(address, name)) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) else None


def save_resume(address: str, name: str, token: str, path: Path | None = None) -> None:
    data = _load(path)
    kept = data.get("resume")
    tokens: dict[str, Any] = kept if isinstance(kept, dict) else {}
    tokens[_token_key(address, name)] = token
    data["resume"] = tokens
    _save(data, path)
