"""What the game on screen means for drawing and for keys, as the server says it.

Which spaces a card can take, which cards are dead, which placements have a choice of
fives: all read from the mirror's `targets`, `dead` and `choices`, never worked out
here. And who plays which seat, as the table last said.
"""

from __future__ import annotations

from sarja.protocol import notation
from sarja.protocol.cards import FiveEnds, five_cells
from sarja.protocol.messages import Choice
from sarja.protocol.mirror import GameMirror

from .model import Model


def targets(model: Model, card: str | None) -> frozenset[int]:
    """The spaces `card` can take (for a one-eyed jack, the chips it can remove), as the
    server lists them for each card in the hand, on turn or off."""
    g = model.game
    if g is None or card is None or g.result is not None or card not in g.hand:
        return frozenset()
    return frozenset(g.targets[g.hand.index(card)])


def is_dead(model: Model, card: str) -> bool:
    """A card with both its spaces covered, as the server says."""
    g = model.game
    return g is not None and g.result is None and card in g.dead


def playable(model: Model, card: str) -> bool:
    return bool(targets(model, card))


def choice_options(model: Model, cell: int) -> tuple[tuple[FiveEnds, ...], ...]:
    """The ways a placement at `cell` can form its sequences, when the choice is real."""
    g = model.game
    if g is None:
        return ()
    choice: Choice | None = next((c for c in g.choices if c.cell == cell), None)
    return choice.options if choice is not None else ()


def sequence_cells(model: Model, side: int | None = None) -> frozenset[int]:
    """Cells of completed sequences (of one side, or of all)."""
    g = model.game
    if g is None:
        return frozenset()
    cells: set[int] = set()
    for i, fives in enumerate(g.sequences):
        if side is None or i == side:
            for five in fives:
                cells.update(five_cells(five))
    return frozenset(cells)


def last_cell(game: GameMirror) -> int | None:
    """The space the last action placed a chip on or took one from."""
    last = game.last
    return None if last is None else notation.parse(last.action).cell


def final_board(model: Model) -> bool:
    """A finished game kept on screen after its table went back to waiting (someone
    left it), until the player moves on: the end is not snatched away."""
    g, table = model.game, model.table
    return (
        g is not None and g.result is not None and table is not None
        and not table.started and g.table == table.id and model.replay is None
    )  # fmt: skip


def computer_level(model: Model, seat: int) -> str | None:
    """The level of the computer that plays `seat` now, as the table last said."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return None
    return table.seats[seat].computer


HAND_OVER_AFTER = 60.0  # seconds away before `o` may hand the seat over (docs/protocol.md)


def follow_away(model: Model, now: float) -> None:
    """Note which seats of the game on screen went away when (`away_since`): after every
    message, so that `o` is offered when the server will take it."""
    g = model.game
    key = None if g is None else g.table
    if key != model.away_of:
        model.away_of, model.away_since, model.seen_here = key, {}, set()
    if g is None:
        return
    for seat, p in enumerate(g.players):
        if not p.away:
            model.away_since.pop(seat, None)
            model.seen_here.add(seat)
        elif seat not in model.away_since:
            model.away_since[seat] = now if seat in model.seen_here else None


def _away_seats(model: Model) -> list[int]:
    """The away players' seats the computer could play for: the one on turn first."""
    g = model.game
    if not model.seated or g is None or g.result is not None:
        return []
    away = [
        s for s, p in enumerate(g.players)
        if p.away and s != g.seat and computer_level(model, s) is None
    ]  # fmt: skip
    return sorted(away, key=lambda s: s != g.turn)


def away_left(model: Model, seat: int) -> float:
    """Seconds until the server hands `seat` over (0: now, or not known here)."""
    since = model.away_since.get(seat)
    return 0.0 if since is None else max(0.0, since + HAND_OVER_AFTER - model.clock_now)


def hand_over_seat(model: Model) -> int | None:
    """An away player's seat we could hand to the computer now: the one on turn, else
    the first, away the minute the server asks for (as far as we saw them go)."""
    return next((s for s in _away_seats(model) if away_left(model, s) <= 0), None)


def hand_over_later(model: Model) -> tuple[int, int] | None:
    """An away player's seat the computer may play later, and the seconds left until
    then: what `o` says while no seat can be handed over yet."""
    waiting = [(int(away_left(model, s) + 0.999), s) for s in _away_seats(model)]
    if not waiting:
        return None
    left, seat = min(waiting)
    return seat, left


def present(model: Model, seat: int | None) -> bool:
    """`seat`'s person is at the game on screen (not away), as the game last said."""
    g = model.game
    return (
        g is not None
        and seat is not None
        and 0 <= seat < len(g.players)
        and not g.players[seat].away
    )


def is_computer_seat(model: Model, seat: int) -> bool:
    """A computer player's own seat (not an away person's it plays for)."""
    table = model.table
    if table is None or not 0 <= seat < len(table.seats):
        return False
    s = table.seats[seat]
    return s.computer is not None and not s.away


def holding(model: Model) -> tuple[str, bool] | None:
    """The fingerprint of the server we are at, and whether a seat there waits for us:
    one at a game under way, or one the server keeps while we are in the lobby (None: no
    server yet)."""
    server = model.session.peer_key
    if not server or model.welcome is None or model.link != "online":
        return None
    g, table = model.game, model.table
    playing = (
        table is not None and table.seat is not None and table.started
        and g is not None and g.result is None and model.replay is None
    )  # fmt: skip
    return server, playing or model.kept_at is not None
