"""The first stand-in player's logic (server/bot.py), kept so the bench can
measure the levels against it. Not offered as a level."""

from __future__ import annotations

from ..engine.actions import DRAW, EXCHANGE, PASS, PLACE, REMOVE, Action
from ..engine.board import RAYS
from ..engine.cards import TWO_EYED_JACKS
from ..engine.view import SeatView
from .levels import Seeded, decision_rng, playable

_MINE = {0: "bB", 1: "gG", 2: "rR"}


def _run_through(board: str, cell: int, own: str) -> list[int]:
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


class Baseline(Seeded):
    level = "baseline"

    def choose(self, view: SeatView) -> Action:
        legal = playable(view)
        rng = decision_rng(self.seed, view)
        by_kind: dict[int, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        if DRAW in by_kind:
            return by_kind[DRAW][0]
        if EXCHANGE in by_kind:
            return by_kind[EXCHANGE][0]
        own = _MINE[view.seat_sides[view.seat or 0]]
        scored: list[tuple[float, Action]] = []
        for action in by_kind.get(PLACE, ()):
            score = _place_score(view.board, action.cell, own)
            if action.card in TWO_EYED_JACKS:
                score -= 15
            scored.append((score + rng.random(), action))
        for action in by_kind.get(REMOVE, ()):
            scored.append((_remove_score(view.board, action.cell) * 12 + rng.random(), action))
        if scored:
            return max(scored, key=lambda pair: pair[0])[1]
        return by_kind[PASS][0]
