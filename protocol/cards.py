"""The game's vocabulary: cards, the board, cells and fives, as everyone writes them.

The bottom layer: the rules engine, the protocol and the client all import it, and it
imports nothing but the standard library (docs/glossary.md says what each word means).

A card is written rank then suit ("7H", "TS", "JD"); a cell is an integer, row * 10 +
column, row 0 at the top; people name cells chess style, column letter then row number
("A1" is cell 0, "D5" is cell 43). A five is five cells in a straight line: the engine
holds all five (`FiveCells`), the wire and the client only its two end cells
(`FiveEnds`).

>>> cell_name(43), parse_cell("D5"), card_label("TS")
('D5', 43, '10♠')
>>> five_cells((40, 44))
(40, 41, 42, 43, 44)
"""

from collections.abc import Sequence

RANKS = "23456789TJQKA"  # ordered as the cut ranks them: aces high
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"  # in the order of SUITS
CARD_CODES: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
CARDS = frozenset(CARD_CODES)
ONE_EYED = frozenset({"JS", "JH"})  # remove an opponent's chip
TWO_EYED = frozenset({"JD", "JC"})  # wild: any open space

# The computer players' levels, weakest first (docs/bots.md says what each does).
LEVELS = ("easy", "medium", "hard")

# The physical board people own, row 0 at the top. XX marks a free corner; no jack
# appears on the board.
LAYOUT_TEXT = """\
XX 2S 3S 4S 5S 6S 7S 8S 9S XX
6C 5C 4C 3C 2C AH KH QH TH TS
7C AS 2D 3D 4D 5D 6D 7D 9H QS
8C KS 6C 5C 4C 3C 2C 8D 8H KS
9C QS 7C 6H 5H 4H AH 9D 7H AS
TC TS 8C 7H 2H 3H KH TD 6H 2D
QC 9S 9C 8H 9H TH QH QD 5H 3D
KC 8S TC QC KC AC AD KD 4H 4D
AC 7S 6S 5S 4S 3S 2S 2H 3H 5D
XX AD KD QD TD 9D 8D 7D 6D XX
"""
LAYOUT_CODES: tuple[str, ...] = tuple(LAYOUT_TEXT.split())
CORNER_CODE = "XX"
CORNERS: tuple[int, ...] = tuple(i for i, code in enumerate(LAYOUT_CODES) if code == CORNER_CODE)
SIZE = 10
COLUMNS = "ABCDEFGHIJ"

FiveCells = tuple[int, ...]  # a five's five cells, in reading order
FiveEnds = tuple[int, int]  # a five as the wire writes it: its first and last cell


def card_label(card: str) -> str:
    """ "TH" -> "10♥": how people write a card, on the board, in the hand, in sentences."""
    rank = "10" if card[0] == "T" else card[0]
    suit = SUITS.find(card[1:2])
    return rank + (SUIT_SYMBOLS[suit] if suit >= 0 else card[1:])


def cell_name(cell: int) -> str:
    """43 -> "D5"."""
    return f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}"


_CELL_BY_NAME = {cell_name(c): c for c in range(SIZE * SIZE)}


def parse_cell(name: str) -> int:
    """ "D5" -> 43; ValueError if it is not a cell."""
    cell = _CELL_BY_NAME.get(name)
    if cell is None:
        raise ValueError(f"not a cell: {name!r}")
    return cell


# A five's end cell less its start, in (rows, columns), for each way a five can run;
# and the step in cells from one of its spaces to the next.
FIVE_STEPS = {(0, 4): 1, (4, 0): 10, (4, 4): 11, (4, -4): 9}


def five_cells(five: FiveEnds) -> FiveCells:
    """The five spaces of a five given by its two end cells in reading order; empty if
    those are not the ends of a straight five."""
    start, end = five
    (r0, c0), (r1, c1) = divmod(start, SIZE), divmod(end, SIZE)
    step = FIVE_STEPS.get((r1 - r0, c1 - c0))
    return () if step is None else tuple(range(start, end + 1, step))


def five_ends(five: Sequence[int]) -> FiveEnds:
    """A five's cells as the wire writes them: (first, last)."""
    return (five[0], five[-1])


def _fives() -> tuple[FiveCells, ...]:
    found = []
    for start in range(SIZE * SIZE):
        r, c = divmod(start, SIZE)
        for (dr, dc), step in FIVE_STEPS.items():
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                found.append(tuple(range(start, start + 5 * step, step)))
    return tuple(found)


FIVES = _fives()  # the board's 192 fives, by their first cell
FIVES_AT: tuple[tuple[FiveCells, ...], ...] = tuple(
    tuple(five for five in FIVES if cell in five) for cell in range(SIZE * SIZE)
)  # the fives through each cell
