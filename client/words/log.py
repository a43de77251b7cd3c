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
from functools import partial
from typing import assert_never

from sarja.lang import N_, _, ngettext, translated
from sarja.protocol import changes as ch
from sarja.protocol import notation
from sarja.protocol.cards import cell_name
from sarja.protocol.changes import Change
from sarja.protocol.messages import Entry, Last
from sarja.protocol.mirror import GameMirror

from ..model import LogLine, Model
from ..styles import side_style
from .common import Fragment, card_part, five_label, parts, side_name, who_part
from .common import alone as _alone


def _who_part(model: Model, game: GameMirror, seat: int | None, you: bool = True) -> Fragment:
    """A seat's name in its side's colour, or "You" (never in a replay)."""
    return who_part(game, seat, you and model.replay is None)


# A sentence about another seat ({who}) and about our own ({you}): two messages, as a
# language may say "you" with another form of the verb (Finnish: "Aino pelasi",
# "Sinä pelasit").
_PLAYED = (N_("{who} played {card} at {cell}."), N_("{you} played {card} at {cell}."))
_REMOVED = (
    N_("{who} removed {whose} chip at {cell} with the {card}."),
    N_("{you} removed {whose} chip at {cell} with the {card}."),
)
_EXCHANGED = (N_("{who} exchanged a dead {card}."), N_("{you} exchanged a dead {card}."))
_NO_DRAW = (
    N_("{who} could not draw: both piles are empty."),
    N_("{you} could not draw: both piles are empty."),
)
_FORFEITED = (N_("{who} lost their draw: it waited too long."),
              N_("{you} lost your draw: it waited too long."))  # fmt: skip
_PASSED = (N_("{who} passed: no playable card."), N_("{you} passed: no playable card."))
_AWAY = (N_("{who} is away; the seat is kept."), N_("{you} were away; your seat was kept."))
_BACK = (N_("{who} is back."), N_("{you} are back."))
_WINS = (N_("{who} wins!"), N_("{you} win!"))
# The last move, without its full stop (the side panel writes it this way too).
_LAST_PLAYED = (N_("{who} played {card} at {cell}"), N_("{you} played {card} at {cell}"))
_LAST_REMOVED = (N_("{who} removed a chip at {cell} with the {card}"),
                 N_("{you} removed a chip at {cell} with the {card}"))  # fmt: skip
_LAST_EXCHANGED = (N_("{who} exchanged a dead {card}"), N_("{you} exchanged a dead {card}"))
_LAST_PASSED = (N_("{who} passed"), N_("{you} passed"))


def _said(
    pair: tuple[str, str], who: Fragment | list[Fragment], you: bool, **rest: Fragment | str
) -> list[Fragment]:
    """One of a pair of sentences (another's, ours) with its places filled."""
    if you:
        return parts(pair[1], you=who, **rest)
    return parts(pair[0], who=who, **rest)


def change_parts(
    model: Model, game: GameMirror, c: Change, stand_in: bool = False
) -> list[Fragment]:
    """One change of an update as a sentence for the log ([] for nothing worth saying).
    `stand_in`: the computer made it for the seat (an update's `stand_in`): "The
    computer played for you: 6♣ at C4.", "The computer, for Aino, played 6♣ at C4."."""
    seat: int | None = getattr(c, "seat", None)
    who: Fragment | list[Fragment] = _who_part(model, game, seat)
    you = seat is not None and seat == game.seat and model.replay is None
    if stand_in and by_mover(c):
        if you and isinstance(c, ch.Played):
            return parts(_("The computer played for you: {card} at {cell}."),
                         card=card_part(c.card), cell=_cell_part(c.cell))  # fmt: skip
        if you:
            who = [("class:log.info", _("The computer, for you,"))]
        else:
            who = parts(_("The computer, for {who},"), who=who)
            who = [(style or "class:log.info", text) for style, text in who]
        you = False
    match c:
        case ch.Played() | ch.Removed() | ch.Exchanged() | ch.Drew() | ch.NoDraw() | ch.Passed():
            return _act_parts(model, game, c, who, you)
        case (
            ch.Reshuffled() | ch.DrawForfeited() | ch.SequenceMade() | ch.Won() | ch.DrawnGame()
            | ch.Away() | ch.Back()
        ):  # fmt: skip
            return _follow_parts(model, game, c, who, you)
        case _:
            assert_never(c)


