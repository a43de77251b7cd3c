"""What one seat may know: the observation a client draws and a computer
player decides on.

Built fresh from the full game, it holds the seat's own hand and only public
facts besides: hand *sizes*, the board, the face-up discards, the draw pile's
*size*. All hands are revealed only once the game is over.

Besides the hand, a seat's view carries what the rules make of it, so that a
client never re-derives a rule: the actions it may take now (``legal``), the
spaces each card could take whoever's turn it is (``targets``, for planning
off-turn), its dead cards, and the placements where it must choose which five
form a sequence (``choices``).
"""

from __future__ import annotations

from itertools import compress
from typing import NamedTuple, TypedDict

from sarja.protocol.cards import FiveCells

from .actions import PLACE, Action
from .board import CARD_CELLS, CELLS, SIZE
from .cards import CARD_KIND, NORMAL, WILD
from .checks import CORNER_MARK, EMPTY
from .cut import CutRound
from .game import Game, Outcome

# Board characters by mark (empty, blue, green, red, corner): lower case for a
# free chip, upper case for one locked in a sequence.
_FREE_CHARS = ".bgr*"
_LOCKED_CHARS = ".BGR*"
# For bytearray.translate: the whole board becomes its free characters in one call.
_FREE_TABLE = bytes(ord(_FREE_CHARS[v]) if v < len(_FREE_CHARS) else 0 for v in range(256))


def board_text(game: Game) -> str:
    """The board as 100 characters, row-major: ``.`` empty, ``*`` corner,
    ``b``/``g``/``r`` chips, upper case when locked in a sequence."""
    chips = game.chips
    text = chips.translate(_FREE_TABLE)
    for cell in compress(range(100), game.locked):
        text[cell] = ord(_LOCKED_CHARS[chips[cell]])
    return text.decode("ascii")


SequenceChoice = tuple[int, tuple[tuple[tuple[FiveCells, ...], ...], ...]]


class SeatView(NamedTuple):
    """One seat's (or a spectator's) view. A NamedTuple, not a dataclass: a
    server builds one per seat per move, and this is the cheapest immutable
    record with named fields."""

    seat: int | None  # None: a spectator
    version: int
    sides: int
    needed: int
    hand_size: int  # cards dealt to each seat (the rules'); `held` is what each holds now
    manual_draw: bool
    seat_sides: tuple[int, ...]
    hand: tuple[int, ...]  # sorted
    # Per card of `hand`, in the same order: the cells it could take now,
    # whoever's turn it is (its open spaces; for a wild jack every open space;
    # for a one-eyed jack every other side's chip not in a sequence).
    targets: tuple[tuple[int, ...], ...]
    dead: tuple[int, ...]  # distinct cards of `hand` whose two spaces are covered
    held: tuple[int, ...]  # per seat, how many cards it holds
    board: str
    discard: tuple[int, ...]  # bottom first; the top is last
    draw_size: int
    sequences: tuple[tuple[FiveCells, ...], ...]  # per side
    turn: int
    first: int
    cut: tuple[CutRound, ...]
    last: tuple[int, Action] | None
    legal: tuple[Action, ...]
    # Cells where placing this seat's chip makes sequences more than one way:
    # (cell, options per line); the first option of each line is the default.
    choices: tuple[SequenceChoice, ...]
    exchanged: bool
    pending_draw: tuple[int, ...]
    passes: int
    outcome: Outcome | None
    revealed_hands: tuple[tuple[int, ...], ...] | None  # only once the game is over
    # Every action taken so far, oldest first, as (seat, action): all of it public
    # (a draw's card is not in its action). A view built from what a client saw
    # may hold only the part it saw.
    history: tuple[tuple[int, Action], ...] = ()


class SeatPart(NamedTuple):
    """What only one seat may know: its hand, and what that hand lets it do now."""

    hand: tuple[int, ...]
    legal: tuple[Action, ...]
    choices: tuple[SequenceChoice, ...]


NO_SEAT = SeatPart((), (), ())

