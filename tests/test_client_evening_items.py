"""The smaller things an evening's play found on screen, each where it is made: `o`
before the away minute, the finder's first choice and its "your seat", the tall board,
the standings on the host's terminal, practice's name question, sarja-bot's choice
among servers, the host's stopping line and argparse's own words in Finnish."""

from __future__ import annotations

import argparse
import re
from types import SimpleNamespace

import pytest

from sarja import lang
from sarja.client import app as client_app
from sarja.client import bot as sarja_bot
from sarja.client import model as m
from sarja.client.find_screen import FindScreen
from sarja.client.words import game as game_words
from sarja.protocol.changes import Away
from sarja.protocol.discovery import Found
from sarja.protocol.limits import PROTOCOL_VERSION
from sarja.protocol.messages import CreateTable, HandOver, TableList, Update
from sarja.protocol.standing import Standing
from sarja.server import cli as server_cli
from sarja.server import standings_cli
from sarja.server.standings_read import Line

from .client_helpers import KEY, SNAPSHOT, STARTED, TABLES, Headless, headless


@pytest.fixture
def clock(monkeypatch):
    """The client app's clock, moved by hand."""
    now = SimpleNamespace(t=1000.0)
    monkeypatch.setattr(client_app, "time", SimpleNamespace(monotonic=lambda: now.t))
    return now


def bertil_goes_away(version: int = 13) -> Update:
    return Update(version=version, changes=(Away(seat=1),), turn=0, draw_size=83)


def test_o_is_offered_once_the_away_minute_is_over_and_says_how_long_before(clock):
    # `o` was in the keys at once, and refused for a minute without saying how long.
    h = headless(STARTED, SNAPSHOT)
    h.feed(bertil_goes_away())
    clock.t += 20
    assert " o " not in h.screen().splitlines()[-1]
    h.press("o")
    assert h.sent == []
    assert h.model.status == game_words.hand_over_in("Bertil", 40)
    assert "in 40 seconds" in " ".join(h.screen().split())
    clock.t += 41
    h.press("o")
    assert h.sent == [HandOver(seat=1)]
    # (A seat away already when we came is left to the server: test_client_handover.py.)


def found(key: str, name: str, server_id: str) -> Found:
    return Found(key, "127.0.0.1", 7474, name, server_id, PROTOCOL_VERSION, 1)


def test_the_finder_chooses_the_first_listed_until_the_player_chooses():
    # It opened on whichever server answered first, though another was listed above it.
    screen = FindScreen("127.0.0.1", {}, set())
    listed = [found("b", "Mökki", "idb")]
    screen.finder.servers = lambda: listed  # type: ignore[method-assign]
    screen._changed()
    listed = [found("a", "Kotona", "ida"), found("b", "Mökki", "idb")]
    screen._changed()
    assert screen.chosen == 0
    text = "".join(t for _, t in screen.lines())
    assert re.search(r"› Kotona", text), text


def test_your_seat_is_said_only_where_a_seat_waits():
    """The finder said "your seat" of every server a name had a token at, also after
    leaving one's only table: the client keeps where a seat waits, as it changes."""
    h = headless(TABLES)
    assert h.client.settings.held == []
    h.feed(STARTED, SNAPSHOT)
    assert h.client.settings.held == [KEY]  # by the key the server proved it holds
    h.feed(TableList(tables=()))  # left the table after the game: back in the lobby
    h.model.table = None
    h.model.game = None
    h.feed(TableList(tables=()))
    assert h.client.settings.held == []


def test_the_board_grows_taller_on_a_tall_terminal():
    # At 160×50 it got wider but not taller: ten rows on eleven lines of fifty.
    h = headless(STARTED, SNAPSHOT, columns=160, rows=50)
    lines = h.screen().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(" 1 "))
    last = next(i for i, line in enumerate(lines) if line.startswith("10 "))
    assert last - first == 18, "\n".join(lines)
    assert not h.unfit(160, 50)
    low = headless(STARTED, SNAPSHOT)
    lines = low.screen().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(" 1 "))
    assert lines[first + 9].startswith("10 ")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_hosts_standings_fit_80_columns_and_say_what_their_heads_mean(language):
    # In Finnish the table was about 100 columns wide; its heads were never explained.
    figures = dict(games=120, wins=61, losses=50, draws=9, sequences=140, removed=75,
                   exchanged=12, move_ms=8_400, rating=215)  # fmt: skip
    people = [
        Line("ab" * 32, Standing(name="Aino Aleksandra Karlsson", **figures), 1.0),
        Line(
            "computer:medium", Standing(name="Computer (medium)", computer="medium", **figures), 0.5
        ),
    ]
    lang.use(language)
    try:
        lines = standings_cli.format_lines(people)
        said = " ".join(standings_cli.legend())
    finally:
        lang.use("en")
    assert all(len(line) <= 80 for line in lines), lines
    plain = {"games", "won", "lost", "drawn", "pelit"}  # words that need no legend
    for head in lines[0].split()[1:]:
        assert head.lower() in plain or head.lower() in said.lower(), (head, said)


