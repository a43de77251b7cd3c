"""The cut for who plays first: everyone cuts, the lowest card plays first, and those
tied for lowest cut again among themselves (aces high, suits do not rank)."""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from .cards import FULL_DECK, cut_rank
from .errors import RecordError


class Shuffler(Protocol):
    def shuffle(self, x: list[int], /) -> None: ...


class CutRandom(Shuffler, Protocol):
    def sample(self, population: tuple[int, ...], k: int, /) -> list[int]: ...


CutRound = tuple[tuple[int, int], ...]


def cut_for_first(players: int, rng: CutRandom) -> tuple[CutRound, ...]:
    """Everyone cuts; those tied for lowest cut again among themselves."""
    rounds: list[CutRound] = []
    contenders = list(range(players))
    while True:
        cards = rng.sample(FULL_DECK, len(contenders))
        rounds.append(tuple(zip(contenders, cards, strict=True)))
        low = min(cut_rank(c) for c in cards)
        contenders = [s for s, c in zip(contenders, cards, strict=True) if cut_rank(c) == low]
        if len(contenders) == 1:
            return tuple(rounds)


def first_from_cut(players: int, rounds: tuple[CutRound, ...]) -> int:
    """Check a recorded cut and return who plays first."""
    contenders = list(range(players))
    for number, cut_round in enumerate(rounds):
        if [seat for seat, _ in cut_round] != contenders:
            raise RecordError("bad_cut", f"Cut round {number + 1} has the wrong players.")
        if max(Counter(card for _, card in cut_round).values()) > 2:
            raise RecordError("bad_cut", f"Cut round {number + 1} shows a card three times.")
        low = min(cut_rank(card) for _, card in cut_round)
        contenders = [seat for seat, card in cut_round if cut_rank(card) == low]
        if len(contenders) == 1:
            if number != len(rounds) - 1:
                raise RecordError("bad_cut", "The cut goes on after it was decided.")
            return contenders[0]
    raise RecordError("bad_cut", "The cut does not decide who plays first.")
