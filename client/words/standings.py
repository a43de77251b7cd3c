"""Words of the standings screen: its tables' heads, its keys, and what it says."""

from __future__ import annotations

TITLE = "Standings"
ASKING = "Asking the server for the standings…"
FORGET_QUESTION = "Forget your standing and figures at this server for good? y: yes, n: no"
HEAD = ("Player", "Games", "Won", "Lost", "Drawn", "Seq", "Removed", "Dead", "s/move", "Rating")
NO_GAMES = "No games finished yet."
COMPUTER_TAG = " (computer)"
PAIRS = "Teammates, all time"
NO_PAIRS = "No games in teams yet."


def evening(hours: int) -> str:
    return f"This evening (the last {hours} hours)"


ALL_TIME = "All time"


YOU = "You"  # in the rank column of the asker's own line
NOT_YOU = "You: no games here yet."


def pair(first: str, second: str, games: int, wins: int) -> str:
    return f"{first} & {second}: {games} games together, {wins} won"


def forgotten(games: int) -> str:
    return (
        f"The server forgot you: your standing and your figures in {games} games are gone."
        " Your next games start a new standing."
    )


def standings_keys() -> list[tuple[str, str]]:
    return [("r", "refresh"), ("f", "forget me"), ("Esc", "back to the tables"), ("q", "quit")]


def asked_keys() -> list[tuple[str, str]]:
    return [("y", "forget me"), ("n", "keep me")]
