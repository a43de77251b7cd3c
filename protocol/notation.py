"""The compact text notation for actions, as the engine writes it (validated, not parsed).

cell   = column letter A-J, then row number 1-10 (A1 is [0, 0], the top left)
five   = CELL "-" CELL                       its two end cells, in reading order
action = CARD "@" CELL [ "[" FIVE { "," FIVE } "]" ]   place a chip (1 to 4 fives)
       | ("JS" | "JH") "x" CELL              a one-eyed jack removes the chip at CELL
       | "dead:" CARD                        exchange a dead card (never a jack)
       | "draw" | "pass"
"""

import re

_CELL = r"[A-J](?:10|[1-9])"
_FIVE = rf"{_CELL}-{_CELL}"
_PLACE_CARD = r"(?:[2-9TQKA][SHDC]|J[DC])"  # every card but a one-eyed jack
_ACTION = (
    rf"(?:{_PLACE_CARD}@{_CELL}(?:\[{_FIVE}(?:,{_FIVE}){{0,3}}\])?"
    rf"|J[SH]x{_CELL}|dead:[2-9TQKA][SHDC]|draw|pass)"
)

ACTION_RE = re.compile(_ACTION)
COLUMNS = "ABCDEFGHIJ"


def cell_name(row: int, col: int) -> str:
    """[4, 3] -> "D5"."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_cell(name: str) -> tuple[int, int]:
    """ "D5" -> (4, 3); ValueError if it is not a cell."""
    if not re.fullmatch(_CELL, name):
        raise ValueError(f"not a cell: {name!r}")
    return int(name[1:]) - 1, COLUMNS.index(name[0])


def _simple_actions() -> frozenset[str]:
    cards = [r + s for r in "23456789TQKA" for s in "SHDC"]
    cells = [cell_name(r, c) for r in range(10) for c in range(10)]
    return frozenset(
        [f"{card}@{cell}" for card in [*cards, "JD", "JC"] for cell in cells]
        + [f"{jack}x{cell}" for jack in ("JS", "JH") for cell in cells]
        + [f"dead:{card}" for card in cards]
        + ["draw", "pass"]
    )


# Every action without fives (5,250 strings): checking a legal list against this set is
# several times faster than matching the regex once per action.
SIMPLE_ACTIONS = _simple_actions()
