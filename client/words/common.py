"""The names of the game's things: cards, sides, table shapes, fives, and who did it.

A name comes as text or as a styled fragment (a card in its colour, a name in its
side's), the way the log, the panel and the lists all write them.
"""

from __future__ import annotations

import string

from sarja.lang import N_, _, language, pgettext, translated
from sarja.protocol.cards import FiveEnds, card_label, cell_name
from sarja.protocol.mirror import GameMirror

from ..styles import card_style, side_style

Fragment = tuple[str, str]  # (style, text), prompt_toolkit's formatted text

SIDE_NAMES = (N_("Blue"), N_("Green"), N_("Red"))
YOU = N_("You")
SOMEONE = N_("Someone")
# A card's suit and rank in words, by their letters in a card code (protocol/cards.py).
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
RANK_NAMES = {"A": N_("ace"), "K": N_("king"), "Q": N_("queen"), "J": N_("jack")}
ONE_EYED_JACK = N_("one-eyed jack")
TWO_EYED_JACK = N_("two-eyed jack")


def card_part(card: str) -> Fragment:
    return (card_style(card), card_label(card))


def card_name(card: str) -> str:
    """A card in words, as players say it: "7 of hearts", "queen of spades" (in Finnish
    "hertta 7", "patarouva")."""
    suit = SUIT_NAMES.get(card[1:2], card[1:])
    if card[0] in RANK_NAMES:
        return _("{rank} of {suit}").format(rank=RANK_NAMES[card[0]], suit=suit)
    return _("{number} of {suit}").format(number=card_label(card)[:-1], suit=suit)


def parts(template: str, **fragments: Fragment | str | list[Fragment]) -> list[Fragment]:
    """A translated sentence with named places ("{who} played {card} at {cell}.") as
    styled fragments: each place filled with its fragment, the words between unstyled,
    so a language puts the places in its own order."""
    out: list[Fragment] = []
    for text, field, _spec, _conv in string.Formatter().parse(template):
        if text:
            out.append(("", text))
        if field is not None:
            value = fragments[field]
            if isinstance(value, str):
                out.append(("", value))
            elif isinstance(value, list):
                out.extend(value)
            else:
                out.append(value)
    return out


_letters: dict[str, tuple[str, str, str]] = {}  # language -> the chips' letters


def side_letter(side: int) -> str:
    """The letter on a side's chips, from its colour's name in the language of the
    moment: B G R in English, S V P (sininen, vihreä, punainen) in Finnish."""
    now = language()
    if now not in _letters:
        _letters[now] = (
            pgettext("the letter on Blue's chips", "B"),
            pgettext("the letter on Green's chips", "G"),
            pgettext("the letter on Red's chips", "R"),
        )
    return _letters[now][side]


def side_label(side: int) -> str:
    """ "Blue (B)"."""
    return f"{SIDE_NAMES[side]} ({side_letter(side)})"


def arrangement_label(players: int, teams: int) -> str:
    """ "2 players", "2 teams of 3": the table's shape as the lobby shows it."""
    if players == teams:
        return _("{players} players").format(players=players)
    return _("{teams} teams of {size}").format(teams=teams, size=players // teams)


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
    return colour if alone(game, side) else _("Team {colour}").format(colour=colour)


translated(__name__)
