"""`sarja-client --practice` in a real pseudo-terminal: one command, no server to start,
and a game against the computer to its end (the screen read through pyte); the game's
record kept, and `--replay` choosing it from the list of records kept here."""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path

from sarja.server.coach import analyse

from .test_client_e2e import PATIENCE, TURN, Terminal, command, hurry, play_to_the_end


def test_practice_starts_a_game_against_the_computer_and_plays_it(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}  # fmt: skip
    env.pop("NO_COLOR", None)
    argv = [*command("sarja-client"), "--practice", "--level", "easy", "--name", "Aino",
            "--pace", "0.25"]  # fmt: skip
    aino = Terminal(argv, env)
    try:
        screen = aino.wait_for(re.compile(f"{re.escape(TURN)}|is thinking"), PATIENCE)
        assert "Practice" in screen and "Bertil (computer)" in screen
        if TURN in screen:
            hurry(aino)
        # The notice is shown while the computer thinks (tests/test_client_computers.py
        # pins it); a starved terminal may draw the reply before it, so either will do.
        thought = r"Bertil \(computer\) is thinking…|Bertil (played|removed|exchanged) "
        aino.wait_for(re.compile(thought))
        play_to_the_end(aino)
        end = aino.wait_for("Game over")
        assert "Bertil held:" in end or "Aino held:" in end
        assert "This game is kept" in aino.wait_for("the coach's analysis")
        aino.type("q")  # after the game, q quits at once: nothing is lost
        assert aino.finish() == 0
        assert b"Traceback" not in aino.raw
        # The practice server is gone with the client: no seat of it is remembered.
        kept = (tmp_path / "config" / "sarja" / "client.json").read_text()
        assert '"seats": {}' in kept and "Aino" in kept
    finally:
        aino.close()
    # The game's record is kept in the client's data directory, even though the player
    # quit the moment it ended.
    (record,) = (tmp_path / "data" / "sarja" / "practice").glob("*.json")
    practice = json.loads(record.read_text())
    assert practice["names"] == ["Aino", "Bertil"] and practice["outcome"]
    choose_the_practice_game(env, tmp_path / "data" / "sarja", record)


def board(screen: str) -> str:
    return "\n".join(screen.splitlines()[1:12])


def choose_the_practice_game(env: dict[str, str], data: Path, record: Path) -> None:
    """`--replay` with no file lists the practice game and a local server's newer one;
    choosing the practice game (the second) opens it."""
    from sarja.server.engine import Arrangement, Game, record_json

    moves = len(json.loads(record.read_text())["actions"])
    rng = random.Random(3)
    game = Game.new(Arrangement.of(2), rng)
    while game.outcome is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    (data / "records").mkdir()
    served = data / "records" / "20261201-120000-t1-game1.json"
    served.write_text(record_json(game, ["Cecilia", "Daniel"]), encoding="utf-8")
    later = time.time() + 60
    os.utime(served, (later, later))
    viewer = Terminal([*command("sarja-client"), "--replay"], env)
    try:
        listed = viewer.wait_for("Which game do you want to replay?")
        lines = [line for line in listed.splitlines() if " v " in line]
        assert "server" in lines[0] and "Cecilia v Daniel" in lines[0], listed
        assert "practice" in lines[1] and "Aino v Bertil" in lines[1], listed
        viewer.type("\x1b[B\r")  # ↓, Enter
        screen = viewer.wait_for(f"move 0 of {moves}")
        assert "Aino:" in screen and "Bertil:" in screen
        # The coach's analysis of the practice game, and a step to a marked move.
        viewer.type("a")
        screen = viewer.wait_for("Analysed:")
        marked = analyse(json.loads(record.read_text()))
        if marked:
            viewer.type("m")
            screen = viewer.wait_for(f"Mistake 1 of {len(marked)}")
            assert f"move {marked[0].at + 1} of {moves}" in screen and "~" in board(screen)
        else:
            assert "Analysed: no mistakes found." in screen
        viewer.type("q")
        assert viewer.finish() == 0
        assert b"Traceback" not in viewer.raw
    finally:
        viewer.close()


def test_q_leaves_the_list_of_kept_games(tmp_path):
    """The list of kept games is left as the replay is: q (or Esc, below), no failure."""
    from sarja.server.engine import Arrangement, Game, record_json

    rng = random.Random(3)
    game = Game.new(Arrangement.of(2), rng)
    while game.outcome is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    (tmp_path / "data" / "sarja" / "practice").mkdir(parents=True)
    kept = tmp_path / "data" / "sarja" / "practice" / "game.json"
    kept.write_text(record_json(game, ["Aino", "Bertil"]), encoding="utf-8")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}  # fmt: skip
    viewer = Terminal([*command("sarja-client"), "--replay"], env)
    try:
        assert "q or Esc to leave" in viewer.wait_for("Which game do you want to replay?")
        viewer.type("q")
        assert viewer.finish() == 0
        assert b"Traceback" not in viewer.raw and "move 0 of" not in viewer.text()
    finally:
        viewer.close()


