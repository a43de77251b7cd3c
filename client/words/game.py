"""Words of the game screen: whose turn it is, what is under the cursor, how the game
ended, and what the game's keys say when they cannot do what was asked."""

from __future__ import annotations

from sarja.protocol.cards import CORNER_CODE, ONE_EYED, TWO_EYED, card_label, cell_name
from sarja.protocol.mirror import GameMirror

from ..facts import is_computer_seat, last_cell, targets
from ..model import Model
from .common import SIDE_NAMES


def result_text(game: GameMirror) -> str:
    """How the game ended, in words: "Red wins: Cecilia" or "The game is a draw"."""
    assert game.result is not None
    if game.result.result == "draw" or game.result.side is None:
        return "The game is a draw"
    winners = [p.name for p in game.players if p.side == game.result.side]
    return f"{SIDE_NAMES[game.result.side]} wins: {', '.join(winners)}"


def turn_text(model: Model) -> str:
    """Whose turn, in words; the title bar shows it."""
    g = model.game
    if g is None:
        return ""
    if g.result is not None:
        return result_text(g)
    if model.my_turn:
        return "YOUR TURN"
    if model.thinking is not None and model.thinking < len(g.players):
        return thinking_text(model, model.thinking)
    return f"{g.players[g.turn].name}'s turn"


def thinking_text(model: Model, seat: int) -> str:
    """ "Bertil (computer) is thinking…", or for an away player's seat the computer
    plays, "The computer is thinking for Cecilia…"."""
    assert model.game is not None
    name = model.game.players[seat].name
    if is_computer_seat(model, seat):
        return f"{name} (computer) is thinking…"
    return f"The computer is thinking for {name}…"


def describe_cell(model: Model, cell: int) -> str:
    """What is under the cursor, in words (a chip hides its card on the board)."""
    name = cell_name(cell)
    layout = model.layout
    if not layout:
        return name
    card = layout[cell]
    if card == CORNER_CODE:
        return f"{name}: free corner, counts for every side"
    text = f"{name}: {card_label(card)}"
    g = model.game
    if g is not None:
        chip = g.board[cell]
        if chip.lower() in "bgr":
            side = "bgr".index(chip.lower())
            text += f", {SIDE_NAMES[side]} chip" + (" (in a sequence)" if chip.isupper() else "")
        if g.last is not None and last_cell(g) == cell:
            text += ", the last move"
        picked = model.picked
        if picked in TWO_EYED and cell in targets(model, picked):
            text += f"; the {card_label(picked)} can go here"
        elif picked in ONE_EYED and cell in targets(model, picked):
            text += f"; the {card_label(picked)} can remove this chip"
    return text


# ----- what the game's keys say ---------------------------------------------------------

SPECTATORS_WATCH = "Spectators watch; only seated players play."
PICK_FIRST = "Pick a card first: a number key (1–9) or Tab."
PICK_FIRST_SHORT = "Pick a card first: a number key or Tab."
CHOOSE_FIVES = "This placement can form its sequence more than one way: choose."
NO_DEAD_CARD = "You hold no dead card (one with both spaces covered)."
NO_DRAW_WAITING = "No draw is waiting for you."
NO_ONE_AWAY = "No one is away whose seat the computer could play."
TO_WAITING_ROOM = "The waiting room: r when you are ready for the next game."
REMATCH_AFTER = "A rematch can be asked for once the game is over."
REMATCH_ASKED = "You asked for a rematch; waiting for the others."
ALERTS_ON = "A bell and the window's title will tell you of your turn (b: off)."
ALERTS_OFF = "No bell on your turn now (b: on again)."


def holding(cards: int) -> str:
    return f"You hold {cards} cards." if cards else "You hold no cards."


def picked_dead(label: str) -> str:
    return f"{label} is dead: both its spaces are covered. Press x to exchange it."


def cannot_play(label: str) -> str:
    return f"{label} cannot be played now."


def picked_wild(label: str) -> str:
    return f"{label} is wild: move the cursor to any open space, then Enter."


def picked_spaces(label: str, spaces: int, removes: bool) -> str:
    """A picked card's spaces (or, for a one-eyed jack, the chips it can remove)."""
    if removes:
        what = "chip it can remove" if spaces == 1 else "chips it can remove"
    else:
        what = "open space" if spaces == 1 else "open spaces"
    return f"{label}: {spaces} {what}, marked » «. Enter plays at the cursor; n: next."


def play_dead(label: str) -> str:
    return f"{label} is dead: press x to exchange it."


def play_nothing(label: str) -> str:
    return f"{label} cannot be played now; p passes if nothing can."


def handed_over(name: str) -> str:
    return f"You asked the computer to play for {name}."


