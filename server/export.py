"""`sarja-server export`: a game the server keeps, as a game record.

A game the journal still holds (in progress, or the last one played at an open table)
is written from the journal; a finished game whose moves the journal let go once its
record was written is the record file itself, while the records folder keeps it.
A record shows every hand and the draw pile, so a game still being played is written
only when the host asks for it by name (`--reveal-unfinished`, to look into a problem),
and then with a warning: no one at that table may see it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sarja.lang import _

from .engine import record_json
from .host_journal import add_data_dir, journal_to_read, parse_with_journal
from .journal import JournalError, Result, replay_game


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="sarja-server export",
        description=_(
            "Write a finished game the server keeps as a JSON game record"
            " (docs/records.md). With no table, list the games kept."
        ),
    )
    parser.add_argument("table", nargs="?", help=_("the table's id, e.g. t3"))
    parser.add_argument("game", nargs="?", type=int, help=_("the game's number (default: latest)"))
    add_data_dir(parser)
    parser.add_argument("-o", "--output", type=Path, help=_("write here instead of to stdout"))
    parser.add_argument(
        "--reveal-unfinished", action="store_true",
        help=_("also write a game still being played: its record shows every hand and the"
               " draw pile, which no one at that table may see"),
    )  # fmt: skip
    found = parse_with_journal(parser, argv)
    if found is None:
        return 1
    args, data_dir, path = found
    try:
        journal = journal_to_read(data_dir, path)
        try:
            held = journal.games()
            kept = {(table_id, number) for table_id, number, _, _ in held}
            archived = [r for r in journal.results() if (r.table_id, r.game) not in kept]
            if args.table is None:
                for r in archived:
                    where = f"records/{r.record}" if r.record else _("no record written")
                    state = _("finished ({where})").format(where=where)
                    print(f"{r.table_id} {r.game}  {r.table_name!r}  {state}")
                for table_id, number, name, finished in held:
                    state = _("finished") if finished else _("in progress")
                    print(f"{table_id} {number}  {name!r}  {state}")
                return 0
            table = journal.table(args.table, args.game)
            over = {(t, n) for t, n, _, done in journal.games() if done}
        finally:
            journal.close()
    except JournalError as err:
        print(f"sarja-server export: {err}", file=sys.stderr)
        return 1
    if table is None or table.game is None:
        ours = [r for r in archived if r.table_id == args.table]
        ours = [r for r in ours if args.game in (None, r.game)][-1:]
        if not ours:
            said = _("no such game in {path}").format(path=path)
            print(f"sarja-server export: {said}", file=sys.stderr)
            return 1
        text = _from_record(data_dir, ours[0])
        if text is None:
            return 1
    else:
        if (table.id, table.game.number) not in over:
            # The players' hands and the draw pile are secret while the game is on.
            game = {"table": table.id, "game": table.game.number}
            if not args.reveal_unfinished:
                said = _(
                    "{table} game {game} is still being played, and its record would show"
                    " every hand and the draw pile; export it once it is over, or add"
                    " --reveal-unfinished to see it now"
                ).format(**game)
                print(f"sarja-server export: {said}", file=sys.stderr)
                return 1
            said = _(
                "{table} game {game} is still being played: this record reveals every hand"
                " and the draw pile; show it to no one at that table"
            ).format(**game)
            print(f"sarja-server export: {said}", file=sys.stderr)
        names = table.names()
        played = replay_game(table.arrangement(), table.game)
        made = [i for i, a in enumerate(table.game.actions) if a.stand_in]
        text = record_json(played, names, made) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, "utf-8")
    return 0


def _from_record(data_dir: Path, result: Result) -> str | None:
    """A finished game's record file, which holds it now that the journal does not."""
    game = {"game": result.game, "table": result.table_id}
    if result.record is None:
        said = _("game {game} of table {table} finished, and no record was kept").format(**game)
        print(f"sarja-server export: {said}", file=sys.stderr)
        return None
    try:
        return (data_dir / "records" / result.record).read_text("utf-8")
    except OSError as err:
        said = _(
            "game {game} of table {table} is kept only in its record {record}, which cannot"
            " be read ({why}): the records folder keeps the newest 1,000"
        ).format(**game, record=result.record, why=err.strerror)
        print(f"sarja-server export: {said}", file=sys.stderr)
        return None
