"""Words of the coach: a hint's sentence, and the analysis of a replayed game."""

from __future__ import annotations

from sarja.lang import N_, _, ngettext, translated
from sarja.protocol.cards import card_label, cell_name

from ..keybar import KeyItem, Need

HINT_KEY = KeyItem("a", N_("hint"))
# The replay's coach: `a` until the game is analysed, then the steps to its mistakes.
ANALYSE_KEY = KeyItem("a", N_("analyse"), Need.MAIN)
MISTAKE_KEYS = KeyItem("m M", N_("next, last mistake"), Need.MAIN)
ASKING = N_("Asking the coach…")
NOT_YOUR_TURN = N_("A hint is for your turn: wait for it.")

_WHY = {
    "completes": N_("it completes a sequence"),
    "blocks": N_("it blocks a line that would complete an opponent's five"),
    "breaks": N_("it breaks up an opponent's line"),
    "makes_four": N_("it makes a four of yours"),
    "dead_card": N_("the card is dead: exchange it for a new one"),
    "draw": N_("take your waiting draw"),
    "pass": N_("nothing else can be played"),
    "builds": N_("it builds on your lines"),
}
# "builds" for a play with no chip of ours in any five through its space (hints.py tells):
# the first move on an empty board builds on nothing of ours.
_STARTS = N_("it starts a line")
# "builds" for a one-eyed jack: the chip it takes broke up nothing worth saying, and it
# builds nothing either; what is true is the space it leaves (the wire has no other code).
_FREES = N_("it frees the space for you")
_KINDS = {"draw": N_("take the waiting draw"), "pass": N_("pass")}  # a move with no card


def move_words(kind: str, card: str | None, cell: int | None) -> str:
    """One action, as people say it: "the 5♥ on E5", "the J♠ off C3", "exchange 7♥"."""
    if card is None:
        return _KINDS.get(kind, kind)
    if kind == "exchange":
        return _("exchange the dead {card}").format(card=card_label(card))
    if cell is None:
        return card_label(card)
    if kind == "remove":
        return _("the {card} off {cell}").format(card=card_label(card), cell=cell_name(cell))
    return _("the {card} on {cell}").format(card=card_label(card), cell=cell_name(cell))


def hint(move: str, reason: str, kind: str = "place") -> str:
    """The hint (`kind` its action's, as notation.parse says), marked on the board."""
    why = (
        _FREES if kind == "remove" and reason == "builds"
        else _STARTS if reason == "starts" else _WHY.get(reason, reason)
    )  # fmt: skip
    return _("Hint: {move} ({why}). Marked ~ ~ on the board.").format(move=move, why=why)


# ----- the analysis in a replay ---------------------------------------------------------

PRACTICE_KEPT = N_(
    "This game is kept: after you quit, sarja-client --replay lists it; press a there"
    " for the coach's analysis of every move."
)

NOT_ANALYSED = N_("Press a to analyse the game: each move where a stronger one was there.")
NO_RECORD = N_("This replay has no record to analyse.")


def analysing(done: int, total: int) -> str:
    return ngettext(
        "Analysing the game… {done} of {n} move", "Analysing the game… {done} of {n} moves", total
    ).format(done=done, n=total)


ANALYSIS_FAILED = N_("The analysis stopped: {why}")


def analysed(count: int) -> str:
    if count == 0:
        return _("Analysed: no mistakes found.")
    return ngettext(
        "Analysed: {n} mistake marked; m steps to the next, M to the one before.",
        "Analysed: {n} mistakes marked; m steps to the next, M to the one before.",
        count,
    ).format(n=count)


_MISTAKE = {
    "missed_win": N_("missed a win"),
    "left_four": N_("left an opponent's winning four open"),
    "wasted_jack": N_("spent a two-eyed jack where a plain card would do"),
    "idle_removal": N_("removed a chip that did not matter"),
}


def mistake(index: int, count: int, who: str, played: str, kind: str, better: str) -> str:
    """A marked move: who, what they did, what it missed, and the better move."""
    return _(
        "Mistake {index} of {count}: {who} played {played} and {what}; better: {better}"
        " (marked ~ ~)."
    ).format(
        index=index, count=count, who=who, played=played, what=_MISTAKE.get(kind, kind),
        better=better,
    )  # fmt: skip


translated(__name__)
