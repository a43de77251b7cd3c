"""docs/rules.md and its Finnish twin, docs/rules.fi.md, say the same: the board the
engine plays on, the rulings marked the one way the page says, and every section and
ruling in both languages (rules.fi.md says it is the same rules and the same rulings).
The refusal codes and sentences are test_protocol_docs.py's."""

from __future__ import annotations

import re
from pathlib import Path

from sarja.server.engine.board import LAYOUT_CODES

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text("utf-8")
RULES_FI = (ROOT / "docs" / "rules.fi.md").read_text("utf-8")


def test_the_board_drawn_is_the_engine_s() -> None:
    drawn = RULES.split("**The board.**", 1)[1].split("```")[1]
    rows = [line.split()[1:] for line in drawn.strip().splitlines()[1:]]
    assert [code for row in rows for code in row] == list(LAYOUT_CODES)


def test_every_ruling_is_marked_as_the_page_says() -> None:
    assert "Those places are marked **Our ruling:**." in RULES
    assert "**Decision" not in RULES  # the rule book's word, not the players' page's


def test_the_finnish_page_has_every_section_and_ruling() -> None:
    sections = re.findall(r"^## ", RULES, re.M)
    assert len(re.findall(r"^## ", RULES_FI, re.M)) == len(sections)
    rulings = RULES.count("**Our ruling")
    assert rulings > 0 and RULES_FI.count("**Meidän ratkaisumme") == rulings
