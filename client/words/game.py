"""Words of the game screen: whose turn it is, what is under the cursor, how the game
ended, and what the game's keys say when they cannot do what was asked."""

from __future__ import annotations

from sarja.lang import N_, _, ngettext, pgettext, translated
from sarja.protocol.cards import CORNER_CODE, ONE_EYED, TWO_EYED, card_label, cell_name
from sarja.protocol.mirror import GameMirror

from ..facts import is_computer_seat, last_cell, targets
from ..keybar import KeyItem, Need
from ..model import Model
from . import common


def result_text(game: GameMirror) -> str:
    """How the game ended, in words: "Red wins (Cecilia)" or "The game is a draw" (in
    brackets: it goes after "Game over:", where a second colon would read badly)."""
    assert game.result is not None
    if game.result.result == "draw" or game.result.side is None:
        return _("The game is a draw")
    winners = [p.name for p in game.players if p.side == game.result.side]
    return _("{side} wins ({names})").format(
        side=common.SIDE_NAMES[game.result.side], names=", ".join(winners)
    )


def turn_text(model: Model) -> str:
    """Whose turn, in words; the title bar shows it."""
    g = model.game
    if g is None:
        return ""
    if g.result is not None:
        return result_text(g)
    if model.my_turn:
        return _("YOUR TURN")
    if model.thinking is not None and model.thinking < len(g.players):
        return thinking_text(model, model.thinking)
    return _("{name}'s turn").format(name=g.players[g.turn].name)


def thinking_text(model: Model, seat: int) -> str:
    """ "Bertil (computer) is thinking…", or for an away player's seat the computer
    plays, "The computer is thinking for Cecilia…"."""
    assert model.game is not None
    name = model.game.players[seat].name
    if is_computer_seat(model, seat):
        return _("{name} (computer) is thinking…").format(name=name)
    return _("The computer is thinking for {name}…").format(name=name)


def describe_cell(model: Model, cell: int) -> str:
    """What is under the cursor, in words (a chip hides its card on the board)."""
    name = cell_name(cell)
    layout = model.layout
    if not layout:
        return name
    card = layout[cell]
    if card == CORNER_CODE:
        return _("{cell}: free corner, counts for every side").format(cell=name)
    # A language may add the card's name in words ("E5: 5♥ (hertta 5)").
    text = _("{cell}: {card}").format(cell=name, card=card_label(card), name=common.card_name(card))
    g = model.game
    if g is not None:
        chip = g.board[cell]
        if chip.lower() in "bgr":
            side = common.SIDE_NAMES["bgr".index(chip.lower())]
            if chip.isupper():
                text += _(", {side} chip (in a sequence)").format(side=side)
            else:
                text += _(", {side} chip").format(side=side)
        if g.last is not None and last_cell(g) == cell:
            text += _(", the last move")
        picked = model.picked
        if picked in TWO_EYED and cell in targets(model, picked):
            text += _("; the {card} can go here").format(card=card_label(picked))
        elif picked in ONE_EYED and cell in targets(model, picked):
            text += _("; the {card} can remove this chip").format(card=card_label(picked))
    return text


# ----- what the game's keys say ---------------------------------------------------------

SPECTATORS_WATCH = N_("Spectators watch; only seated players play.")
PICK_FIRST = N_("Pick a card first: a number key (1–9) or Tab.")
PICK_FIRST_SHORT = N_("Pick a card first: a number key or Tab.")
CHOOSE_FIVES = N_("This placement can form its sequence more than one way: choose.")
NO_DEAD_CARD = N_("You hold no dead card (one with both spaces covered).")
NO_DRAW_WAITING = N_("No draw is waiting for you.")
NO_ONE_AWAY = N_("No one is away whose seat the computer could play.")


def hand_over_in(name: str, seconds: int) -> str:
    """`o` before the away minute is over: how long is left."""
    return ngettext(
        "{name} has been away less than a minute: o hands the seat to the computer in {n} second.",
        "{name} has been away less than a minute: o hands the seat to the computer in {n} seconds.",
        seconds,
    ).format(name=name, n=seconds)


TO_WAITING_ROOM = N_("The waiting room: r when you are ready for the next game.")
REMATCH_AFTER = N_("A rematch can be asked for once the game is over.")
REMATCH_ASKED = N_("You asked for a rematch; waiting for the others.")
ALERTS_ON = N_("A bell and the window's title will tell you of your turn (b: off).")
ALERTS_OFF = N_("No bell on your turn now (b: on again).")


