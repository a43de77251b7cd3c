"""The game's intents carried out: the cursor, picking a card, playing, the choice of
fives, exchanging, passing, drawing, handing a seat over, a rematch.

Each returns the messages to send (or nothing) and leaves a line for the status when
it cannot do what was asked. Nothing here knows the rules: which spaces a card takes
and which cards are dead come from the server (facts.py).
"""

from __future__ import annotations

from typing import assert_never

from sarja.protocol.cards import ONE_EYED, TWO_EYED, card_label
from sarja.protocol.messages import (
    ClientMessage,
    Draw,
    Exchange,
    HandOver,
    Pass,
    Play,
    Ready,
    Rematch,
    Remove,
)
from sarja.protocol.session import SessionState

from . import intents as ask
from .facts import (
    choice_options,
    final_board,
    hand_over_later,
    hand_over_seat,
    is_dead,
    playable,
    targets,
)
from .hints import ask_coach
from .model import Model
from .words import game as words
from .words import match as match_words


def board(model: Model, intent: ask.BoardIntent) -> list[ClientMessage]:
    """The cursor, the hand and the choice of fives."""
    match intent:
        case ask.Move(delta):
            move(model, delta)
        case ask.Goto(cell):
            return goto(model, cell)
        case ask.Pick(index):
            pick(model, index)
        case ask.NextCard(step):
            next_card(model, step)
        case ask.NextTarget():
            next_target(model)
        case ask.Play():
            return play(model)
        case ask.FivesMove(step):
            fives_move(model, step)
        case ask.FivesPick(index):
            return fives_pick(model, index)
        case ask.FivesConfirm():
            return fives_confirm(model)
        case _:
            assert_never(intent)
    return []


def turn(model: Model, intent: ask.TurnIntent) -> list[ClientMessage]:
    """The other things a turn (or a game's end) may do."""
    match intent:
        case ask.Exchange():
            return exchange(model)
        case ask.Pass():
            return pass_(model)
        case ask.Draw():
            return draw(model)
        case ask.HandOver():
            return hand_over(model)
        case ask.Cancel():
            cancel(model)
        case ask.Rematch():
            return rematch(model)
        case ask.ToTable():
            to_table(model)
        case ask.AskCoach():
            return ask_coach(model)
        case _:
            assert_never(intent)
    return []


def _ids(model: Model) -> tuple[int, int]:
    """A fresh action id and the version the action is made at."""
    assert model.game is not None
    i = model.session.take_id()
    model.acted = (i, model.picked, model.status)  # each caller sends at once
    return i, model.game.version


def _in_game(model: Model) -> bool:
    if model.game is None or model.game.result is not None or model.replay is not None:
        return False
    if model.game.seat is None:
        model.status = words.SPECTATORS_WATCH
        return False
    return True


def move(model: Model, delta: tuple[int, int]) -> None:
    r, c = divmod(model.cursor, 10)
    model.cursor = (r + delta[0]) % 10 * 10 + (c + delta[1]) % 10


def goto(model: Model, cell: int) -> list[ClientMessage]:
    """A click on a space: move there, and play the picked card if it can go there."""
    model.cursor = cell
    if model.picked is not None and cell in targets(model, model.picked):
        return play(model)
    return []


