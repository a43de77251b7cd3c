"""Game records: a finished game replays to the identical state, and a record
that was tampered with is refused with a reason."""

from __future__ import annotations

import copy
import json
import random

import pytest

from sarja.server.engine import (
    Arrangement,
    Game,
    HouseRules,
    RecordError,
    game_record,
    record_json,
    replay,
)

from .engine_helpers import snapshot


def finished_game(players=2, teams=None, seed=3, manual_draw=False) -> Game:
    rng = random.Random(seed)
    game = Game.new(Arrangement.of(players, teams, HouseRules(manual_draw=manual_draw)), rng)
    while game.outcome is None:
        seats = [s for s in range(game.players) if game.legal_actions(s)]
        seat = rng.choice(seats)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def a_game_with_a_reshuffle() -> Game:
    for seed in range(200):
        game = finished_game(players=12, teams=3, seed=seed)
        if game.reshuffles:
            return game
    raise AssertionError("no seed reshuffled")


def test_a_record_replays_to_the_identical_game():
    for game in (finished_game(), finished_game(6, 3, 4, True), a_game_with_a_reshuffle()):
        text = record_json(game, names=[f"P{i}" for i in range(game.players)])
        data = json.loads(text)
        assert data["format"] == "sarja-record" and len(data["deck"]) == 104
        assert data["names"][0] == "P0"
        assert snapshot(replay(text)) == snapshot(game)


def test_a_record_of_a_game_in_progress_replays_too():
    rng = random.Random(1)
    game = Game.new(Arrangement.of(4), rng)
    for _ in range(10):
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    assert snapshot(replay(game_record(game))) == snapshot(game)


def tampered(change) -> dict:
    data = game_record(a_game_with_a_reshuffle())
    change(data)
    return data


@pytest.mark.parametrize(
    "change, code",
    [
        (lambda d: d.update(format="chess"), "bad_record"),
        (lambda d: d.update(version=2), "bad_record"),
        (lambda d: d["deck"].pop(), "bad_deck"),
        (lambda d: d["deck"].__setitem__(0, "ZZ"), "bad_record"),
        (lambda d: d["cut"][0].reverse(), "bad_cut"),
        (lambda d: d.update(cut=[[[s, "2S"] for s, _ in d["cut"][0]]]), "bad_cut"),
        (lambda d: d.update(first=(d["first"] + 1) % d["players"]), "bad_cut"),
        (lambda d: d["reshuffles"][0].reverse() or d["reshuffles"][0].pop(), "bad_reshuffle"),
        (lambda d: d.update(reshuffles=[]), "missing_reshuffle"),
        (lambda d: d["reshuffles"].append(d["reshuffles"][0]), "bad_record"),
        (lambda d: d["actions"].insert(0, d["actions"][1]), "bad_record"),
        (lambda d: d["actions"].pop(), "bad_record"),
        (lambda d: d["outcome"].update(side=9), "bad_record"),
        (lambda d: d.pop("outcome"), "bad_record"),
        (lambda d: d.update(players=5), "bad_record"),
    ],
)
def test_a_tampered_record_is_refused(change, code):
    with pytest.raises(RecordError) as info:
        replay(tampered(change))
    assert info.value.code == code


@pytest.mark.parametrize("text", ["not json", "[1, 2]", "null", '{"format": "sarja-record"}'])
def test_what_is_not_a_record_is_refused(text):
    with pytest.raises(RecordError) as info:
        replay(text)
    assert info.value.code == "bad_record"


def test_replay_does_not_change_the_record():
    data = game_record(finished_game())
    kept = copy.deepcopy(data)
    replay(data)
    assert data == kept
