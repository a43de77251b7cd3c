"""Actions as small immutable values, with a text notation that round-trips.

Notation (also in docs/records.md)::

    7H@D5            play the 7♥ on D5 (a two-eyed jack is written the same: JD@D5)
    7H@D5[A5-E5]     ... and choose which five form the sequence it makes
    JSxD5            a one-eyed jack removes the chip on D5
    dead:7H          exchange the dead 7♥ for a new card (kind EXCHANGE)
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

from typing import NamedTuple

from sarja.protocol import notation
from sarja.protocol.cards import FiveCells, five_ends

from .board import CARD_CELLS, CELLS, cell_name, five_cells
from .cards import CARD_CODES, CARD_KIND, NORMAL, REMOVER, WILD, parse_card
from .errors import MalformedAction

PLACE, REMOVE, EXCHANGE, DRAW, PASS = range(5)
KIND_NAMES: tuple[notation.Kind, ...] = ("place", "remove", "exchange", "draw", "pass")
_KIND_OF = {name: kind for kind, name in enumerate(KIND_NAMES)}


class Action(NamedTuple):
    """One thing a seat does. ``card``/``cell`` are -1 where they do not apply;
    ``fives`` is the placing player's choice of sequences (empty: the default)."""

    kind: int
    card: int = -1
    cell: int = -1
    fives: tuple[FiveCells, ...] = ()

    def __str__(self) -> str:
        kind = self.kind
        if kind == PLACE:
            return notation.place(
                CARD_CODES[self.card], self.cell, tuple(map(five_ends, self.fives))
            )
        if kind == REMOVE:
            return notation.remove(CARD_CODES[self.card], self.cell)
        if kind == EXCHANGE:
            return notation.exchange(CARD_CODES[self.card])
        return KIND_NAMES[kind]

    @classmethod
    def parse(cls, text: str) -> Action:
        try:
            said = notation.parse(text)
        except ValueError:
            raise MalformedAction(
                "malformed_action",
                f"{text!r} is not an action; write for example 7H@D5, JSxD5, dead:7H,"
                " draw or pass.",
            ) from None
        kind = _KIND_OF[said.kind]
        if kind == DRAW:
            return DRAW_ACTION
        if kind == PASS:
            return PASS_ACTION
        assert said.card is not None
        card = parse_card(said.card)
        if kind == EXCHANGE:
            return Action(EXCHANGE, card)
        assert said.cell is not None
        return Action(kind, card, said.cell, tuple(_five(f) for f in said.fives))

    def check_well_formed(self) -> None:
        """Refuse values no game could accept (built in code, not parsed)."""
        kind, card, cell = self.kind, self.card, self.cell
        if kind not in (PLACE, REMOVE, EXCHANGE, DRAW, PASS):
            raise MalformedAction("malformed_action", "That is not a kind of action.")
        if kind in (DRAW, PASS):
            if card != -1 or cell != -1 or self.fives:
                raise MalformedAction("malformed_action", f"A {KIND_NAMES[kind]} names nothing.")
            return
        if not (isinstance(card, int) and 0 <= card < 52):
            raise MalformedAction("bad_card", "That is not a card.")
        if kind == EXCHANGE:
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


def _five(ends: tuple[int, int]) -> FiveCells:
    five = five_cells(ends)
    if not five:
        raise MalformedAction(
            "bad_five",
            f"{cell_name(ends[0])}-{cell_name(ends[1])} is not a five; name its two end spaces"
            " in reading order, like A5-E5.",
        )
    return five


# Every base action, built once: listing legal actions then allocates nothing
# but the list (the engine lists them on every turn of every simulated game).
DRAW_ACTION = Action(DRAW)
PASS_ACTION = Action(PASS)
EXCHANGE_ACTIONS: tuple[Action, ...] = tuple(Action(EXCHANGE, card) for card in range(52))
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
    return (a, PLACE_ACTIONS[card][a], b, PLACE_ACTIONS[card][b], EXCHANGE_ACTIONS[card])


# Per non-jack card: (space a, play on a, space b, play on b, its dead-card
# exchange); None for jacks. One lookup instead of four on every listing.
NORMAL_PLAYS = tuple(_normal_plays(card) for card in range(52))
