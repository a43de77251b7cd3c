"""Which seats' hands an action can have changed, and what card came into a hand: so a
seat's `hand` goes out only when its part changed, and says what was drawn.

Pure functions of the engine's events and the hand parts last sent (present.py's
`hand_part`: the sorted hand, its targets and its dead cards).
"""

from __future__ import annotations

from .engine import Event
from .engine.board import LAYOUT
from .engine.cards import CARD_CODES, JACKS

HandPart = tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[str, ...]]

SPENDS = frozenset({"played", "removed", "dead_card"})  # events that take a card from a hand
_HAND_EVENTS = SPENDS | {"drew"}


def touched(events: list[Event]) -> tuple[set[int], set[int]]:
    """(seats whose hand changed, cards whose space's chip or lock changed) after an
    action."""
    seats, cells = set(), set()
    for e in events:
        if e.kind in _HAND_EVENTS and e.seat is not None:
            seats.add(e.seat)
        if e.cell >= 0:
            cells.add(e.cell)
        for five in e.fives:
            cells.update(five)
    return seats, {LAYOUT[c] for c in cells} | JACKS


def spent(events: list[Event] | None, seat: int) -> str | None:
    """The card the seat gave up, if it gave one up and drew in the same action."""
    if events is None or not any(e.kind == "drew" and e.seat == seat for e in events):
        return None
    cards = [e.card for e in events if e.seat == seat and e.kind in SPENDS and e.card >= 0]
    return CARD_CODES[cards[0]] if len(cards) == 1 else None


def drawn(before: HandPart | None, after: HandPart, spent: str | None = None) -> str | None:
    """The card that came into the hand, when one did (and only one); `spent`, the
    card that left it, tells a card drawn from one given up of the same name."""
    if before is None:
        return None
    held = list(before[0])
    if spent is not None and spent in held:
        held.remove(spent)
    rest = list(after[0])
    for card in held:
        if card in rest:
            rest.remove(card)
    return rest[0] if len(rest) == 1 else None
