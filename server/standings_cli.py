"""`sarja-server standings` and `sarja-server forget`: the standings on the host's
terminal, read from the journal in the data directory, and removing a person from them.

`standings` only reads (like `export`), so it runs beside a running server. `forget`
writes, so it takes the data directory's lock: with the server running, a person
forgets themselves from their client's standings screen instead.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from pathlib import Path

from sarja.lang import _, ngettext, pgettext
from sarja.protocol.limits import MAX_EVENING_HOURS

from .datalock import DataDirInUse, DataDirLock
from .host_journal import add_data_dir, journal_to_read, parse_with_journal
from .journal import FILE_NAME, Journal, JournalError
from .records import default_data_dir
from .standings import forget_rows
from .standings_read import EVENING_HOURS, Line, StandingsBook, games_of

ID_SHOWN = 12  # hex digits of a person's key hash the host sees, to name them in `forget`

NAME_WIDTH = 24  # at most: the figures take what they need of WIDTH first
WIDTH = 80  # a host's terminal


def _heads() -> tuple[str, list[str]]:
    """The columns' heads in the language of the moment: the name's and the figures'
    (games to rating)."""
    figures = [pgettext("sarja-server standings", "games"),
               pgettext("sarja-server standings", "won"),
               pgettext("sarja-server standings", "lost"),
               pgettext("sarja-server standings", "drawn"),
               pgettext("sarja-server standings", "seq"),
               pgettext("sarja-server standings", "removed"),
               pgettext("sarja-server standings", "dead"),
               pgettext("sarja-server standings", "s/move"),
               pgettext("sarja-server standings", "rating")]  # fmt: skip
    return _("name"), figures


def format_lines(lines: list[Line]) -> list[str]:
    """The standings as a table, one person a line, at most WIDTH columns: each
    figure's column as wide as its head or its widest value, the name's what is left.
    The ids `forget` takes are listed apart (`id_lines`)."""
    if not lines:
        return ["    " + _("(no games)")]
    name, figures = _heads()
    rows = [_figures(line) for line in lines]
    widths = [max(len(v) for v in column) for column in zip(figures, *rows, strict=True)]
    name_w = min(NAME_WIDTH, WIDTH - 6 - sum(w + 1 for w in widths))

    def columns(values: list[str]) -> str:
        return " ".join(f"{v:>{w}}" for v, w in zip(values, widths, strict=True))

    out = [f"{'':>3}  {name:<{name_w}} {columns(figures)}"]
    for i, (line, values) in enumerate(zip(lines, rows, strict=True), start=1):
        out.append(f"{i:>3}  {_cut(shown_name(line), name_w)} {columns(values)}")
    return out


def _figures(line: Line) -> list[str]:
    s = line.standing
    counts = (s.games, s.wins, s.losses, s.draws, s.sequences, s.removed, s.exchanged)
    return [*map(str, counts), f"{s.move_ms / 1000:.1f}", f"{s.rating / 10:.1f}"]


def shown_name(line: Line) -> str:
    s = line.standing
    return s.name if s.computer is None else computer_name(s.computer)


def _cut(name: str, width: int) -> str:
    return f"{name:<{width}}" if len(name) <= width else name[: width - 1] + "…"


def id_lines(tables: list[list[Line]]) -> list[str]:
    """Each person of the tables once, with the id `sarja-server forget` takes."""
    seen: dict[str, str] = {}
    for lines in tables:
        for line in lines:
            seen.setdefault(line.person, shown_name(line))
    if not seen:
        return []
    width = min(NAME_WIDTH, max(len(n) for n in seen.values()))
    return [_("Ids, for sarja-server forget:")] + [
        f"    {_cut(name, width)}  {person_id(person)}" for person, name in seen.items()
    ]


def legend() -> list[str]:
    """What the short heads mean."""
    said = _(
        "seq: sequences made; removed: chips removed with a one-eyed jack; dead: dead"
        " cards exchanged; s/move: seconds a move; rating: grows with wins, most against"
        " strong sides"
    )
    return textwrap.wrap(said, WIDTH)


def computer_name(level: str) -> str:
    """A computer level's line in the language of the moment (the journal keeps the
    English "Computer (hard)"), as the client's standings screen names it."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return _("Computer ({level})").format(level=words.get(level, level))


def person_id(person: str) -> str:
    return person if person.startswith("computer:") else person[:ID_SHOWN]


