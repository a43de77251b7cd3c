"""hard-v1 (bench/hard_v1: hard and medium as they were, kept to measure
against) pinned: on positions from played games it must decide exactly as it
did when it was frozen. Its worth is that it never moves, however the code it
shares with today's hard is arranged.

tests/hard_v1_decisions.json holds the games (deal and actions in the notation
of docs/records.md, replayed by the engine), the positions taken from them, and
for each position what hard-v1 and its parts gave: the one-move judgement's
ranking, the cards its reading of the history marks, a world it deals, the
choice of medium-v1, and hard-v1's choice with the totals of its search over a
fixed number of worlds (a seeded search on a simulation budget reads no clock,
so it is reproducible). After a deliberate change to hard-v1 (there should be
none), rewrite it with:

    python tests/test_hard_v1_pinned.py --write
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from sarja.server.bots import make_player
from sarja.server.bots.inference import _marked_cards
from sarja.server.bots.judge import DEFENCE, Judgement
from sarja.server.bots.search import INFER_TRIES
from sarja.server.bots.windows import tables
from sarja.server.engine import Action, Arrangement, Game, SeatView, seat_view

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))
from blocks import acting_seat  # noqa: E402
from hard_v1 import V1, FilteredWorlds, HardV1, MediumV1, read  # noqa: E402

DATA = Path(__file__).resolve().parent / "hard_v1_decisions.json"
# Games played by the quick levels to reach positions: (players, levels, deals).
GAMES = (
    (2, ("medium", "easy"), range(1, 11)),
    (2, ("medium", "medium"), range(11, 17)),
    (4, ("medium", "easy"), range(21, 27)),
    (4, ("easy", "medium"), range(31, 34)),
)
EVERY = 3  # a position every this many actions
SIMULATIONS = 2  # worlds per search: few, so the test stays quick
SEED = 5
MAX_ACTIONS = 400


def play_game(players: int, levels: tuple[str, str], deal: int) -> dict[str, Any]:
    arrangement = Arrangement.of(players)
    bots = [
        make_player(levels[arrangement.side_of(s)], seed=deal * 100 + s) for s in range(players)
    ]
    game = Game.new(arrangement, random.Random(deal))
    actions: list[str] = []
    while game.outcome is None and game.version < MAX_ACTIONS:
        seat = acting_seat(game)
        action = bots[seat].choose(seat_view(game, seat))
        game.apply(seat, action)
        actions.append(str(action))
    at = list(range(EVERY // 2 + deal % EVERY, len(actions), EVERY))
    return {"players": players, "deal": deal, "actions": " ".join(actions), "at": at}


def views(games: list[dict[str, Any]]) -> list[SeatView]:
    """Every kept position as the acting seat's view, replayed by the engine."""
    found = []
    for entry in games:
        game = Game.new(Arrangement.of(entry["players"]), random.Random(entry["deal"]))
        actions = entry["actions"].split()
        wanted = set(entry["at"])
        for i, notation in enumerate(actions):
            if i in wanted:
                found.append(seat_view(game, acting_seat(game)))
            game.apply(acting_seat(game), Action.parse(notation))
    return found


def decisions(view: SeatView) -> dict[str, Any]:
    """What hard-v1 and its parts give in this position (JSON-ready; floats
    round-trip exactly)."""
    judge = Judgement(view, style=V1)
    ranked = [[score, str(action)] for score, _, action in judge.ranked(view.legal)[:8]]
    maker = FilteredWorlds(view)
    marked = _marked_cards(view, maker, V1, dead_cards=False)
    likely = read(view, maker)
    world = maker.deal(random.Random(view.version), likely, INFER_TRIES)
    hard = HardV1(SEED, simulations=SIMULATIONS)
    choice = hard.choose(view)
    return {
        "ranked": ranked,
        "marked": {
            str(seat): [[draws, sorted(cards)] for draws, cards in plays]
            for seat, plays in sorted(marked.items())
        },
        "world": [world.hands, world.draw_pile[:10]],
        "medium": str(MediumV1(SEED).choose(view)),
        "hard": str(choice),
        "simulations": hard.last_simulations,
        "totals": hard.last_totals if hard.last_simulations else [],
    }


def table_sums() -> dict[str, list[float]]:
    """The judgement's window tables, summed (two sides; each side to win or not)."""
    sums = {}
    for to_win in ((False, False), (True, False), (True, True)):
        t = tables(0, 2, to_win, DEFENCE, V1.values)
        sums[str(to_win)] = [sum(t.worth), sum(t.place[1]), sum(t.remove[2]), sum(t.place[2])]
    return sums


def test_hard_v1_decides_as_when_it_was_frozen():
    data = json.loads(DATA.read_text())
    assert table_sums() == data["tables"]
    found = views(data["games"])
    assert len(found) == len(data["positions"])
    for i, (view, expected) in enumerate(zip(found, data["positions"], strict=True)):
        assert decisions(view) == expected, f"position {i} (version {view.version})"


def test_the_pinned_positions_cover_searches_and_both_seatings():
    """The data is worth pinning: most positions make hard-v1 search, and
    both seatings are in it."""
    data = json.loads(DATA.read_text())
    searched = sum(1 for p in data["positions"] if p["simulations"])
    assert searched >= 100
    assert {g["players"] for g in data["games"]} == {2, 4}


def write() -> None:
    games = [play_game(players, levels, deal) for players, levels, deals in GAMES for deal in deals]
    positions = [decisions(view) for view in views(games)]
    data = {"tables": table_sums(), "games": games, "positions": positions}
    text = json.dumps(data, separators=(",", ":"))
    DATA.write_text(text + "\n")
    searched = sum(1 for p in positions if p["simulations"])
    print(f"{len(positions)} positions ({searched} searched) from {len(games)} games")


if __name__ == "__main__":
    if "--write" not in sys.argv[1:]:
        sys.exit("usage: python tests/test_hard_v1_pinned.py --write")
    write()
