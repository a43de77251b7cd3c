"""Words of the lobby and the new-table form: the list of tables, the chosen table's
seats and rules, the form's fields, and what the lobby's keys say."""

from __future__ import annotations

from typing import Literal

from sarja.protocol.limits import MAX_TABLE_NAME, MAX_TURN_CLOCK, MIN_TURN_CLOCK

NO_TABLES = "There are no tables yet: press n to create one."
NAME_THE_TABLE = "Give the table a name."
YOUR_TABLE = "your table"  # where we were, when the server does not say
NOT_SENT = "Not sent, as you are at no table now: "


def no_longer_has_you(where: str) -> str:
    return f"The server no longer has you at {where}."


def left_table(name: str, seat_kept: bool) -> str:
    text = f"You left table {name}."
    if seat_kept:
        text += " Your seat is kept: join the table again to go on."
    return text


def no_longer_at(name: str) -> str:
    return f"You are no longer at table {name}."


def default_table_name(player: str) -> str:
    """The new-table form's name at first: the player's table."""
    return f"{player}'s table"[:MAX_TABLE_NAME]


# ----- the list of tables, and the chosen table -------------------------------------

HEAD = ("Table", "Players", "Seats", "Rules")
NO_TABLES_YET = "No tables yet. Press n to create one."
RULES = "Rules: "
SEATS = "Seats: "
FREE = "free"
MORE = "…"  # the rules that did not fit


def seats_state(started: bool, free: int, players: int) -> str:
    if started:
        return "playing"
    if free:
        return f"{free} free of {players}"
    return "full"


def rules_items(
    hand: int, manual: bool, takeover: str | Literal[False], clock: int = 0
) -> list[str]:
    """A table's rules, most important first (the list leaves off from the end)."""
    items = [f"hand {hand}"]
    if clock:
        items.append(f"{clock_text(clock)} turn clock")
    if manual:
        items.append("manual draw")
    if takeover:
        items.append(f"{takeover} computer stands in")
    return items


def watching(spectators: int) -> str:
    return f"{spectators} watching"


def detail_hints(started: bool, mine: bool) -> tuple[str, str]:
    """What Enter does at the chosen table: in full, and when there is no room."""
    if started and mine:
        doing = "Enter takes you back to your seat"
    elif started:
        doing = "Enter watches the game"
    else:
        doing = "Enter takes a free seat"
    return (f". {doing}, s watches.", ".")


def seat_about(side: str, level: str | None) -> str:
    """ "Blue, hard computer": a seat's side, and who plays it if a computer does."""
    return side + (f", {level} computer" if level else "")


# ----- the new-table form ----------------------------------------------------------------

NEW_TABLE = " New table"
FORM_LABELS = {
    "name": "Name",
    "players": "Players",
    "teams": "Sides",
    "hand_size": "Hand size",
    "manual_draw": "Manual draw (house rule)",
    "computers": "Computer players",
    "level": "Computer level",
    "computer_takeover": "Computer plays absent seats",
    "hints": "Hints from the coach (a)",
    "match_to": "Match",
    "turn_clock": "Turn clock",
}
CLOCK_RANGE = (
    f"A turn clock is {MIN_TURN_CLOCK} to {MAX_TURN_CLOCK} seconds (or off): type another number."
)


def form_clock(seconds: int) -> str:
    """The turn clock's line: the arrows choose, digits type seconds."""
    if not seconds:
        return "off  (or type seconds)"
    return f"{clock_text(seconds)}  (or type seconds)"


def clock_text(seconds: int) -> str:
    """ "30 s", "2 min", "1 min 30 s": a turn clock."""
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min" + (f" {rest} s" if rest else "")


def form_hand(hand_size: int | None, usual: int | None, players: int) -> str:
    if hand_size is None:
        return f"{usual} (the usual for {players} players)"
    return f"{hand_size}" + (f" (usual: {usual})" if usual is not None else "")


def only_way(teams: int, players: int) -> str:
    return f"{teams} (the only way for {players})"


def on_off(on: bool) -> str:
    return "on" if on else "off"


def computer_seats(computers: int, players: int) -> str:
    """Which seats the form's computers take: the last ones."""
    if computers == 0:
        return "every seat for a person"
    first = players - computers + 1
    return f"seat {first}" if computers == 1 else f"seats {first}–{players}"


def lobby_keys(creating: bool) -> list[tuple[str, str]]:
    if creating:
        return [("↑↓", "field"), ("←→", "change"), ("Enter", "create"), ("Esc", "cancel")]
    return [("↑↓", "choose"), ("Enter", "join"), ("s", "watch"), ("n", "new table"),
            ("t", "standings"), ("r", "refresh"), ("?", "help"), ("q", "quit")]  # fmt: skip
