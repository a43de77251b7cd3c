"""Turning engine values into protocol messages: seat states and events in words.

The engine speaks in integers (cards, cells); the wire speaks in codes and
[row, col] pairs, and people read sentences. Nothing here decides anything.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from sarja.protocol import LocalProtocolError
from sarja.protocol.messages import Choice, Last, Outcome, Player, Rules, State
from sarja.protocol.messages import Event as EventMessage
from sarja.protocol.shared_state import SharedStateEncoder

from .engine.actions import Action
from .engine.arrangement import SIDE_COLOURS, Arrangement
from .engine.board import cell_name
from .engine.cards import card_code, card_label
from .engine.game import Event, Game
from .engine.view import NO_SEAT, seat_part, seat_view

# Codes for every card, indexed by card, so views convert with a list lookup.
_CODES = tuple(card_code(c) for c in range(52))


def wire_cell(cell: int) -> tuple[int, int]:
    return divmod(cell, 10)


def wire_five(five: tuple[int, ...]) -> tuple[int, int, int, int]:
    return (*divmod(five[0], 10), *divmod(five[-1], 10))


@lru_cache(maxsize=64)
def rules_of(arrangement: Arrangement) -> Rules:
    return Rules.unchecked(hand_size=arrangement.hand_size, manual_draw=arrangement.manual_draw)


@lru_cache(maxsize=1024)
def wire_cut(cut: tuple[tuple[tuple[int, int], ...], ...]) -> tuple:
    """A game's cut, as `state` carries it; the same every move of a game."""
    return tuple(tuple((seat, _CODES[card]) for seat, card in r) for r in cut)


# The records' own constructors, positional and without checks: these values come
# from the engine's views, and the receiving codec checks every field anyway.
_new_player, _new_last, _new_choice = Player._trusted, Last._trusted, Choice._trusted
_new_state, _new_event = State._trusted, EventMessage._trusted
# for_seat passes State's fields by position, in this order.
assert State._FIELDS == (
    "table", "version", "seat", "players", "sides", "needed", "hand", "board", "discard",
    "draw_size", "sequences", "turn", "first", "cut", "last", "legal", "choices", "exchanged",
    "pending_draw", "passes", "rules", "outcome",
)  # fmt: skip


def side_name(arrangement: Arrangement, side: int, names: list[str]) -> str:
    """ "Blue" with two players, "Team Blue" with teams."""
    colour = SIDE_COLOURS[side].capitalize()
    if arrangement.per_side == 1:
        return f"{names[side]} ({colour})"
    return f"Team {colour}"


_TEXTS: dict[Action, str] = {}


def notation(action: Action) -> str:
    """An action's notation, remembered: the same few hundred actions recur."""
    text = _TEXTS.get(action)
    if text is None:
        text = _TEXTS[action] = str(action)
    return text