def _nearest(model: Model, cells: frozenset[int]) -> int | None:
    r, c = divmod(model.cursor, 10)
    return min(cells, key=lambda x: (abs(x // 10 - r) + abs(x % 10 - c), x), default=None)


def pick(model: Model, index: int) -> None:
    if not model.seated:
        return
    hand = model.hand
    if not 0 <= index < len(hand):
        model.status = words.holding(len(hand))
        return
    card = hand[index]
    model.picked = card
    spaces = targets(model, card)
    label = card_label(card)
    if is_dead(model, card):
        g = model.game
        # After the turn's one exchange, x would only be refused: say so instead.
        dead = words.PICKED_DEAD_EXCHANGED if g is not None and g.exchanged else words.PICKED_DEAD
        model.status = dead.format(card=label)
    elif not spaces:
        model.status = words.CANNOT_PLAY.format(card=label)
    elif card in TWO_EYED:
        model.status = words.PICKED_WILD.format(card=label)
    else:
        if model.cursor not in spaces:
            model.cursor = _nearest(model, spaces) or model.cursor
        model.status = words.picked_spaces(label, len(spaces), card in ONE_EYED)


def next_card(model: Model, step: int) -> None:
    hand = model.hand
    if not hand or not model.seated:
        return
    useful = [i for i, c in enumerate(hand) if playable(model, c) or is_dead(model, c)]
    order = useful or list(range(len(hand)))
    now = hand.index(model.picked) if model.picked in hand else -1 if step > 0 else len(hand)
    later = [i for i in order if (i - now) * step > 0]
    pool = later or order  # past the end: wrap around
    pick(model, pool[0] if step > 0 else pool[-1])


def next_target(model: Model) -> None:
    spaces = sorted(targets(model, model.picked))
    if not spaces:
        model.status = words.PICK_FIRST_SHORT if model.picked is None else ""
        return
    later = [c for c in spaces if c > model.cursor]
    model.cursor = later[0] if later else spaces[0]


def play(model: Model) -> list[ClientMessage]:
    if not _in_game(model):
        return []
    card = model.picked
    if card is None:
        model.status = words.PICK_FIRST
        return []
    spaces = targets(model, card)
    if model.my_turn and not spaces:
        # Nothing the server could accept; off turn the server's own answer is sent back.
        label = card_label(card)
        if is_dead(model, card):
            model.status = words.PLAY_DEAD.format(card=label)
        else:
            model.status = words.PLAY_NOTHING.format(card=label)
        return []
    cell = model.cursor
    if cell not in spaces and len(spaces) == 1:
        cell = model.cursor = next(iter(spaces))  # one place to go: no need to aim
    if card in ONE_EYED:
        i, version = _ids(model)
        return [Remove(id=i, version=version, card=card, cell=cell)]
    options = choice_options(model, cell) if cell in spaces else ()
    if len(options) > 1:
        model.overlay, model.fives_cell, model.fives_index = "fives", cell, 0
        model.status = words.CHOOSE_FIVES
        return []
    i, version = _ids(model)
    return [Play(id=i, version=version, card=card, cell=cell)]


def fives_move(model: Model, step: int) -> None:
    n = len(choice_options(model, model.fives_cell)) if model.fives_cell is not None else 0
    if n:
        model.fives_index = (model.fives_index + step) % n


def fives_pick(model: Model, index: int) -> list[ClientMessage]:
    n = len(choice_options(model, model.fives_cell)) if model.fives_cell is not None else 0
    if 0 <= index < n:
        model.fives_index = index
        return fives_confirm(model)
    return []


def fives_confirm(model: Model) -> list[ClientMessage]:
    cell, card = model.fives_cell, model.picked
    model.overlay = None
    model.fives_cell = None
    if cell is None or card is None or not _in_game(model):
        return []
    options = choice_options(model, cell)
    fives = options[model.fives_index] if model.fives_index < len(options) else ()
    i, version = _ids(model)
    return [Play(id=i, version=version, card=card, cell=cell, fives=fives)]


def exchange(model: Model) -> list[ClientMessage]:
    if not _in_game(model):
        return []
    card = model.picked
    if card is None or not is_dead(model, card):  # the picked card if dead, else the first
        card = next((c for c in model.hand if is_dead(model, c)), None)
    if card is None:
        model.status = words.NO_DEAD_CARD
        return []
    i, version = _ids(model)
    return [Exchange(id=i, version=version, card=card)]


def pass_(model: Model) -> list[ClientMessage]:
    if not _in_game(model):
        return []
    i, version = _ids(model)
    return [Pass(id=i, version=version)]


def draw(model: Model) -> list[ClientMessage]:
    if not _in_game(model):
        return []
    if not model.draw_waiting:
        model.status = words.NO_DRAW_WAITING
        return []
    i, version = _ids(model)
    return [Draw(id=i, version=version)]


def hand_over(model: Model) -> list[ClientMessage]:
    """Let the computer play for a player who is away (see `hand_over_seat`)."""
    seat = hand_over_seat(model)
    if seat is None:
        later = hand_over_later(model)
        if later is not None and model.game is not None:
            model.status = words.hand_over_in(model.game.players[later[0]].name, later[1])
        elif model.seated:
            model.status = words.NO_ONE_AWAY
        return []
    assert model.game is not None
    model.status = words.HANDED_OVER.format(name=model.game.players[seat].name)
    return [HandOver(seat=seat)]


def cancel(model: Model) -> None:
    model.picked = None
    model.status = ""


def to_table(model: Model) -> None:
    """From a finished game kept on screen (see `final_board`) to its waiting room."""
    if final_board(model):
        model.game = None
        model.picked = None
        model.status = words.TO_WAITING_ROOM


def rematch(model: Model) -> list[ClientMessage]:
    if final_board(model):
        to_table(model)  # no rematch with a seat freed: a new game instead
        return []
    if not model.seated:
        return []
    if model.phase != SessionState.ENDED:
        model.status = words.REMATCH_AFTER
        return []
    match = None if model.table is None else model.table.match
    if match is not None and not match.over:  # no vote between a match's games
        model.status = match_words.READY_NEXT
        return [Ready(ready=True)]
    model.status = words.REMATCH_ASKED
    return [Rematch()]
