"""Who sits at a table: how many players, how many sides, and the house rules.

>>> a = Arrangement.of(6, teams=3)
>>> a.sides, a.hand_size, a.needed, [a.side_of(s) for s in range(6)]
(3, 5, 1, [0, 1, 2, 0, 1, 2])
>>> try:
...     Arrangement.of(5)
... except ArrangementError as err:
...     print(err.code, err.message)
bad_player_count Sarja is played by 2, 3, 4, 6, 8, 9, 10 or 12 players, not 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ArrangementError

# Hand size by player count (the rules table); 6 and 12 are the same for 2 or 3 teams.
DEFAULT_HAND_SIZE = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}
MIN_HAND_SIZE, MAX_HAND_SIZE = 1, 10
# At most half the 104 cards are dealt, so there is always a draw pile.
MAX_DEALT = 52
SIDE_COLOURS = ("blue", "green", "red")


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Rules a table may change. ``hand_size=None`` means the table's default."""

    hand_size: int | None = None
    manual_draw: bool = False


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A checked seating plan. Build it with :meth:`of`, which refuses bad ones."""

    players: int
    sides: int
    hand_size: int
    manual_draw: bool = False

    @classmethod
    def of(
        cls, players: int, teams: int | None = None, rules: HouseRules = HouseRules()
    ) -> Arrangement:
        if players not in DEFAULT_HAND_SIZE:
            raise ArrangementError(
                "bad_player_count",
                f"Sarja is played by 2, 3, 4, 6, 8, 9, 10 or 12 players, not {players}.",
            )
        if players <= 3:
            # Two or three players play alone: one side each.
            if teams not in (None, players):
                raise ArrangementError(
                    "bad_team_count",
                    f"{players} players play one against {'one' if players == 2 else 'another'};"
                    f" there are {players} sides, not {teams}.",
                )
            sides = players
        else:
            possible = [t for t in (2, 3) if players % t == 0]
            if teams is None:
                if len(possible) > 1:
                    raise ArrangementError(
                        "team_count_needed",
                        f"{players} players can play as 2 or 3 teams; choose one.",
                    )
                teams = possible[0]
            if teams not in possible:
                raise ArrangementError(
                    "bad_team_count",
                    f"{players} players can't split evenly into {teams} teams;"
                    f" they can play as {' or '.join(map(str, possible))} teams.",
                )
            sides = teams
        hand_size = DEFAULT_HAND_SIZE[players] if rules.hand_size is None else rules.hand_size
        if not MIN_HAND_SIZE <= hand_size <= MAX_HAND_SIZE:
            raise ArrangementError(
                "bad_hand_size",
                f"A hand must hold {MIN_HAND_SIZE} to {MAX_HAND_SIZE} cards, not {hand_size}.",
            )
        if players * hand_size > MAX_DEALT:
            raise ArrangementError(
                "bad_hand_size",
                f"{players} players with {hand_size} cards each would deal"
                f" {players * hand_size} cards; at most {MAX_DEALT} may be dealt"
                f" ({MAX_DEALT // players} each), so there is a draw pile.",
            )
        return cls(players, sides, hand_size, rules.manual_draw)

    @property
    def needed(self) -> int:
        """Sequences a side needs to win: two with two sides, one with three."""
        return 2 if self.sides == 2 else 1

    @property
    def per_side(self) -> int:
        return self.players // self.sides

    @property
    def rules(self) -> HouseRules:
        default = DEFAULT_HAND_SIZE[self.players]
        return HouseRules(None if self.hand_size == default else self.hand_size, self.manual_draw)

    def side_of(self, seat: int) -> int:
        """Seats alternate between sides: A1 B1 C1 A2 B2 C2 ..."""
        return seat % self.sides

    def seats_of(self, side: int) -> list[int]:
        return list(range(side, self.players, self.sides))
