"""A name offered in a text box (the one remembered, the new table's): typing replaces
it, an editing key edits it, as in the name screen and the new-table form."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

EDITING = ("left", "right", "home", "end", "backspace", "c-a", "c-e", "delete")


def edit_key(taken: Callable[[], None], key: str) -> Callable[[KeyPressEvent], None]:
    """A key that edits an offered name (rather than replacing it: `taken` says it is
    no longer only offered) and then does what it always does in a text box."""

    def handler(event: KeyPressEvent) -> None:
        taken()
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


def offered_bindings(offered: Callable[[], bool], taken: Callable[[], None]) -> KeyBindings:
    """A text box's own keys while its text is only offered (`offered`): the first
    printable key replaces the text, an editing key edits it; either makes it taken."""
    kb = KeyBindings()
    now = Condition(offered)

    @kb.add(Keys.Any, filter=now)
    def _replace(event: KeyPressEvent) -> None:
        if event.data.isprintable():
            taken()
            event.current_buffer.text = ""
            event.current_buffer.insert_text(event.data)

    for key in EDITING:
        kb.add(key, filter=now)(edit_key(taken, key))
    return kb
