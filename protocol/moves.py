"""From an action in notation (as `legal` lists it) to the message that makes it.

>>> action_message("7H@D5[A5-E5]", action_id=3, version=12)
Play(id=3, version=12, card='7H', cell=43, fives=((40, 44),))
"""

from __future__ import annotations

from .cards import parse_cell
from .client_messages import Action, Draw, Exchange, Pass, Play, Remove
from .notation import ACTION_RE


def action_message(notation: str, action_id: int, version: int) -> Action:
    """The message for `notation`, made against `version`; ValueError if the
    text is not an action."""
    if not ACTION_RE.fullmatch(notation):
        raise ValueError(f"not an action: {notation!r}")
    if notation == "draw":
        return Draw(id=action_id, version=version)
    if notation == "pass":
        return Pass(id=action_id, version=version)
    if notation.startswith("dead:"):
        return Exchange(id=action_id, version=version, card=notation[5:])
    card, rest = notation[:2], notation[3:]
    if notation[2] == "x":
        return Remove(id=action_id, version=version, card=card, cell=parse_cell(rest))
    place, _, chosen = rest.partition("[")
    fives = tuple(
        (parse_cell(start), parse_cell(end))
        for start, end in (five.split("-") for five in chosen.rstrip("]").split(",") if five)
    )
    return Play(id=action_id, version=version, card=card, cell=parse_cell(place), fives=fives)
