"""Words of the lobby and the new-table form: the list of tables, the chosen table's
seats and rules, the form's fields, and what the lobby's keys say."""

from __future__ import annotations

from typing import Literal

from sarja.lang import N_, _, ngettext, translated
from sarja.protocol.limits import MAX_TABLE_NAME, MAX_TURN_CLOCK, MIN_TURN_CLOCK

from ..keybar import KeyItem, Need

NO_TABLES = N_("There are no tables yet: press n to create one.")
NAME_THE_TABLE = N_("Give the table a name.")
TABLE_NAME_UNSEEN = N_("A table's name needs a letter, digit or sign that others can see.")
YOUR_TABLE = N_("your table")  # where we were, when the server does not say
NOT_SENT = N_("Not sent, as you are at no table now: ")
PRACTICE = N_("Practice")  # the name of a --practice game's server and table
LANGUAGE_KEY = "F"  # the lobby's key that switches between Finnish and English
IN_ENGLISH = N_("In English now (F: suomeksi).")  # said in the language switched to
NO_LONGER_HAS_YOU = N_("The server no longer has you at {where}.")


def left_table(name: str, seat_kept: bool) -> str:
    text = _("You left table {name}.").format(name=name)
    if seat_kept:
        text += " " + _("Your seat is kept: join the table again to go on.")
    return text


NO_LONGER_AT = N_("You are no longer at table {name}.")


def default_table_name(player: str) -> str:
    """The new-table form's name at first: the player's table."""
    return _("{player}'s table").format(player=player)[:MAX_TABLE_NAME]


# ----- the list of tables, and the chosen table -------------------------------------

HEAD = (N_("Table"), N_("Players"), N_("Seats"), N_("Rules"))
NO_TABLES_YET = N_("No tables yet. Press n to create one.")
RULES = N_("Rules: ")
SEATS = N_("Seats: ")
FREE = N_("free")
MORE = "…"  # the rules that did not fit


def seats_state(started: bool, free: int, players: int) -> str:
    if started:
        return _("playing")
    if free:
        return _("{free} free of {players}").format(free=free, players=players)
    return _("full")


def rules_items(
    hand: int, manual: bool, takeover: str | Literal[False], clock: int = 0, hints: bool = False
) -> list[str]:
    """A table's rules, most important first (the list leaves off from the end)."""
    items = [_("hand {hand}").format(hand=hand)]
    if clock:
        items.append(_("{clock} turn clock").format(clock=clock_text(clock)))
    if manual:
        items.append(_("manual draw"))
    if hints:
        items.append(_("hints on"))
    if takeover:
        items.append(_("{level} computer stands in").format(level=level_name(takeover)))
    return items


def level_name(level: str) -> str:
    """A computer level (the wire's "easy", "medium", "hard") in words."""
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}.get(level, level)


def watching(spectators: int) -> str:
    return ngettext("{n} watching", "{n} watching", spectators).format(n=spectators)


def detail_hints(started: bool, mine: bool, taken: str = "") -> tuple[str, ...]:
    """What Enter does at the chosen table: in full, then shorter while there is no
    room. `taken`: the name of someone there called as we are (the server refuses us),
    as they spell it."""
    if taken:  # never left out (no "."): the lobby gives it a line of its own instead
        return (
            _(". Someone here is already called {name}: to play or watch, quit and connect"
              " again under another name.").format(name=taken),
            _(". The name {name} is taken here.").format(name=taken),
        )  # fmt: skip
    if started and mine:
        doing = _("Enter takes you back to your seat")
    elif started:
        return (_(". Enter or s watches the game."), ".")  # both keys do the same there
    else:
        doing = _("Enter takes a free seat")
    return (_(". {doing}, s watches.").format(doing=doing), ".")


def name_taken_alone(name: str) -> str:
    """The name taken, on a line of its own under a table's seats, where they leave no
    room for it after the rules."""
    return _("The name {name} is taken here.").format(name=name)


