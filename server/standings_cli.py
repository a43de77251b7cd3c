"""`sarja-server standings` and `sarja-server forget`: the standings on the host's
terminal, read from the journal in the data directory, and removing a person from them.

`standings` only reads (like `export`), so it runs beside a running server. `forget`
writes, so it takes the data directory's lock: with the server running, a person
forgets themselves from their client's standings screen instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sarja.protocol.limits import MAX_EVENING_HOURS

from .datalock import DataDirInUse, DataDirLock
from .host_journal import add_data_dir, find_journal, parse_with_journal
from .journal import Journal, JournalError
from .standings import forget_rows
from .standings_read import EVENING_HOURS, Line, games_of, pairs, top

ID_SHOWN = 12  # hex digits of a person's key hash the host sees, to name them in `forget`

_HEAD = f"{'':>3}  {'name':<24} {'games':>5} {'won':>4} {'lost':>4} {'drawn':>5} {'seq':>4}"
_HEAD += f" {'removed':>7} {'dead':>4} {'s/move':>6} {'rating':>6}  id"


def format_lines(lines: list[Line]) -> list[str]:
    """The standings as a table, one person a line, with the id `forget` takes."""
    if not lines:
        return ["    (no games)"]
    out = [_HEAD]
    for i, line in enumerate(lines, start=1):
        s = line.standing
        out.append(  # a computer's name says so: "Computer (hard)"
            f"{i:>3}  {s.name:<24} {s.games:>5} {s.wins:>4} {s.losses:>4} {s.draws:>5}"
            f" {s.sequences:>4} {s.removed:>7} {s.exchanged:>4} {s.move_ms / 1000:>6.1f}"
            f" {s.rating / 10:>6.1f}  {person_id(line.person)}"
        )
    return out


def person_id(person: str) -> str:
    return person if person.startswith("computer:") else person[:ID_SHOWN]


def standings_text(journal: Journal, now: float, hours: int, n: int) -> str:
    evening = journal.read(lambda db: top(db, now - hours * 3600, n))
    ever = journal.read(lambda db: top(db, None, n))
    teammates = journal.read(lambda db: pairs(db, n))
    out = [f"The evening (games finished in the last {hours} hours)", *format_lines(evening)]
    out += ["", "All time", *format_lines(ever), "", "Teammates (all time)"]
    out += [f"    {p.first} & {p.second}: {p.games} games, {p.wins} won" for p in teammates]
    if not teammates:
        out.append("    (no games in teams)")
    return "\n".join(out) + "\n"


def standings_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="sarja-server standings",
        description="Print the standings kept in the server's journal: the evening's"
        " and all time's, and the teammates who won most together.",
    )
    add_data_dir(parser)
    parser.add_argument(
        "--hours", type=int, default=EVENING_HOURS,
        help="the evening: games finished in the last N hours (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument("--top", type=int, default=20, help="lines in each table (default: 20)")
    args = parser.parse_args(argv)
    if not 1 <= args.hours <= MAX_EVENING_HOURS or args.top < 1:
        parser.error(f"--hours must be from 1 to {MAX_EVENING_HOURS}, and --top at least 1")
    found = find_journal("sarja-server standings", args.data_dir)
    if found is None:
        return 1
    path = found[1]
    try:
        journal = Journal(path)
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
        description="Remove a person's standing, rating and figures from the journal."
        " The server must be stopped (with it running, the person forgets themselves"
        " from their client's standings screen).",
    )
    parser.add_argument("id", help="the person's id, as `sarja-server standings` shows it")
    add_data_dir(parser)
    found = parse_with_journal(parser, argv)
    if found is None:
        return 1
    args, data_dir, path = found
    try:
        lock = DataDirLock.take(data_dir)
    except DataDirInUse:
        print(
            "sarja-server forget: the server is running on this data directory; stop it"
            " first, or let the person forget themselves from their client's standings"
            " screen",
            file=sys.stderr,
        )
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
                print(
                    f"sarja-server forget: give the whole id ({ID_SHOWN} characters), as"
                    " `sarja-server standings` shows it",
                    file=sys.stderr,
                )
                return 1
            if len(found) != 1:
                what = "no one has" if not found else "more than one person has"
                print(f"sarja-server forget: {what} the id {wanted!r}", file=sys.stderr)
                return 1
            person = found[0]
            games = journal.read(lambda db: games_of(db, person))
            journal.write(forget_rows(person))
        finally:
            journal.close()  # commits what was written
    except JournalError as err:
        print(f"sarja-server forget: {err}", file=sys.stderr)
        return 1
    print(f"Forgot {person_id(person)}: their standing and figures in {games} games.")
    return 0
