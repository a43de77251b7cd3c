"""Hard and medium as they were before threats were judged as threats and the
other hands read by a likelihood: `hard-v1` and `medium-v1` (frozen, never
levels), so bench/bots.py can measure today's players against them.

They are server/bots' players with the old parts put in: the old judgement
(`V1`: a four's window worth much by itself, threats not counted by the space
they need), the old reading (a pass-or-fail test of each dealt hand, with no
count of dead cards kept) and the old dealing (a hand dealt again until it
passes). Do not improve them: their worth is that they stay the same, which
tests/test_hard_v1_pinned.py checks decision by decision.
"""

from __future__ import annotations

import random

from sarja.server.bots.inference import Likely, hand_filters
from sarja.server.bots.judge import Style
from sarja.server.bots.levels import Medium
from sarja.server.bots.search import Hard
from sarja.server.bots.windows import Values
from sarja.server.bots.worlds import Likelihood, WorldMaker
from sarja.server.engine import SeatView

# A four's window was worth 110 (1,500 to a side one sequence from winning):
# what a four threatened was counted by its windows, so two fours on one
# space counted twice.
V1 = Style(
    Values(
        build=(0.0, 1.0, 5.0, 22.0, 110.0, 1000.0),
        build_to_win=(0.0, 1.0, 6.0, 40.0, 1500.0, 100000.0),
    ),
    threats=False,
)


def read(view: SeatView, maker: WorldMaker) -> dict[int, Likely]:
    """The other hands' tests, judged in V1; a dead card kept says nothing."""
    return hand_filters(view, maker, V1, dead_cards=False)


class FilteredWorlds(WorldMaker):
    def dealt(
        self,
        rng: random.Random,
        cards: list[int],
        size: int,
        test: Likelihood,
        tries: int,
    ) -> list[int]:
        """A hand dealt again, `tries` times at most, until it passes its test
        (else the last one dealt)."""
        for _ in range(tries - 1):
            if test(cards[:size]):
                break
            rng.shuffle(cards)
        return cards


class HardV1(Hard):
    level = "hard-v1"

    def __init__(
        self, seed: int | None = None, think_time: float | None = None,
        simulations: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(
            seed, think_time, simulations, worlds=FilteredWorlds, style=V1, read=read,
            confidence=1.0,  # hard's default then, pinned here as it changed since
        )  # fmt: skip


class MediumV1(Medium):
    level = "medium-v1"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, V1)
