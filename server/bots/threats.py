"""Threats: the empty spaces that would finish a side's fours, and who can fill them.

A side's four is a live window where it holds four of the five spaces (corners
count for every side); the fifth, empty space finishes a sequence. What
threatens is the space, not the window: two fours that need the same space
are one threat, since one chip there blocks both. So threats are kept as a
count per side and space of the fours that need it, and a move's effect on
threats is which spaces start or stop being needed.

A space can be filled by the card shown on it (two copies in the decks) or by
a two-eyed jack (four copies). From one seat's view a space is still fillable
by the other sides while it has not seen both copies of its card (in its own
hand or the discard pile) or all four two-eyed jacks: nothing else is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..engine.board import LAYOUT
from ..engine.cards import JC, JD
from .windows import CELL_WINDOWS, MARK_INC, TABLE_SIZE, WINDOWS, four_owner

CELLS = 100


def open_cell(chips: bytes | bytearray, window: int) -> int:
    """The empty space of a window (the one a four of it needs); -1 if none."""
    for cell in WINDOWS[window]:
        if not chips[cell]:
            return cell
    return -1


class Threats:
    """Per side, per space, how many fours need that space."""

    __slots__ = ("counts",)

    def __init__(self, chips: bytes | bytearray, packed: Sequence[int], sides: int) -> None:
        self.counts: list[list[int]] = []
        self.recount(chips, packed, sides)

    def recount(self, chips: bytes | bytearray, packed: Sequence[int], sides: int) -> None:
        """Count every side's threats afresh (a sequence made spends windows)."""
        owners = four_owner()
        self.counts = [[0] * CELLS for _ in range(sides)]
        for w, p in enumerate(packed):
            owner = owners[p]
            if owner:
                self.counts[owner - 1][open_cell(chips, w)] += 1

    def cells(self, side: int) -> list[int]:
        """The spaces that finish a four of `side`, one per space."""
        return [c for c, n in enumerate(self.counts[side]) if n]

    def changes(
        self, chips: bytearray, packed: Sequence[int], cell: int, placed: int, removed: int
    ) -> list[tuple[int, int, int]]:
        """(side, space, change in fours needing it) if a chip of mark `placed`
        lands on `cell`, or the chip of mark `removed` is taken from it (the
        other one 0). `chips` is restored before returning."""
        owners = four_owner()
        before = chips[cell]
        inc = MARK_INC[placed] if placed else -MARK_INC[removed]
        found: list[tuple[int, int, int]] = []
        for w in CELL_WINDOWS[cell]:
            p = packed[w]
            q = p + inc
            was, now = owners[p], owners[q] if 0 <= q < TABLE_SIZE else 0
            if was == now and not was:
                continue
            if was:
                found.append((was - 1, open_cell(chips, w), -1))
            if now:
                chips[cell] = placed
                found.append((now - 1, open_cell(chips, w), 1))
                chips[cell] = before
        return found

    def spaces_changed(
        self, changes: Iterable[tuple[int, int, int]]
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The (side, space) threats `changes` would make and those it would end."""
        diff: dict[tuple[int, int], int] = {}
        for side, cell, d in changes:
            diff[(side, cell)] = diff.get((side, cell), 0) + d
        made, ended = [], []
        for (side, cell), d in diff.items():
            if not d:
                continue
            n = self.counts[side][cell]
            if n == 0 and d > 0:
                made.append((side, cell))
            elif n > 0 and n + d <= 0:
                ended.append((side, cell))
        return made, ended

    def apply(self, changes: Iterable[tuple[int, int, int]]) -> None:
        for side, cell, d in changes:
            self.counts[side][cell] += d


class Fill:
    """Which spaces a side can still fill, from one seat's view: its hand and
    the discard pile (`seen`: copies of each card seen by the seat, its hand
    included; `hand`: the cards it holds)."""

    __slots__ = ("seen", "hand")

    def __init__(self, hand: Iterable[int], discard: Iterable[int]) -> None:
        seen = [0] * 52
        held = [0] * 52
        for card in hand:
            seen[card] += 1
            held[card] += 1
        for card in discard:
            seen[card] += 1
        self.seen = seen
        self.hand = held

    def by_others(self, cell: int) -> bool:
        """Whether another side may still fill `cell`: a copy of its card or a
        two-eyed jack the seat has not seen."""
        seen = self.seen
        return seen[LAYOUT[cell]] < 2 or seen[JD] + seen[JC] < 4

    def by_us(self, cell: int) -> bool:
        """Whether the seat's side may still fill `cell`: it holds the card or a
        two-eyed jack, or a copy of either is not in the discard pile."""
        seen, hand = self.seen, self.hand
        card = LAYOUT[cell]
        if hand[card] or hand[JD] or hand[JC]:
            return True
        return seen[card] < 2 or seen[JD] + seen[JC] < 4


@lru_cache(maxsize=8)
def touches(inc: int) -> bytes:
    """Per window state, 1 where adding `inc` (a chip's MARK_INC, negative to
    take one away) makes or ends a four: only then is a move's effect on
    threats worth working out."""
    owners = four_owner()
    out = bytearray(TABLE_SIZE)
    for p in range(TABLE_SIZE):
        q = p + inc
        now = owners[q] if 0 <= q < TABLE_SIZE else 0
        out[p] = 1 if owners[p] != now else 0
    return bytes(out)
