"""The words of `sarja-client --replay` with no file: the list of kept records."""

from __future__ import annotations

import time

from sarja.lang import _, ngettext

from ..kept import Kept
from ..keybar import KeyItem, Need


def choose_prompt() -> str:
    return _("Which game do you want to replay? (↑ ↓ then Enter; q or Esc to leave)")


def choose_keys() -> list[KeyItem]:
    """The list's key bar, at its foot as on the game's screens."""
    return [KeyItem("↑↓", _("choose")), KeyItem("Enter", _("replay it")),
            KeyItem("q Esc", _("leave"), Need.OUT)]  # fmt: skip


def none_kept(practice: str, server: str) -> str:
    return _(
        "No game records are kept on this machine yet (none in {practice} or {server})."
        " Play one with --practice, or give a record: --replay RECORD.json"
    ).format(practice=practice, server=server)


def kept_label(kept: Kept) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(kept.when))
    where = _("practice") if kept.practice else _("server")
    players = _(" v ").join(kept.names)  # between the players' names
    if kept.winner:
        end = ngettext("{winner} won, {n} move", "{winner} won, {n} moves", kept.moves).format(
            winner=kept.winner, n=kept.moves
        )
    else:
        end = ngettext("a draw, {n} move", "a draw, {n} moves", kept.moves).format(n=kept.moves)
    return f"{when}  {where:10}  {players} — {end}"
