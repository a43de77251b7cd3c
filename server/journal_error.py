"""The journal's one error, apart from journal.py so that what raises or catches it
(the lobby restoring tables) need not load the journal's trio side."""


class JournalError(Exception):
    """The journal cannot be used; the message names the file and says what to do."""
