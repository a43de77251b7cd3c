"""The key bar at 80 columns, headless, in English and Finnish: a bar too narrow for its
items leaves out the least needed first (the usual keys, then `?`; what the moment
offers and the way out stay longest) and keeps the rest in their order."""

from __future__ import annotations

import dataclasses

from sarja.client.keybar import KeyItem, Need, fitted
from sarja.client.model import Analysis, Mark
from sarja.client.record import load
from sarja.protocol.messages import Player, Seat
from sarja.server.engine import record_json

from .client_helpers import STARTED, TABLE, TABLES, Headless, headless, snapshot
from .test_client_screens import NAMES, play_game

AWAY = snapshot(turn=1, players=(
    Player(name="Aino", side=0, away=False, held=7),
    Player(name="Bertil", side=1, away=True, held=7),
))  # fmt: skip


def shown(footer: str) -> list[str]:
    """The keys on a footer line, in their order."""
    return [item.split(" ")[0] for item in footer.strip().split(" · ")]


def test_the_fit_leaves_out_the_least_needed_first_and_keeps_the_order():
    items = [KeyItem("1", "one"), KeyItem("m", "moment", Need.MOMENT), KeyItem("2", "two"),
             KeyItem("?", "help", Need.HELP), KeyItem("q", "quit", Need.OUT)]  # fmt: skip

    def width(*shown: str) -> int:
        return len(" " + " · ".join(shown))

    assert fitted(items, width("1 one", "m moment", "2 two", "? help", "q quit")) == items
    # The usual keys first, the last of them first; then ?; the moment's and q stay.
    wanted = {
        width("1 one", "m moment", "? help", "q quit"): ["1", "m", "?", "q"],
        width("m moment", "? help", "q quit"): ["m", "?", "q"],
        width("m moment", "q quit"): ["m", "q"],
        3: ["q"],
    }
    for room, keys in wanted.items():
        assert [k.key for k in fitted(items, room)] == keys, room
    # The room a long item leaves goes to one left out before it that fits there.
    items = [KeyItem("1", "a long one"), KeyItem("2", "two"), KeyItem("q", "quit", Need.OUT)]
    assert [k.key for k in fitted(items, width("2 two", "q quit"))] == ["2", "q"]


def test_the_waiting_room_keeps_help_beside_the_computer_key(language):
    """In Finnish the bar with `a` (at a table we made) left off "? ohje"."""
    h = headless()
    h.press("n", "enter")  # the new-table form, made as it is: the table is ours
    h.feed(TABLE)
    h.press("down")  # the free seat: `a` seats a computer there
    foot = h.screen().splitlines()[-1]
    assert shown(foot)[0] == "↑↓" and {"a", "?", "q"} <= set(shown(foot)), foot
    help_word = "ohje" if language == "fi" else "help"
    assert f"? {help_word}" in foot and not h.unfit()


def test_the_game_keeps_o_and_help_when_a_player_is_away(language):
    """The English bar with `o` left off "c chat" and "? help"; keeping ? always made it
    leave off `o`. Now the usual keys go, the last first: `o`, ? and q stay, in order."""
    h = headless(STARTED, AWAY)
    foot = h.screen().splitlines()[-1]
    keys = shown(foot)
    whole = ["←↑↓→", "1-9", "Enter", "o", "c", "?", "q"]
    # Enter (play) is the screen's main step: it stayed off while "c chat" was shown.
    assert {"Enter", "o", "?", "q"} <= set(keys) and len(keys) < len(whole), foot
    assert keys == [k for k in whole if k in keys] and not h.unfit()  # in their order


def test_a_replay_keeps_its_analysis_key(language, tmp_path):
    """The replay's bar kept "? help" and left off "a analyse", the coach the README
    offers there."""
    game, _ = play_game(2, 2, 7)
    path = tmp_path / "sarja-1.json"
    path.write_text(record_json(game, NAMES[:2]), encoding="utf-8")
    h = Headless(load(path))
    keys = shown(h.screen().splitlines()[-1])
    assert {"←→", "a", "q"} <= set(keys) and not h.unfit(), keys


