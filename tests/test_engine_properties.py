"""Random legal games, from random seeds, for every table arrangement, with the
engine's invariants checked on every step."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.server.engine import (
    Action,
    Arrangement,
    EngineError,
    Game,
    HouseRules,
    record_json,
    replay,
    seat_view,
)
from sarja.server.engine.actions import DRAW, EXCHANGE, PASS, PLACE, REMOVE
from sarja.server.engine.cards import FULL_DECK

from .engine_helpers import snapshot

ARRANGEMENTS = [(2, None), (3, None), (4, None), (6, 2), (6, 3), (8, None), (9, None),
                (10, None), (12, 2), (12, 3)]  # fmt: skip
MAX_ACTIONS = 3000  # no game may run longer than this


def random_action(rng: random.Random) -> Action:
    """Any well-formed base action, legal or not."""
    kind = rng.choice((PLACE, PLACE, REMOVE, EXCHANGE, DRAW, PASS))
    if kind in (DRAW, PASS):
        return Action(kind)
    card = rng.randrange(52)
    return Action(kind, card) if kind == EXCHANGE else Action(kind, card, rng.randrange(100))


def hidden_reshuffled(game: Game, seat: int | None, rng: random.Random) -> Game:
    """The same game as `seat` sees it, with everything hidden from `seat`
    (the other hands and the draw pile's order) dealt differently."""
    other = game.copy()
    hidden_seats = [s for s in range(game.players) if s != seat]
    pool = [c for s in hidden_seats for c in other.hands[s]] + other.draw_pile
    rng.shuffle(pool)
    for s in hidden_seats:
        n = len(other.hands[s])
        other.hands[s], pool = pool[:n], pool[n:]
    other.draw_pile = pool
    return other


def every_real_choice(game: Game, seat: int) -> tuple:
    """The view's choices, the slow way: ask about every space the seat may play on."""
    found = []
    for cell in sorted({a.cell for a in game.legal_actions(seat) if a.kind == PLACE}):
        lines = game.sequence_options(seat, cell)
        if any(len(options) > 1 for options in lines):
            found.append((cell, tuple(tuple(options) for options in lines)))
    return tuple(found)


def check_step(game: Game, rng: random.Random) -> None:
    assert game.all_cards() == Counter(FULL_DECK)
    for seat in range(game.players):
        legal = game.legal_actions(seat)
        assert len(set(legal)) == len(legal)
        for action in legal:  # every listed action is accepted ...
            game.copy().apply(seat, action)
            if action.kind == PLACE:  # ... and so is every real sequence choice
                for options in game.sequence_options(seat, action.cell):
                    for option in options[1:]:
                        game.copy().apply(seat, action._replace(fives=option))
        listed = set(legal)
        for _ in range(4):  # ... and unlisted ones are refused, changing nothing
            action = random_action(rng)
            if action in listed:
                continue
            before = snapshot(game)
            with pytest.raises(EngineError):
                game.apply(seat, action)
            assert snapshot(game) == before
    # A view depends only on what its seat may know (until the game is over,
    # when every hand is revealed).
    for seat in (rng.randrange(game.players), None):
        view = seat_view(game, seat)
        if game.outcome is None:
            assert view == seat_view(hidden_reshuffled(game, seat, rng), seat)
        else:
            assert view.revealed_hands == tuple(tuple(sorted(h)) for h in game.hands)
        if seat is not None:
            assert view.hand == tuple(sorted(game.hands[seat]))
            assert view.choices == every_real_choice(game, seat)
            assert set(view.legal) == set(game.legal_actions(seat))


def play_random_game(arrangement: Arrangement, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(arrangement, random.Random(seed ^ 0x5A5A))
    while game.outcome is None:
        assert game.version < MAX_ACTIONS, "the game did not end"
        check_step(game, rng)
        # Whoever can act; under manual draw, seats waiting to draw act too.
        seats = [s for s in range(game.players) if game.legal_actions(s)]
        seat = rng.choice(seats)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    check_step(game, rng)
    return game


@pytest.mark.parametrize("players, teams", ARRANGEMENTS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), manual_draw=st.booleans())
def test_random_games_keep_every_invariant(players, teams, seed, manual_draw):
    arrangement = Arrangement.of(players, teams, HouseRules(manual_draw=manual_draw))
    game = play_random_game(arrangement, seed)
    assert game.outcome.result in ("win", "draw")
    if game.outcome.result == "win":
        assert len(game.sequences[game.outcome.side]) >= arrangement.needed
    replayed = replay(record_json(game))
    assert snapshot(replayed) == snapshot(game)
