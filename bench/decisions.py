"""Settings of hard compared decision by decision, and how well each reads the
hidden hands: far less noisy than whole games for the same machine time.

Run: python bench/decisions.py --games 40   (about an hour on a busy two-core machine)

It plays `--games` two-player games of hard against hard-v1 (deals from
`--first-deal`, hard's side alternating; both on `--simulations` worlds a
decision) and keeps every position where hard had a choice, with the hands
as they really were. Then, on every `--stride`-th of them:

- **The reading**: for each setting, `--worlds` worlds dealt as that setting
  deals them (the other hands as their plays say); the share of the other
  seat's true cards among the cards dealt to it (`overlap`). Dealt at random,
  it is about 0.17.
- **The choices**: each setting chooses; where they do not all agree, each
  distinct move is valued by `--play-outs` play-outs to the end of the game
  (the play-outs' greedy player on both sides, the true hands, the draw pile
  reshuffled, the same reshuffles for every move). A setting's edge over the
  first one is the mean difference of those values per decision; times the
  decisions a side makes in a game, it estimates the win rate gained
  (the performance difference lemma), with a 95% interval.

A setting is `NAME:key=value,...` (`--setting`, repeatable; the first is the
one compared against): `level` hard (default), hard-v1 or medium, `sims`
worlds a decision (default 75: what hard fits in 0.3 s here; hard-v1 fits
about 100), `keep` the reading's KEEP_SCALE, `margin` its LIKELY_MARGIN,
`random` 1 to deal the hidden cards at random, `cand` the candidates searched
(default 6), `noise` the play-outs' softmax temperature (default 0: greedy),
`conf` the standard errors a candidate must beat the favourite by (default 0),
`rounds` each seat's turns in a play-out (default 4), `squash` the leaf's
scale (default 300), `sighted` 1 to deal every world with the other seats'
real hands (a ceiling for any reading, never a player), `jacks` 1 to deal
the other seats their real jacks and no others, the rest at random (what
knowing the jacks alone would be worth; with `read` 1, the rest as the plays say).
`--no-choices` measures the reading only; `--quick` checks it runs.

The last line is one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import random
import statistics
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from hard_v1 import FilteredWorlds, HardV1
from hard_v1 import read as read_v1

from sarja.server.bots import inference, search
from sarja.server.bots.judge import Judgement
from sarja.server.bots.levels import Medium
from sarja.server.bots.search import CANDIDATES, CONFIDENCE, INFER_TRIES, ROUNDS, Hard, play_out
from sarja.server.bots.worlds import Likelihood, WorldMaker
from sarja.server.engine import Action, Arrangement, Game, SeatView, seat_view
from sarja.server.engine.cards import JACKS

Position = tuple[int, SeatView, list[list[int]]]
DEFAULT_SETTINGS = ("hard:", "hard-v1:level=hard-v1,sims=100", "medium:level=medium")


def parse(spec: str) -> tuple[str, dict[str, float]]:
    name, _, rest = spec.partition(":")
    options: dict[str, float] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = 0.0 if key == "level" else float(value)
        if key == "level":
            options["v1" if value == "hard-v1" else value] = 1.0
    return name, options


@contextmanager
def reading(options: dict[str, float]) -> Iterator[None]:
    """The reading's constants as the setting has them, for its decisions."""
    saved = inference.KEEP_SCALE, inference.LIKELY_MARGIN, search.SQUASH
    inference.KEEP_SCALE = options.get("keep", saved[0])
    inference.LIKELY_MARGIN = options.get("margin", saved[1])
    search.SQUASH = options.get("squash", saved[2])
    try:
        yield
    finally:
        inference.KEEP_SCALE, inference.LIKELY_MARGIN, search.SQUASH = saved


class SightedWorlds(WorldMaker):
    """Worlds dealt with the other seats' real hands, the draw pile shuffled."""

    def __init__(self, view: SeatView, hands: list[list[int]]) -> None:
        super().__init__(view)
        self.hands = hands

    def deal(self, rng: random.Random, likely: object = None, tries: int = 1) -> Game:
        return sighted_world(self.view, self.hands, rng)


