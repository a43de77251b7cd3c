"""Words of sarja-bot, the computer player run as a process of its own: its `--help`,
its complaints about the command line, and the lines it prints while it plays (the
lines about the servers it found on the LAN are the finder's, find.py; the words it
shares with sarja-client are connect.py's)."""

from __future__ import annotations

from sarja.lang import N_, _, in_every_language, ngettext, translated

DESCRIPTION = N_("A computer player for a sarja-server, speaking the public protocol.")
EPILOG = N_(
    "It joins the named table (creating it if there is none) or the first free seat,"
    " readies, plays, asks for a rematch while it has games left, then leaves. At a table"
    " that plays a match it plays each match out, and --games counts matches."
)
HELP = {
    "address": N_("the server, as HOST:PORT (default: the one server found on this LAN)"),
    "server-name": N_("without an address: join the server of this name found on the LAN"),
    "level": N_("how well it plays (default: medium)"),
    "table": N_("the table to sit at, its name in any case (made if missing)"),
    "name": N_("its name (default: its level's, such as '{example}')"),
    "games": N_("games to play before leaving, matches at a match table (default 1)"),
    "players": N_("seats, if it creates the table (default 2)"),
    "teams": N_("sides, if it creates the table (default: one per player up to 3, else 2)"),
    "think-time": N_("hard's thinking per move, in seconds (default: {seconds:g})"),
    "seed": N_("fix its choices (for testing)"),
    "lang": N_(
        "the language of its lines: fi (suomi) or en (English) (default: the one"
        " sarja-client speaks, else the environment's: LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
    ),
}
GAMES_AT_LEAST = N_("--games must be at least 1")
TABLE_UNREADABLE = N_(
    "--table must be 1 to {most} printable characters, with a letter, digit or sign people can see"
)
NO_MOVE = N_("no move can be chosen from the game it describes")
UNREACHABLE = N_("cannot reach {address}: {why}")

# The server ended the session for good (`bye` `replaced`); `message` is its sentence,
# in the bot's language.
SERVER_BYE = N_("the server closed the connection: {message}")
UNUSABLE = N_("stopped: the server sent something this bot cannot use ({why})")

# After a dropped connection, or a server restart: it connects again by itself and
# takes its seat back. `why` is the link's few words ("connection refused"), `message`
# the server's own `bye` in the bot's language.
DROPPED = N_("the connection dropped ({why}); connecting again")
SERVER_LEFT = N_("the server closed the connection: {message} Connecting again.")
CONNECTED_AGAIN = N_("connected again")
SEAT_GONE = N_("the server no longer keeps its seat; it looks for another")


def gave_up(tries: int, address: str, why: str) -> str:
    """Its last line when the server is not back after `tries` tries."""
    return ngettext(
        "gave up after {n} try to connect to {address} again ({why})",
        "gave up after {n} tries to connect to {address} again ({why})",
        tries,
    ).format(n=tries, address=address, why=why)


# No seat for it yet: said once, until it sits down.
WAITING_AT = N_("waiting for a free seat at {table}")
WAITING = N_("waiting for a table with a free seat")

# A refusal for good: `sentence` is the refusal's, in the bot's language.
REFUSED = N_("the server refused: {sentence}")

# A refusal the bot gets over (it chooses again).
TOLD = N_("the server said: {sentence}")


DEFAULT_NAMES = {"easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot"}  # English


def default_name(level: str) -> str:
    """Its name when none is given: its level's, in its language."""
    return {"easy": _("Easy bot"), "medium": _("Medium bot"), "hard": _("Hard bot")}[level]


def says_its_level(name: str, level: str) -> bool:
    """A bot's name that already says it is a bot of that level (its name when none is
    given, in any language: a bot started in Finnish is read by English players too)."""
    return level in DEFAULT_NAMES and name in in_every_language(DEFAULT_NAMES[level])


def game_result(number: int, outcome: str) -> str:
    """One game's end: `outcome` is "won", "lost" or "draw"."""
    said = {"won": _("won"), "lost": _("lost"), "draw": _("drawn")}[outcome]
    return _("game {number}: {outcome}").format(number=number, outcome=said)


SUMMARY = N_("played {n}: won {won}, lost {lost}, drawn {drawn}")


translated(__name__)
