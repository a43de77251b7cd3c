"""Text fitted into columns: lines of (style, text) fragments measured, padded,
shortened with "…" and wrapped at words, for every part of the screen (render.py)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

Line = StyleAndTextTuples


def width_of(line: Sequence[Any]) -> int:
    return sum(get_cwidth(f[1]) for f in line)


def text_of(line: Sequence[Any]) -> str:
    return "".join(f[1] for f in line)


def pad(line: Line, width: int, style: str = "") -> Line:
    """`line` filled with spaces to `width` columns (never cut: callers fit it)."""
    used = width_of(line)
    return [*line, (style, " " * (width - used))] if used < width else list(line)


def shorten(text: str, width: int) -> str:
    """`text` fitted to `width`, shortened with "…" at the end if it must be."""
    if get_cwidth(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    out = ""
    for ch in text:
        if get_cwidth(out + ch) > width - 1:
            break
        out += ch
    return out.rstrip() + "…"


def column(text: str, width: int) -> str:
    """`text` shortened to `width` columns and padded to them: a column of names lines
    up even when a name has wide characters (f"{name:<20}" counts 漢 as one column)."""
    text = shorten(text, width)
    return text + " " * max(0, width - get_cwidth(text))


def wrap(parts: Sequence[Any], width: int, indent: int = 0, split: bool = False) -> list[Line]:
    """Fragments wrapped at spaces to lines of at most `width` columns. Spaces at the
    very start are kept; later lines start with `indent` spaces instead. A word longer
    than a whole line is the one thing shortened (with "…"), or with `split` broken
    across lines (what people wrote is shown whole)."""
    units: list[tuple[bool, list[Any]]] = []  # (is space, fragments), runs merged
    for frag in parts:
        for run in re.findall(r" +|[^ ]+", frag[1]):
            space = run[0] == " "
            piece = (frag[0], run, *frag[2:])
            if units and units[-1][0] == space:
                units[-1][1].append(piece)
            else:
                units.append((space, [piece]))
    lines: list[Line] = [[]]
    used = 0
    pending: list[Any] = []
    fresh = False  # the current line is a continuation with nothing on it yet

    def new_line() -> None:
        nonlocal used, pending, fresh
        lines.append([("", " " * indent)] if indent else [])
        used, pending, fresh = indent, [], True

    for space, unit in units:
        if space:
            pending = [] if fresh else unit
            continue
        need = width_of(unit)
        if split and need > width - indent:
            # Too long for any line: what fits here, the rest on lines of its own.
            for chunk in chunks(unit, width - used - width_of(pending), width - indent):
                if chunk is None:
                    new_line()
                    continue
                lines[-1] += [*pending, *chunk]
                used += width_of(pending) + width_of(chunk)
                pending, fresh = [], False
            continue
        gap = width_of(pending)
        if used + gap + need > width and (used > 0 and not fresh):
            new_line()
            gap = 0
        if used + gap + need > width:  # one word wider than the line
            unit = [(unit[0][0], shorten(text_of(unit), max(1, width - used - gap)),
                     *unit[0][2:])]  # fmt: skip
            need = width_of(unit)
        lines[-1] += [*pending, *unit]
        used += gap + need
        pending, fresh = [], False
    return lines


def chunks(unit: list[Any], first: int, rest: int) -> list[Line | None]:
    """A word's fragments cut into pieces: `first` columns (if any fit), then `rest`
    at a time, with None wherever a new line starts."""
    out: list[Line | None] = []
    room = first
    piece: Line = []
    used = 0
    for frag in unit:
        for ch in frag[1]:
            w = get_cwidth(ch)
            if used + w > room:
                if piece:
                    out.append(piece)
                out.append(None)
                piece, used, room = [], 0, max(rest, w)
            if piece and piece[-1][0] == frag[0] and piece[-1][2:] == frag[2:]:
                piece[-1] = (piece[-1][0], piece[-1][1] + ch, *frag[2:])
            else:
                piece.append((frag[0], ch, *frag[2:]))
            used += w
    if piece:
        out.append(piece)
    return out


def first_fitting(candidates: Sequence[Line], width: int) -> Line:
    for line in candidates:
        if width_of(line) <= width:
            return list(line)
    return wrap(candidates[-1], width)[0]


def bar(left: Line, right: Line, width: int, style: str) -> Line:
    """A full-width bar: `left`, then `right` against the right edge if both fit."""
    if width_of(left) + width_of(right) + 1 > width:
        right = []
    gap = width - width_of(left) - width_of(right)
    return [*left, (style, " " * max(0, gap)), *right]


def centred(texts: Sequence[tuple[str, str]], width: int, height: int) -> list[Line]:
    """(style, text) paragraphs wrapped and centred in a box of width × height."""
    rows: list[Line] = []
    for style, text in texts:
        for part in textwrap.wrap(text, width - 4) or [""]:
            rows.append([("", " " * max(0, (width - get_cwidth(part)) // 2)), (style, part)])
    top = max(0, (height - len(rows)) // 2)
    return [[] for _ in range(top)] + rows


def fitted(items: list[str], steps: list[tuple[str, int]], room: int) -> str:
    """`items` joined with " · " in `room` columns, taking `steps` in turn until they
    fit: an item left out, or shortened to what fits (to no fewer than 10 columns)."""
    items = list(items)

    def text() -> str:
        return " · ".join(i for i in items if i)

    for step, at in steps:
        over = get_cwidth(text()) - room
        if over <= 0:
            break
        if step == "drop":
            items[at] = ""
        elif items[at]:
            items[at] = shorten(items[at], max(10, get_cwidth(items[at]) - over))
    return shorten(text(), room)


def cut(line: Line, width: int) -> Line:
    """The last line that fits, marked as going on: " …" after its last whole word."""
    kept = list(line)
    while kept and width_of(kept) + 2 > width:
        kept.pop()
    return [*kept, ("", " …")]
