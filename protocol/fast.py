"""Straight-line decoders for the hot messages: the game actions, events and a seat's `state`.

Each takes a decoded map (its "t" already known) and returns the message only when every
field is exactly valid; otherwise it returns None and the codec takes the reference path
(`wire.check_shape`, then `from_wire` and `__post_init__`), which finds the error and
its code. So a decoder here may only ever accept *less* than the reference path, never
more, and what it returns must equal what that path would build: tests compare the two
on valid, mutated and fuzzed maps. The checks are the same checks, written out per
field: `type(x) is int` and chained comparisons, whole lists of card codes and actions
checked with one C-level `issuperset`, objects built by setting their slots directly.

A map accepted here has exactly its message's shape, and no message nests deeper than
its direction's limit (a `play` reaches depth 3 of 4, a `state` 6 of 8), so the
reference path's depth walk is not needed. A map nested too deep always fails some check
here and goes the reference way, which reports `too_deep` before any field error.

A decoder may also raise KeyError (a missing key) or TypeError (an unhashable value met
a set lookup): the codec treats either as None.
"""

from collections.abc import Callable
from itertools import filterfalse
from typing import Any

from .client_messages import Draw, Exchange, Pass, Ping, Play, Pong, Remove
from .fields import BOARD_RE, CARDS, ID_RE, ONE_EYED
from .limits import (
    DECK_SIZE,
    MAX_CHOICES,
    MAX_CUT_ROUNDS,
    MAX_FIVES,
    MAX_HAND,
    MAX_ID,
    MAX_LEGAL,
    MAX_NAME,
    MAX_OPTIONS,
    MAX_PASSES,
    MAX_PLAYERS,
    MAX_SEATS,
    MAX_TEAMS,
    MAX_TEXT,
    MIN_PLAYERS,
    MIN_TEAMS,
)
from .notation import ACTION_RE, SIMPLE_ACTIONS
from .records import Choice, Last, Player, Rules
from .server_messages import EVENT_KINDS, Ack, Event, State

Decoder = Callable[[dict[str, Any]], Any]

_is_simple = SIMPLE_ACTIONS.__contains__
_PLACE_CARDS = CARDS - ONE_EYED  # what `play` may carry
_DEAD_CARDS = frozenset(c for c in CARDS if c[0] != "J")  # what `exchange` may carry
# Every valid five, as (row1, col1, row2, col2): ends 4 steps apart on one line. A tuple
# of ints found here is a valid five; `type(...) is int` still rules out True and 1.0,
# which are equal (and hash equal) to 1.
_FIVES = frozenset(
    (r, c, r + dr, c + dc)
    for dr, dc in ((0, 4), (4, 0), (4, 4), (4, -4))
    for r in range(10)
    for c in range(10)
    if 0 <= r + dr <= 9 and 0 <= c + dc <= 9
)


def _fives(v: Any, hi: int) -> bool:
    """A tuple of 0..hi valid fives."""
    if type(v) is not tuple or len(v) > hi:
        return False
    for f in v:
        if not (
            type(f) is tuple
            and f in _FIVES
            and type(f[0]) is int
            and type(f[1]) is int
            and type(f[2]) is int
            and type(f[3]) is int
        ):
            return False
    return True


def _cell(v: Any) -> bool:
    return (
        type(v) is tuple
        and len(v) == 2
        and type(v[0]) is int
        and type(v[1]) is int
        and 0 <= v[0] <= 9
        and 0 <= v[1] <= 9
    )


def _action(v: Any) -> bool:
    return type(v) is str and (v in SIMPLE_ACTIONS or ACTION_RE.fullmatch(v) is not None)


def _actions(v: tuple[Any, ...]) -> bool:
    """Every item an action: one C-level pass sets aside what SIMPLE_ACTIONS lacks (the
    few placements naming fives, or errors), and only those meet the regex."""
    for x in filterfalse(_is_simple, v):  # noqa: SIM110 - a loop costs less than all(genexpr)
        if not _action(x):
            return False
    return True


