"""One-move judgement: what each legal action is worth to the side that takes it.

Medium plays the best of these; easy plays them badly on purpose; hard uses
them to pick which actions are worth searching, and a cheaper form of the same
judgement to play out simulated games.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.actions import PLACE, REMOVE, Action
from ..engine.cards import CARD_KIND, WILD
from ..engine.view import SeatView
from .threats import Fill, Threats
from .windows import CELL_WINDOWS, VALUES, Tables, Values, pack, tables, to_win_flags

# What holding a jack is worth: a wild jack is spent only where it gains more
# than this, a one-eyed jack only on a chip whose removal does.
WILD_COST = 60.0
REMOVE_COST = 45.0
# How much another side's line counts against ours: blocking a four of theirs
# comes before making a four of our own, since they move first.
DEFENCE = 1.1
# What a threat is worth, by the space it needs (two fours needing one space
# are one threat), if its side can still fill that space: a threat of the
# side's first sequences, and one that wins the game.
THREAT = 200.0
THREAT_TO_WIN = 1500.0
# Blocking another side's fillable four that wins the game next turn comes
# before anything but winning now: no number of threats of one's own
# outweighs it (they move first). Below hard's WINS_NOW (50,000).
BLOCK_WIN = 20000.0
# A two-eyed jack spent without completing a sequence, blocking a four or
# making a threat is wasted: a plain card does that work.
WILD_IDLE = 300.0


@dataclass(frozen=True)
class Style:
    """How the judgement judges: what a live window is worth, and whether what
    a move does to every side's threats counts (threats.py). Today's levels
    judge with NOW; hard-v1 (bench/hard_v1) with the style of before threats."""

    values: Values = VALUES
    threats: bool = True


NOW = Style()

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
    threats: Threats | None = None,
    fill: Fill | None = None,
) -> float | None:
    """The change in the side's worth if it takes `action`; None for actions
    that are not plays (draw, exchange, pass). With `threats` (and the seat's
    `fill`), what the move does to every side's threats counts too."""
    kind = action.kind
    if kind == PLACE:
        delta = table.place[mark]
        score = 0.0
        for w in CELL_WINDOWS[action.cell]:
            score += delta[packed[w]]
        wild = CARD_KIND[action.card] == WILD
        if wild:
            score -= wild_cost
        if threats is None:
            return score
        changes = threats.changes(chips, packed, action.cell, mark, 0)
    elif kind == REMOVE:
        delta = table.remove[chips[action.cell]]
        score = 0.0
        for w in CELL_WINDOWS[action.cell]:
            score += delta[packed[w]]
        score -= remove_cost
        if threats is None:
            return score
        wild = False
        changes = threats.changes(chips, packed, action.cell, 0, chips[action.cell])
    else:
        return None
    worth, useful = threat_value(threats, changes, table, fill)
    if wild and not useful and score < WINS_NOW_SCORE:
        worth -= WILD_IDLE
    return score + worth


# A placement's window worth this high makes a sequence that wins.
WINS_NOW_SCORE = 50000.0


def threat_value(
    threats: Threats,
    changes: list[tuple[int, int, int]],
    table: Tables,
    fill: Fill | None,
) -> tuple[float, bool]:
    """What `changes` (Threats.changes) do to the threats, from the table's
    side: its threats made count for it, other sides' threats ended for it
    (DEFENCE times), and the reverse against it; only threats on spaces their
    side can still fill count. Also whether the move made a threat of the
    side's, or ended (completed or blocked) any four."""
    if not changes:
        return 0.0, False
    side = table.side
    to_win = table.to_win
    made, ended = threats.spaces_changed(changes)
    worth = 0.0
    useful = bool(ended)
    for sign, spaces in ((1.0, made), (-1.0, ended)):
        for s, cell in spaces:
            ours = s == side
            if fill is not None and not (fill.by_us(cell) if ours else fill.by_others(cell)):
                continue
            value = THREAT_TO_WIN if to_win[s] else THREAT
            if ours:
                useful = useful or sign > 0
                worth += sign * value
            else:
                worth -= sign * table.defence * value
                if sign < 0 and to_win[s] and table.defence:
                    worth += BLOCK_WIN
    return worth, useful


class Judgement:
    """The view's board read once, for scoring many actions."""

    __slots__ = ("chips", "packed", "table", "mark", "side", "threats", "fill")

    def __init__(self, view: SeatView, defence: float = DEFENCE, style: Style = NOW) -> None:
        self.side = my_side(view)
        self.mark = self.side + 1
        self.chips = board_chips(view.board)
        self.packed = pack(self.chips, view.sequences)
        self.table = tables(
            self.side, view.sides, to_win_flags(view.needed, view.sequences), defence, style.values
        )
        self.threats = Threats(self.chips, self.packed, view.sides) if style.threats else None
        self.fill = Fill(view.hand, view.discard) if style.threats else None

    def score(self, action: Action) -> float | None:
        return score_action(
            action, self.chips, self.packed, self.table, self.mark,
            threats=self.threats, fill=self.fill,
        )  # fmt: skip

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
