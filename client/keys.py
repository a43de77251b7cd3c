"""Keys become intents: one set of key bindings per screen, each under a `Condition`
that says when it is active (as pyvim and ptpython do).

Nothing acts while the terminal is too small to show the screen (but Ctrl-C), nor
while a text box has the keys (but the keys that leave it), nor behind the help page or
a question. A binding only names an intent (intents.py); `perform` (perform.py) decides.
A key a player presses names its line of the help (words/help.py, `say=`): "?" lists
the lines of the keys bound where it is pressed, so the help and the keys cannot differ.
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
from .offered import EDITING, edit_key
from .render_lobby import seats_computers
from .words import help as help_words

Do = Callable[[ask.Intent], None]

_UP, _DOWN, _LEFT, _RIGHT = ("up", "k"), ("down", "j"), ("left", "h"), ("right", "l")
_YES, _NO = ("y", "Y", "k", "K"), ("n", "N", "e", "E")  # English and Finnish answers


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


class _Binder:
    """Binds keys to intents, and keeps each key's line of the help (`say`, a key of
    words.help.KEYS): "?" shows the lines of the keys active where it is pressed."""

    def __init__(self, kb: KeyBindings, do: Do) -> None:
        self.kb, self.do = kb, do
        self.said: list[tuple[str, Filter, str]] = []

    def __call__(
        self,
        keys: tuple[str, ...] | str,
        when: Filter,
        intent: ask.Intent | Callable[[], ask.Intent],
        eager: bool = False,
        say: str | None = None,
    ) -> None:
        assert say is None or say in help_words.KEYS, say
        for key in (keys,) if isinstance(keys, str) else keys:

            def handler(event: KeyPressEvent, intent: Any = intent) -> None:
                self.do(intent() if callable(intent) else intent)

            self.kb.add(key, filter=when, eager=eager)(handler)
            if say is not None:
                self.said.append((key, when, say))

    def help(self) -> ask.Help:
        """The help of the screen as it is: each line that a key active on it names,
        with those keys, in the words' order."""
        lines: dict[str, list[str]] = {}
        for key, when, say in self.said:
            if when() and key not in lines.setdefault(say, []):
                lines[say].append(key)
        order = list(help_words.KEYS)
        shown = sorted((say for say in lines if lines[say]), key=order.index)
        return ask.Help(tuple((say, tuple(lines[say])) for say in shown))


