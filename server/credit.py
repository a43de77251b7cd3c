"""What one finished game credits each seat's person with in the standings, as
docs/rules.md's decision on the computer's moves has it: a move the computer made for a
person's seat (a stand-in's, a seat handed over, a turn whose clock ran out) is not the
person's. Their figures count their own moves only, and the game counts for them (in
their games, wins, losses and draws, their rating and their teammates) only if they made
at least half of their seat's moves.

The one place that rule lives: the standings (standings.py) ask it per game, and of a
game kept from before the journal kept who made each move (`credit_kept`). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Move:
    """One accepted action of a game, as the standings see it."""

    seat: int
    computer: bool  # the computer made it for the person whose seat it is
    sequences: int = 0  # the sequences it made
    removed: int = 0  # 1: it removed a chip
    exchanged: int = 0  # 1: it exchanged a dead card
    took: float | None = None  # seconds since the action before it (None: not timed)


@dataclass
class Figures:
    """A seat's person's figures in one game."""

    sequences: int = 0
    removed: int = 0
    exchanged: int = 0
    moves: int = 0  # moves timed: the person's own, after the first action of the game
    move_time: float = 0.0  # seconds, together
    own: int = 0  # actions the person made
    seat: int = 0  # actions made at the seat, by the person or by the computer for them


@dataclass(frozen=True)
class Credit:
    """What the game gives the person at one seat."""

    figures: Figures
    counts: bool  # for their games, wins, losses, draws, rating and teammates


def counts(own: float, seat: float) -> bool:
    """Whether a game counts for a person who made `own` of their seat's `seat` moves:
    at least half of them."""
    return 2 * own >= seat


def credit(players: int, moves: Iterable[Move]) -> list[Credit]:
    """Per seat, what the game of these moves (in order) credits its person with."""
    figures = [Figures() for _ in range(players)]
    for move in moves:
        f = figures[move.seat]
        f.seat += 1
        if move.computer:
            continue  # the computer's: no one's figure
        f.own += 1
        f.sequences += move.sequences
        f.removed += move.removed
        f.exchanged += move.exchanged
        if move.took is not None:
            f.moves += 1
            f.move_time += max(0.0, move.took)
    return [Credit(f, counts(f.own, f.seat)) for f in figures]


def credit_kept(kept: Figures, seat: float) -> Credit:
    """A game counted before the journal kept who made each move: `kept` its figures
    as counted then (the seat's, whoever made them; its `moves` the person's own timed
    ones), and `seat` the moves made at the seat (estimated: the game's by its seats).
    The person's own moves are the timed ones; the seat's figures are theirs if the
    game counts for them (which of the moves were the computer's is not known)."""
    own = kept.moves
    if counts(own, seat):
        return Credit(replace(kept, own=own, seat=round(seat)), True)
    figures = Figures(moves=kept.moves, move_time=kept.move_time, own=own, seat=round(seat))
    return Credit(figures, False)
