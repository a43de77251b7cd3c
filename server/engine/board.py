"""The standard board: which card each space shows, and how spaces line up.

A space (a *cell*) is an integer ``row * 10 + col``; row 0 is the top row.
People name cells by column letter and row number, chess style: ``A1`` is the
top-left corner, ``D5`` is row 4, column 3.

>>> cell_name(43), parse_cell("D5")
('D5', 43)
>>> [cell_name(c) for c in CARD_CELLS[parse_card("7H")]]
['I5', 'D6']
"""

from __future__ import annotations

# The layout, the cells and their names are the vocabulary's (re-exported for the engine).
from sarja.protocol.cards import CORNER_CODE
from sarja.protocol.cards import CORNERS as CORNERS
from sarja.protocol.cards import LAYOUT_CODES as LAYOUT_CODES
from sarja.protocol.cards import SIZE as SIZE
from sarja.protocol.cards import cell_name as cell_name
from sarja.protocol.cards import five_cells as five_cells
from sarja.protocol.cards import parse_cell as parse_cell

from .cards import RANKS, SUITS, parse_card

CELLS = range(SIZE * SIZE)
CORNER = -1

# The card shown on each cell, or CORNER.
LAYOUT: tuple[int, ...] = tuple(
    CORNER if code == CORNER_CODE else parse_card(code) for code in LAYOUT_CODES
)

# For every card, the cells that show it (two for every non-jack, none for jacks).
CARD_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in CELLS if LAYOUT[c] == card) for card in range(52)
)


def _check_layout() -> None:
    # The layout is the product's contract with the physical board: refuse to
    # import at all rather than play on a wrong one.
    assert len(LAYOUT) == 100 and CORNERS == (0, 9, 90, 99)
    assert CORNERS == tuple(c for c in CELLS if LAYOUT[c] == CORNER)
    for card in range(52):
        expected = 0 if RANKS[card // 4] == "J" else 2
        assert len(CARD_CELLS[card]) == expected, (card, SUITS[card % 4])


_check_layout()


# The four directions a sequence can run: across, down, and the two diagonals.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _ray(cell: int, dr: int, dc: int) -> tuple[int, ...]:
    """Up to four cells from `cell` (not included) stepping by (dr, dc)."""
    r, c = divmod(cell, SIZE)
    out = []
    for _ in range(4):
        r, c = r + dr, c + dc
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            break
        out.append(r * SIZE + c)
    return tuple(out)


# RAYS[cell] holds, per direction, (cells going back, cells going forward):
# all a sequence through `cell` can reach. Precomputed because sequence checks
# run on every placement.
RAYS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple((_ray(cell, -dr, -dc), _ray(cell, dr, dc)) for dr, dc in DIRECTIONS) for cell in CELLS
)


def is_five(cells: tuple[int, ...]) -> bool:
    """True when five cells, in reading order, lie on one straight line."""
    if len(cells) != 5 or list(cells) != sorted(cells):
        return False
    (r0, c0), (r1, c1) = divmod(cells[0], SIZE), divmod(cells[1], SIZE)
    dr, dc = r1 - r0, c1 - c0
    if (dr, dc) not in DIRECTIONS:
        return False
    return all(divmod(cells[i], SIZE) == (r0 + i * dr, c0 + i * dc) for i in range(5))
