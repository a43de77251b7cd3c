"""The compact text notation for actions: its one grammar, its one parser and its writer.

cell   = column letter A-J, then row number 1-10 (A1 is cell 0, the top left)
five   = CELL "-" CELL                       its two end cells, in reading order
action = CARD "@" CELL [ "[" FIVE { "," FIVE } "]" ]   place a chip (1 to 4 fives)
       | ("JS" | "JH") "x" CELL              a one-eyed jack removes the chip at CELL
       | "dead:" CARD                        exchange a dead card (never a jack)
       | "draw" | "pass"

`parse` reads the grammar with any card in any place: the rules engine then refuses a
one-eyed jack placed or a dead jack with the rule's own words. `ACTION_RE` is the same
grammar with each card where the rules allow it: what the server writes, and what the
protocol accepts in a message.

>>> parse("7H@D5[A5-E5]")
Notation(kind='place', card='7H', cell=43, fives=((40, 44),))
>>> write(parse("JSxD5")), write(parse("dead:7H")), ACTION_RE.fullmatch("JS@D5") is None
('JSxD5', 'dead:7H', True)
"""

import re
from typing import Literal, NamedTuple

from .cards import FiveEnds, cell_name, parse_cell

Kind = Literal["place", "remove", "exchange", "draw", "pass"]

_CELL = r"[A-J](?:10|[1-9])"
_FIVE = rf"{_CELL}-{_CELL}"
_FIVES = rf"{_FIVE}(?:,{_FIVE}){{0,3}}"
_CARD = r"[2-9TJQKA][SHDC]"

# Groups: the word (draw, pass), the dead card, the card played, where it removes,
# where it places, the fives it chooses.
_PARSE_RE = re.compile(
    rf"(draw|pass)|dead:({_CARD})|({_CARD})(?:x({_CELL})|@({_CELL})(?:\[({_FIVES})\])?)"
)
ACTION_RE = re.compile(
    rf"(?:(?:[2-9TQKA][SHDC]|J[DC])@{_CELL}(?:\[{_FIVES}\])?"  # every card but a one-eyed jack
    rf"|J[SH]x{_CELL}|dead:[2-9TQKA][SHDC]|draw|pass)"
)


class Notation(NamedTuple):
    """An action as its notation says it, in the vocabulary's terms (card codes, cells,
    fives by their ends); `card` and `cell` are None where the kind has none."""

    kind: Kind
    card: str | None = None
    cell: int | None = None
    fives: tuple[FiveEnds, ...] = ()


DRAW = Notation("draw")
PASS = Notation("pass")


def parse(text: str) -> Notation:
    """The action `text` writes; ValueError if it is not in the grammar."""
    match = _PARSE_RE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"not an action: {text!r}")
    word, dead, card, removed_at, placed_at, fives = match.groups()
    if word is not None:
        return DRAW if word == "draw" else PASS
    if dead is not None:
        return Notation("exchange", dead)
    if removed_at is not None:
        return Notation("remove", card, parse_cell(removed_at))
    chosen: tuple[FiveEnds, ...] = ()
    if fives:
        ends = (five.split("-") for five in fives.split(","))
        chosen = tuple((parse_cell(start), parse_cell(end)) for start, end in ends)
    return Notation("place", card, parse_cell(placed_at), chosen)


def write(action: Notation) -> str:
    """The notation of `action` (the inverse of `parse`)."""
    kind, card, cell = action.kind, action.card, action.cell
    if kind == "place":
        assert card is not None and cell is not None
        return place(card, cell, action.fives)
    if kind == "remove":
        assert card is not None and cell is not None
        return remove(card, cell)
    if kind == "exchange":
        assert card is not None
        return exchange(card)
    return kind


def place(card: str, cell: int, fives: tuple[FiveEnds, ...] = ()) -> str:
    text = f"{card}@{cell_name(cell)}"
    if fives:
        text += "[" + ",".join(f"{cell_name(s)}-{cell_name(e)}" for s, e in fives) + "]"
    return text


def remove(card: str, cell: int) -> str:
    return f"{card}x{cell_name(cell)}"


def exchange(card: str) -> str:
    return f"dead:{card}"
