"""Computer players that decide from one seat's view, at three levels.

>>> import random
>>> from sarja.server.engine import Arrangement, Game, seat_view
>>> game = Game.new(Arrangement.of(2), random.Random(3))
>>> player = make_player("medium", seed=1)
>>> view = seat_view(game, game.turn)
>>> player.choose(view) in view.legal
True

They import only the engine, so a server, a practice game or a process of its
own can run them alike. docs/bots.md describes the levels.
"""

from __future__ import annotations

from sarja.protocol.cards import LEVELS

from .baseline import Baseline
from .levels import Bot, Easy, Medium
from .search import DEFAULT_THINK_TIME, Hard

__all__ = ["DEFAULT_THINK_TIME", "LEVELS", "Bot", "make_player"]


def make_player(
    level: str,
    seed: int | None = None,
    think_time: float | None = None,
    *,
    simulations: int | None = None,
) -> Bot:
    """A computer player of `level` ("easy", "medium" or "hard").

    `seed` fixes its choices (the same view always gets the same action);
    None seeds it at random. `think_time` (seconds) and `simulations` bound
    hard's search; the other levels decide at once and ignore them."""
    if level == "easy":
        return Easy(seed)
    if level == "medium":
        return Medium(seed)
    if level == "hard":
        return Hard(seed, think_time, simulations)
    if level == "baseline":  # the first stand-in's logic, kept for the bench
        return Baseline(seed)
    raise ValueError(f"no computer level {level!r}; choose one of {', '.join(LEVELS)}")
