"""`sarja-client --replay RECORD.json`: step through a finished game, every hand shown.

A game record (docs/records.md) holds the deck order and every action, so the rules
engine can play the game again, move by move; this is the one place the client imports
the engine, and only to read a record, which reveals everything anyway. Each position is
turned into what a spectator's `snapshot` would say, plus every seat's hand, and shown on
the same board screen as a live game; the log is written from each move's changes by the
same sentences as in play.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from sarja.protocol.cards import CARD_CODES, LAYOUT_CODES
from sarja.protocol.limits import MAX_NAME
from sarja.protocol.messages import (
    Change,
    Snapshot,
    Welcome,
)
from sarja.protocol.mirror import GameMirror
from sarja.server.engine import Action, Game, RecordError, dead_cards
from sarja.server.engine.record import initial_game
from sarja.server.present import snapshot

from .model import Fragment, LogLine, Model, change_parts


@dataclass(frozen=True)
class Step:
    """One position of the game: after `at` actions."""

    snapshot: Snapshot
    changes: tuple[Change, ...]  # what the action leading here changed (none at 0)
    hands: tuple[tuple[str, ...], ...]  # every seat's hand, sorted
    dead: tuple[tuple[str, ...], ...]  # every seat's dead cards


class Replay:
    """The positions of one recorded game, and which one is on screen."""

    def __init__(self, title: str, steps: list[Step]) -> None:
        self.title = title
        self.steps = steps
        self.at = 0
        # The whole game's log, told once, and where each step's lines end in it.
        self._log: list[LogLine] = []
        self._ends: list[int] = []

    @property
    def step(self) -> Step:
        return self.steps[self.at]

    def go(self, model: Model, at: int) -> None:
        """Show the position after `at` actions (clamped to the game)."""
        self.at = max(0, min(at, len(self.steps) - 1))
        step = self.step
        if model.game is None:
            model.game = GameMirror(step.snapshot)
        else:
            model.game.reset(step.snapshot)
        # The log holds what happened up to here, as a spectator's log would.
        if not self._ends:
            self._tell(model, model.game)
        model.log.clear()
        model.log.extend(self._log[: self._ends[self.at]])
        if self.at == 0:
            model.log.append(LogLine("info", _start(model, step)))

    def _tell(self, model: Model, game: GameMirror) -> None:
        """Every step's changes in the log's words: they depend only on the players'
        names and sides, the same at every step (a replay has no "You")."""
        self._ends.append(0)
        for step in self.steps[1:]:
            for change in step.changes:
                parts = change_parts(model, game, change)
                if parts:
                    self._log.append(LogLine(change.kind, tuple(parts)))
            self._ends.append(len(self._log))


def _start(model: Model, step: Step) -> tuple[Fragment, ...]:
    game = step.snapshot
    first = game.players[game.first].name
    return (("", f"The game begins: {first} plays first. → steps forward, ← back."),)


def load(path: Path) -> Model:
    """A model showing the game recorded in `path`, at its start; RecordError or
    OSError if the file cannot be read as a record."""
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError as err:
        raise RecordError("bad_record", f"A game record is JSON: {err}") from err
    steps = record_steps(data)
    model = Model(address=str(path.name), name="", named=True, link="replay")
    model.welcome = Welcome(
        version=2, session="replay", resume="r" * 43, server_id="replay",
        layout=LAYOUT_CODES, server="Replay", shapes=(), _trusted=True,
    )  # fmt: skip
    model.replay = Replay(path.name, steps)
    model.replay.go(model, 0)
    return model


def record_steps(data: dict[str, object]) -> list[Step]:
    """Every position of the recorded game, from the deal to the end."""
    game = initial_game(data)
    names = _names(data.get("names"), game.players)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("bad_record", "The record lists no actions.")
    steps = [_step(game, names, ())]
    try:
        for seat, notation in actions:
            events = game.apply(int(seat), Action.parse(str(notation)))
            steps.append(_step(game, names, tuple(events)))
    except (ValueError, TypeError) as err:
        raise RecordError("bad_record", f"The record does not replay: {err}") from err
    return steps


def _names(given: object, players: int) -> list[str]:
    names = [f"Seat {i + 1}" for i in range(players)]
    if isinstance(given, list):
        for i, name in enumerate(given[:players]):
            text = " ".join(str(name).split())[:MAX_NAME]
            if text and text.isprintable():
                names[i] = text
    return names


def _step(game: Game, names: list[str], made: tuple[Change, ...]) -> Step:
    hands = tuple(tuple(CARD_CODES[c] for c in sorted(h)) for h in game.hands)
    # What a spectator's snapshot would say, built as the server builds it.
    away = [False] * game.players
    snap = snapshot("replay", game.version, game, None, names, away, last_id=None)
    dead = tuple(
        tuple(CARD_CODES[c] for c in dead_cards(game, seat)) for seat in range(game.players)
    )
    return Step(snap, made, hands, dead)
