"""Intents become changes to the model plus messages to send.

Key bindings (keys.py), mouse handlers on the screen's fragments (render*.py) and the
text boxes make an intent (intents.py); `perform(model, intent)` carries it out and
returns the effects: protocol messages for the server, or a `Command` for the app
(quit, retry, greet). Each group of intents has its module (play.py, general.py,
seating.py), each matched exhaustively: mypy names an intent no one handles. Nothing
here sends or draws, so what every key and click means is tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from sarja.protocol.messages import Chat, ClientMessage

from . import analysis, general, play, seating, standings
from . import intents as ask
from .effects import Command, Effect
from .model import CHAT_QUEUE, Model
from .replay import go
from .words import connect


def perform(model: Model, intent: ask.Intent) -> list[Effect]:
    effects = _carry_out(model, intent)
    if model.online or model.replay is not None:
        return list(effects)
    return [e for e in effects if isinstance(e, Command) or _offline(model, e)]


def _carry_out(model: Model, intent: ask.Intent) -> Sequence[Effect]:
    if isinstance(intent, ask.BoardIntent):
        return play.board(model, intent)
    if isinstance(intent, ask.TurnIntent):
        return play.turn(model, intent)
    if isinstance(intent, ask.ExitIntent):
        return general.leaving(model, intent)
    if isinstance(intent, ask.AsideIntent):
        return general.aside(model, intent)
    if isinstance(intent, ask.LobbyIntent):
        return seating.tables(model, intent)
    if isinstance(intent, ask.FormIntent):
        return seating.form(model, intent)
    if isinstance(intent, ask.ReplayIntent):
        return _step(model, intent)
    if isinstance(intent, ask.StandingsIntent):
        return standings.standings(model, intent)
    assert_never(intent)


def _step(model: Model, intent: ask.ReplayIntent) -> Sequence[Effect]:
    """A replay moves by some actions (backwards when negative), or to one end, or to
    a move the coach marked; or the coach's analysis starts."""
    replay = model.replay
    if replay is None:
        return ()
    match intent:
        case ask.Step(by):
            go(model, replay.at + by)
        case ask.StepTo(at):
            go(model, at if at >= 0 else len(replay.steps) - 1)
        case ask.Analyse():
            return [Command.ANALYSE]
        case ask.ToMistake(forward):
            if replay.analysis is None:
                return [Command.ANALYSE]
            analysis.step_to_mistake(model, forward)
            return ()
        case _:
            assert_never(intent)
    if replay.analysis is not None:
        analysis.describe(model)  # the mark on screen, or none
    return ()


def _offline(model: Model, msg: ClientMessage) -> bool:
    """A message made while the connection is down: chat waits for it to come back;
    anything else is not sent, and the player is told so. Never sent now (False)."""
    if model.link == "closed":
        model.status = ""  # the connection's own line says it is over, and what to do
    elif isinstance(msg, Chat) and len(model.chat_queue) < CHAT_QUEUE:
        model.chat_queue.append(msg.text)
        model.status = connect.CHAT_KEPT
    else:
        model.status = connect.NOT_CONNECTED
    return False
