"""The coach: why a move is good (a hint's reason), and where a finished game was lost.

Pure: it reads the engine's games and views and imports neither trio nor the bots'
judgement. Both jobs look at the board the same plain way: the 192 lines of five
spaces, and for each side the *open spaces* that would complete one of its lines
(four of the five are its chips or a corner, the fifth empty; a line that would
share more than one chip with the side's sequences made does not count). Those spaces
are the side's threats; a threat that would give a side its last sequence wins the
game next turn.

- `reason(view, action)`: what a suggested action does, from the seat's view only:
  ``completes`` (a sequence), ``blocks`` (takes another side's threat), ``breaks``
  (removes a chip from another side's threat), ``makes_four`` (a new threat of its
  own), ``dead_card`` (a dead card exchanged), ``draw``, ``pass``, else ``builds`` (for a
  removal: it breaks nothing worth saying, so the client words it as the space it frees).
- `analyse(record)`: every move of a finished game (the record shows every hand,
  which the rules allow once it is over) where a stronger move was there: a win
  missed, a winning four of another side left open when a play stopped it, a
  two-eyed jack spent where a plain card would do (or that completed, blocked and
  threatened nothing), a chip removed that was in none of its side's lines worth
  breaking. Each with the better move. A move the record marks as the computer's,
  made for a person, is never judged: it is not the person's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sarja.protocol.cards import FIVES, FIVES_AT

from .bots import make_player
from .engine import Action, Game, SeatView, seat_view
from .engine.actions import DRAW, EXCHANGE, PASS, PLACE, REMOVE
from .engine.cards import CARD_KIND, NORMAL, REMOVER, WILD
from .engine.record import computer_moves, initial_game

REASONS = ("completes", "blocks", "breaks", "makes_four", "dead_card", "draw", "pass", "builds")
MISTAKES = ("missed_win", "left_four", "wasted_jack", "idle_removal")
CORNER = 4  # the engine's mark for a corner, which counts for every side
_MARKS = {".": 0, "b": 1, "g": 2, "r": 3, "B": 1, "G": 2, "R": 3, "*": CORNER}


@dataclass(frozen=True)
class Board:
    """Chips by mark (0 empty, side + 1, CORNER) and which are locked in a sequence."""

    chips: bytes
    locked: bytes

    @classmethod
    def of_game(cls, game: Game) -> Board:
        return cls(bytes(game.chips), bytes(game.locked))

    @classmethod
    def of_view(cls, view: SeatView) -> Board:
        return cls(bytes(_MARKS[ch] for ch in view.board), bytes(ch in "BGR" for ch in view.board))

    def threats(self, mark: int) -> set[int]:
        """The empty spaces that would complete one of `mark`'s lines."""
        spaces = set()
        chips, locked = self.chips, self.locked
        for line in FIVES:
            empty, own, held = -1, 0, 0
            for cell in line:
                v = chips[cell]
                if v in (mark, CORNER):
                    own += 1
                    held += locked[cell]
                elif v == 0 and empty < 0:
                    empty = cell
                else:
                    break
            else:
                if own == 4 and held <= 1:
                    spaces.add(empty)
        return spaces

    def line_worth(self, cell: int, mark: int) -> int:
        """The most of `mark`'s chips (corners included) in one line through `cell`
        that has no other side's chip: what removing the chip there breaks."""
        best = 0
        for line in FIVES_AT[cell]:
            values = [self.chips[c] for c in line]
            if all(v in (0, mark, CORNER) for v in values):
                best = max(best, sum(v in (mark, CORNER) for v in values))
        return best


def reason(view: SeatView, action: Action) -> str:
    """What `action` does for the view's seat (one of REASONS), from the view alone."""
    if action.kind == EXCHANGE:
        return "dead_card"
    if action.kind == DRAW:
        return "draw"
    if action.kind == PASS:
        return "pass"
    assert view.seat is not None
    mark = view.seat_sides[view.seat] + 1
    board = Board.of_view(view)
    others = [m for m in range(1, view.sides + 1) if m != mark]
    if action.kind == REMOVE:
        before = [board.threats(m) for m in others]
        after = _without(board, action.cell)
        if any(after.threats(m) != b for m, b in zip(others, before, strict=True)):
            return "breaks"
        return (
            "breaks" if board.line_worth(action.cell, board.chips[action.cell]) >= 3 else "builds"
        )
    if action.cell in board.threats(mark):
        return "completes"
    if any(action.cell in board.threats(m) for m in others):
        return "blocks"
    placed = _with(board, action.cell, mark)
    if placed.threats(mark) - board.threats(mark) - {action.cell}:
        return "makes_four"
    return "builds"


def _with(board: Board, cell: int, mark: int) -> Board:
    chips = bytearray(board.chips)
    chips[cell] = mark
    return Board(bytes(chips), board.locked)


def _without(board: Board, cell: int) -> Board:
    return _with(board, cell, 0)


# ----- the analysis of a finished game --------------------------------------


