"""Actions as small immutable values, with a text notation that round-trips.

Notation (also in docs/records.md)::

    7H@D5            play the 7♥ on D5 (a two-eyed jack is written the same: JD@D5)
    7H@D5[A5-E5]     ... and choose which five form the sequence it makes
    JSxD5            a one-eyed jack removes the chip on D5
    dead:7H          exchange the dead 7♥ for a new card
    draw             take your draw (manual-draw house rule)
    pass             no playable card: pass

>>> a = Action.parse("7H@D5[A5-E5]")
>>> a.kind == PLACE, cell_name(a.cell), str(a) == "7H@D5[A5-E5]"
(True, 'D5', True)
>>> try:
...     Action.parse("7H@Z9")
... except MalformedAction as err:
...     print(err.code)
malformed_action
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .board import CARD_CELLS, CELLS, cell_name, five_cells, parse_cell
from .cards import CARD_KIND, NORMAL, REMOVER, WILD, card_code, parse_card
from .errors import MalformedAction

PLACE, REMOVE, DEAD, DRAW, PASS = range(5)
KIND_NAMES = ("place", "remove", "dead", "draw", "pass")

Five = tuple[int, int, int, int, int]


class Action(NamedTuple):
    """One thing a seat does. ``card``/``cell`` are -1 where they do not apply;
    ``fives`` is the placing player's choice of sequences (empty: the default)."""

    kind: int
    card: int = -1
    cell: int = -1
    fives: tuple[Five, ...] = ()

    def __str__(self) -> str:
        kind = self.kind
        if kind == PLACE:
            text = f"{card_code(self.card)}@{cell_name(self.cell)}"
            if self.fives:
                text += (
                    "[" + ",".join(f"{cell_name(f[0])}-{cell_name(f[4])}" for f in self.fives) + "]"
                )
            return text
        if kind == REMOVE:
            return f"{card_code(self.card)}x{cell_name(self.cell)}"
        if kind == DEAD:
            return f"dead:{card_code(self.card)}"
        return KIND_NAMES[kind]

    @classmethod
    def parse(cls, text: str) -> Action:
        match = _NOTATION.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise MalformedAction(
                "malformed_action",
                f"{text!r} is not an action; write for example 7H@D5, JSxD5, dead:7H,"
                " draw or pass.",
            )
        word, dead_card, card, removed_at, placed_at, fives = match.groups()
        if word == "draw":
            return DRAW_ACTION
        if word == "pass":
            return PASS_ACTION
        if dead_card is not None:
            return Action(DEAD, parse_card(dead_card))
        if removed_at is not None:
            return Action(REMOVE, parse_card(card), parse_cell(removed_at))
        chosen = tuple(_parse_five(f) for f in fives.split(",")) if fives else ()
        return Action(PLACE, parse_card(card), parse_cell(placed_at), chosen)

    def check_well_formed(self) -> None:
        """Refuse values no game could accept (built in code, not parsed)."""
        kind, card, cell = self.kind, self.card, self.cell
        if kind not in (PLACE, REMOVE, DEAD, DRAW, PASS):
            raise MalformedAction("malformed_action", "That is not a kind of action.")
        if kind in (DRAW, PASS):
            if card != -1 or cell != -1 or self.fives:
                raise MalformedAction("malformed_action", f"A {KIND_NAMES[kind]} names nothing.")
            return
        if not (isinstance(card, int) and 0 <= card < 52):
            raise MalformedAction("bad_card", "That is not a card.")
        if kind == DEAD:
            if cell != -1 or self.fives:
                raise MalformedAction("malformed_action", "A dead-card exchange names only a card.")
            return
        if not (isinstance(cell, int) and 0 <= cell < 100):
            raise MalformedAction("bad_cell", "That is not a space on the board.")
        if kind == REMOVE and self.fives:
            raise MalformedAction("malformed_action", "A removal makes no sequence to choose.")
        for five in self.fives:
            if (
                not (isinstance(five, tuple) and len(five) == 5)
                or five_cells((five[0], five[-1])) != five
            ):
                raise MalformedAction("bad_five", "A sequence is five spaces in a straight line.")


def _parse_five(text: str) -> Five:
    start, end = (parse_cell(part) for part in text.split("-"))
    five = five_cells((start, end))
    if not five:
        raise MalformedAction(
            "bad_five",
            f"{text} is not a five; name its two end spaces in reading order, like A5-E5.",
        )
    return five  # type: ignore[return-value]


_CELL = r"[A-J](?:10|[1-9])"
_CARD = r"[2-9TJQKA][SHDC]"
_FIVE = rf"{_CELL}-{_CELL}"
_NOTATION = re.compile(
    rf"(draw|pass)|dead:({_CARD})|({_CARD})"
    rf"(?:x({_CELL})|@({_CELL})(?:\[({_FIVE}(?:,{_FIVE}){{0,3}})\])?)"
)


# Every base action, built once: listing legal actions then allocates nothing
# but the list (the engine lists them on every turn of every simulated game).
DRAW_ACTION = Action(DRAW)
PASS_ACTION = Action(PASS)
DEAD_ACTIONS: tuple[Action, ...] = tuple(Action(DEAD, card) for card in range(52))
PLACE_ACTIONS: tuple[dict[int, Action], ...] = tuple(
    {
        cell: Action(PLACE, card, cell)
        for cell in (
            CARD_CELLS[card]
            if CARD_KIND[card] == NORMAL
            else CELLS
            if CARD_KIND[card] == WILD
            else ()
        )
    }
    for card in range(52)
)
REMOVE_ACTIONS: tuple[dict[int, Action], ...] = tuple(
    {cell: Action(REMOVE, card, cell) for cell in (CELLS if CARD_KIND[card] == REMOVER else ())}
    for card in range(52)
)

# Per card, its plays in cell order as 100 slots (None where the card cannot
# go), so a listing can pick the open or removable cells with
# itertools.compress over a whole-board flag row instead of a Python loop.
PLACE_ROWS: tuple[tuple[Action | None, ...], ...] = tuple(
    tuple(PLACE_ACTIONS[card].get(cell) for cell in CELLS) for card in range(52)
)
REMOVE_ROWS: tuple[tuple[Action | None, ...], ...] = tuple(
    tuple(REMOVE_ACTIONS[card].get(cell) for cell in CELLS) for card in range(52)
)


def _normal_plays(card: int) -> tuple[int, Action, int, Action, Action] | None:
    if CARD_KIND[card] != NORMAL:
        return None
    a, b = CARD_CELLS[card]
    return (a, PLACE_ACTIONS[card][a], b, PLACE_ACTIONS[card][b], DEAD_ACTIONS[card])


# Per non-jack card: (space a, play on a, space b, play on b, its dead-card
# exchange); None for jacks. One lookup instead of four on every listing.
NORMAL_PLAYS = tuple(_normal_plays(card) for card in range(52))
