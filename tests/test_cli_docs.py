"""The commands' options and the docs agree: every option of sarja-server (and of its
export, standings and forget), sarja-client and sarja-bot is documented, hosting.md's
option tables give the defaults the code has, a default a `--help` line states is the
code's, and every option the README and hosting.md name exists.

The parsers are read in this process: argparse's `parse_args` is replaced by one that
hands back the parser it was called on, so nothing is parsed, started or printed.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sarja.client import bot as bot_cli
from sarja.client import cli as client_cli
from sarja.client.practice import PACE
from sarja.server import cli as server_cli
from sarja.server.bots.search import DEFAULT_THINK_TIME
from sarja.server.config import default_search_workers
from sarja.server.export import export_main
from sarja.server.standings_cli import forget_main, standings_main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")
HOSTING = (ROOT / "docs" / "hosting.md").read_text("utf-8")
BOTS = (ROOT / "docs" / "bots.md").read_text("utf-8")

# Defaults the code works out after parsing (the parser holds None, or a number of this
# machine's): what the docs and `--help` must say instead.
WORKED_OUT: dict[str, dict[str, Any]] = {
    "sarja-server": {"--search-workers": default_search_workers()},
    "sarja-client": {"--pace": PACE},
    "sarja-bot": {"--think-time": DEFAULT_THINK_TIME},
}
# Options of other programs the docs name (a firewall's, the type checker's, the formatter's).
FOREIGN = {"--add-port", "--add-service", "--permanent", "--strict", "--check"}


class _Parser(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


def parser_of(
    main: Callable[[list[str]], Any], monkeypatch: pytest.MonkeyPatch
) -> argparse.ArgumentParser:
    def hand_back(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise _Parser(self)

    with monkeypatch.context() as patch:
        patch.setattr(argparse.ArgumentParser, "parse_args", hand_back)
        with pytest.raises(_Parser) as caught:
            main([])
    return caught.value.parser


COMMANDS: dict[str, Callable[[list[str]], Any]] = {
    "sarja-server": server_cli.parse_args,
    "sarja-server export": export_main,
    "sarja-server standings": standings_main,
    "sarja-server forget": forget_main,
    "sarja-client": client_cli.parse_args,
    "sarja-bot": bot_cli.parse_args,
}
# Where each command's options are documented.
DOCUMENTED_IN = {
    "sarja-server": HOSTING,
    "sarja-server export": HOSTING,
    "sarja-server standings": HOSTING,
    "sarja-server forget": HOSTING,
    "sarja-client": HOSTING,
    "sarja-bot": BOTS,
}


def options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The options `--help` shows, each by its long name (else its only one)."""
    return {
        action.option_strings[-1]: action
        for action in parser._actions
        if action.option_strings
        and action.help != argparse.SUPPRESS
        and not isinstance(action, argparse._HelpAction)
    }


@pytest.fixture(scope="module")
def parsers() -> dict[str, argparse.ArgumentParser]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return {name: parser_of(main, monkeypatch) for name, main in COMMANDS.items()}


def default_of(command: str, option: str, action: argparse.Action) -> Any:
    return WORKED_OUT.get(command, {}).get(option, action.default)


def test_every_option_is_documented(parsers: dict[str, argparse.ArgumentParser]) -> None:
    for command, parser in parsers.items():
        for option in options(parser):
            named = re.search(rf"`[^`]*{re.escape(option)}\b", DOCUMENTED_IN[command])
            assert named is not None, f"{command} {option} is not in its docs"


def option_table(text: str, heading: str) -> dict[str, str]:
    """The option rows of the table under `heading`: option -> its default cell."""
    part = text.split(heading + "\n", 1)[1]
    part = re.split(r"^#{2,4} ", part, flags=re.M)[0]
    rows = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `--"):
            rows[cells[0].strip("`").split()[0]] = cells[1]
    return rows


@pytest.mark.parametrize(
    ("command", "heading"),
    [("sarja-server", "### Options"), ("sarja-client", "### The client's options")],
)
def test_hosting_md_gives_each_option_its_default(
    parsers: dict[str, argparse.ArgumentParser], command: str, heading: str
) -> None:
    rows = option_table(HOSTING, heading)
    shown = options(parsers[command])
    assert set(rows) == set(shown), command
    for option, cell in rows.items():
        action = shown[option]
        default = default_of(command, option, action)
        said = re.fullmatch(r"`([^`]+)`", cell)
        if isinstance(action, argparse._StoreTrueAction):
            assert cell == "off", option
        elif said is not None:
            assert said.group(1) == str(default), option
        else:  # in words: the code leaves it to be worked out, or works it out itself
            assert default is None or option in WORKED_OUT.get(command, {}), option


def test_a_default_a_help_line_states_is_the_code_s(
    parsers: dict[str, argparse.ArgumentParser],
) -> None:
    for command, parser in parsers.items():
        for option, action in options(parser).items():
            text = " ".join((action.help or "").split()) % {"default": action.default}
            said = re.search(r"\bdefault:? ([\w.]+)[;,)]", text)
            if said is not None and said.group(1) not in ("the", "ask", "one"):
                default = default_of(command, option, action)
                assert said.group(1) == str(default), (command, option, text)


def test_the_options_the_docs_name_exist(parsers: dict[str, argparse.ArgumentParser]) -> None:
    known = {o for parser in parsers.values() for o in parser._option_string_actions}
    for text in (README, HOSTING):
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text)) - FOREIGN
        assert named <= known, named - known
