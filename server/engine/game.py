"""The state of one game and the rules that change it.

A :class:`Game` is built from an explicit deal (for tests and replays) or from
a random source (:meth:`Game.new`). Ask it for a seat's legal actions, apply an
action for a seat (getting back the public changes it caused, sarja.protocol.changes), and ask
``view.seat_view`` for what one seat may know. A refused action raises
:class:`IllegalAction` or :class:`MalformedAction` and leaves the game as it was
(the refusals and their reasons are checks.py's).

Everything is plain lists and bytearrays so a game is cheap to copy: computer
players will search by playing many games from copies.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import compress
from typing import NamedTuple

from sarja.protocol import changes
from sarja.protocol.cards import FiveCells, five_ends
from sarja.protocol.changes import Change

from .actions import (
    DRAW,
    DRAW_ACTION,
    EXCHANGE,
    NORMAL_PLAYS,
    PASS_ACTION,
    PLACE,
    PLACE_ROWS,
    REMOVE,
    REMOVE_ROWS,
    Action,
)
from .arrangement import DEFAULT_HAND_SIZE, Arrangement
from .board import CELLS, CORNERS
from .cards import CARD_CODES, CARD_KIND, FULL_DECK, WILD
from .checks import (
    CORNER_MARK,
    EMPTY,
    check_exchangeable,
    check_placeable,
    check_removable,
    is_dead,
    pass_refused,
)
from .cut import CutRandom, CutRound, Shuffler, cut_for_first, first_from_cut
from .errors import IllegalAction, RecordError
from .sequences import default_choice, line_options, resolve_choice

# Reshuffles in copies made for simulation come from here, not the real game's source.
SIMULATION_RNG = random.Random(0)

MAX_PLAYERS = max(DEFAULT_HAND_SIZE)

# Byte-translation tables that turn the whole board into a row of 0/1 flags in
# one C call (legal_actions then picks actions with itertools.compress):
# 1 on an empty space ...
_EMPTY_FLAGS = bytes(int(v == EMPTY) for v in range(256))
# ... and, per mark, 1 on another side's chip (not empty, own or a corner).
_OTHER_FLAGS = tuple(
    bytes(int(v not in (EMPTY, mark, CORNER_MARK)) for v in range(256))
    for mark in range(CORNER_MARK)
)


class Outcome(NamedTuple):
    """How a game ended: ``result`` is "win" (``side`` won) or "draw"."""

    result: str
    side: int | None = None


_SORTED_DECK = sorted(FULL_DECK)
# The board before the first play: only the corners are marked.
_START_CHIPS = bytes(CORNER_MARK if cell in CORNERS else EMPTY for cell in range(100))

# Changes are immutable, so the one that happens every turn is built once per seat ...
_DREW = tuple(changes.Drew(seat) for seat in range(MAX_PLAYERS))
# ... and each play once, when first made: building a frozen dataclass costs a
# sizeable share of a placement, and computer players simulate thousands of them.
# Keyed by (seat * 52 + card) * 100 + cell; bounded by the plays there are.
_PLAYED: dict[int, changes.Played] = {}


def _played(key: int, seat: int, card: int, cell: int) -> changes.Played:
    made = _PLAYED[key] = changes.Played(seat, CARD_CODES[card], cell)
    return made


class Game:
    __slots__ = (
        "arrangement", "players", "needed", "marks", "cut", "first", "deck",
        "chips", "locked", "hands", "draw_pile", "discard", "sequences",
        "turn", "exchanged", "passes", "pending_draw", "outcome",
        "history", "reshuffles", "_rng", "_replay",
    )  # fmt: skip

    def __init__(
        self,
        arrangement: Arrangement,
        cut: tuple[CutRound, ...],
        deck: tuple[int, ...] | list[int],
        rng: Shuffler | None = None,
        replay_reshuffles: list[tuple[int, ...]] | None = None,
    ) -> None:
        """A game from an explicit cut and deck order (top card first).

        Reshuffles of the discard pile come from `rng`, or, when replaying a
        record, from `replay_reshuffles` in order."""
        if sorted(deck) != _SORTED_DECK:
            raise RecordError("bad_deck", "The deck must be the 104 cards of two decks.")
        self.arrangement = arrangement
        players = self.players = arrangement.players
        self.needed = arrangement.needed
        self.marks = tuple(arrangement.side_of(s) + 1 for s in range(players))
        self.cut = tuple(cut)
        self.first = first_from_cut(players, self.cut)
        self.deck = tuple(deck)
        self.chips = bytearray(_START_CHIPS)
        self.locked = bytearray(100)
        # Dealt one at a time, starting with the first player.
        order = [(self.first + i) % players for i in range(players)]
        self.hands: list[list[int]] = [[] for _ in range(players)]
        dealt = arrangement.hand_size * players
        for i, seat in enumerate(order):
            self.hands[seat] = list(self.deck[i:dealt:players])
        # The top of the draw pile is the end of the list, so drawing is pop().
        self.draw_pile = list(self.deck[dealt:])[::-1]
        self.discard: list[int] = []
        self.sequences: list[list[FiveCells]] = [[] for _ in range(arrangement.sides)]
        self.turn = self.first
        self.exchanged = False
        self.passes = 0
        self.pending_draw: list[int] = []
        self.outcome: Outcome | None = None
        self.history: list[tuple[int, Action]] = []
        self.reshuffles: list[tuple[int, ...]] = []
        self._rng = rng
        self._replay = list(replay_reshuffles or ())[::-1]

    @classmethod
    def new(cls, arrangement: Arrangement, rng: CutRandom) -> Game:
        """A fresh game: the cut, then the shuffle and the deal, all from `rng`
        (a seeded random.Random in tests, secrets.SystemRandom on a server)."""
        cut = cut_for_first(arrangement.players, rng)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        return cls(arrangement, cut, deck, rng=rng)

    def copy(self, rng: Shuffler | None = None) -> Game:
        """An independent copy that shares nothing mutable with this game.

        A reshuffle in the copy draws from `rng` (by default a generator kept for
        simulations), never from this game's: a computer player simulating on
        copies must not move the real game's random source."""
        g = Game.__new__(Game)
        g.arrangement, g.players, g.needed, g.marks = (
            self.arrangement,
            self.players,
            self.needed,
            self.marks,
        )
        g.cut, g.first, g.deck = self.cut, self.first, self.deck
        g.chips = self.chips[:]
        g.locked = self.locked[:]
        g.hands = [h[:] for h in self.hands]
        g.draw_pile = self.draw_pile[:]
        g.discard = self.discard[:]
        g.sequences = [s[:] for s in self.sequences]
        g.turn, g.exchanged, g.passes = self.turn, self.exchanged, self.passes
        g.pending_draw = self.pending_draw[:]
        g.outcome = self.outcome
        g.history = self.history[:]
        g.reshuffles = self.reshuffles[:]
        g._rng = rng if rng is not None else SIMULATION_RNG
        g._replay = self._replay[:]
        return g

    # ----- what may be done -------------------------------------------------

    @property
    def version(self) -> int:
        """How many actions have been accepted; names a state for clients."""
        return len(self.history)

    def side_of(self, seat: int) -> int:
        return self.marks[seat] - 1

    def is_dead(self, card: int) -> bool:
        """Both spaces of the card are covered (jacks are never dead)."""
        return is_dead(self.chips, card)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, plays ordered by card then space."""
        if self.outcome is not None:
            return []
        # A waiting draw comes first, then plays by card then space, then
        # dead-card exchanges; only a seat with nothing at all to do passes.
        actions: list[Action] = [DRAW_ACTION] if seat in self.pending_draw else []
        if seat != self.turn:
            return actions
        chips = self.chips
        may_exchange = not self.exchanged
        dead: list[Action] = []
        flags: list[bytearray | None] = [None, None]  # open and removable cells, once
        previous = -1
        for card in sorted(self.hands[seat]):
            if card == previous:
                continue  # the second copy of a card has the same plays
            previous = card
            normal = NORMAL_PLAYS[card]
            if normal is None:
                self._jack_plays(seat, card, flags, actions)
                continue
            a, play_a, b, play_b, exchange = normal
            if chips[a] == EMPTY:
                actions.append(play_a)
            if chips[b] == EMPTY:
                actions.append(play_b)
            elif may_exchange and chips[a] != EMPTY:
                dead.append(exchange)
        if dead:
            actions.extend(dead)
        elif not actions:
            actions.append(PASS_ACTION)
        return actions

    def _jack_plays(
        self, seat: int, card: int, flags: list[bytearray | None], actions: list[Action]
    ) -> None:
        """A jack's plays: a wild jack's on every open space, a one-eyed jack's on every
        removable chip (`flags`: those cells, worked out once per listing)."""
        if CARD_KIND[card] == WILD:
            if flags[0] is None:
                flags[0] = self.chips.translate(_EMPTY_FLAGS)
            # A jack's row holds an action in every slot the flags pick.
            actions.extend(compress(PLACE_ROWS[card], flags[0]))  # type: ignore[arg-type]
        else:
            if flags[1] is None:
                flags[1] = self._removable_flags(seat)
            actions.extend(compress(REMOVE_ROWS[card], flags[1]))  # type: ignore[arg-type]

    def _removable_flags(self, seat: int) -> bytearray:
        """Per cell, 1 if it holds another side's chip that is not locked."""
        flags = self.chips.translate(_OTHER_FLAGS[self.marks[seat]])
        locked = self.locked
        if any(locked):
            for cell in compress(CELLS, locked):
                flags[cell] = 0
        return flags

    def sequence_options(self, seat: int, cell: int) -> list[list[tuple[FiveCells, ...]]]:
        """For a chip `seat` would place on `cell`: per line where it makes a
        sequence, the options that count the most (first is the default)."""
        chips = self.chips
        if chips[cell] != EMPTY:
            return []
        mark = self.marks[seat]
        chips[cell] = mark
        try:
            return line_options(chips, cell, mark, CORNER_MARK, self.sequences[mark - 1])
        finally:
            chips[cell] = EMPTY

    # ----- doing it ---------------------------------------------------------

    def apply(self, seat: int, action: Action) -> list[Change]:
        """Apply `seat`'s action and return the public changes it caused (never a hidden
        card: a draw says who drew, never what).

        Refusals raise before anything changes."""
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            raise IllegalAction("not_a_player", "Only a seated player can do that.")
        if not isinstance(action, Action):
            raise TypeError("apply() takes an Action; parse text with Action.parse")
        kind, card, cell, fives = action
        # Computer players apply thousands of plain plays and removals: those
        # are plainly well formed, anything else gets the full check.
        if not (
            kind in (PLACE, REMOVE)
            and type(card) is int
            and type(cell) is int
            and 0 <= card < 52
            and 0 <= cell < 100
            and fives == ()
        ):
            action.check_well_formed()
        if self.outcome is not None:
            raise IllegalAction("game_over", "The game is over.")
        if kind == DRAW:
            return self._draw(seat, action)
        if seat != self.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if kind == PLACE:
            return self._place(seat, action)
        if kind == REMOVE:
            return self._remove(seat, action)
        if kind == EXCHANGE:
            return self._exchange(seat, action)
        return self._pass(seat, action)

    def _place(self, seat: int, action: Action) -> list[Change]:
        _, card, cell, fives = action
        check_placeable(self.hands[seat], self.chips, card, cell)
        hand = self.hands[seat]
        chips = self.chips
        mark = self.marks[seat]
        side = mark - 1
        chips[cell] = mark
        lines = line_options(chips, cell, mark, CORNER_MARK, self.sequences[side])
        if lines:
            made = resolve_choice(lines, fives) if fives else default_choice(lines)
            if made is None:
                chips[cell] = EMPTY
                raise IllegalAction("bad_choice", "That isn't a sequence this move can make.")
        elif fives:
            chips[cell] = EMPTY
            raise IllegalAction("bad_choice", "That move makes no sequence to choose.")
        else:
            made = ()
        # Accepted: from here on nothing may refuse.
        hand.remove(card)
        self.discard.append(card)
        key = (seat * 52 + card) * 100 + cell
        events: list[Change] = [_PLAYED.get(key) or _played(key, seat, card, cell)]
        if made:
            locked = self.locked
            for five in made:
                for c in five:
                    locked[c] = 1
            self.sequences[side].extend(made)
            events.append(changes.SequenceMade(seat, side, tuple(map(five_ends, made))))
            if len(self.sequences[side]) >= self.needed:
                self.outcome = Outcome("win", side)
                events.append(changes.Won(side))
                self.history.append((seat, action))
                return events
        self._after_play(seat, action, events)
        return events

    def _remove(self, seat: int, action: Action) -> list[Change]:
        card, cell = action.card, action.cell
        chips = self.chips
        check_removable(self.hands[seat], chips, self.locked, self.marks[seat], card, cell)
        value = chips[cell]
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.chips[cell] = EMPTY
        events: list[Change] = [changes.Removed(seat, CARD_CODES[card], cell, value - 1)]
        self._after_play(seat, action, events)
        return events

    def _after_play(self, seat: int, action: Action, events: list[Change]) -> None:
        """The end of a turn that placed or removed a chip: draw, next player."""
        self.passes = 0
        if self.arrangement.manual_draw:
            if seat in self.pending_draw:
                # A draw not taken by the time you play again is lost.
                self.pending_draw.remove(seat)
                events.append(changes.DrawForfeited(seat))
            self.pending_draw.append(seat)
        elif self.draw_pile:
            # The usual draw, done here rather than by _draw_for: it runs every turn.
            self.hands[seat].append(self.draw_pile.pop())
            events.append(_DREW[seat])
        else:
            self._draw_for(seat, events)
        self.history.append((seat, action))
        self.turn = (self.turn + 1) % self.players
        self.exchanged = False

    def _exchange(self, seat: int, action: Action) -> list[Change]:
        card = action.card
        check_exchangeable(self.hands[seat], self.chips, self.exchanged, card)
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.exchanged = True
        events: list[Change] = [changes.Exchanged(seat, CARD_CODES[card])]
        self._draw_for(seat, events)
        self.history.append((seat, action))
        return events

    def _pass(self, seat: int, action: Action) -> list[Change]:
        legal = self.legal_actions(seat)
        if PASS_ACTION not in legal:
            raise pass_refused(legal)
        self.passes += 1
        events: list[Change] = [changes.Passed(seat)]
        self.history.append((seat, action))
        if self.passes >= self.players:
            self.outcome = Outcome("draw")
            events.append(changes.DrawnGame())
        else:
            self._next_turn()
        return events

    def _draw(self, seat: int, action: Action) -> list[Change]:
        pending = self.pending_draw
        if seat not in pending:
            raise IllegalAction("nothing_to_draw", "You have no draw to take.")
        # `pending` is in the order the seats played. If the player before you
        # played before you did and has not drawn yet, you have now played and
        # drawn after them: their draw is lost.
        before = (seat - 1) % self.players
        forfeits = before in pending and pending.index(before) < pending.index(seat)
        pending.remove(seat)
        events: list[Change] = []
        self._draw_for(seat, events)
        self.history.append((seat, action))
        if forfeits:
            pending.remove(before)
            events.append(changes.DrawForfeited(before))
        return events

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.exchanged = False

    def _draw_for(self, seat: int, events: list[Change]) -> None:
        pile = self.draw_pile
        if not pile:
            if not self.discard:
                events.append(changes.NoDraw(seat))
                return
            self._reshuffle()
            pile = self.draw_pile
            events.append(changes.Reshuffled())
        self.hands[seat].append(pile.pop())
        events.append(_DREW[seat])

    def _reshuffle(self) -> None:
        """The discard pile, shuffled, becomes the draw pile."""
        cards = self.discard
        if self._replay:
            order = list(self._replay.pop())
            if Counter(order) != Counter(cards):
                raise RecordError("bad_reshuffle", "A recorded reshuffle has the wrong cards.")
        elif self._rng is not None:
            order = cards[:]
            self._rng.shuffle(order)
        else:
            raise RecordError("missing_reshuffle", "The record has no order for a reshuffle.")
        self.reshuffles.append(tuple(order))
        self.discard = []
        self.draw_pile = order[::-1]

    def all_cards(self) -> Counter[int]:
        """Every card in hands and piles; always the full 104 (an invariant)."""
        count: Counter[int] = Counter(self.draw_pile)
        count.update(self.discard)
        for hand in self.hands:
            count.update(hand)
        return count
