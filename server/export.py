"""`sarja-server export`: any game the journal keeps, finished or not, as a game record.

A record of a game in progress shows every hand and the draw pile: it is for the host
(after the evening, or to look into a problem), not for the players at that table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .engine import record_json
from .journal import FILE_NAME, Journal, JournalError, replay_game
from .records import default_data_dir


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="sarja-server export",
        description="Write a game the server keeps (finished or not) as a JSON game record"
        " (docs/records.md). With no table, list the games kept.",
    )
    parser.add_argument("table", nargs="?", help="the table's id, e.g. t3")
    parser.add_argument("game", nargs="?", type=int, help="the game's number (default: latest)")
    parser.add_argument("--data-dir", type=Path, default=None, help="the server's data directory")
    parser.add_argument("-o", "--output", type=Path, help="write here instead of to stdout")
    args = parser.parse_args(argv)
    path = (args.data_dir or default_data_dir()) / FILE_NAME
    if not path.exists():
        print(f"sarja-server export: no journal at {path}", file=sys.stderr)
        return 1
    try:
        journal = Journal(path)
        try:
            if args.table is None:
                for table_id, number, name, finished in journal.games():
                    state = "finished" if finished else "in progress"
                    print(f"{table_id} {number}  {name!r}  {state}")
                return 0
            table = journal.table(args.table, args.game)
        finally:
            journal.close()
    except JournalError as err:
        print(f"sarja-server export: {err}", file=sys.stderr)
        return 1
    if table is None or table.game is None:
        print(f"sarja-server export: no such game in {path}", file=sys.stderr)
        return 1
    names = table.names()
    text = record_json(replay_game(table.arrangement(), table.game), names) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, "utf-8")
    return 0
