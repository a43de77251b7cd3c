"""Players' names as people see them: whether a name shows anything, and the key by
which two names that look the same are the same name.

A name is shown as it was typed; only these comparisons normalise it. Pure.
"""

import functools
import re
import unicodedata

from .accents import DIGITS, plain
from .confusables import PROTOTYPES

# Characters that are drawn as a blank, not as nothing: they count as a space.
BLANKS = frozenset("\u2800\u115f\u1160\u3164\uffa0")  # Braille blank, the Hangul fillers

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing
# (zero-width spaces and joiners, variation selectors, the combining grapheme joiner,
# tags, ...). Most are also unprintable (format characters), and refused as such.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip


# Blanks first become spaces, then what is left of those ranges goes.
_TO_SPACE = str.maketrans(dict.fromkeys(BLANKS, " "))
_INVISIBLE = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _IGNORABLE) + "]")


def _fold_once(name: str, look_alikes: bool) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    text = _INVISIBLE.sub("", text.translate(_TO_SPACE))
    if look_alikes:  # decomposed, so an accent stays apart from the letter it sits on
        text = plain(unicodedata.normalize("NFD", text).translate(PROTOTYPES))  # confusables.py
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _folded(name: str, look_alikes: bool) -> str:
    key = _fold_once(name, look_alikes)
    # Folding can undo a normalisation (and dropping a character join two others):
    # again until it holds, which takes one more round for any name met so far.
    for _ in range(3):
        again = _fold_once(key, look_alikes)
        if again == key:
            break
        key = again
    return key


@functools.lru_cache(maxsize=4096)  # a table compares each newcomer with all its names
def name_key(name: str) -> str:
    """What two names must share to be the same name: compatibility forms made plain
    (NFKC: "Ａｉｎｏ" is "Aino"), case folded, invisible characters dropped, blanks and
    runs of spaces one space, none at the ends; a character that passes for another
    written as the one it passes for (UTS #39's confusables: "\u0410ino" with a Cyrillic
    A is Aino); accents set aside but for ä, ö and å ("Aíno" is Aino, "Äino" is not);
    and 0 and 1 written as o and l ("Ain0" is Aino), though no ASCII letter for another
    ("Alno" is not Aino)."""
    if name.isascii():  # NFKC changes no ASCII, case folds as lower() does, no accent
        return " ".join(name.lower().translate(DIGITS).split())
    return _folded(name, look_alikes=True)


def shows_something(name: str) -> bool:
    """Whether any of the name is left to see once its blanks and invisible characters
    are gone: not only spaces and combining marks (a lone accent has nothing to sit on)."""
    seen = _folded(name, look_alikes=False)  # as drawn, not as what it passes for
    return any(not c.isspace() and unicodedata.category(c)[0] != "M" for c in seen)


def marks_in_a_row(text: str) -> int:
    """The most combining marks (accents, vowel signs, enclosing circles) that follow
    one character: a few make letters of many alphabets, many stack into a smear over
    the lines around it."""
    most = run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c)[0] == "M" else 0
        most = max(most, run)
    return most


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)
