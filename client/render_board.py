"""The board and the line under it, drawn: a pure function of the model and the
board's width, as render.py's are.

Nothing depends on colour alone: chips carry their side's letter, locked chips square
brackets, the cursor ▶ ◀, the picked card's spaces » «, the last move + +, the
winning sequences * *, a choice of fives = =, the coach's move ~ ~.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from prompt_toolkit.cache import SimpleCache
from prompt_toolkit.utils import get_cwidth

from sarja.lang import language
from sarja.protocol.cards import COLUMNS, CORNER_CODE, TWO_EYED, card_label, five_cells

from . import intents as ask
from .analysis import better_cell, shown
from .facts import choice_options, last_cell, sequence_cells, targets
from .fit import Line, first_fitting, shorten, wrap
from .hints import hint_cells
from .model import Model
from .render import Click, clickable
from .styles import card_style
from .words import game as words
from .words.common import side_letter
from .words.game import describe_cell
from .words.log import last_parts

BOARD_ROWS = 11  # the column letters, then ten rows
TALL_FROM = 40  # a terminal this many rows high draws the board twice as high
PANEL_MIN = 24  # the side panel's least width


def cell_width(width: int) -> int:
    """Wider spaces when the terminal is wider, leaving the side panel its room."""
    return max(5, min(7, (width - 3 - PANEL_MIN - 4) // 10))


def board_width(width: int) -> int:
    """The board's width when the screen is `width` wide: the row numbers, ten spaces."""
    return 3 + 10 * cell_width(width)


# The marks a space can carry, each over the one before: (left, right, style).
_PLAIN = (" ", " ", "")
_LAST = ("+", "+", "class:last")
_WINNING = ("*", "*", "class:winning")
_CHOICE = ("=", "=", "class:choice")
_TARGET = ("»", "«", "class:target")
_HINT = ("~", "~", "class:hint")  # the coach's move: a hint, or a replay's better move
_CURSOR = ("▶", "◀", "class:cursor")


def _space(card: str, chip: str) -> tuple[str, str]:
    """What a space shows inside its marks, and its style: a corner, a chip (locked
    ones in square brackets), or the card it stands for."""
    if card == CORNER_CODE:
        return " ★ ", "class:corner"
    if chip in "bgrBGR":
        letter = side_letter("bgr".index(chip.lower()))
        if chip.isupper():
            return f"[{letter}]", f"class:chip.{chip.lower()} class:locked"
        return f"({letter})", f"class:chip.{chip}"
    return card_label(card).rjust(3), card_style(card)


def board_lines(model: Model, width: int, click: Click = None, tall: bool = False) -> list[Line]:
    """The board at `width` columns (`board_width` of what the screen has); `tall`: a
    blank line between its rows, so that on a big terminal it grows in height as it
    does in width, and its spaces stay about as high as they are wide."""
    g = model.game
    assert g is not None
    w = (width - 3) // 10
    layout, board = model.layout, g.board
    picked = model.picked
    # A wild jack can go on every open space: marking them all would mark the board.
    shown = targets(model, picked) if picked not in TWO_EYED else frozenset()
    chosen: set[int] = set()
    if model.overlay == "fives" and model.fives_cell is not None:
        options = choice_options(model, model.fives_cell)
        if model.fives_index < len(options):
            for five in options[model.fives_index]:
                chosen.update(five_cells(five))
    winning = (
        sequence_cells(model, g.result.side)
        if g.result is not None and g.result.side is not None
        else frozenset()
    )
    last = last_cell(g)
    cursor = model.cursor if model.replay is None else None
    marks: dict[int, tuple[str, str, str]] = {}  # space -> its marks and their styles
    # The coach's mark goes over the cursor, which a hint puts on its space.
    for cells, (left, right, style) in (
        ({last}, _LAST), (winning, _WINNING), (chosen, _CHOICE), (shown, _TARGET),
        ({cursor}, _CURSOR), (coached(model), _HINT),
    ):  # fmt: skip
        for cell in cells:
            if cell is not None:  # a later mark goes over an earlier one, styles add up
                marks[cell] = (left, right, marks.get(cell, _PLAIN)[2] + " " + style)
    column_line = _COLUMN_LINES.get(
        w, lambda: [("class:label", "   " + "".join(c.center(w) for c in COLUMNS))]
    )
    lines: list[Line] = [column_line]
    for r in range(10):
        spaces = tuple(
            (layout[i] if layout else "??", board[i], marks.get(i, _PLAIN))
            for i in range(r * 10, r * 10 + 10)
        )
        # A move changes a row or two: the others are the lines drawn before.
        # (and the language: it names the chips' letters)
        key = (r, w, spaces, click, language())
        if tall and r:
            lines.append([])
        lines.append(_ROWS.get(key, partial(_row, *key)))
    return lines


# Lines already drawn, by what they show (the board is drawn afresh on every update).
_COLUMN_LINES: SimpleCache[int, Line] = SimpleCache(maxsize=4)
_ROWS: SimpleCache[tuple[Any, ...], Line] = SimpleCache(maxsize=64)


def _row(
    r: int,
    w: int,
    spaces: tuple[tuple[str, str, tuple[str, str, str]], ...],
    click: Click,
    _language: str,
) -> Line:
    """Row `r` of the board: each space's card or chip inside its marks."""
    pad_l = (w - 5) // 2
    pad_r = w - 5 - pad_l
    line: Line = [("class:label", f"{r + 1:>2} ")]
    for c, (card, chip, (left, right, more)) in enumerate(spaces):
        inner, style = _space(card, chip)
        text = " " * pad_l + left + inner + right + " " * pad_r
        line.append(clickable(click, ask.Goto(r * 10 + c), style + more, text))
    return line


def coached(model: Model) -> frozenset[int]:
    """The coach's space on screen: the hint's, or in a replay the better move's."""
    if model.replay is None:
        return hint_cells(model)
    mark = shown(model)
    cell = None if mark is None else better_cell(mark)
    return frozenset() if cell is None else frozenset({cell})


def cursor_line(model: Model, width: int) -> Line:
    """Under the board: what the cursor is on, or in a replay the move shown."""
    if model.replay is not None:
        g = model.game
        assert g is not None
        r = model.replay
        if r.at == 0:
            return wrap([("class:info", words.THE_DEAL)], width)[0]
        if g.last is None:
            return [("class:info", words.move_shown(r.at, False))]
        parts: Line = [("class:info", words.move_shown(r.at, True)), *last_parts(model, g, g.last)]
        return first_fitting([parts, [("class:info", words.move_shown(r.at, False))]], width)
    text = describe_cell(model, model.cursor)
    while get_cwidth(text) + 1 > width and ("," in text or ";" in text):
        text = text[: max(text.rfind(","), text.rfind(";"))]
    return [("class:info", " " + shorten(text, width - 1))]
