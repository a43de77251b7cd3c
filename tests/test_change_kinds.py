"""A new kind of change is one class, and mypy names every place that must handle it.

The test adds a kind to a copy of the tree (a class in protocol/changes.py, joined to
the `Change` union) and runs `mypy --strict` on the copy: each place that tells the
kinds apart ends in `assert_never`, so each reports the new class, and only they do.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sarja.protocol import changes
from sarja.protocol.change_wire import CHANGE_FIELDS, change_from_wire, change_to_wire

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("server", "protocol", "client", "lang")

# Every place that tells the kinds apart: (file, function).
SITES = {
    ("protocol/changes.py", "seat_only"),
    ("protocol/mirror.py", "_change"),
    ("server/hands.py", "touched"),
    ("server/hands.py", "_given_up"),
    ("client/bot.py", "plays_in"),
    ("client/words/log.py", "change_parts"),
    ("client/words/log.py", "acted"),
    ("client/words/log.py", "is_move"),
}

NEW_KIND = """

@dataclass(frozen=True, slots=True)
class Tested:
    kind: ClassVar[str] = "tested"
    seat: int
"""


def test_every_class_of_the_module_is_a_kind_of_change() -> None:
    classes = {
        v
        for v in vars(changes).values()
        if isinstance(v, type) and v.__module__ == changes.__name__
    }
    assert classes == set(changes.CHANGE_TYPES)
    assert len({cls.kind for cls in classes}) == len(classes)


def test_a_change_goes_to_the_wire_and_back_as_itself() -> None:
    made = changes.SequenceMade(seat=3, side=1, fives=((0, 4), (10, 14)))
    assert change_to_wire(made) == {"kind": "sequence", "seat": 3, "side": 1,
                                    "fives": ((0, 4), (10, 14))}  # fmt: skip
    assert change_from_wire(change_to_wire(made)) == made
    assert CHANGE_FIELDS["sequence"] == {"seat", "side", "fives"}


def _enclosing_function(lines: list[str], line: int) -> str:
    for text in reversed(lines[:line]):
        found = re.match(r"\s*def (\w+)", text)
        if found:
            return found.group(1)
    return "?"


def test_mypy_names_every_place_a_new_kind_must_be_handled(tmp_path: Path) -> None:
    tree = tmp_path / "sarja"
    tree.mkdir()
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    source = tree / "protocol" / "changes.py"
    text = source.read_text()
    union = "| SequenceMade | Won | DrawnGame | Away | Back"
    assert union in text
    text = text.replace(union, union + " | Tested").replace(
        "\n\n# Every kind", NEW_KIND + "\n\n# Every kind"
    )
    source.write_text(text)

    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    if mypy is None:
        pytest.fail("mypy is not installed: pip install -e '.[test]'")
    args = [mypy, "--strict", "--config-file", str(ROOT / "pyproject.toml")]
    args += ["--cache-dir", str(tmp_path / ".mypy_cache"), "--no-error-summary"]
    for name in PACKAGES:
        args += ["-p", f"sarja.{name}"]
    done = subprocess.run(
        args, cwd=tmp_path, env={"MYPYPATH": str(tmp_path), "PATH": ""}, text=True,
        capture_output=True, check=False,
    )  # fmt: skip
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert errors, done.stdout + done.stderr
    found = set()
    for line in errors:
        assert '"assert_never" has incompatible type "Tested"' in line, line
        path, number = line.split(":")[:2]
        relative = path.removeprefix("sarja/")
        lines = (tree / relative).read_text().splitlines()
        found.add((relative, _enclosing_function(lines, int(number))))
    assert found == SITES
    assert len(errors) == len(SITES)