def standings_text(journal: Journal, now: float, hours: int, n: int) -> str:
    # The same figures, kept the same way, as the server's `standings` answers with.
    book = journal.read(lambda db: StandingsBook.load(db, now, hours))
    evening, ever, teammates = book.top(now, True, n), book.top(now, False, n), book.pairs(n)
    head = ngettext(
        "The evening (games finished in the last {n} hour)",
        "The evening (games finished in the last {n} hours)",
        hours,
    ).format(n=hours)
    out = [head, *format_lines(evening)]
    out += ["", _("All time"), *format_lines(ever)]
    if evening or ever:
        out += ["", *legend(), "", *id_lines([evening, ever])]
    out += ["", _("Teammates (all time; people only: computers and bots not counted)")]
    for p in teammates:
        line = ngettext(
            "{first} & {second}: {n} game, {wins} won",
            "{first} & {second}: {n} games, {wins} won",
            p.games,
        ).format(first=p.first, second=p.second, n=p.games, wins=p.wins)
        out.append("    " + line)
    if not teammates:
        out.append("    " + _("(no games in teams)"))
    return "\n".join(out) + "\n"


def standings_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="sarja-server standings",
        description=_(
            "Print the standings kept in the server's journal: the evening's and all"
            " time's, and the teammates who won most together."
        ),
    )
    add_data_dir(parser)
    parser.add_argument(
        "--hours", type=int, default=EVENING_HOURS,
        help=_("the evening: games finished in the last N hours (default: %(default)s)"),
    )  # fmt: skip
    parser.add_argument(
        "--top", type=int, default=20, help=_("lines in each table (default: %(default)s)")
    )
    args = parser.parse_args(argv)
    if not 1 <= args.hours <= MAX_EVENING_HOURS or args.top < 1:
        parser.error(
            _("--hours must be from 1 to {most}, and --top at least 1").format(
                most=MAX_EVENING_HOURS
            )
        )
    data_dir = args.data_dir or default_data_dir()
    path = data_dir / FILE_NAME
    if not path.exists():  # a server that has not run here yet, or kept nothing yet
        print(_("No games have been played here yet ({dir}).").format(dir=data_dir))
        return 0
    try:
        journal = journal_to_read(data_dir, path)
        try:
            sys.stdout.write(standings_text(journal, time.time(), args.hours, args.top))
        finally:
            journal.close()
    except JournalError as err:
        print(f"sarja-server standings: {err}", file=sys.stderr)
        return 1
    return 0


def forget_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="sarja-server forget",
        description=_(
            "Remove a person's standing, rating and figures from the journal. The server"
            " must be stopped (with it running, the person forgets themselves from their"
            " client's standings screen)."
        ),
    )
    parser.add_argument("id", help=_("the person's id, as `sarja-server standings` shows it"))
    add_data_dir(parser)
    found = parse_with_journal(parser, argv)
    if found is None:
        return 1
    args, data_dir, path = found
    try:
        lock = DataDirLock.take(data_dir)
    except DataDirInUse:
        said = _(
            "the server is running on this data directory; stop it first, or let the"
            " person forget themselves from their client's standings screen"
        )
        print(f"sarja-server forget: {said}", file=sys.stderr)
        return 1
    try:
        return _forget(path, args.id)
    finally:
        lock.release()


def _forget(path: Path, wanted: str) -> int:
    try:
        journal = Journal(path)
        try:
            found = journal.read(
                lambda db: [
                    str(p)
                    for (p,) in db.execute(
                        "SELECT person FROM people WHERE substr(person, 1, ?) = ?",
                        (max(len(wanted), 1), wanted),
                    )
                ]
            )
            if len(wanted) < ID_SHOWN and not wanted.startswith("computer:"):
                said = _(
                    "give the whole id ({n} characters), as `sarja-server standings` shows it"
                ).format(n=ID_SHOWN)
                print(f"sarja-server forget: {said}", file=sys.stderr)
                return 1
            if len(found) != 1:
                if found:
                    said = _("more than one person has the id {id!r}").format(id=wanted)
                else:
                    said = _("no one has the id {id!r}").format(id=wanted)
                print(f"sarja-server forget: {said}", file=sys.stderr)
                return 1
            person = found[0]
            games = journal.read(lambda db: games_of(db, person))
            journal.write(forget_rows(person))
        finally:
            journal.close()  # commits what was written
    except JournalError as err:
        print(f"sarja-server forget: {err}", file=sys.stderr)
        return 1
    said = ngettext(
        "Forgot {id}: their standing and figures in {n} game.",
        "Forgot {id}: their standing and figures in {n} games.",
        games,
    )
    print(said.format(id=person_id(person), n=games))
    return 0