def _seats(v: tuple[Any, ...], top: int) -> bool:
    for s in v:  # noqa: SIM110 - a loop costs less than all(genexpr)
        if not (type(s) is int and 0 <= s <= top):
            return False
    return True


def _ident(v: Any) -> bool:
    """A table or session id; plain letters and digits skip the regex."""
    if type(v) is not str:
        return False
    if v.isascii() and v.isalnum():  # ASCII letters and digits only
        return len(v) <= 32
    return ID_RE.fullmatch(v) is not None


# --- client -> server ----------------------------------------------------------------

_N_PLAY, _N_REMOVE, _N_EXCHANGE = len(Play._ALLOWED), len(Remove._ALLOWED), len(Exchange._ALLOWED)
_N_ID_VERSION = len(Draw._ALLOWED)  # t, id, version
assert Draw._ALLOWED == Pass._ALLOWED == Ack._ALLOWED == {"t", "id", "version"}
_N_COUNTER = len(Ping._ALLOWED)  # t, n
assert Ping._ALLOWED == Pong._ALLOWED == {"t", "n"}
_new_play, _new_remove, _new_exchange = Play._trusted, Remove._trusted, Exchange._trusted
_new_draw, _new_pass, _new_ack = Draw._trusted, Pass._trusted, Ack._trusted
_new_ping, _new_pong = Ping._trusted, Pong._trusted


# Keys: each decoder checks the map's size and then reads every key its type defines, so
# an unknown key shows as a wrong size or a missing key; a missing key raises KeyError,
# which the codec takes as None.


def _action_head(i: Any, v: Any, card: Any, cards: frozenset[str]) -> bool:
    """An action's id and version, and its card among those it may carry."""
    return (
        type(i) is int
        and type(v) is int
        and 0 <= i <= MAX_ID
        and 0 <= v <= MAX_ID
        and type(card) is str
        and card in cards
    )


def play(d: dict[str, Any]) -> Play | None:
    """The most frequent message of all, so its checks are written out in full."""
    if len(d) != _N_PLAY:
        return None
    i, v, card, cell, fives = d["id"], d["version"], d["card"], d["cell"], d["fives"]
    if (
        type(i) is int
        and type(v) is int
        and 0 <= i <= MAX_ID
        and 0 <= v <= MAX_ID
        and type(card) is str
        and card in _PLACE_CARDS
        and type(cell) is tuple
        and len(cell) == 2
        and type(cell[0]) is int
        and type(cell[1]) is int
        and 0 <= cell[0] <= 9
        and 0 <= cell[1] <= 9
        and (fives == () or _fives(fives, MAX_FIVES))  # only an empty tuple equals ()
    ):
        return _new_play(i, v, card, cell, fives)  # type: ignore[no-any-return]
    return None


def remove(d: dict[str, Any]) -> Remove | None:
    if len(d) != _N_REMOVE:
        return None
    i, v, card, cell = d["id"], d["version"], d["card"], d["cell"]
    if _action_head(i, v, card, ONE_EYED) and _cell(cell):
        return _new_remove(i, v, card, cell)  # type: ignore[no-any-return]
    return None


def exchange(d: dict[str, Any]) -> Exchange | None:
    if len(d) != _N_EXCHANGE:
        return None
    i, v, card = d["id"], d["version"], d["card"]
    if _action_head(i, v, card, _DEAD_CARDS):
        return _new_exchange(i, v, card)  # type: ignore[no-any-return]
    return None


def _id_version(new: Callable[[int, int], Any]) -> Decoder:
    """`draw`, `pass` and `ack`: an id and a version."""

    def decode(d: dict[str, Any]) -> Any:
        if len(d) != _N_ID_VERSION:
            return None
        i, v = d["id"], d["version"]
        if type(i) is int and type(v) is int and 0 <= i <= MAX_ID and 0 <= v <= MAX_ID:
            return new(i, v)
        return None

    return decode


def _counter(new: Callable[[int], Any]) -> Decoder:
    """`ping` and `pong`."""

    def decode(d: dict[str, Any]) -> Any:
        if len(d) != _N_COUNTER:
            return None
        n = d["n"]
        if type(n) is int and 0 <= n <= MAX_ID:
            return new(n)
        return None

    return decode


