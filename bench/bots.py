"""How well and how fast the computer players play: a round robin of
baseline, easy, medium and hard.

Run: python bench/bots.py   (about 20 minutes on a two-core machine: hard v hard-v1
is the long part).

Every pair of levels meets in two-player games and in two teams of two. Each
deal (a seeded cut and shuffle) is played twice with the sides swapped, so
neither level gets the luckier cards. ``baseline`` is the logic of the first
stand-in player (server/bots/baseline.py); ``random`` (easy's sparring partner only)
picks uniformly among the legal actions. With ``--sighted`` it also plays
``sighted``, hard searching worlds dealt with the other seats' real hands
(the draw pile still shuffled), against medium and baseline in two-player
games and against hard-v1 in both seatings: what hard would score if it could
see the hidden cards. It is a measurement, never a player. ``hard-v1`` is
hard as it was before threats were judged as threats and hands read by a
likelihood (frozen under bench/hard_v1/, never a level); with
``--v1`` medium also meets ``medium-v1``, medium as it was, on ten times as
many deals. After the games, medium and hard are checked on the block suite
(tests/blocks.json, bench/blocks.py): ``blocks_missed_medium`` and
``blocks_missed_hard``. It also prints how long the issue's full run of hard
against hard-v1 (1,000 two-player and 400 team games) would take at the pace
measured. It prints each pairing's win rate
for the first-named level with a 95% (Wilson) interval, draws counting half,
and the milliseconds each level took per decision (median and 95th
percentile), timed around ``choose`` only. Games run in parallel, one process
per core, so hard's times are those of a loaded machine.

With ``--results FILE`` every game's result is appended to FILE as it ends, and
a run with the same FILE plays only the games not in it yet, so the issue's long
run can be played in parts. A line counts only for the same code of the
players (server/bots, bench/hard_v1) and the same budgets.

The last line is one JSON object of the headline figures. It asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import blocks
from hard_v1 import HardV1, MediumV1

from sarja.server.bots import DEFAULT_THINK_TIME, make_player
from sarja.server.bots.search import Hard
from sarja.server.bots.worlds import WorldMaker
from sarja.server.engine import Action, Arrangement, Game, SeatView, seat_view

ARRANGEMENTS = {"2p": Arrangement.of(2), "2x2": Arrangement.of(4)}
ARRANGEMENT_NAMES = {"2p": "two players", "2x2": "two teams of two"}
# Pairings, first-named level's win rate reported; hard's cost most.
PAIRINGS = (
    ("hard", "hard-v1"),
    ("hard", "medium"),
    ("hard", "baseline"),
    ("hard", "easy"),
    ("medium", "baseline"),
    ("medium", "easy"),
    ("easy", "baseline"),
    ("easy", "random"),
)
# With --v1, medium against medium as it was before threats (a fast proxy of
# the judgement's worth), ten times --games deals in two-player games.
V1_PAIRINGS = (("medium", "medium-v1"),)
# With --sighted: against medium and baseline in two-player games, each on
# --games deals; against hard-v1 in both seatings, on hard's share of them (the
# ceiling of the match: what this search scores seeing every hand).
SIGHTED_PAIRINGS = (("sighted", "medium"), ("sighted", "baseline"), ("sighted", "hard-v1"))
# Hard's games take most of the time: the deals each pairing with hard gets,
# as a share of --games (hard against medium in two-player games).
HARD_SHARE = {
    ("hard-v1", "2p"): 1.0,
    ("hard-v1", "2x2"): 0.4,
    ("medium", "2p"): 1.0,
    ("baseline", "2p"): 0.5,
    ("easy", "2p"): 0.2,
    ("medium", "2x2"): 0.25,
    ("baseline", "2x2"): 0.1,
    ("easy", "2x2"): 0.1,
}
# A game this long is stuck (jacks removing and replacing): call it a draw.
MAX_ACTIONS = 1500


class RandomPlayer:
    level = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)


class SightedWorlds(WorldMaker):
    """Worlds dealt with the other seats' real hands; only the draw pile's
    order is left to chance."""

    def __init__(self, view: SeatView, game: Game) -> None:
        super().__init__(view)
        self.game = game

    def deal(self, rng: random.Random, likely: object = None, tries: int = 1) -> Game:
        cards = self.unseen[:]
        hands = []
        for seat, hand in enumerate(self.game.hands):
            if seat == self.seat:
                hands.append(list(self.view.hand))
                continue
            hands.append(list(hand))
            for card in hand:
                cards.remove(card)
        rng.shuffle(cards)
        return self.world(hands, cards, rng)


class SightedPlayer:
    """Hard as it is, searching worlds with the hidden hands as they really
    are: what knowing them would be worth. `play` shows it the game."""

    level = "sighted"

    def __init__(self, seed: int, think_time: float | None, simulations: int | None) -> None:
        self.game: Game | None = None
        self.hard = Hard(seed, think_time, simulations, infer=False, worlds=self._worlds)

    def _worlds(self, view: SeatView) -> WorldMaker:
        assert self.game is not None
        return SightedWorlds(view, self.game)

    def choose(self, view: SeatView) -> Action:
        return self.hard.choose(view)


def new_player(level: str, seed: int, think_time: float | None, simulations: int | None):
    if level == "random":
        return RandomPlayer(seed)
    if level == "sighted":
        return SightedPlayer(seed, think_time, simulations)
    if level == "hard-v1":  # hard as it was (bench/hard_v1/)
        return HardV1(seed, think_time, simulations)
    if level == "medium-v1":
        return MediumV1(seed)
    return make_player(level, seed=seed, think_time=think_time, simulations=simulations)


Task = tuple[str, str, str, int, bool, float | None, int | None]
Result = tuple[Task, float, dict[str, list[float]], int, float]
HERE = Path(__file__).resolve().parent


def code_identity() -> str:
    """A digest of the players' code: results of other code are not mixed in."""
    digest = hashlib.sha256()
    for folder in (HERE.parent / "server" / "bots", HERE / "hard_v1"):
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def stored_results(path: Path, code: str) -> dict[Task, Result]:
    """The games already in `path` for this code, by task."""
    found: dict[Task, Result] = {}
    if not path.exists():
        return found
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row["code"] != code:
            continue
        first, second, key, deal, swapped, think, sims = row["task"]
        task: Task = (first, second, key, deal, swapped, think, sims)
        found[task] = (task, row["score"], row["times"], row["length"], row["took"])
    return found


