"""Why the engine refused something.

Two kinds, kept apart on purpose: a *malformed* action could never be right
(a card code that does not exist, a space off the board), while an *illegal*
action is well formed but not allowed now (the space is taken, it is not your
turn). Both carry a stable machine ``code`` and a ``message`` a person can read;
a refused action never changes the game.
"""

from __future__ import annotations


class EngineError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class MalformedAction(EngineError):
    """The action could not be understood at all."""


class IllegalAction(EngineError):
    """The action is understood, but the rules do not allow it now."""


class ArrangementError(EngineError):
    """The table cannot be set up like that."""


class RecordError(EngineError):
    """A game record is not one this engine wrote, or does not replay."""
