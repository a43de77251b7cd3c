"""One-move judgement: what each legal action is worth to the side that takes it.

Medium plays the best of these; easy plays them badly on purpose; hard uses
them to pick which actions are worth searching, and a cheaper form of the same
judgement to play out simulated games.
"""

from __future__ import annotations

from collections.abc import Iterable

from sarja.server.engine.actions import PLACE, REMOVE, Action
from sarja.server.engine.cards import CARD_KIND, WILD
from sarja.server.engine.view import SeatView

from .windows import CELL_WINDOWS, Tables, pack, tables, to_win_flags

# What holding a jack is worth: a wild jack is spent only where it gains more
# than this, a one-eyed jack only on a chip whose removal does.
WILD_COST = 60.0
REMOVE_COST = 45.0
# How much another side's line counts against ours: blocking a four of theirs
# comes before making a four of our own, since they move first.
DEFENCE = 1.1

# Board characters (view.board) to engine marks; upper case is a locked chip.
_MARKS = {".": 0, "b": 1, "g": 2, "r": 3, "B": 1, "G": 2, "R": 3, "*": 4}
_MARK_TABLE = bytes(_MARKS.get(chr(i), 0) for i in range(256))


def board_chips(board: str) -> bytearray:
    """The view's board as the engine's marks, one byte per space."""
    return bytearray(board.encode("ascii").translate(_MARK_TABLE))


def board_locked(board: str) -> bytearray:
    return bytearray(1 if ch in "BGR" else 0 for ch in board)


def my_side(view: SeatView) -> int:
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to play for")
    return view.seat_sides[seat]


def score_action(
    action: Action,
    chips: bytearray,
    packed: list[int],
    table: Tables,
    mark: int,
    wild_cost: float = WILD_COST,
    remove_cost: float = REMOVE_COST,
) -> float | None:
    """The change in the side's worth if it takes `action`; None for actions
    that are not plays (draw, exchange, pass)."""
    kind = action.kind
    if kind == PLACE:
        delta = table.place[mark]
        score = 0.0
        for w in CELL_WINDOWS[action.cell]:
            score += delta[packed[w]]
        if CARD_KIND[action.card] == WILD:
            score -= wild_cost
        return score
    if kind == REMOVE:
        delta = table.remove[chips[action.cell]]
        score = 0.0
        for w in CELL_WINDOWS[action.cell]:
            score += delta[packed[w]]
        return score - remove_cost
    return None


class Judgement:
    """The view's board read once, for scoring many actions."""

    __slots__ = ("chips", "packed", "table", "mark", "side")

    def __init__(self, view: SeatView, defence: float = DEFENCE) -> None:
        self.side = my_side(view)
        self.mark = self.side + 1
        self.chips = board_chips(view.board)
        self.packed = pack(self.chips, view.sequences)
        self.table = tables(
            self.side, view.sides, to_win_flags(view.needed, view.sequences), defence
        )

    def score(self, action: Action) -> float | None:
        return score_action(action, self.chips, self.packed, self.table, self.mark)

    def ranked(self, actions: Iterable[Action]) -> list[tuple[float, int, Action]]:
        """Plays best first, as (score, position in `actions`, action); ties
        keep the order given."""
        scored = []
        for i, action in enumerate(actions):
            s = self.score(action)
            if s is not None:
                scored.append((s, i, action))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return scored