class StateFactory:
    """Builds every seat's `state` for one version of a game. The public part
    (the spectator's view) is converted once; each seat adds its own part."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        names: list[str],
        away: list[bool],
        arrangement: Arrangement,
    ) -> None:
        self.game = game
        self._encoder: SharedStateEncoder | None = None
        view = seat_view(game, None)
        codes = _CODES
        outcome, last = view.outcome, view.last
        # State's fields before `seat`, between `seat` and `hand`, and so on:
        # for_seat puts each seat's own fields in their places.
        self._head = (table_id, view.version)
        self._middle = (
            tuple(
                _new_player(names[s], side, away[s], n)
                for s, (side, n) in enumerate(zip(view.seat_sides, view.hand_sizes, strict=True))
            ),
            view.sides,
            view.needed,
        )
        self._after_hand = (
            view.board,
            tuple([codes[c] for c in view.discard]),
            view.draw_size,
            tuple(tuple(wire_five(f) for f in fives) for fives in view.sequences),
            view.turn,
            view.first,
            wire_cut(view.cut),
            None if last is None else _new_last(last[0], notation(last[1])),
        )
        self._tail = (
            view.exchanged,
            view.pending_draw,
            view.passes,
            rules_of(arrangement),
            None
            if outcome is None
            else Outcome.unchecked(
                result=outcome.result,
                side=outcome.side,
                hands=tuple(tuple(codes[c] for c in h) for h in view.revealed_hands or ()),
            ),
        )

    def encoded(self, seat: int | None) -> tuple[State, bytes | None]:
        """`seat`'s state and its frame; the fields all seats share are packed
        once per version, by the first call."""
        state = self.for_seat(seat)
        if self._encoder is None:
            self._encoder = SharedStateEncoder(state)
        try:
            return state, self._encoder.frame(state)
        except LocalProtocolError:  # too large to send: the codec refuses and logs it
            return state, None

    def for_seat(self, seat: int | None) -> State:
        hand, legal, choices = NO_SEAT if seat is None else seat_part(self.game, seat)
        return _new_state(  # type: ignore[no-any-return]
            *self._head,
            seat,
            *self._middle,
            tuple([_CODES[c] for c in hand]),
            *self._after_hand,
            tuple([notation(a) for a in legal]),
            tuple(
                _new_choice(
                    wire_cell(cell),
                    # One option per combination of the lines' own options.
                    tuple(
                        tuple(wire_five(f) for option in combo for f in option)
                        for combo in product(*lines)
                    )[:8],
                )
                for cell, lines in choices
            ),
            *self._tail,
        )


def state_message(
    table_id: str, game: Game, seat: int | None, names: list[str], away: list[bool],
    arrangement: Arrangement,
) -> State:  # fmt: skip
    """The `state` message for one seat (or a spectator)."""
    return StateFactory(table_id, game, names, away, arrangement).for_seat(seat)


def event_message(
    version: int, event: Event, names: list[str], arrangement: Arrangement
) -> EventMessage | None:
    """An engine event as a sentence for everyone's log (None for events only
    the engine cares about)."""
    kind, seat = event.kind, event.seat
    who = names[seat] if seat is not None else ""
    card = card_label(event.card) if event.card >= 0 else ""
    where = cell_name(event.cell) if event.cell >= 0 else ""
    side = fives = None  # only the events below that name a side (or fives) carry one
    if kind == "played":
        text = f"{who} played {card} at {where}"
    elif kind == "removed":
        owner = side_name(arrangement, event.side, names)
        text = f"{who} removed {owner}'s chip at {where} with the {card}"
        side = event.side
    elif kind == "dead_card":
        text = f"{who} exchanged a dead {card}"
    elif kind == "drew":
        text = f"{who} drew a card"
    elif kind == "no_draw":
        kind, text = "drew", f"{who} could not draw: both piles are empty"
    elif kind == "reshuffled":
        kind, text = "drew", "The discard pile was shuffled into a new draw pile"
    elif kind == "draw_forfeited":
        text = f"{who} lost their draw"
    elif kind == "passed":
        text = f"{who} passed: no playable card"
    elif kind == "sequence":
        spans = ", ".join(f"{cell_name(f[0])}–{cell_name(f[-1])}" for f in event.fives)
        many = "two sequences" if len(event.fives) > 1 else "a sequence"
        text = f"{side_name(arrangement, event.side, names)} completed {many} ({spans})"
        side, fives = event.side, tuple(wire_five(f) for f in event.fives)
    elif kind == "won":
        text = f"{side_name(arrangement, event.side, names)} wins!"
        side = event.side
    elif kind == "drawn_game":
        text = "A full round of passes: the game is a draw"
    else:
        return None
    return _new_event(  # type: ignore[no-any-return]
        version,
        kind,
        text,
        seat,
        side,
        card_code(event.card) if event.card >= 0 else None,
        wire_cell(event.cell) if event.cell >= 0 else None,
        None,  # action: the text and the fields above already say it
        fives,
    )
