"""Threats judged as threats: counted by the space they need, fillable as far
as the seat can tell, and a winning four of another side blocked first."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.server.bots import make_player
from sarja.server.bots.judge import Judgement
from sarja.server.bots.reasons import move_reason, winning_threats
from sarja.server.bots.threats import Fill, Threats, open_cell
from sarja.server.bots.windows import WINDOWS, four_owner, pack
from sarja.server.engine import Action, Game, seat_view
from sarja.server.engine.actions import PLACE, REMOVE
from sarja.server.engine.board import LAYOUT, parse_cell
from sarja.server.engine.cards import JC, JD, parse_card

from .engine_helpers import position
from .test_bots import random_game

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))
import blocks  # noqa: E402  (bench/blocks.py: the suite's reader and check)
from hard_v1 import MediumV1  # noqa: E402  (medium as it was)

SUITE = blocks.load(Path(__file__).resolve().parent / "blocks.json")


def place(card: str, cell: str) -> Action:
    return Action(PLACE, parse_card(card), parse_cell(cell))


# ----- threats as spaces --------------------------------------------------


def threat_spaces(chips: bytearray, packed: list[int], sides: int) -> list[set[int]]:
    """The plain reading: for every window holding a four, the space it needs."""
    owners = four_owner()
    found: list[set[int]] = [set() for _ in range(sides)]
    for w, p in enumerate(packed):
        if owners[p]:
            found[owners[p] - 1].add(open_cell(chips, w))
    return found


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), moves=st.integers(20, 200), players=st.sampled_from([2, 3, 4]))
def test_threats_kept_move_by_move_agree_with_counting_afresh(seed, moves, players):
    game = random_game(players, None, False, seed, moves)
    chips = bytearray(game.chips)
    sides = game.arrangement.sides
    packed = pack(chips, game.sequences)
    threats = Threats(chips, packed, sides)
    rng = random.Random(seed)
    for _ in range(30):
        cell = rng.randrange(100)
        if chips[cell] == 4:
            continue
        if chips[cell]:
            changes = threats.changes(chips, packed, cell, 0, chips[cell])
            inc = -(1 << 3 * (chips[cell] - 1))
            chips[cell] = 0
        else:
            mark = rng.randint(1, sides)
            changes = threats.changes(chips, packed, cell, mark, 0)
            inc = 1 << 3 * (mark - 1)
            chips[cell] = mark
        threats.apply(changes)
        for w in range(len(WINDOWS)):
            if cell in WINDOWS[w]:
                packed[w] += inc
        assert [set(threats.cells(s)) for s in range(sides)] == threat_spaces(chips, packed, sides)
        for side in range(sides):
            for c in threats.cells(side):
                assert chips[c] == 0  # a threat is an empty space


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.integers(0, 51), max_size=7),
    discard=st.lists(st.integers(0, 51), max_size=40),
    cell=st.integers(0, 99).filter(lambda c: LAYOUT[c] >= 0),
)
def test_a_space_is_out_of_the_others_reach_only_when_every_card_for_it_is_seen(
    hand, discard, cell
):
    fill = Fill(hand, discard)
    seen = hand + discard
    card = LAYOUT[cell]
    out_of_reach = seen.count(card) >= 2 and seen.count(JD) + seen.count(JC) >= 4
    assert fill.by_others(cell) == (not out_of_reach)
    if card in hand or JD in hand or JC in hand:
        assert fill.by_us(cell)


def test_two_fours_needing_one_space_are_one_threat():
    # Blue's A2-B2-D2-E2 and C1-C3-C4-C5 both need C2: one threat, not two.
    game = position(
        hands=["QS TS 9H 8H 2H", "7S 8S 9S TS QS"],
        chips={"A2": 0, "B2": 0, "D2": 0, "E2": 0, "C1": 0, "C3": 0, "C4": 0, "C5": 0},
    )
    judge = Judgement(seat_view(game, 0))
    assert judge.threats.cells(0) == [parse_cell("C2")]
    assert judge.threats.counts[0][parse_cell("C2")] == 2


# ----- the flaws quoted in the issue -------------------------------------------


def both_one_from_winning(chips: dict[str, int], hands: list[str]) -> Game:
    """Green's sequence A10-E10 and blue's F10-J10 are made: the next one wins."""
    row = {f"{c}10": 1 for c in "BCDE"} | {f"{c}10": 0 for c in "FGHI"}
    game = position(hands=hands, chips=row | chips, locked=[f"{c}10" for c in "ABCDEFGHIJ"])
    game.sequences[1].append(tuple(parse_cell(f"{c}10") for c in "ABCDE"))
    game.sequences[0].append(tuple(parse_cell(f"{c}10") for c in "FGHIJ"))
    return game


def double_four_or_block() -> Game:
    """Green's G5-G8 needs G4 (2C) to win; blue's two-eyed jack on E8 would
    make two fours of its own (A8 and F8), on G4 it blocks."""
    return both_one_from_winning(
        {"G5": 1, "G6": 1, "G7": 1, "G8": 1, "G9": 0, "B8": 0, "C8": 0, "D8": 0},
        ["JD QS TS 9H 8H", "7S 8S 9S TS QS"],
    )


def one_eyed_jack_on_c2() -> Game:
    """Green's D9-G9 needs C9 (6S) to win. Blue's one-eyed jack on green's C2
    would make two fours that both need C2; on a chip of D9-G9 it blocks."""
    return both_one_from_winning(
        {
            "C2": 1,
            "A2": 0,
            "B2": 0,
            "D2": 0,
            "E2": 0,
            "C1": 0,
            "C3": 0,
            "C4": 0,
            "C5": 0,
            "D9": 1,
            "E9": 1,
            "F9": 1,
            "G9": 1,
            "H9": 0,
        },  # fmt: skip
        ["JS QS TS 9H 8H", "7S 8S 9S TS QS"],
    )


def idle_two_eyed_jack() -> Game:
    """Blue's two-eyed jack on F4 would make threes (no four, nothing to block
    or complete); a plain card builds instead."""
    return both_one_from_winning(
        {"D4": 0, "E4": 0, "F5": 0, "F6": 0, "B3": 0},
        ["JD QS 2D 9H 8H", "7S 8S 9S TS QS"],
    )


def test_the_positions_show_the_old_flaws():
    # Medium as it was (bench/hard_v1) makes each quoted mistake here.
    old = MediumV1(1)
    assert old.choose(seat_view(double_four_or_block(), 0)) == place("JD", "E8")
    taken = old.choose(seat_view(one_eyed_jack_on_c2(), 0))
    assert (taken.kind, taken.cell) == (REMOVE, parse_cell("C2"))
    assert old.choose(seat_view(idle_two_eyed_jack(), 0)).card == parse_card("JD")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_double_four_does_not_come_before_blocking_a_winning_four(level):
    view = seat_view(double_four_or_block(), 0)
    assert winning_threats(view) == (parse_cell("G4"),)
    action = make_player(level, seed=1, simulations=20).choose(view)
    assert action == place("JD", "G4")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_one_eyed_jack_blocks_the_winning_four_not_one_threat_counted_twice(level):
    view = seat_view(one_eyed_jack_on_c2(), 0)
    action = make_player(level, seed=1, simulations=20).choose(view)
    assert action.kind == REMOVE
    assert move_reason(view, action).blocks_winning == (parse_cell("C9"),)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_two_eyed_jack_is_not_spent_where_it_completes_blocks_and_threatens_nothing(level):
    view = seat_view(idle_two_eyed_jack(), 0)
    assert move_reason(view, place("JD", "F4")).wild_idle
    action = make_player(level, seed=1, simulations=20).choose(view)
    assert action.card != parse_card("JD")


def test_a_four_nobody_else_can_fill_is_no_winning_threat():
    # Both 2C are in blue's hand and discard, all four two-eyed jacks seen.
    game = double_four_or_block()
    game.hands[0] = [parse_card(c) for c in ["JD", "JD", "2C", "QS", "TS"]]
    game.discard = [parse_card(c) for c in ["2C", "JC", "JC"]]
    view = seat_view(game, 0)
    assert winning_threats(view) == ()


# ----- the block suite, from real bench games ----------------------------------


def test_the_suite_holds_real_positions_with_a_block_to_find():
    count = 0
    for game, seat in blocks.positions(SUITE):
        count += 1
        assert blocks.blockable(seat_view(game, seat))
    assert count >= 100


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_medium_and_hard_block_every_winning_four_of_the_suite(level):
    missed, total = blocks.misses(make_player(level, seed=3, simulations=3), SUITE)
    assert (missed, total) == (0, total)


def test_easy_misses_some_blocks_by_design():
    missed, total = blocks.misses(make_player("easy", seed=3), SUITE)
    assert 0 < missed < total


def test_old_medium_missed_blocks_of_the_suite():
    missed, _ = blocks.misses(MediumV1(3), SUITE)
    assert missed > 0


# ----- reading the hidden hands by a likelihood ------------------------------


def test_a_kept_card_with_a_better_play_costs_by_how_much_better_unless_drawn_since():
    from sarja.server.bots.inference import KEEP_SCALE, _likelihood

    ace, king, two = 12, 11, 0
    # Newest play first: one draw since it, 10 better with the ace, 40 with the king.
    likely = _likelihood([(1, {ace: 10.0, king: 40.0})])
    assert likely([two, two]) == 1.0
    assert likely([ace, two]) == 1.0  # the one card drawn since may be it
    both = likely([ace, king])  # one of them was kept: the lesser cost counts
    assert both == pytest.approx(math.exp(-10.0 / KEEP_SCALE))
    assert likely([ace, ace, king]) < both < 1.0


def test_the_hands_medium_players_hold_are_likelier_than_random_ones():
    """Against players who always make their best play and exchange dead cards
    (medium), the true hand's likelihood is well above a random hand's."""
    from sarja.server.bots.inference import hand_likelihoods
    from sarja.server.bots.worlds import WorldMaker
    from sarja.server.engine import Arrangement

    true_total = random_total = 0.0
    tested = 0
    rng = random.Random(5)
    for deal in range(5):
        game = Game.new(Arrangement.of(2), random.Random(deal))
        players = [make_player("medium", seed=s) for s in range(2)]
        while game.outcome is None and len(game.history) < 80:
            seat = game.turn
            view = seat_view(game, seat)
            if len(game.history) > 20 and len(game.history) % 5 == 0:
                maker = WorldMaker(view)
                for other, likely in hand_likelihoods(view, maker).items():
                    tested += 1
                    true_total += likely(game.hands[other])
                    size = len(game.hands[other])
                    random_total += sum(likely(rng.sample(maker.unseen, size)) for _ in range(20))
            game.apply(seat, players[seat].choose(view))
    assert tested >= 15
    assert true_total / tested > 2 * random_total / (20 * tested)  # about 0.97 and 0.36
