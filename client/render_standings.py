"""The standings screen, drawn: the evening's table, all time's, the asker's own line
and the best teammates, cut to the rows there are (a pure function of the model and
the part's size; the words are words/standings.py's)."""

from __future__ import annotations

from sarja.protocol.messages import Standing, Standings

from .fit import Line, column, shorten
from .model import Model
from .words import standings as words

NAME_W = 18  # the table fits 80 columns


def _row(s: Standing, rank: str) -> str:
    name = words.computer(s.computer) if s.computer else s.name
    name_w = NAME_W - max(0, len(rank) - 3)  # a longer "You" ("Sinä") takes from the name
    return (
        f" {rank:>3} {column(name, name_w)} {s.games:>5} {s.wins:>4} {s.losses:>4}"
        f" {s.draws:>5} {s.sequences:>4} {s.removed:>7} {s.exchanged:>4}"
        f" {s.move_ms / 1000:>6.1f} {s.rating / 10:>6.1f}"
    )


def _head() -> str:
    h = words.HEAD
    return (
        f" {'':>3} {h[0]:<{NAME_W}} {h[1]:>5} {h[2]:>4} {h[3]:>4} {h[4]:>5} {h[5]:>4}"
        f" {h[6]:>7} {h[7]:>4} {h[8]:>6} {h[9]:>6}"
    )


def _table(title: str, lines: tuple[Standing, ...], room: int) -> list[Line]:
    out: list[Line] = [[("class:label", " " + title)]]
    if not lines:
        return [*out, [("class:dim", "     " + words.NO_GAMES)]]
    out.append([("class:dim", _head())])
    # A computer's line in its own style: a person named "Computer (hard)" cannot copy it.
    out += [
        [("class:computer" if s.computer else "", _row(s, f"{i}."))]
        for i, s in enumerate(lines[: max(1, room)], start=1)
    ]
    return out


def standings_lines(model: Model, width: int, height: int) -> list[Line]:
    reply: Standings | None = model.standings
    if reply is None:
        return [[("class:label", " " + words.TITLE)], [("class:dim", " " + words.ASKING)]]
    # Rows for each table's people: what is left after the titles, heads and the rest.
    room = max(1, (height - 10) // 2)
    out = _table(words.evening(reply.hours), reply.evening, room)
    out.append([])
    out += _table(words.ALL_TIME, reply.all_time, room)
    out.append([])
    if reply.you is None:
        out.append([("class:label", " " + words.NOT_YOU)])
    else:
        out.append([("class:label", _row(reply.you, words.YOU))])
    out.append([])
    out.append([("class:label", " " + words.PAIRS)])
    if not reply.pairs:
        out.append([("class:dim", "     " + words.NO_PAIRS)])
    for p in reply.pairs[: max(1, height - len(out))]:
        out.append([("", "     " + words.pair(p.first, p.second, p.games, p.wins))])
    return [[(f[0], shorten(f[1], width)) for f in line] for line in out[:height]]
