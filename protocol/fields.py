"""Straight-line validators for message fields.

Each takes the value and the field's name, returns the value to keep (tuples for lists,
stripped names) and raises LocalProtocolError with a stable code otherwise. The codec
turns that into a RemoteProtocolError when the value came from the peer.
"""

import re
from collections.abc import Sequence
from typing import Any, Literal, NoReturn

from .cards import CARDS, CORNER_CODE, CORNERS, FIVE_STEPS, LAYOUT_CODES, LEVELS, FiveEnds
from .errors import LocalProtocolError
from .limits import (
    CELLS,
    MAX_ID,
    MAX_MARKS,
    MAX_SEATS,
    MAX_TEXT,
    MAX_TURN_CLOCK,
    MIN_TURN_CLOCK,
)
from .names import marks_in_a_row, shows_something
from .notation import ACTION_RE

_WORD_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")  # error, reason and event codes
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")  # table and session ids
TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{32,128}")  # resume tokens: url-safe base64
# Corners are "*"; every other space is empty or holds a chip (capital when locked).
BOARD_RE = re.compile(r"\*[.bgrBGR]{8}\*[.bgrBGR]{80}\*[.bgrBGR]{8}\*")
_LAYOUT_CARDS = sorted(c for c in LAYOUT_CODES if c != CORNER_CODE)


def fail(code: str, message: str) -> NoReturn:
    raise LocalProtocolError(code, message)


def integer(v: Any, name: str, lo: int = 0, hi: int = MAX_ID) -> int:
    if type(v) is not int:
        fail("bad_type", f"Field '{name}' must be an integer.")
    if not lo <= v <= hi:
        fail("out_of_range", f"Field '{name}' must be from {lo} to {hi}.")
    return v


def opt_integer(v: Any, name: str, lo: int = 0, hi: int = MAX_ID) -> int | None:
    return None if v is None else integer(v, name, lo, hi)


def boolean(v: Any, name: str) -> bool:
    if type(v) is not bool:
        fail("bad_type", f"Field '{name}' must be true or false.")
    return v


def sequence(v: Any, name: str, lo: int, hi: int) -> tuple[Any, ...]:
    """An array of lo..hi items (kept as a tuple; items are checked by the caller)."""
    items: tuple[Any, ...]
    if type(v) is tuple:
        items = v
    elif type(v) is list:
        items = tuple(v)
    else:
        fail("bad_type", f"Field '{name}' must be an array.")
    if not lo <= len(items) <= hi:
        fail("out_of_range", f"Field '{name}' must hold from {lo} to {hi} items.")
    return items


def card(v: Any, name: str) -> str:
    if type(v) is not str:
        fail("bad_type", f"Field '{name}' must be a card code string.")
    if v not in CARDS:
        fail("bad_card", f'Field \'{name}\' must be a card code like "7H" or "TS".')
    return v


def cards(v: Any, name: str, hi: int) -> tuple[str, ...]:
    return tuple(card(x, name) for x in sequence(v, name, 0, hi))


def cell(v: Any, name: str) -> int:
    if type(v) is not int or not 0 <= v < CELLS:
        fail("bad_cell", f"Field '{name}' must be a cell: row * 10 + column, 0 to 99.")
    return v


def five(v: Any, name: str) -> FiveEnds:
    """A five: its two end cells [start, end], in reading order, on one straight line."""
    if type(v) is list:
        v = tuple(v)
    if type(v) is not tuple or len(v) != 2:
        fail("bad_five", f"Field '{name}' must hold fives [start, end], two cells 0 to 99.")
    start, end = v
    if type(start) is not int or type(end) is not int or not 0 <= start < end < CELLS:
        fail("bad_five", f"Field '{name}' must hold fives [start, end], two cells 0 to 99.")
    (r1, c1), (r2, c2) = divmod(start, 10), divmod(end, 10)
    if (r2 - r1, c2 - c1) not in FIVE_STEPS:
        fail("bad_five", f"In '{name}', a five's end cells must be 4 steps apart on one line.")
    return v


def fives(v: Any, name: str, hi: int) -> tuple[FiveEnds, ...]:
    return tuple(five(x, name) for x in sequence(v, name, 0, hi))


def cells(v: Any, name: str, hi: int = CELLS) -> tuple[int, ...]:
    return tuple(cell(x, name) for x in sequence(v, name, 0, hi))


def _string(v: Any, name: str) -> str:
    if type(v) is not str:
        fail("bad_type", f"Field '{name}' must be a string.")
    return v


def _matching(v: Any, name: str, pattern: re.Pattern[str], form: str) -> str:
    """A string that `pattern` matches whole (else bad_format: the field `form`)."""
    if not pattern.fullmatch(_string(v, name)):
        fail("bad_format", f"Field '{name}' {form}.")
    return str(v)


def code(v: Any, name: str) -> str:
    return _matching(v, name, _WORD_RE, "must be a snake_case code of 1 to 40 characters")


def ident(v: Any, name: str, pattern: re.Pattern[str] = ID_RE) -> str:
    return _matching(v, name, pattern, "has the wrong form")


