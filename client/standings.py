"""The standings screen's intents: open it (asking the server afresh), and forget us
(after a yes). The reply is receive.py's; the drawing render_standings.py's."""

from __future__ import annotations

from typing import assert_never

from sarja.protocol.messages import AskStandings, Forget

from . import intents as ask
from .effects import Effect
from .model import Model
from .words import standings as words


def standings(model: Model, intent: ask.StandingsIntent) -> list[Effect]:
    match intent:
        case ask.StandingsOpen():
            model.overlay = "standings"
            model.forget_asked = False
            model.status = words.ASKING
            return [AskStandings()]
        case ask.ForgetAsk():
            model.forget_asked = True
            model.status = words.FORGET_QUESTION
        case ask.ForgetConfirm():
            if model.forget_asked:
                model.forget_asked = False
                model.status = ""
                return [Forget()]
        case _:
            assert_never(intent)
    return []
