"""Words of the waiting room and of what happens at a table: who sat down, moved, left,
is ready or asks for a rematch (the server's notices), and what the seat keys say."""

from __future__ import annotations

from sarja.protocol.messages import Notice, TableView

from ..styles import side_style
from .common import SIDE_NAMES, Fragment

TAKE_A_SEAT = "Take a seat first: choose one and press Enter."


def seat_taken(seat: int) -> str:
    return f"Seat {seat + 1} is taken; choose a free one."


def notice_parts(msg: Notice, table: TableView | None) -> list[Fragment]:
    """A notice from the server as a line of the log ("Aino sat down at seat 2 (Green).")."""
    mine = msg.seat is not None and table is not None and msg.seat == table.seat
    style = side_style(msg.seat % table.teams) if msg.seat is not None and table else ""
    who: Fragment = (style, "You" if mine else msg.name)
    where = ""
    if msg.seat is not None and table is not None:
        where = f"seat {msg.seat + 1} ({SIDE_NAMES[msg.seat % table.teams]})"
    kind = msg.kind
    if kind == "joined":
        return [who, ("", f" sat down at {where}." if where else " sat down.")]
    if kind == "watching":
        return [("", f"{msg.name} is watching.")]
    if kind == "seated":
        return [who, ("", f" moved to {where}." if where else " changed seats.")]
    if kind == "left":
        return [who, ("", " left the table.")]
    if kind == "ready":
        return [who, ("", " are ready." if mine else " is ready.")]
    if kind == "unready":
        return [who, ("", " are not ready." if mine else " is not ready.")]
    if kind == "rematch":
        return [who, ("", " asked for a rematch." if mine else " wants a rematch.")]
    if kind == "takeover" and mine:
        return [("", "The computer plays for you until you come back or make a move.")]
    if kind == "takeover":
        return [("", "The computer plays for "), who, ("", " until they return.")]
    return [("", f"{msg.name}: {kind}.")]


# ----- the waiting room -------------------------------------------------------------

SEATS_HEAD = " Seats (each plays for the side shown: a seat is a team)"
FREE_SEAT = "— free —"
YOU_TAG = " (you)"
WATCHING_HINT = " You are watching. Choose a free seat and press Enter to play."
GAME_ON = " The game is on."


def computer_tag(level: str) -> str:
    return f" (computer, {level})"


def seat_state(away: bool, ready: bool, taken: bool, computer: bool, rematch: bool) -> str:
    if rematch:
        return "wants a rematch"
    if away and computer:
        return "away; the computer plays"
    return "away" if away else "ready" if ready else "not ready" if taken else ""


def starts_when(computers: bool) -> str:
    hint = " When every seat is taken and everyone is ready, the game starts"
    return hint + (" (computers always are)." if computers else ".")


def table_keys() -> list[tuple[str, str]]:
    return [("↑↓ Enter", "sit"), ("r", "ready"), ("c", "chat"), ("L", "leave"), ("?", "help"),
            ("q", "quit")]  # fmt: skip
