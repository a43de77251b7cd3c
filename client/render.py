"""What each part of the screen shows: pure functions of the model and the part's size.

Each function returns lines of (style, text[, mouse handler]) fragments, prompt_toolkit's
formatted text, that fit the width and height they are given: text is wrapped at word
boundaries and a long name is shortened with "…", never cut mid-word (the layout in
layout.py puts each part in its own window, and tests check that every part fits).
A click on a space, a card, a table, a seat or a choice is a mouse handler on that very
fragment; it hands an intent (intents.py) to `click`. Styles are class names only
("class:chip.b"); the app maps them to colours, and to bold, underline and reverse
under NO_COLOR (styles.py). Nothing depends on colour alone. The words are words/*'s.

This module draws what every screen has (the title, the status line, the log; the
footer's keys are keybar.py's), the connect and name screens, and the help;
render_lobby.py, render_board.py and render_game.py draw the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from sarja.protocol.changes import Removed, SequenceMade, Won

from . import intents as ask
from .fit import Line, bar, centred, shorten, width_of, wrap
from .fit import cut as _cut
from .fit import fitted as _fitted
from .keybar import keys_line
from .model import LogLine, Model, screen
from .styles import SIDE_LETTERS
from .words import connect
from .words import game as game_words
from .words import help as help_words
from .words.common import side_label
from .words.game import turn_text
from .words.log import newer_lines

MIN_WIDTH, MIN_HEIGHT = 80, 24
HELP_PAGES = 2
Click = Callable[[ask.Intent], None] | None


# ----- pieces ----------------------------------------------------------------------


def _handler(click: Click, intent: ask.Intent) -> Callable[[MouseEvent], object]:
    def handle(event: MouseEvent) -> object:
        if event.event_type != MouseEventType.MOUSE_UP or click is None:
            return NotImplemented
        click(intent)
        return None

    return handle


def clickable(click: Click, intent: ask.Intent, style: str, text: str) -> Any:
    """A fragment that a click turns into `intent` (plain when nothing listens)."""
    if click is None:
        return (style, text)
    return (style, text, _handler(click, intent))


def banner_style(side: int | None) -> str:
    """The end of a game in the winner's colour (neutral for a draw)."""
    return f"class:banner.{SIDE_LETTERS[side].lower()}" if side is not None else "class:banner"


# ----- the parts every screen has --------------------------------------------------


def title(model: Model, width: int) -> Line:
    """The top bar: where we are, who we are."""
    if model.replay is not None:
        rp = model.replay
        left = game_words.REPLAY_TITLE.format(title=rp.title)
        at = game_words.REPLAY_AT.format(at=rp.at, moves=len(rp.steps) - 1)
        return bar([("class:title", shorten(left, width - len(at) - 1))],
                   [("class:title", at)], width, "class:title")  # fmt: skip
    where = game_words.PLACES.get(
        "standings" if model.overlay == "standings" else screen(model), ""
    )
    server = model.welcome.server if model.welcome else connect.SARJA
    table = game_words.TABLE_TITLE.format(name=model.table.name) if model.table is not None else ""
    # Each item with what may be done to it when the bar is short, in this order: the
    # server's name goes first, then our own name (we know it) and the table's are
    # shortened, and only then is the address left out.
    # A practice game's server is this program's own: its address says nothing.
    address = model.address if model.practice is None else ""
    items = [" " + connect.SARJA, server if server != connect.SARJA else "", address,
             table, model.name]  # fmt: skip
    steps = [("drop", 1), ("shorten", 4), ("shorten", 3), ("drop", 2)]
    right: Line = [("class:title", f"{where} ")] if where else []
    if model.game is not None and model.replay is None:
        g = model.game
        turn = turn_text(model)
        if model.link == "closed":
            right = [("class:link", game_words.WINDOW_CLOSED)]
        elif g.result is not None:
            right = [(banner_style(g.result.side), f" {turn} ")]
        elif model.my_turn:
            right = [("class:myturn", f" ▶ {turn} ◀ ")]
        else:
            right = [("class:title", f"{turn} ")]
        table = model.table.name if model.table else g.table
        if g.seat is None:
            who = game_words.WATCHING
        else:
            who = f"{g.players[g.seat].name}, {side_label(g.players[g.seat].side)}"
        items = [" " + connect.SARJA, table, who]
        steps = [("shorten", 2), ("shorten", 1), ("drop", 1)]
    room = width - width_of(right) - 1
    return bar([("class:title", _fitted(items, steps, room))], right, width, "class:title")


