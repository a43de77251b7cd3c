"""Words that were cut at 80×24, or missing, drawn whole there, in English and Finnish: a
name of six letters beside "(sinä)" in the game's panel, a computer's long name over its
hand at the game's end, the clock's line when it has handed our seat to the computer; a
table's hints among its rules."""

from __future__ import annotations

import dataclasses

from sarja.client.words import game as game_words
from sarja.client.words import lobby as lobby_words

from .client_helpers import HAND, RESULT, STARTED, TABLE, GamePlayer, headless, snapshot

PLAYERS = (
    GamePlayer(name="Bertil", side=0, away=False, held=6),
    GamePlayer(name="Keskitasoinen botti", side=1, away=False, held=7),
)


def panel(screen: str) -> list[str]:
    """The game panel's rows, right of the board's rule."""
    return [row.split("│", 1)[1].strip() for row in screen.splitlines() if "│" in row]


def test_the_panel_keeps_each_name_whole_and_drops_the_word_cards(language):
    """'▶ Bert… (sinä) 6 korttia', 'Keskitasoin… 7 korttia': the name and what it is
    matter more than the word for cards."""
    h = headless(STARTED, snapshot(players=PLAYERS, hand=HAND[:6]))
    rows = panel(h.screen())
    you = game_words.YOU_TAG.strip()
    assert any(r.startswith(f"▶ Bertil {you}") and " 6" in r for r in rows), rows
    assert any(r.startswith("Keskitasoinen botti") and r.endswith(" 7") for r in rows), rows
    assert "…" not in "".join(rows[:4]) and not h.unfit()


def test_the_end_of_a_game_shows_each_name_whole_over_its_hand(language):
    """'Keskitasoinen b… kädessä:': at most 16 letters of a name, though a whole one
    took no more rows."""
    h = headless(STARTED, snapshot(players=PLAYERS, hand=HAND[:6], result=RESULT))
    screen = h.screen()
    assert f"Keskitasoinen botti{game_words.HELD}" in screen and not h.unfit(), screen


def test_the_clock_handed_to_the_computer_is_said_whole(language):
    """'⏱ Tietokone pelaa puolestasi (kellosi loppui): tee siirto, niin pelaat taas its…'"""
    seats = (dataclasses.replace(STARTED.seats[0], computer="medium"), STARTED.seats[1])
    h = headless(dataclasses.replace(STARTED, seats=seats), snapshot(clocks=()))
    screen = " ".join(h.screen().split())
    assert game_words.CLOCK_HANDED in screen and not h.unfit(), screen


def test_a_table_that_allows_hints_says_so_where_its_rules_are(language):
    """The waiting room's rules said nothing of hints. (The lobby's table summary does
    not carry them: a client from before clients ignored new fields would refuse the
    whole table list while one table allowed hints.)"""
    on = lobby_words.rules_items(7, False, False, hints=True)[-1]
    assert on == {"en": "hints on", "fi": "vihjeet sallittu"}[language]
    h = headless(dataclasses.replace(TABLE, hints=True))
    screen = h.screen()
    assert on in screen and not h.unfit(), screen
    h = headless(dataclasses.replace(TABLE, hints=False))
    assert on not in h.screen()
