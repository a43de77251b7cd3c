"""Words of a match (first side to N game wins), wherever its score shows: the lobby's
list, the new-table form, the waiting room, the game's side panel and its end."""

from __future__ import annotations

from sarja.lang import N_, _, ngettext, translated
from sarja.protocol.messages import MatchScore

from ..keybar import KeyItem
from . import common

FORM_LABEL = N_("Match")
FORM_HINT = N_("type 2-9")
READY_NEXT = N_("You are ready for the next game of the match; it starts when everyone is.")
NEXT_KEY = KeyItem("r", N_("ready for the next game"))
MATCH_KEY = KeyItem("r", N_("new match"))


def form_choice(match_to: int | None) -> str:
    if match_to is None:
        return _("one game")
    return _("first to {wins} wins").format(wins=match_to)


def _score(match: MatchScore, sides: int) -> str:
    return " – ".join(str(w) for w in match.wins(sides))


def lobby_item(match: MatchScore, sides: int) -> str:
    """ "match 1 – 0, first to 3": a short item among the lobby's rules."""
    return _("match {score}, first to {wins}").format(score=_score(match, sides), wins=match.to)


def score_line(match: MatchScore, sides: int) -> str:
    """ "Match, first to 3: Blue 1, Green 0": every side's game wins."""
    names = common.SIDE_NAMES
    wins = ", ".join(f"{names[s]} {w}" for s, w in enumerate(match.wins(sides)))
    return _("Match, first to {to}: {wins}").format(to=match.to, wins=wins)


def short_label(match: MatchScore) -> str:
    """ "Match to 3: ", before each side's wins in its colour (the side panel)."""
    return _("Match to {to}: ").format(to=match.to)


def games_line(match: MatchScore) -> str:
    """ "Games: Blue, draw, Green": who won each game of the match so far."""
    won = [_("drawn") if g is None else common.SIDE_NAMES[g] for g in match.games]
    if not won:
        return _("Games: none yet")
    return _("Games: {won}").format(won=", ".join(won))


def outcome_line(match: MatchScore, sides: int, names: list[str], seated: bool = True) -> str:
    """What the end of a game means for the match (`seated`: to a player, who is ready
    for the next game with r; a spectator only waits for it)."""
    winner = match.winner
    if winner is not None:
        best = " – ".join(str(w) for w in sorted(match.wins(sides), reverse=True))
        side = common.SIDE_NAMES[winner]
        if names:
            return _("{side} wins the match {score} ({names})!").format(
                side=side, score=best, names=", ".join(names)
            )
        return _("{side} wins the match {score}!").format(side=side, score=best)
    if match.over:
        games = len(match.games)
        return ngettext(
            "The match ends after {n} game without a winner.",
            "The match ends after {n} games without a winner.",
            games,
        ).format(n=games)
    if not seated:
        return _("Game {n} of the match is next.").format(n=len(match.games) + 1)
    return _("Game {n} of the match is next: press r when you are ready.").format(
        n=len(match.games) + 1
    )


translated(__name__)
