"""What one seat may know: the observation a client draws and a computer
player decides on.

Built fresh from the full game, it holds the seat's own hand and only public
facts besides: hand *sizes*, the board, the face-up discards, the draw pile's
*size*. All hands are revealed only once the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

from .actions import PLACE, Action
from .game import CutRound, Game, Outcome
from .sequences import Five

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


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int | None  # None: a spectator
    version: int
    sides: int
    needed: int
    hand_size: int
    manual_draw: bool
    seat_sides: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    board: str
    discard: tuple[int, ...]  # bottom first; the top is last
    draw_size: int
    sequences: tuple[tuple[Five, ...], ...]  # per side
    turn: int
    first: int
    cut: tuple[CutRound, ...]
    last: tuple[int, Action] | None
    legal: tuple[Action, ...]
    # Cells where placing this seat's chip makes sequences more than one way:
    # (cell, options per line); the first option of each line is the default.
    choices: tuple[tuple[int, tuple[tuple[tuple[Five, ...], ...], ...]], ...]
    exchanged: bool
    pending_draw: tuple[int, ...]
    passes: int
    outcome: Outcome | None
    revealed_hands: tuple[tuple[int, ...], ...] | None  # only once the game is over


class SeatPart(NamedTuple):
    """What only one seat may know: its hand, and what that hand lets it do."""

    hand: tuple[int, ...]
    legal: tuple[Action, ...]
    choices: tuple[tuple[int, tuple[tuple[tuple[Five, ...], ...], ...]], ...]


NO_SEAT = SeatPart((), (), ())


def seat_part(game: Game, seat: int) -> SeatPart:
    """The private part of `seat`'s view; the rest is the spectator's view."""
    legal = tuple(game.legal_actions(seat))
    choices = []
    # Two fives through one new chip need at least four more of the side's
    # chips (with a corner): until then there is no choice to look for.
    # (Finer filters, by line, cost more than they save: measured.)
    may_choose = game.chips.count(game.marks[seat]) >= 4
    for cell in sorted({a.cell for a in legal if a.kind == PLACE}) if may_choose else ():
        lines = game.sequence_options(seat, cell)
        if any(len(options) > 1 for options in lines):
            choices.append((cell, tuple(tuple(options) for options in lines)))
    return SeatPart(tuple(sorted(game.hands[seat])), legal, tuple(choices))


def seat_view(game: Game, seat: int | None) -> SeatView:
    """The view of `seat`, or a spectator's view (no hand at all) for None."""
    hand, legal, choices = NO_SEAT if seat is None else seat_part(game, seat)
    over = game.outcome is not None
    arrangement = game.arrangement
    return SeatView(
        seat=seat,
        version=game.version,
        sides=arrangement.sides,
        needed=game.needed,
        hand_size=arrangement.hand_size,
        manual_draw=arrangement.manual_draw,
        seat_sides=tuple(m - 1 for m in game.marks),
        hand=hand,
        hand_sizes=tuple(len(h) for h in game.hands),
        board=board_text(game),
        discard=tuple(game.discard),
        draw_size=len(game.draw_pile),
        sequences=tuple(tuple(s) for s in game.sequences),
        turn=game.turn,
        first=game.first,
        cut=game.cut,
        last=game.history[-1] if game.history else None,
        legal=legal,
        choices=choices,
        exchanged=game.exchanged,
        pending_draw=tuple(game.pending_draw),
        passes=game.passes,
        outcome=game.outcome,
        revealed_hands=tuple(tuple(sorted(h)) for h in game.hands) if over else None,
    )
