"""Turning engine values into protocol 2 messages: snapshots, updates, hands, legal lists.

The engine speaks in integers (cards as 0..51, fives as five cells); the wire speaks
in card codes and fives as their two end cells. Nothing here decides anything, and
every message is built with `_trusted=True`: the values come from the engine, and
the receiving codec checks every field anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product

from sarja.protocol.cards import five_ends
from sarja.protocol.changes import Change
from sarja.protocol.limits import MAX_OPTIONS
from sarja.protocol.messages import (
    Choice,
    Hand,
    Last,
    Legal,
    Player,
    Result,
    Rules,
    Snapshot,
    TableShape,
    Update,
)

from .engine import Action, Arrangement, Game
from .engine.actions import DRAW
from .engine.arrangement import DEFAULT_HAND_SIZE
from .engine.cards import CARD_CODES
from .engine.view import (
    SeatView,
    dead_cards,
    hand_targets,
    seat_part,
    seat_view,
    turn_counters,
)


def rules_of(arrangement: Arrangement) -> Rules:
    return Rules(
        hand_size=arrangement.hand_size, manual_draw=arrangement.manual_draw, _trusted=True
    )


def table_shapes() -> tuple[TableShape, ...]:
    """Every table this server can set up, for the client's new-table form."""
    shapes = []
    for players in DEFAULT_HAND_SIZE:
        for teams in (2, 3) if players > 3 else (players,):
            if players > 3 and players % teams:
                continue
            a = Arrangement.of(players, teams if players > 3 else None)
            shapes.append(
                TableShape(
                    players=players,
                    teams=a.sides,
                    hand_size=a.hand_size,
                    needed=a.needed,
                    _trusted=True,
                )  # fmt: skip
            )
    return tuple(shapes)


def _result(game: Game) -> Result | None:
    outcome = game.outcome
    if outcome is None:
        return None
    hands = tuple(tuple(CARD_CODES[c] for c in sorted(h)) for h in game.hands)
    return Result(result=outcome.result, side=outcome.side, hands=hands, _trusted=True)


def _choices(
    view_choices: Iterable[tuple[int, Sequence[Sequence[Sequence[Sequence[int]]]]]],
) -> tuple[Choice, ...]:
    """Every way to choose the fives at each cell that offers a choice: one option per
    combination of the lines' own options, the default first."""
    return tuple(
        Choice(
            cell=cell,
            options=tuple(
                tuple(five_ends(f) for option in combo for f in option) for combo in product(*lines)
            )[:MAX_OPTIONS],  # never reached in play: a cell has at most four lines
            _trusted=True,
        )
        for cell, lines in view_choices
    )


@lru_cache(maxsize=4096)
def notation(action: Action) -> str:
    """An action's notation, written once: legal lists repeat the same few hundred
    actions (a wild jack alone offers every open space)."""
    return str(action)


def legal_message(version: int, game: Game, seat: int) -> Legal | None:
    """The seat's legal actions now, or None when it has nothing to do."""
    _, legal, choices = seat_part(game, seat)
    if not legal:
        return None
    return Legal(
        version=version,
        legal=tuple(map(notation, legal)),
        choices=_choices(choices),
        _trusted=True,
    )


def hand_part(
    game: Game, seat: int
) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """The seat's hand (sorted), what each card could take, and its dead cards."""
    return (
        tuple(CARD_CODES[c] for c in sorted(game.hands[seat])),
        hand_targets(game, seat),
        tuple(CARD_CODES[c] for c in dead_cards(game, seat)),
    )


def hand_message(
    version: int,
    part: tuple[tuple[str, ...], tuple[tuple[int, ...], ...], tuple[str, ...]],
    drawn: str | None,
) -> Hand:
    hand, targets, dead = part
    return Hand(version=version, hand=hand, targets=targets, dead=dead, drawn=drawn, _trusted=True)


def snapshot(
    table_id: str,
    version: int,
    game: Game,
    seat: int | None,
    names: Sequence[str],
    away: Sequence[bool],
    last_id: int | None,
    clocks: tuple[tuple[int, int], ...] = (),
    last_stand_in: bool = False,
) -> Snapshot:
    """Everything `seat` (None: a spectator) may know, at `version`, with the turn
    clocks running (`clocks`: [seat, ms left]); `last_stand_in`: the computer made the
    last move for its seat's person."""
    view: SeatView = seat_view(game, seat)
    last = next((h for h in reversed(game.history) if h[1].kind != DRAW), None)
    return Snapshot(
        table=table_id,
        version=version,
        seat=seat,
        last_id=last_id,
        players=tuple(
            Player(name=names[s], side=side, away=away[s], held=n, _trusted=True)
            for s, (side, n) in enumerate(zip(view.seat_sides, view.held, strict=True))
        ),
        sides=view.sides,
        needed=view.needed,
        rules=rules_of(game.arrangement),
        first=view.first,
        cut=tuple(tuple((s, CARD_CODES[c]) for s, c in r) for r in view.cut),
        board=view.board,
        sequences=tuple(tuple(five_ends(f) for f in fives) for fives in view.sequences),
        discard=tuple(CARD_CODES[c] for c in view.discard),
        last=None
        if last is None
        else Last(
            seat=last[0], action=_plain_notation(last[1]), stand_in=last_stand_in, _trusted=True
        ),
        turn=view.turn,
        draw_size=view.draw_size,
        passes=view.passes,
        exchanged=view.exchanged,
        pending_draw=view.pending_draw,
        result=_result(game),
        hand=tuple(CARD_CODES[c] for c in view.hand),
        targets=view.targets,
        dead=tuple(CARD_CODES[c] for c in view.dead),
        legal=tuple(map(notation, view.legal)),
        choices=_choices(view.choices),
        clocks=clocks,
        _trusted=True,
    )


def _plain_notation(action: object) -> str:
    """An action's notation without the fives it chose: the sequences show those.
    (`last` skips manual draws: the updates do not tell a draw taken from one made
    after a play, and the board shows the play.)"""
    return str(action).split("[", 1)[0]


def update(
    version: int, game: Game, made: tuple[Change, ...], stand_in: bool = False,
    clocks: tuple[tuple[int, int], ...] | None = None,
) -> Update:  # fmt: skip
    """The public update that leads to `version`, with the turn's counters after it
    (`stand_in`: the computer made the action for a person's seat; `clocks`: the turn
    clocks, when they changed)."""
    return Update(
        version=version,
        changes=made,
        **turn_counters(game),
        result=_result(game),
        stand_in=stand_in,
        clocks=clocks,
        _trusted=True,
    )