def seat_kept(command: str) -> str:
    """Printed in the shell on quitting a game: how to come back. The command goes on a
    line of its own, so a terminal never wraps it mid-word."""
    return f"Your seat in the game is kept. To come back, run:\n    {command}"


# ----- the title bar and the status line -------------------------------------------------

PLACES = {"lobby": "lobby", "table": "waiting room", "game": "game"}  # by screen
WINDOW_CLOSED = " this window is closed "
WATCHING = "watching"
LEAVE_QUESTION = " Leave the table? Your seat is kept: join the table again to go on. y / n "


def replay_title(title: str) -> str:
    return f" Sarja · replay of {title}"


def replay_at(at: int, moves: int) -> str:
    return f"move {at} of {moves} "


def table_title(name: str) -> str:
    return f"table {name}"


def quit_question(practice: bool) -> str:
    kept = "This practice game ends." if practice else "Your seat is kept."
    return f" Quit in the middle of the game? {kept} y / n "


# ----- under the board, beside it, and the hand -------------------------------------------

THE_DEAL = " The deal. → steps forward."
YOUR_DRAW_WAITS = "Your draw waits: press d"
LAST = "Last: "
HAND = " Hand "
WATCHING_HANDS = " You are watching: hands are hidden."
TAKE_YOUR_DRAW = "[d] take your draw"
EXCHANGED = "(dead card exchanged)"
NEW_CARD = " new"
NO_CARDS = " no cards"
HELD = " held:"
DRAW_BANNER = " ▶ d: TAKE YOUR DRAW ◀ "
WILD, REMOVE, DEAD = " wild", " remove", " dead"  # after a card's label in the hand
YOU_TAG, COMPUTER_TAG, AWAY_TAG = " (you)", " (computer)", " (away)"


def move_shown(at: int, known: bool) -> str:
    """A replay's move under the board: " Move 3: " before the move, " Move 3." alone."""
    return f" Move {at}: " if known else f" Move {at}."


def cards_held(count: int) -> str:
    return " card" if count == 1 else " cards"


def piles(top: str, draw: int) -> tuple[str, str]:
    """The discard pile's top card and the draw pile's size, long and short."""
    return (f"Discard {top}  Draw pile {draw}", f"Discard {top} · Draw {draw}")


def side_sequences(done: int, needed: int) -> tuple[str, str, str]:
    """A side's sequences, as room allows."""
    return (f"  sequences {done}/{needed}", f" {done}/{needed} seq.", f" {done}/{needed}")


def away(names: list[str]) -> str:
    return "Away: " + ", ".join(names)


def game_over(result: str) -> str:
    return f" Game over: {result}. "


def winning(spans: str) -> str:
    return f" Winning sequences (marked * on the board): {spans}"


def seat_name(seat: int) -> str:
    return f"Seat {seat + 1}"


def which_five(cell: str) -> str:
    return f" Which five make the sequence at {cell}? ↑↓ and Enter, or the number; Esc: not now "


# ----- the game's keys, in the footer ----------------------------------------------------

REPLAY_KEYS = [("←→", "step"), ("PgUp PgDn", "10 moves"), ("Home End", "start, end"),
               ("?", "help"), ("q", "quit")]  # fmt: skip
FIVES_KEYS = [("↑↓", "choose"), ("1-9", "pick"), ("Enter", "confirm"), ("Esc", "cancel")]
WATCHING_KEYS = [("arrows", "look around"), ("c", "chat"), ("L", "leave"), ("?", "help"),
                 ("q", "quit")]  # fmt: skip
FINAL_KEYS = [("Enter", "to the waiting room"), ("L", "leave the table"), ("c", "chat"),
              ("?", "help"), ("q", "quit")]  # fmt: skip
ENDED_KEYS = [("r", "rematch"), ("L", "leave the table"), ("c", "chat"), ("?", "help"),
              ("q", "quit")]  # fmt: skip
PLAY_KEYS = [("←↑↓→", "move"), ("1-9 Tab", "card"), ("Enter", "play")]
DRAW_KEY, DEAD_KEY, PASS_KEY = ("d", "draw"), ("x", "dead card"), ("p", "pass")
HAND_OVER_KEY = ("o", "away seat to computer")
LAST_KEYS = [("c", "chat"), ("?", "help"), ("q", "quit")]


# ----- turn clocks -----------------------------------------------------------------------


def clock_time(seconds: int) -> str:
    """ "0:23": a clock's time left."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_item(name: str | None, draw: bool, seconds: int) -> str:
    """One clock running: ours (`name` None) or another's; for a turn, or a waiting draw."""
    if name is None:
        return f"your {'draw' if draw else 'turn'}: {clock_time(seconds)}"
    return f"{name}{' (draw)' if draw else ''}: {clock_time(seconds)}"


CLOCK = "⏱ "
CLOCK_HANDED = "The computer plays for you (your clock ran out): make a move to play again."
