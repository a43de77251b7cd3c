"""How the screen looks: style class names mapped to colours, and the classes that say
whose a chip, a name or a card is.

The drawing code (render*.py) uses class names only ("class:chip.b"); these rules map
them to colours, and under NO_COLOR to bold, underline and reverse.
"""

from __future__ import annotations

import os

from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import BaseStyle, Style, merge_styles

SIDE_LETTERS = "BGR"


def card_style(card: str) -> str:
    return "class:card.red" if card[1] in "HD" else "class:card.black"


def side_style(side: int) -> str:
    return f"class:side.{SIDE_LETTERS[side].lower()}"


STYLE = {
    "title": "reverse",
    "myturn": "bg:ansigreen fg:ansiblack bold",
    "banner": "reverse bold",
    "banner.b": "bg:ansiblue fg:ansiwhite bold",
    "banner.g": "bg:ansigreen fg:ansiblack bold",
    "banner.r": "bg:ansired fg:ansiwhite bold",
    "card.red": "fg:ansired",
    "card.black": "",
    "corner": "fg:ansiyellow bold",
    "chip.b": "bg:ansiblue fg:ansiwhite bold",
    "chip.g": "bg:ansigreen fg:ansiblack bold",
    "chip.r": "bg:ansired fg:ansiwhite bold",
    "locked": "underline",
    "last": "bold",
    "winning": "bg:ansimagenta fg:ansiwhite bold",
    "choice": "bg:ansicyan fg:ansiblack bold",
    "target": "bg:ansiyellow fg:ansiblack bold",
    "cursor": "reverse bold",
    "hint": "bg:ansibrightcyan fg:ansiblack bold",
    "side.b": "fg:ansibrightblue bold",
    "side.g": "fg:ansigreen bold",
    "side.r": "fg:ansired bold",
    "turn": "bold",
    "you": "underline",
    "dead": "fg:ansibrightblack strike",
    "picked": "reverse bold",
    "new": "fg:ansiyellow bold",
    "label": "bold",
    "keyname": "bold",
    "dim": "fg:ansibrightblack",
    "info": "italic",
    "computer": "italic",  # a computer's line in the standings (no name can be italic)
    "rule": "fg:ansibrightblack",
    "cell": "bold",
    "log.chat": "fg:ansicyan",
    "log.error": "fg:ansired bold",
    "log.info": "italic",
    "log.big": "bold",
    "status": "fg:ansiyellow bold",
    "link": "bg:ansired fg:ansiwhite bold",
    "ask": "bg:ansiyellow fg:ansiblack bold",
    "prompt": "bold",
    "input": "underline",
    "keys": "bg:ansibrightblack fg:ansiwhite",
    "selected": "reverse",
}

# Without colour (NO_COLOR), what colour told apart is told by bold, underline and
# reverse: a locked chip stands out reversed, the picked card's spaces and the last
# move bold and underlined, the cursor on top of them reversed.
MONO = {
    "locked": "reverse bold",
    "target": "bold underline",
    "last": "bold underline",
    "winning": "bold",
    "choice": "bold underline",
    "hint": "bold underline",
    "cursor": "reverse bold",
    "myturn": "reverse bold",
    "link": "reverse bold",
    "ask": "reverse bold",
    "dim": "",
    "dead": "strike",
    "new": "bold underline",
}


def no_color() -> bool:
    return bool(os.environ.get("NO_COLOR"))


def style(mono: bool) -> BaseStyle:
    rules = Style.from_dict(STYLE)
    return merge_styles([rules, Style.from_dict(MONO)]) if mono else rules


def color_depth() -> ColorDepth | None:
    """No colour at all under NO_COLOR (https://no-color.org); otherwise the terminal's
    own depth. Bold, underline and reverse stay, and the screen never relies on colour."""
    return ColorDepth.DEPTH_1_BIT if no_color() else None