STATUS_ROWS = 4  # the most the status takes, above the keys


def status_lines(model: Model, width: int) -> list[Line]:
    """The line above the keys: questions, the connection, the server's refusals. A
    long sentence wraps; past STATUS_ROWS lines, the last one says it goes on."""
    lines = _status_lines(model, width)
    if len(lines) > STATUS_ROWS:
        lines = [*lines[: STATUS_ROWS - 1], _cut(lines[STATUS_ROWS - 1], width)]
    return lines


def _status_lines(model: Model, width: int) -> list[Line]:
    if model.overlay == "quit":
        question = game_words.quit_question(model.practice is not None)
        return wrap([("class:ask", question)], width)
    if model.overlay == "leave":
        return wrap([("class:ask", game_words.LEAVE_QUESTION)], width)
    if model.replay is None and model.welcome is not None and not model.online:
        text = connect.link_line(model.link, model.link_text, model.bye == "replaced")
        lines = wrap([("class:link", " " + text + " ")], width, indent=1)
        # What became of what was typed; not the server's goodbye again, which the
        # connection's line already says.
        if model.status and model.link != "closed" and model.status not in text:
            lines += wrap([("class:status", " " + model.status)], width, indent=1)
        return lines
    if not model.status:
        return [[]]
    return wrap([("class:status", " " + model.status)], width, indent=1)


_LOG_STYLES = {
    "chat": "class:log.chat", "error": "class:log.error", "info": "class:log.info",
    SequenceMade.kind: "class:log.big", Won.kind: "class:log.big", Removed.kind: "class:log.big",
}  # fmt: skip


CHAT_MARK = " » "  # starts every line of a chat message in the log


def log_lines(model: Model, width: int, height: int) -> list[Line]:
    """The newest log lines that fit, oldest at the top, each wrapped; scrolled back
    `model.log_back` screen lines (clamped here, where the wrapping is known), with a
    last line that says so."""
    if height <= 0:
        return []
    model.log_page = height
    want = height + model.log_back
    chunks: list[list[Line]] = []
    n = 0
    for entry in reversed(model.log):
        chunks.append(_log_entry(entry, width))
        n += len(chunks[-1])
        if n >= want:
            break
    out = [line for chunk in reversed(chunks) for line in chunk]
    shown = height - 1  # a scrolled log keeps its last line for saying so
    back = model.log_back = min(model.log_back, max(0, len(out) - shown)) if shown > 0 else 0
    if back == 0:
        return out[-height:]
    end = len(out) - back
    mark = newer_lines(back)
    return [*out[max(0, end - shown) : end], [("class:status", mark[:width])]]


