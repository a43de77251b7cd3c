"""The key two names share when they look the same (protocol/names.py), and the names
that show nothing: properties over many names, and the characters that made the bugs
(letters of other alphabets that pass for Latin ones were another name)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sarja.protocol.confusables import LOOK_ALIKES, PROTOTYPES
from sarja.protocol.errors import LocalProtocolError
from sarja.protocol.messages import Hello
from sarja.protocol.names import BLANKS, name_key, same_name, shows_something

ZERO_WIDTH = "\u034f\ufe0f\ufe00\u180b\u17b4\U000e0101"  # printable, and drawn as nothing
LETTERS = "abcdefghijklmnopqrstuvwxyzäöåABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÅ0123456789-'."

names = st.text(alphabet=LETTERS + " ", min_size=1, max_size=24).filter(str.strip)

# Cyrillic and Greek letters drawn as these Latin ones, chosen by eye (not read from
# the table under test): capitals that pass for capitals, small letters for small ones.
OTHER_ALPHABETS = {
    "A": "\u0410\u0391", "B": "\u0412\u0392", "C": "\u0421", "E": "\u0415\u0395",
    "H": "\u041d\u0397", "I": "\u0406\u0399", "J": "\u0408", "K": "\u041a\u039a",
    "M": "\u041c\u039c", "N": "\u039d", "O": "\u041e\u039f", "P": "\u0420\u03a1",
    "S": "\u0405", "T": "\u0422\u03a4", "X": "\u0425\u03a7", "Y": "\u03a5", "Z": "\u0396",
    "a": "\u0430\u03b1", "c": "\u0441", "e": "\u0435", "i": "\u0456\u03b9", "j": "\u0458",
    "o": "\u043e\u03bf", "p": "\u0440\u03c1", "s": "\u0455", "x": "\u0445", "y": "\u0443",
    "\u00c4": "\u04d2", "\u00e4": "\u04d3", "\u00d6": "\u04e6", "\u00f6": "\u04e7",
}  # fmt: skip
CYRILLIC_AND_GREEK = "".join(map(chr, [*range(0x400, 0x460), *range(0x391, 0x3CA)]))


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


@st.composite
def in_other_letters(draw: st.DrawFn, name: str) -> str:
    """`name` with some of its letters swapped for Cyrillic or Greek ones drawn alike,
    or with all of them that can be."""
    every = draw(st.booleans())
    return "".join(
        draw(st.sampled_from(OTHER_ALPHABETS[c]))
        if c in OTHER_ALPHABETS and (every or draw(st.booleans()))
        else c
        for c in name
    )


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


@given(st.data(), names)
def test_a_name_in_letters_of_other_alphabets_has_its_key(data: st.DataObject, name: str) -> None:
    variant = data.draw(in_other_letters(name))
    assert name_key(variant) == name_key(name)
    assert name_key(data.draw(look_alike(variant))) == name_key(name)


@given(st.text(alphabet=CYRILLIC_AND_GREEK + " ", max_size=12))
def test_case_still_does_not_matter_in_other_alphabets(name: str) -> None:
    # A capital's look-alike counts for its small letter too ("\u043c" is m as "\u041c"
    # is M): each letter passes for one thing, so "\u041c\u0410\u0420\u0418\u042f" and
    # "\u043c\u0430\u0440\u0438\u044f" stay one name.
    assert name_key(name.upper()) == name_key(name.lower()) == name_key(name)


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=24))
def test_ascii_is_left_as_typed_beside_any_other_character(name: str) -> None:
    # No keyboard letter becomes another ("rn" is not m, l not i): only the case, the
    # spaces, and the two digits that pass for letters, 0 for o and 1 for l.
    plain = " ".join(name.lower().replace("0", "o").replace("1", "l").split())
    assert name_key(name) == plain
    assert name_key(name + " \u00e4") == (plain + " \u00e4").strip()


# Accents above, below and on a letter, but not those that make \u00e4, \u00f6 or \u00e5.
ACCENTS = "\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u030c\u0323\u0327\u0328\u0331\u1dc4"


@given(st.data(), names)
def test_a_name_with_accents_added_is_the_name(data: st.DataObject, name: str) -> None:
    """Up to two accents on any character: a glance reads the name as it was; a
    Finnish \u00e4, \u00f6 or \u00e5 keeps its own mark whatever sits beside it."""
    accented = "".join(
        c + ("" if c == " " else data.draw(st.text(alphabet=ACCENTS, max_size=2))) for c in name
    )
    assert name_key(accented) == name_key(name) and same_name(accented, name)
    assert name_key(unicodedata.normalize("NFC", accented)) == name_key(name)


@given(st.text(alphabet=st.sampled_from(sorted(map(chr, PROTOTYPES)) + [*"aAlI ."]), max_size=8))
def test_a_key_of_look_alikes_is_its_own_key(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key and unicodedata.is_normalized("NFKC", key)


def test_the_table_holds_no_ascii_and_each_prototype_is_a_key() -> None:
    assert all(c >= 0x80 for c in PROTOTYPES)
    for prototype in LOOK_ALIKES:
        assert name_key(prototype) == prototype, ascii(prototype)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Aino", "\u0410ino"),  # a Cyrillic capital A
        ("Aino", "\u0430\u0456no"),  # Cyrillic a and i
        ("AINO", "\u0391\u0399\u039d\u039f"),  # all Greek capitals
        ("Aino", "\u0391\u03b9\u03bd\u03bf"),  # all Greek: small nu is n as its capital is N
        ("Jose", "\u0458\u043e\u0455\u0435"),  # all Cyrillic
        ("Mikko", "\u041cikko"),  # the small letter of the Cyrillic M is no Latin m
        ("Bertil", "\u0412\u0435\u0433til"),  # Cyrillic Ve, Ie and Ghe
        ("\u00c4ij\u00e4", "\u04d2ij\u0430\u0308"),  # Cyrillic A with diaeresis, or a + U+0308
        ("\u015etefan", "\u0218tefan"),  # S cedilla and S comma below: one letter in two codes
        ("Ig\u0131l", "Igil"),  # dotless i
        ("Aino", "Ain\u022f"),  # o with a dot above: an accent a glance passes over
        ("Aino", "A\u00edno"),  # i with an acute
        ("Aino", "Ai\u0301\u0323no"),  # accents as marks of their own
        ("Jose", "Jos\u00e9"),
        ("Aino", "Ain0"),  # the digits that pass for letters: 0 for o
        ("Ville", "Vi11e"),  # and 1 for l
        ("Ain\u00f6", "Ain\u0151"),  # a double acute passes for the diaeresis of \u00f6
        ("\u00c4ij\u00e4", "\u00c4\u0301ij\u1ea1\u0308"),  # \u00e4 stays \u00e4 under other accents
    ],
)
def test_names_that_look_the_same_in_other_letters_are_one_name(a: str, b: str) -> None:
    assert same_name(a, b) and same_name(b, a.upper())


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Aino", "Aina"), ("Aino", "Aino K"), ("Ainö", "Aino"), ("\u00c4ino", "Aino"),
        ("Aino", "Alno"), ("AINO", "ALNO"), ("\u00c4ij\u00e4", "Aija"), ("\u00c5sa", "Asa"),
        ("S\u00e4vel", "Savel"), ("Aino", "A1no"), ("\u00c5sa", "\u00c4sa"),
        ("Amie", "Arnie"), ("\u0141ukasz", "Lukasz"),
        ("Bj\u00f8rn", "Bjorn"), ("Aino", "\u0430\u0456\u043f\u043e"),
        ("VILLE", "VI\u04c0\u04c0E"),  # Cyrillic palochkas are I's, not l's
    ],
)  # fmt: skip
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
    assert refused.value.code == "invisible_text" and "shows nothing" in refused.value.message


# U+109E passes for a mark and a vowel sign; it shows all the same.
@pytest.mark.parametrize(
    "name", ["Aino", "Ａｉｎｏ", "a\u0301", "⠁", "ㅎ", "Ä\u2800K", "7", "\u109e"]
)
def test_a_name_with_something_to_see_is_kept_as_typed(name: str) -> None:
    assert shows_something(name)
    assert Hello(version=2, name=name).name == name
