"""From an action in notation (as `legal` lists it) to the message that makes it.

>>> action_message("7H@D5[A5-E5]", action_id=3, version=12)
Play(id=3, version=12, card='7H', cell=43, fives=((40, 44),))
"""

from __future__ import annotations

from . import notation
from .client_messages import ActionMessage, Draw, Exchange, Pass, Play, Remove


def action_message(text: str, action_id: int, version: int) -> ActionMessage:
    """The message for the action `text` writes, made against `version`; ValueError if
    the text is not an action as the server writes them."""
    if not notation.ACTION_RE.fullmatch(text):
        raise ValueError(f"not an action: {text!r}")
    said = notation.parse(text)
    kind, card, cell = said.kind, said.card, said.cell
    if kind == "draw":
        return Draw(id=action_id, version=version)
    if kind == "pass":
        return Pass(id=action_id, version=version)
    assert card is not None
    if kind == "exchange":
        return Exchange(id=action_id, version=version, card=card)
    assert cell is not None
    if kind == "remove":
        return Remove(id=action_id, version=version, card=card, cell=cell)
    return Play(id=action_id, version=version, card=card, cell=cell, fives=said.fives)
