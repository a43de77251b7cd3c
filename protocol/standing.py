"""Parts of the `standings` reply: one person's figures, and one pair of teammates'."""

from .base import WireMap, wire
from .fields import integer, label, opt_level
from .limits import MAX_ID, MAX_NAME


@wire
class Standing(WireMap):
    """One person (or computer level) in the standings: `rating` is the Weng–Lin
    rating's conservative estimate (mu - 3 sigma) in tenths; `move_ms`, their average
    time per move in milliseconds; `computer`, the level if this is a computer."""

    name: str
    games: int
    wins: int
    losses: int
    draws: int
    sequences: int
    removed: int
    exchanged: int
    move_ms: int
    rating: int
    computer: str | None = None

    def validate(self) -> None:
        object.__setattr__(self, "name", label(self.name, "name", MAX_NAME))
        games = integer(self.games, "games")
        for name in ("wins", "losses", "draws"):
            integer(getattr(self, name), name, 0, games)
        for name in ("sequences", "removed", "exchanged", "move_ms"):
            integer(getattr(self, name), name)
        integer(self.rating, "rating", -MAX_ID, MAX_ID)
        opt_level(self.computer, "computer")


@wire
class Pair(WireMap):
    """Two teammates: the games they played on one side, and the wins among them."""

    first: str
    second: str
    games: int
    wins: int

    def validate(self) -> None:
        object.__setattr__(self, "first", label(self.first, "first", MAX_NAME))
        object.__setattr__(self, "second", label(self.second, "second", MAX_NAME))
        games = integer(self.games, "games")
        integer(self.wins, "wins", 0, games)
