"""Words of the help pages: the rules in short, and every key."""

from __future__ import annotations

from sarja.lang import N_, _, translated

RULES_TITLE = N_(" How to play Sarja")
KEYS_TITLE = N_(" Keys")
PAGE_KEYS = [("Tab ←→", N_("other page")), ("Esc ?", N_("close"))]

RULES = [
    N_(
        "Goal: five of your chips in a line, across, down or diagonal, make a sequence. "
        "Two sides need two sequences to win; three sides need one. The corners ★ count "
        "for every side."
    ),
    N_(
        "Your turn: pick a card and put a chip on one of its two spaces on the board; then "
        "you draw (the server draws for you, unless the table uses manual draw: then press "
        "d before the next player has played and drawn, or the draw is lost)."
    ),
    N_(
        "Jacks: J♦ and J♣ are wild: a chip on any open space. J♠ and J♥ remove an "
        "opponent's chip that is not in a sequence."
    ),
    N_(
        "A dead card has both its spaces taken: once a turn you may exchange one (x) and "
        "draw another. Pass (p) only when nothing can be played."
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

KEYS_HELP = [
    (N_("Playing"), ""),
    (N_("1 … 9, 0 / Tab"), N_("pick that card / the next playable one (Shift-Tab: back)")),
    (N_("arrows, h j k l"), N_("move the cursor; n: to the picked card's next space")),
    ("Enter, Space", N_("play the picked card at the cursor (or at its only space)")),
    ("x / p / d", N_("exchange a dead card / pass / take a waiting draw")),
    ("Esc", N_("put the card back")),
    (N_("mouse"), N_("click a card to pick it, a space to play it there")),
    (N_("Tables"), ""),
    ("Enter, s, n, r, t", N_("lobby: join, watch, new table, refresh, standings")),
    ("F", N_("lobby: suomeksi / in English (the language is remembered)")),
    ("0 … 9, Backspace", N_("new table: type the match's wins or the clock's seconds")),
    ("Enter, r, a", N_("waiting room: sit, ready / not ready, a computer there")),
    ("r", N_("after a game: a rematch, or the match's next game")),
    ("o", N_("hand an away player's seat to the computer (after 1 min)")),
    ("a", N_("a hint, if the table allows; replay: analyse, m M marks")),
    (N_("Anywhere"), ""),
    ("c", N_("chat with the table")),
    ("L", N_("leave the table (your seat is kept during a game)")),
    ("PgUp/Dn Home End", N_("scroll the log back / on / to the start / to the newest")),
    ("b", N_("a bell and the window's title on your turn: on / off")),
    ("?", N_("this help")),
    ("q, Ctrl-C", N_("quit (asks first during a game; the seat is kept)")),
]


def page_of(page: int, pages: int) -> str:
    return _("page {page} of {pages} ").format(page=page + 1, pages=pages)


translated(__name__)
