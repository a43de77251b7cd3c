"""The help's keys page lists, on each screen "?" opens it on, every key bound there and
nothing else: each key a player can press on the screen under the help (the real key
bindings' filters, asked as prompt_toolkit asks them), each line drawn whole at 80×24
and at a big window, in English and in Finnish."""

from __future__ import annotations

import re

import pytest
from prompt_toolkit.key_binding.key_bindings import _parse_key
from prompt_toolkit.keys import Keys

from sarja import lang
from sarja.client import model as m
from sarja.client.record import load
from sarja.client.words import help as help_words
from sarja.server.engine import record_json

from .client_helpers import SNAPSHOT, STARTED, TABLE, TABLES, Headless, headless
from .test_client_screens import NAMES, play_game

MOUSE = Keys.Vt100MouseEvent.value


def _name(key: object) -> str:
    return key.value if isinstance(key, Keys) else str(key)


def active(h: Headless) -> set[str]:
    """The keys whose bindings are active now (the mouse's always is)."""
    kb = h.client.app.key_bindings
    assert kb is not None
    keys = {_name(k) for b in kb.bindings if b.filter() for k in b.keys}
    return keys - {MOUSE}


def listed(h: Headless) -> list[str]:
    """The keys the open help lists, as prompt_toolkit names them."""
    return [_name(_parse_key(k)) for _, keys in h.model.help_keys for k in keys]


def replay(tmp_path) -> Headless:
    game, _ = play_game(2, 2, 7)
    path = tmp_path / "sarja-1.json"
    path.write_text(record_json(game, NAMES[:2]), encoding="utf-8")
    return Headless(load(path))


def screens(tmp_path) -> dict[str, Headless]:
    standings = headless(TABLES)
    standings.press("t")
    connect = Headless(m.Model(address="host:7474", name="Aino", named=True,
                               link="unreachable", link_text="No answer."))  # fmt: skip
    form, form_field = headless(TABLES), headless(TABLES)
    form.press("n")  # on the name's field, where ? is a letter: F1 opens the help
    form_field.press("n", "down")
    return {
        "connect": connect, "lobby": headless(TABLES), "standings": standings,
        "waiting room": headless(TABLE), "game": headless(STARTED, SNAPSHOT),
        "replay": replay(tmp_path), "new-table form": form, "form's field": form_field,
    }  # fmt: skip


OPENS_HELP = {"new-table form": "f1"}  # the key that opens the help there, if not ?


@pytest.mark.parametrize("language", ["en", "fi"])
def test_each_screen_s_help_lists_exactly_the_keys_bound_on_it(tmp_path, language):
    lang.use(language)
    for where, h in screens(tmp_path).items():
        bound = active(h)
        h.press(OPENS_HELP.get(where, "?"))
        assert h.model.overlay == "help", where
        keys = listed(h)
        assert len(keys) == len(set(keys)), f"{where}: a key on two lines: {keys}"
        shown = set(keys) - {MOUSE}
        assert shown == bound, f"{where}: bound not listed {bound - shown}, " \
            f"listed not bound {shown - bound}"  # fmt: skip
        # What a click does, where one does something (tables, seats, cards, spaces).
        assert (MOUSE in keys) == (where in ("lobby", "waiting room", "game")), where
        if h.model.help_page == 0:  # the form's opens on its keys
            h.press("tab")
        for size in ((80, 24), (132, 43)):
            page = " ".join(h.screen(*size).split())
            assert not h.unfit(*size), (where, size)
            for say, line_keys in h.model.help_keys:
                label = " ".join(help_words.key_label(line_keys).split())
                assert f"{label} {help_words.KEYS[say]}" in page, (where, size, say, page)
        h.press("escape")


def test_the_game_s_help_says_what_the_mouse_does_and_the_replay_s_its_keys(tmp_path):
    h = headless(STARTED, SNAPSHOT)
    h.press("?", "tab")
    page = h.screen()
    assert "mouse" in page and "click a card to pick it" in page
    assert "1…9 0" in page and "↑↓←→ k j h l" in page and "q Ctrl-C" in page
    h = replay(tmp_path)
    h.press("?", "tab")
    page = h.screen()
    for words in ("PgUp PgDn", "ten moves back / on", "g G Home End", "m M", "analyse"):
        assert words in page, (words, page)


def test_the_help_opened_on_the_standings_closes_back_to_them():
    h = headless(TABLES)
    h.press("t", "?")
    assert h.model.overlay == "help"
    h.press("escape")
    assert h.model.overlay == "standings"
    h.press("escape")
    assert h.model.overlay is None


def test_q_answers_no_to_forget_me_as_to_the_other_questions():
    h = headless(TABLES)
    h.press("t", "f")
    assert h.model.forget_asked
    h.sent.clear()
    h.press("q")
    assert not h.model.forget_asked and h.model.overlay == "standings"
    assert not h.client.app.is_done and h.model.goodbye == ""


