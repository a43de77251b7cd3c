"""The game's past in the log, and the log scrolled back through it.

After every snapshot of a game with a past, the client session asks for its `history`:
each update so far, as it was told, a page at a time, gathered (`Past`, once the last
page came). The entries the log lacks are written into it the way
live updates are (`log_changes`, words/log.py): after a fresh start the whole game,
before the lines that greeted the snapshot; after a dropped connection the part that
was missed. On a return, one line says what happened meanwhile, counted from the
version we last logged (a connection that dropped) or from our seat's last `away` (a
client started again).

The log scrolls by screen lines (`log_back`, clamped where it is drawn); PgUp and PgDn
move a page, Home to the start, End back to the newest, and so does any new line.
"""

from __future__ import annotations

from collections import deque
from functools import partial

from sarja.protocol.changes import Away
from sarja.protocol.client_session import Past
from sarja.protocol.messages import Entry
from sarja.protocol.mirror import GameMirror

from .model import LOG_KEPT, LogLine, Model
from .words.log import away_summary, game_begins, log_changes

TOP = 10**9  # `log_back` for "the start": clamped to the oldest line when drawn


def take_history(model: Model, past: Past) -> None:
    """The whole history of the game on screen: the log gets what it lacks."""
    game = model.game
    if game is None:
        return
    entries, version = list(past.entries), past.message.version
    fresh = model.logged is None
    seen = -1 if model.logged is None else model.logged
    missed = [e for e in entries if e.version > seen]
    lines = [line for e in missed for line in log_changes(model, game, e.changes, e.stand_in)]
    if fresh:
        lines.insert(0, LogLine("info", partial(game_begins, model, game)))
        _before_arrival(model, lines)
    else:
        model.log.extend(lines)
    if fresh:
        since = _last_away(game, entries)
    else:
        since = seen if model.returning else None  # None: a `sync`, not a return
    if since is not None:
        meanwhile = [e for e in entries if e.version > since]
        if away_summary(game, meanwhile):
            model.log.append(LogLine("info", lambda: [("", away_summary(game, meanwhile))]))
    model.logged = max(seen, version)
    model.returning = False
    model.log_back = 0


def _before_arrival(model: Model, lines: list[LogLine]) -> None:
    """Put the game's past before the lines that greeted its snapshot."""
    items = list(model.log)
    at = next((i for i, line in enumerate(items) if line is model.arrival), len(items))
    items[at:at] = lines
    model.log = deque(items, maxlen=LOG_KEPT)


def _last_away(game: GameMirror, entries: list[Entry]) -> int | None:
    """The version of our seat's last going away, if the history has one."""
    if game.seat is None:
        return None
    for e in reversed(entries):
        if Away(game.seat) in e.changes:
            return e.version
    return None


# ----- scrolling ----------------------------------------------------------------------


def scroll_log(model: Model, how: str) -> None:
    """PgUp ("up"), PgDn ("down"), Home ("top") and End ("end") on the log."""
    page = max(1, model.log_page - 2)
    if how == "up":
        model.log_back = min(model.log_back, TOP) + page
    elif how == "down":
        model.log_back = max(0, min(model.log_back, TOP) - page)
    elif how == "top":
        model.log_back = TOP
    else:
        model.log_back = 0
