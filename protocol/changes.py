"""What happened in a game, as data: one frozen class per kind of change.

The rules engine returns them from every action, the server sends them in its updates
as they are, and every client's mirror and log reads them back: one class from the
engine's output to the client's screen. On the wire a change is a map, its `kind` and
its fields (docs/protocol.md); the protocol checks and writes that map
(change_wire.py). The values are the vocabulary's: card codes, cells, fives by their
two end cells.

Code that tells the kinds apart matches on the classes and ends in
`case _: assert_never(change)`, so that a new kind is one class here, added to `Change`,
and mypy names every place that must say what it does with it.

>>> Played(seat=0, card="7H", cell=43).kind, Won(side=1) == Won(1)
('played', True)
"""

from dataclasses import dataclass
from typing import ClassVar, assert_never, get_args

from .cards import FiveEnds


@dataclass(frozen=True, slots=True)
class Played:
    """A chip placed (with a wild jack too)."""

    kind: ClassVar[str] = "played"
    seat: int
    card: str
    cell: int


@dataclass(frozen=True, slots=True)
class Removed:
    """A chip taken off with a one-eyed jack; `side`: whose chip it was."""

    kind: ClassVar[str] = "removed"
    seat: int
    card: str
    cell: int
    side: int


@dataclass(frozen=True, slots=True)
class Exchanged:
    """A dead card traded for a new one (the notation's `dead:`)."""

    kind: ClassVar[str] = "exchanged"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Drew:
    """A card drawn; what it is, only the seat's hand says."""

    kind: ClassVar[str] = "drew"
    seat: int


@dataclass(frozen=True, slots=True)
class NoDraw:
    """Both piles empty: nothing to draw."""

    kind: ClassVar[str] = "no_draw"
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile became the draw pile."""

    kind: ClassVar[str] = "reshuffled"


@dataclass(frozen=True, slots=True)
class DrawForfeited:
    """A manual draw not taken in time."""

    kind: ClassVar[str] = "draw_forfeited"
    seat: int


@dataclass(frozen=True, slots=True)
class Passed:
    kind: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class SequenceMade:
    """Fives locked for the side, made by the seat's play."""

    kind: ClassVar[str] = "sequence"
    seat: int
    side: int
    fives: tuple[FiveEnds, ...]


@dataclass(frozen=True, slots=True)
class Won:
    kind: ClassVar[str] = "won"
    side: int


@dataclass(frozen=True, slots=True)
class DrawnGame:
    """A full round of passes."""

    kind: ClassVar[str] = "drawn_game"


@dataclass(frozen=True, slots=True)
class Away:
    """The player is gone; the seat is kept."""

    kind: ClassVar[str] = "away"
    seat: int


@dataclass(frozen=True, slots=True)
class Back:
    kind: ClassVar[str] = "back"
    seat: int


# Every kind, in the order docs/protocol.md lists them.
Change = (
    Played | Removed | Exchanged | Drew | NoDraw | Reshuffled | DrawForfeited | Passed
    | SequenceMade | Won | DrawnGame | Away | Back
)  # fmt: skip
CHANGE_TYPES: tuple[type[Change], ...] = get_args(Change)


def seat_only(change: Change) -> bool:
    """A change of who is here, not of the game: it changes no one's legal actions."""
    match change:
        case Away() | Back():
            return True
        case (
            Played() | Removed() | Exchanged() | Drew() | NoDraw() | Reshuffled()
            | DrawForfeited() | Passed() | SequenceMade() | Won() | DrawnGame()
        ):  # fmt: skip
            return False
        case _:
            assert_never(change)
