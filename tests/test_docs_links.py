"""What the README and the docs point at is there: every relative link leads to a file
of the repository (and its #anchor to a heading in it), and every Python file they name
exists, so a reader following them finds what they were promised."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A page whose owner keeps its file names themselves (the lead's), read for its links only.
NAMES_NOT_CHECKED = {"bots.md"}


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces
    to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text("utf-8"), flags=re.S)
    return {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def tracked() -> set[str]:
    out = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return set(out.splitlines())


def test_every_relative_link_leads_somewhere() -> None:
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text("utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address, not the repository's
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), f"{page.name}: {target}"
            if anchor:
                assert anchor in anchors(linked), f"{page.name}: {target}"


def test_every_python_file_named_exists() -> None:
    files = tracked()
    names = {Path(f).name for f in files}
    for page in PAGES:
        if page.name in NAMES_NOT_CHECKED:
            continue
        for named in set(re.findall(r"[\w/.-]*\w\.py\b", page.read_text("utf-8"))):
            if "/" in named:
                assert any(f.endswith(named) for f in files), f"{page.name}: {named}"
            else:
                assert named in names, f"{page.name}: {named}"
