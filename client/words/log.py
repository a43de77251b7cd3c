"""The game's log in words: one sentence per change of an update, the lines that
greet a game coming on screen, the last move, and a summary of what happened while
we were away.

The sentences are built from data (names and sides, cards, cells) as styled
fragments: names in their side's colour, cards in theirs. A move the computer made
for an away person says so: "The computer played for you: …", "The computer, for
Aino, played …".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from sarja.protocol import changes as ch
from sarja.protocol import notation
from sarja.protocol.cards import cell_name
from sarja.protocol.changes import Change
from sarja.protocol.messages import Entry, Last
from sarja.protocol.mirror import GameMirror

from ..model import LogLine, Model
from ..styles import side_style
from .common import Fragment, card_part, five_label, side_name, who_part
from .common import alone as _alone


def _who_part(model: Model, game: GameMirror, seat: int | None, you: bool = True) -> Fragment:
    """A seat's name in its side's colour, or "You" (never in a replay)."""
    return who_part(game, seat, you and model.replay is None)


# What a seat does itself, and what follows from it or happens to a seat.
_Act = ch.Played | ch.Removed | ch.Exchanged | ch.Drew | ch.NoDraw | ch.Passed
_Follow = (
    ch.Reshuffled | ch.DrawForfeited | ch.SequenceMade | ch.Won | ch.DrawnGame | ch.Away | ch.Back
)


def change_parts(model: Model, game: GameMirror, c: Change) -> list[Fragment]:
    """One change of an update as a sentence for the log ([] for nothing worth saying)."""
    match c:
        case ch.Played() | ch.Removed() | ch.Exchanged() | ch.Drew() | ch.NoDraw() | ch.Passed():
            return _act_parts(model, game, c)
        case (
            ch.Reshuffled() | ch.DrawForfeited() | ch.SequenceMade() | ch.Won() | ch.DrawnGame()
            | ch.Away() | ch.Back()
        ):  # fmt: skip
            return _follow_parts(model, game, c)
        case _:
            assert_never(c)


def _act_parts(model: Model, game: GameMirror, c: _Act) -> list[Fragment]:
    """What a seat did itself, as a sentence."""
    who = _who_part(model, game, c.seat)
    match c:
        case ch.Played(card=card, cell=cell):
            return [who, ("", " played "), card_part(card), ("", " at "), _cell_part(cell),
                    ("", ".")]  # fmt: skip
        case ch.Removed(card=card, cell=cell, side=side):
            mine = side == model.my_side and _alone(game, side) and model.replay is None
            whose = ("", "your") if mine else (side_style(side), f"{side_name(game, side)}'s")
            return [who, ("", " removed "), whose, ("", " chip at "), _cell_part(cell),
                    ("", " with the "), card_part(card), ("", ".")]  # fmt: skip
        case ch.Exchanged(card=card):
            return [who, ("", " exchanged a dead "), card_part(card), ("", ".")]
        case ch.Drew():
            # After every play the server draws for the player: news only when drawing
            # is a choice (manual draw), and our own draw is told with its card (`hand`).
            if not game.rules.manual_draw or _ours(model, game, c.seat):
                return []
            return [who, ("", " drew a card.")]
        case ch.NoDraw():
            return [who, ("", " could not draw: both piles are empty.")]
        case ch.Passed():
            return [who, ("", " passed: no playable card.")]
        case _:
            assert_never(c)


def _follow_parts(model: Model, game: GameMirror, c: _Follow) -> list[Fragment]:
    """What followed from an act, or happened to a seat, as a sentence."""
    match c:
        case ch.Reshuffled():
            return [("", "The discard pile was shuffled into a new draw pile.")]
        case ch.DrawForfeited(seat=seat):
            if _ours(model, game, seat):
                return [("", "You lost your draw: it waited too long.")]
            return [_who_part(model, game, seat), ("", " lost their draw: it waited too long.")]
        case ch.SequenceMade(seat=seat, side=side, fives=fives):
            many = "two sequences" if len(fives) > 1 else "a sequence"
            spans = ", ".join(five_label(f) for f in fives)
            alone = _alone(game, side)
            team = (
                _who_part(model, game, seat) if alone else (side_style(side), side_name(game, side))
            )
            return [team, ("", f" completed {many} ({spans}).")]
        case ch.Won(side=side):
            return _won_parts(model, game, side)
        case ch.DrawnGame():
            return [("", "A full round of passes: the game is a draw.")]
        case ch.Away(seat=seat):
            return [_who_part(model, game, seat), ("", " is away; the seat is kept.")]
        case ch.Back(seat=seat):
            return [_who_part(model, game, seat), ("", " is back.")]
        case _:
            assert_never(c)


def _won_parts(model: Model, game: GameMirror, side: int) -> list[Fragment]:
    if _alone(game, side):
        winner = next(s for s, p in enumerate(game.players) if p.side == side)
        if winner == game.seat and model.replay is None:
            return [(side_style(side), "You win!")]
        return [_who_part(model, game, winner), ("", " wins!")]
    return [(side_style(side), side_name(game, side)), ("", " wins!")]


def _ours(model: Model, game: GameMirror, seat: int) -> bool:
    """The seat is ours (never in a replay)."""
    return seat == game.seat and model.replay is None


def _cell_part(cell: int) -> Fragment:
    return ("class:cell", cell_name(cell))


def stand_in_parts(
    model: Model, game: GameMirror, c: Change, parts: list[Fragment]
) -> list[Fragment]:
    """A change the computer made for a person's seat (an update's `stand_in`): "The
    computer played for you: 6♣ at C4." for our own seat, "The computer, for Aino,
    played 6♣ at C4." for another's."""
    if not acted(c):
        return parts
    rest = parts[1:]  # the sentence after its subject
    if getattr(c, "seat", None) == game.seat and model.replay is None:
        if isinstance(c, ch.Played):
            return [("class:log.info", "The computer played for you: "), *rest[1:]]
        return [("class:log.info", "The computer, for you,"), *rest]
    return [("class:log.info", "The computer, for "), parts[0], ("class:log.info", ","),
            *rest]  # fmt: skip


