"""Keys become intents: one set of key bindings per screen, each under a `Condition`
that says when it is active (as pyvim and ptpython do).

Nothing acts while the terminal is too small to show the screen (but Ctrl-C), nor
while a text box has the keys (but the keys that leave it), nor behind the help page or
a question. A binding only names an intent; `perform` (intents.py) decides.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings, typical_mouse_events
from prompt_toolkit.keys import Keys

from .intents import Intent
from .layout import ScreenLayout
from .model import Model, final_board, screen

Do = Callable[[Intent], None]

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

    def bind(keys: tuple[str, ...] | str, when: Filter, intent: Intent | Callable[[], Intent],
             eager: bool = False) -> None:  # fmt: skip
        for key in (keys,) if isinstance(keys, str) else keys:

            def handler(event: KeyPressEvent, intent: Any = intent) -> None:
                do(intent() if callable(intent) else intent)

            kb.add(key, filter=when, eager=eager)(handler)

    big = layout.big
    typing = layout.typing

    def showing(name: str) -> Filter:
        return Condition(lambda: m.overlay == name)

    overlay = {name: showing(name) for name in ("help", "quit", "leave", "chat", "create", "fives")}
    asking = overlay["quit"] | overlay["leave"]
    # The screen's own keys: no text box, no help page, no question, no form in front.
    free = big & ~typing & ~overlay["help"] & ~asking & ~overlay["create"] & ~overlay["fives"]

    def on(name: str) -> Filter:
        return free & Condition(lambda: screen(m) == name)

    replaying = Condition(lambda: m.replay is not None)
    playing = on("game") & ~replaying

    # Anywhere, whatever the size.
    bind("c-c", Condition(lambda: True), Intent("quit"), eager=True)

    # The help page, and the yes/no questions.
    bind(("escape", "?", "q", "enter"), big & overlay["help"], Intent("close"))
    bind(("tab", "right", "l", "s-tab", "left", "h"), big & overlay["help"], Intent("help_page", 1))
    bind(("y", "Y", "enter"), big & asking, Intent("confirm"))
    bind(("n", "N", "escape", "q"), big & asking, Intent("close"))

    # Every screen but the name and the chat box.
    bind("?", free & ~Condition(lambda: screen(m) == "name"), Intent("help"))
    bind("q", free & ~Condition(lambda: screen(m) == "name"), Intent("quit"))

    # Text boxes: Esc leaves the chat box (Enter sends, as the box itself binds).
    bind("escape", big & overlay["chat"], Intent("close"))

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

    # Connecting.
    bind("r", on("connect"), Intent("retry"))

    # The lobby.
    lobby = on("lobby")
    bind(_UP, lobby, Intent("lobby_move", -1))
    bind(_DOWN, lobby, Intent("lobby_move", 1))
    bind("enter", lobby, Intent("join"))
    bind("s", lobby, Intent("spectate"))
    bind("n", lobby, Intent("create_open"))
    bind("r", lobby, Intent("refresh"))

    # The new-table form: the name is a text box, the other fields take arrows.
    form = big & overlay["create"]
    bind(("up", "s-tab"), form, Intent("form_move", -1))
    bind(("down", "tab"), form, Intent("form_move", 1))
    bind("left", form & ~typing, Intent("form_change", -1))
    bind(("right", " "), form & ~typing, Intent("form_change", 1))
    bind("enter", form, Intent("create"))
    bind("escape", form, Intent("close"))

    # The waiting room.
    table = on("table")
    bind(_UP, table, Intent("seat_move", -1))
    bind(_DOWN, table, Intent("seat_move", 1))
    for n in range(1, 10):
        bind(str(n), table, Intent("sit", n - 1))
    bind("enter", table, lambda: Intent("sit", m.seat_row))
    bind(("r", " "), table, Intent("ready"))
    bind("c", table, Intent("chat_open"))
    bind("L", table, Intent("leave"))

    # The game.
    bind(_UP, playing, Intent("move", (-1, 0)))
    bind(_DOWN, playing, Intent("move", (1, 0)))
    bind(_LEFT, playing, Intent("move", (0, -1)))
    bind(_RIGHT, playing, Intent("move", (0, 1)))
    for n in range(10):
        bind(str(n), playing, Intent("pick", (n - 1) % 10))
    bind("tab", playing, Intent("next_card", 1))
    bind("s-tab", playing, Intent("next_card", -1))
    bind("n", playing, Intent("next_target"))
    bind(("enter", " "), playing, lambda: Intent("to_table" if final_board(m) else "play"))
    bind("x", playing, Intent("exchange"))
    bind("p", playing, Intent("pass"))
    bind("d", playing, Intent("draw"))
    bind("o", playing, Intent("hand_over"))
    bind("r", playing, Intent("rematch"))
    bind("escape", playing, Intent("cancel"))
    bind("c", playing, Intent("chat_open"))
    bind("L", playing, Intent("leave"))

    # The log, in the game and the waiting room; the bell and title on our turn.
    logged = playing | table
    for key, how in (("pageup", "up"), ("pagedown", "down"), ("home", "top"), ("end", "end")):
        bind(key, logged, Intent("log_scroll", how))
    bind("b", logged, Intent("alerts"))

    # Choosing which five make a sequence.
    fives = big & overlay["fives"]
    bind((*_UP, *_LEFT), fives, Intent("fives_move", -1))
    bind((*_DOWN, *_RIGHT, "tab"), fives, Intent("fives_move", 1))
    for n in range(1, 10):
        bind(str(n), fives, Intent("fives_pick", n - 1))
    bind(("enter", " "), fives, Intent("fives_confirm"))
    bind("escape", fives, Intent("close"))

    # A replay.
    replay = on("game") & replaying
    bind((*_LEFT, "p", "backspace"), replay, Intent("step", -1))
    bind((*_RIGHT, "n", " ", "enter"), replay, Intent("step", 1))
    bind("pageup", replay, Intent("step", -10))
    bind("pagedown", replay, Intent("step", 10))
    bind(("home", "g"), replay, Intent("step_to", 0))
    bind(("end", "G"), replay, Intent("step_to", -1))
    return kb