def test_a_bar_that_fits_is_shown_whole(language):
    h = headless(STARTED, snapshot())
    assert shown(h.screen().splitlines()[-1]) == ["←↑↓→", "1-9", "Enter", "c", "?", "q"]
    bertil = dataclasses.replace(
        TABLE, seat=1, seats=(TABLE.seats[0], Seat(name="Bertil", ready=False, away=False))
    )
    h = headless(bertil)  # another's table: no `a`
    assert shown(h.screen().splitlines()[-1]) == ["↑↓", "r", "c", "L", "?", "q"]


def test_an_analysed_replay_offers_its_mistakes(language, tmp_path):
    """Once analysed, the bar still read 'a analyse' and never showed m: what a did is
    done, and m M step to the mistakes it marked."""
    game, _ = play_game(2, 2, 7)
    path = tmp_path / "sarja-1.json"
    path.write_text(record_json(game, NAMES[:2]), encoding="utf-8")
    h = Headless(load(path))
    replay = h.model.replay
    assert replay is not None
    replay.analysis = Analysis(total=5, done=5, finished=True,
                               marks=[Mark(2, 0, "missed_win", "x", "y", 0)])  # fmt: skip
    h.press("right")  # a step redraws the bar
    foot = h.screen().splitlines()[-1]
    keys = shown(foot)
    assert "m" in keys and "a" not in keys and not h.unfit(), foot
    assert keys.index("m") < keys.index("q")


def test_the_standings_offer_their_help(language):
    """? opened the standings' help, but their bar, with room for it, did not say so."""
    h = headless(TABLES)
    h.press("t")
    foot = h.screen().splitlines()[-1]
    assert shown(foot) == ["r", "f", "Esc", "?", "q"] and not h.unfit(), foot


def test_a_chat_line_being_written_has_the_bar(language):
    """While a chat line was open the bar kept the screen's keys ('Enter to the waiting
    room', 'Enter sit'), where Enter sends the line and Esc puts it away."""
    for h in (headless(TABLE), headless(STARTED, snapshot())):
        h.press("c")
        assert h.model.overlay == "chat"
        assert shown(h.screen().splitlines()[-1]) == ["Enter", "Esc"] and not h.unfit()
        h.press("escape")
        assert h.model.overlay is None and "Esc" not in shown(h.screen().splitlines()[-1])


def test_the_list_of_kept_games_has_a_key_bar(language, monkeypatch):
    """`--replay` with no file listed the games with no key bar at its foot."""
    from pathlib import Path

    import prompt_toolkit.shortcuts

    from sarja.client.cli import choose_record
    from sarja.client.kept import Kept

    asked: dict[str, object] = {}

    def choice(message, **kw):
        asked.update(kw)
        return kw["default"]

    monkeypatch.setattr(prompt_toolkit.shortcuts, "choice", choice)
    kept = [Kept(Path("a.json"), True, 0.0, ("Aino", "Bertil"), "Aino", 9)]
    assert choose_record(kept) == Path("a.json")
    bar = asked.get("bottom_toolbar")
    assert callable(bar), asked
    foot = "".join(text for _, text, *_ in bar())
    assert shown(foot) == ["↑↓", "Enter", "q"], foot
    assert len(foot) == 80 and ("replay it" if language == "en" else "toista") in foot


def test_a_question_asked_in_the_game_has_the_bar(language):
    """While 'quit in the middle of the game?' was asked the bar kept the game's keys
    ('Enter play', 'c chat'), where only the answers work."""
    yes, no = ("y", "n") if language == "en" else ("k", "e")
    h = headless(STARTED, snapshot())
    for key, overlay in (("q", "quit"), ("L", "leave")):
        h.press(key)
        assert h.model.overlay == overlay
        assert shown(h.screen().splitlines()[-1]) == [yes, no] and not h.unfit()
        h.press(no)
        assert h.model.overlay is None and "Enter" in shown(h.screen().splitlines()[-1])
