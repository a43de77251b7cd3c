"""The new-table form: its fields, and the choices the server's table shapes allow.

The shapes come in the server's `welcome`; nothing here knows which tables Sarja
sets up, so the form offers exactly what the server accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sarja.protocol.limits import DECK_SIZE, MAX_HAND
from sarja.protocol.messages import TableShape


@dataclass
class CreateForm:
    """The fields of `create_table`, edited in the lobby before sending."""

    name: str = ""
    players: int = 2
    teams: int = 2
    hand_size: int | None = None  # None: the usual for the table's shape
    manual_draw: bool = False
    computers: int = 0  # computer players, in the last seats
    level: str = "medium"  # theirs, and the stand-in's
    computer_takeover: bool = False  # a computer plays an away player's seat
    hints: bool = False  # players may ask the coach for a hint
    match_to: int | None = None  # a match: first side to this many wins (None: one game)
    turn_clock: int = 0  # seconds a person has for a turn; 0: no clock
    field: int = 0  # which line of the form the cursor is on
    offered: bool = False  # the name is the one the form offered: typing replaces it

    FIELDS = (
        "name", "players", "teams", "hand_size", "manual_draw", "computers", "level",
        "computer_takeover", "hints", "match_to", "turn_clock",
    )  # fmt: skip
    MATCHES = (None, 2, 3, 5)  # what the arrows offer; a digit types any from 2 to 9

    def computer_seats(self) -> tuple[str | None, ...]:
        """`create_table`'s `computers`: the last `computers` seats at `level`."""
        if not self.computers:
            return ()
        people = self.players - self.computers
        return (None,) * people + (self.level,) * self.computers


Shapes = Sequence[TableShape]

# The turn clocks the form offers with its arrows; the host may type any other number
# of seconds (the server takes MIN_TURN_CLOCK to MAX_TURN_CLOCK).
CLOCK_CHOICES = (0, 30, 60, 120)


def clock_step(seconds: int, step: int) -> int:
    """The next clock the arrows offer from `seconds` (a typed one steps to its
    neighbour among the choices)."""
    if seconds in CLOCK_CHOICES:
        return CLOCK_CHOICES[(CLOCK_CHOICES.index(seconds) + step) % len(CLOCK_CHOICES)]
    if step > 0:
        return next((c for c in CLOCK_CHOICES if c > seconds), CLOCK_CHOICES[0])
    return next((c for c in reversed(CLOCK_CHOICES) if c < seconds), CLOCK_CHOICES[0])


def clock_typed(seconds: int, key: str) -> int:
    """The clock after a key typed on its line: a digit appends, "" takes one off."""
    if key == "":
        return seconds // 10
    return min(seconds * 10 + int(key), 9999)  # four digits: enough past the range


def player_counts(shapes: Shapes, form: CreateForm) -> tuple[int, ...]:
    """The table sizes the server offers (its `welcome` lists every shape)."""
    counts = sorted({shape.players for shape in shapes})
    return tuple(counts) or (form.players,)


def team_choices(shapes: Shapes, form: CreateForm, players: int) -> tuple[int, ...]:
    """The numbers of sides the server offers for a table of this size."""
    teams = sorted({shape.teams for shape in shapes if shape.players == players})
    return tuple(teams) or (form.teams,)


def usual_hand(shapes: Shapes, players: int, teams: int) -> int | None:
    """The hand size the server deals to this shape unless told otherwise."""
    for shape in shapes:
        if (shape.players, shape.teams) == (players, teams):
            return shape.hand_size
    return None


def hand_sizes(shapes: Shapes, players: int, teams: int) -> list[int | None]:
    """The hands a table of this shape may deal, smallest first, the usual one as None
    (so it is offered once): 1 to MAX_HAND cards, and at most half the deck dealt in
    all, as the server checks (docs/protocol.md, `create_table`)."""
    usual = usual_hand(shapes, players, teams)
    most = min(MAX_HAND, DECK_SIZE // 2 // players)
    sizes: list[int | None] = [None if n == usual else n for n in range(1, most + 1)]
    return sizes if None in sizes else [None, *sizes]
