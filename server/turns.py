"""The computer's seats and turns, as values: who a computer seat is, what move it is
to make, and what the computer's task asks of a table (computers.py runs the task).

Pure: no trio here, so a table can name its computers and their turns without the
event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Protocol

from sarja.protocol.names import name_key

from .engine import Action, Game
from .engine.view import SeatView

# Names for computer seats, given in this order, skipping names already at the table.
COMPUTER_NAMES = (
    "Aino", "Bertil", "Cecilia", "David", "Eero", "Frida", "Gustav", "Hilma", "Ilmari",
    "Jenni", "Kalle", "Lumi", "Mikael",
)  # fmt: skip


@dataclass(frozen=True)
class Computer:
    """A computer seat: its level and the name people see."""

    level: str
    name: str


@dataclass(frozen=True)
class Turn:
    """A move the computer is to make: for `seat`, at `level`, from `view`, while the
    game is still `game` at `moves` actions (None: a hint's, which no table plays)."""

    seat: int
    level: str
    view: SeatView
    game: Game | None
    moves: int
    pause: float | None = None  # the pause before the move, if not the usual one


def _free_names(taken: Iterable[str]) -> Iterator[str]:
    """The computers' names not in `taken` by their key (a table refuses "aino", or
    "Ａｉｎｏ", beside "Aino"): the plain ones first, then numbered ("Aino 2"), as
    every person on the server may have taken one of the plain ones."""
    folded = {name_key(n) for n in taken}
    numbered = (f"{n} {i}" for i in range(2, 100) for n in COMPUTER_NAMES)
    return (n for n in chain(COMPUTER_NAMES, numbered) if name_key(n) not in folded)


def computer_names(levels: list[str | None], taken: set[str]) -> list[str | None]:
    """A name for each computer seat (a level in `levels`), none of them in `taken`."""
    free = _free_names(taken)
    return [None if lv is None else next(free, "") or None for lv in levels]


def free_computer_name(taken: list[str]) -> str | None:
    """A computer's name not in `taken`, if one is left."""
    return next(_free_names(taken), None)


class Playing(Protocol):
    """A table as the computer's task sees it (table.py's `Table`). Each call that
    changes the table leaves its effects in the table's `fx`, for the caller to carry
    out."""

    @property
    def id(self) -> str: ...
    @property
    def live(self) -> bool: ...
    def computer_turn(self, now: float) -> Turn | None: ...
    def computer_due(self, now: float) -> float | None: ...
    def computer_thinking(self, seat: int) -> None: ...
    def computer_move(self, turn: Turn, action: Action, now: float) -> bool: ...
    def clock_ran_out(self, now: float) -> None: ...
