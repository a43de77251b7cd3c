"""Why an action is refused: each check raises IllegalAction with its stable code and a
sentence for the player, before the game changes (game.py applies what passes).

Functions of the board's bytes and a hand, so the game's hot paths pay no more than a
call.
"""

from __future__ import annotations

from sarja.protocol.cards import card_label

from .actions import DRAW, PLACE, REMOVE, Action
from .board import CARD_CELLS, cell_name
from .cards import CARD_CODES, CARD_KIND, NORMAL, REMOVER
from .errors import IllegalAction

EMPTY = 0
# Corners hold this mark; a side's chips hold side + 1. A corner therefore is
# never empty, and counts for every side in a sequence.
CORNER_MARK = 4


def label(card: int) -> str:
    return card_label(CARD_CODES[card])


def not_in_hand(card: int) -> IllegalAction:
    return IllegalAction("card_not_in_hand", f"You don't hold the {label(card)}.")


def is_dead(chips: bytearray, card: int) -> bool:
    """Both spaces of the card are covered (jacks are never dead)."""
    cells = CARD_CELLS[card]
    return bool(cells) and chips[cells[0]] != EMPTY and chips[cells[1]] != EMPTY


def check_in_hand(hand: list[int], card: int) -> None:
    if card not in hand:
        raise not_in_hand(card)


def check_placeable(hand: list[int], chips: bytearray, card: int, cell: int) -> None:
    """Refuse placing `card` on `cell` unless the hand holds it and it may go there."""
    if card not in hand:
        raise not_in_hand(card)
    kind = CARD_KIND[card]
    if kind == REMOVER:
        raise IllegalAction("wrong_card", "A one-eyed jack removes a chip; it can't place one.")
    if chips[cell] == CORNER_MARK:
        raise IllegalAction("corner_space", "The corners are free spaces; no chip goes there.")
    if chips[cell] != EMPTY:
        raise IllegalAction("space_taken", "That space is taken.")
    if kind == NORMAL and cell not in CARD_CELLS[card]:
        a, b = CARD_CELLS[card]
        raise IllegalAction(
            "wrong_space",
            f"The {label(card)} goes on {cell_name(a)} or {cell_name(b)}, not there.",
        )


def check_removable(
    hand: list[int], chips: bytearray, locked: bytearray, mark: int, card: int, cell: int
) -> None:
    """Refuse removing the chip on `cell` with `card` unless a one-eyed jack in the hand
    may take it (another side's, not part of a sequence)."""
    check_in_hand(hand, card)
    if CARD_KIND[card] != REMOVER:
        raise IllegalAction("wrong_card", "Only a one-eyed jack (J♠ or J♥) removes a chip.")
    value = chips[cell]
    if value in (EMPTY, CORNER_MARK):
        raise IllegalAction("no_chip", "There is no chip there to remove.")
    if value == mark:
        raise IllegalAction("own_chip", "You can't remove your own side's chip.")
    if locked[cell]:
        raise IllegalAction("locked_chip", "You can't remove a chip that is part of a sequence.")


def check_exchangeable(hand: list[int], chips: bytearray, exchanged: bool, card: int) -> None:
    """Refuse exchanging `card` unless it is a dead card in the hand, the turn's first."""
    if exchanged:
        raise IllegalAction(
            "already_exchanged", "You have already exchanged a dead card this turn."
        )
    check_in_hand(hand, card)
    if CARD_KIND[card] != NORMAL:
        raise IllegalAction("card_not_dead", "A jack is never dead.")
    if not is_dead(chips, card):
        raise IllegalAction("card_not_dead", f"The {label(card)} still has an open space.")


def pass_refused(legal: list[Action]) -> IllegalAction:
    """Why a seat may not pass, given what it may do instead: the first that applies,
    in the order of the legal list (a waiting draw, plays, exchanges), as
    docs/protocol.md promises."""
    legal_kinds = {a.kind for a in legal}
    if DRAW in legal_kinds:
        return IllegalAction(
            "must_draw", "Take your draw first; you may pass only if you still can't play."
        )
    if PLACE in legal_kinds or REMOVE in legal_kinds:
        return IllegalAction("must_play", "You have a card you can play, so you can't pass.")
    return IllegalAction(
        "must_exchange",
        "Exchange your dead card first; you may pass only if you still can't play.",
    )
