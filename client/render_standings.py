"""The standings screen, drawn: the evening's table, all time's, the asker's own line
and the best teammates, cut to the rows there are (a pure function of the model and
the part's size; the words are words/standings.py's)."""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from sarja.protocol.messages import Standing, Standings

from .fit import Line, column, shorten, wrap
from .model import Model
from .words import standings as words

NAME_W = 26  # at most ("Tietokone (keskitasoinen)"); the figures take what they need first
TABLE_W = 80
Widths = tuple[int, list[int]]  # the name's, and each figure's


def _figures(s: Standing) -> list[str]:
    values = (s.games, s.wins, s.losses, s.draws, s.sequences, s.removed, s.exchanged)
    return [*map(str, values), f"{s.move_ms / 1000:.1f}", f"{s.rating / 10:.1f}"]


def _widths(rows: list[Standing]) -> Widths:
    """Each figure's column as wide as its head (never cut) or its widest value, in the
    language of the moment; the name's what is left of 80 columns, at most NAME_W."""
    figures = [get_cwidth(h) for h in words.HEAD[1:]]
    for s in rows:
        figures = [max(w, len(v)) for w, v in zip(figures, _figures(s), strict=True)]
    return min(NAME_W, TABLE_W - 6 - sum(w + 1 for w in figures)), figures


def _row(s: Standing, rank: str, widths: Widths) -> str:
    name = words.computer(s.computer) if s.computer else s.name
    name_w, w = widths
    name_w -= max(0, len(rank) - 3)  # a longer "You" ("Sinä") takes from the name
    return f" {rank:>3} {column(name, name_w)}" + "".join(
        f" {v:>{width}}" for v, width in zip(_figures(s), w, strict=True)
    )


def _head(widths: Widths) -> str:
    name_w, w = widths
    h = words.HEAD
    return f" {'':>3} {h[0]:<{name_w}}" + "".join(
        f" {head:>{width}}" for head, width in zip(h[1:], w, strict=True)
    )


def _table(title: str, lines: tuple[Standing, ...], room: int, widths: Widths) -> list[Line]:
    out: list[Line] = [[("class:label", " " + title)]]
    if not lines:
        return [*out, [("class:dim", "     " + words.NO_GAMES)]]
    out.append([("class:dim", _head(widths))])
    # A computer's line in its own style: a person named "Computer (hard)" cannot copy it.
    out += [
        [("class:computer" if s.computer else "", _row(s, f"{i}.", widths))]
        for i, s in enumerate(lines[: max(1, room)], start=1)
    ]
    return out


def standings_lines(model: Model, width: int, height: int) -> list[Line]:
    reply: Standings | None = model.standings
    if reply is None:
        return [[("class:label", " " + words.TITLE)], [("class:dim", " " + words.ASKING)]]
    # Rows for each table's people: what is left after the titles, heads and the rest.
    legend = wrap([("class:dim", " " + words.LEGEND)], width, indent=1)
    room = max(1, (height - 10 - len(legend)) // 2)
    widths = _widths([*reply.evening, *reply.all_time, *([reply.you] if reply.you else [])])
    out = _table(words.evening(reply.hours), reply.evening, room, widths)
    out.append([])
    out += _table(words.ALL_TIME, reply.all_time, room, widths)
    out.append([])
    if reply.you is None:
        out.append([("class:label", " " + words.NOT_YOU)])
    else:
        out.append([("class:label", _row(reply.you, words.YOU, widths))])
    out += legend
    out.append([])
    out.append([("class:label", " " + words.PAIRS)])
    if not reply.pairs:
        out.append([("class:dim", "     " + words.NO_PAIRS)])
    for p in reply.pairs[: max(1, height - len(out))]:
        out.append([("", "     " + words.pair(p.first, p.second, p.games, p.wins))])
    return [[(f[0], shorten(f[1], width)) for f in line] for line in out[:height]]