# What a seat does itself, and what follows from it or happens to a seat.
_Act = ch.Played | ch.Removed | ch.Exchanged | ch.Drew | ch.NoDraw | ch.Passed
_Follow = (
    ch.Reshuffled | ch.DrawForfeited | ch.SequenceMade | ch.Won | ch.DrawnGame | ch.Away | ch.Back
)
_Who = Fragment | list[Fragment]


def _act_parts(model: Model, game: GameMirror, c: _Act, who: _Who, you: bool) -> list[Fragment]:
    """What a seat did itself, as a sentence."""
    match c:
        case ch.Played(card=card, cell=cell):
            return _said(_PLAYED, who, you, card=card_part(card), cell=_cell_part(cell))
        case ch.Removed(card=card, cell=cell, side=side):
            mine = side == model.my_side and _alone(game, side) and model.replay is None
            if mine:
                return parts(_("{who} removed your chip at {cell} with the {card}."), who=who,
                             cell=_cell_part(cell), card=card_part(card))  # fmt: skip
            whose = (side_style(side), _("{side}'s").format(side=side_name(game, side)))
            return _said(_REMOVED, who, you, whose=whose, cell=_cell_part(cell),
                         card=card_part(card))  # fmt: skip
        case ch.Exchanged(card=card):
            return _said(_EXCHANGED, who, you, card=card_part(card))
        case ch.Drew():
            # After every play the server draws for the player: news only when drawing
            # is a choice (manual draw), and our own draw is told with its card (`hand`).
            if not game.rules.manual_draw or you:
                return []
            return parts(_("{who} drew a card."), who=who)
        case ch.NoDraw():
            return _said(_NO_DRAW, who, you)
        case ch.Passed():
            return _said(_PASSED, who, you)
        case _:
            assert_never(c)


def _follow_parts(
    model: Model, game: GameMirror, c: _Follow, who: _Who, you: bool
) -> list[Fragment]:
    """What followed from a seat's act, or happened to a seat, as a sentence."""
    match c:
        case ch.Reshuffled():
            return [("", _("The discard pile was shuffled into a new draw pile."))]
        case ch.DrawForfeited():
            return _said(_FORFEITED, who, you)
        case ch.SequenceMade(side=side, fives=fives):
            spans = ", ".join(five_label(f) for f in fives)
            team = who if _alone(game, side) else (side_style(side), side_name(game, side))
            if you and _alone(game, side):
                text = ngettext("{you} completed a sequence ({spans}).",
                                "{you} completed two sequences ({spans}).", len(fives))  # fmt: skip
                return parts(text, you=team, spans=spans)
            text = ngettext("{who} completed a sequence ({spans}).",
                            "{who} completed two sequences ({spans}).", len(fives))  # fmt: skip
            return parts(text, who=team, spans=spans)
        case ch.Won(side=side):
            if _alone(game, side):
                winner = next(s for s, p in enumerate(game.players) if p.side == side)
                ours = winner == game.seat and model.replay is None
                return _said(_WINS, _who_part(model, game, winner), ours)
            return _said(_WINS, (side_style(side), side_name(game, side)), False)
        case ch.DrawnGame():
            return [("", _("A full round of passes: the game is a draw."))]
        case ch.Away():
            return _said(_AWAY, who, you)
        case ch.Back():
            return _said(_BACK, who, you)
        case _:
            assert_never(c)


def away_or_back(name: str, side: int, back: bool) -> list[Fragment]:
    """Another seat's person gone or back between two games (no change says it then)."""
    return _said(_BACK if back else _AWAY, (side_style(side), name), False)


def _cell_part(cell: int) -> Fragment:
    return ("class:cell", cell_name(cell))


def last_parts(model: Model, game: GameMirror, last: Last) -> list[Fragment]:
    """The last action in the log's words, without its full stop: "Aino played 2♥ at
    E6" (the side panel writes it this way too)."""
    who: _Who = _who_part(model, game, last.seat)
    you = last.seat is not None and last.seat == game.seat and model.replay is None
    if last.stand_in:
        # The computer made it for the seat's person: said as the log says it.
        if you:
            who = [("class:log.info", _("The computer, for you,"))]
        else:
            who = [(style or "class:log.info", text)
                   for style, text in parts(_("The computer, for {who},"), who=who)]  # fmt: skip
        you = False
    said = notation.parse(last.action)
    card = card_part(said.card) if said.card is not None else ("", "")
    cell = ("class:cell", cell_name(said.cell)) if said.cell is not None else ("", "")
    if said.kind == "pass":
        return _said(_LAST_PASSED, who, you)
    if said.kind == "exchange":
        return _said(_LAST_EXCHANGED, who, you, card=card)
    if said.kind == "remove":
        return _said(_LAST_REMOVED, who, you, cell=cell, card=card)
    return _said(_LAST_PLAYED, who, you, card=card, cell=cell)


