"""Seat views: the fast search for sequence choices against the plain one, and
the targets and dead cards a view gives a client, against the rules as
``Game.legal_actions`` states them."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.server.engine import (
    Arrangement,
    Game,
    HouseRules,
    dead_cards,
    hand_targets,
    seat_view,
)
from sarja.server.engine.actions import EXCHANGE, PLACE, REMOVE
from sarja.server.engine.board import CORNERS, parse_cell
from sarja.server.engine.cards import JD
from sarja.server.engine.view import sequence_choices

from .engine_helpers import cards, position
from .test_engine_properties import ARRANGEMENTS, every_real_choice

MAX_ACTIONS = 3000


def random_positions(arrangement: Arrangement, seed: int):
    """Every position of one random game, the last (finished) one included."""
    rng = random.Random(seed)
    game = Game.new(arrangement, random.Random(seed ^ 0xA5A5))
    while True:
        yield game
        if game.outcome is not None:
            return
        assert game.version < MAX_ACTIONS, "the game did not end"
        seats = [s for s in range(game.players) if game.legal_actions(s)]
        seat = rng.choice(seats)
        game.apply(seat, rng.choice(game.legal_actions(seat)))


def plain_choices(game: Game, seat: int, cells) -> set[int]:
    """The cells among `cells` where a chip of `seat` offers a real choice."""
    return {
        cell
        for cell in cells
        if any(len(options) > 1 for options in game.sequence_options(seat, cell))
    }


def on_turn_copy(game: Game, seat: int) -> Game:
    """The game as it would be if it were `seat`'s turn, before any exchange."""
    other = game.copy()
    other.turn = seat
    other.exchanged = False
    return other


@pytest.mark.parametrize("players, teams", ARRANGEMENTS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), manual_draw=st.booleans())
def test_fast_choices_match_the_plain_search(players, teams, seed, manual_draw):
    arrangement = Arrangement.of(players, teams, HouseRules(manual_draw=manual_draw))
    for game in random_positions(arrangement, seed):
        seat = game.turn
        assert seat_view(game, seat).choices == every_real_choice(game, seat)
        if game.outcome is not None:
            continue  # nothing is legal, so there is nothing to choose
        # Off turn, too, as if the seat held a wild jack: every empty space.
        empty = [c for c in range(100) if game.chips[c] == 0]
        for other in range(arrangement.sides):  # one seat per side
            game.hands[other].append(JD)
            try:
                legal = on_turn_copy(game, other).legal_actions(other)
                fast = {cell for cell, _ in sequence_choices(game, other, legal)}
            finally:
                game.hands[other].remove(JD)
            assert fast == plain_choices(game, other, empty)


@settings(max_examples=300, deadline=None)
@given(
    marks=st.lists(st.sampled_from((0, 1, 1, 1, 2, 3)), min_size=100, max_size=100),
    sides=st.sampled_from((2, 3)),
)
def test_fast_choices_match_on_crowded_boards(marks, sides):
    """Random games seldom make six in a row; crowded random boards often do."""
    game = position(players=sides, hands=["JD"] + [""] * (sides - 1))
    for cell, mark in enumerate(marks):
        if cell not in CORNERS:
            game.chips[cell] = 0 if mark > sides else mark
    legal = game.legal_actions(0)
    empty = [c for c in range(100) if game.chips[c] == 0]
    fast = sequence_choices(game, 0, legal)
    assert {cell for cell, _ in fast} == plain_choices(game, 0, empty)
    assert fast == every_real_choice(game, 0)


@pytest.mark.parametrize("players, teams", ARRANGEMENTS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), manual_draw=st.booleans())
def test_targets_and_dead_cards_are_what_the_rules_allow(players, teams, seed, manual_draw):
    arrangement = Arrangement.of(players, teams, HouseRules(manual_draw=manual_draw))
    for game in random_positions(arrangement, seed):
        for seat in range(players):
            view = seat_view(game, seat)
            assert view.targets == hand_targets(game, seat)
            assert view.dead == dead_cards(game, seat)
            assert len(view.targets) == len(view.hand)
            legal = on_turn_copy(game, seat).legal_actions(seat)
            for card, cells in zip(view.hand, view.targets, strict=True):
                assert list(cells) == sorted(set(cells))
                assert set(cells) == {
                    a.cell for a in legal if a.kind in (PLACE, REMOVE) and a.card == card
                }
            assert view.dead == tuple(sorted(a.card for a in legal if a.kind == EXCHANGE))
        spectator = seat_view(game, None)
        assert spectator.targets == () and spectator.dead == ()


def test_targets_of_each_kind_of_card():
    # Seat 0 (blue) holds 7H with I5 taken, 2S with both spaces (B1, G9) taken,
    # a wild jack and a one-eyed jack. Green has free chips on I5 and B1 and a
    # locked one on A2; blue's own chips are on C1 and G9.
    game = position(
        players=2,
        hands=["7H 2S 2S JD JS", "3S"],
        chips={"I5": 1, "B1": 1, "A2": 1, "C1": 0, "G9": 0},
        locked=["A2"],
        turn=1,
    )
    hand = tuple(sorted(cards("7H 2S 2S JD JS")))
    view = seat_view(game, 0)
    assert view.hand == hand and view.legal == ()
    open_cells = tuple(c for c in range(100) if game.chips[c] == 0)
    expected = {
        "7H": (parse_cell("D6"),),
        "2S": (),
        "JD": open_cells,
        "JS": (parse_cell("B1"), parse_cell("I5")),
    }
    named = dict(zip(hand, view.targets, strict=True))
    assert named == {cards(code)[0]: cells for code, cells in expected.items()}
    assert view.dead == tuple(cards("2S"))


def test_nothing_is_a_target_once_the_game_is_over():
    game = position(hands=["5S", "2H 3H"], chips={"B1": 0, "C1": 0, "D1": 0}, players=3)
    game.apply(0, game.legal_actions(0)[0]._replace(cell=parse_cell("E1")))
    assert game.outcome is not None
    assert hand_targets(game, 1) == ((), ()) and dead_cards(game, 1) == ()
