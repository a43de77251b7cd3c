"""The client's side of the coach, without a terminal: `a` asks for a hint at the
version on screen (only on our turn); a hint is shown only if it is one of our legal
actions for that version (its card picked, its space marked ~ ~); anything else a
server sends as a hint is dropped."""

from __future__ import annotations

import dataclasses

import pytest

from sarja import lang
from sarja.protocol.cards import cell_name
from sarja.protocol.changes import Played
from sarja.protocol.messages import AskHint, Hint, Update
from sarja.protocol.notation import parse

from .client_helpers import SNAPSHOT, STARTED, headless, snapshot


def test_a_asks_for_a_hint_and_a_good_one_is_shown_on_the_board():
    h = headless(dataclasses.replace(STARTED, hints=True), SNAPSHOT)
    assert "a hint" in h.screen()  # the table allows hints: the footer says so
    h.press("a")
    assert h.sent == [AskHint(version=12)]
    move = next(a for a in SNAPSHOT.legal if "@" in a and not a.startswith("J"))
    h.feed(Hint(version=12, action=move, reason="builds"))
    assert h.model.picked == move[:2] and h.model.hint is not None
    screen = h.screen()
    assert "Hint: the" in screen and "~" in "\n".join(screen.splitlines()[1:12])


def test_a_hint_that_is_not_a_legal_move_now_is_dropped():
    h = headless(STARTED, SNAPSHOT)
    taken = set(SNAPSHOT.legal)
    elsewhere = next(f"{c}@A2" for c in ("2S", "3S", "4S") if f"{c}@A2" not in taken)
    h.feed(Hint(version=12, action=elsewhere, reason="completes"))  # not in our legal list
    h.feed(Hint(version=11, action=SNAPSHOT.legal[0], reason="completes"))  # an old version
    assert h.model.hint is None and "Hint" not in h.screen()


def test_no_hint_is_asked_for_on_another_seats_turn():
    h = headless(STARTED, snapshot(turn=1))
    h.press("a")
    assert h.sent == [] and "A hint is for your turn" in h.screen()


def test_a_hint_goes_when_the_turn_does():
    # The clock ran out and the computer played for us: "Hint: … Marked ~ ~" stayed on
    # screen through the others' turns, with nothing marked.
    h = headless(dataclasses.replace(STARTED, hints=True), SNAPSHOT)
    h.press("a")
    move = next(a for a in SNAPSHOT.legal if "@" in a and not a.startswith("J"))
    h.feed(Hint(version=12, action=move, reason="builds"))
    assert "Hint: the" in h.screen()
    card, cell = SNAPSHOT.hand[0], SNAPSHOT.targets[0][0]
    played = Played(seat=0, card=card, cell=cell)
    h.feed(Update(version=13, changes=(played,), turn=1, draw_size=83, stand_in=True))
    assert h.model.hint is None and "Hint" not in h.screen()


def test_the_help_does_not_keep_hints_to_practice():
    # The keys page said "a  a hint (practice)" at a LAN table that allows hints too.
    h = headless(dataclasses.replace(STARTED, hints=True), SNAPSHOT)
    h.press("?", "tab")
    line = next(r for r in h.screen().splitlines() if r.lstrip().startswith("a "))
    assert "hint" in line and "practice" not in line, line


def test_a_removal_that_breaks_nothing_is_not_said_to_build_on_our_lines():
    # The coach's "builds" for a one-eyed jack read "it builds on your lines": untrue.
    from sarja.client.hints import hint_line
    from sarja.client.model import Hinted
    from sarja.client.words import coach

    removal = hint_line(Hinted(12, "JSxE2", "builds", "JS", 14))
    assert "(it frees the space for you)" in removal, removal
    assert "builds on your lines" in hint_line(Hinted(12, "2C@E2", "builds", "2C", 14))
    assert coach.analysed(0) == "Analysed: no mistakes found."


EMPTY = "*" + "." * 8 + "*" + "." * 80 + "*" + "." * 8 + "*"


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_first_move_s_hint_starts_a_line(language):
    """On an empty board the coach's "builds" read "(it builds on your lines)" / "(se
    jatkaa rivejäsi)" with no chip of ours anywhere: with none in any five through its
    space the client says it starts a line."""
    lang.use(language)
    try:
        empty = snapshot(board=EMPTY)
        move = next(a for a in empty.legal if "@" in a and not a.startswith("J"))
        h = headless(dataclasses.replace(STARTED, hints=True), empty)
        h.press("a")
        h.feed(Hint(version=12, action=move, reason="builds"))
        starts = {"en": "(it starts a line)", "fi": "(se aloittaa rivin)"}[language]
        builds = {"en": "(it builds on your lines)", "fi": "(se jatkaa rivejäsi)"}[language]
        screen = " ".join(h.screen().split())
        assert starts in screen and builds not in screen, screen
        # A chip of ours in a five through the space: it does build on it.
        cell = parse(move).cell
        assert cell is not None
        near = cell + 1 if cell % 10 < 9 else cell - 1
        ours = EMPTY[:near] + "b" + EMPTY[near + 1 :]
        h = headless(dataclasses.replace(STARTED, hints=True), snapshot(board=ours))
        move = next(a for a in h.model.game.legal if a.endswith(cell_name(cell)))
        h.feed(Hint(version=12, action=move, reason="builds"))
        screen = " ".join(h.screen().split())
        assert builds in screen and starts not in screen, screen
    finally:
        lang.use("en")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_practice_end_says_which_key_shows_the_analysis(language):
    """'…lists it, and there a shows the coach's analysis' read as if 'a' were a word."""
    from sarja.client.words import coach

    lang.use(language)
    try:
        said = {"en": "; press a there for the coach's analysis",
                "fi": "; paina siellä a, niin valmentaja analysoi"}[language]  # fmt: skip
        assert said in coach.PRACTICE_KEPT, coach.PRACTICE_KEPT
    finally:
        lang.use("en")
