"""What the game on screen means for drawing and for keys, as the server says it.

Which spaces a card can take, which cards are dead, which placements have a choice of
fives: all read from the mirror's `targets`, `dead` and `choices`, never worked out
here. And who plays which seat, as the table last said.
"""

from __future__ import annotations

from sarja.protocol import notation
from sarja.protocol.cards import FiveEnds, five_cells
from sarja.protocol.messages import Choice
from sarja.protocol.mirror import GameMirror

from .model import Model


def targets(model: Model, card: str | None) -> frozenset[int]:
    """The spaces `card` can take (for a one-eyed jack, the chips it can remove), as the
    server lists them for each card in the hand, on turn or off."""
    g = model.game
    if g is None or card is None or g.result is not None or card not in g.hand:
        return frozenset()
    return frozenset(g.targets[g.hand.index(card)])


def is_dead(model: Model, card: str) -> bool:
    """A card with both its spaces covered, as the server says."""
    g = model.game
    return g is not None and g.result is None and card in g.dead


def playable(model: Model, card: str) -> bool:
    return bool(targets(model, card))


def choice_options(model: Model, cell: int) -> tuple[tuple[FiveEnds, ...], ...]:
    """The ways a placement at `cell` can form its sequences, when the choice is real."""
    g = model.game
    if g is None:
        return ()
    choice: Choice | None = next((c for c in g.choices if c.cell == cell), None)
    return choice.options if choice is not None else ()


def sequence_cells(model: Model, side: int | None = None) -> frozenset[int]:
    """Cells of completed sequences (of one side, or of all)."""
    g = model.game
    if g is None:
        return frozenset()
    cells: set[int] = set()
    for i, fives in enumerate(g.sequences):
        if side is None or i == side:
            for five in fives:
                cells.update(five_cells(five))
    return frozenset(cells)


def last_cell(game: GameMirror) -> int | None:
    """The space the last action placed a chip on or took one from."""
    last = game.last
    return None if last is None else notation.parse(last.action).cell


def final_board(model: Model) -> bool:
    """A finished game kept on screen after its table went back to waiting (someone
    left it), until the player moves on: the end is not snatched away."""
    g, table = model.game, model.table
    return (
        g is not None and g.result is not None and table is not None
        and not table.started and g.table == table.id and model.replay is None
    )  # fmt: skip


def computer_level(model: Model, seat: int) -> str | None:
    """The level of the computer that plays `seat` now, as the table last said."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return None
    return table.seats[seat].computer


def hand_over_seat(model: Model) -> int | None:
    """An away player's seat we could hand to the computer (the server decides if it
    has been long enough): the one on turn, else the first."""
    g = model.game
    if not model.seated or g is None or g.result is not None:
        return None
    away = [
        s for s, p in enumerate(g.players)
        if p.away and s != g.seat and computer_level(model, s) is None
    ]  # fmt: skip
    return g.turn if g.turn in away else away[0] if away else None


def is_computer_seat(model: Model, seat: int) -> bool:
    """A computer player's own seat (not an away person's it plays for)."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return False
    s = table.seats[seat]
    return s.computer is not None and not s.away