def label(v: Any, name: str, hi: int) -> str:
    """A name: stripped of surrounding spaces, then 1..hi printable characters."""
    s = _string(v, name).strip()
    if not (0 < len(s) <= hi and s.isprintable()):
        fail("bad_text", f"Field '{name}' must be 1 to {hi} printable characters.")
    return s


def shown_label(v: Any, name: str, hi: int) -> str:
    """A name a person sends (theirs, a table's): a label that shows something. Blanks,
    invisible characters and lone combining marks alone make an empty name, as no
    characters do (names the server sends are only labels: it may keep older ones)."""
    s = label(v, name, hi)
    _seen(s, name, "a name")
    return s


def text(v: Any, name: str, hi: int = MAX_TEXT) -> str:
    """A sentence or chat line: 1..hi printable characters that show something, no
    character with more than MAX_MARKS combining marks."""
    s = _string(v, name)
    if not (0 < len(s) <= hi and s.isprintable() and not s.isspace()):
        fail("bad_text", f"Field '{name}' must be 1 to {hi} printable characters.")
    _seen(s, name, "a text")
    return s


def _seen(s: str, name: str, what: str) -> None:
    """`s` shows something, and stacks no more than MAX_MARKS marks on a character."""
    if s.isascii():  # printable, not only spaces: it shows, and has no mark
        return
    if not shows_something(s):
        fail(
            "invisible_text",
            f"Field '{name}' shows nothing: {what} needs a letter, digit or sign people"
            " can see, not only blank or invisible characters and marks.",
        )
    if marks_in_a_row(s) > MAX_MARKS:
        fail(
            "too_many_marks",
            f"Field '{name}' stacks more than {MAX_MARKS} combining marks on one character.",
        )


def action(v: Any, name: str) -> str:
    return _matching(v, name, ACTION_RE, "is not an action in the documented notation")


def actions(v: Any, name: str, hi: int) -> tuple[str, ...]:
    return tuple(action(x, name) for x in sequence(v, name, 0, hi))


def board(v: Any, name: str) -> str:
    return _matching(v, name, BOARD_RE, "must be 100 characters of .*bgrBGR, corners *")


def layout(v: Any, name: str) -> tuple[str, ...]:
    """The board's cards: 100 codes, "XX" at the corners, each non-jack card twice."""
    codes = sequence(v, name, 100, 100)
    if any(type(x) is not str for x in codes):
        fail("bad_type", f"Field '{name}' must hold strings.")
    spaces = sorted(x for i, x in enumerate(codes) if i not in CORNERS)
    if spaces != _LAYOUT_CARDS or any(codes[i] != CORNER_CODE for i in CORNERS):
        fail("bad_format", f"Field '{name}' must be the 96 non-jack cards twice, XX at corners.")
    return codes


def choice_of(v: Any, name: str, allowed: Sequence[str]) -> str:
    if type(v) is not str or v not in allowed:
        listed = ", ".join(allowed)
        if len(listed) > 120:
            fail("bad_format", f"Field '{name}' is not one of its documented values.")
        fail("bad_format", f"Field '{name}' must be one of: {listed}.")
    return v


def level(v: Any, name: str) -> str:
    """A computer player's level: "easy", "medium" or "hard"."""
    if type(v) is not str:
        fail("bad_type", f"Field '{name}' must be a computer level: easy, medium or hard.")
    return choice_of(v, name, LEVELS)


def opt_level(v: Any, name: str) -> str | None:
    return None if v is None else level(v, name)


def takeover(v: Any, name: str) -> str | Literal[False]:
    """Who stands in for an absent player: false (no one) or a computer level."""
    if v is False:
        return False
    if type(v) is not str:
        fail("bad_type", f"Field '{name}' must be false or a computer level.")
    return level(v, name)


def seat_levels(v: Any, name: str, players: int, exact: bool) -> tuple[str | None, ...]:
    """Per seat, a computer level or nil (a person): `players` entries when `exact`,
    else at most that many (the missing ones nil)."""
    items = sequence(v, name, players if exact else 0, players)
    return tuple(opt_level(x, name) for x in items)


def turn_clock(v: Any, name: str) -> int:
    """A table's turn clock in seconds, 0 for none: its own code, so a client can say
    what range the host may type."""
    if type(v) is not int:
        fail("bad_type", f"Field '{name}' must be an integer.")
    if v != 0 and not MIN_TURN_CLOCK <= v <= MAX_TURN_CLOCK:
        fail(
            "bad_turn_clock",
            f"A turn clock is from {MIN_TURN_CLOCK} to {MAX_TURN_CLOCK} seconds (0: none).",
        )
    return v


def clocks(v: Any, name: str, top: int = MAX_SEATS - 1) -> tuple[tuple[int, int], ...]:
    """The turn clocks running: [seat, milliseconds left] pairs, one per seat at most."""
    pairs = []
    for p in sequence(v, name, 0, MAX_SEATS):
        if type(p) is list:
            p = tuple(p)
        if type(p) is not tuple or len(p) != 2:
            fail("bad_type", f"Field '{name}' must hold [seat, milliseconds] pairs.")
        pairs.append((integer(p[0], name, 0, top), integer(p[1], name, 0, MAX_TURN_CLOCK * 1000)))
    if len({s for s, _ in pairs}) != len(pairs):
        fail("bad_format", f"Field '{name}' names a seat twice.")
    return tuple(pairs)
