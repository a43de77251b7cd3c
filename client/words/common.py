"""The names of the game's things: cards, sides, table shapes, fives, and who did it.

A name comes as text or as a styled fragment (a card in its colour, a name in its
side's), the way the log, the panel and the lists all write them.
"""

from __future__ import annotations

from sarja.protocol.cards import FiveEnds, card_label, cell_name
from sarja.protocol.mirror import GameMirror

from ..styles import SIDE_LETTERS, card_style, side_style

Fragment = tuple[str, str]  # (style, text), prompt_toolkit's formatted text

SIDE_NAMES = ("Blue", "Green", "Red")
YOU = "You"
SOMEONE = "Someone"


def card_part(card: str) -> Fragment:
    return (card_style(card), card_label(card))


def side_label(side: int) -> str:
    """ "Blue (B)"."""
    return f"{SIDE_NAMES[side]} ({SIDE_LETTERS[side]})"


def arrangement_label(players: int, teams: int) -> str:
    """ "2 players", "2 teams of 3": the table's shape as the lobby shows it."""
    if players == teams:
        return f"{players} players"
    return f"{teams} teams of {players // teams}"


def five_label(five: FiveEnds) -> str:
    """(0, 4) -> "A1–E1"."""
    return f"{cell_name(five[0])}–{cell_name(five[1])}"


def fives_label(fives: tuple[FiveEnds, ...] | list[FiveEnds]) -> str:
    """ "A1–E1, A2–E2"."""
    return ", ".join(five_label(f) for f in fives)


def plain(parts: tuple[Fragment, ...] | list[Fragment]) -> str:
    return "".join(text for _, text in parts)


def who_part(game: GameMirror, seat: int | None, you: bool) -> Fragment:
    """A seat's name in its side's colour, or "You" when `you` and it is ours."""
    if seat is None or seat >= len(game.players):
        return ("", SOMEONE)
    style = side_style(game.players[seat].side)
    if you and seat == game.seat:
        return (style, YOU)
    return (style, game.players[seat].name)


def alone(game: GameMirror, side: int) -> bool:
    """One player makes the side."""
    return sum(p.side == side for p in game.players) == 1


def side_name(game: GameMirror, side: int) -> str:
    """ "Blue" when one player makes the side, "Team Blue" when several do."""
    colour = SIDE_NAMES[side]
    return colour if alone(game, side) else f"Team {colour}"