def _log_entry(entry: LogLine, width: int) -> list[Line]:
    """One log line wrapped to `width` (kept with the line: the log is drawn often)."""
    said = entry.parts  # (in another language, the words again: the wrapping goes)
    if entry.wrapped is not None and entry.wrapped[0] == width:
        return entry.wrapped[1]
    base = _LOG_STYLES.get(entry.kind, "class:log")
    parts = [(f"{base} {f[0]}".strip(), f[1]) for f in said]
    if entry.kind != "chat":
        lines = wrap([("", " "), *parts], width, indent=3, split=True)
    else:
        # Every line of a chat message carries the chat mark, and its later lines are
        # indented under the words after the sender's name: no text a player types
        # can pass for a game event, or for a line of its own, however it is wrapped.
        # Under the words when the name leaves them room; after a name too long for
        # that, a short indent: lines that start a column or two left of the words
        # above them read as a stray gap.
        sender = width_of(said[:1]) + 2  # "Name: "
        fits = sender <= max(2, (width - len(CHAT_MARK)) // 3)
        hang = len(CHAT_MARK) + (sender if fits else 2)
        lines = wrap([(base, CHAT_MARK), *parts], width, indent=hang, split=True)
        under = [(base, CHAT_MARK), ("", " " * (hang - len(CHAT_MARK)))]
        lines = [lines[0], *([*under, *line[1:]] for line in lines[1:])]
    entry.wrapped = (width, lines)
    return lines


# ----- connecting and the name --------------------------------------------------


def connect_lines(model: Model, width: int, height: int) -> list[Line]:
    if model.link in ("unreachable", "stopped"):
        body = [("class:link", model.link_text)]
    elif model.link == "closed":
        body = [("class:link", connect.DISCONNECTED.format(why=model.link_text))]
    else:
        body = [("", connect.JOINING.format(address=model.address, name=model.name))]
    return centred([("class:title", f" {connect.SARJA} "), ("", ""), *body], width, height)


def name_top(model: Model, width: int, height: int) -> list[Line]:
    """The question, just above the name's text box."""
    seen = connect.NAME_SEEN if model.practice is None else connect.NAME_PRACTICE
    texts = [("class:title", f" {connect.SARJA} "), ("", ""), ("", connect.WHAT_NAME),
             ("class:dim", seen), ("", "")]  # fmt: skip
    return centred(texts, width, len(texts))


def name_bottom(model: Model, width: int, height: int) -> list[Line]:
    if model.practice is not None and model.link not in ("unreachable", "stopped", "closed"):
        text = connect.PRACTICE_READY  # its server is this program's own: no address to tell
    elif model.link == "online" and model.welcome is not None:
        text = connect.CONNECTED_TO.format(address=model.address)
    elif model.link == "online":
        text = connect.ANSWERS.format(address=model.address)
    elif model.link in ("unreachable", "stopped", "closed"):
        text = model.link_text
    else:
        text = connect.CONNECTING_TO.format(address=model.address)
    return centred([("class:dim", text)], width, min(height, 3))


def too_small(width: int, height: int) -> list[Line]:
    text = connect.too_small((MIN_WIDTH, MIN_HEIGHT), (width, height))
    # Each sentence whole, wrapped: a narrow terminal lost the size it asks for.
    return [line for t in text for line in wrap([("class:link", t)], width)][:height]


# ----- help -----------------------------------------------------------------------


def help_lines(model: Model, width: int, height: int) -> list[Line]:
    page = model.help_page
    head = help_words.RULES_TITLE if page == 0 else help_words.KEYS_TITLE
    at = help_words.page_of(page, HELP_PAGES)
    lines: list[Line] = [bar([("class:title", head)], [("class:title", at)], width, "class:title")]
    if page == 0:
        paragraphs = [wrap([("", " " + text)], width - 1, indent=1) for text in help_words.RULES]
        spaced = sum(len(p) for p in paragraphs) + len(paragraphs) <= height - 1
        for i, paragraph in enumerate(paragraphs):
            lines += ([[]] if spaced and i else []) + paragraph
    else:
        shown = [
            (help_words.key_label(keys), help_words.KEYS[say]) for say, keys in model.help_keys
        ]
        key_w = max((get_cwidth(label) for label, _ in shown), default=0) + 2
        for label, text in shown:
            room = key_w - get_cwidth(label)
            lines += wrap([("class:keyname", f"   {label}{' ' * room}"), ("", text)], width,
                          indent=3 + key_w)  # fmt: skip
    filler: list[Line] = [[] for _ in range(height - 1 - len(lines))]
    foot = keys_line(help_words.PAGE_KEYS, width)
    return [*lines, *filler, foot]
