"""The board as 192 windows of five, each packed into one small integer.

Every sequence is one of the 192 straight fives on the board. A computer player
judges a space by the windows through it: a window is *live* for a side while
no other side has a chip in it and it can still count as a new sequence (it
shares at most one space with each of the side's finished sequences). How much
a side has in its live windows is what it has built; what it would take from
another side's live windows is what a chip there blocks.

A window's state packs into one integer (chips per side, the corner, and per
side whether a finished sequence already spends it), so the worth of a
window from one side's point of view is one look-up in a table, and a
placement's worth is a sum of at most twenty look-ups. Search plays thousands
of moves per decision; this is what makes that affordable in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..engine.board import DIRECTIONS, SIZE

# Marks as the engine keeps them on its chips: 0 empty, side + 1, 4 a corner.
CORNER_MARK = 4

# Packed window: three bits of chip count per side (marks 1..3), one bit for a
# corner, one "spent" bit per side, and one bit for a window that is itself a
# finished sequence (whose side is the one holding its chips).
_COUNT_BITS = 3
CORNER_BIT = 1 << 9
SPENT_BIT = (1 << 10, 1 << 11, 1 << 12)
FINISHED_BIT = 1 << 13
TABLE_SIZE = 1 << 14
# What one chip of a mark adds to a window (index by mark; 4 is the corner).
MARK_INC = (0, 1, 1 << 3, 1 << 6, CORNER_BIT)


def _windows() -> tuple[tuple[int, ...], ...]:
    fives = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in DIRECTIONS:
                end_r, end_c = r + 4 * dr, c + 4 * dc
                if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
                    fives.append(tuple(sorted((r + i * dr) * SIZE + c + i * dc for i in range(5))))
    return tuple(sorted(fives))


WINDOWS: tuple[tuple[int, ...], ...] = _windows()
WINDOW_ID: dict[tuple[int, ...], int] = {w: i for i, w in enumerate(WINDOWS)}
CELL_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, w in enumerate(WINDOWS) if cell in w) for cell in range(SIZE * SIZE)
)
# Per window, the other windows a finished sequence on it spends: those sharing
# two or more spaces with it (a new sequence may share only one).
SPENT_BY: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j, other in enumerate(WINDOWS) if j != i and len(set(w) & set(other)) >= 2)
    for i, w in enumerate(WINDOWS)
)


def pack(chips: bytes | bytearray, sequences: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    """Every window's packed state for a board (engine marks) and the fives
    each side has finished."""
    packed = []
    for cells in WINDOWS:
        p = 0
        for c in cells:
            p += MARK_INC[chips[c]]
        packed.append(p)
    for side, fives in enumerate(sequences):
        for five in fives:
            spend(packed, side, five)
    return packed


def spend(packed: list[int], side: int, five: Sequence[int]) -> None:
    """A finished sequence of `side` spends the windows overlapping it."""
    bit = SPENT_BIT[side]
    own = WINDOW_ID[tuple(sorted(five))]
    packed[own] |= FINISHED_BIT
    for w in SPENT_BY[own]:
        packed[w] |= bit


# ----- what a window is worth ------------------------------------------------

# Worth of a live window to its side by how many of its five spaces the side
# holds (corners included); the last entry is making a sequence. A four's
# window is worth little by itself: what a four threatens is counted by the
# space it needs (threats.py, judge.py), so two fours on one space count once.
BUILD = (0.0, 1.0, 5.0, 22.0, 40.0, 1000.0)
# A side one sequence from winning: making the sequence wins.
BUILD_TO_WIN = (0.0, 1.0, 6.0, 40.0, 60.0, 100000.0)
# A finished sequence, once counted: what it already won, not what it would win.
FINISHED = 1000.0


@dataclass(frozen=True, eq=False)  # eq=False: hashed by identity, a cheap cache key
class Values:
    """A live window's worth to its side by the spaces it holds: `build`, and
    `build_to_win` for a side one sequence from winning (hard-v1, under bench/,
    keeps the values of before threats were counted by the space they need)."""

    build: tuple[float, ...]
    build_to_win: tuple[float, ...]


VALUES = Values(BUILD, BUILD_TO_WIN)


def window_worth(
    p: int, side: int, sides: int, to_win: Sequence[bool], defence: float, values: Values = VALUES
) -> float:
    """What window state `p` is worth to `side`: its own live window counts
    for it, every other side's live window against it (times `defence`)."""
    counts = [(p >> (_COUNT_BITS * s)) & 7 for s in range(sides)]
    occupied = sum(counts)
    corner = 1 if p & CORNER_BIT else 0
    if p & FINISHED_BIT:
        for s in range(sides):
            if counts[s]:
                return FINISHED if s == side else -defence * FINISHED
        return 0.0
    total = 0.0
    for s in range(sides):
        own = counts[s]
        if own != occupied or p & SPENT_BIT[s]:
            continue  # another side blocks it, or a sequence of s spent it
        n = own + corner
        if n > 5:
            continue
        worth = (values.build_to_win if to_win[s] else values.build)[n]
        total += worth if s == side else -defence * worth
    return total


class Tables:
    """Look-up tables for one side's point of view in one game situation.

    ``worth[p]`` is window state `p`'s worth; ``place[mark][p]`` what a chip of
    `mark` added to it changes; ``remove[mark][p]`` what taking one away does."""

    __slots__ = ("side", "to_win", "defence", "worth", "place", "remove")

    def __init__(
        self, side: int, sides: int, to_win: tuple[bool, ...], defence: float,
        values: Values = VALUES,
    ) -> None:  # fmt: skip
        self.side = side
        self.to_win = to_win
        self.defence = defence
        worth = [window_worth(p, side, sides, to_win, defence, values) for p in range(TABLE_SIZE)]
        self.worth = worth
        self.place: list[list[float]] = [[]]
        self.remove: list[list[float]] = [[]]
        for mark in range(1, 4):
            inc = MARK_INC[mark]
            self.place.append(
                [
                    worth[p + inc] - worth[p] if p + inc < TABLE_SIZE else 0.0
                    for p in range(TABLE_SIZE)
                ]
            )
            self.remove.append(
                [worth[p - inc] - worth[p] if p >= inc else 0.0 for p in range(TABLE_SIZE)]
            )


def tables(
    side: int, sides: int, to_win: tuple[bool, ...], defence: float, values: Values = VALUES
) -> Tables:
    """Tables are a few hundred kilobytes and take a while to build: cached
    (one entry whether `values` is given or left to its default)."""
    return _tables(side, sides, to_win, defence, values)


@lru_cache(maxsize=64)
def _tables(
    side: int, sides: int, to_win: tuple[bool, ...], defence: float, values: Values
) -> Tables:
    return Tables(side, sides, to_win, defence, values)


def to_win_flags(needed: int, sequences: Sequence[Sequence[object]]) -> tuple[bool, ...]:
    """Per side, whether its next sequence wins."""
    return tuple(len(fives) + 1 >= needed for fives in sequences)


@lru_cache(maxsize=1)
def four_owner() -> bytes:
    """Per window state, side + 1 of the side that holds four of a live
    window (its one open space finishes a sequence), or 0."""
    owners = bytearray(TABLE_SIZE)
    for p in range(TABLE_SIZE):
        if p & FINISHED_BIT:
            continue
        counts = [(p >> (_COUNT_BITS * s)) & 7 for s in range(3)]
        occupied = sum(counts)
        corner = 1 if p & CORNER_BIT else 0
        for s in range(3):
            if counts[s] == occupied and not p & SPENT_BIT[s] and counts[s] + corner == 4:
                owners[p] = s + 1
    return bytes(owners)
