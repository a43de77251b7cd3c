"""The intents every screen shares carried out: quitting and leaving (with the question
first during a game), the overlays (help, chat), the name, the log, the bell, and
connecting now.
"""

from __future__ import annotations

import shlex
from typing import assert_never

from sarja import lang
from sarja.protocol.limits import MAX_MARKS, MAX_NAME, MAX_TEXT
from sarja.protocol.messages import Chat, Leave
from sarja.protocol.names import marks_in_a_row, shows_something

from . import intents as ask
from .command import client_command
from .effects import Command, Effect
from .history import scroll_log
from .model import Model, screen
from .typed import readable
from .words import connect, game, lobby


def leaving(model: Model, intent: ask.ExitIntent) -> list[Effect]:
    """Quit and leave, the question they may ask, and closing what is on screen."""
    match intent:
        case ask.Quit():
            return quit_(model)
        case ask.Leave():
            return leave(model)
        case ask.Confirm():
            return confirm(model)
        case ask.Close():
            close(model)
        case _:
            assert_never(intent)
    return []


def aside(model: Model, intent: ask.AsideIntent) -> list[Effect]:
    """The help, the chat box, the name, the log, the bell, connecting now."""
    match intent:
        case ask.Help(keys):
            help_(model, keys)
        case ask.HelpPage(step):
            help_page(model, step)
        case ask.ChatOpen():
            chat_open(model)
        case ask.Say(text):
            return say(model, text)
        case ask.Name(text):
            return name(model, text)
        case ask.NameTyped():
            if screen(model) == "name":
                model.status = ""  # "Type a name first." is answered by typing
        case ask.LogScroll(how):
            scroll_log(model, how)
        case ask.Alerts():
            alerts(model)
        case ask.Language():
            switch_language(model)
        case ask.Retry():
            return [Command.RETRY]
        case _:
            assert_never(intent)
    return []


def _playing(model: Model) -> bool:
    g = model.game
    return model.seated and g is not None and g.result is None


def quit_(model: Model) -> list[Effect]:
    if _playing(model) and model.online:
        model.overlay = "quit"  # leaving a game in progress deserves a second thought
        return []
    return quitting(model)


def _between_match_games(model: Model) -> bool:
    """Seated at a finished game of a match that goes on: the seat waits for us."""
    g, table = model.game, model.table
    return (
        model.seated and g is not None and g.result is not None and table is not None
        and table.match is not None and table.match.winner is None
    )  # fmt: skip


def quitting(model: Model) -> list[Effect]:
    between = _between_match_games(model)
    if (_playing(model) or between) and model.practice is None and model.bye != "replaced":
        assert model.game is not None
        command = f"{client_command()} {model.address} --name {shlex.quote(model.name)}"
        model.goodbye = game.seat_kept(command, match=between)
    return [Command.QUIT]


def leave(model: Model) -> list[Effect]:
    if model.table is None:
        return []
    if _playing(model):
        model.overlay = "leave"
        return []
    model.leaving = True
    return [Leave()]


def confirm(model: Model) -> list[Effect]:
    overlay, model.overlay = model.overlay, None
    if overlay == "quit":
        return quitting(model)
    if overlay == "leave":
        model.leaving = True
        return [Leave()]
    return []


def close(model: Model) -> None:
    if model.overlay == "fives":
        model.fives_cell = None
    # The help opened over the standings goes back to them, not to the lobby.
    model.overlay = model.help_over if model.overlay == "help" else None
    model.help_over = None


def help_(model: Model, keys: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
    model.help_over = model.overlay
    model.overlay = "help"
    model.help_page = 1 if model.help_over == "create" else 0  # the form's: its keys
    model.help_keys = keys


def help_page(model: Model, step: int) -> None:
    model.help_page = (model.help_page + step) % 2


def chat_open(model: Model) -> None:
    if model.table is None and model.game is None:
        return
    if model.replay is None:
        model.overlay = "chat"


def say(model: Model, text: str) -> list[Effect]:
    """The chat box's line, sent (Enter)."""
    model.overlay = None
    text = readable(text)[:MAX_TEXT]
    if text and not shows_something(text):  # only blanks, or marks with nothing under them
        model.status = connect.CHAT_UNSEEN
        return []
    if marks_in_a_row(text) > MAX_MARKS:
        model.status = connect.TOO_MANY_MARKS
        return []
    return [Chat(text=text)] if text else []


def name(model: Model, text: str) -> list[Effect]:
    """The name screen's line, confirmed (Enter)."""
    name = readable(text)
    if not name:
        model.status = connect.NAME_FIRST
        return []
    if not shows_something(name):  # only blank or invisible characters: the server refuses it
        model.status = connect.NAME_UNSEEN
        return []
    if len(name) > MAX_NAME:
        model.status = connect.name_too_long(len(name))
        return []
    if marks_in_a_row(name) > MAX_MARKS:
        model.status = connect.TOO_MANY_MARKS
        return []
    model.name, model.named, model.status = name, True, ""
    return [Command.GREET]


def alerts(model: Model) -> None:
    """The bell and the window's title on our turn: on or off (remembered, app.py)."""
    model.alerts = not model.alerts
    if model.alerts:
        model.status = game.ALERTS_ON
    else:
        model.status = game.ALERTS_OFF


def switch_language(model: Model) -> None:
    """Finnish for English or back: every sentence drawn from now on is in it (the
    app remembers the choice), the log's lines too (model.py, `LogLine`)."""
    lang.use("en" if lang.language() == "fi" else "fi")
    model.language = lang.language()
    model.status = lobby.IN_ENGLISH  # put into the new language by `use`
