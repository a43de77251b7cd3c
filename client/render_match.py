"""A match's score, drawn: the lines the waiting room, the game's side panel and the
end of a game show (the words are words/match.py's)."""

from __future__ import annotations

from sarja.protocol.messages import MatchScore

from .fit import Line, first_fitting, wrap
from .model import Model
from .render import banner_style
from .styles import side_style
from .words import match as words


def current_match(model: Model) -> MatchScore | None:
    """The match the table we are at plays, if it plays one."""
    return None if model.table is None else model.table.match


def score_lines(model: Model, width: int) -> list[Line]:
    """The score, and who won each game so far."""
    match = current_match(model)
    if match is None or model.table is None:
        return []
    score = words.score_line(match, model.table.teams)
    lines = wrap([("", " "), ("class:label", score)], width, indent=1)
    if match.games:
        lines += wrap([("", " "), ("class:dim", words.games_line(match))], width, indent=1)
    return lines


def panel_lines(model: Model, width: int) -> list[Line]:
    """The score in the game's side panel: in full if it fits, else each side's wins
    in its colour ("Match to 3: 1 – 0")."""
    match = current_match(model)
    if match is None or model.table is None:
        return []
    teams = model.table.teams
    short: Line = [("class:label", words.short_label(match))]
    for side, won in enumerate(match.wins(teams)):
        short += [("", " – " if side else ""), (side_style(side), str(won))]
    return [first_fitting([[("class:label", words.score_line(match, teams))], short], width)]


def outcome_lines(model: Model, width: int) -> list[Line]:
    """At the end of a game of a match: the score, each game's winner, and what comes
    next (the next game, or the match's winner)."""
    match = current_match(model)
    table = model.table
    if match is None or table is None:
        return []
    winner = match.winner
    # The game's players, not the seats now: a bot partner (sarja-bot) leaves its seat
    # as soon as the match is won, and it won the match too.
    g = model.game
    if g is not None and g.table == table.id:
        names = [p.name for p in g.players if p.side == winner]
    else:
        names = [s.name or "" for i, s in enumerate(table.seats) if winner == i % table.teams]
    line = words.outcome_line(match, table.teams, [n for n in names if n], table.seat is not None)
    style = banner_style(winner) if winner is not None else "class:label"
    return [*score_lines(model, width), *wrap([("", " "), (style, line)], width, indent=1)]