def store_result(path: Path, code: str, result: Result) -> None:
    task, score, times, length, took = result
    row = {"code": code, "task": list(task), "score": score, "times": times}
    row |= {"length": length, "took": took}
    with path.open("a") as f:
        f.write(json.dumps(row) + "\n")


def play(task: Task) -> Result:
    """One game; returns the first level's score (1, ½ or 0), the
    milliseconds per decision by level, the number of actions and the
    game's seconds."""
    began = time.perf_counter()
    first, second, key, deal, swapped, think_time, simulations = task
    arrangement = ARRANGEMENTS[key]
    levels = (second, first) if swapped else (first, second)
    players = [
        new_player(levels[arrangement.side_of(seat)], deal * 100 + seat, think_time, simulations)
        for seat in range(arrangement.players)
    ]
    game = Game.new(arrangement, random.Random(deal))
    times: dict[str, list[float]] = defaultdict(list)
    clock = time.perf_counter
    while game.outcome is None and game.version < MAX_ACTIONS:
        if game.pending_draw and game.turn not in game.pending_draw:
            seat = game.pending_draw[0]  # a waiting draw is taken before the next play
        else:
            seat = game.turn
        view = seat_view(game, seat)
        player = players[seat]
        if isinstance(player, SightedPlayer):
            player.game = game
        t0 = clock()
        action = player.choose(view)
        times[player.level].append((clock() - t0) * 1000)
        game.apply(seat, action)
    outcome = game.outcome
    first_side = 1 if swapped else 0
    if outcome is None or outcome.result == "draw":
        score = 0.5
    else:
        score = 1.0 if outcome.side == first_side else 0.0
    return task, score, dict(times), game.version, time.perf_counter() - began