# ----- finding sequence choices ---------------------------------------------
#
# A placement offers a real choice only if, in some direction, it extends a run
# of the side's chips and corners to six or more (one five has one window; a
# choice needs two windows through the new chip). So before asking the exact
# question (`Game.sequence_options`) about a space, we look for windows of six
# cells holding five of the side's chips or corners, over the whole board at
# once: the board as an integer with one byte per cell (cell i at byte i), so
# that summing shifted copies counts every window's chips in a few big-integer
# operations and no Python loop over cells.

# Per mark, translate() to 1 on the side's chips and on corners, 0 elsewhere.
_OWN_FLAGS = tuple(
    bytes(int(v in (mark, CORNER_MARK)) for v in range(256)) for mark in range(CORNER_MARK)
)
_WINDOW = 6
_THREES = int.from_bytes(bytes([3]) * 100, "little")


def _window_starts(dr: int, dc: int) -> int:
    """Bit 3 set in the byte of each cell that starts a six-cell window
    stepping by (dr, dc), with all six cells on the board."""
    mask = 0
    for cell in CELLS:
        r, c = divmod(cell, SIZE)
        end_r, end_c = r + dr * (_WINDOW - 1), c + dc * (_WINDOW - 1)
        if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
            mask |= 8 << (8 * cell)
    return mask


# Per direction: (bits per step, window starts). The steps go forward in
# reading order, so a window starting at cell x holds x, x+step, ... x+5*step.
_DIRECTIONS = tuple(
    (8 * (dr * SIZE + dc), _window_starts(dr, dc)) for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
)


def _six_window_cells(game: Game, mark: int) -> set[int]:
    """Every cell of every six-cell window holding at least five of the chips
    of the side with `mark`, or corners. An empty cell outside this set cannot
    complete six in a row for that side, so it offers no choice of five."""
    board = int.from_bytes(game.chips.translate(_OWN_FLAGS[mark]), "little")
    found: set[int] = set()
    for bits, starts in _DIRECTIONS:
        # Counts per byte stay at most 6 (plus 3 below), so bytes never carry.
        two = board + (board >> bits)
        six = two + (two >> 2 * bits) + (two >> 4 * bits)
        hits = (six + _THREES) & starts  # bit 3 set: the window counts 5 or 6
        if hits:
            step = bits // 8
            flags = hits.to_bytes(100, "little")
            for start in compress(CELLS, flags):
                found.update(range(start, start + _WINDOW * step, step))
    return found


def sequence_choices(game: Game, seat: int, legal: list[Action]) -> tuple[SequenceChoice, ...]:
    """The placements among `legal` where the seat chooses how its new
    sequences are counted: (cell, per line its options), cells in order."""
    mark = game.marks[seat]
    # A window of six holds at most one corner, so five of six need four chips.
    if game.chips.count(mark) < 4:
        return ()
    candidates = _six_window_cells(game, mark)
    if not candidates:
        return ()
    choices = []
    for cell in sorted({a.cell for a in legal if a.kind == PLACE}.intersection(candidates)):
        lines = game.sequence_options(seat, cell)
        if any(len(options) > 1 for options in lines):
            choices.append((cell, tuple(tuple(options) for options in lines)))
    return tuple(choices)


def seat_part(game: Game, seat: int) -> SeatPart:
    """The private part of `seat`'s view; the rest is the spectator's view."""
    legal = game.legal_actions(seat)
    choices = sequence_choices(game, seat, legal) if legal and seat == game.turn else ()
    return SeatPart(tuple(sorted(game.hands[seat])), tuple(legal), choices)


# ----- what each card could take ----------------------------------------------


def _normal_targets(card: int) -> tuple[int, int, tuple[tuple[int, ...], ...]] | None:
    """A normal card's spaces a and b and its targets, indexed by
    (a taken) + 2 * (b taken); None for a jack."""
    if CARD_KIND[card] != NORMAL:
        return None
    a, b = CARD_CELLS[card]
    return a, b, ((a, b), (b,), (a,), ())


_NORMAL_TARGETS = tuple(_normal_targets(card) for card in range(52))
_EMPTY_FLAGS = bytes(int(v == EMPTY) for v in range(256))


