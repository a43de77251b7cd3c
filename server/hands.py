"""Which seats' hands an action can have changed, and what card came into a hand: so a
seat's `hand` goes out only when its part changed, and says what was drawn.

Pure functions of the engine's events and the hand parts last sent (present.py's
`hand_part`: the sorted hand, its targets and its dead cards).
"""

from __future__ import annotations

from typing import assert_never

from sarja.protocol import changes as ch
from sarja.protocol.changes import Change

from .engine.board import LAYOUT, five_cells
from .engine.cards import JACKS

HandPart = tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[str, ...]]


def touched(events: list[Change]) -> tuple[set[int], set[int]]:
    """(seats whose hand changed, cards whose space's chip or lock changed) after an
    action."""
    seats, cells = set(), set()
    for e in events:
        match e:
            case ch.Played(seat=seat, cell=cell) | ch.Removed(seat=seat, cell=cell):
                seats.add(seat)
                cells.add(cell)
            case ch.Exchanged(seat=seat) | ch.Drew(seat=seat):
                seats.add(seat)
            case ch.SequenceMade(fives=fives):
                for five in fives:
                    cells.update(five_cells(five))
            case (
                ch.NoDraw() | ch.Reshuffled() | ch.DrawForfeited() | ch.Passed() | ch.Won()
                | ch.DrawnGame() | ch.Away() | ch.Back()
            ):  # fmt: skip
                pass
            case _:
                assert_never(e)
    return seats, {LAYOUT[c] for c in cells} | JACKS


def spent(events: list[Change] | None, seat: int) -> str | None:
    """The card the seat gave up, if it gave one up and drew in the same action."""
    if events is None or ch.Drew(seat) not in events:
        return None
    cards = [given[1] for given in map(_given_up, events) if given and given[0] == seat]
    return cards[0] if len(cards) == 1 else None


def _given_up(e: Change) -> tuple[int, str] | None:
    """(seat, card) when the change takes a card from a hand."""
    match e:
        case ch.Played(seat=seat, card=card) | ch.Removed(seat=seat, card=card):
            return seat, card
        case ch.Exchanged(seat=seat, card=card):
            return seat, card
        case (
            ch.Drew() | ch.NoDraw() | ch.Reshuffled() | ch.DrawForfeited() | ch.Passed()
            | ch.SequenceMade() | ch.Won() | ch.DrawnGame() | ch.Away() | ch.Back()
        ):  # fmt: skip
            return None
        case _:
            assert_never(e)


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
