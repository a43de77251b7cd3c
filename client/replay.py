"""A replay on screen: the position shown, moved by the replay's keys.

The positions come from a game record (record.py); each is what a spectator's
`snapshot` would say, plus every seat's hand, shown on the same board screen as a live
game. The log is written from each move's changes by the same sentences as in play.
"""

from __future__ import annotations

from functools import partial

from sarja.protocol.mirror import GameMirror

from .model import LogLine, Model, Replay, Step
from .words.common import Fragment
from .words.log import by_mover, change_parts, replay_begins


def go(model: Model, at: int) -> None:
    """Show the position after `at` actions (clamped to the game)."""
    replay = model.replay
    assert replay is not None
    replay.at = max(0, min(at, len(replay.steps) - 1))
    step = replay.step
    if model.game is None:
        model.game = GameMirror(step.snapshot)
    else:
        model.game.reset(step.snapshot)
    # The log holds what happened up to here, as a spectator's log would.
    if not replay.ends:
        _tell(model, replay, model.game)
    model.log.clear()
    model.log.extend(replay.told[: replay.ends[replay.at]])
    if replay.at == 0:
        model.log.append(LogLine("info", partial(_start, model, step)))


def _tell(model: Model, replay: Replay, game: GameMirror) -> None:
    """Every step's changes in the log's words: they depend only on the players'
    names and sides, the same at every step (a replay has no "You")."""
    replay.ends.append(0)
    for step in replay.steps[1:]:
        for change in step.changes:
            line = LogLine(
                change.kind,
                partial(change_parts, model, game, change, step.stand_in and by_mover(change)),
            )
            if line.parts:
                replay.told.append(line)
        replay.ends.append(len(replay.told))


def _start(model: Model, step: Step) -> tuple[Fragment, ...]:
    game = step.snapshot
    return replay_begins(game.players[game.first].name)
