"""A game's public history: every change its members were told, kept to tell again.

A member who joins late, comes back or asks to `sync` gets a snapshot; a client that
keeps a log then asks for the history, a `history` page at a time, so its log can show
the whole game. Each entry is
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

import bisect
from collections.abc import Iterable

from sarja.protocol.changes import Away, Back, Change, seat_only
from sarja.protocol.limits import MAX_HISTORY_PAGE
from sarja.protocol.messages import Entry, History

Entries = list[tuple[int, tuple[Change, ...]]]
PAGES_KEPT = 8  # pages kept encoded for one state of the history


class GameHistory:
    """The entries of one game, oldest first, and its pages as last asked for."""

    __slots__ = ("entries", "_pages")

    def __init__(self) -> None:
        self.entries: Entries = []
        # The pages made at one state of the history, by where they start.
        self._pages: tuple[tuple[int, int, int], dict[int, History]] | None = None

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

    def page(self, version: int, stand_ins: set[int], after: int) -> History:
        """The entries after version `after`, at most a page of them, oldest first: the
        same page (so encoded once, outflow.py) for every member who asks for it at
        this version (a table full of returning players)."""
        key = (version, len(self.entries), len(stand_ins))
        if self._pages is None or self._pages[0] != key:
            self._pages = (key, {})
        pages = self._pages[1]
        page = pages.get(after)
        if page is not None:
            return page
        entries = self.entries
        first = bisect.bisect_right(entries, after, key=_version)
        last = min(first + MAX_HISTORY_PAGE, len(entries))
        page = History(
            version=version,
            entries=tuple(
                Entry(version=v, changes=c, stand_in=v in stand_ins, _trusted=True)
                for v, c in entries[first:last]
            ),
            more=last < len(entries),
            _trusted=True,
        )
        if len(pages) >= PAGES_KEPT:  # a client naming ever new places: keep a few
            pages.clear()
        pages[after] = page
        return page


def _version(entry: tuple[int, tuple[Change, ...]]) -> int:
    return entry[0]
