"""Build the block suite: positions from real bench games where another
side's winning four was open and the side to move could block it.

Run: python bench/blocks.py   (writes tests/blocks.json; about a minute)

Games are played between the quick levels (easy, medium, baseline), two
players and two teams of two, each deal seeded. Every position where the seat
to act has a play to make, another side's four would win the game next turn
on a space that side may still fill (from the mover's view), and some legal
play of the mover's ends that threat is kept. The file stores each game once,
as its deal and its actions in the notation of docs/records.md, with the
numbers of actions after which a kept position stood; tests replay them with
the engine. `--check LEVEL` instead reports how many of the suite's positions
LEVEL fails to block (the same check the tests and bench/bots.py make).

The last line is one JSON object of figures.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path

from sarja.server.bots import make_player
from sarja.server.bots.reasons import move_reason, winning_threats
from sarja.server.engine import Action, Arrangement, Game, SeatView, seat_view
from sarja.server.engine.actions import DRAW, EXCHANGE

SUITE = Path(__file__).resolve().parent.parent / "tests" / "blocks.json"
PAIRINGS = (
    ("easy", "medium"),
    ("easy", "easy"),
    ("medium", "medium"),
    ("baseline", "medium"),
    ("easy", "baseline"),
)
MAX_ACTIONS = 1500


def acting_seat(game: Game) -> int:
    if game.pending_draw and game.turn not in game.pending_draw:
        return game.pending_draw[0]
    return game.turn


def blockable(view: SeatView) -> bool:
    """Another side's fillable winning four is open and a legal play ends it."""
    if any(a.kind in (DRAW, EXCHANGE) for a in view.legal) or not winning_threats(view):
        return False
    return any(move_reason(view, a).blocks_winning for a in view.legal)


def play_game(players: int, levels: tuple[str, str], deal: int) -> dict[str, object] | None:
    arrangement = Arrangement.of(players)
    bots = [
        make_player(levels[arrangement.side_of(s)], seed=deal * 100 + s) for s in range(players)
    ]
    game = Game.new(arrangement, random.Random(deal))
    actions: list[str] = []
    at: list[int] = []
    while game.outcome is None and game.version < MAX_ACTIONS:
        seat = acting_seat(game)
        view = seat_view(game, seat)
        if blockable(view):
            at.append(len(actions))
        action = bots[seat].choose(view)
        game.apply(seat, action)
        actions.append(str(action))
    if not at:
        return None
    return {"players": players, "deal": deal, "actions": " ".join(actions[: at[-1]]), "at": at}


def positions(suite: list[dict[str, object]]) -> Iterator[tuple[Game, int]]:
    """Each kept position as (a copy of the game there, the seat to act)."""
    for entry in suite:
        players = entry["players"]
        deal = entry["deal"]
        assert isinstance(players, int) and isinstance(deal, int)
        game = Game.new(Arrangement.of(players), random.Random(deal))
        actions = str(entry["actions"]).split()
        wanted = set(entry["at"])  # type: ignore[arg-type]
        for i in range(len(actions) + 1):
            if i in wanted:
                yield game.copy(), acting_seat(game)
            if i < len(actions):
                game.apply(acting_seat(game), Action.parse(actions[i]))


def load(path: Path = SUITE) -> list[dict[str, object]]:
    data = json.loads(path.read_text())
    games = data["games"]
    assert isinstance(games, list)
    return games


def misses(player: object, suite: list[dict[str, object]]) -> tuple[int, int]:
    """(positions the player did not block or win in, positions)."""
    missed = total = 0
    choose = player.choose  # type: ignore[attr-defined]
    for game, seat in positions(suite):
        total += 1
        view = seat_view(game, seat)
        action = choose(view)
        while action.kind == EXCHANGE:  # a dead card first: the turn goes on
            game.apply(seat, action)
            view = seat_view(game, seat)
            action = choose(view)
        reason = move_reason(view, action)
        if not (reason.wins or reason.blocks_winning):
            missed += 1
    return missed, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=12, help="deals per pairing and seating")
    parser.add_argument("--out", type=Path, default=SUITE)
    parser.add_argument("--check", metavar="LEVEL", help="report LEVEL's misses on the suite")
    args = parser.parse_args()
    if args.check:
        player = make_player(args.check, seed=1, simulations=20)
        missed, total = misses(player, load(args.out))
        print(f"{args.check} missed {missed} of {total} blocks")
        print(json.dumps({"level": args.check, "missed": missed, "positions": total}))
        return
    games = []
    for players in (2, 4):
        for levels in PAIRINGS:
            for deal in range(1, args.deals + 1):
                found = play_game(players, levels, deal + 1000 * players)
                if found is not None:
                    games.append(found)
    count = sum(len(g["at"]) for g in games)  # type: ignore[arg-type]
    args.out.write_text(json.dumps({"games": games}, separators=(",", ":")) + "\n")
    print(f"{count} positions from {len(games)} games written to {args.out.name}")
    print(json.dumps({"positions": count, "games": len(games)}))


if __name__ == "__main__":
    main()
