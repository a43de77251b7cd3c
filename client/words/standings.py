"""Words of the standings screen: its tables' heads, its keys, and what it says."""

from __future__ import annotations

from sarja.lang import N_, _, ngettext, pgettext, translated

from ..keybar import KeyItem, Need
from .lobby import level_name

TITLE = N_("Standings")
ASKING = N_("Asking the server for the standings…")
FORGET_QUESTION = N_("Forget your standing and figures at this server for good? y: yes, n: no")
# The heads of the columns, whole words or the short forms the legend explains; a
# column is as wide as its head (render_standings.py), the player's takes what is left.
HEAD = (
    N_("Player"),
    N_("Games"),
    N_("Won"),
    N_("Lost"),
    N_("Drawn"),
    N_("Seq"),
    N_("Removed"),
    N_("Dead"),
    N_("s/move"),
    N_("Rating"),
)
# What the short heads mean, under the tables.
LEGEND = N_(
    "Seq: sequences made · Removed: chips removed with a one-eyed jack · Dead: dead cards"
    " exchanged · s/move: seconds a move · Rating: grows as you win, most against strong sides"
)
NO_GAMES = N_("No games finished yet.")
PAIRS = N_("Teammates, all time (people only: computers and bots not counted)")
NO_PAIRS = N_("No two people have played on one side yet.")
ALL_TIME = N_("All time")
YOU = N_("You")  # in the rank column of the asker's own line
NOT_YOU = N_("You: no games here yet.")


def computer(level: str) -> str:
    """A computer's line, by its level: the server names it in English."""
    return _("Computer ({level})").format(level=level_name(level))


def evening(hours: int) -> str:
    return ngettext(
        "This evening (the last {n} hour)", "This evening (the last {n} hours)", hours
    ).format(n=hours)


def pair(first: str, second: str, games: int, wins: int) -> str:
    return ngettext(
        "{first} & {second}: {n} game together, {wins} won",
        "{first} & {second}: {n} games together, {wins} won",
        games,
    ).format(first=first, second=second, n=games, wins=wins)


def forgotten(games: int) -> str:
    return ngettext(
        "The server forgot you: your standing and your figures in {n} game are gone."
        " Your next games start a new standing.",
        "The server forgot you: your standing and your figures in {n} games are gone."
        " Your next games start a new standing.",
        games,
    ).format(n=games)


def standings_keys() -> list[KeyItem]:
    return [KeyItem("r", _("refresh")), KeyItem("f", _("forget me")),
            KeyItem("Esc", _("back to the tables")), KeyItem("?", _("help"), Need.HELP),
            KeyItem("q", _("quit"), Need.OUT)]  # fmt: skip


def asked_keys() -> list[KeyItem]:
    """The question's answers: n, keeping all, is the way out."""
    return [KeyItem(pgettext("the key that answers yes", "y"), _("forget me")),
            KeyItem(pgettext("the key that answers no", "n"), _("keep me"), Need.OUT)]  # fmt: skip


translated(__name__)
