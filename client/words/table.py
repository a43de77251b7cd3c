"""Words of the waiting room and of what happens at a table: who sat down, moved, left,
is ready or asks for a rematch (the server's notices), and what the seat keys say."""

from __future__ import annotations

from sarja.lang import N_, _, translated
from sarja.protocol.messages import Notice, TableView
from sarja.protocol.names import same_name

from ..keybar import KeyItem, Need
from ..styles import side_style
from . import common
from .bot import says_its_level
from .common import Fragment, parts
from .lobby import level_name

TAKE_A_SEAT = N_("Take a seat first: choose one and press Enter.")


def seat_taken(seat: int) -> str:
    return _("Seat {n} is taken; choose a free one.").format(n=seat + 1)


def own_seat(seat: int) -> str:
    """`a` at our own seat: a computer goes in a free one."""
    return _("Seat {n} is yours; choose a free seat for a computer.").format(n=seat + 1)


# A notice's kind -> its sentence with another's name and with ours ("You"), where the
# seat is told and where it is not.
_NOTICES = {
    "joined": (N_("{who} sat down at {where}."), N_("You sat down at {where}.")),
    "joined_nowhere": (N_("{who} sat down."), N_("You sat down.")),
    "seated": (N_("{who} moved to {where}."), N_("You moved to {where}.")),
    "seated_nowhere": (N_("{who} changed seats."), N_("You changed seats.")),
    "left": (N_("{who} left the table."), N_("You left the table.")),
    "ready": (N_("{who} is ready."), N_("You are ready.")),
    "unready": (N_("{who} is not ready."), N_("You are not ready.")),
    "rematch": (N_("{who} wants a rematch."), N_("You asked for a rematch.")),
    "takeover": (
        N_("The computer plays for {who} until they return."),
        N_("The computer plays for you until you come back or make a move."),
    ),
    "takeover_present": (
        N_("The computer plays for {who} until they make a move themselves."),
        N_("The computer plays for you until you come back or make a move."),
    ),
}


def notice_parts(
    msg: Notice, table: TableView | None, me: str = "", here: bool = False
) -> list[Fragment]:
    """A notice from the server as a line of the log ("Aino sat down at seat 2 (Green).").
    `me`: our name; `here`: the notice's seat is not away in the game (the computer
    plays there because its person's clock ran out). A move to another seat is told
    before the table that shows it, so it is ours by the name (no two at a table share
    one), not by the seat."""
    mine = msg.seat is not None and table is not None and msg.seat == table.seat
    if msg.kind == "seated" and me and same_name(msg.name, me):
        mine = True
    style = side_style(msg.seat % table.teams) if msg.seat is not None and table else ""
    who: Fragment = (style, common.YOU if mine else msg.name)
    where = ""
    if msg.seat is not None and table is not None:
        where = _("seat {n} ({side})").format(
            n=msg.seat + 1, side=common.SIDE_NAMES[msg.seat % table.teams]
        )
    kind = msg.kind
    if kind == "watching":
        return [("", _("{name} is watching.").format(name=msg.name))]
    if kind in ("joined", "seated") and not where:
        kind += "_nowhere"
    if kind == "takeover" and not mine and here:
        kind = "takeover_present"  # here, but their clock ran out: they are not away
    if kind in _NOTICES:
        theirs, ours = _NOTICES[kind]
        template = ours if mine else theirs  # already in the language (translated)
        return parts(template, who=who, where=where)
    return [("", f"{msg.name}: {kind}.")]


# ----- the waiting room -------------------------------------------------------------

SEATS_HEAD = N_(" Seats (each plays for the side shown: the seat you take is your side)")
FREE_SEAT = N_("— free —")
YOU_TAG = N_(" (you)")
WATCHING_HINT = N_(" You are watching. Choose a free seat and press Enter to play.")
GAME_ON = N_(" The game is on.")


def computer_tag(level: str, remote: bool = False, name: str = "") -> str:
    """A computer's seat: the server's, or (`remote`) a program that joined by itself;
    nothing more for a bot whose name says it all ("Medium bot")."""
    if remote and says_its_level(name, level):
        return ""
    if remote:
        return _(" (bot, {level})").format(level=level_name(level))
    return _(" (computer, {level})").format(level=level_name(level))


def bot_seat(seat: int) -> str:
    return _(
        "Seat {n} is a bot's: a program that joined by itself, not the server's computer;"
        " it leaves only by itself."
    ).format(n=seat + 1)


# What `a` does at the chosen seat of a table we made: a computer in a free seat, the
# next level for the server's computer, and after hard the seat free again.
KEY_COMPUTER = N_("computer")
KEY_HARDER = N_("harder")
KEY_FREE = N_("free the seat")


def computer_line(
    change: str, name: str, level: str, seat: int, teams: int, old: str = ""
) -> list[Fragment]:
    """A line of the log about one of the server's computers in the waiting room (no
    notice says it: the client sees it between two tables): `change` is "sat", "left",
    "level" or "renamed" (`old`: its name so far, said in a game, whose log named it so)."""
    where = _("seat {n} ({side})").format(n=seat + 1, side=common.SIDE_NAMES[seat % teams])
    if change == "renamed" and old:
        template = _("The computer called {old} so far, at {where}, is {who} now.")
        who = (side_style(seat % teams), name)
        return parts(template, who=who, where=where, old=(side_style(seat % teams), old))
    template = {
        "sat": _("{who} (computer, {level}) sat down at {where}."),
        "left": _("{who} (computer) left {where}."),
        "level": _("{who} (computer) at {where} now plays {level}."),
        "renamed": _("The computer at {where} is called {who} now."),
    }[change]
    who = (side_style(seat % teams), name)
    return parts(template, who=who, where=where, level=level_name(level))


def seat_state(away: bool, ready: bool, taken: bool, computer: bool, rematch: bool) -> str:
    if rematch:
        return _("wants a rematch")
    if away and computer:
        return _("away; the computer plays")
    if away:
        return _("away")
    return _("ready") if ready else _("not ready") if taken else ""


def starts_when(computers: bool, ours: bool = False) -> str:
    """The waiting room's last line; `ours`: the server says we made the table, and so
    takes back our ready when we seat its computers (docs/hosting.md)."""
    if computers:
        said = _(
            " When every seat is taken and everyone is ready, the game starts"
            " (computers always are)."
        )
    else:
        said = _(" When every seat is taken and everyone is ready, the game starts.")
    if ours:
        said += _(
            " Seating a computer or changing its level makes you not ready: press r when"
            " the seats are as you want."
        )
    return said


def ready_taken_back() -> str:
    """Our `a` changed a computer's seat, and the server took back our ready."""
    return _("You are not ready now: press r when the computers are as you want.")


def table_keys(computer: str | None = None, seated: bool = True) -> list[KeyItem]:
    """The waiting room's keys; `computer`: at a table we made, what `a` does at the
    chosen seat (a KEY_ word, translated), if anything: this moment's key; `seated`:
    we sit at the table (one who watches has no ready to give)."""
    ours = [KeyItem("a", computer, Need.MOMENT)] if computer else []
    ready = [KeyItem("r", _("ready"))] if seated else []
    return [KeyItem("↑↓ Enter", _("sit")), *ready, *ours,
            KeyItem("c", _("chat")), KeyItem("L", _("leave")), KeyItem("?", _("help"), Need.HELP),
            KeyItem("q", _("quit"), Need.OUT)]  # fmt: skip


translated(__name__)
