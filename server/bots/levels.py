"""The easy and medium computer players, and what every level shares."""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.actions import DRAW, EXCHANGE, PLACE, REMOVE, Action
from ..engine.cards import CARD_KIND, NORMAL
from ..engine.view import SeatView
from .judge import NOW, Judgement, Style


class Bot(Protocol):
    """What a computer player is to the server: the action to take for the view's seat."""

    level: str

    def choose(self, view: SeatView) -> Action: ...


def new_seed() -> int:
    return random.SystemRandom().getrandbits(64)


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """A random source fixed by the seed and what the seat sees now, so the
    same view always gets the same choice, however often it is asked.

    A string seed is hashed with SHA-512 by `random`, the same in every process."""
    return random.Random(
        f"{seed}|{view.version}|{view.seat}|{view.board}|{view.hand}|{view.discard}"
        f"|{view.exchanged}|{view.turn}"
    )


def playable(view: SeatView) -> tuple[Action, ...]:
    legal = view.legal
    if not legal:
        raise ValueError("the view's seat has nothing to do now")
    return legal


def housekeeping(legal: tuple[Action, ...]) -> Action | None:
    """What every sensible level does first: a lone choice, a waiting draw
    (drawing late can lose the card), then a dead-card exchange (a free new card)."""
    if len(legal) == 1:
        return legal[0]
    for action in legal:
        if action.kind == DRAW:
            return action
    for action in legal:
        if action.kind == EXCHANGE:
            return action
    return None


class Seeded:
    """A level whose choices a seed fixes (None: one at random)."""

    level: str

    def __init__(self, seed: int | None = None) -> None:
        self.seed = new_seed() if seed is None else seed


class Medium(Seeded):
    """The best action by one-move judgement (in `style`: hard-v1's medium
    keeps an older one); ties go to the first legal one."""

    level = "medium"

    def __init__(self, seed: int | None = None, style: Style = NOW) -> None:
        super().__init__(seed)
        self.style = style

    def choose(self, view: SeatView) -> Action:
        legal = playable(view)
        early = housekeeping(legal)
        if early is not None:
            return early
        ranked = Judgement(view, style=self.style).ranked(legal)
        return ranked[0][2] if ranked else legal[0]


class Easy(Seeded):
    """Judges as medium does but like a beginner: it looks only at its own
    lines (it never blocks on purpose), misjudges by a margin, sometimes plays
    any card, and forgets to exchange dead cards half the time."""

    level = "easy"
    NOISE = 18.0
    RANDOM_PLAY = 0.15
    FORGETS_DEAD = 0.5

    def choose(self, view: SeatView) -> Action:
        legal = playable(view)
        if len(legal) == 1:
            return legal[0]
        rng = decision_rng(self.seed, view)
        plays = [a for a in legal if a.kind in (PLACE, REMOVE)]
        for action in legal:
            if action.kind == DRAW:
                return action
        dead = [a for a in legal if a.kind == EXCHANGE]
        if dead and (not plays or rng.random() >= self.FORGETS_DEAD):
            return dead[0]
        if not plays:
            return legal[0]
        if rng.random() < self.RANDOM_PLAY:
            plain = [a for a in plays if CARD_KIND[a.card] == NORMAL]
            return rng.choice(plain or plays)
        ranked = Judgement(view, defence=0.0).ranked(plays)
        return max(ranked, key=lambda t: t[0] + rng.gauss(0.0, self.NOISE))[2]
