"""Possible worlds: full engine games that agree with everything a seat has seen.

A seat sees its own hand, the board, the face-up discard pile, every hand's
size and the draw pile's size. Every card is in a hand or a pile, so the cards
it cannot see are exactly the two decks less its hand and the discards, and
they fill the other hands and the draw pile. A world deals those cards at
random; search plays its candidate actions out in many such worlds.

Nothing here reads anything but the view: two games that look the same from
the seat give the same worlds for the same random source.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from ..engine.arrangement import Arrangement
from ..engine.cards import FULL_DECK
from ..engine.game import Game
from ..engine.view import SeatView
from .judge import board_chips, board_locked

# The likelihood of a dealt hand, 0 to 1 (inference.py).
Likelihood = Callable[[Sequence[int]], float]


def unseen_cards(view: SeatView) -> list[int]:
    """The cards the seat cannot see, in a fixed order."""
    count = Counter(FULL_DECK)
    count.subtract(view.hand)
    count.subtract(view.discard)
    unseen = sorted(count.elements())
    seat = view.seat
    hidden_slots = sum(n for s, n in enumerate(view.held) if s != seat) + view.draw_size
    if len(unseen) != hidden_slots or min(count.values()) < 0:
        raise ValueError("the view's cards do not add up to two decks")
    return unseen


class WorldMaker:
    """Deals possible worlds for one view: the public part is read once."""

    def __init__(self, view: SeatView) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no hand to build worlds around")
        self.view = view
        self.seat = view.seat
        self.unseen = unseen_cards(view)
        self.chips = board_chips(view.board)
        self.locked = board_locked(view.board)
        self.arrangement = Arrangement(len(view.held), view.sides, view.hand_size, view.manual_draw)
        self.marks = tuple(side + 1 for side in view.seat_sides)
        self.sequences = [list(fives) for fives in view.sequences]

    def deal(
        self,
        rng: random.Random,
        likely: Mapping[int, Likelihood] | None = None,
        tries: int = 1,
    ) -> Game:
        """One possible world, its reshuffles drawn from `rng` too. With
        `likely` (per seat, the likelihood of a hand, 0 to 1: inference.py),
        each seat's hand is dealt until one is accepted with its likelihood
        (so hands come as often as their likelihood says), at most `tries`
        times; if none is, the likeliest one dealt is kept (`dealt`)."""
        view = self.view
        cards = self.unseen[:]
        rng.shuffle(cards)
        hands: list[list[int]] = []
        for seat, size in enumerate(view.held):
            if seat == self.seat:
                hands.append(list(view.hand))
                continue
            test = likely.get(seat) if likely else None
            if test is not None:
                cards = self.dealt(rng, cards, size, test, tries)
            hands.append(cards[:size])
            del cards[:size]
        return self.world(hands, cards, rng)

    def dealt(
        self, rng: random.Random, cards: list[int], size: int, test: Likelihood, tries: int
    ) -> list[int]:
        """`cards` (shuffled, not yet dealt) in an order whose first `size` are
        the seat's hand: dealt until a hand is accepted with its likelihood, at
        most `tries` times, else the likeliest one dealt."""
        # The cards not yet dealt are shuffled: any `size` of them is a fair deal.
        best, best_order = -1.0, cards
        for _ in range(tries):
            chance = float(test(cards[:size]))
            if rng.random() < chance:
                return cards
            if chance > best:
                best, best_order = chance, cards[:]
            rng.shuffle(cards)
        return best_order

    def world(self, hands: list[list[int]], draw_pile: list[int], rng: random.Random) -> Game:
        """An engine game in this position with these hands and draw pile.
        Built field by field, as Game.copy does: the engine's constructor deals
        from a deck, and a world is already dealt. The history starts empty;
        nothing in play reads it."""
        view = self.view
        g = Game.__new__(Game)
        g.arrangement = self.arrangement
        g.players = self.arrangement.players
        g.needed = view.needed
        g.marks = self.marks
        g.cut = view.cut
        g.first = view.first
        g.deck = ()
        g.chips = self.chips[:]
        g.locked = self.locked[:]
        g.hands = hands
        g.draw_pile = draw_pile
        g.discard = list(view.discard)
        g.sequences = [s[:] for s in self.sequences]
        g.turn = view.turn
        g.exchanged = view.exchanged
        g.passes = view.passes
        g.pending_draw = list(view.pending_draw)
        g.outcome = view.outcome
        g.history = []
        g.reshuffles = []
        g._rng = rng
        g._replay = []
        return g