def test_the_help_closes_when_the_screen_under_it_changes():
    # The help opened in the waiting room stayed up over the game that started under it,
    # its keys page still the waiting room's: "1…9 sit in that seat", "r ready", "a a
    # computer", where 1…9 now picked cards, r asked for a rematch and a for a hint.
    h = headless(TABLE)
    h.press("?")
    h.feed(STARTED, SNAPSHOT)
    assert h.model.overlay is None and "Keys" not in h.screen()
    h.press("?")  # the game's own, now
    assert set(listed(h)) - {MOUSE} >= {"x", "p", "0"}
    # Nor do the standings, over the lobby, stay up over a table's screen.
    h = headless(TABLES)
    h.press("t", "?")
    h.feed(TABLE)
    assert h.model.overlay is None
    h = headless(TABLES)
    h.press("t", "f")  # "forget me?" asked, and not answered
    h.feed(TABLE)
    assert h.model.overlay is None and not h.screen().splitlines()[0].endswith("standings")
    h.press("?")
    assert h.model.overlay == "help"


def test_the_quit_line_says_the_seat_is_kept_only_where_there_is_one(tmp_path):
    """It said "asks first during a game; the seat is kept" on every screen, the lobby
    and a replay too, where there is no seat to keep."""
    for where, h in screens(tmp_path).items():
        h.press(OPENS_HELP.get(where, "?"))
        lines = {say: keys for say, keys in h.model.help_keys}
        seated = where == "game"
        assert ("quit seated" in lines) == seated and ("quit" in lines) != seated, where
        q = set() if "form" in where else {"q"}  # q is a letter of a table's name there
        assert set(lines["quit seated" if seated else "quit"]) == {*q, "c-c"}, where
        if h.model.help_page == 0:
            h.press("tab")
        page = " ".join(h.screen().split())
        assert ("the seat is kept" in page) == seated, (where, page)


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_rules_page_has_a_blank_line_between_paragraphs_at_80x24(language):
    """The page spaces its paragraphs only when every gap fits: in Finnish, a line longer
    than the English, the rules ran on without one."""
    lang.use(language)
    try:
        h = headless(TABLES)
        h.press("?")
        rows = h.screen().splitlines()[1:-1]  # below the title, above the keys
        while rows and not rows[-1].strip():
            rows.pop()  # the room left over
        firsts = [" " + " ".join(p.split()[:2]) for p in help_words.RULES]
        starts = [i for i, row in enumerate(rows) if any(row.startswith(f) for f in firsts)]
        assert len(starts) == len(help_words.RULES), rows
        assert all(not rows[i - 1].strip() for i in starts[1:]), "\n".join(rows)
        assert sum(not row.strip() for row in rows) == len(help_words.RULES) - 1
    finally:
        lang.use("en")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_new_table_form_has_its_help(language):
    """The form had none: ? on its name's field was typed into the name, and on the other
    fields did nothing. F1 opens it anywhere on the form, ? off the name's field; the
    page lists the form's keys, the bar says how, and closing it goes back to the form."""
    lang.use(language)
    try:
        h = headless(TABLES)
        h.press("n", "A", "?")
        # typing replaces the name the form offers (it used to append: "Aino's tableA?")
        assert h.model.overlay == "create" and h.model.form.name == "A?"
        assert shown(h)[-2:] == ["F1", "Esc"], h.screen().splitlines()[-1]
        h.press("f1")
        assert h.model.overlay == "help" and h.model.help_page == 1
        says = [say for say, _ in h.model.help_keys]
        assert {"form field on", "form field back", "create", "cancel form", "help"} <= set(says)
        page = h.screen()
        assert help_words.KEYS["create"] in page and not h.unfit(), page
        # each key with its own meaning: ↑↓ and Tab once read "next / the one before"
        assert re.search(r"↑ Shift-Tab +" + re.escape(help_words.KEYS["form field back"]), page)
        assert re.search(r"↓ Tab +" + re.escape(help_words.KEYS["form field on"]), page), page
        h.press("escape")
        # typing replaces the name the form offers (it used to append: "Aino's tableA?")
        assert h.model.overlay == "create" and h.model.form.name == "A?"
        h.press("down")
        assert shown(h)[-2:] == ["?", "Esc"] and not h.unfit()
        h.press("?")
        assert h.model.overlay == "help"
        assert {"form change", "form digits"} <= {say for say, _ in h.model.help_keys}
        h.press("?")
        assert h.model.overlay == "create" and h.model.form.field == 1
    finally:
        lang.use("en")


def shown(h: Headless) -> list[str]:
    """The keys on the screen's key bar, in their order."""
    return [item.split(" ")[0] for item in h.screen().splitlines()[-1].strip().split(" · ")]


def test_the_finnish_questions_answer_k_or_e():
    """'Lopetetaanko kesken pelin? Paikkasi säilyy. y / n': Finnish answers k (kyllä) or
    e (ei); the questions say so and take them (y and n still work)."""
    lang.use("fi")
    try:
        h = headless(STARTED, SNAPSHOT)
        h.press("q")
        assert h.model.overlay == "quit"
        screen = h.screen()
        assert "k / e" in screen and "y / n" not in screen, screen
        h.press("e")
        assert h.model.overlay is None and not h.client.app.is_done
        h.press("q", "k")
        assert h.model.goodbye  # quit, the seat kept
        h = headless(TABLES)
        h.press("t", "f")
        foot = h.screen().splitlines()[-1]
        assert foot.split() == ["k", "unohda", "minut", "·", "e", "älä", "unohda"], foot
        h.press("e")
        assert not h.model.forget_asked and h.model.overlay == "standings"
        h.press("f")
        h.sent.clear()
        h.press("k")
        assert not h.model.forget_asked and h.sent, h.sent
    finally:
        lang.use("en")