@dataclass(frozen=True)
class Mistake:
    at: int  # the move's index in the record's actions (the position before it)
    seat: int
    kind: str  # one of MISTAKES
    played: str  # the action taken, in notation
    better: str  # the stronger action, in notation
    cell: int  # where the threat is, or where the better move plays (-1: none)


def analyse(
    record: dict[str, object], progress: Callable[[int, int], None] = lambda done, total: None
) -> list[Mistake]:
    """Every move of the recorded game where a stronger one existed (see the module's
    docstring), in the order played; `progress(done, total)` after each move."""
    game = initial_game(record)
    actions = record.get("actions")
    if not isinstance(actions, list):
        return []
    theirs = computer_moves(record)  # the computer's for a person: never the person's mistake
    found = []
    for i, (seat, text) in enumerate(actions):
        action = Action.parse(str(text))
        mistake = None if i in theirs else judge_move(game, int(seat), action)
        if mistake is not None:
            found.append(Mistake(i, *mistake))
        game.apply(int(seat), action)
        progress(i + 1, len(actions))
    return found


def judge_move(game: Game, seat: int, action: Action) -> tuple[int, str, str, str, int] | None:
    """(seat, kind, played, better, cell) if `action` at this position was a mistake."""
    if action.kind not in (PLACE, REMOVE) or _wins(game, seat, action):
        return None
    legal = [a for a in game.legal_actions(seat) if a.kind in (PLACE, REMOVE)]
    for check in (_missed_win, _left_four, _wasted_jack, _idle_removal):
        found = check(game, seat, action, legal)
        if found is not None:
            kind, better, cell = found
            return seat, kind, str(action), str(better), cell
    return None


Found = tuple[str, Action, int] | None


def _missed_win(game: Game, seat: int, action: Action, legal: list[Action]) -> Found:
    winner = next((a for a in legal if a.kind == PLACE and _wins(game, seat, a)), None)
    return None if winner is None else ("missed_win", winner, winner.cell)


def _left_four(game: Game, seat: int, action: Action, legal: list[Action]) -> Found:
    mark = game.marks[seat]
    left = _winning_threats(_after(game, seat, action), mark)
    if not left:
        return None
    for other in _by_cost(legal):
        if not _winning_threats(_after(game, seat, other), mark):
            return "left_four", other, min(left)
    return None


def _wasted_jack(game: Game, seat: int, action: Action, legal: list[Action]) -> Found:
    if action.kind != PLACE or CARD_KIND[action.card] != WILD:
        return None
    plain = [a for a in legal if a.cell == action.cell and CARD_KIND[a.card] == NORMAL]
    if plain:
        return "wasted_jack", plain[0], action.cell
    if not _idle_jack(game, seat, action, Board.of_game(game)):
        return None
    better = _best(game, seat, [a for a in legal if CARD_KIND[a.card] == NORMAL])
    return None if better is None else ("wasted_jack", better, better.cell)


def _idle_removal(game: Game, seat: int, action: Action, legal: list[Action]) -> Found:
    if action.kind != REMOVE:
        return None
    board = Board.of_game(game)
    owner = board.chips[action.cell]
    if _without(board, action.cell).threats(owner) != board.threats(owner):
        return None
    if board.line_worth(action.cell, owner) >= 3:
        return None
    better = _best(game, seat, [a for a in legal if CARD_KIND[a.card] != REMOVER])
    return None if better is None else ("idle_removal", better, action.cell)


def _best(game: Game, seat: int, among: list[Action]) -> Action | None:
    """Medium's choice among `among` (the bots' judgement, through their interface)."""
    if not among:
        return None
    view = seat_view(game, seat)._replace(legal=tuple(among))
    return make_player("medium", seed=0).choose(view)


def _after(game: Game, seat: int, action: Action) -> Game:
    copy = game.copy()
    copy.apply(seat, action)
    return copy


def _wins(game: Game, seat: int, action: Action) -> bool:
    if action.kind != PLACE or action.cell not in Board.of_game(game).threats(game.marks[seat]):
        return False
    outcome = _after(game, seat, action).outcome
    return outcome is not None and outcome.side == game.side_of(seat)


def _winning_threats(game: Game, mark: int) -> set[int]:
    """The other sides' threats that would give them their last sequence."""
    if game.outcome is not None:
        return set()
    board = Board.of_game(game)
    spaces: set[int] = set()
    for side, made in enumerate(game.sequences):
        if side + 1 != mark and len(made) + 1 >= game.needed:
            spaces |= board.threats(side + 1)
    return spaces


def _by_cost(legal: list[Action]) -> Iterator[Action]:
    """Plain cards first, then one-eyed jacks, two-eyed jacks last: the cheapest stop."""
    order = {NORMAL: 0, REMOVER: 1, WILD: 2}
    yield from sorted(legal, key=lambda a: order[CARD_KIND[a.card]])


def _idle_jack(game: Game, seat: int, action: Action, board: Board) -> bool:
    """A wild jack that completed, blocked and threatened nothing."""
    mark = game.marks[seat]
    if action.cell in board.threats(mark):
        return False
    if any(action.cell in board.threats(m) for m in set(game.marks) if m != mark):
        return False
    return not (_with(board, action.cell, mark).threats(mark) - board.threats(mark))
