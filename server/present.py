"""Turning engine values into protocol messages: seat states and events in words.

The engine speaks in integers (cards, cells); the wire speaks in codes and
[row, col] pairs, and people read sentences. Nothing here decides anything.
"""

from __future__ import annotations

from itertools import product

from sarja.protocol.messages import Choice, Last, Outcome, Player, Rules, State
from sarja.protocol.messages import Event as EventMessage

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


def rules_of(arrangement: Arrangement) -> Rules:
    return Rules.unchecked(hand_size=arrangement.hand_size, manual_draw=arrangement.manual_draw)


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
        view = seat_view(game, None)
        codes = _CODES
        outcome = view.outcome
        self.public = dict(
            table=table_id,
            version=view.version,
            players=tuple(
                Player.unchecked(name=names[s], side=view.seat_sides[s], away=away[s], hand_size=n)
                for s, n in enumerate(view.hand_sizes)
            ),
            sides=view.sides,
            needed=view.needed,
            board=view.board,
            discard=tuple([codes[c] for c in view.discard]),
            draw_size=view.draw_size,
            sequences=tuple(tuple(wire_five(f) for f in fives) for fives in view.sequences),
            turn=view.turn,
            first=view.first,
            cut=tuple(tuple((seat, codes[card]) for seat, card in r) for r in view.cut),
            last=None
            if view.last is None
            else Last.unchecked(seat=view.last[0], action=notation(view.last[1])),
            exchanged=view.exchanged,
            pending_draw=view.pending_draw,
            passes=view.passes,
            rules=rules_of(arrangement),
            outcome=None
            if outcome is None
            else Outcome.unchecked(
                result=outcome.result,
                side=outcome.side,
                hands=tuple(tuple(codes[c] for c in h) for h in view.revealed_hands or ()),
            ),
        )

    def for_seat(self, seat: int | None) -> State:
        hand, legal, choices = NO_SEAT if seat is None else seat_part(self.game, seat)
        return State.unchecked(
            seat=seat,
            hand=tuple([_CODES[c] for c in hand]),
            legal=tuple([notation(a) for a in legal]),
            choices=tuple(
                Choice.unchecked(
                    cell=wire_cell(cell),
                    # One option per combination of the lines' own options.
                    options=tuple(
                        tuple(wire_five(f) for option in combo for f in option)
                        for combo in product(*lines)
                    )[:8],
                )
                for cell, lines in choices
            ),
            **self.public,
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
    fields: dict = {"seat": seat}
    if event.card >= 0:
        fields["card"] = card_code(event.card)
    if event.cell >= 0:
        fields["cell"] = wire_cell(event.cell)
    if kind == "played":
        text = f"{who} played {card} at {where}"
    elif kind == "removed":
        owner = side_name(arrangement, event.side, names)
        text = f"{who} removed {owner}'s chip at {where} with the {card}"
        fields["side"] = event.side
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
        fields.update(side=event.side, fives=tuple(wire_five(f) for f in event.fives))
    elif kind == "won":
        text = f"{side_name(arrangement, event.side, names)} wins!"
        fields["side"] = event.side
    elif kind == "drawn_game":
        text = "A full round of passes: the game is a draw"
    else:
        return None
    return EventMessage.unchecked(version=version, kind=kind, text=text, **fields)
