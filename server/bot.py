"""A simple computer player that decides only from its seat's view.

It stands in for a player who dropped, when the table allows it. It looks one
move ahead: make a sequence if it can, otherwise grow its longest lines, break
the opponents' longest line with a one-eyed jack, exchange dead cards first.
"""

from __future__ import annotations

import random

from .engine.actions import DEAD, DRAW, PASS, PLACE, REMOVE, Action
from .engine.board import RAYS
from .engine.cards import TWO_EYED_JACKS
from .engine.view import SeatView

_MINE = {0: "bB", 1: "gG", 2: "rR"}


def _run_through(board: str, cell: int, own: str) -> list[int]:
    """Per direction, how many cells in a row through `cell` are `own` chips or
    corners, counting `cell` itself."""
    runs = []
    for back, forward in RAYS[cell]:
        length = 1
        for ray in (back, forward):
            for c in ray:
                if board[c] not in own and board[c] != "*":
                    break
                length += 1
        runs.append(length)
    return runs


def _place_score(board: str, cell: int, own: str) -> float:
    runs = _run_through(board, cell, own)
    best = max(runs)
    return (1000 if best >= 5 else 0) + best * 10 + sum(runs)


def _remove_score(board: str, cell: int) -> float:
    owner = board[cell].lower()
    return max(_run_through(board, cell, owner + owner.upper()))


def choose(view: SeatView, rng: random.Random) -> Action | None:
    """The action to take for the view's seat, or None if it has none."""
    legal = view.legal
    if not legal:
        return None
    by_kind: dict[int, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    if DRAW in by_kind:
        return by_kind[DRAW][0]
    if DEAD in by_kind:
        return by_kind[DEAD][0]
    assert view.seat is not None  # a spectator has no legal actions
    own = _MINE[view.seat_sides[view.seat]]
    scored: list[tuple[float, Action]] = []
    for action in by_kind.get(PLACE, ()):
        score = _place_score(view.board, action.cell, own)
        if action.card in TWO_EYED_JACKS:  # keep wild jacks for when they count
            score -= 15
        scored.append((score + rng.random(), action))
    for action in by_kind.get(REMOVE, ()):
        scored.append((_remove_score(view.board, action.cell) * 12 + rng.random(), action))
    if scored:
        return max(scored, key=lambda pair: pair[0])[1]
    return by_kind[PASS][0]
