"""The computer players: legal, blind to hidden cards, within budget, and
sensible where it is plain what sensible is."""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.server.bots import LEVELS, make_player
from sarja.server.bots.judge import Judgement
from sarja.server.bots.search import Hard
from sarja.server.bots.worlds import WorldMaker
from sarja.server.engine import Action, Arrangement, Game, HouseRules, seat_view
from sarja.server.engine.actions import DRAW_ACTION, PLACE
from sarja.server.engine.board import parse_cell
from sarja.server.engine.cards import parse_card

from .engine_helpers import position

# Every seating the rules allow, by (players, teams).
SEATINGS = [(2, None), (3, None), (4, None), (6, 2), (6, 3), (8, None), (9, None), (10, None),
            (12, 2), (12, 3)]  # fmt: skip
ALL_LEVELS = (*LEVELS, "baseline")


def player(level: str, seed: int = 7):
    # Hard on a budget of worlds, not seconds: reproducible and quick.
    if level == "hard":
        return make_player(level, seed=seed, simulations=3)
    return make_player(level, seed=seed)


def random_game(players: int, teams: int | None, manual: bool, seed: int, moves: int) -> Game:
    """A game some way in, the moves chosen at random (draws taken at once
    or late, as they come)."""
    rng = random.Random(seed)
    game = Game.new(Arrangement.of(players, teams, HouseRules(manual_draw=manual)), rng)
    for _ in range(moves):
        if game.outcome is not None:
            break
        seats = sorted({game.turn, *game.pending_draw})
        seat = rng.choice(seats)
        legal = game.legal_actions(seat)
        if legal:
            game.apply(seat, rng.choice(legal))
    return game


def acting_seats(game: Game) -> list[int]:
    return [seat for seat in range(game.players) if game.legal_actions(seat)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seating=st.sampled_from(SEATINGS),
    manual=st.booleans(),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 150),
)
def test_every_level_only_ever_returns_a_legal_action(seating, manual, seed, moves):
    game = random_game(*seating, manual, seed, moves)
    for seat in acting_seats(game):
        view = seat_view(game, seat)
        for level in ALL_LEVELS:
            action = player(level, seed).choose(view)
            assert isinstance(action, Action)
            assert action in view.legal, (level, str(action))
            game.copy().apply(seat, action)  # the engine accepts it too


def test_levels_play_whole_games_to_the_end():
    for seating, levels in [((2, None), ("easy", "medium")), ((4, None), ("hard", "medium")),
                            ((6, 3), ("medium", "easy", "hard"))]:  # fmt: skip
        game = Game.new(Arrangement.of(*seating), random.Random(11))
        players = [player(levels[game.side_of(seat)], seat) for seat in range(game.players)]
        while game.outcome is None and game.version < 1500:
            game.apply(game.turn, players[game.turn].choose(seat_view(game, game.turn)))
        assert game.outcome is not None