def arrival(model: Model, game: GameMirror, table: str) -> list[list[Fragment]]:
    """Lines for the log when a game comes on screen: a new one, or one joined late
    (then what the snapshot says: the last move, the sequences, whose turn)."""
    if game.version == 0:
        return [game_begins(model, game)]
    if game.seat is None:
        text = _("You are watching the game at {table}.").format(table=table)
    else:
        text = _("You are back in the game at {table}.").format(table=table)
    lines: list[list[Fragment]] = [[("", text)]]
    if game.last is not None:
        lines.append(parts(_("Last move: {move}."), move=last_parts(model, game, game.last)))
    made = [
        f"{side_name(game, side)} {len(fives)}"
        for side, fives in enumerate(game.sequences)
        if side < game.sides
    ]
    lines.append([("", _("Sequences: {made} (of {needed} needed).").format(
        made=", ".join(made), needed=game.needed))])  # fmt: skip
    if game.result is None:
        if game.turn == game.seat:
            lines.append([("", _("It is your turn."))])
        else:
            lines.append(parts(_("It is {who}'s turn."), who=_who_part(model, game, game.turn)))
    return lines


def game_begins(model: Model, game: GameMirror) -> list[Fragment]:
    """The game's first line: the cut, and who plays first."""
    cut: list[Fragment] = [("", _("The game begins. The cut:") + " ")]
    for r, cut_round in enumerate(game.cut):
        if r:
            cut.append(("", _("; then") + " "))
        for i, (seat, card) in enumerate(cut_round):
            cut += [("", ", " if i else ""), _who_part(model, game, seat, False), ("", " "),
                    card_part(card)]  # fmt: skip
    cut.append(("", ". "))
    if game.first == game.seat:
        cut.append(("", _("You play first.")))
    else:
        cut += parts(_("{who} plays first."), who=_who_part(model, game, game.first))
    return cut


def replay_begins(first: str) -> tuple[Fragment, ...]:
    """A replay's first line, at the deal."""
    return (("", _("The game begins: {first} plays first. → steps forward, ← back.").format(
        first=first)),)  # fmt: skip


def drew(card: str) -> list[Fragment]:
    """Our own manual draw, told with its card."""
    return parts(_("You drew {card}."), card=card_part(card))


def moved(c: Change) -> bool:
    """A change that becomes the game's last move (`Last`): a play, removal, exchange or pass."""
    return isinstance(c, ch.Played | ch.Removed | ch.Exchanged | ch.Passed)


def acted(c: Change) -> bool:
    """What a seat's player (or the computer for them) does: the changes a stand-in made."""
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


def by_mover(c: Change) -> bool:
    """What the seat's move made: what it did, and the sequences that made (told as
    the computer's when the computer made the move for the seat's person)."""
    return acted(c) or isinstance(c, ch.SequenceMade)


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
        seat: int | None = getattr(c, "seat", None)
        by_computer = actor is not None and seat == actor and by_mover(c)
        line = LogLine(c.kind, partial(change_parts, model, game, c, by_computer))
        if line.parts:
            lines.append(line)
    return lines


def away_summary(game: GameMirror, entries: list[Entry]) -> str:
    """ "While you were away: 6 moves; the computer played 2 for you." ("" for none)."""
    moves = [e for e in entries if any(map(is_move, e.changes))]
    if not moves:
        return ""
    text = ngettext(
        "While you were away: {n} move", "While you were away: {n} moves", len(moves)
    ).format(n=len(moves))
    mine = sum(
        1
        for e in moves
        if e.stand_in
        and any(is_move(c) and getattr(c, "seat", None) == game.seat for c in e.changes)
    )
    if mine and game.seat is not None:
        text += _("; the computer played {n} for you").format(n=mine)
    return text + "."


def newer_lines(back: int) -> str:
    """The last line of a log scrolled back."""
    return ngettext(
        " ↓ {n} newer line · PgDn, End: back to the newest",
        " ↓ {n} newer lines · PgDn, End: back to the newest",
        back,
    ).format(n=back)


translated(__name__)
