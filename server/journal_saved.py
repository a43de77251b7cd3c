"""What the journal gives back: tables, games and actions as they were kept, a finished
game's summary, and the replay of a kept game."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from sarja.protocol.changes import Change

from .engine import Action, Arrangement, Game, HouseRules


@dataclass
class Result:
    """What the journal keeps of a finished game for good (its record holds the rest)."""

    table_name: str
    players: int
    teams: int
    result: str  # "win" or "draw"
    side: int | None  # the winning side
    moves: int
    seats: list[tuple[str | None, str, str | None]]  # (guest id, name, computer level)
    record: str | None = None  # the record file's name
    table_id: str = ""
    game: int = 0
    finished_at: float | None = None


@dataclass
class SavedAction:
    seat: int
    action: str  # notation
    action_id: int | None
    version: int
    reshuffles: list[list[int]]  # reshuffles this action caused, each a deck order
    stand_in: bool = False  # the computer made it for a person's seat


@dataclass
class SavedGame:
    number: int
    cut: list[list[list[int]]]  # rounds of [seat, card]
    deck: list[int]
    actions: list[SavedAction] = field(default_factory=list)


@dataclass
class SavedTable:
    id: str
    number: int
    name: str
    players: int
    teams: int
    hand_size: int
    manual_draw: bool
    takeover: str | None  # the level that stands in for an away player
    version: int
    seats: list[tuple[str, str, tuple[str, ...]] | None]  # (guest id, name, keys) per seat
    game: SavedGame | None
    computers: list[tuple[str, str] | None] = field(default_factory=list)  # (level, name)
    handed: dict[int, str] = field(default_factory=dict)  # seat -> level, person away
    # Who was watching (guest id, name, keys), to watch again on resuming.
    spectators: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    hints: bool = False  # its creator allows hints from the coach
    # A match's (first side to this many wins, its number, the winner of each game).
    match: tuple[int, int, list[int | None]] | None = None
    turn_clock: int = 0  # seconds a person has for a turn; 0: no clock
    clock_runs: dict[int, int] = field(default_factory=dict)  # seat -> clocks out in a row
    # The game after which a seat was freed, making the table a waiting room again.
    waiting_after: int | None = None
    creator: str | None = None  # the id of the guest that made the table
    creator_person: str | None = None  # the hash of their person key

    def arrangement(self) -> Arrangement:
        return Arrangement.of(
            self.players, self.teams, HouseRules(self.hand_size, self.manual_draw)
        )

    def names(self) -> list[str]:
        """Who sat in each seat: a person's name, a computer's, or "Seat n"."""
        computers = self.computers or [None] * len(self.seats)
        return [
            held[1] if held else computer[1] if computer else f"Seat {i + 1}"
            for i, (held, computer) in enumerate(zip(self.seats, computers, strict=True))
        ]


def replay_game(
    arrangement: Arrangement,
    kept: SavedGame,
    rng: random.Random | None = None,
    each: Callable[[SavedAction, list[Change]], None] | None = None,
) -> Game:
    """A kept game, replayed action by action with its reshuffles as they happened;
    later reshuffles come from `rng`; `each` is told every action's changes (the
    table's history). EngineError if it does not replay."""
    cut = tuple(tuple((s, c) for s, c in r) for r in kept.cut)
    reshuffles = [tuple(order) for a in kept.actions for order in a.reshuffles]
    game = Game(arrangement, cut, kept.deck, rng=rng, replay_reshuffles=reshuffles)
    for a in kept.actions:
        events = game.apply(a.seat, Action.parse(a.action))
        if each is not None:
            each(a, events)
    return game
