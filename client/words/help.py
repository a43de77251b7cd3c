"""Words of the help pages: the rules in short, and what each key does."""

from __future__ import annotations

from sarja.lang import N_, _, translated

from ..keybar import KeyItem, Need

RULES_TITLE = N_(" How to play Sarja")
KEYS_TITLE = N_(" Keys")
PAGE_KEYS = [KeyItem("Tab ←→", N_("other page")), KeyItem("Esc ?", N_("close"), Need.OUT)]

# The rules page. At 80×24 it has 22 rows: the paragraphs, wrapped at 78 columns, with a
# blank row between each two, must fit in them in Finnish too (its lines run longer;
# without the room the page drops every blank row), so what a turn offers is one paragraph.
RULES = [
    N_(
        "Goal: five of your chips in a line, across, down or diagonal, make a sequence. "
        "Two sides need two sequences to win; three sides need one. The corners ★ count "
        "for every side."
    ),
    N_(
        "Your turn: pick a card and put a chip on one of its two spaces on the board; then "
        "you draw (the server draws for you, unless the table uses manual draw: then press "
        "d before the next player has played and drawn, or the draw is lost). A dead card "
        "has both its spaces taken: once a turn you may exchange one (x) and draw another. "
        "Pass (p) only when nothing can be played."
    ),
    N_(
        "Jacks: J♦ and J♣ are wild: a chip on any open space. J♠ and J♥ remove an "
        "opponent's chip that is not in a sequence."
    ),
    N_(
        "A sequence is locked: its chips stay. A side's second sequence may share one "
        "space with its first. Seats alternate colours; teammates share a colour, not a hand."
    ),
    N_(
        "On the board: (B) a Blue chip, (G) Green, (R) Red; [B] locked in a sequence; "
        "»\u00a0« the picked card's spaces; ▶\u00a0◀ the cursor; +\u00a0+ the last move; "
        "*\u00a0* the winning sequences; ~\u00a0~ the coach's move."
    ),
]

# What each key does, in the order the help page lists them: a key binding names its
# line here (keys.py, `say=`), and a screen's help lists the lines of the keys bound on
# it, each with the keys that are, so the page and the bindings cannot drift apart.
KEYS = {
    # the game
    "click game": N_("click a card to pick it, a space to play it there"),
    "cursor": N_("move the cursor"),
    "next space": N_("to the picked card's next space"),
    "pick": N_("pick that card"),
    "next card": N_("the next playable card / the one before"),
    "play": N_("play the picked card at the cursor (or at its only space)"),
    "put back": N_("put the card back"),
    "exchange": N_("exchange a dead card"),
    "pass": N_("pass (only when nothing can be played)"),
    "draw": N_("take a waiting draw (a table with manual draw)"),
    "hint": N_("a hint, if the table allows"),
    "hand over": N_("hand an away player's seat to the computer (after 1 min)"),
    "rematch": N_("after a game: a rematch, or the match's next game"),
    # a replay
    "step back": N_("a move back"),
    "step on": N_("a move on"),
    "ten moves": N_("ten moves back / on"),
    "ends": N_("to the start / to the end"),
    "analyse": N_("analyse the game: the coach marks the mistakes"),
    "mistakes": N_("to the next mistake / the one before"),
    # the lobby
    "click lobby": N_("click a table to choose it, again to join it"),
    "choose table": N_("choose a table"),
    "join": N_("join the chosen table"),
    "watch": N_("watch the chosen table"),
    "new table": N_("a new table"),
    "refresh": N_("refresh the list"),
    "standings": N_("the standings"),
    "language": N_("suomeksi / in English (the language is remembered)"),
    # the new-table form
    "form field back": N_("the form's field before"),
    "form field on": N_("the form's next field"),
    "form change": N_("change the chosen field (← back, → and Space on)"),
    "form digits": N_(
        "type the turn clock's seconds, or the wins a match is played to, in its field"
        " (Backspace takes one off)"
    ),
    "create": N_("make the table"),
    "cancel form": N_("close the form: no table is made"),
    # the standings
    "refresh standings": N_("refresh the standings"),
    "forget": N_("forget me: your standing and figures go (asks first)"),
    "close standings": N_("back to the tables"),
    # the waiting room
    "click seat": N_("click a seat to sit in it"),
    "choose seat": N_("choose a seat"),
    "sit": N_("sit in that seat"),
    "sit chosen": N_("sit in the chosen seat"),
    "ready": N_("ready / not ready"),
    "seat computer": N_(
        "at a table you made: a computer in the chosen free seat (again: harder, then none)"
    ),
    # connecting
    "retry": N_("connect again now"),
    # at a table
    "chat": N_("chat with the table"),
    "leave": N_("leave the table (your seat is kept during a game)"),
    "log": N_("scroll the log back / on / to the start / to the newest"),
    "alerts": N_("a bell and the window's title on your turn: on / off"),
    # anywhere
    "help": N_("this help"),
    "quit seated": N_("quit (asks first during a game; the seat is kept)"),
    "quit": N_("quit"),  # no seat here (the lobby, a replay, watching): nothing to keep
}

# How the help page writes a key (prompt_toolkit's name for it): letters and digits as
# they are, a run of digits as "1…9".
KEY_NAMES = {
    "up": "↑", "down": "↓", "left": "←", "right": "→", "enter": "Enter", "escape": "Esc",
    " ": N_("Space"), "tab": "Tab", "s-tab": "Shift-Tab", "backspace": "Backspace",
    "pageup": "PgUp", "pagedown": "PgDn", "home": "Home", "end": "End", "c-c": "Ctrl-C",
    "f1": "F1",
    "<vt100-mouse-event>": N_("mouse"),
}  # fmt: skip
_ARROWS = "↑↓←→"
_ARROW_KEYS = ("up", "down", "left", "right")


def _rank(key: str) -> int:
    return 0 if key in _ARROW_KEYS else 1 if len(key) == 1 and key != " " else 2


def key_label(keys: tuple[str, ...]) -> str:
    """The keys of one line of the help as a person reads them: "↑↓ k j", "1…9 0",
    "q Ctrl-C" (arrows first, then the keys of one letter, then the named ones)."""
    names: list[str] = []
    for key in sorted(keys, key=_rank):
        name = KEY_NAMES.get(key, key)
        last = names[-1] if names else ""
        if key.isdigit() and last[-1:].isdigit():
            # a run of digits: 1 2 3 … 9 is "1…9"; 0 after 9 stays (the tenth card)
            first = last.split("…")[0]
            if int(key) == int(last[-1]) + 1:
                names[-1] = f"{first}…{key}"
                continue
        if name in _ARROWS and last and all(c in _ARROWS for c in last):
            names[-1] = last + name  # arrows together: "←↑↓→"
            continue
        names.append(name)
    return " ".join(names)


def page_of(page: int, pages: int) -> str:
    return _("page {page} of {pages} ").format(page=page + 1, pages=pages)


translated(__name__)
