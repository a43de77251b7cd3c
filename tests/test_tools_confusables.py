"""tools/confusables.py, which writes the look-alike table of names' keys, on a few
lines in confusables.txt's format: which characters it keeps and what each passes for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DATA = """\ufeff# confusables.txt
# Date: 2020-02-13, 01:38:49 GMT
# Version: 13.0.0
#
0430 ;\t0061 ;\tMA\t# ( \u0430 \u2192 a ) CYRILLIC SMALL LETTER A
0410 ;\t0041 ;\tMA\t# ( \u0410 \u2192 A ) CYRILLIC CAPITAL LETTER A
043C ;\t028D ;\tMA\t# ( \u043c \u2192 \u028d ) CYRILLIC SMALL LETTER EM
041C ;\t004D ;\tMA\t# ( \u041c \u2192 M ) CYRILLIC CAPITAL LETTER EM
03BD ;\t0076 ;\tMA\t# ( \u03bd \u2192 v ) GREEK SMALL LETTER NU
039D ;\t004E ;\tMA\t# ( \u039d \u2192 N ) GREEK CAPITAL LETTER NU
0399 ;\t006C ;\tMA\t# ( \u0399 \u2192 l ) GREEK CAPITAL LETTER IOTA
05D5 ;\t006C ;\tMA\t# ( \u05d5 \u2192 l ) HEBREW LETTER VAV
0327 ;\t0326 ;\tMA\t# ( cedilla \u2192 comma below )
00E4 ;\t0629 ;\tMA\t# ( \u00e4 \u2192 \u0629 ) composed: a key meets it decomposed
006D ;\t0072 006E ;\tMA\t# ( m \u2192 rn ) ASCII
0030 ;\t004F ;\tMA\t# ( 0 \u2192 O ) ASCII
FF41 ;\t0061 ;\tMA\t# ( \uff41 \u2192 a ) NFKC makes it a before the table
1F16D ;\t33C4 0009 20DD ;\tMA\t# CIRCLED CC, with a tab
"""


def test_the_table_keeps_what_a_key_meets_and_writes_each_as_it_passes(tmp_path):
    source = tmp_path / "confusables.txt"
    source.write_text(DATA, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "confusables.py"), str(source)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "version 13.0.0 of 2020-02-13" in done.stdout
    module: dict[str, object] = {}
    exec(compile(done.stdout, "confusables.py", "exec"), module)
    assert module["LOOK_ALIKES"] == {
        "a": "\u0430",
        "m": "\u043c",  # as its capital passes for M, not a turned w
        "n": "\u03bd",  # as its capital passes for N, not v
        "i": "\u03b9",  # the capital iota passes for I, folded: not l
        "l": "\u05d5",  # no case: as confusables.txt says
    }  # and no accent for another: a key sets both aside
    assert module["PROTOTYPES"] == {0x430: "a", 0x43C: "m", 0x3BD: "n", 0x3B9: "i",
                                    0x5D5: "l"}  # fmt: skip