class JackSightedWorlds(WorldMaker):
    """Worlds where each other seat holds its real jacks and no other jack;
    the rest of every hidden hand and the draw pile dealt at random."""

    def __init__(self, view: SeatView, hands: list[list[int]]) -> None:
        super().__init__(view)
        self.hands = hands

    def deal(
        self,
        rng: random.Random,
        likely: Mapping[int, Likelihood] | None = None,
        tries: int = 1,
    ) -> Game:
        cards = self.unseen[:]
        jacks = {
            seat: [c for c in hand if c in JACKS]
            for seat, hand in enumerate(self.hands)
            if seat != self.seat
        }
        for held in jacks.values():
            for card in held:
                cards.remove(card)
        rng.shuffle(cards)
        plain = [c for c in cards if c not in JACKS]
        spare = [c for c in cards if c in JACKS]
        dealt: list[list[int]] = []
        for seat, hand in enumerate(self.hands):
            if seat == self.seat:
                dealt.append(list(self.view.hand))
                continue
            known = jacks[seat]
            fill = len(hand) - len(known)
            test = likely.get(seat) if likely else None
            if test is not None:  # the rest as the plays say, the jacks known
                plain = self.dealt(
                    rng, plain, fill, lambda h, j=known, t=test: t(j + list(h)), tries
                )
            dealt.append(known + plain[:fill])
            del plain[:fill]
        pile = plain + spare
        rng.shuffle(pile)
        return self.world(dealt, pile, rng)


def chooser(
    options: dict[str, float], seed: int, hands: list[list[int]]
) -> Callable[[SeatView], Action]:
    sims = int(options.get("sims", 75))
    if options.get("medium"):
        return Medium(seed).choose
    if options.get("v1"):
        return HardV1(seed, None, sims).choose
    sighted = bool(options.get("sighted"))
    jacks = bool(options.get("jacks"))
    hard = Hard(
        seed,
        None,
        sims,
        candidates=int(options.get("cand", CANDIDATES)),
        rounds=int(options.get("rounds", ROUNDS)),
        confidence=options.get("conf", CONFIDENCE),
        infer=not options.get("random")
        and not sighted
        and (not jacks or bool(options.get("read"))),
        noise=options.get("noise", 0.0),
        worlds=(lambda view: SightedWorlds(view, hands))
        if sighted
        else (lambda view: JackSightedWorlds(view, hands))
        if jacks
        else WorldMaker,
    )

    def choose(view: SeatView) -> Action:
        with reading(options):
            return hard.choose(view)

    return choose


def positions(games: int, first_deal: int, sims: int) -> list[Position]:
    """Hard's positions with a choice in games of hard against hard-v1."""
    found: list[Position] = []
    arrangement = Arrangement.of(2)
    for deal in range(first_deal, first_deal + games):
        hard_side = deal % 2
        players = [
            Hard(deal * 100 + s, None, sims)
            if s == hard_side
            else HardV1(deal * 100 + s, None, sims)
            for s in range(2)
        ]
        game = Game.new(arrangement, random.Random(deal))
        while game.outcome is None and game.version < 1500:
            seat = game.turn
            view = seat_view(game, seat)
            if seat == hard_side and len(view.legal) > 1:
                found.append((deal, view, [list(h) for h in game.hands]))
            game.apply(seat, players[seat].choose(view))
    return found


def cached_positions(path: str | None, games: int, first_deal: int, sims: int) -> list[Position]:
    key = (games, first_deal, sims)
    if path and os.path.exists(path):
        with open(path, "rb") as f:
            stored_key, stored = pickle.load(f)
        if stored_key == key:
            return stored  # type: ignore[no-any-return]
    found = positions(games, first_deal, sims)
    if path:
        with open(path, "wb") as f:
            pickle.dump((key, found), f)
    return found


def sighted_world(view: SeatView, hands: list[list[int]], rng: random.Random) -> Game:
    """The position with the true hands and the draw pile shuffled."""
    maker = WorldMaker(view)
    cards = maker.unseen[:]
    dealt = []
    for seat, hand in enumerate(hands):
        dealt.append(list(view.hand) if seat == view.seat else list(hand))
        if seat != view.seat:
            for card in hand:
                cards.remove(card)
    rng.shuffle(cards)
    return maker.world(dealt, cards, rng)


def value(
    view: SeatView, hands: list[list[int]], action: Action, play_outs: int, seed: int
) -> float:
    judge = Judgement(view)
    assert view.seat is not None
    total = 0.0
    for n in range(play_outs):
        game = sighted_world(view, hands, random.Random(seed * 100003 + n))
        total += play_out(game, view.seat, action, judge.packed[:], judge.side, 2000)
    return total / play_outs


