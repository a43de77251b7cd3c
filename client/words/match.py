"""Words of a match (first side to N game wins), wherever its score shows: the lobby's
list, the new-table form, the waiting room, the game's side panel and its end."""

from __future__ import annotations

from sarja.protocol.messages import MatchScore

from .common import SIDE_NAMES

FORM_LABEL = "Match"
FORM_HINT = "type 2-9"
READY_NEXT = "You are ready for the next game of the match; it starts when everyone is."
NEXT_KEY = ("r", "ready for the next game")
MATCH_KEY = ("r", "new match")


def form_choice(match_to: int | None) -> str:
    return "one game" if match_to is None else f"first to {match_to} wins"


def _score(match: MatchScore, sides: int) -> str:
    return " – ".join(str(w) for w in match.wins(sides))


def lobby_item(match: MatchScore, sides: int) -> str:
    """ "match 1 – 0, first to 3": a short item among the lobby's rules."""
    return f"match {_score(match, sides)}, first to {match.to}"


def score_line(match: MatchScore, sides: int) -> str:
    """ "Match, first to 3: Blue 1, Green 0": every side's game wins."""
    wins = ", ".join(f"{SIDE_NAMES[s]} {w}" for s, w in enumerate(match.wins(sides)))
    return f"Match, first to {match.to}: {wins}"


def short_label(match: MatchScore) -> str:
    """ "Match to 3: ", before each side's wins in its colour (the side panel)."""
    return f"Match to {match.to}: "


def games_line(match: MatchScore) -> str:
    """ "Games: Blue, draw, Green": who won each game of the match so far."""
    won = ["draw" if g is None else SIDE_NAMES[g] for g in match.games]
    return "Games: " + (", ".join(won) if won else "none yet")


def outcome_line(match: MatchScore, sides: int, names: list[str]) -> str:
    """What the end of a game means for the match."""
    winner = match.winner
    if winner is not None:
        who = f" ({', '.join(names)})" if names else ""
        best = " – ".join(str(w) for w in sorted(match.wins(sides), reverse=True))
        return f"{SIDE_NAMES[winner]} wins the match {best}{who}!"
    if match.over:
        return f"The match ends after {len(match.games)} games without a winner."
    return f"Game {len(match.games) + 1} of the match is next: press r when you are ready."
