"""The key bar at the foot of a screen: its items, each with how much it is needed, and
the fit that leaves out the least needed first when the bar is too narrow, keeping the
rest in their order. The words of the items are words/*'s; render.py and
render_game.py draw every screen's bar with `keys_line` or `keys_lines`."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

from prompt_toolkit.utils import get_cwidth

from .fit import Line, pad


class Need(IntEnum):
    """How long an item stays on a bar that is too narrow: the way out always; then what
    this moment offers (a key there only now, which a player may not know of: `o` for
    an away seat, `a` at a table we made, a waiting draw); then the screen's main step
    (Enter plays, `a` analyses a replay); then `?`, whose help lists every key; then
    the screen's usual keys. A fixed rule ("always keep ?") once cost the footer its
    `o`."""

    USUAL = 0
    HELP = 1
    MAIN = 2
    MOMENT = 3
    OUT = 4


class KeyItem(NamedTuple):
    """One "key what" item of the bar."""

    key: str
    what: str
    need: Need = Need.USUAL


def _width(items: Sequence[KeyItem]) -> int:
    return get_cwidth(" " + " · ".join(f"{k.key} {k.what}" for k in items))


def fitted(items: Sequence[KeyItem], width: int) -> list[KeyItem]:
    """The items that fit in `width`, in their order: the least needed left out first,
    of those needed alike the last (the keys early on a bar are its first steps); then
    the room a long one left is given back, the most needed first, to any left out
    that fits in it."""
    kept = list(range(len(items)))

    def width_of(shown: list[int]) -> int:
        return _width([items[i] for i in shown])

    while len(kept) > 1 and width_of(kept) > width:
        kept.remove(min(kept, key=lambda i: (items[i].need, -i)))
    for i in sorted(set(range(len(items))) - set(kept), key=lambda i: (-items[i].need, i)):
        if width_of(sorted([*kept, i])) <= width:
            kept = sorted([*kept, i])
    return [items[i] for i in kept]


def keys_line(items: Sequence[KeyItem], width: int) -> Line:
    """The bar on one line: the items that fit, "key what" each."""
    line: Line = [("class:keys", " ")]
    for i, item in enumerate(fitted(items, width)):
        if i:
            line.append(("class:keys", " · "))
        line += [("class:keys class:keyname", item.key), ("class:keys", f" {item.what}")]
    return pad(line, width, "class:keys")


def keys_lines(items: Sequence[KeyItem], width: int, most: int = 2) -> list[Line]:
    """The bar on as many as `most` lines: the items in their order, a line ending
    before an item that would not fit on it; on the last line, what still does not
    fit is left off as `keys_line` leaves it."""
    rows: list[list[KeyItem]] = [[]]
    for item in items:
        if rows[-1] and len(rows) < most and _width([*rows[-1], item]) > width:
            rows.append([])
        rows[-1].append(item)
    return [keys_line(row, width) for row in rows]
