"""The coach's analysis of a replayed game: run in a worker thread from the record
(which, the game being over, shows every hand), its progress and its marks shown in
the replay, and the steps to each marked move.

The analysis is the server's coach (sarja.server.coach), imported only here and only
for a replay, as record.py imports the engine: a record reveals everything anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from sarja.protocol.notation import parse

from .model import Analysis, Mark, Model
from .replay import go
from .words import coach as words

Report = Callable[[Callable[[], None]], None]  # runs a change on the UI's loop


def start(model: Model, report: Report) -> bool:
    """Begin the analysis in a thread, once; `report` carries each change back to the
    screen's loop (the model is changed there only). False if there is none to run."""
    replay = model.replay
    if replay is None or replay.record is None or replay.analysis is not None:
        return False
    analysis = replay.analysis = Analysis(total=max(0, len(replay.steps) - 1))
    record = replay.record

    def progress(done: int, total: int) -> None:
        def show() -> None:
            analysis.done, analysis.total = done, total
            describe(model)

        report(show)

    def work() -> None:
        from sarja.server.coach import analyse

        try:
            found = [Mark(*vars(m).values()) for m in analyse(record, progress)]
            error = ""
        except Exception as err:  # a record that replays but puzzles the coach
            found, error = [], str(err)

        def finished() -> None:
            analysis.marks, analysis.finished, analysis.failed = found, True, error
            describe(model)

        report(finished)

    threading.Thread(target=work, name="sarja-analysis", daemon=True).start()
    describe(model)
    return True


def step_to_mistake(model: Model, forward: bool) -> None:
    """Show the next (or previous) marked move: the position after it."""
    replay = model.replay
    if replay is None:
        return
    analysis = replay.analysis
    if analysis is None or not analysis.finished:
        describe(model)
        return
    after = [m for m in analysis.marks if m.at + 1 > replay.at]
    before = [m for m in analysis.marks if m.at + 1 < replay.at]
    target = (after[:1] if forward else before[-1:]) or []
    if target:
        go(model, target[0].at + 1)
    describe(model)


def shown(model: Model) -> Mark | None:
    """The marked move that led to the position on screen, if it is one."""
    replay = model.replay
    if replay is None or replay.analysis is None or not replay.analysis.finished:
        return None
    return next((m for m in replay.analysis.marks if m.at + 1 == replay.at), None)


def better_cell(mark: Mark) -> int | None:
    return parse(mark.better).cell


def describe(model: Model) -> None:
    """The status line for the analysis: its progress, or the mark on screen."""
    replay = model.replay
    if replay is None:
        return
    analysis = replay.analysis
    if analysis is None:
        model.status = words.NOT_ANALYSED if replay.record is not None else words.NO_RECORD
    elif not analysis.finished:
        model.status = words.analysing(analysis.done, analysis.total)
    elif analysis.failed:
        model.status = words.ANALYSIS_FAILED.format(why=analysis.failed)
    elif (mark := shown(model)) is not None:
        index = analysis.marks.index(mark) + 1
        g = model.game
        who = g.players[mark.seat].name if g is not None else str(mark.seat)
        model.status = words.mistake(
            index, len(analysis.marks), who, _said(mark.played), mark.kind, _said(mark.better)
        )
    else:
        model.status = words.analysed(len(analysis.marks))


def _said(notation: str) -> str:
    n = parse(notation)
    return words.move_words(n.kind, n.card, n.cell)
