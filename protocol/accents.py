"""The accents a name's key sets aside (protocol/names.py), and those it keeps: a
person glancing at a name reads "Aíno" or "Ainȯ" as Aino, a Finn reads "Äino" as
another name. Used by tools/confusables.py too, so the look-alike table's prototypes
are keys already. Pure.
"""

import re

# Accents and dots above and below a letter (the combining diacritical marks of every
# alphabet, in their four blocks and the half marks): a key sets them aside, as a person
# glancing at a name does ("Aíno", "Ainȯ" are Aino). Not the strokes drawn through a
# letter (U+0334..U+0338: ø, ł, đ), which read as a letter of its own.
_DIACRITIC = re.compile(
    "[\u0300-\u0333\u0339-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
)
# But the Finnish (and Swedish) letters ä, ö and å are letters, not a and o with an
# accent: their marks stay, and a double acute passes for the diaeresis (ő for ö).
_LETTER_MARKS = {
    "a": {"\u0308": "\u0308", "\u030b": "\u0308", "\u030a": "\u030a"},
    "o": {"\u0308": "\u0308", "\u030b": "\u0308"},
}
# The two digits that pass for letters in confusables.txt: 0 for O, 1 for l.
DIGITS = str.maketrans({"0": "o", "1": "l"})


def plain(text: str) -> str:
    """`text` (decomposed and case-folded) with its accents set aside but for the
    first on a letter that makes ä, ö or å, and the digits that pass for letters
    written as those letters."""
    out: list[str] = []
    keeps: dict[str, str] = {}
    for c in text:
        if not _DIACRITIC.match(c):
            out.append(c)
            keeps = _LETTER_MARKS.get(c, {})
        elif c in keeps:
            out.append(keeps[c])
            keeps = {}  # one mark makes the letter; the rest are accents on it
    return "".join(out).translate(DIGITS)