def key_bindings(model: Model, layout: ScreenLayout, do: Do) -> KeyBindings:
    kb = KeyBindings()
    m = model
    kb.add(Keys.Vt100MouseEvent)(_mouse)
    bind = _Binder(kb, do)
    said = bind.said

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
    # What a click does (the mouse binding above), screen by screen.
    mouse = Keys.Vt100MouseEvent.value
    said += [(mouse, on("lobby") & ~overlay["standings"], "click lobby"),
             (mouse, on("table"), "click seat"), (mouse, playing, "click game")]  # fmt: skip

    # Anywhere, whatever the size; its help line says the seat is kept only where one is.
    kept = Condition(lambda: m.seated)
    bind("c-c", kept, ask.Quit(), eager=True, say="quit seated")
    bind("c-c", ~kept, ask.Quit(), eager=True, say="quit")

    # The help page, and the yes/no questions.
    bind(("escape", "?", "q", "enter", "f1"), big & overlay["help"], ask.Close())
    bind(("tab", "right", "l", "s-tab", "left", "h"), big & overlay["help"], ask.HelpPage(1))
    # y / n, and the Finnish k / e (kyllä, ei), as the Finnish questions say.
    bind(_YES + ("enter",), big & asking, ask.Confirm())
    bind(_NO + ("escape", "q"), big & asking, ask.Close())

    # Every screen but the name and the chat box (and the standings' question).
    asked = Condition(lambda: m.forget_asked)
    anywhere = free & ~Condition(lambda: screen(m) == "name") & ~asked
    bind("?", anywhere, bind.help, say="help")
    bind("q", anywhere & kept, ask.Quit(), say="quit seated")
    bind("q", anywhere & ~kept, ask.Quit(), say="quit")

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

    def name_taken() -> None:
        layout.name_offered = False

    for key in EDITING:
        kb.add(key, filter=offered & on_name)(edit_key(name_taken, key))
    # q is a letter of a name there: Esc quits (the server may be unreachable).
    bind("escape", big & on_name, ask.Quit())

    # Connecting.
    bind("r", on("connect"), ask.Retry(), say="retry")

    # The lobby.
    lobby = on("lobby") & ~overlay["standings"]
    bind(_UP, lobby, ask.LobbyMove(-1), say="choose table")
    bind(_DOWN, lobby, ask.LobbyMove(1), say="choose table")
    bind("enter", lobby, ask.Join(), say="join")
    bind("s", lobby, ask.Spectate(), say="watch")
    bind("n", lobby, ask.CreateOpen(), say="new table")
    bind("r", lobby, ask.Refresh(), say="refresh")
    bind("t", lobby, ask.StandingsOpen(), say="standings")

    # The standings, over the lobby; "forget me" asks first.
    ranking = on("lobby") & overlay["standings"]
    bind(("escape", "t"), ranking & ~asked, ask.Close(), say="close standings")
    bind("r", ranking & ~asked, ask.StandingsOpen(), say="refresh standings")
    bind("f", ranking & ~asked, ask.ForgetAsk(), say="forget")
    bind(_YES, ranking & asked, ask.ForgetConfirm())
    bind(_NO + ("escape", "q"), ranking & asked, ask.StandingsOpen())
    bind("F", lobby, ask.Language(), say="language")

    # The new-table form: the name is a text box, the other fields take arrows. Its help
    # is F1, and ? too where ? is not a letter of the name.
    form = big & overlay["create"]
    bind(("up", "s-tab"), form, ask.FormMove(-1), say="form field back")
    bind(("down", "tab"), form, ask.FormMove(1), say="form field on")
    bind("left", form & ~typing, ask.FormChange(-1), say="form change")
    bind(("right", " "), form & ~typing, ask.FormChange(1), say="form change")
    bind("enter", form, ask.Create(), say="create")
    bind("escape", form, ask.Close(), say="cancel form")
    bind("f1", form, bind.help, say="help")
    bind("?", form & ~typing, bind.help, say="help")
    _clock_digits(bind, form & ~typing)

    # The waiting room.
    table = on("table")
    bind(_UP, table, ask.SeatMove(-1), say="choose seat")
    bind(_DOWN, table, ask.SeatMove(1), say="choose seat")
    for n in range(1, 10):
        bind(str(n), table, ask.Sit(n - 1), say="sit")
    bind("enter", table, lambda: ask.Sit(m.seat_row), say="sit chosen")
    bind(("r", " "), table, ask.Ready(), say="ready")
    # Only where it can work: at the table we made, seated (not watching) there.
    bind("a", table & Condition(lambda: seats_computers(m)), ask.SeatComputer(),
         say="seat computer")  # fmt: skip
    bind("c", table, ask.ChatOpen(), say="chat")
    bind("L", table, ask.Leave(), say="leave")

    # The game.
    bind(_UP, playing, ask.Move((-1, 0)), say="cursor")
    bind(_DOWN, playing, ask.Move((1, 0)), say="cursor")
    bind(_LEFT, playing, ask.Move((0, -1)), say="cursor")
    bind(_RIGHT, playing, ask.Move((0, 1)), say="cursor")
    for n in (*range(1, 10), 0):  # 0 is the tenth card
        bind(str(n), playing, ask.Pick((n - 1) % 10), say="pick")
    bind("tab", playing, ask.NextCard(1), say="next card")
    bind("s-tab", playing, ask.NextCard(-1), say="next card")
    bind("n", playing, ask.NextTarget(), say="next space")
    bind(("enter", " "), playing, lambda: ask.ToTable() if final_board(m) else ask.Play(),
         say="play")  # fmt: skip
    bind("x", playing, ask.Exchange(), say="exchange")
    bind("p", playing, ask.Pass(), say="pass")
    bind("d", playing, ask.Draw(), say="draw")
    bind("o", playing, ask.HandOver(), say="hand over")
    bind("a", playing, ask.AskCoach(), say="hint")
    bind("r", playing, ask.Rematch(), say="rematch")
    bind("escape", playing, ask.Cancel(), say="put back")
    bind("c", playing, ask.ChatOpen(), say="chat")
    bind("L", playing, ask.Leave(), say="leave")

    # The log, in the game and the waiting room; the bell and title on our turn.
    logged = playing | table
    bind("pageup", logged, ask.LogScroll("up"), say="log")
    bind("pagedown", logged, ask.LogScroll("down"), say="log")
    bind("home", logged, ask.LogScroll("top"), say="log")
    bind("end", logged, ask.LogScroll("end"), say="log")
    bind("b", logged, ask.Alerts(), say="alerts")

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
    bind((*_LEFT, "p", "backspace"), replay, ask.Step(-1), say="step back")
    bind((*_RIGHT, "n", " ", "enter"), replay, ask.Step(1), say="step on")
    bind("pageup", replay, ask.Step(-10), say="ten moves")
    bind("pagedown", replay, ask.Step(10), say="ten moves")
    bind(("home", "g"), replay, ask.StepTo(0), say="ends")
    bind(("end", "G"), replay, ask.StepTo(-1), say="ends")
    bind("a", replay, ask.Analyse(), say="analyse")
    bind("m", replay, ask.ToMistake(True), say="mistakes")
    bind("M", replay, ask.ToMistake(False), say="mistakes")
    return kb


def _clock_digits(bind: Callable[..., None], where: Filter) -> None:
    """The turn clock's seconds, or the match's N, typed on its line of the form (other
    lines ignore them); backspace takes one off the clock's."""
    for digit in "0123456789":
        bind(digit, where, ask.FormDigit(digit), say="form digits")
    bind("backspace", where, ask.FormDigit(""), say="form digits")
