"""A client's checks of what the server says against the table's shape. Sans-IO.

The codec checks each field on its own (a seat is 0 to 11, a cell 0 to 99); only the
game's picture can say whether seat 11 exists at a 2-seat table, whether side 2 exists
at a two-sided one, whether a chip is where a change removes it, or whether the cards
still add up to the 104 of two decks. A client checks those too, because a server (or
something pretending to be one) can lie, and a lie must never crash the client or grow
what it keeps: it is refused with `ServerProtocolError`, code `bad_server_message`.

Nothing here knows the rules beyond the table's shape and the deck: these are the
facts every picture of a game holds, whatever happened in it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import CORNERS, five_cells
from .errors import RemoteProtocolError
from .limits import DECK_SIZE

if TYPE_CHECKING:
    from .messages import MatchScore, Player, Result, Snapshot, TableView

CHIPS = "bgr"  # a side's chip on the board, by side; capital when locked in a sequence
COPIES = 2  # two decks: every card twice
_NOT_CORNER = frozenset(range(100)) - frozenset(CORNERS)


class ServerProtocolError(RemoteProtocolError):
    """The server sent a message that is well formed but does not fit the game: a seat,
    side, cell or card the table cannot have. Nothing of it was taken in."""

    def __init__(self, message: str) -> None:
        super().__init__("bad_server_message", message)


def refuse(message: str) -> ServerProtocolError:
    return ServerProtocolError(message)


def seat(n: int | None, players: int, what: str) -> int:
    if n is None or not 0 <= n < players:
        raise refuse(f"{what} names seat {n} at a table of {players} seats.")
    return n


def side(n: int | None, sides: int, what: str) -> int:
    if n is None or not 0 <= n < sides:
        raise refuse(f"{what} names side {n} at a table of {sides} sides.")
    return n


def table_fits(snap: Snapshot, view: TableView | None) -> None:
    """A snapshot of the table we are at has that table's seats and sides."""
    if view is None or view.id != snap.table:
        return
    if len(snap.players) != view.players or snap.sides != view.teams:
        raise refuse(
            f"The game has {len(snap.players)} seats and {snap.sides} sides, but its table"
            f" has {view.players} and {view.teams}."
        )
    if snap.seat != view.seat:
        raise refuse(f"The game puts us at seat {snap.seat}, the table at seat {view.seat}.")


def match_fits(view: TableView, before: TableView | None, result: Result | None = None) -> None:
    """A table's match score names only its sides, is won at most once and only by
    its last game, and goes on from the score shown `before` at the same table by one
    game at most (the game just over, `result`, if the score grew by it): or starts
    afresh, a new match."""
    match = view.match
    if match is None:
        return
    for g in match.games:
        if g is not None:
            side(g, view.teams, "The match score")
    wins = [0] * view.teams
    for n, g in enumerate(match.games):
        if g is not None:
            wins[g] += 1
            if wins[g] >= match.to and n != len(match.games) - 1:
                raise refuse(f"The match score goes on after side {g} won it.")
    kept: MatchScore | None = before.match if before and before.id == view.id else None
    if kept is None or not match.games or kept.to != match.to:
        return
    grew = len(match.games) - len(kept.games)
    if grew > 1 or (grew >= 0 and match.games[: len(kept.games)] != kept.games):
        raise refuse("The match score does not go on from the one shown before.")
    if grew == 1 and result is not None and match.games[-1] != result.side:
        raise refuse("The match score does not count the game just over as it ended.")


def snapshot_fits(snap: Snapshot) -> None:
    """Everything in a snapshot that one field cannot say alone."""
    players, sides = len(snap.players), snap.sides
    if snap.last is not None:
        seat(snap.last.seat, players, "The last move")
    for cell in _NOT_CORNER:
        chip = snap.board[cell]
        if chip != "." and CHIPS.index(chip.lower()) >= sides:
            raise refuse(f"The board has a chip of side {CHIPS.index(chip.lower())}.")
    for s, fives in enumerate(snap.sequences):
        locked = {c for c in _NOT_CORNER if snap.board[c] == CHIPS[s].upper()}
        if {c for f in fives for c in five_cells(f)} - set(CORNERS) != locked:
            raise refuse(f"Side {s}'s sequences are not where its locked chips are.")
    held_fits(snap.players, snap.rules.hand_size)
    if snap.result is not None:
        result_fits(snap.result, snap.players, sides, snap.discard)
    elif snap.seat is not None:
        hand_fits(snap.hand, snap.players[snap.seat].held, snap.discard)
    if snap.seat is None and (snap.hand or snap.legal):
        raise refuse("A spectator's snapshot holds a hand or legal actions.")
    cards_add_up(snap.players, len(snap.discard), snap.draw_size)
    legal_fits(snap.legal, snap.hand, snap.dead)


def turn_fits(turn: int, pending: Sequence[int], players: int) -> None:
    seat(turn, players, "The turn")
    for s in pending:
        seat(s, players, "A pending draw")


def held_fits(players: Sequence[Player], most: int) -> None:
    for s, p in enumerate(players):
        if p.held > most:
            raise refuse(f"Seat {s} holds {p.held} cards; a hand holds at most {most}.")


def cards_add_up(players: Sequence[Player], discard: int, draw_size: int) -> None:
    """Every card is in a hand or a pile: together they are never more than the deck.
    (They are exactly the deck; a client that only needs to stay sound asks no more.)"""
    total = sum(p.held for p in players) + discard + draw_size
    if total > DECK_SIZE:
        raise refuse(f"The hands and piles hold {total} cards; the deck has {DECK_SIZE}.")


def copies(cards: Iterable[str]) -> None:
    """No card shows more often than the two decks hold it."""
    for card, n in Counter(cards).items():
        if n > COPIES:
            raise refuse(f"The {card} shows {n} times; the deck holds it {COPIES} times.")


def hand_fits(hand: Sequence[str], size: int, discard: Sequence[str]) -> None:
    if len(hand) != size:
        raise refuse(f"Our hand holds {len(hand)} cards, but the game says {size}.")
    copies([*hand, *discard])


def result_fits(
    result: Result, players: Sequence[Player], sides: int, discard: Sequence[str]
) -> None:
    if result.side is not None:
        side(result.side, sides, "The result")
    if len(result.hands) != len(players):
        raise refuse(f"The result shows {len(result.hands)} hands for {len(players)} seats.")
    copies([*discard, *(c for hand in result.hands for c in hand)])


def legal_fits(legal: Sequence[str], hand: Sequence[str], dead: Sequence[str]) -> None:
    """Every legal action plays a card of the hand (where it may go is the server's
    word: the client never works that out)."""
    if not set(dead) <= set(hand):
        raise refuse("A dead card is not in the hand.")
    for action in legal:
        if action in ("draw", "pass"):
            continue
        if action.startswith("dead:"):
            if action[5:] not in dead:
                raise refuse(f"The legal action {action} exchanges a card that is not dead.")
        elif action[:2] not in hand:
            raise refuse(f"The legal action {action} plays a card that is not in the hand.")
