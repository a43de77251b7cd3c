"""Building engine positions by hand, and comparing whole game states."""

from __future__ import annotations

from collections import Counter

from sarja.server.engine import Arrangement, Game, HouseRules
from sarja.server.engine.board import parse_cell
from sarja.server.engine.cards import FULL_DECK, parse_card


def cards(text: str) -> list[int]:
    return [parse_card(code) for code in text.split()]


def position(
    players: int = 2,
    teams: int | None = None,
    hands: list[str] | None = None,
    chips: dict[str, int] | None = None,
    locked: list[str] = (),
    turn: int = 0,
    rules: HouseRules | None = None,
    draw_pile: str | None = None,
    discard: str = "",
) -> Game:
    """A game in a hand-made position.

    `hands` gives each seat's cards ("7H 2S"), `chips` maps cell names to the
    side holding them. Cards not in a hand or the discard pile form the draw
    pile (top card first when `draw_pile` is given), so all 104 are present."""
    arrangement = Arrangement.of(players, teams, rules or HouseRules())
    cut = (tuple((seat, seat * 4) for seat in range(players)),)  # seat 0 cuts lowest
    game = Game(arrangement, cut, list(FULL_DECK))
    game.hands = [cards(h) for h in (hands or [""] * players)]
    game.discard = cards(discard)
    rest = Counter(FULL_DECK)
    rest.subtract(game.discard)
    for hand in game.hands:
        rest.subtract(hand)
    if draw_pile is not None:
        top_first = cards(draw_pile)
        rest.subtract(top_first)
        assert all(n == 0 for n in rest.values()), "draw_pile must hold all the other cards"
        game.draw_pile = top_first[::-1]
    else:
        assert all(n >= 0 for n in rest.values()), "more copies of a card than exist"
        game.draw_pile = sorted(rest.elements())
    for name, side in (chips or {}).items():
        game.chips[parse_cell(name)] = side + 1
    for name in locked:
        game.locked[parse_cell(name)] = 1
    game.turn = turn
    return game


def snapshot(game: Game) -> tuple:
    """Everything that makes up a game's state, for before/after comparisons."""
    return (
        bytes(game.chips),
        bytes(game.locked),
        tuple(tuple(h) for h in game.hands),
        tuple(game.draw_pile),
        tuple(game.discard),
        tuple(tuple(s) for s in game.sequences),
        game.turn,
        game.exchanged,
        game.passes,
        tuple(game.pending_draw),
        game.outcome,
        tuple(game.history),
        tuple(game.reshuffles),
    )
