"""The words of `sarja-client --replay` with no file: the list of kept records."""

from __future__ import annotations

import time

from ..kept import Kept


def choose_prompt() -> str:
    return "Which game do you want to replay? (↑ ↓ then Enter; Ctrl-C to leave)"


def none_kept(practice: str, server: str) -> str:
    return (
        f"No game records are kept on this machine yet (none in {practice} or {server})."
        " Play one with --practice, or give a record: --replay RECORD.json"
    )


def kept_label(kept: Kept) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.when))
    where = "practice" if kept.practice else "server"
    players = " v ".join(kept.names)
    end = f"{kept.winner} won" if kept.winner else "a draw"
    return f"{when}  {where:8}  {players} — {end}, {kept.moves} moves"