class _Serial:
    """The pool's face for one game at a time, in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, func, items):  # type: ignore[no-untyped-def]
        return map(func, items)


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate (draws counted as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def tasks(
    deals: dict[tuple[str, str, str], int],
    think_time: float | None,
    simulations: int | None,
    first_deal: int = 1,
) -> Iterator[Task]:
    # Hard's games first: they are the long ones, so the pool ends evenly.
    searching = ("hard", "sighted", "hard-v1")
    for (first, second, key), n in sorted(deals.items(), key=lambda kv: kv[0][0] not in searching):
        for deal in range(first_deal, first_deal + n):
            for swapped in (False, True):
                yield (first, second, key, deal, swapped, think_time, simulations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        default=30,
        help="deals for hard v medium in two-player games, each played twice"
        " (default 30); other pairings with hard get a share of that (HARD_SHARE),"
        " pairings without hard ten times as many (five times with teams)",
    )
    parser.add_argument(
        "--think-time",
        type=float,
        default=DEFAULT_THINK_TIME,
        help=f"hard's seconds per decision (default {DEFAULT_THINK_TIME})",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=None,
        help="hard's worlds per decision instead of a time budget: comparisons"
        " of settings are then not biased by other load on the machine",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="games played at once (default: one per core)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one deal per pairing, hard on a tiny budget: checks the script runs",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="A-B",
        help="play only this pairing (repeatable), e.g. hard-medium",
    )
    parser.add_argument(
        "--seating",
        choices=sorted(ARRANGEMENTS),
        action="append",
        default=[],
        help="play only this seating (repeatable)",
    )
    parser.add_argument(
        "--sighted",
        action="store_true",
        help="also play sighted (hard seeing the hidden hands) against medium and"
        " baseline, two players, --games deals each, and against hard-v1 as hard"
        " meets it",
    )
    parser.add_argument(
        "--v1",
        action="store_true",
        help="also play medium against medium as it was before threats (medium-v1),"
        " two players, ten times --games deals",
    )
    parser.add_argument(
        "--no-blocks",
        action="store_true",
        help="skip the block suite (tests/blocks.json) that medium and hard are checked on",
    )
    parser.add_argument(
        "--first-deal",
        type=int,
        default=1,
        metavar="N",
        help="number the deals from N (default 1), to play other deals than a run before",
    )
    parser.add_argument(
        "--results",
        type=Path,
        metavar="FILE",
        help="append each game's result to FILE and play only the games not in it yet",
    )
    args = parser.parse_args()

    think_time: float | None = args.think_time
    simulations: int | None = args.simulations
    if simulations is not None:
        think_time = None
    deals: dict[tuple[str, str, str], int] = {}
    only = {tuple(name.split("-", 1)) for name in args.only}
    pairings = PAIRINGS + (SIGHTED_PAIRINGS if args.sighted else ())
    pairings += V1_PAIRINGS if args.v1 else ()
    for first, second in pairings:
        if only and (first, second) not in only:
            continue
        for key in ARRANGEMENTS:
            if args.seating and key not in args.seating:
                continue
            two_player_only = first == "sighted" and second != "hard-v1" or second == "medium-v1"
            if two_player_only and key != "2p":
                continue
            if args.quick:
                n = 1
            elif first == "sighted" and second != "hard-v1":
                n = args.games
            elif second == "medium-v1":
                n = args.games * 10
            elif "hard" in (first, second) or second == "hard-v1":
                n = max(1, round(args.games * HARD_SHARE[(second, key)]))
            else:
                n = args.games * (10 if key == "2p" else 5)
            deals[(first, second, key)] = n
    if args.quick:
        think_time, simulations = None, 2

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}),"
        f" {args.jobs} games at once; hard thinks "
        + (f"{think_time} s" if think_time else f"{simulations} simulations")
    )
    started = time.perf_counter()
    scores: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    lengths: list[int] = []
    all_tasks = list(tasks(deals, think_time, simulations, args.first_deal))
    code = code_identity()
    done = stored_results(args.results, code) if args.results else {}
    results = [done[task] for task in all_tasks if task in done]
    to_play = [task for task in all_tasks if task not in done]
    if results:
        print(f"{len(results)} games from {args.results}, {len(to_play)} to play")
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for result in pool.imap_unordered(play, to_play):
            results.append(result)
            if args.results:
                store_result(args.results, code, result)
    seconds: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for task, score, game_times, length, took in results:
        first, second, key = task[:3]
        scores[(first, second, key)].append(score)
        seconds[(first, second, key)].append(took)
        for level, ms in game_times.items():
            times[level].extend(ms)
        lengths.append(length)

    print(
        f"\n{len(results)} games in {time.perf_counter() - started:.0f} s,"
        f" {statistics.mean(lengths):.0f} actions per game on average\n"
    )
    print(f"{'pairing':<20} {'seating':<18} {'games':>5}  {'win rate':>8}  95% interval")
    rates: dict[tuple[str, str, str], float] = {}
    for (first, second, key), results_ in scores.items():
        n, won = len(results_), sum(results_)
        low, high = wilson(won, n)
        rates[(first, second, key)] = won / n
        print(
            f"{first + ' v ' + second:<20} {ARRANGEMENT_NAMES[key]:<18} {n:>5}"
            f"  {won / n:>8.1%}  {low:.1%} - {high:.1%}"
        )
    print(f"\n{'level':<10} {'decisions':>9}  {'median ms':>9}  {'p95 ms':>8}  {'max ms':>8}")
    for level in (
        "baseline",
        "easy",
        "medium",
        "medium-v1",
        "hard",
        "hard-v1",
        "sighted",
        "random",
    ):
        ms = times.get(level)
        if ms:
            print(
                f"{level:<10} {len(ms):>9}  {statistics.median(ms):>9.2f}"
                f"  {percentile(ms, 0.95):>8.2f}  {max(ms):>8.2f}"
            )

    def rate(first: str, second: str, key: str = "2p") -> float | None:
        found = rates.get((first, second, key))
        return None if found is None else round(found, 3)

    def p95(level: str) -> float | None:
        return round(percentile(times[level], 0.95), 2) if times.get(level) else None

    def interval(first: str, second: str, key: str = "2p") -> list[float] | None:
        found = scores.get((first, second, key))
        if not found:
            return None
        return [round(x, 3) for x in wilson(sum(found), len(found))]

    def games(first: str, second: str, key: str = "2p") -> int:
        return len(scores.get((first, second, key), ()))

    # How long the full run would take here: 1,000 two-player games and
    # 400 team games of hard against hard-v1, at the games' measured pace.
    full = 0.0
    for key, wanted in (("2p", 1000), ("2x2", 400)):
        took = seconds.get(("hard", "hard-v1", key))
        if took:
            full += statistics.mean(took) * wanted / args.jobs
    print(f"\nhard v hard-v1 in full (1,000 + 400 games) would take about {full / 60:.0f} min here")

    missed: dict[str, int | None] = {"medium": None, "hard": None}
    if not args.no_blocks:
        suite = blocks.load()
        for level in missed:
            budget = (None, 2) if args.quick else (think_time, simulations)
            bot = make_player(level, seed=1, think_time=budget[0], simulations=budget[1])
            missed[level], total = blocks.misses(bot, suite)
            print(f"{level} missed {missed[level]} of {total} blocks of the suite")

    medium_v_easy = rate("medium", "easy")
    figures = {
        "hard_vs_hard_v1": rate("hard", "hard-v1"),
        "hard_vs_hard_v1_interval": interval("hard", "hard-v1"),
        "hard_vs_hard_v1_games": games("hard", "hard-v1"),
        "hard_vs_hard_v1_teams": rate("hard", "hard-v1", "2x2"),
        "hard_vs_hard_v1_teams_interval": interval("hard", "hard-v1", "2x2"),
        "hard_vs_hard_v1_teams_games": games("hard", "hard-v1", "2x2"),
        "full_run_minutes_estimate": round(full / 60, 1),
        "blocks_missed_medium": missed["medium"],
        "blocks_missed_hard": missed["hard"],
        "hard_vs_medium": rate("hard", "medium"),
        "hard_vs_baseline": rate("hard", "baseline"),
        "medium_vs_baseline": rate("medium", "baseline"),
        "easy_vs_baseline": rate("easy", "baseline"),
        "hard_ms_p95": p95("hard"),
        "medium_ms_p95": p95("medium"),
        "easy_vs_medium": None if medium_v_easy is None else round(1 - medium_v_easy, 3),
        "easy_vs_random": rate("easy", "random"),
        "hard_vs_medium_teams": rate("hard", "medium", "2x2"),
    }
    if args.v1:
        figures |= {
            "medium_vs_medium_v1": rate("medium", "medium-v1"),
            "medium_vs_medium_v1_interval": interval("medium", "medium-v1"),
            "medium_vs_medium_v1_games": games("medium", "medium-v1"),
        }
    if args.sighted:
        figures |= {
            "sighted_vs_medium": rate("sighted", "medium"),
            "sighted_vs_baseline": rate("sighted", "baseline"),
            "sighted_vs_hard_v1": rate("sighted", "hard-v1"),
            "sighted_vs_hard_v1_interval": interval("sighted", "hard-v1"),
            "sighted_vs_hard_v1_games": games("sighted", "hard-v1"),
            "sighted_vs_hard_v1_teams": rate("sighted", "hard-v1", "2x2"),
            "sighted_vs_hard_v1_teams_interval": interval("sighted", "hard-v1", "2x2"),
            "sighted_vs_hard_v1_teams_games": games("sighted", "hard-v1", "2x2"),
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
