"""A game's public history: every change its members were told, kept to tell again.

A member who joins late, comes back or asks to `sync` gets a snapshot, and right after
it the history in `history` pages, so its log can show the whole game. Each entry is
an update's version and changes, exactly as they were broadcast (the drawn card is in
no change, so nothing hidden is kept here), and, when sent, whether the computer made
that action for an away person (the table's `stand_ins`).

After a restart the game is replayed from the journal, and the history with it:
every action comes back with its version. A seat's going and coming from before the
restart is not in the journal; what is known, that every person went away at the
restart, is one entry.

Away and back with no action between them tell nothing: the pair is dropped, so a
connection that comes and goes cannot grow the history; between two actions at most
one `away` per seat is kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from sarja.protocol.changes import Away, Back, Change, seat_only
from sarja.protocol.limits import MAX_HISTORY_PAGE
from sarja.protocol.messages import Entry, History

Entries = list[tuple[int, tuple[Change, ...]]]


class GameHistory:
    """The entries of one game, oldest first, and its pages as last sent."""

    __slots__ = ("entries", "_pages")

    def __init__(self) -> None:
        self.entries: Entries = []
        self._pages: tuple[tuple[int, int, int], tuple[History, ...]] | None = None

    def record(self, version: int, changes: tuple[Change, ...]) -> None:
        """An update was told (or, in a replay, would have been)."""
        entries = self.entries
        if len(changes) == 1 and isinstance(changes[0], Back):
            gone = Away(changes[0].seat)
            for i in range(len(entries) - 1, -1, -1):
                kept = entries[i][1]
                if not seat_only(kept[0]):
                    break  # an action since: the absence is worth telling
                if kept == (gone,):
                    del entries[i]
                    return
        entries.append((version, changes))

    def everyone_away(self, version: int, seats: Iterable[int]) -> None:
        """A restart: every person's seat went away at `version`."""
        gone = tuple(Away(s) for s in seats)
        if gone:
            self.entries.append((version, gone))

    def pages(self, version: int, stand_ins: set[int]) -> tuple[History, ...]:
        """The whole history as pages, none if it is empty: the same pages (so encoded
        once, outflow.py) for every member who asks at this version (a table full of
        returning players, or a client asking `sync` often)."""
        key = (version, len(self.entries), len(stand_ins))
        if self._pages is not None and self._pages[0] == key:
            return self._pages[1]
        entries = [
            Entry(version=v, changes=c, stand_in=v in stand_ins, _trusted=True)
            for v, c in self.entries
        ]
        pages = tuple(
            History(
                version=version,
                entries=tuple(entries[i : i + MAX_HISTORY_PAGE]),
                more=i + MAX_HISTORY_PAGE < len(entries),
                _trusted=True,
            )
            for i in range(0, len(entries), MAX_HISTORY_PAGE)
        )
        self._pages = (key, pages)
        return pages
