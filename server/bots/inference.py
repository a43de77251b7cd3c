"""What the other sides' past plays say about the cards they hold now.

A player who plays well does not keep a card that had a clearly better play
than the one it made, nor a dead card it could have exchanged. So each play of
another side's seat, judged on the board it was made on, says by how much each
unseen card would have been better; such a card can be in the hand now only if
it was drawn since, and the cards drawn since a play are the hand's newest.
`hand_likelihoods` turns this into a likelihood of any dealt hand (each kept
card costs by how much better it was, the `d` costliest excused for the `d`
draws since a play); worlds.py deals hands as often as it says.
`hand_filters` is the older pass-or-fail form (at most `d` such cards);
hard-v1 (bench/hard_v1) reads with it, in its style and without dead cards.

Only the view is read: its history (public: a draw's card is not in it), the
board now, unseen cards. The board before each play is the board now with
the later plays undone; the locks of sequences made since are not undone,
which moves the judgement by little.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from ..engine.actions import DRAW, EXCHANGE, PLACE, REMOVE, Action
from ..engine.board import CARD_CELLS
from ..engine.cards import CARD_KIND, JD, JS, NORMAL, REMOVER, WILD
from ..engine.view import SeatView
from .judge import DEFENCE, NOW, Style, score_action
from .threats import Fill, Threats
from .windows import pack, tables, to_win_flags
from .worlds import Likelihood, WorldMaker

# A card counts as having had a better play when its best beats the play made
# by this much (the judgement of a past board is approximate).
MARGIN = 5.0
# The same margin for the likelihood (hand_likelihoods); hard-v1's test keeps MARGIN.
LIKELY_MARGIN = 5.0
# Plays looked back at per seat; older cards than a hand's size are all replaced.
LOOK_BACK = 8

Likely = Callable[[Sequence[int]], bool]


def hand_filters(
    view: SeatView, maker: WorldMaker, style: Style = NOW, dead_cards: bool = True
) -> dict[int, Likely]:
    """For each seat of another side whose plays say something, a test of a
    dealt hand: whether it is one that seat could hold, given its plays
    (judged in `style`; with `dead_cards`, a dead card kept counts too)."""
    return {
        seat: _filter(marked)
        for seat, marked in _marked_cards(view, maker, style, dead_cards).items()
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


def _marked_cards(
    view: SeatView, maker: WorldMaker, style: Style = NOW, dead_cards: bool = True
) -> dict[int, list[tuple[int, frozenset[int]]]]:
    """Per seat of another side: (draws since, unseen cards with a clearly better
    play) for each of its last plays, newest first."""
    return {
        seat: [(draws, frozenset(gains)) for draws, gains in plays]
        for seat, plays in _judged_plays(view, maker, style, dead_cards).items()
    }


# How fast keeping a card with a better play becomes unlikely: a card whose
# best play beat the play made by LIKELY_MARGIN + g was kept with probability
# exp(-g / KEEP_SCALE) (a strong player keeps few such cards, a beginner more).
KEEP_SCALE = 25.0
# Keeping a dead card instead of exchanging it refuses a free card: it counts
# as a better play by this much.
DEAD_GAIN = 40.0


def hand_likelihoods(view: SeatView, maker: WorldMaker) -> dict[int, Likelihood]:
    """For each seat of another side whose plays say something, the likelihood
    (0 to 1, relative) of a dealt hand given every play it made and every
    exchange of a dead card it did not make: each card it holds that had a
    better play then costs by how much better, except that the `d` most
    telling ones since a play may have come in with its `d` draws since."""
    return {
        seat: _likelihood(plays)
        for seat, plays in _judged_plays(view, maker, margin=LIKELY_MARGIN).items()
        if any(gains for _, gains in plays)
    }


def _likelihood(plays: list[tuple[int, dict[int, float]]]) -> Likelihood:
    steps = [(draws, gains) for draws, gains in plays if gains]

    def likelihood(hand: Sequence[int]) -> float:
        cost = 0.0
        for draws, gains in steps:
            found = sorted((gains[c] for c in hand if c in gains), reverse=True)
            cost += sum(found[draws:])
        return math.exp(-cost / KEEP_SCALE)

    return likelihood


def _judged_plays(
    view: SeatView, maker: WorldMaker, style: Style = NOW, dead_cards: bool = True,
    margin: float = MARGIN,
) -> dict[int, list[tuple[int, dict[int, float]]]]:  # fmt: skip
    """Per seat of another side: (draws since, gain per unseen card that had a
    clearly better play or was dead and not exchanged) for each of its last
    plays, newest first."""
    me = view.seat_sides[maker.seat]
    to_judge = LOOK_BACK * sum(1 for side in view.seat_sides if side != me)
    chips = maker.chips[:]
    draws = [0] * len(view.held)
    seen = [0] * len(view.held)
    found: dict[int, list[tuple[int, dict[int, float]]]] = {}
    unseen = set(maker.unseen)
    history = view.history
    for index in range(len(history) - 1, -1, -1):
        seat, action = history[index]
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
        gains = _better_than(view, maker, chips, seat, action, unseen, style, margin)
        if gains is not None:
            before = history[index - 1] if index else None
            exchanged = before is not None and before[0] == seat and before[1].kind == EXCHANGE
            if dead_cards and not exchanged:  # it could still exchange: a dead card was kept
                for card in unseen:
                    if CARD_KIND[card] == NORMAL and all(chips[c] for c in CARD_CELLS[card]):
                        gains[card] = max(gains.get(card, 0.0), DEAD_GAIN)
            found.setdefault(seat, []).append((draws[seat], gains))
        to_judge -= 1
        if not to_judge:
            break  # every other seat's last plays are judged: older ones say nothing more
    return found


def _better_than(
    view: SeatView, maker: WorldMaker, chips: bytearray, seat: int, action: Action,
    unseen: set[int], style: Style = NOW, margin: float = MARGIN,
) -> dict[int, float] | None:  # fmt: skip
    """Per unseen card whose best play on `chips` (the board before `action`)
    beats `action` by more than `margin`, by how much more; None when the play
    cannot be judged. Judged as medium judges, threats included, with what
    any seat sees (the discard pile; the hand is not known)."""
    side = view.seat_sides[seat]
    mark = side + 1
    packed = pack(chips, view.sequences)
    to_win = to_win_flags(view.needed, view.sequences)
    table = tables(side, view.sides, to_win, DEFENCE, style.values)
    threats = Threats(chips, packed, view.sides) if style.threats else None
    fill = Fill((), view.discard) if style.threats else None

    def score(a: Action) -> float:
        return score_action(a, chips, packed, table, mark, threats=threats, fill=fill) or 0.0

    played = score_action(action, chips, packed, table, mark, threats=threats, fill=fill)
    if played is None:
        return None
    bar = played + margin
    empties = [c for c in range(len(chips)) if not chips[c]]
    best_wild = max((score(Action(PLACE, JD, c)) for c in empties), default=-math.inf)
    best_remove = max(
        (
            score(Action(REMOVE, JS, c))
            for c in range(len(chips))
            if chips[c] not in (0, mark, 4) and not maker.locked[c]
        ),
        default=-math.inf,
    )
    strong: dict[int, float] = {}
    for card in unseen:
        kind = CARD_KIND[card]
        if kind == WILD:
            best = best_wild
        elif kind == REMOVER:
            best = best_remove
        else:
            best = max(
                (score(Action(PLACE, card, c)) for c in CARD_CELLS[card] if not chips[c]),
                default=-math.inf,
            )
        if best > bar:
            strong[card] = best - bar
    return strong
