"""The game record: everything needed to replay a game exactly, as JSON.

The format is documented in docs/records.md. It holds the deck order and every
reshuffle, so it reveals all hidden information: it is written only once the
game is over.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .actions import Action
from .arrangement import Arrangement, HouseRules
from .board import cell_name
from .cards import card_code, parse_card
from .errors import EngineError, RecordError
from .game import Game

FORMAT = "sarja-record"
FORMAT_VERSION = 1


def game_record(
    game: Game, names: list[str] | None = None, computer_moves: Iterable[int] = ()
) -> dict[str, Any]:
    """The record of `game` (finished or not) as JSON-ready data; `computer_moves`: the
    indices in its actions of those the computer made for a person's seat."""
    a = game.arrangement
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "players": a.players,
        "sides": a.sides,
        "hand_size": a.hand_size,
        "manual_draw": a.manual_draw,
        "cut": [[[seat, card_code(card)] for seat, card in r] for r in game.cut],
        "first": game.first,
        "deck": [card_code(c) for c in game.deck],
        "reshuffles": [[card_code(c) for c in order] for order in game.reshuffles],
        "actions": [[seat, str(action)] for seat, action in game.history],
        "outcome": _outcome_of(game),
    }
    if names is not None:
        record["names"] = list(names)
    made = sorted(set(computer_moves))
    if made:
        record["computer_moves"] = made
    return record


def computer_moves(record: dict[str, Any]) -> frozenset[int]:
    """The indices in the record's actions of the moves the computer made for a person
    (none if the record does not say: an older record, or none was); RecordError if
    the key is there and malformed."""
    made = record.get("computer_moves", [])
    actions = record.get("actions")
    count = len(actions) if isinstance(actions, list) else 0
    if not isinstance(made, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < count for i in made
    ):
        raise RecordError("bad_record", "computer_moves must be indices of the record's actions.")
    return frozenset(made)


def _outcome_of(game: Game) -> dict[str, Any] | None:
    if game.outcome is None:
        return None
    return {
        "result": game.outcome.result,
        "side": game.outcome.side,
        "sequences": [
            [f"{cell_name(f[0])}-{cell_name(f[4])}" for f in fives] for fives in game.sequences
        ],
    }


def record_json(
    game: Game, names: list[str] | None = None, computer_moves: Iterable[int] = ()
) -> str:
    return json.dumps(game_record(game, names, computer_moves), ensure_ascii=False, indent=1)


def replay(record: dict[str, Any] | str) -> Game:
    """Replay a record to the identical game; RecordError if it does not."""
    data = _load(record)
    game = initial_game(data)
    with _as_record_error():
        for seat, text in data["actions"]:
            game.apply(seat, Action.parse(text))
        ends_as_recorded = _outcome_of(game) == data["outcome"]
    if len(game.reshuffles) != len(data["reshuffles"]):
        raise RecordError("bad_record", "The record has reshuffles that never happened.")
    if not ends_as_recorded:
        raise RecordError("bad_record", "The replayed game ends differently from the record.")
    return game


def initial_game(record: dict[str, Any] | str) -> Game:
    """The recorded game before its first action, with the recorded reshuffles
    ready: apply the record's actions to it to step through the game."""
    data = _load(record)
    with _as_record_error():
        if data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise RecordError("bad_record", "This is not a Sarja game record of version 1.")
        arrangement = Arrangement.of(
            data["players"],
            data["sides"],
            HouseRules(data["hand_size"], bool(data["manual_draw"])),
        )
        cut = tuple(tuple((int(seat), parse_card(card)) for seat, card in r) for r in data["cut"])
        deck = [parse_card(c) for c in data["deck"]]
        reshuffles = [tuple(parse_card(c) for c in order) for order in data["reshuffles"]]
        game = Game(arrangement, cut, deck, replay_reshuffles=reshuffles)
        if data.get("first", game.first) != game.first:
            raise RecordError("bad_cut", "The recorded first player does not match the cut.")
    return game


@contextmanager
def _as_record_error() -> Iterator[None]:
    """What goes wrong reading or replaying a record, as a RecordError."""
    try:
        yield
    except RecordError:
        raise
    except EngineError as err:
        raise RecordError("bad_record", f"The record does not replay: {err.message}") from err
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise RecordError("bad_record", f"The record is incomplete or malformed: {err!r}") from err


def _load(record: dict[str, Any] | str) -> dict[str, Any]:
    try:
        data = json.loads(record) if isinstance(record, str) else record
    except ValueError as err:
        raise RecordError("bad_record", f"A game record is JSON: {err}") from err
    if not isinstance(data, dict):
        raise RecordError("bad_record", "A game record is a JSON object.")
    return data
