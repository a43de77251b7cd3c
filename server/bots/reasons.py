"""Why a move is good, as data: what it completes, blocks and threatens.

Read from one seat's view only, like every player here. The coach (hints and
analysis) puts these into words; the block suite (tests) uses them to find
the positions where another side's winning four was open and blockable.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import EXCHANGE, PLACE, REMOVE, Action
from ..engine.cards import CARD_KIND, WILD
from ..engine.view import SeatView
from .judge import Judgement
from .threats import Fill
from .windows import to_win_flags


@dataclass(frozen=True)
class Reason:
    """What `action` does, from the seat's view. Cells are engine cells."""

    completes: bool = False  # makes a sequence for the seat's side
    wins: bool = False  # that sequence wins the game
    blocks: tuple[int, ...] = ()  # other sides' threat spaces it ends
    blocks_winning: tuple[int, ...] = ()  # ... of those, the fillable ones that win next turn
    makes: tuple[int, ...] = ()  # new threat spaces of the seat's side
    exchanges_dead: bool = False
    wild_idle: bool = False  # a two-eyed jack that completes, blocks and threatens nothing


def winning_threats(view: SeatView) -> tuple[int, ...]:
    """The spaces where another side's four would win the game next turn and
    that side may still fill (as far as the seat can tell)."""
    judge = Judgement(view)
    to_win = to_win_flags(view.needed, view.sequences)
    fill = Fill(view.hand, view.discard)
    cells: set[int] = set()
    threats = judge.threats
    assert threats is not None  # today's style judges threats
    for side in range(view.sides):
        if side != judge.side and to_win[side]:
            cells.update(c for c in threats.cells(side) if fill.by_others(c))
    return tuple(sorted(cells))


def move_reason(view: SeatView, action: Action) -> Reason:
    """What `action` (one of `view.legal`) does, as data."""
    if action.kind == EXCHANGE:
        return Reason(exchanges_dead=True)
    if action.kind not in (PLACE, REMOVE):
        return Reason()
    judge = Judgement(view)
    threats = judge.threats
    assert threats is not None  # today's style judges threats
    if action.kind == PLACE:
        changes = threats.changes(judge.chips, judge.packed, action.cell, judge.mark, 0)
    else:
        taken = judge.chips[action.cell]
        changes = threats.changes(judge.chips, judge.packed, action.cell, 0, taken)
    made, ended = threats.spaces_changed(changes)
    side = judge.side
    to_win = to_win_flags(view.needed, view.sequences)
    completes = any(s == side and c == action.cell for s, c in ended)
    blocks = tuple(sorted({c for s, c in ended if s != side}))
    open_wins = set(winning_threats(view))
    blocks_winning = tuple(c for c in blocks if c in open_wins)
    makes = tuple(sorted({c for s, c in made if s == side}))
    wild = action.kind == PLACE and CARD_KIND[action.card] == WILD
    return Reason(
        completes=completes,
        wins=completes and to_win[side],
        blocks=blocks,
        blocks_winning=blocks_winning,
        makes=makes,
        wild_idle=wild and not (completes or blocks or makes),
    )
