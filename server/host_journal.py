"""What the host's offline commands share (`export`, `standings`, `forget`): the
`--data-dir` option, finding the journal in that directory, and opening it to read."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sarja.lang import _

from .datalock import in_use
from .journal import FILE_NAME, Journal
from .records import default_data_dir


def add_data_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", type=Path, default=None, help=_("the server's data directory")
    )


def parse_with_journal(
    parser: argparse.ArgumentParser, argv: list[str]
) -> tuple[argparse.Namespace, Path, Path] | None:
    """The command's arguments, its data directory and the journal in it; None, said on
    stderr, when there is no journal there."""
    args = parser.parse_args(argv)
    found = find_journal(parser.prog, args.data_dir)
    return None if found is None else (args, *found)


def find_journal(prog: str, data_dir: Path | None) -> tuple[Path, Path] | None:
    """The data directory (the user's by default) and the journal in it; None, said on
    stderr under `prog`'s name, when there is no journal there."""
    data_dir = data_dir or default_data_dir()
    path = data_dir / FILE_NAME
    if not path.exists():
        print(f"{prog}: " + _("no journal at {path}").format(path=path), file=sys.stderr)
        return None
    return data_dir, path


def journal_to_read(data_dir: Path, path: Path) -> Journal:
    """The journal for a command that only reads it. Beside a running server, it is
    left at its version: an older server could not start on a journal brought up to
    date under it (JournalError, with a sentence, if this one cannot read it as it is)."""
    return Journal(path, upgrade=not in_use(data_dir))
