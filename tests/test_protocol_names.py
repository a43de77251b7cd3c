"""The key two names share when they look the same (protocol/names.py), and the names
that show nothing: properties over many names, and the characters that made the bug."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sarja.protocol.errors import LocalProtocolError
from sarja.protocol.messages import Hello
from sarja.protocol.names import BLANKS, name_key, same_name, shows_something

ZERO_WIDTH = "\u034f\ufe0f\ufe00\u180b\u17b4\U000e0101"  # printable, and drawn as nothing
LETTERS = "abcdefghijklmnopqrstuvwxyzäöåABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÅ0123456789-'."

names = st.text(alphabet=LETTERS + " ", min_size=1, max_size=24).filter(str.strip)


@st.composite
def look_alike(draw: st.DrawFn, name: str) -> str:
    """`name` as someone might type it to pass for its owner: letters in the other case
    or full width (U+FF01..FF5E, which NFKC makes plain), invisible characters anywhere,
    a space a blank, a blank or a few spaces more at an end."""
    out = []
    for ch in name:
        if ch == " ":
            out.append(draw(st.sampled_from([" ", "  ", *BLANKS])))
            continue
        if draw(st.booleans()):
            ch = ch.swapcase()
        if "!" <= ch <= "~" and draw(st.booleans()):
            ch = chr(ord(ch) + 0xFEE0)
        out.append(ch)
        out.append(draw(st.text(alphabet=ZERO_WIDTH, max_size=2)))
    ends = st.text(alphabet=" " + "".join(BLANKS) + ZERO_WIDTH, max_size=2)
    return draw(ends) + "".join(out) + draw(ends)


@given(st.text(max_size=30))
def test_the_key_of_a_key_is_itself(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key
    assert unicodedata.is_normalized("NFKC", key)


@given(st.data(), names)
def test_a_name_and_its_look_alike_have_one_key(data: st.DataObject, name: str) -> None:
    variant = data.draw(look_alike(name))
    assert name_key(variant) == name_key(name)
    assert same_name(variant, name) and shows_something(variant)


@pytest.mark.parametrize(
    ("a", "b"),
    [("Aino", "Aina"), ("Aino", "Aino K"), ("Jose", "José"), ("Ainö", "Aino")],
)
def test_names_that_look_different_stay_different(a: str, b: str) -> None:
    assert not same_name(a, b)


@pytest.mark.parametrize(
    "name",
    ["\u2800", "\u3164\u3164", "\u115f\u1160", "\uffa0", "\u0301", "\u0308\u0301 \u2800",
     "\u034f", " \ufe0f "],
)  # fmt: skip
def test_blanks_invisible_characters_and_lone_marks_show_nothing(name: str) -> None:
    assert not shows_something(name)
    with pytest.raises(LocalProtocolError) as refused:
        Hello(version=2, name=name)
    assert refused.value.code == "bad_text" and "shows nothing" in refused.value.message


@pytest.mark.parametrize("name", ["Aino", "Ａｉｎｏ", "a\u0301", "⠁", "ㅎ", "Ä\u2800K", "7"])
def test_a_name_with_something_to_see_is_kept_as_typed(name: str) -> None:
    assert shows_something(name)
    assert Hello(version=2, name=name).name == name
