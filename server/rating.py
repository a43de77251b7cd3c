"""Ratings for games of sides, each side one person or a team: Weng–Lin's Bayesian
rating (openskill's Plackett–Luce model), which takes teams and three sides as they
come. Pure: numbers in, numbers out; the standings (standings.py) keep them.

A rating is (mu, sigma): the skill believed, and how unsure the belief is. What is
shown is the conservative estimate mu - 3 sigma, which rises as a person plays and
wins. In a game of three sides the winner ranks first and the two others tie second.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

Skill = tuple[float, float]  # (mu, sigma)

_MODEL = PlackettLuce()
NEW: Skill = (_MODEL.mu, _MODEL.sigma)  # a person with no games


def shown(skill: Skill) -> float:
    """The figure the standings show and sort by: mu - 3 sigma."""
    mu, sigma = skill
    return mu - 3 * sigma


def rate(sides: Sequence[Sequence[Skill]], winner: int | None) -> list[list[Skill]]:
    """Every member's new rating after a game between `sides` (each a list of its
    members' ratings) that side `winner` won (None: a draw)."""
    if len(sides) < 2 or any(not side for side in sides):
        raise ValueError("a game needs two sides or more, each with a member")
    if winner is not None and not 0 <= winner < len(sides):
        raise ValueError("the winner must be one of the sides")
    teams = [[_MODEL.create_rating([mu, sigma]) for mu, sigma in side] for side in sides]
    ranks = [0 if winner is None or i == winner else 1 for i in range(len(sides))]
    rated = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [[(r.mu, r.sigma) for r in team] for team in rated]
