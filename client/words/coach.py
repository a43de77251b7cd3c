"""Words of the coach: a hint's sentence, and the analysis of a replayed game."""

from __future__ import annotations

from sarja.protocol.cards import card_label, cell_name

HINT_KEY = ("a", "hint")
ANALYSE_KEYS = [("a", "analyse"), ("m M", "next, last mistake")]
ASKING = "Asking the coach…"
NOT_YOUR_TURN = "A hint is for your turn: wait for it."

_WHY = {
    "completes": "it completes a sequence",
    "blocks": "it blocks a line that would complete an opponent's five",
    "breaks": "it breaks up an opponent's line",
    "makes_four": "it makes a four of yours",
    "dead_card": "the card is dead: exchange it for a new one",
    "draw": "take your waiting draw",
    "pass": "nothing else can be played",
    "builds": "it builds on your lines",
}


def move_words(kind: str, card: str | None, cell: int | None) -> str:
    """One action, as people say it: "the 5♥ on E5", "the J♠ off C3", "exchange 7♥"."""
    if card is None:
        return kind
    if kind == "exchange":
        return f"exchange the dead {card_label(card)}"
    if cell is None:
        return card_label(card)
    where = "off" if kind == "remove" else "on"
    return f"the {card_label(card)} {where} {cell_name(cell)}"


def hint(move: str, reason: str) -> str:
    """The hint, with the key that plays it when it is a card on a space."""
    return f"Hint: {move} ({_WHY.get(reason, reason)}). Marked ~ ~ on the board."


# ----- the analysis in a replay ---------------------------------------------------------

PRACTICE_KEPT = (
    "This game is kept: after you quit, sarja-client --replay lists it, and there"
    " a shows the coach's analysis of every move."
)

NOT_ANALYSED = "Press a to analyse the game: each move where a stronger one was there."
NO_RECORD = "This replay has no record to analyse."


def analysing(done: int, total: int) -> str:
    return f"Analysing the game… {done} of {total} moves"


def analysis_failed(why: str) -> str:
    return f"The analysis stopped: {why}"


def analysed(count: int) -> str:
    if count == 0:
        return "Analysed: no move was clearly weaker than another there was."
    marks = "1 mistake" if count == 1 else f"{count} mistakes"
    return f"Analysed: {marks} marked; m steps to the next, M to the one before."


_MISTAKE = {
    "missed_win": "missed a win",
    "left_four": "left an opponent's winning four open",
    "wasted_jack": "spent a two-eyed jack where a plain card would do",
    "idle_removal": "removed a chip that did not matter",
}


def mistake(index: int, count: int, who: str, played: str, kind: str, better: str) -> str:
    """A marked move: who, what they did, what it missed, and the better move."""
    return (
        f"Mistake {index} of {count}: {who} played {played} and {_MISTAKE.get(kind, kind)};"
        f" better: {better} (marked ~ ~)."
    )
