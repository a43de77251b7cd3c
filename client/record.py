"""`sarja-client --replay RECORD.json`: a finished game read from its record.

A game record (docs/records.md) holds the deck order and every action, so the rules
engine can play the game again, move by move; this is the one place the client imports
the engine, and only to read a record, which reveals everything anyway. Each position is
turned into what a spectator's `snapshot` would say, plus every seat's hand (replay.py
shows them).
"""

from __future__ import annotations

import json
from pathlib import Path

from sarja.protocol.cards import CARD_CODES, LAYOUT_CODES
from sarja.protocol.changes import Change
from sarja.protocol.limits import MAX_NAME
from sarja.protocol.messages import Welcome
from sarja.server.engine import Action, EngineError, Game, RecordError, dead_cards
from sarja.server.engine.actions import DRAW
from sarja.server.engine.record import computer_moves, initial_game
from sarja.server.present import snapshot

from .model import Model, Replay, Step
from .replay import go
from .words.game import seat_name


def load(path: Path) -> Model:
    """A model showing the game recorded in `path`, at its start; RecordError or
    OSError if the file cannot be read as a record."""
    text = path.read_bytes()
    try:
        data = json.loads(text.decode("utf-8"))
    except ValueError as err:  # not UTF-8 (UnicodeDecodeError is one), or not JSON
        raise RecordError("bad_record", f"A game record is JSON: {err}") from err
    steps = record_steps(data)
    model = Model(address=str(path.name), name="", named=True, link="replay")
    model.welcome = Welcome(
        version=2, session="replay", resume="r" * 43, server_id="replay",
        layout=LAYOUT_CODES, server="Replay", shapes=(), _trusted=True,
    )  # fmt: skip
    model.replay = Replay(path.name, steps, record=data)
    go(model, 0)
    return model


def record_steps(data: dict[str, object]) -> list[Step]:
    """Every position of the recorded game, from the deal to the end."""
    game = initial_game(data)
    names = _names(data.get("names"), game.players)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise RecordError("bad_record", "The record lists no actions.")
    made = computer_moves(data)  # the computer's, for a person: told as such
    steps = [_step(game, names, ())]
    last = False  # the last move (a draw is none) was one of those
    try:
        for i, (seat, notation) in enumerate(actions):
            action = Action.parse(str(notation))
            events = game.apply(int(seat), action)
            if action.kind != DRAW:
                last = i in made
            steps.append(_step(game, names, tuple(events), i in made, last))
    except (ValueError, TypeError, EngineError) as err:  # a move the rules refuse, too
        raise RecordError("bad_record", f"The record does not replay: {err}") from err
    return steps


def _names(given: object, players: int) -> list[str]:
    names = [seat_name(i) for i in range(players)]
    if isinstance(given, list):
        for i, name in enumerate(given[:players]):
            text = " ".join(str(name).split())[:MAX_NAME]
            if text and text.isprintable():
                names[i] = text
    return names


def _step(
    game: Game, names: list[str], made: tuple[Change, ...], by_computer: bool = False,
    last_by_computer: bool = False,
) -> Step:  # fmt: skip
    hands = tuple(tuple(CARD_CODES[c] for c in sorted(h)) for h in game.hands)
    # What a spectator's snapshot would say, built as the server builds it.
    away = [False] * game.players
    snap = snapshot("replay", game.version, game, None, names, away, None, (), last_by_computer)
    dead = tuple(
        tuple(CARD_CODES[c] for c in dead_cards(game, seat)) for seat in range(game.players)
    )
    return Step(snap, made, hands, dead, by_computer)
