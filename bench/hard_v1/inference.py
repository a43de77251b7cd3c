"""What the other sides' past plays say about the cards they hold now.

A player who plays well does not keep a card that had a clearly better play
than the one it made. So each play of another side's seat, judged on the
board it was made on, marks some unseen cards as unlikely to have been in that
hand then; such a card can be in the hand now only if it was drawn since. The
cards drawn since a play are the hand's newest, so if the hand now holds `n`
cards marked by its plays of the last `d` draws, `n` must be at most `d`
(checked for every `d`). A deal that breaks this is unlikely, and worlds.py
deals again.

Only the view is read: its history (public: a draw's card is not in it), the
board now, unseen cards. The board before each play is the board now with
the later plays undone; the locks of sequences made since are not undone,
which moves the judgement by little.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from sarja.server.engine.actions import DRAW, EXCHANGE, PLACE, REMOVE, Action
from sarja.server.engine.board import CARD_CELLS
from sarja.server.engine.cards import CARD_KIND, JD, JS, REMOVER, WILD
from sarja.server.engine.view import SeatView

from .judge import DEFENCE, score_action
from .windows import pack, tables, to_win_flags
from .worlds import WorldMaker

# A card counts as having had a better play when its best beats the play made
# by this much (the judgement of a past board is approximate).
MARGIN = 5.0
# Plays looked back at per seat; older cards than a hand's size are all replaced.
LOOK_BACK = 8

Likely = Callable[[Sequence[int]], bool]


def hand_filters(view: SeatView, maker: WorldMaker) -> dict[int, Likely]:
    """For each seat of another side whose plays say something, a test of a
    dealt hand: whether it is one that seat could hold, given its plays."""
    return {
        seat: _filter(marked)
        for seat, marked in _marked_cards(view, maker).items()
        if any(cards for _, cards in marked)
    }


def _filter(marked: list[tuple[int, frozenset[int]]]) -> Likely:
    """`marked`: (draws since the play, cards marked by it), newest play first."""
    steps: list[tuple[int, frozenset[int]]] = []
    union: set[int] = set()
    for draws, cards in marked:
        union |= cards
        steps.append((draws, frozenset(union)))

    def likely(hand: Sequence[int]) -> bool:
        return all(sum(1 for card in hand if card in cards) <= draws for draws, cards in steps)

    return likely


def _marked_cards(view: SeatView, maker: WorldMaker) -> dict[int, list[tuple[int, frozenset[int]]]]:
    """Per seat of another side: (draws since, unseen cards with a clearly better
    play) for each of its last plays, newest first."""
    me = view.seat_sides[maker.seat]
    to_judge = LOOK_BACK * sum(1 for side in view.seat_sides if side != me)
    chips = maker.chips[:]
    draws = [0] * len(view.held)
    seen = [0] * len(view.held)
    found: dict[int, list[tuple[int, frozenset[int]]]] = {}
    unseen = set(maker.unseen)
    for seat, action in reversed(view.history):
        kind = action.kind
        # Cards come in by exchanging a dead card, and by playing (or, under the
        # manual draw, by drawing).
        if kind == EXCHANGE or (kind == DRAW if view.manual_draw else kind in (PLACE, REMOVE)):
            draws[seat] += 1
        if kind not in (PLACE, REMOVE):
            continue
        # The board before this play: undo it.
        if kind == PLACE:
            chips[action.cell] = 0
        elif view.sides == 2:
            chips[action.cell] = 2 - view.seat_sides[seat]  # the other side's chip
        else:
            break  # whose chip a jack took is not in the history: stop here
        if view.seat_sides[seat] == me or seen[seat] >= LOOK_BACK:
            continue
        seen[seat] += 1
        marked = _better_than(view, maker, chips, seat, action, unseen)
        if marked is not None:
            found.setdefault(seat, []).append((draws[seat], marked))
        to_judge -= 1
        if not to_judge:
            break  # every other seat's last plays are judged: older ones say nothing more
    return found


def _better_than(
    view: SeatView, maker: WorldMaker, chips: bytearray, seat: int, action: Action,
    unseen: set[int],
) -> frozenset[int] | None:  # fmt: skip
    """The unseen cards whose best play on `chips` (the board before `action`)
    beats `action` by MARGIN; None when the play cannot be judged."""
    side = view.seat_sides[seat]
    mark = side + 1
    packed = pack(chips, view.sequences)
    table = tables(side, view.sides, to_win_flags(view.needed, view.sequences), DEFENCE)
    played = score_action(action, chips, packed, table, mark)
    if played is None:
        return None
    bar = played + MARGIN
    empties = [c for c in range(len(chips)) if not chips[c]]
    best_wild = max(
        (score_action(Action(PLACE, JD, c), chips, packed, table, mark) or 0.0 for c in empties),
        default=-math.inf,
    )
    best_remove = max(
        (
            score_action(Action(REMOVE, JS, c), chips, packed, table, mark) or 0.0
            for c in range(len(chips))
            if chips[c] not in (0, mark, 4) and not maker.locked[c]
        ),
        default=-math.inf,
    )
    strong = set()
    for card in unseen:
        kind = CARD_KIND[card]
        if kind == WILD:
            best = best_wild
        elif kind == REMOVER:
            best = best_remove
        else:
            best = max(
                (
                    score_action(Action(PLACE, card, c), chips, packed, table, mark) or 0.0
                    for c in CARD_CELLS[card]
                    if not chips[c]
                ),
                default=-math.inf,
            )
        if best > bar:
            strong.add(card)
    return frozenset(strong)
