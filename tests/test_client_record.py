"""`sarja-client --replay FILE`: a file that is not a record Sarja can replay is refused
with a reason (RecordError, which the command prints), never a traceback."""

from __future__ import annotations

import json

import pytest

from sarja.client.record import load
from sarja.server.engine import RecordError, game_record

from .test_engine_records import finished_game


def test_a_record_loads_at_its_deal(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(finished_game())), encoding="utf-8")
    model = load(path)
    assert model.replay is not None and len(model.replay.steps) > 1


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(manual_draw=True),  # the rules then refuse a move ("You don't hold")
        lambda d: d["actions"].__setitem__(0, [0, "ZZ"]),  # not a move at all
    ],
)
def test_a_record_whose_moves_do_not_replay_is_refused(tmp_path, change):
    data = game_record(finished_game())
    change(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load(path)
    assert info.value.code == "bad_record"


def test_a_file_not_in_utf8_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\x86\xff{}")
    with pytest.raises(RecordError) as info:
        load(path)
    assert info.value.code == "bad_record"
