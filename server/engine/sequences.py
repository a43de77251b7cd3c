"""Finding the sequences a placement makes, and the placing player's choices.

Only fives through the new chip need looking at: any other five was already
complete before, and was either counted then or conflicts with one that was
(the side always takes the most sequences a placement allows).

Within one line, two fives through the same chip can both count only if they
share just that chip, which happens when the chip is the middle of nine in a
row. Across lines, fives share at most the new chip, so each line is chosen
independently.
"""

from __future__ import annotations

from itertools import combinations

from sarja.protocol.cards import FiveCells

from .board import RAYS

# One way a single line can be counted: one five, or two sharing one cell.
LineOption = tuple[FiveCells, ...]


def _shares_at_most_one(five: FiveCells, others: list[FiveCells]) -> bool:
    return all(len(set(five).intersection(other)) <= 1 for other in others)


def line_options(
    chips: bytearray, cell: int, mark: int, corner: int, existing: list[FiveCells]
) -> list[list[LineOption]]:
    """For each line through `cell` where the side now has a new sequence, the
    options that count the most sequences, first five in reading order first.

    `chips[cell]` must already hold `mark`. Returns [] in the common case."""
    lines: list[list[LineOption]] = []
    for rays in RAYS[cell]:
        # How far the side's chips (or a corner) run from the cell along each ray.
        counts = []
        for ray in rays:
            n = 0
            for c in ray:
                v = chips[c]
                if v != mark and v != corner:
                    break
                n += 1
            counts.append(n)
        n_back, n_fwd = counts
        if n_back + n_fwd < 4:
            continue
        back, forward = rays
        run = back[:n_back][::-1] + (cell,) + forward[:n_fwd]
        # Every window of five in the run that holds the new chip, as sorted cells.
        windows = [
            tuple(sorted(run[start : start + 5]))
            for start in range(max(0, n_back - 4), min(n_back, len(run) - 5) + 1)
        ]
        valid = [w for w in windows if _shares_at_most_one(w, existing)]
        if not valid:
            continue
        pairs: list[LineOption] = [
            p for p in combinations(valid, 2) if len(set(p[0]) & set(p[1])) <= 1
        ]
        options: list[LineOption] = pairs if pairs else [(w,) for w in valid]
        options.sort()
        lines.append(options)
    return lines


def default_choice(lines: list[list[LineOption]]) -> tuple[FiveCells, ...]:
    """Without a choice from the player: the first option of every line."""
    return tuple(five for options in lines for five in options[0])


def resolve_choice(
    lines: list[list[LineOption]], chosen: tuple[FiveCells, ...]
) -> tuple[FiveCells, ...] | None:
    """The fives counted when the player names `chosen`; None if the naming
    does not match what this placement can make.

    A line the player does not mention gets its default option."""
    wanted = set(chosen)
    counted: list[FiveCells] = []
    for options in lines:
        named_here = {five for option in options for five in option} & wanted
        fitting = [o for o in options if named_here.issubset(o)]
        if not fitting:
            return None
        counted.extend(fitting[0])
    if not wanted.issubset(counted):
        return None
    return tuple(counted)


def real_choices(lines: list[list[LineOption]]) -> list[list[LineOption]]:
    """The lines where the player has a real choice (more than one option)."""
    return [options for options in lines if len(options) > 1]