def test_standings_on_a_new_data_directory_say_no_games_yet(tmp_path, capsys):
    # It said "no journal at …" and exited 1, as if something were wrong.
    assert standings_cli.standings_main(["--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "No games have been played here yet" in out.out and out.err == ""


def test_practice_asks_a_name_without_a_server_or_others():
    # It showed the server's address and "Others see it at the table" to one alone.
    model = m.Model(address="127.0.0.1:40123", name="", link="online")
    model.practice = CreateTable(name="Practice", players=2, teams=2)
    screen = Headless(model).screen()
    assert "127.0.0.1" not in screen and "Others see it" not in screen, screen
    assert "What is your name?" in screen


def test_sarja_bot_with_several_servers_suggests_the_whole_command(monkeypatch):
    # The lines it suggested left out --table, and choosing by name was never said.
    servers = [found("a", "Kotona", "ida"), found("b", "Mökki", "idb")]

    async def two(*_args: object) -> list[Found]:
        return servers

    monkeypatch.setattr(sarja_bot, "find_servers", two)
    said: list[str] = []
    argv = ["--table", "Perjantai ilta", "--level", "hard", "--discover-on", "127.0.0.1"]
    assert sarja_bot.find_one("127.0.0.1", None, said.append, sarja_bot.rest_of(argv)) is None
    suggested = [line for line in said if "sarja-bot 127.0.0.1:7474" in line]
    assert len(suggested) == 2
    assert all("--table 'Perjantai ilta' --level hard" in line for line in suggested), said
    assert all("--discover-on" not in line for line in suggested), said
    assert any("--server-name" in line for line in said), said


def test_the_host_reads_why_the_server_stops_in_words():
    import signal

    lang.use("fi")
    try:
        said = [server_cli.stopping_line(s) for s in (signal.SIGINT, signal.SIGTERM)]
    finally:
        lang.use("en")
    assert all("SIG" not in line for line in said), said
    assert said[0].startswith("Ctrl+C")


def test_argparse_speaks_finnish(capsys):
    # "usage:", "options:" and "show this help message and exit" stayed English.
    lang.use("fi")
    try:
        with pytest.raises(SystemExit):
            server_cli.parse_args(["--help"])
    finally:
        lang.use("en")
    text = capsys.readouterr().out
    assert text.startswith("käyttö: sarja-server"), text
    assert "\nvalinnat:\n" in text and "näytä tämä ohje ja lopeta" in text, text
    assert not re.search(r"usage|options:|show this|default: ", text), text
    with pytest.raises(SystemExit):
        server_cli.parse_args(["--help"])
    assert capsys.readouterr().out.startswith("usage: sarja-server")  # English in English


def test_argparse_says_its_error_in_finnish(capsys):
    parser = argparse.ArgumentParser(prog="sarja-server")
    parser.add_argument("--port", type=int)
    lang.use("fi")
    try:
        with pytest.raises(SystemExit):
            parser.parse_args(["--port", "x"])
    finally:
        lang.use("en")
    err = capsys.readouterr().err
    assert "sarja-server: virhe: argumentti --port: virheellinen int-arvo: 'x'" in err, err


@pytest.mark.parametrize(("language", "letters"), [("en", "BGR"), ("fi", "SVP")])
def test_the_chips_letters_come_from_the_colours_names(language, letters):
    # Finnish chips read (B) (G) (R), the English colours' letters.
    from sarja.client.words import common

    lang.use(language)
    try:
        shown = "".join(common.side_letter(side) for side in range(3))
        names = [common.SIDE_NAMES[side] for side in range(3)]
    finally:
        lang.use("en")
    assert shown == letters and len(set(shown)) == 3
    assert all(name.startswith(letter) for name, letter in zip(names, shown, strict=True))
