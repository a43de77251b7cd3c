"""The journal's one error, and the sentences it says to the host (in the host's
language, as the server's other lines), apart from journal.py so that what raises or
catches it (the lobby restoring tables) need not load the journal's trio side."""

from __future__ import annotations

from sarja.lang import _


class JournalError(Exception):
    """The journal cannot be used; the message names the file and says what to do."""


def cannot_open(where: object, why: str) -> str:
    return _("cannot open the journal {where}: {why}").format(where=where, why=why)


def cannot_write(where: object, why: str) -> str:
    return _("cannot write the journal {where}: {why}").format(where=where, why=why)


def stopping(failure: str) -> str:
    """The critical log line when a commit fails mid-game: the whole line translated."""
    return _("{failure}; stopping, so that no move is lost").format(failure=failure)


def too_new(where: object, version: int, reads: int) -> str:
    return _(
        "the journal {where} was written by a newer sarja-server (journal version"
        " {version}; this one reads version {reads}). Run the newer server, or start this"
        " one with another --data-dir."
    ).format(where=where, version=version, reads=reads)


def older_running(where: object, version: int, reads: int) -> str:
    return _(
        "the journal {where} is of an older sarja-server (journal version {version}) that"
        " is running on it: this one would bring it up to version {reads} under it, and"
        " that server could not start on it again. Stop it and start this version (which"
        " brings the journal up to date), then ask again."
    ).format(where=where, version=version, reads=reads)


def damaged(where: object, why: str) -> str:
    return _(
        "the journal {where} is damaged ({why}). The games in it cannot be read, so the"
        " server does not start over them: move the file aside (keep it: it may be"
        " repairable with the sqlite3 tool's .recover), or start with another --data-dir."
    ).format(where=where, why=why)


def does_not_replay(table: str, where: object, why: str) -> str:
    return _("table {table} in the journal {where} does not replay: {why}").format(
        table=table, where=where, why=why
    )
