"""docs/protocol.md describes exactly what the code does."""

import re
from pathlib import Path

from sarja.protocol import CODES
from sarja.protocol.limits import (
    CLIENT_DECODE,
    MAX_CLIENT_FRAME,
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    SERVER_DECODE,
)
from sarja.protocol.messages import CLIENT_MESSAGES, EVENT_KINDS, SERVER_MESSAGES
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED, TRANSITIONS, SessionState

DOC = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text("utf-8")


def test_every_message_type_is_documented() -> None:
    headings = set(re.findall(r"^### `(\w+)`$", DOC, re.M))
    assert headings == set(CLIENT_MESSAGES) | set(SERVER_MESSAGES)


def test_every_field_of_every_message_is_in_its_section() -> None:
    for t in (*CLIENT_MESSAGES, *SERVER_MESSAGES):
        cls = CLIENT_MESSAGES.get(t) or SERVER_MESSAGES[t]
        section = DOC.split(f"### `{t}`\n", 1)[1].split("\n### ", 1)[0]
        for key in cls._KEYS:
            assert f"| {key} |" in section, (t, key)
        if t == "chat":  # two shapes share the name: the server's is in section 6
            server = DOC.split("## 6.", 1)[1].split("### `chat`\n", 1)[1].split("\n### ", 1)[0]
            for key in SERVER_MESSAGES["chat"]._KEYS:
                assert f"| {key} |" in server, key


def test_every_error_code_is_documented() -> None:
    for code, meaning in CODES.items():
        assert re.search(rf"^\| `{code}` \| (yes|no) \| {re.escape(meaning)} \|$", DOC, re.M), code


def test_every_event_kind_is_documented() -> None:
    documented = re.findall(r"^\| `(\w+)` \| ", DOC.split("## 8.", 1)[1].split("## 9.")[0], re.M)
    assert documented == list(EVENT_KINDS)


def test_state_machine_tables_match_the_code() -> None:
    for s in SessionState:
        c = ", ".join(f"`{t}`" for t in sorted(CLIENT_ALLOWED[s]))
        v = ", ".join(f"`{t}`" for t in sorted(SERVER_ALLOWED[s]))
        assert f"| `{s}` | {c} | {v} |" in DOC
    rows = re.findall(r"^\| `(\w+)` \| `([\w:]+)` \| `(\w+)` \|$", DOC, re.M)
    assert rows == [(s.value, t, n.value) for (s, t), n in TRANSITIONS.items()]


def test_limits_are_the_documented_ones() -> None:
    assert f"**{MAX_CLIENT_FRAME}** bytes" in DOC and f"**{MAX_SERVER_FRAME}** bytes" in DOC
    assert PROTOCOL_VERSION == 1 and "version 1" in DOC
    for label, key in [
        ("string (UTF-8 bytes)", "max_str_len"),
        ("array (items)", "max_array_len"),
        ("map (entries)", "max_map_len"),
        ("nesting depth (the message map is depth 1)", "max_depth"),
    ]:
        assert f"| {label} | {CLIENT_DECODE[key]} | {SERVER_DECODE[key]} |" in DOC


def test_docs_name_no_machine_paths() -> None:
    assert re.search(r"/(?:work|home)/", DOC) is None