def test_the_list_of_kept_games_leaves_on_q_or_esc_and_opens_on_enter():
    """The chooser itself, on a pipe: q and Esc leave it (no record), Enter picks."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from sarja.client.cli import choose_record
    from sarja.client.kept import Kept

    kept = [Kept(Path(f"{n}.json"), True, 0.0, ("Aino", "Bertil"), "Aino", 9) for n in "ab"]
    for keys, chosen in (("q", None), ("\x1b", None), ("\x1b[B\r", Path("b.json"))):
        with create_pipe_input() as keyboard, create_app_session(keyboard, DummyOutput()):
            keyboard.send_text(keys)
            assert choose_record(kept) == chosen, repr(keys)


def test_replay_with_nothing_kept_says_so(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}  # fmt: skip
    done = Terminal([*command("sarja-client"), "--replay"], env)
    try:
        assert done.finish() == 1
        assert "No game records are kept on this machine yet" in done.text()
    finally:
        done.close()


def test_practice_refuses_a_table_that_is_not_a_game(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = Terminal([*command("sarja-client"), "--practice", "--players", "5"], env)
    try:
        assert done.finish() == 2
        assert "not a Sarja game" in done.text()
    finally:
        done.close()


def test_a_hint_in_practice_is_shown_on_the_board_and_played_with_enter(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_DATA_HOME": str(tmp_path / "data")}  # fmt: skip
    argv = [*command("sarja-client"), "--practice", "--level", "easy", "--name", "Aino",
            "--pace", "0.1"]  # fmt: skip
    aino = Terminal(argv, env)
    try:
        assert "a hint" in aino.wait_for(TURN, PATIENCE)
        aino.type("a")
        # The whole space's name, not a screen drawn up to "D1" of "D10": its reason follows.
        screen = aino.wait_for(re.compile(r"Hint: (?:the \S+ (?:on|off) [A-J]\d+ \(|exchange)"))
        said = re.search(r"Hint: (?:the (\S+) (?:on|off) ([A-J]\d+)|exchange)", screen)
        assert said is not None, screen
        if said[1]:  # a card on a space: marked on the board, and Enter plays it there
            row = board(screen).splitlines()[int(said[2][1:])]
            assert "~" in row, screen
            aino.type("\r")
            aino.wait_for(re.compile(f"You (?:played|removed).*{said[2]}"))
        aino.type("q")
        aino.type("y")
        assert aino.finish() == 0
        assert b"Traceback" not in aino.raw
    finally:
        aino.close()


def test_a_practice_match_shows_its_score_after_the_first_game(tmp_path):
    """`--practice --match 2`: the first game's end shows the match's score and what
    comes next; `r` deals the second game, whose side panel keeps the score."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    argv = [*command("sarja-client"), "--practice", "--level", "easy", "--name", "Aino",
            "--pace", "0", "--match", "2"]  # fmt: skip
    aino = Terminal(argv, env)
    try:
        screen = aino.wait_for(re.compile(f"{re.escape(TURN)}|is thinking"), PATIENCE)
        assert "Match to 2: 0 – 0" in screen
        play_to_the_end(aino)
        end = aino.wait_for("Game over")
        won = re.search(r"(Blue|Green) wins \(", end)
        score = {"Blue": "Blue 1, Green 0", "Green": "Blue 0, Green 1"}
        if won is None:  # a drawn game counts for nobody
            assert "Match, first to 2: Blue 0, Green 0" in end and "Games: draw" in end
        else:
            assert f"Match, first to 2: {score[won.group(1)]}" in end
            assert f"Games: {won.group(1)}" in end
        assert "Game 2 of the match is next" in aino.wait_for("ready for the next game")
        aino.type("r")
        second = aino.wait_for(re.compile(f"{re.escape(TURN)}|is thinking"), PATIENCE)
        assert "Game over" not in second and "Match to 2: " in second
        aino.type("q")
        aino.wait_for(re.compile(r"[Qq]uit"))
        aino.type("y")
        assert aino.finish() == 0
        assert b"Traceback" not in aino.raw
    finally:
        aino.close()


def test_the_analysis_of_a_replay_steps_to_each_marked_move(tmp_path):
    """A known game (random moves, seed 3): the coach marks five moves; m and M step
    between them, each with its better move marked ~ ~ on the board."""
    from sarja.server.engine import Arrangement, Game, record_json

    rng = random.Random(3)
    game = Game.new(Arrangement.of(2), rng)
    while game.outcome is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    path = tmp_path / "game.json"
    path.write_text(record_json(game, ["Aino", "Bertil"]), encoding="utf-8")
    marked = analyse(json.loads(path.read_text()))
    assert len(marked) == 5
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    viewer = Terminal([*command("sarja-client"), "--replay", str(path)], env)
    try:
        viewer.wait_for("move 0 of")
        viewer.type("m")  # before any analysis: m starts it
        viewer.wait_for("Analysed: 5 mistakes marked")
        viewer.type("m")
        screen = viewer.wait_for("Mistake 1 of 5: Bertil played the J♣ on E1")
        assert "better: the 4♥ on F5" in screen and "~ 4♥~" in board(screen)
        viewer.type("m")
        screen = viewer.wait_for("Mistake 2 of 5")
        assert f"move {marked[1].at + 1} of" in screen
        viewer.type("M")
        viewer.wait_for("Mistake 1 of 5")
        viewer.type("q")
        assert viewer.finish() == 0
        assert b"Traceback" not in viewer.raw
    finally:
        viewer.close()
