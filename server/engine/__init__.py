"""The rules engine: pure game logic, no I/O, no clock, no trio.

Typical use::

    game = Game.new(Arrangement.of(4), random.Random(7))
    actions = game.legal_actions(game.turn)
    changes = game.apply(game.turn, actions[0])  # sarja.protocol.changes: Played, Drew, …
    view = seat_view(game, seat=0)
    targets = hand_targets(game, seat=0)  # per card of view.hand: the cells it could take
"""

from .actions import Action
from .arrangement import Arrangement, HouseRules
from .errors import ArrangementError, EngineError, IllegalAction, MalformedAction, RecordError
from .game import Game, Outcome
from .record import game_record, record_json, replay
from .view import SeatView, dead_cards, hand_targets, seat_view

__all__ = [
    "Action",
    "Arrangement",
    "ArrangementError",
    "EngineError",
    "Game",
    "HouseRules",
    "IllegalAction",
    "MalformedAction",
    "Outcome",
    "RecordError",
    "SeatView",
    "dead_cards",
    "game_record",
    "hand_targets",
    "record_json",
    "replay",
    "seat_view",
]
