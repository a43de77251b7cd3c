"""The coach's hints in a game: asking (a key), and taking in the answer.

A `hint` is checked before it is shown: it must be for the version on screen and one
of our own legal actions (what the server sent as `legal`), so a confused or hostile
server cannot make the client suggest a move it could not make. The hint's card is
picked and the cursor put on its space, so Enter plays it; the space is marked ~ ~.
"""

from __future__ import annotations

from collections.abc import Sequence

from sarja.protocol.cards import FIVES_AT
from sarja.protocol.distrust import CHIPS
from sarja.protocol.messages import AskHint, ClientMessage, Hint
from sarja.protocol.notation import parse

from .model import Hinted, Model
from .words import coach as words


def ask_coach(model: Model) -> list[ClientMessage]:
    g = model.game
    if g is None or g.result is not None or model.replay is not None or g.seat is None:
        return []
    if not model.my_turn:
        model.status = words.NOT_YOUR_TURN
        return []
    model.status = words.ASKING
    return [AskHint(version=g.version)]


def take_hint(model: Model, msg: Hint) -> None:
    """Show the hint, if it is still for now and a move we may make; else drop it."""
    g = model.game
    if g is None or g.result is not None or msg.version != g.version or msg.action not in g.legal:
        return
    said = parse(msg.action)
    starts = (
        msg.reason == "builds" and said.kind == "place" and said.cell is not None
        and g.seat is not None and not _ours_near(g.board, said.cell, g.players[g.seat].side)
    )  # fmt: skip
    model.hint = Hinted(msg.version, msg.action, msg.reason, said.card, said.cell, starts)
    if said.card is not None and said.kind in ("place", "remove"):
        model.picked = said.card
    if said.cell is not None:
        model.cursor = said.cell
    model.status = hint_line(model.hint)


def _ours_near(board: Sequence[str], cell: int, side: int) -> bool:
    """Whether a chip of `side` lies in any five through `cell`: the coach's "builds" is
    said of a play with nothing of ours there too (the first move on an empty board),
    where it builds on nothing."""
    mine = CHIPS[side]
    return any(board[c].lower() == mine for five in FIVES_AT[cell] for c in five)


def hint_line(hint: Hinted) -> str:
    """The status line that shows `hint`."""
    said = parse(hint.action)
    reason = "starts" if hint.starts else hint.reason
    return words.hint(words.move_words(said.kind, said.card, said.cell), reason, said.kind)


def hint_cells(model: Model) -> frozenset[int]:
    """The space the hint on screen plays on (none once the game has moved on)."""
    hint, g = model.hint, model.game
    if hint is None or g is None or hint.cell is None or g.version != hint.version:
        return frozenset()
    return frozenset({hint.cell})