def last_parts(model: Model, game: GameMirror, last: Last) -> list[Fragment]:
    """The last action in the log's words, without its full stop: "Aino played 2♥ at
    E6" (the side panel writes it this way too)."""
    who = _who_part(model, game, last.seat)
    said = notation.parse(last.action)
    card = card_part(said.card) if said.card is not None else ("", "")
    cell = ("class:cell", cell_name(said.cell)) if said.cell is not None else ("", "")
    if said.kind == "pass":
        return [who, ("", " passed")]
    if said.kind == "exchange":
        return [who, ("", " exchanged a dead "), card]
    if said.kind == "remove":
        return [who, ("", " removed a chip at "), cell, ("", " with the "), card]
    return [who, ("", " played "), card, ("", " at "), cell]


def arrival(model: Model, game: GameMirror, table: str) -> list[list[Fragment]]:
    """Lines for the log when a game comes on screen: a new one, or one joined late
    (then what the snapshot says: the last move, the sequences, whose turn)."""
    if game.version == 0:
        return [game_begins(model, game)]
    if game.seat is None:
        lines: list[list[Fragment]] = [[("", f"You are watching the game at {table}.")]]
    else:
        lines = [[("", f"You are back in the game at {table}.")]]
    if game.last is not None:
        lines.append([("", "Last move: "), *last_parts(model, game, game.last), ("", ".")])
    made = [
        f"{side_name(game, side)} {len(fives)}"
        for side, fives in enumerate(game.sequences)
        if side < game.sides
    ]
    lines.append([("", f"Sequences: {', '.join(made)} (of {game.needed} needed).")])
    if game.result is None:
        if game.turn == game.seat:
            lines.append([("", "It is your turn.")])
        else:
            lines.append([("", "It is "), _who_part(model, game, game.turn), ("", "'s turn.")])
    return lines


