"""Words of the help pages: the rules in short, and every key."""

from __future__ import annotations

RULES_TITLE = " How to play Sarja"
KEYS_TITLE = " Keys"
PAGE_KEYS = [("Tab ←→", "other page"), ("Esc ?", "close")]

RULES = [
    "Goal: five of your chips in a line, across, down or diagonal, make a sequence. "
    "Two sides need two sequences to win; three sides need one. The corners ★ count "
    "for every side.",
    "Your turn: pick a card and put a chip on one of its two spaces on the board; then "
    "you draw (the server draws for you, unless the table uses manual draw: then press "
    "d before the next player has played and drawn, or the draw is lost).",
    "Jacks: J♦ and J♣ are wild: a chip on any open space. J♠ and J♥ remove an "
    "opponent's chip that is not in a sequence.",
    "A dead card has both its spaces taken: once a turn you may exchange one (x) and "
    "draw another. Pass (p) only when nothing can be played.",
    "A sequence is locked: its chips stay. A side's second sequence may share one "
    "space with its first. Seats alternate colours; teammates share a colour, not a hand.",
    "On the board: (B) a Blue chip, (G) Green, (R) Red; [B] locked in a sequence; "
    "»\u00a0« the picked card's spaces; ▶\u00a0◀ the cursor; +\u00a0+ the last move; "
    "*\u00a0* the winning sequences; ~\u00a0~ the coach's move.",
]

KEYS_HELP = [
    ("Playing", ""),
    ("1 … 9, 0 / Tab", "pick that card / the next playable one (Shift-Tab: back)"),
    ("arrows, h j k l", "move the cursor; n: to the picked card's next space"),
    ("Enter, Space", "play the picked card at the cursor (or at its only space)"),
    ("x / p / d", "exchange a dead card / pass / take a waiting draw"),
    ("Esc", "put the card back"),
    ("mouse", "click a card to pick it, a space to play it there"),
    ("Tables", ""),
    ("Enter, s, n, r, t", "lobby: join, watch, new table, refresh, standings"),
    ("0 … 9, Backspace", "new table: type the turn clock's seconds"),
    ("Enter, r", "waiting room: sit in the chosen seat, ready / not ready"),
    ("r", "after a game: a rematch; in a match: ready for the next game"),
    ("o", "hand an away player's seat to the computer (after 1 min)"),
    ("a", "a hint (practice); replay: analyse, m M to its marks"),
    ("Anywhere", ""),
    ("c", "chat with the table"),
    ("L", "leave the table (your seat is kept during a game)"),
    ("PgUp/Dn Home End", "scroll the log back / on / to the start / to the newest"),
    ("b", "a bell and the window's title on your turn: on / off"),
    ("?", "this help"),
    ("q, Ctrl-C", "quit (asks first during a game; the seat is kept)"),
]


def page_of(page: int, pages: int) -> str:
    return f"page {page + 1} of {pages} "
