"""`sarja-client --practice` in a real pseudo-terminal: one command, no server to start,
and a game against the computer to its end (the screen read through pyte)."""

from __future__ import annotations

import os
import re

from .test_client_e2e import PATIENCE, TURN, Terminal, command, hurry, play_to_the_end


def test_practice_starts_a_game_against_the_computer_and_plays_it(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env.pop("NO_COLOR", None)
    argv = [*command("sarja-client"), "--practice", "--level", "easy", "--name", "Aino",
            "--pace", "0.25"]  # fmt: skip
    aino = Terminal(argv, env)
    try:
        screen = aino.wait_for(re.compile(f"{re.escape(TURN)}|is thinking"), PATIENCE)
        assert "Practice" in screen and "Bertil (computer)" in screen
        if TURN in screen:
            hurry(aino)
        aino.wait_for("Bertil (computer) is thinking…")
        play_to_the_end(aino)
        end = aino.wait_for("Game over")
        assert "Bertil held:" in end or "Aino held:" in end
        aino.type("q")  # after the game, q quits at once: nothing is lost
        assert aino.finish() == 0
        assert b"Traceback" not in aino.raw
        # The practice server is gone with the client: no seat of it is remembered.
        kept = (tmp_path / "config" / "sarja" / "client.json").read_text()
        assert '"seats": {}' in kept and "Aino" in kept
    finally:
        aino.close()


def test_practice_refuses_a_table_that_is_not_a_game(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = Terminal([*command("sarja-client"), "--practice", "--players", "5"], env)
    try:
        assert done.finish() == 2
        assert "not a Sarja game" in done.text()
    finally:
        done.close()


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
        won = re.search(r"(Blue|Green) wins:", end)
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
