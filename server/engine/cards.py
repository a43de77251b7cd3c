"""Cards as small integers, and their two-character codes.

A card is ``rank * 4 + suit`` with ranks ordered 2 < 3 < ... < 10 < J < Q < K < A,
so ``card // 4`` is the rank used by the cut (aces high, suits do not rank).
Integers keep the hot paths of the engine cheap; the codes ("7H", "TS", "JD") are
what people, records and the wire see.

>>> parse_card("7H") == card_of("7", "H")
True
>>> card_code(parse_card("TS"))
'TS'
>>> is_two_eyed(parse_card("JD")), is_one_eyed(parse_card("JS"))
(True, True)
"""

from __future__ import annotations

from sarja.protocol.cards import CARD_CODES, RANKS, SUITS

from .errors import MalformedAction

__all__ = ["CARD_CODES", "RANKS", "SUITS"]

JACK_RANK = RANKS.index("J")

# What a card does when played; indexed by card.
NORMAL, WILD, REMOVER = 0, 1, 2


def card_of(rank: str, suit: str) -> int:
    return RANKS.index(rank) * 4 + SUITS.index(suit)


_CARD_BY_CODE = {code: card for card, code in enumerate(CARD_CODES)}

JS, JH, JD, JC = (card_of("J", s) for s in SUITS)
TWO_EYED_JACKS = (JD, JC)
ONE_EYED_JACKS = (JS, JH)
JACKS = frozenset(TWO_EYED_JACKS + ONE_EYED_JACKS)

CARD_KIND: tuple[int, ...] = tuple(
    WILD if c in TWO_EYED_JACKS else REMOVER if c in ONE_EYED_JACKS else NORMAL for c in range(52)
)

# Two standard decks shuffled together: every card twice, 104 in all.
FULL_DECK: tuple[int, ...] = tuple(range(52)) * 2


def parse_card(text: str) -> int:
    """The card for a code like "7H"; MalformedAction if it is not one."""
    card = _CARD_BY_CODE.get(text)
    if card is None:
        raise MalformedAction(
            "bad_card", f"{text!r} is not a card; write rank then suit, like 7H, TS or JD."
        )
    return card


def card_code(card: int) -> str:
    return CARD_CODES[card]


def cut_rank(card: int) -> int:
    return card // 4


def is_two_eyed(card: int) -> bool:
    return CARD_KIND[card] == WILD


def is_one_eyed(card: int) -> bool:
    return CARD_KIND[card] == REMOVER