# --- server -> client ----------------------------------------------------------------

_N_STATE, _N_PLAYER, _N_LAST = len(State._ALLOWED), len(Player._ALLOWED), len(Last._ALLOWED)
_N_CHOICE, _N_RULES = len(Choice._ALLOWED), len(Rules._ALLOWED)
_new_player, _new_last, _new_choice = Player._trusted, Last._trusted, Choice._trusted
_new_rules, _new_state = Rules._trusted, State._trusted


def _players(v: Any, sides: int) -> tuple[Player, ...] | None:
    if type(v) is not tuple or not MIN_PLAYERS <= len(v) <= MAX_PLAYERS:
        return None
    out = []
    for p in v:
        if type(p) is not dict or len(p) != _N_PLAYER:
            return None
        name, side, away, hand_size = p["name"], p["side"], p["away"], p["hand_size"]
        if type(name) is not str:
            return None
        name = name.strip()
        if not (
            0 < len(name) <= MAX_NAME
            and name.isprintable()
            and type(side) is int
            and 0 <= side < sides  # sides is at most MAX_TEAMS
            and type(away) is bool
            and type(hand_size) is int
            and 0 <= hand_size <= MAX_HAND
        ):
            return None
        out.append(_new_player(name, side, away, hand_size))
    return tuple(out)


def _cut(v: Any, top: int) -> bool:
    if type(v) is not tuple or len(v) > MAX_CUT_ROUNDS:
        return False
    for r in v:
        if type(r) is not tuple or not 1 <= len(r) <= MAX_SEATS:
            return False
        for p in r:
            if not (
                type(p) is tuple
                and len(p) == 2
                and type(p[0]) is int
                and 0 <= p[0] <= top
                and type(p[1]) is str
                and p[1] in CARDS
            ):
                return False
    return True


def _last(v: Any) -> Last | None:
    if type(v) is not dict or len(v) != _N_LAST:
        return None
    seat, action = v["seat"], v["action"]
    if type(seat) is int and 0 <= seat < MAX_SEATS and _action(action):
        return _new_last(seat, action)  # type: ignore[no-any-return]
    return None


def _choices(v: Any) -> tuple[Choice, ...] | None:
    if type(v) is not tuple or len(v) > MAX_CHOICES:
        return None
    out = []
    for c in v:
        if type(c) is not dict or len(c) != _N_CHOICE:
            return None
        cell, options = c["cell"], c["options"]
        if not (_cell(cell) and type(options) is tuple and 1 <= len(options) <= MAX_OPTIONS):
            return None
        for o in options:
            if not (o and _fives(o, MAX_FIVES)):
                return None
        out.append(_new_choice(cell, options))
    return tuple(out)


def _rules(v: Any) -> Rules | None:
    if type(v) is not dict or len(v) != _N_RULES:
        return None
    hand_size, manual_draw = v["hand_size"], v["manual_draw"]
    if type(hand_size) is int and 1 <= hand_size <= MAX_HAND and type(manual_draw) is bool:
        return _new_rules(hand_size, manual_draw)  # type: ignore[no-any-return]
    return None


