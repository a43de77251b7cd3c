"""Chat cannot be mistaken for the game's own words in the log."""

from __future__ import annotations

from sarja.client.model import LogLine
from sarja.client.render import CHAT_MARK, _log_entry


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
