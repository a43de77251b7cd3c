"""What the player asks for, as values: one frozen class per intent.

Key bindings (keys.py), mouse handlers on the screen's fragments (render*.py) and the
text boxes (layout.py) make an intent; `perform` (perform.py) carries it out, matching
every class of `Intent` exhaustively, so an intent no one handles is a type error
rather than a key that silently does nothing. Modules that also speak the protocol
import this one as a namespace (`ask.Play()` is the wish, `Play(...)` the message).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

# ----- the board and the hand ---------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """The cursor moves by (rows, columns), round the edges."""

    delta: tuple[int, int]


@dataclass(frozen=True)
class Goto:
    """A click on a space: the cursor goes there, and the picked card plays if it can."""

    cell: int


@dataclass(frozen=True)
class Pick:
    index: int  # in the hand


@dataclass(frozen=True)
class NextCard:
    step: int  # 1: the next card worth picking, -1: the one before


@dataclass(frozen=True)
class NextTarget:
    """The cursor to the picked card's next space."""


@dataclass(frozen=True)
class Play:
    """The picked card at the cursor."""


@dataclass(frozen=True)
class FivesMove:
    step: int


@dataclass(frozen=True)
class FivesPick:
    index: int


@dataclass(frozen=True)
class FivesConfirm:
    pass


@dataclass(frozen=True)
class Exchange:
    """A dead card exchanged: the picked one if dead, else the first."""


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Draw:
    """A waiting (manual) draw taken."""


@dataclass(frozen=True)
class HandOver:
    """An away player's seat handed to the computer."""


@dataclass(frozen=True)
class Cancel:
    """The picked card put back."""


@dataclass(frozen=True)
class Rematch:
    pass


@dataclass(frozen=True)
class ToTable:
    """From a finished game kept on screen to its waiting room."""


# ----- leaving, quitting, overlays, text boxes ---------------------------------------


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Confirm:
    """Yes to the question on screen (quit, leave)."""


@dataclass(frozen=True)
class Close:
    """The overlay on screen closed (a question answered no, the help, a box)."""


@dataclass(frozen=True)
class Help:
    """The help opened: its keys page lists `keys`, each line of words.help.KEYS with
    the keys bound to it on the screen under the help (keys.py finds them)."""

    keys: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class HelpPage:
    step: int


@dataclass(frozen=True)
class ChatOpen:
    pass


@dataclass(frozen=True)
class Say:
    """The chat box's line, sent."""

    text: str


@dataclass(frozen=True)
class Name:
    """The name screen's line, confirmed."""

    text: str


@dataclass(frozen=True)
class NameTyped:
    """The name screen's line changed: what was said about the last one is over."""


@dataclass(frozen=True)
class LogScroll:
    how: Literal["up", "down", "top", "end"]  # PgUp, PgDn, Home, End


@dataclass(frozen=True)
class Alerts:
    """The bell and the window's title on our turn, on or off."""


@dataclass(frozen=True)
class Language:
    """Speak the other language: Finnish, or English (the lobby's key F)."""


@dataclass(frozen=True)
class Retry:
    """Connect now, not after the pause."""


# ----- the lobby, the new-table form, the waiting room -------------------------------


@dataclass(frozen=True)
class LobbyMove:
    step: int


@dataclass(frozen=True)
class LobbyClick:
    row: int


@dataclass(frozen=True)
class Join:
    """The chosen table joined (or watched, if its game is on)."""


@dataclass(frozen=True)
class Spectate:
    pass


@dataclass(frozen=True)
class CreateOpen:
    """The new-table form opened, fresh."""


@dataclass(frozen=True)
class FormMove:
    step: int


@dataclass(frozen=True)
class FormChange:
    step: int


@dataclass(frozen=True)
class FormName:
    text: str


@dataclass(frozen=True)
class FormDigit:
    """A digit typed on a form line that takes a number, the turn clock's or the
    match's ("": one taken off)."""

    key: str


@dataclass(frozen=True)
class Create:
    """The form's table created."""


@dataclass(frozen=True)
class Refresh:
    pass


@dataclass(frozen=True)
class SeatMove:
    step: int


@dataclass(frozen=True)
class Sit:
    seat: int


@dataclass(frozen=True)
class Ready:
    """Ready, or not ready any more."""


@dataclass(frozen=True)
class SeatComputer:
    """The chosen seat's computer, at a table we made: a free seat gets the easiest,
    a computer's the next level, the hardest none."""


# ----- a replay -------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    by: int  # actions, backwards when negative


@dataclass(frozen=True)
class StepTo:
    at: int  # -1: the end


@dataclass(frozen=True)
class Analyse:
    """Run the coach's analysis of the replayed game (analysis.py)."""


@dataclass(frozen=True)
class ToMistake:
    forward: bool  # the next marked move, or the one before


@dataclass(frozen=True)
class AskCoach:
    """Ask the coach for a hint for our move (a practice game, or a table allowing it)."""


@dataclass(frozen=True)
class StandingsOpen:
    """Show the standings (over the lobby), asked afresh of the server."""


@dataclass(frozen=True)
class ForgetAsk:
    """Ask the server to forget us: first, the question."""


@dataclass(frozen=True)
class ForgetConfirm:
    pass


# The intents in groups, each carried out by one module (perform.py says which).
BoardIntent: TypeAlias = (
    Move | Goto | Pick | NextCard | NextTarget | Play | FivesMove | FivesPick | FivesConfirm
)  # fmt: skip
TurnIntent: TypeAlias = (
    Exchange | Pass | Draw | HandOver | Cancel | Rematch | ToTable | AskCoach
)  # fmt: skip
ExitIntent: TypeAlias = Quit | Leave | Confirm | Close
AsideIntent: TypeAlias = (
    Help | HelpPage | ChatOpen | Say | Name | NameTyped | LogScroll | Alerts | Language | Retry
)  # fmt: skip
LobbyIntent: TypeAlias = (
    LobbyMove | LobbyClick | Join | Spectate | Refresh | SeatMove | Sit | Ready | SeatComputer
)  # fmt: skip
FormIntent: TypeAlias = CreateOpen | FormMove | FormChange | FormName | FormDigit | Create
ReplayIntent: TypeAlias = Step | StepTo | Analyse | ToMistake
StandingsIntent: TypeAlias = StandingsOpen | ForgetAsk | ForgetConfirm
Intent: TypeAlias = (
    BoardIntent | TurnIntent | ExitIntent | AsideIntent | LobbyIntent | FormIntent | ReplayIntent
    | StandingsIntent
)  # fmt: skip