def holding(cards: int) -> str:
    if not cards:
        return _("You hold no cards.")
    return ngettext("You hold {n} card.", "You hold {n} cards.", cards).format(n=cards)


PICKED_DEAD = N_("{card} is dead: both its spaces are covered. Press x to exchange it.")
PICKED_DEAD_EXCHANGED = N_(
    "{card} is dead: both its spaces are covered. One dead card a turn is exchanged; this"
    " one waits for your next turn."
)
CANNOT_PLAY = N_("{card} cannot be played now.")
PICKED_WILD = N_("{card} is wild: move the cursor to any open space, then Enter.")


def picked_spaces(label: str, spaces: int, removes: bool) -> str:
    """A picked card's spaces (or, for a one-eyed jack, the chips it can remove)."""
    if removes:
        text = ngettext(
            "{card}: {n} chip it can remove, marked » «. Enter plays at the cursor; n: next.",
            "{card}: {n} chips it can remove, marked » «. Enter plays at the cursor; n: next.",
            spaces,
        )
    else:
        text = ngettext(
            "{card}: {n} open space, marked » «. Enter plays at the cursor; n: next.",
            "{card}: {n} open spaces, marked » «. Enter plays at the cursor; n: next.",
            spaces,
        )
    return text.format(card=label, n=spaces)


PLAY_DEAD = N_("{card} is dead: press x to exchange it.")
PLAY_NOTHING = N_("{card} cannot be played now; p passes if nothing can.")
HANDED_OVER = N_("You asked the computer to play for {name}.")


def seat_kept(command: str, match: bool = False) -> str:
    """Printed in the shell on quitting a game (or a match between its games): how to
    come back. The command goes on a line of its own, so a terminal never wraps it
    mid-word."""
    if match:
        return _("Your seat in the match is kept. To come back, run:") + f"\n    {command}"
    return _("Your seat in the game is kept. To come back, run:") + f"\n    {command}"


# ----- the title bar and the status line -------------------------------------------------

# by screen, and the standings over the lobby
PLACES = {"lobby": N_("lobby"), "table": N_("waiting room"), "game": N_("game"),
          "standings": N_("standings")}  # fmt: skip
WINDOW_CLOSED = N_(" this window is closed ")
WATCHING = N_("watching")
LEAVE_QUESTION = N_(" Leave the table? Your seat is kept: join the table again to go on. y / n ")
REPLAY_TITLE = N_(" Sarja · replay of {title}")
REPLAY_AT = N_("move {at} of {moves} ")
TABLE_TITLE = N_("table {name}")


def quit_question(practice: bool) -> str:
    if practice:
        return _(" Quit in the middle of the game? This practice game ends. y / n ")
    return _(" Quit in the middle of the game? Your seat is kept. y / n ")


# ----- under the board, beside it, and the hand -------------------------------------------

THE_DEAL = N_(" The deal. → steps forward.")
YOUR_DRAW_WAITS = N_("Your draw waits: press d")
LAST = N_("Last: ")
HAND = N_(" Hand ")
WATCHING_HANDS = N_(" You are watching: hands are hidden.")
TAKE_YOUR_DRAW = N_("[d] take your draw")
EXCHANGED = N_("(dead card exchanged)")
NEW_CARD = N_(" new")
NO_CARDS = N_(" no cards")
HELD = N_(" held:")
DRAW_BANNER = N_(" ▶ d: TAKE YOUR DRAW ◀ ")
WILD, REMOVE, DEAD = N_(" wild"), N_(" remove"), N_(" dead")  # after a card in the hand
YOU_TAG, COMPUTER_TAG, AWAY_TAG = N_(" (you)"), N_(" (computer)"), N_(" (away)")


def move_shown(at: int, known: bool) -> str:
    """A replay's move under the board: " Move 3: " before the move, " Move 3." alone."""
    return _(" Move {n}: ").format(n=at) if known else _(" Move {n}.").format(n=at)


def cards_held(count: int) -> str:
    return ngettext(" card", " cards", count)


def piles(top: str, draw: int) -> tuple[str, str]:
    """The discard pile's top card and the draw pile's size, long and short."""
    return (
        _("Discard {top}  Draw pile {draw}").format(top=top, draw=draw),
        _("Discard {top} · Draw {draw}").format(top=top, draw=draw),
    )


