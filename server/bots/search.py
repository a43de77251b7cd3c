"""The hard computer player: information-set search by sampling worlds.

For each decision it keeps the few actions the one-move judgement rates best,
then, until its time or simulation budget is spent, it deals a possible world
(worlds.py: the unseen cards at random, each other side's hand kept as
often as its likelihood given its past plays says, inference.py), plays every candidate
in that same world and plays the game on for a few turns with a fast greedy
policy, and scores where that leaves its side: 1 for a win, 0 for a loss, ½
for a draw, and otherwise the board's worth squashed into (0, 1). Every
candidate meets the same worlds and the same reshuffles (common random
numbers), so the comparison between them is far less noisy than the results
themselves. The candidate with the best total is played.

The player reads only the view and a random source fixed by its seed and the
view: with a number of simulations as the budget, the same view gets the same
choice whatever the hidden cards really are. A time budget caps wall time in
play, and then how many simulations fit depends on the machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from itertools import compress, repeat

from sarja.protocol.changes import SequenceMade

from ..engine.actions import DRAW_ACTION, EXCHANGE, PLACE, REMOVE, Action
from ..engine.board import LAYOUT, five_cells
from ..engine.cards import CARD_KIND, JC, JD, WILD
from ..engine.game import Game
from ..engine.view import SeatView
from .inference import hand_likelihoods
from .judge import (
    DEFENCE,
    NOW,
    REMOVE_COST,
    WILD_COST,
    WILD_IDLE,
    Judgement,
    Style,
    threat_value,
)
from .levels import decision_rng, housekeeping, new_seed, playable
from .threats import Fill, Threats, touches
from .windows import (
    CELL_WINDOWS,
    FINISHED,
    MARK_INC,
    VALUES,
    WINDOWS,
    Tables,
    Values,
    four_owner,
    spend,
    tables,
    to_win_flags,
)
from .worlds import Likelihood, WorldMaker

DEFAULT_THINK_TIME = 0.3
CANDIDATES = 6
# How many standard errors a candidate's gain over the judgement's favourite
# must clear to be played instead (0: the best total is played). Decision by
# decision 0 looked better, but in games against hard-v1 it lost (docs/bots.md).
CONFIDENCE = 1.0
# Turns each player takes in a simulation after the candidate action.
ROUNDS = 4
# Board worth that counts as a sure win when a simulation stops early.
SQUASH = 300.0
# At a simulation's end, what a side's open fours are worth by how many of
# them its hands can fill: none, one, two or more, and one the side fills now.
FILL_BONUS = (0.0, 0.3 * FINISHED, 0.6 * FINISHED, 0.9 * FINISHED)
WINDOW_RANGE = range(len(WINDOWS))
# A play the judgement scores this high wins the game on the spot.
WINS_NOW = 50000.0

# What the other sides' plays say of their hands (inference.py).
Reader = Callable[[SeatView, WorldMaker], Mapping[int, Likelihood]]


class Hard:
    level = "hard"

    def __init__(
        self,
        seed: int | None = None,
        think_time: float | None = None,
        simulations: int | None = None,
        *,
        candidates: int = CANDIDATES,
        rounds: int = ROUNDS,
        confidence: float = CONFIDENCE,
        plies: int | None = None,
        infer: bool = True,
        worlds: Callable[[SeatView], WorldMaker] = WorldMaker,
        clock: Callable[[], float] = time.perf_counter,
        style: Style = NOW,
        read: Reader = hand_likelihoods,
        noise: float = 0.0,
    ) -> None:
        """`think_time` (seconds) caps each decision's wall time;
        `simulations` caps the worlds dealt. With neither, the default time
        budget; with only `simulations`, no clock is read and the choice is
        reproducible. `style` (the judgement's, in play-outs too) and `read`
        (the reading of the other hands) are today's unless hard-v1's.
        `noise` (an experiment): the play-outs' players choose by a softmax
        of the judgement at that temperature, not greedily."""
        self.seed = new_seed() if seed is None else seed
        if think_time is None and simulations is None:
            think_time = DEFAULT_THINK_TIME
        self.think_time = think_time
        self.simulations = simulations
        self.candidates = candidates
        self.rounds = rounds
        self.confidence = confidence
        self.plies = plies
        self.infer = infer
        self.worlds = worlds
        self.style = style
        self.read = read
        self.noise = noise
        self.last_totals: list[float] = []
        self.clock = clock
        self.last_simulations = 0

    def choose(self, view: SeatView) -> Action:
        start = self.clock() if self.think_time is not None else 0.0
        self.last_simulations = 0
        legal = playable(view)
        early = housekeeping(legal)
        if early is not None:
            return early
        judge = Judgement(view, style=self.style)
        ranked = judge.ranked(legal)
        if not ranked:
            return legal[0]
        favourite = ranked[0][2]
        if len(ranked) == 1 or ranked[0][0] >= WINS_NOW or completes(judge, favourite):
            return favourite
        blocked = blocks(judge, favourite)
        if blocked:
            # Medium's block of a four is never second-guessed; search only
            # picks among the plays that block the same fours.
            ranked = [t for t in ranked if blocked <= blocks(judge, t[2])]
            if len(ranked) == 1:
                return favourite
        candidates = pick_candidates(ranked, self.candidates)
        return candidates[self._search(view, judge, candidates, start)]

    def _search(
        self, view: SeatView, judge: Judgement, candidates: list[Action], start: float
    ) -> int:
        """The index of the candidate to play: the one whose results beat the
        judgement's favourite (the first) most over the same worlds, by more
        than `confidence` standard errors (with 0, any margin at all)."""
        rng = decision_rng(self.seed, view)
        maker = self.worlds(view)
        likely = self.read(view, maker) if self.infer else None
        seat = maker.seat
        plies = self.plies if self.plies is not None else self.rounds * len(view.held)
        deadline = None if self.think_time is None else start + self.think_time
        count = len(candidates)
        totals = [0.0] * count
        # Per candidate, the sum and sum of squares of its result minus the favourite's.
        gains = [0.0] * count
        squares = [0.0] * count
        results = [0.0] * count
        done = 0
        style = self.style
        noise = self.noise
        while self.simulations is None or done < self.simulations:
            # Checked between worlds: every candidate meets the same worlds.
            if deadline is not None and done and self.clock() >= deadline:
                break
            world = maker.deal(rng, likely, INFER_TRIES)
            reshuffle_seed = rng.getrandbits(32)
            for i, action in enumerate(candidates):
                game = world.copy(rng=random.Random(reshuffle_seed))
                # The play-outs' own noise, the same for every candidate.
                noisy = random.Random(reshuffle_seed + 1) if noise else None
                results[i] = play_out(
                    game, seat, action, judge.packed[:], judge.side, plies, style, noise, noisy
                )
            favourite = results[0]
            for i in range(count):
                totals[i] += results[i]
                gain = results[i] - favourite
                gains[i] += gain
                squares[i] += gain * gain
            done += 1
        self.last_simulations = done
        self.last_totals = totals
        best, best_edge = 0, 0.0
        for i in range(1, count):
            mean = gains[i] / done
            spread = math.sqrt(max(0.0, squares[i] / done - mean * mean) / done)
            edge = mean - self.confidence * spread
            if edge > best_edge:
                best, best_edge = i, edge
        return best


INFER_TRIES = 30  # deals per world until one of the other hands is accepted


def completes(judge: Judgement, action: Action) -> bool:
    """Whether `action` places a chip that makes a sequence for the judge's side."""
    if action.kind != PLACE:
        return False
    owners = four_owner()
    packed = judge.packed
    return any(owners[packed[w]] == judge.mark for w in CELL_WINDOWS[action.cell])


def blocks(judge: Judgement, action: Action) -> frozenset[int]:
    """The windows where another side holds four that `action` blocks: a chip
    on the open space, or one of that side's chips taken away."""
    owners = four_owner()
    packed = judge.packed
    return (
        frozenset(
            w
            for w in CELL_WINDOWS[action.cell]
            if owners[packed[w]] and owners[packed[w]] != judge.mark
        )
        if action.kind in (PLACE, REMOVE)
        else frozenset()
    )


def pick_candidates(ranked: list[tuple[float, int, Action]], count: int) -> list[Action]:
    """The actions worth searching: the favourite, then each card's best play
    in the judgement's order (which card to spend is the question search
    answers best), then the next best plays, `count` in all."""
    chosen = [ranked[0][2]]
    cards = {ranked[0][2].card}
    for _, _, action in ranked[1:]:
        if len(chosen) >= count:
            return chosen
        if action.card not in cards:
            cards.add(action.card)
            chosen.append(action)
    for _, _, action in ranked[1:]:
        if len(chosen) >= count:
            break
        if action not in chosen:
            chosen.append(action)
    return chosen


# Added to a placement's window deltas where it makes or ends a four, so one
# sum tells both its worth and whether its threats need working out (a double
# holds 20 of these and the worth exactly enough).
FLAG = 1e9


@lru_cache(maxsize=256)
def _flagged(table: Tables, mark: int) -> list[float]:
    touch = touches(MARK_INC[mark])
    return [d + FLAG * t for d, t in zip(table.place[mark], touch, strict=True)]


def flagged(table: Tables, mark: int) -> list[float]:
    """`table.place[mark]` with FLAG added where the placement makes or ends a four."""
    return _flagged(table, mark)


class _Policy:
    """The fast greedy player of simulations: the judgement's tables looked up
    straight from the game, no view built. Tables change only when a side
    finishes a sequence (its next one may then win). The threats are kept in
    step move by move; a move's effect on them is worked out only where it
    makes or ends a four (`touches`), which few moves do. Without `threats`
    (hard-v1's style), moves are judged by their windows alone."""

    __slots__ = ("sides", "needed", "values", "tables", "threats", "fill", "noise", "rng")

    def __init__(
        self,
        game: Game,
        threats: Threats | None,
        values: Values = VALUES,
        noise: float = 0.0,
        rng: random.Random | None = None,
    ) -> None:
        """With `noise` (and `rng`), each action's score gets Gumbel noise of
        that scale: the choice is a softmax of the scores at that temperature,
        so a clear block or win stays first and near ties go either way."""
        self.noise = noise
        self.rng = rng
        self.sides = game.arrangement.sides
        self.needed = game.needed
        self.values = values
        self.tables: list[Tables] = []
        self.threats = threats
        self.fill: Fill | None = None
        self.refresh(game)

    def refresh(self, game: Game) -> None:
        to_win = to_win_flags(self.needed, game.sequences)
        values = self.values
        self.tables = [
            tables(side, self.sides, to_win, DEFENCE, values) for side in range(self.sides)
        ]

    def choose(self, game: Game, seat: int, packed: list[int]) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        mark = game.marks[seat]
        table = self.tables[mark - 1]
        threats = self.threats
        place = table.place[mark] if threats is None else flagged(table, mark)
        idle = 0.0 if threats is None else WILD_IDLE
        remove = table.remove
        chips = game.chips
        lookup = packed.__getitem__
        self.fill = None
        best = legal[0]
        best_score = -math.inf
        for action, shift in zip(legal, self.jitter(len(legal)), strict=False):
            kind = action.kind
            if kind == PLACE:
                score = sum(map(place.__getitem__, map(lookup, CELL_WINDOWS[action.cell])))
                wild = CARD_KIND[action.card] == WILD
                if wild:
                    score -= WILD_COST
                if score > FLAG / 2:  # it makes or ends a four
                    score -= round(score / FLAG) * FLAG
                    worth, useful = self._threats(game, seat, packed, table, action.cell, mark, 0)
                    score += worth
                    if wild and not useful and score < WINS_NOW:
                        score -= WILD_IDLE
                elif wild:
                    score -= idle
            elif kind == REMOVE:
                taken = chips[action.cell]
                states = list(map(lookup, CELL_WINDOWS[action.cell]))
                score = sum(map(remove[taken].__getitem__, states)) - REMOVE_COST
                if threats is not None and any(map(touches(-MARK_INC[taken]).__getitem__, states)):
                    score += self._threats(game, seat, packed, table, action.cell, 0, taken)[0]
            elif kind == EXCHANGE:
                return action
            else:
                continue
            score += shift
            if score > best_score:
                best, best_score = action, score
        return best

    def jitter(self, count: int) -> Iterable[float]:
        """Gumbel noise for `count` actions' scores; for a greedy policy, zeros
        that cost no list (this runs for every move of every play-out)."""
        rng = self.rng
        if not self.noise or rng is None:
            return repeat(0.0)
        scale = self.noise
        return [-scale * math.log(-math.log(rng.random() or 0.5)) for _ in range(count)]

    def _threats(
        self, game: Game, seat: int, packed: list[int], table: Tables, cell: int,
        placed: int, removed: int,
    ) -> tuple[float, bool]:  # fmt: skip
        """What a move that makes or ends a four does to the threats, judged
        with what the mover sees (its hand and the discard pile)."""
        threats = self.threats
        assert threats is not None  # only a policy that judges threats asks
        if self.fill is None:
            self.fill = Fill(game.hands[seat], game.discard)
        changes = threats.changes(game.chips, packed, cell, placed, removed)
        return threat_value(threats, changes, table, self.fill)


def apply_tracked(
    game: Game,
    seat: int,
    action: Action,
    packed: list[int],
    policy: _Policy | None,
    threats: Threats | None = None,
) -> None:
    """Apply `action` and keep the packed windows (and `threats`) in step with
    the board."""
    kind = action.kind
    if kind == PLACE:
        mark = game.marks[seat]
        if threats is not None:
            threats.apply(threats.changes(game.chips, packed, action.cell, mark, 0))
        events = game.apply(seat, action)
        inc = MARK_INC[mark]
        for w in CELL_WINDOWS[action.cell]:
            packed[w] += inc
        for event in events:
            if isinstance(event, SequenceMade):
                for five in event.fives:
                    spend(packed, mark - 1, five_cells(five))
                if threats is not None:  # spent windows hold no threats: count afresh
                    threats.recount(game.chips, packed, game.arrangement.sides)
                if policy is not None:
                    policy.refresh(game)
    elif kind == REMOVE:
        taken = game.chips[action.cell]
        if threats is not None:
            threats.apply(threats.changes(game.chips, packed, action.cell, 0, taken))
        inc = MARK_INC[taken]
        game.apply(seat, action)
        for w in CELL_WINDOWS[action.cell]:
            packed[w] -= inc
    else:
        game.apply(seat, action)


def play_out(
    game: Game, seat: int, action: Action, packed: list[int], side: int, plies: int,
    style: Style = NOW, noise: float = 0.0, rng: random.Random | None = None,
) -> float:  # fmt: skip
    """Play `action`, then `plies` more turns greedily (judging in `style`;
    with `noise`, a softmax of that temperature drawn from `rng`); how good
    the result is for `side`, in [0, 1]."""
    apply_tracked(game, seat, action, packed, None)
    policy = None
    for _ in range(plies):
        if game.outcome is not None:
            break
        if policy is None:
            sides = game.arrangement.sides
            threats = Threats(game.chips, packed, sides) if style.threats else None
            policy = _Policy(game, threats, style.values, noise, rng)
        while game.pending_draw:
            game.apply(game.pending_draw[0], DRAW_ACTION)
        turn = game.turn
        action = policy.choose(game, turn, packed)
        apply_tracked(game, turn, action, packed, policy, policy.threats)
    outcome = game.outcome
    if outcome is not None:
        if outcome.result == "draw":
            return 0.5
        return 1.0 if outcome.side == side else 0.0
    return leaf_value(game, packed, side, style.values)


def leaf_value(game: Game, packed: list[int], side: int, values: Values = VALUES) -> float:
    """Where a simulation stopped, how good it looks for `side`, in (0, 1):
    the board's worth, plus the sequences the world's hands can finish at
    once. A four whose open space its side holds a card for is nearly a
    sequence; if that side moves next, it is one."""
    sides = game.arrangement.sides
    to_win = to_win_flags(game.needed, game.sequences)
    worth = tables(side, sides, to_win, DEFENCE, values).worth
    total = sum(map(worth.__getitem__, packed))
    owners = four_owner()
    chips = game.chips
    threats: list[set[int]] = [set() for _ in range(sides)]
    for w in compress(WINDOW_RANGE, map(owners.__getitem__, packed)):
        for cell in WINDOWS[w]:
            if not chips[cell]:
                threats[owners[packed[w]] - 1].add(cell)
                break
    hands = game.hands
    mover = game.marks[game.turn] - 1
    for s in range(sides):
        if not threats[s]:
            continue
        fillable = 0
        for seat in range(s, game.players, sides):
            hand = hands[seat]
            if JD in hand or JC in hand:
                fillable = len(threats[s])
            else:
                fillable = max(fillable, sum(1 for c in threats[s] if LAYOUT[c] in hand))
            if fillable and s == mover and seat == game.turn:
                if to_win[s]:
                    return 1.0 if s == side else 0.0
                fillable = 3
                break
        bonus = FILL_BONUS[min(fillable, 3)]
        total += bonus if s == side else -bonus
    return 1.0 / (1.0 + math.exp(-total / SQUASH))
