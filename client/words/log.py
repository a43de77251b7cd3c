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

from sarja.protocol.cards import cell_name
from sarja.protocol.messages import Change, Entry, Last
from sarja.protocol.mirror import GameMirror

from ..model import LogLine, Model
from ..styles import side_style
from .common import Fragment, card_part, five_label, side_name, who_part
from .common import alone as _alone


def _who_part(model: Model, game: GameMirror, seat: int | None, you: bool = True) -> Fragment:
    """A seat's name in its side's colour, or "You" (never in a replay)."""
    return who_part(game, seat, you and model.replay is None)


def change_parts(model: Model, game: GameMirror, c: Change) -> list[Fragment]:
    """One change of an update as a sentence for the log ([] for nothing worth saying)."""
    kind = c.kind
    who = _who_part(model, game, c.seat)
    you = c.seat is not None and c.seat == game.seat and model.replay is None
    card = card_part(c.card) if c.card is not None else ("", "")
    where = ("class:cell", cell_name(c.cell)) if c.cell is not None else ("", "")
    if kind == "played":
        return [who, ("", " played "), card, ("", " at "), where, ("", ".")]
    if kind == "removed":
        assert c.side is not None
        mine = c.side == model.my_side and _alone(game, c.side) and model.replay is None
        whose = ("", "your") if mine else (side_style(c.side), f"{side_name(game, c.side)}'s")
        return [who, ("", " removed "), whose, ("", " chip at "), where, ("", " with the "),
                card, ("", ".")]  # fmt: skip
    if kind == "exchanged":
        return [who, ("", " exchanged a dead "), card, ("", ".")]
    if kind == "drew":
        # After every play the server draws for the player: news only when drawing is
        # a choice (manual draw), and our own draw is told with its card (see `hand`).
        if not game.rules.manual_draw or you:
            return []
        return [who, ("", " drew a card.")]
    if kind == "no_draw":
        return [who, ("", " could not draw: both piles are empty.")]
    if kind == "reshuffled":
        return [("", "The discard pile was shuffled into a new draw pile.")]
    if kind == "draw_forfeited":
        if you:
            return [("", "You lost your draw: it waited too long.")]
        return [who, ("", " lost their draw: it waited too long.")]
    if kind == "passed":
        return [who, ("", " passed: no playable card.")]
    if kind == "sequence":
        assert c.side is not None and c.fives is not None
        many = "two sequences" if len(c.fives) > 1 else "a sequence"
        spans = ", ".join(five_label(f) for f in c.fives)
        team = who if _alone(game, c.side) else (side_style(c.side), side_name(game, c.side))
        return [team, ("", f" completed {many} ({spans}).")]
    if kind == "won":
        assert c.side is not None
        if _alone(game, c.side):
            winner = next(s for s, p in enumerate(game.players) if p.side == c.side)
            if winner == game.seat and model.replay is None:
                return [(side_style(c.side), "You win!")]
            return [_who_part(model, game, winner), ("", " wins!")]
        return [(side_style(c.side), side_name(game, c.side)), ("", " wins!")]
    if kind == "drawn_game":
        return [("", "A full round of passes: the game is a draw.")]
    if kind == "away":
        return [who, ("", " is away; the seat is kept.")]
    if kind == "back":
        return [who, ("", " is back.")]
    return []


# What a seat does itself (the rest of an update follows from it: sequences, forfeits).


# What a seat does itself (the rest of an update follows from it: sequences, forfeits).
_OWN_ACTS = frozenset({"played", "removed", "exchanged", "drew", "no_draw", "passed"})


def stand_in_parts(
    model: Model, game: GameMirror, c: Change, parts: list[Fragment]
) -> list[Fragment]:
    """A change the computer made for a person's seat (an update's `stand_in`): "The
    computer played for you: 6♣ at C4." for our own seat, "The computer, for Aino,
    played 6♣ at C4." for another's."""
    if c.kind not in _OWN_ACTS:
        return parts
    rest = parts[1:]  # the sentence after its subject
    if c.seat == game.seat and model.replay is None:
        if c.kind == "played":
            return [("class:log.info", "The computer played for you: "), *rest[1:]]
        return [("class:log.info", "The computer, for you,"), *rest]
    return [("class:log.info", "The computer, for "), parts[0], ("class:log.info", ","),
            *rest]  # fmt: skip


def last_parts(model: Model, game: GameMirror, last: Last) -> list[Fragment]:
    """The last action in the log's words, without its full stop: "Aino played 2♥ at
    E6" (the side panel writes it this way too)."""
    who = _who_part(model, game, last.seat)
    action = last.action
    if action == "pass":
        return [who, ("", " passed")]
    if action.startswith("dead:"):
        return [who, ("", " exchanged a dead "), card_part(action[5:])]
    card, sign, cell = action[:2], action[2], action[3:]
    if sign == "x":
        return [who, ("", " removed a chip at "), ("class:cell", cell), ("", " with the "),
                card_part(card)]  # fmt: skip
    return [who, ("", " played "), card_part(card), ("", " at "), ("class:cell", cell)]


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


# What a seat's player (or the computer for them) does: the changes a stand-in made.
ACTED = frozenset({"played", "removed", "exchanged", "passed", "drew", "no_draw"})


MOVES = frozenset({"played", "removed", "exchanged", "passed"})  # counted as moves


def log_changes(
    model: Model, game: GameMirror, changes: Sequence[Change], stand_in: bool = False
) -> list[LogLine]:
    """One update's changes as log lines (not yet in the log)."""
    lines = []
    actor = changes[0].seat if stand_in and changes else None  # whom the computer played for
    for c in changes:
        parts = change_parts(model, game, c)
        if not parts:
            continue
        mine = c.seat is not None and c.seat == game.seat and model.replay is None
        if actor is not None and c.seat == actor and c.kind in ACTED:
            parts = stand_in_parts(model, game, c, parts)
        elif mine and c.kind == "away":
            parts = [parts[0], ("", " were away; your seat was kept.")]
        elif mine and c.kind == "back":
            parts = [parts[0], ("", " are back.")]
        lines.append(LogLine(c.kind, tuple(parts)))
    return lines


def away_summary(game: GameMirror, entries: list[Entry]) -> str:
    """ "While you were away: 6 moves; the computer played 2 for you." ("" for none)."""
    moves = [e for e in entries if any(c.kind in MOVES for c in e.changes)]
    if not moves:
        return ""
    text = f"While you were away: {len(moves)} move{'s' if len(moves) != 1 else ''}"
    mine = sum(
        1
        for e in moves
        if e.stand_in and any(c.kind in MOVES and c.seat == game.seat for c in e.changes)
    )
    if mine and game.seat is not None:
        text += f"; the computer played {mine} for you"
    return text + "."


def newer_lines(back: int) -> str:
    """The last line of a log scrolled back."""
    return f" ↓ {back} newer line{'s' if back != 1 else ''} · PgDn, End: back to the newest"