def with_other_hidden_cards(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game as `seat` sees it, the cards it cannot see dealt anew:
    the other hands (same sizes) and the draw pile (same size)."""
    other = game.copy()
    seats = [s for s in range(game.players) if s != seat]
    hidden = [card for s in seats for card in other.hands[s]] + other.draw_pile
    rng.shuffle(hidden)
    for s in seats:
        size = len(other.hands[s])
        other.hands[s], hidden = hidden[:size], hidden[size:]
    other.draw_pile = hidden
    return other


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seating=st.sampled_from(SEATINGS),
    manual=st.booleans(),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 120),
)
def test_a_choice_does_not_depend_on_the_hidden_cards(seating, manual, seed, moves):
    game = random_game(*seating, manual, seed, moves)
    if game.outcome is not None:
        return
    seat = game.turn
    other = with_other_hidden_cards(game, seat, random.Random(seed))
    view, other_view = seat_view(game, seat), seat_view(other, seat)
    assert view == other_view
    for level in ALL_LEVELS:
        if level == "hard":
            first = make_player(level, seed=seed, simulations=8).choose(view)
            second = make_player(level, seed=seed, simulations=8).choose(other_view)
        else:
            first = player(level, seed).choose(view)
            second = player(level, seed).choose(other_view)
        assert first == second, level


def test_hard_in_a_changed_world_chooses_as_before():
    """The hidden cards really differ, and so would a peek at them: the hard
    player's worlds come from the view alone."""
    game = random_game(2, None, False, 5, 30)
    seat = game.turn
    other = with_other_hidden_cards(game, seat, random.Random(1))
    assert other.hands != game.hands
    hard = make_player("hard", seed=3, simulations=30)
    assert hard.choose(seat_view(game, seat)) == hard.choose(seat_view(other, seat))
    maker, other_maker = WorldMaker(seat_view(game, seat)), WorldMaker(seat_view(other, seat))
    world = maker.deal(random.Random(9))
    other_world = other_maker.deal(random.Random(9))
    assert world.hands == other_world.hands and world.draw_pile == other_world.draw_pile
    # A world holds all 104 cards, the seat's own hand as it is.
    assert sum(world.all_cards().values()) == 104
    assert sorted(world.hands[seat]) == sorted(game.hands[seat])


class StepClock:
    """A clock that moves on a fixed step every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_hard_stops_when_its_time_is_up():
    game = random_game(2, None, False, 8, 24)
    view = seat_view(game, game.turn)
    assert len(Judgement(view).ranked(view.legal)) > 1
    clock = StepClock(0.05)
    hard = Hard(seed=1, think_time=0.5, clock=clock)
    assert hard.choose(view) in view.legal
    # One read to start, one per world: about 0.5 / 0.05 worlds, not more.
    assert 1 <= hard.last_simulations <= 11
    assert clock.reads <= 12


def test_hard_keeps_to_a_real_time_budget_loosely():
    game = random_game(4, None, False, 8, 30)
    view = seat_view(game, game.turn)
    started = time.perf_counter()
    make_player("hard", seed=1, think_time=0.2).choose(view)
    assert time.perf_counter() - started < 2.0  # generous: only a runaway fails


def test_hard_with_a_budget_of_simulations_reads_no_clock():
    def no_clock() -> float:
        raise AssertionError("read the clock")

    game = random_game(3, None, False, 2, 20)
    view = seat_view(game, game.turn)
    hard = Hard(seed=1, simulations=5, clock=no_clock)
    assert hard.choose(view) in view.legal
    assert hard.last_simulations in (0, 5)  # 0: the choice was plain without search


def place(card: str, cell: str) -> Action:
    return Action(PLACE, parse_card(card), parse_cell(cell))


def test_medium_blocks_an_open_four_it_can_cover():
    # Green holds A6-D6; E6 (2H) would make its five. Blue could instead make
    # a three of its own on row 3 with the 4D.
    game = position(
        hands=["2H 4D 9S QC KC AC 3S", "4C 4C 6C 6C 7S 8S AD"],
        chips={"A6": 1, "B6": 1, "C6": 1, "D6": 1, "C3": 0, "D3": 0},
    )
    view = seat_view(game, 0)
    assert make_player("medium", seed=1).choose(view) == place("2H", "E6")


def test_medium_blocks_a_four_with_a_one_eyed_jack_when_no_card_covers_it():
    game = position(
        hands=["JS 4D 9S QC KC AC 3S", "4C 4C 6C 6C 7S 8S AD"],
        chips={"A6": 1, "B6": 1, "C6": 1, "D6": 1},
    )
    action = make_player("medium", seed=1).choose(seat_view(game, 0))
    assert action.card == parse_card("JS") and action.cell in {
        parse_cell(c) for c in ("A6", "B6", "C6", "D6")
    }


def finished_row_one() -> Game:
    """Blue's sequence A1 (a corner) to E1, locked; blue holds 6S, whose
    spaces are F1 (beside the sequence) and C9 (beside two blue chips)."""
    game = position(
        hands=["6S 4C", "7S 8S 9S TS QS KS AS"],
        chips={"B1": 0, "C1": 0, "D1": 0, "E1": 0, "D9": 0, "E9": 0},
        locked=["A1", "B1", "C1", "D1", "E1"],
    )
    five = tuple(parse_cell(c) for c in ("A1", "B1", "C1", "D1", "E1"))
    game.sequences[0].append(five)
    return game


def test_medium_does_not_extend_a_finished_sequence_as_if_it_were_new():
    game = finished_row_one()
    # The engine agrees: F1 makes no new sequence.
    assert game.sequence_options(0, parse_cell("F1")) == []
    view = seat_view(game, 0)
    judgement = Judgement(view)
    extend = judgement.score(place("6S", "F1"))
    assert extend is not None and extend < 50
    assert make_player("medium", seed=1).choose(view) == place("6S", "C9")


def test_easy_and_hard_and_medium_are_different_players_with_a_level():
    for level in LEVELS:
        assert make_player(level).level == level
    with pytest.raises(ValueError):
        make_player("grandmaster")


def test_a_spectator_view_is_refused():
    game = random_game(2, None, False, 1, 3)
    with pytest.raises(ValueError):
        make_player("medium", seed=1).choose(seat_view(game, None))


def test_the_bots_import_only_the_engine():
    """Whatever the engine brings in, the bots add only themselves."""
    code = (
        "import sys, sarja.server.engine\n"
        "before = set(sys.modules)\n"
        "import sarja.server.bots\n"
        "print(sorted(m for m in set(sys.modules) - before"
        " if not m.startswith('sarja.server.bots')))\n"
        "print(sorted(m for m in ('trio', 'prompt_toolkit', 'msgpack') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    added, heavy = done.stdout.split("\n")[:2]
    assert heavy == "[]"
    assert all(
        not name.startswith(("sarja", "trio", "msgpack")) for name in ast.literal_eval(added)
    ), added


BENCH_BOTS = Path(__file__).resolve().parent.parent / "bench" / "bots.py"


def test_the_bench_quick_mode_ends_with_its_figures():
    done = subprocess.run(
        [sys.executable, str(BENCH_BOTS), "--quick", "--sighted"],
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard, as in test_bench_scripts.py (which leaves this run here)
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "win rate" in done.stdout
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    keys = ("hard_vs_medium", "hard_vs_baseline", "medium_vs_baseline", "easy_vs_baseline",
            "hard_ms_p95", "medium_ms_p95", "sighted_vs_medium", "sighted_vs_baseline",
            "hard_vs_hard_v1", "hard_vs_hard_v1_teams")  # fmt: skip
    for key in keys:
        assert isinstance(figures[key], float | int), key
    assert figures["blocks_missed_medium"] == 0 and figures["blocks_missed_hard"] == 0
    assert len(figures["hard_vs_hard_v1_interval"]) == 2


def bench_bots(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH_BOTS.parent))  # bench/bots.py's own imports
    spec = importlib.util.spec_from_file_location("bench_bots", BENCH_BOTS)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_benchs_stored_results_are_read_back_only_for_the_same_code(monkeypatch, tmp_path):
    # The long match is played in parts: a part's games must come back
    # as they were, and games of other players' code must never be mixed in.
    bench = bench_bots(monkeypatch)
    path = tmp_path / "results.jsonl"
    task = ("hard", "hard-v1", "2p", 7, True, 0.3, None)
    result = (task, 0.5, {"hard": [301.5], "hard-v1": [299.0]}, 97, 41.0)
    bench.store_result(path, "code-a", result)
    bench.store_result(path, "code-b", (task, 1.0, {}, 50, 1.0))
    assert bench.stored_results(path, "code-a") == {task: result}
    assert bench.stored_results(path, "code-c") == {}
    assert len(bench.code_identity()) == 16


def test_the_benchs_sighted_worlds_hold_the_real_hands(monkeypatch):
    # The measurement of what seeing the hidden cards is worth must really see
    # them, and leave only the draw pile's order to chance.
    bench = bench_bots(monkeypatch)
    game = Game.new(Arrangement.of(4), random.Random(7))
    for _ in range(9):
        game.apply(game.turn, make_player("medium", seed=1).choose(seat_view(game, game.turn)))
    seat = game.turn
    world = bench.SightedWorlds(seat_view(game, seat), game).deal(random.Random(3))
    assert [sorted(h) for h in world.hands] == [sorted(h) for h in game.hands]
    assert sorted(world.draw_pile) == sorted(game.draw_pile)
    assert world.draw_pile != game.draw_pile  # the order is dealt again


def test_hard_blocks_an_open_four_as_medium_does():
    # The position medium blocks in: hard blocks the same four, searching only
    # among the plays that block it.
    game = position(
        hands=["2H 4D 9S QC KC AC 3S", "4C 4C 6C 6C 7S 8S AD"],
        chips={"A6": 1, "B6": 1, "C6": 1, "D6": 1, "C3": 0, "D3": 0},
    )
    view = seat_view(game, 0)
    assert make_player("hard", seed=1, simulations=20).choose(view) == place("2H", "E6")


def test_hard_completes_a_sequence_at_once():
    # Blue holds A6-D6 and the 2H for E6: hard makes the five at once,
    # without dealing a single world.
    game = position(
        hands=["2H 4D 9S QC KC AC 3S", "4C 4C 6C 6C 7S 8S AD"],
        chips={"A6": 0, "B6": 0, "C6": 0, "D6": 0},
    )
    view = seat_view(game, 0)
    clock = StepClock(1.0)
    hard = Hard(seed=1, think_time=0.5, clock=clock)
    assert hard.choose(view) == place("2H", "E6")
    assert hard.last_simulations == 0


@pytest.mark.parametrize(
    "options",
    [{"plies": 1}, {"plies": 2, "infer": True}, {"noise": 10.0}, {"candidates": 10}],
)
def test_hard_variants_are_legal_and_blind_to_the_hidden_cards(options):
    for seed in range(4):
        game = random_game(2, None, False, seed, 20 + 7 * seed)
        seat = game.turn
        other = with_other_hidden_cards(game, seat, random.Random(seed))
        first = Hard(seed=seed, simulations=6, **options).choose(seat_view(game, seat))
        second = Hard(seed=seed, simulations=6, **options).choose(seat_view(other, seat))
        assert first == second and first in seat_view(game, seat).legal


def test_noisy_play_outs_vary_near_ties_and_greedy_ones_do_not():
    from sarja.server.bots.search import _Policy
    from sarja.server.bots.threats import Threats

    game = random_game(2, None, False, 2, 12)
    while game.pending_draw:
        game.apply(game.pending_draw[0], DRAW_ACTION)
    packed = Judgement(seat_view(game, game.turn)).packed[:]

    def picks(noise: float) -> set[Action]:
        return {
            _Policy(game, Threats(game.chips, packed, 2), noise=noise, rng=random.Random(n)).choose(
                game, game.turn, packed
            )
            for n in range(20)
        }

    assert len(picks(0.0)) == 1
    assert len(picks(15.0)) > 1


def test_a_hand_is_unlikely_when_it_kept_more_cards_with_better_plays_than_it_drew_since():
    from sarja.server.bots.inference import _filter

    ace, king, two = 12, 11, 0  # any three cards: only membership counts
    # Newest play first: its one draw since may explain one marked card; the
    # play before, two draws since, two of the cards marked by either.
    likely = _filter([(1, frozenset({ace})), (2, frozenset({king}))])
    assert likely([ace, two, two])
    assert likely([ace, king, two])
    assert likely([king, king, two])
    assert not likely([ace, ace, two])  # both copies newer than the last play: one draw
    assert not likely([ace, king, king])  # three marked cards, two draws


@pytest.mark.parametrize("seating", SEATINGS)
def test_hard_reading_the_history_plays_legally_at_every_seating(seating):
    for manual in (False, True):
        game = random_game(*seating, manual, 11, 60)
        for seat in acting_seats(game):
            view = seat_view(game, seat)
            assert Hard(seed=2, simulations=2, infer=True).choose(view) in view.legal


def test_the_hands_medium_players_hold_mostly_pass_the_test_of_their_plays():
    """Against players who always make their best play (medium), the test of
    what their plays say keeps the true hand far more often than a random one."""
    from sarja.server.bots.inference import hand_filters

    kept = tested = random_passes = 0
    rng = random.Random(5)
    for deal in range(6):
        game = Game.new(Arrangement.of(2), random.Random(deal))
        players = [make_player("medium", seed=s) for s in range(2)]
        while game.outcome is None and len(game.history) < 80:
            seat = game.turn  # no manual draw here: the seat on turn acts
            view = seat_view(game, seat)
            if len(game.history) > 20 and len(game.history) % 5 == 0:
                maker = WorldMaker(view)
                for other, likely in hand_filters(view, maker).items():
                    tested += 1
                    kept += likely(game.hands[other])
                    size = len(game.hands[other])
                    random_passes += sum(likely(rng.sample(maker.unseen, size)) for _ in range(20))
            game.apply(seat, players[seat].choose(view))
    assert tested >= 20
    assert kept / tested >= 0.75
    assert kept / tested > 2 * random_passes / (20 * tested)
