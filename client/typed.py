"""What was typed or pasted into a text box, made printable, as the protocol takes it."""

from __future__ import annotations

import re
import unicodedata

# Terminal escape codes (colours, cursor moves, titles) that pasted text may carry.
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_]?)")


def typed(text: str) -> str:
    """What was typed or pasted into a text box, printable: escape codes dropped,
    invisible format characters (a zero-width space, a soft hyphen) dropped too, as
    they show nothing ("Ai<ZWSP>no" is "Aino", not "Ai no"), and other control
    characters (a tab, a bell) made spaces."""
    return "".join(_printable(ch) for ch in _ESCAPES.sub("", text))


def _printable(ch: str) -> str:
    if ch.isprintable():
        return ch
    return "" if unicodedata.category(ch) == "Cf" else " "


def readable(text: str) -> str:
    """Typed text as the protocol takes it: printable, runs of spaces made one."""
    return " ".join(typed(text).split())