def state(d: dict[str, Any]) -> State | None:
    """A seat's state during a game; a finished one (with an outcome) goes the reference
    way, being rare."""
    if len(d) != _N_STATE or d["outcome"] is not None:
        return None
    sides = d["sides"]
    if type(sides) is not int or not MIN_TEAMS <= sides <= MAX_TEAMS:
        return None
    players = _players(d["players"], sides)
    if players is None:
        return None
    top = len(players) - 1
    table, version, seat, needed = d["table"], d["version"], d["seat"], d["needed"]
    hand, board, discard, draw_size = d["hand"], d["board"], d["discard"], d["draw_size"]
    sequences, turn, first, cut = d["sequences"], d["turn"], d["first"], d["cut"]
    legal, exchanged, pending, passes = d["legal"], d["exchanged"], d["pending_draw"], d["passes"]
    if not (
        _ident(table)
        and type(version) is int
        and 0 <= version <= MAX_ID
        and (seat is None or (type(seat) is int and 0 <= seat <= top))
        and type(needed) is int
        and 1 <= needed <= 2
        and type(hand) is tuple
        and len(hand) <= MAX_HAND
        and CARDS.issuperset(hand)
        and type(board) is str
        and BOARD_RE.fullmatch(board) is not None
        and type(discard) is tuple
        and len(discard) <= DECK_SIZE
        and CARDS.issuperset(discard)
        and type(draw_size) is int
        and 0 <= draw_size <= DECK_SIZE
        and type(sequences) is tuple
        and len(sequences) == sides
        and _fives(sequences[0], MAX_FIVES)
        and _fives(sequences[1], MAX_FIVES)
        and (sides == 2 or _fives(sequences[2], MAX_FIVES))
        and type(turn) is int
        and 0 <= turn <= top
        and type(first) is int
        and 0 <= first <= top
        and _cut(cut, top)
        and type(legal) is tuple
        and len(legal) <= MAX_LEGAL
        and _actions(legal)
        and type(exchanged) is bool
        and type(pending) is tuple
        and len(pending) <= MAX_SEATS
        and (not pending or _seats(pending, top))
        and type(passes) is int
        and 0 <= passes <= MAX_PASSES
    ):
        return None
    last = d["last"]
    if last is not None and (last := _last(last)) is None:
        return None
    choices = _choices(d["choices"])
    rules = _rules(d["rules"])
    if choices is None or rules is None:
        return None
    # Positional, in State's field order (checked at import, below).
    return _new_state(  # type: ignore[no-any-return]
        table, version, seat, players, sides, needed, hand, board, discard, draw_size,
        sequences, turn, first, cut, last, legal, choices, exchanged, pending, passes,
        rules, None,
    )  # fmt: skip


assert list(State.__dataclass_fields__) == [
    "table",
    "version",
    "seat",
    "players",
    "sides",
    "needed",
    "hand",
    "board",
    "discard",
    "draw_size",
    "sequences",
    "turn",
    "first",
    "cut",
    "last",
    "legal",
    "choices",
    "exchanged",
    "pending_draw",
    "passes",
    "rules",
    "outcome",
]

_N_EVENT = len(Event._ALLOWED)
_EVENT_KINDS = frozenset(EVENT_KINDS)
_new_event = Event._trusted


def event(d: dict[str, Any]) -> Event | None:
    """Several arrive with every move, so they take the fast path too."""
    if len(d) != _N_EVENT:
        return None
    version, kind, text = d["version"], d["kind"], d["text"]
    seat, side, card, cell = d["seat"], d["side"], d["card"], d["cell"]
    action, fives = d["action"], d["fives"]
    if not (
        type(version) is int
        and 0 <= version <= MAX_ID
        and type(kind) is str
        and kind in _EVENT_KINDS
        and type(text) is str
        and 0 < len(text) <= MAX_TEXT
        and text.isprintable()
        and not text.isspace()
        and (seat is None or (type(seat) is int and 0 <= seat < MAX_SEATS))
        and (side is None or (type(side) is int and 0 <= side < MAX_TEAMS))
        and (card is None or (type(card) is str and card in CARDS))
        and (cell is None or _cell(cell))
        and (action is None or _action(action))
        and (fives is None or _fives(fives, MAX_FIVES))
    ):
        return None
    return _new_event(version, kind, text, seat, side, card, cell, action, fives)  # type: ignore[no-any-return]


# What each side decodes on the fast path; every other type takes the reference path.
CLIENT_FAST: dict[str, Decoder] = {
    "play": play,
    "remove": remove,
    "exchange": exchange,
    "draw": _id_version(_new_draw),
    "pass": _id_version(_new_pass),
    "ping": _counter(_new_ping),
    "pong": _counter(_new_pong),
}
SERVER_FAST: dict[str, Decoder] = {
    "state": state,
    "event": event,
    "ack": _id_version(_new_ack),
    "ping": _counter(_new_ping),
    "pong": _counter(_new_pong),
}