def game_begins(model: Model, game: GameMirror) -> list[Fragment]:
    """The game's first line: the cut, and who plays first."""
    cut: list[Fragment] = [("", "The game begins. The cut: ")]
    for r, cut_round in enumerate(game.cut):
        if r:
            cut.append(("", "; then "))
        for i, (seat, card) in enumerate(cut_round):
            cut += [("", ", " if i else ""), _who_part(model, game, seat, False), ("", " "),
                    card_part(card)]  # fmt: skip
    cut.append(("", ". "))
    if game.first == game.seat:
        cut.append(("", "You play first."))
    else:
        cut += [_who_part(model, game, game.first), ("", " plays first.")]
    return cut


def replay_begins(first: str) -> tuple[Fragment, ...]:
    """A replay's first line, at the deal."""
    return (("", f"The game begins: {first} plays first. → steps forward, ← back."),)


def drew(card: str) -> list[Fragment]:
    """Our own manual draw, told with its card."""
    return [("", "You drew "), card_part(card), ("", ".")]


def acted(c: Change) -> bool:
    """What a seat's player (or the computer for them) does: the changes a stand-in made
    (the rest of an update follows from them: sequences, forfeits)."""
    match c:
        case ch.Played() | ch.Removed() | ch.Exchanged() | ch.Passed() | ch.Drew() | ch.NoDraw():
            return True
        case (
            ch.Reshuffled() | ch.DrawForfeited() | ch.SequenceMade() | ch.Won() | ch.DrawnGame()
            | ch.Away() | ch.Back()
        ):  # fmt: skip
            return False
        case _:
            assert_never(c)


def is_move(c: Change) -> bool:
    """The changes counted as moves (a draw or a forfeit is part of one)."""
    match c:
        case ch.Played() | ch.Removed() | ch.Exchanged() | ch.Passed():
            return True
        case (
            ch.Drew() | ch.NoDraw() | ch.Reshuffled() | ch.DrawForfeited() | ch.SequenceMade()
            | ch.Won() | ch.DrawnGame() | ch.Away() | ch.Back()
        ):  # fmt: skip
            return False
        case _:
            assert_never(c)


def log_changes(
    model: Model, game: GameMirror, changes: Sequence[Change], stand_in: bool = False
) -> list[LogLine]:
    """One update's changes as log lines (not yet in the log)."""
    lines = []
    # Whom the computer played for.
    actor: int | None = getattr(changes[0], "seat", None) if stand_in and changes else None
    for c in changes:
        parts = change_parts(model, game, c)
        if not parts:
            continue
        seat: int | None = getattr(c, "seat", None)
        mine = seat is not None and seat == game.seat and model.replay is None
        if actor is not None and seat == actor and acted(c):
            parts = stand_in_parts(model, game, c, parts)
        elif mine and isinstance(c, ch.Away):
            parts = [parts[0], ("", " were away; your seat was kept.")]
        elif mine and isinstance(c, ch.Back):
            parts = [parts[0], ("", " are back.")]
        lines.append(LogLine(c.kind, tuple(parts)))
    return lines


def away_summary(game: GameMirror, entries: list[Entry]) -> str:
    """ "While you were away: 6 moves; the computer played 2 for you." ("" for none)."""
    moves = [e for e in entries if any(map(is_move, e.changes))]
    if not moves:
        return ""
    text = f"While you were away: {len(moves)} move{'s' if len(moves) != 1 else ''}"
    mine = sum(
        1
        for e in moves
        if e.stand_in
        and any(is_move(c) and getattr(c, "seat", None) == game.seat for c in e.changes)
    )
    if mine and game.seat is not None:
        text += f"; the computer played {mine} for you"
    return text + "."


def newer_lines(back: int) -> str:
    """The last line of a log scrolled back."""
    return f" ↓ {back} newer line{'s' if back != 1 else ''} · PgDn, End: back to the newest"