def name_taken_here(name: str, table: str) -> str:
    """Enter or s at a table where someone has our name (`name`, as they spell it): what
    the server would say, and what to do."""
    return _(
        "Someone at table {table} is already called {name}. To join it, quit (q) and"
        " connect again under another name."
    ).format(name=name, table=table)


def seat_about(side: str, level: str | None, brief: bool = False) -> str:
    """ "Blue, hard computer": a seat's side, and who plays it if a computer does
    (`brief`: "Blue, computer")."""
    if not level:
        return side
    if brief:
        return _("{side}, computer").format(side=side)
    return _("{side}, {level} computer").format(side=side, level=level_name(level))


# ----- the new-table form ----------------------------------------------------------------

NEW_TABLE = N_(" New table")
FORM_LABELS = {
    "name": N_("Name"),
    "players": N_("Players"),
    "teams": N_("Sides"),
    "hand_size": N_("Hand size"),
    "manual_draw": N_("Manual draw (house rule)"),
    "computers": N_("Computer players"),
    "level": N_("Computer level"),
    "computer_takeover": N_("Computer plays absent seats"),
    "hints": N_("Hints from the coach (a)"),
    "match_to": N_("Match"),
    "turn_clock": N_("Turn clock"),
}


def clock_range() -> str:
    return _("A turn clock is {least} to {most} seconds (or off): type another number.").format(
        least=MIN_TURN_CLOCK, most=MAX_TURN_CLOCK
    )


def form_clock(seconds: int) -> str:
    """The turn clock's line: the arrows choose, digits type seconds."""
    if not seconds:
        return _("off  (or type seconds)")
    return _("{clock}  (or type seconds)").format(clock=clock_text(seconds))


def clock_text(seconds: int) -> str:
    """ "30 s", "2 min", "1 min 30 s": a turn clock."""
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return _("{s} s").format(s=rest)
    if not rest:
        return _("{min} min").format(min=minutes)
    return _("{min} min {s} s").format(min=minutes, s=rest)


def form_hand(hand_size: int | None, usual: int | None, players: int) -> str:
    if hand_size is None:
        return _("{usual} (the usual for {players} players)").format(usual=usual, players=players)
    if usual is None:
        return f"{hand_size}"
    return _("{hand} (usual: {usual})").format(hand=hand_size, usual=usual)


ONLY_WAY = N_("{teams} (the only way for {players})")


def on_off(on: bool) -> str:
    return _("on") if on else _("off")


def computer_seats(computers: int, players: int) -> str:
    """Which seats the form's computers take: the last ones."""
    if computers == 0:
        return _("every seat for a person")
    first = players - computers + 1
    if computers == 1:
        return _("seat {first}").format(first=first)
    return _("seats {first}–{last}").format(first=first, last=players)


def lobby_keys(creating: bool, naming: bool = False) -> list[KeyItem]:
    """The lobby's keys, or the new-table form's (`naming`: on its name field, where ?
    is a letter of the name and F1 opens the help)."""
    if creating:
        return [KeyItem("↑↓", _("field")), KeyItem("←→", _("change")),
                KeyItem("Enter", _("create")),
                KeyItem("F1" if naming else "?", _("help"), Need.HELP),
                KeyItem("Esc", _("cancel"), Need.OUT)]  # fmt: skip
    # F before t: the way back to one's language stays in view when the words are long
    # ("suomi", not "suomeksi": "t standings" fits beside it at 80 columns)
    return [KeyItem("↑↓", _("choose")), KeyItem("Enter", _("join")), KeyItem("s", _("watch")),
            KeyItem("n", _("new table")), KeyItem(LANGUAGE_KEY, _("suomi")),
            KeyItem("t", _("standings")), KeyItem("r", _("refresh")),
            KeyItem("?", _("help"), Need.HELP), KeyItem("q", _("quit"), Need.OUT)]  # fmt: skip


translated(__name__)