def side_sequences(done: int, needed: int) -> tuple[str, str, str]:
    """A side's sequences, as room allows."""
    return (
        _("  sequences {done}/{needed}").format(done=done, needed=needed),
        _(" {done}/{needed} seq.").format(done=done, needed=needed),
        f" {done}/{needed}",
    )


def away(names: list[str]) -> str:
    return _("Away: {names}").format(names=", ".join(names))


GAME_OVER = N_(" Game over: {result}. ")
WINNING = N_(" Winning sequences (marked * on the board): {spans}")


def seat_name(seat: int) -> str:
    return _("Seat {n}").format(n=seat + 1)


WHICH_FIVE = N_(
    " Which five make the sequence at {cell}? ↑↓ and Enter, or the number; Esc: not now "
)


# ----- the game's keys, in the footer ----------------------------------------------------

# Each with its need (keybar.py): a narrow bar leaves out the least needed first.
HELP_KEY = KeyItem("?", N_("help"), Need.HELP)
QUIT_KEY = KeyItem("q", N_("quit"), Need.OUT)
REPLAY_KEYS = [KeyItem("←→", N_("step")), KeyItem("PgUp PgDn", N_("10 moves")),
               KeyItem("Home End", N_("start, end")), HELP_KEY, QUIT_KEY]  # fmt: skip
FIVES_KEYS = [KeyItem("↑↓", N_("choose")), KeyItem("1-9", N_("pick")),
              KeyItem("Enter", N_("confirm")), KeyItem("Esc", N_("cancel"), Need.OUT)]  # fmt: skip
WATCHING_KEYS = [KeyItem(N_("arrows"), N_("look around")), KeyItem("c", N_("chat")),
                 KeyItem("L", N_("leave")), HELP_KEY, QUIT_KEY]  # fmt: skip
FINAL_KEYS = [KeyItem("Enter", N_("to the waiting room")), KeyItem("L", N_("leave the table")),
              KeyItem("c", N_("chat")), HELP_KEY, QUIT_KEY]  # fmt: skip
ENDED_KEYS = [KeyItem("r", N_("rematch")), KeyItem("L", N_("leave the table")),
              KeyItem("c", N_("chat")), HELP_KEY, QUIT_KEY]  # fmt: skip
PLAY_KEYS = [KeyItem("←↑↓→", N_("move")), KeyItem("1-9 Tab", N_("card")),
             KeyItem("Enter", N_("play"), Need.MAIN)]  # fmt: skip
# Keys a turn offers only now: a draw that waits, a dead card, nothing but a pass, a
# seat whose player is away.
DRAW_KEY = KeyItem("d", N_("draw"), Need.MOMENT)
DEAD_KEY = KeyItem("x", N_("dead card"), Need.MOMENT)
PASS_KEY = KeyItem("p", N_("pass"), Need.MOMENT)
HAND_OVER_KEY = KeyItem("o", N_("away seat to computer"), Need.MOMENT)
LAST_KEYS = [KeyItem("c", N_("chat")), HELP_KEY, QUIT_KEY]


def question_keys(leaving: bool) -> list[KeyItem]:
    """The keys while quitting or leaving is asked: the answers, as the question says."""
    yes = _("leave the table") if leaving else _("quit")
    return [KeyItem(pgettext("the key that answers yes", "y"), yes),
            KeyItem(pgettext("the key that answers no", "n"), _("stay"), Need.OUT)]  # fmt: skip


# ----- turn clocks -----------------------------------------------------------------------


def clock_time(seconds: int) -> str:
    """ "0:23": a clock's time left."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_item(name: str | None, draw: bool, seconds: int) -> str:
    """One clock running: ours (`name` None) or another's; for a turn, or a waiting draw."""
    time = clock_time(seconds)
    if name is None:
        if draw:
            return _("your draw: {time}").format(time=time)
        return _("your turn: {time}").format(time=time)
    if draw:
        return _("{name} (draw): {time}").format(name=name, time=time)
    return _("{name}: {time}").format(name=name, time=time)


CLOCK = "⏱ "
CLOCK_UNKNOWN = N_("the clocks are not known while there is no connection")
CLOCK_HANDED = N_("The computer plays for you (your clock ran out): make a move to play again.")


translated(__name__)