def _targets(game: Game, seat: int, hand: list[int]) -> tuple[tuple[int, ...], ...]:
    """`hand_targets` for the sorted `hand`. The open and the removable cells
    are listed once, and only if a jack needs them."""
    if game.outcome is not None:
        return ((),) * len(hand)
    chips = game.chips
    targets: list[tuple[int, ...]] = []
    open_cells = removable = None
    for card in hand:
        normal = _NORMAL_TARGETS[card]
        if normal is not None:
            a, b, by_taken = normal
            targets.append(by_taken[(chips[a] != EMPTY) + 2 * (chips[b] != EMPTY)])
        elif CARD_KIND[card] == WILD:
            if open_cells is None:
                open_cells = tuple(compress(CELLS, chips.translate(_EMPTY_FLAGS)))
            targets.append(open_cells)
        else:
            if removable is None:
                removable = tuple(compress(CELLS, game._removable_flags(seat)))
            targets.append(removable)
    return tuple(targets)


def hand_targets(game: Game, seat: int) -> tuple[tuple[int, ...], ...]:
    """Per card of the seat's sorted hand, the cells it could take if it were
    the seat's turn now, in cell order: a card's open spaces, every open
    space for a wild jack, every other side's chip not in a sequence for a
    one-eyed jack. All empty once the game is over."""
    return _targets(game, seat, sorted(game.hands[seat]))


def dead_cards(game: Game, seat: int) -> tuple[int, ...]:
    """The distinct cards of the seat's hand whose two spaces are both covered,
    sorted (jacks are never dead). Empty once the game is over."""
    if game.outcome is not None:
        return ()
    chips = game.chips
    dead = []
    for card in game.hands[seat]:
        normal = _NORMAL_TARGETS[card]
        if normal is not None and chips[normal[0]] != EMPTY and chips[normal[1]] != EMPTY:
            dead.append(card)
    return tuple(sorted(set(dead))) if dead else ()


# ----- the view ----------------------------------------------------------------


class TurnCounters(TypedDict):
    """Whose turn it is and the counters around it: what every seat's view and every
    update carry after each action (given as keywords: `**turn_counters(game)`)."""

    turn: int
    draw_size: int
    passes: int
    exchanged: bool
    pending_draw: tuple[int, ...]


def turn_counters(game: Game) -> TurnCounters:
    return TurnCounters(
        turn=game.turn,
        draw_size=len(game.draw_pile),
        passes=game.passes,
        exchanged=game.exchanged,
        pending_draw=tuple(game.pending_draw),
    )


def seat_view(game: Game, seat: int | None) -> SeatView:
    """The view of `seat`, or a spectator's view (no hand at all) for None."""
    if seat is None:
        hand: tuple[int, ...] = ()
        legal: tuple[Action, ...] = ()
        choices: tuple[SequenceChoice, ...] = ()
        targets: tuple[tuple[int, ...], ...] = ()
        dead: tuple[int, ...] = ()
    else:
        sorted_hand = sorted(game.hands[seat])
        hand = tuple(sorted_hand)
        legal_list = game.legal_actions(seat)
        legal = tuple(legal_list)
        choices = sequence_choices(game, seat, legal_list) if legal and seat == game.turn else ()
        targets = _targets(game, seat, sorted_hand)
        dead = dead_cards(game, seat)
    over = game.outcome is not None
    arrangement = game.arrangement
    history = game.history
    return SeatView(
        seat=seat,
        version=len(history),
        sides=arrangement.sides,
        needed=game.needed,
        hand_size=arrangement.hand_size,
        manual_draw=arrangement.manual_draw,
        seat_sides=tuple([m - 1 for m in game.marks]),
        hand=hand,
        targets=targets,
        dead=dead,
        held=tuple([len(h) for h in game.hands]),
        board=board_text(game),
        discard=tuple(game.discard),
        sequences=tuple([tuple(s) for s in game.sequences]),
        first=game.first,
        cut=game.cut,
        last=history[-1] if history else None,
        legal=legal,
        choices=choices,
        outcome=game.outcome,
        revealed_hands=tuple([tuple(sorted(h)) for h in game.hands]) if over else None,
        history=tuple(history),
        **turn_counters(game),
    )
