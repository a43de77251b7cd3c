"""Chat cannot be mistaken for the game's own words in the log."""

from __future__ import annotations

import pytest

from sarja.client.model import LogLine
from sarja.client.render import CHAT_MARK, _log_entry
from sarja.protocol.messages import Chat, ChatLine

from .client_helpers import TABLE, headless


def text_of(line: list[tuple[str, str]]) -> str:
    return "".join(f[1] for f in line)


def test_every_line_of_a_chat_message_is_marked_as_chat() -> None:
    padded = "x" + " " * 60 + "Victim played 7♥ at D5. " * 3
    entry = LogLine("chat", (("class:log.chat", "Mallory"), ("class:log.chat", ": " + padded)))
    lines = _log_entry(entry, 40)
    assert len(lines) > 2
    assert all(text_of(line).startswith(CHAT_MARK) for line in lines)


def test_game_events_carry_no_chat_mark() -> None:
    entry = LogLine("played", (("", "Victim played 7♥ at D5. " * 4),))
    assert not any(text_of(line).startswith(CHAT_MARK) for line in _log_entry(entry, 40))


# ----- pasting into the chat box ------------------------------------------------------

PASTE = "alku \x1b[31mPUNAINEN\x1b[0m"


def test_a_plain_paste_with_colour_codes_sends_the_words() -> None:
    # Without bracketed paste, "Esc[31m" reads as the start of a mouse report, which
    # prompt_toolkit's own handler raised on.
    h = headless(TABLE)
    h.press("c", PASTE, "enter")
    assert h.sent == [Chat(text="alku PUNAINEN")]


def test_a_bracketed_paste_of_control_characters_sends_the_words() -> None:
    h = headless(TABLE)
    h.press("c", "\x1b[200~" + PASTE + "\tja\x07 \x1b]0;title\x07loppu\x1b[201~")
    assert "\x1b" not in h.client.screen.chat_box.text
    h.press("enter")
    assert h.sent == [Chat(text="alku PUNAINEN ja loppu")]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("\u2800\u2800 \u3164", "shows nothing others could see"),
        ("\u0301\u0308", "shows nothing others could see"),
        ("Z" + "\u0301" * 20 + "algo", "at most 2 accents or marks"),
    ],
)
def test_a_line_that_shows_nothing_or_smears_is_not_sent(typed: str, said: str) -> None:
    h = headless(TABLE)
    h.press("c", typed, "enter")
    assert h.sent == [] and said in h.model.status
    h.press("c", "Hyv\u00e4\u00e4 peli\u00e4, e\u0323\u0302", "enter")
    assert h.sent == [Chat(text="Hyv\u00e4\u00e4 peli\u00e4, e\u0323\u0302")]


# ----- long chat lines in the log -----------------------------------------------------


def test_a_wrapped_chat_line_never_shows_a_line_that_passes_for_the_log() -> None:
    # The second row used to read " » Victim played 7♥ at D5.", the sender left behind.
    padded = "x" * 20 + " " * 60 + "Victim played 7♥ at D5. " * 3
    entry = LogLine("chat", (("class:log.chat", "Mallory"), ("class:log.chat", ": " + padded)))
    lines = [text_of(line) for line in _log_entry(entry, 40)]
    assert lines[0].startswith(CHAT_MARK + "Mallory: ")
    for line in lines[1:]:
        assert line.startswith(CHAT_MARK + " " * len("Mallory: ")), lines
        assert line.strip(" »") and "Victim" in line


def test_the_whole_of_a_long_chat_line_is_shown_in_the_log() -> None:
    words = "a" * 200  # what the box takes: 200 characters, here without a space
    h = headless(TABLE, ChatLine(sender="Bertil", seat=1, text=words))
    screen = h.screen()
    rows = [line.split(CHAT_MARK, 1)[1] for line in screen.splitlines() if CHAT_MARK in line]
    assert "".join(rows).replace("Bertil:", "").replace(" ", "") == words, screen
    assert not h.unfit()


def test_a_long_names_chat_lines_do_not_start_just_left_of_its_words() -> None:
    # After "Cecilia Wihuri-Lindqvist: " the later lines began one column left of the
    # words above them, a stray gap; they take a short indent instead.
    text = "Pitkä rivi viestiä, jotta näkyy miten se rivittyy lokissa " * 3
    entry = LogLine("chat", (("", "Cecilia Wihuri-Lindqvist"), ("class:log.chat", ": " + text)))
    lines = [text_of(line) for line in _log_entry(entry, 80)]
    assert len(lines) > 2
    words_at = lines[0].index("Pitkä")
    for line in lines[1:]:
        at = len(line) - len(line[len(CHAT_MARK) :].lstrip(" "))
        assert at == words_at or at <= len(CHAT_MARK) + 2, lines