def overlap(options: dict[str, float], found: list[Position], worlds: int) -> float | None:
    """The share of the other seat's true cards among those dealt to it."""
    if options.get("medium") or options.get("sighted") or options.get("jacks"):
        return None
    shares = []
    for index, (_, view, hands) in enumerate(found):
        assert view.seat is not None
        other = 1 - view.seat
        if options.get("v1"):
            maker: WorldMaker = FilteredWorlds(view)
            likely = read_v1(view, maker)
        else:
            maker = WorldMaker(view)
            with reading(options):
                likely = None if options.get("random") else inference.hand_likelihoods(view, maker)
        rng = random.Random(index)
        true = set(hands[other])
        hits = 0
        for _ in range(worlds):
            with reading(options):
                dealt = maker.deal(rng, likely, INFER_TRIES).hands[other]
            hits += sum(1 for card in dealt if card in true)
        shares.append(hits / worlds / len(hands[other]))
    return statistics.mean(shares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-deal", type=int, default=1001)
    parser.add_argument(
        "--simulations", type=int, default=20, help="worlds a decision in the games"
    )
    parser.add_argument("--stride", type=int, default=2, help="judge every Nth position")
    parser.add_argument("--play-outs", type=int, default=300)
    parser.add_argument("--worlds", type=int, default=60, help="worlds dealt per reading")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME:k=v,...")
    parser.add_argument("--no-choices", action="store_true", help="the reading only")
    parser.add_argument(
        "--dump", metavar="FILE", help="write each judged position's choices and values to FILE"
    )
    parser.add_argument(
        "--positions",
        metavar="FILE",
        help="keep the games' positions in FILE (pickle) and read them from it"
        " next time with the same --games, --first-deal and --simulations",
    )
    parser.add_argument("--quick", action="store_true", help="a tiny run: checks it runs")
    args = parser.parse_args()
    if args.quick:
        args.games, args.simulations, args.stride, args.play_outs, args.worlds = 1, 2, 8, 4, 4
    settings = [parse(s) for s in args.setting or DEFAULT_SETTINGS]
    if args.quick:
        settings = [(name, options | {"sims": 2.0}) for name, options in settings]

    found = cached_positions(args.positions, args.games, args.first_deal, args.simulations)
    per_game = len(found) / args.games
    found = found[:: args.stride]
    print(f"{len(found)} positions of {args.games} games ({per_game:.1f} decisions a game)")
    figures: dict[str, object] = {"positions": len(found)}
    for name, options in settings:
        share = overlap(options, found, args.worlds)
        if share is not None:
            print(f"reading {name:<16} overlap {share:.4f}")
            figures[f"overlap_{name}"] = round(share, 4)

    diffs: dict[str, list[float]] = {name: [] for name, _ in settings[1:]}
    if args.no_choices:
        found = []
    dump = open(args.dump, "w") if args.dump else None  # noqa: SIM115 (closed below)
    for index, (deal, view, hands) in enumerate(found):
        assert view.seat is not None
        seed = deal * 100 + view.seat
        choices = {name: chooser(options, seed, hands)(view) for name, options in settings}
        values = {
            action: value(view, hands, action, args.play_outs, index)
            for action in set(choices.values())
        } if len(set(choices.values())) > 1 else {}  # fmt: skip
        base = choices[settings[0][0]]
        if dump is not None:
            row = {"deal": deal, "version": view.version, "hand": list(view.hand)}
            row["hands"] = hands
            row["choices"] = {name: list(choice) for name, choice in choices.items()}
            row["values"] = {name: values.get(choice) for name, choice in choices.items()}
            dump.write(json.dumps(row) + "\n")
        for name in diffs:
            diffs[name].append(values[choices[name]] - values[base] if values else 0.0)
    if dump is not None:
        dump.close()
    for name, found_diffs in diffs.items():
        if not found_diffs:
            continue
        mean = statistics.mean(found_diffs)
        half = 1.96 * statistics.stdev(found_diffs) / math.sqrt(len(found_diffs))
        differ = sum(1 for d in found_diffs if d)
        print(
            f"{name} v {settings[0][0]}: differs on {differ} of {len(found_diffs)};"
            f" edge {mean * per_game:+.3f} a game ({(mean - half) * per_game:+.3f}"
            f" to {(mean + half) * per_game:+.3f})"
        )
        figures[f"edge_{name}"] = round(mean * per_game, 4)
        figures[f"edge_{name}_interval"] = [
            round((mean - half) * per_game, 4),
            round((mean + half) * per_game, 4),
        ]
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
