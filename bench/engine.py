"""How fast the rules engine plays: full random games per second, and the cost of
the operations a server or a computer player calls on every move.

Run: python bench/engine.py   (about ten seconds with the default --seconds 2).

For two players, two teams of two and two teams of six it prints
- full random games per second on one core: ``Game.new`` then, until the game
  is over, the seat on turn picks uniformly among ``game.legal_actions(seat)``
  and ``game.apply``s it -- the public API, validation included;
- the median microseconds of ``legal_actions``, ``apply``, ``seat_view`` and
  ``Game.copy`` over positions sampled from random games;
- the median microseconds of ``hand_targets`` and ``dead_cards`` for *every*
  seat of the position (what a server does after each move to see whose
  targets changed), and that figure divided by the number of seats.

It prints figures only; it asserts nothing about speed. Its last line is one
JSON object of the figures, keyed by name and player count (``seat_view_us_2``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from sarja.server.engine import Arrangement, Game, dead_cards, hand_targets, seat_view

ARRANGEMENTS = (
    ("two players", Arrangement.of(2)),
    ("two teams of two", Arrangement.of(4)),
    ("two teams of six", Arrangement.of(12, 2)),
)


def play_game(arrangement: Arrangement, rng: random.Random) -> int:
    """One full random game; returns how many actions it took."""
    game = Game.new(arrangement, rng)
    while game.outcome is None:
        seat = game.turn
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game.version


def games_per_second(
    arrangement: Arrangement, seconds: float, rng: random.Random, rounds: int = 4
) -> tuple[float, float, list[float]]:
    """Play whole games for about `seconds`, in `rounds` equal rounds.

    Returns games per second overall, mean actions per game, and each round's
    games per second (their spread shows how steady the machine was)."""
    warm_up_end = time.perf_counter() + min(0.5, seconds / 4)
    while time.perf_counter() < warm_up_end:
        play_game(arrangement, rng)
    games = actions = 0
    elapsed = 0.0
    round_rates = []
    for _ in range(rounds):
        round_games = 0
        start = now = time.perf_counter()
        end = start + seconds / rounds
        while now < end:
            actions += play_game(arrangement, rng)
            round_games += 1
            now = time.perf_counter()
        round_rates.append(round_games / (now - start))
        games += round_games
        elapsed += now - start
    return games / elapsed, actions / games, round_rates


def operation_medians(
    arrangement: Arrangement, samples: int, rng: random.Random
) -> dict[str, tuple[float, int]]:
    """Median µs (and sample count) of each operation, timed one call at a
    time at every position of random games until `samples` positions."""
    timings: dict[str, list[int]] = {
        "legal_actions": [],
        "apply": [],
        "seat_view": [],
        "copy": [],
        "targets_all_seats": [],
    }
    clock = time.perf_counter_ns
    seats = range(arrangement.players)
    taken = 0
    while taken < samples:
        game = Game.new(arrangement, rng)
        while game.outcome is None and taken < samples:
            seat = game.turn
            t0 = clock()
            legal = game.legal_actions(seat)
            t1 = clock()
            seat_view(game, seat)
            t2 = clock()
            other = game.copy()
            t3 = clock()
            action = rng.choice(legal)
            t4 = clock()
            other.apply(seat, action)  # on the copy, so this game goes on unchanged
            t5 = clock()
            for each in seats:
                hand_targets(game, each)
                dead_cards(game, each)
            t6 = clock()
            timings["legal_actions"].append(t1 - t0)
            timings["seat_view"].append(t2 - t1)
            timings["copy"].append(t3 - t2)
            timings["apply"].append(t5 - t4)
            timings["targets_all_seats"].append(t6 - t5)
            game.apply(seat, action)
            taken += 1
    return {name: (statistics.median(ns) / 1000, len(ns)) for name, ns in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="seconds of games per arrangement (default 2)"
    )
    parser.add_argument(
        "--samples", type=int, default=3000, help="positions timed per arrangement (default 3000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args()

    print(f"Python {platform.python_version()} ({platform.python_implementation()}), one core")
    figures: dict[str, float] = {}
    for label, arrangement in ARRANGEMENTS:
        players = arrangement.players
        rng = random.Random(args.seed)
        rate, mean_actions, round_rates = games_per_second(arrangement, args.seconds, rng)
        print(f"\n{label}:")
        print(
            f"  full random games    {rate:8.0f} games/s"
            f"   (rounds {min(round_rates):.0f}-{max(round_rates):.0f};"
            f" {mean_actions:.1f} actions per game)"
        )
        figures[f"games_per_s_{players}"] = round(rate)
        for name, (median_us, n) in operation_medians(arrangement, args.samples, rng).items():
            if name == "targets_all_seats":
                print(
                    f"  {'targets+dead ×' + str(players):<22} {median_us:6.1f} µs median"
                    f"   ({median_us / players:.2f} µs per seat, hand {arrangement.hand_size};"
                    f" {n} positions)"
                )
                figures[f"targets_per_seat_us_{players}"] = round(median_us / players, 2)
            else:
                print(f"  {name + '()':<22} {median_us:6.1f} µs median   ({n} positions)")
            figures[f"{name}_us_{players}"] = round(median_us, 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
