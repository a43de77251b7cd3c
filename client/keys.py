"""Keys become intents: one set of key bindings per screen, each under a `Condition`
that says when it is active (as pyvim and ptpython do).

Nothing acts while the terminal is too small to show the screen (but Ctrl-C), nor
while a text box has the keys (but the keys that leave it), nor behind the help page or
a question. A binding only names an intent (intents.py); `perform` (perform.py) decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings, typical_mouse_events
from prompt_toolkit.keys import Keys

from . import intents as ask
from .facts import final_board
from .layout import ScreenLayout
from .model import Model, screen

Do = Callable[[ask.Intent], None]

_UP, _DOWN, _LEFT, _RIGHT = ("up", "k"), ("down", "j"), ("left", "h"), ("right", "l")


def _edit(layout: ScreenLayout, key: str) -> Callable[[KeyPressEvent], None]:
    """A key that edits the offered name (rather than replacing it) and then does what
    it always does in a text box."""

    def handler(event: KeyPressEvent) -> None:
        layout.name_offered = False
        buffer = event.current_buffer
        if key in ("left",):
            buffer.cursor_left()
        elif key in ("right",):
            buffer.cursor_right()
        elif key in ("home", "c-a"):
            buffer.cursor_position = 0
        elif key in ("end", "c-e"):
            buffer.cursor_position = len(buffer.text)
        elif key == "backspace":
            buffer.delete_before_cursor()
        elif key == "delete":
            buffer.delete()

    return handler


# A mouse report as terminals send them: "Esc[M" and three bytes, or "Esc[b;x;yM"
# (urxvt), "Esc[<b;x;yM" or "...m" (xterm SGR).
_MOUSE = re.compile(r"\x1b\[(?:M(.)..|<?\d+;\d+;\d+[mM])", re.DOTALL)
_MOUSE_HANDLER = load_mouse_bindings().get_bindings_for_keys((Keys.Vt100MouseEvent,))[0].handler


def _mouse(event: KeyPressEvent) -> object:
    """A mouse report, handed to prompt_toolkit's own handler only when it is one. Text
    pasted into a terminal without bracketed paste can look like the start of one
    (colour codes such as "Esc[31m"), which that handler cannot parse and raises on:
    such a sequence is dropped, as a stray escape code should be."""
    match = _MOUSE.fullmatch(event.data)
    if match is None or (match[1] is not None and ord(match[1]) not in typical_mouse_events):
        return NotImplemented  # nothing happened: no need to redraw
    return _MOUSE_HANDLER(event)


def key_bindings(model: Model, layout: ScreenLayout, do: Do) -> KeyBindings:
    kb = KeyBindings()
    m = model
    kb.add(Keys.Vt100MouseEvent)(_mouse)

    def bind(
        keys: tuple[str, ...] | str,
        when: Filter,
        intent: ask.Intent | Callable[[], ask.Intent],
        eager: bool = False,
    ) -> None:
        for key in (keys,) if isinstance(keys, str) else keys:

            def handler(event: KeyPressEvent, intent: Any = intent) -> None:
                do(intent() if callable(intent) else intent)

            kb.add(key, filter=when, eager=eager)(handler)

    big = layout.big
    typing = layout.typing

    def showing(name: str) -> Filter:
        return Condition(lambda: m.overlay == name)

    overlay = {
        name: showing(name)
        for name in ("help", "quit", "leave", "chat", "create", "fives", "standings")
    }
    asking = overlay["quit"] | overlay["leave"]
    # The screen's own keys: no text box, no help page, no question, no form in front.
    free = big & ~typing & ~overlay["help"] & ~asking & ~overlay["create"] & ~overlay["fives"]

    def on(name: str) -> Filter:
        return free & Condition(lambda: screen(m) == name)

    replaying = Condition(lambda: m.replay is not None)
    playing = on("game") & ~replaying

    # Anywhere, whatever the size.
    bind("c-c", Condition(lambda: True), ask.Quit(), eager=True)

    # The help page, and the yes/no questions.
    bind(("escape", "?", "q", "enter"), big & overlay["help"], ask.Close())
    bind(("tab", "right", "l", "s-tab", "left", "h"), big & overlay["help"], ask.HelpPage(1))
    bind(("y", "Y", "enter"), big & asking, ask.Confirm())
    bind(("n", "N", "escape", "q"), big & asking, ask.Close())

    # Every screen but the name and the chat box.
    bind("?", free & ~Condition(lambda: screen(m) == "name"), ask.Help())
    bind("q", free & ~Condition(lambda: screen(m) == "name"), ask.Quit())

    # Text boxes: Esc leaves the chat box (Enter sends, as the box itself binds).
    bind("escape", big & overlay["chat"], ask.Close())

    # The name screen: typing over the remembered name replaces it.
    offered = Condition(lambda: layout.name_offered) & big & typing
    on_name = Condition(lambda: screen(m) == "name")

    @kb.add(Keys.Any, filter=offered & on_name)
    def _replace(event: KeyPressEvent) -> None:
        if event.data.isprintable():
            layout.name_offered = False
            event.current_buffer.text = ""
            event.current_buffer.insert_text(event.data)

    for key in ("left", "right", "home", "end", "backspace", "c-a", "c-e", "delete"):
        kb.add(key, filter=offered & on_name)(_edit(layout, key))
    # q is a letter of a name there: Esc quits (the server may be unreachable).
    bind("escape", big & on_name, ask.Quit())

    # Connecting.
    bind("r", on("connect"), ask.Retry())

    # The lobby.
    lobby = on("lobby") & ~overlay["standings"]
    bind(_UP, lobby, ask.LobbyMove(-1))
    bind(_DOWN, lobby, ask.LobbyMove(1))
    bind("enter", lobby, ask.Join())
    bind("s", lobby, ask.Spectate())
    bind("n", lobby, ask.CreateOpen())
    bind("r", lobby, ask.Refresh())
    bind("t", lobby, ask.StandingsOpen())

    # The standings, over the lobby; "forget me" asks first.
    asked = Condition(lambda: m.forget_asked)
    ranking = on("lobby") & overlay["standings"]
    bind(("escape", "t"), ranking & ~asked, ask.Close())
    bind("r", ranking & ~asked, ask.StandingsOpen())
    bind("f", ranking & ~asked, ask.ForgetAsk())
    bind(("y", "Y"), ranking & asked, ask.ForgetConfirm())
    bind(("n", "N", "escape"), ranking & asked, ask.StandingsOpen())
    bind("F", lobby, ask.Language())

    # The new-table form: the name is a text box, the other fields take arrows.
    form = big & overlay["create"]
    bind(("up", "s-tab"), form, ask.FormMove(-1))
    bind(("down", "tab"), form, ask.FormMove(1))
    bind("left", form & ~typing, ask.FormChange(-1))
    bind(("right", " "), form & ~typing, ask.FormChange(1))
    bind("enter", form, ask.Create())
    bind("escape", form, ask.Close())
    _clock_digits(bind, form & ~typing)

    # The waiting room.
    table = on("table")
    bind(_UP, table, ask.SeatMove(-1))
    bind(_DOWN, table, ask.SeatMove(1))
    for n in range(1, 10):
        bind(str(n), table, ask.Sit(n - 1))
    bind("enter", table, lambda: ask.Sit(m.seat_row))
    bind(("r", " "), table, ask.Ready())
    bind("a", table, ask.SeatComputer())
    bind("c", table, ask.ChatOpen())
    bind("L", table, ask.Leave())

    # The game.
    bind(_UP, playing, ask.Move((-1, 0)))
    bind(_DOWN, playing, ask.Move((1, 0)))
    bind(_LEFT, playing, ask.Move((0, -1)))
    bind(_RIGHT, playing, ask.Move((0, 1)))
    for n in range(10):
        bind(str(n), playing, ask.Pick((n - 1) % 10))
    bind("tab", playing, ask.NextCard(1))
    bind("s-tab", playing, ask.NextCard(-1))
    bind("n", playing, ask.NextTarget())
    bind(("enter", " "), playing, lambda: ask.ToTable() if final_board(m) else ask.Play())
    bind("x", playing, ask.Exchange())
    bind("p", playing, ask.Pass())
    bind("d", playing, ask.Draw())
    bind("o", playing, ask.HandOver())
    bind("a", playing, ask.AskCoach())
    bind("r", playing, ask.Rematch())
    bind("escape", playing, ask.Cancel())
    bind("c", playing, ask.ChatOpen())
    bind("L", playing, ask.Leave())

    # The log, in the game and the waiting room; the bell and title on our turn.
    logged = playing | table
    bind("pageup", logged, ask.LogScroll("up"))
    bind("pagedown", logged, ask.LogScroll("down"))
    bind("home", logged, ask.LogScroll("top"))
    bind("end", logged, ask.LogScroll("end"))
    bind("b", logged, ask.Alerts())

    # Choosing which five make a sequence.
    fives = big & overlay["fives"]
    bind((*_UP, *_LEFT), fives, ask.FivesMove(-1))
    bind((*_DOWN, *_RIGHT, "tab"), fives, ask.FivesMove(1))
    for n in range(1, 10):
        bind(str(n), fives, ask.FivesPick(n - 1))
    bind(("enter", " "), fives, ask.FivesConfirm())
    bind("escape", fives, ask.Close())

    # A replay.
    replay = on("game") & replaying
    bind((*_LEFT, "p", "backspace"), replay, ask.Step(-1))
    bind((*_RIGHT, "n", " ", "enter"), replay, ask.Step(1))
    bind("pageup", replay, ask.Step(-10))
    bind("pagedown", replay, ask.Step(10))
    bind(("home", "g"), replay, ask.StepTo(0))
    bind(("end", "G"), replay, ask.StepTo(-1))
    bind("a", replay, ask.Analyse())
    bind("m", replay, ask.ToMistake(True))
    bind("M", replay, ask.ToMistake(False))
    return kb


def _clock_digits(bind: Callable[..., None], where: Filter) -> None:
    """The turn clock's seconds, or the match's N, typed on its line of the form (other
    lines ignore them); backspace takes one off the clock's."""
    for digit in "0123456789":
        bind(digit, where, ask.FormDigit(digit))
    bind("backspace", where, ask.FormDigit(""))
