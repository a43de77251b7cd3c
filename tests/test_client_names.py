"""Long names: refused with a sentence rather than cut without a word, and a title bar
that shortens names before it leaves out where we are."""

from __future__ import annotations

import dataclasses

import pytest

from sarja.client import model as m
from sarja.client.bot import parse_args as bot_args
from sarja.client.cli import parse_args
from sarja.client.words import connect, lobby
from sarja.protocol.limits import MAX_NAME, MAX_TABLE_NAME

from .client_helpers import TABLE, TABLES, WELCOME, Headless, headless
from .test_client_intents import sent

LONG = ("Bartholomew Featherstonehaugh-Cholmondeley " * 4)[:130]


def test_the_name_prompt_refuses_a_name_too_long_and_says_so():
    h = Headless(m.Model(address="host:7474", link="online"))
    h.press(LONG, "enter")
    assert not h.model.named  # it used to go on as the first 24 characters
    assert f"at most {MAX_NAME} characters" in h.model.status and "130" in h.model.status
    assert f"at most {MAX_NAME} characters" in h.screen()
    h.press(*["backspace"] * (130 - 20), "enter")
    assert h.model.named and h.model.name == LONG[:20].strip()


def test_a_name_too_long_on_the_command_line_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        parse_args(["127.0.0.1:7474", "--name", LONG])
    assert stop.value.code != 0
    err = capsys.readouterr().err
    assert f"--name may have at most {MAX_NAME} characters; this one has 130" in err
    assert parse_args(["127.0.0.1:7474", "--name", "  Äijä  "]).name == "Äijä"


def test_the_waiting_rooms_title_keeps_the_address_and_the_table():
    # A 24-character name used to push out the address and then the table.
    name = "Bartholomew Featherstonh"
    assert len(name) == MAX_NAME
    h = Headless(m.Model(address="192.168.1.20:7474", name=name, named=True, link="online"))
    h.feed(WELCOME, dataclasses.replace(TABLE, name="Midsummer at the lake house 2026"))
    top = h.screen().splitlines()[0]
    assert "192.168.1.20:7474" in top and "table Midsummer" in top and "waiting room" in top
    assert "Bartholom" in top
    assert not h.unfit()


def test_a_name_of_blanks_or_invisible_characters_is_refused_before_it_is_sent(capsys):
    # The server refuses such a name (it shows nothing); the hello was built with it.
    h = Headless(m.Model(address="host:7474", link="online"))
    h.press("\u2800\u3164", "enter")
    assert not h.model.named and h.model.status == connect.NAME_UNSEEN
    with pytest.raises(SystemExit) as stop:
        parse_args(["127.0.0.1:7474", "--name", "\u2800\u2800"])
    assert stop.value.code != 0 and connect.NAME_UNREADABLE in capsys.readouterr().err


def test_a_table_name_of_blanks_is_refused_before_it_is_sent(capsys):
    # The server refuses a table's name that shows nothing, as a person's; the client
    # used to build the create_table with it.
    h = headless(TABLES)
    h.press("n", *["backspace"] * len("Aino's table"), "\u2800\u3164")
    assert sent(h, "enter") == []
    assert h.model.status == lobby.TABLE_NAME_UNSEEN
    assert lobby.TABLE_NAME_UNSEEN in h.screen()


@pytest.mark.parametrize("table", ["\u2800\u2800", "", "x" * (MAX_TABLE_NAME + 1), "a\tb"])
def test_sarja_bots_table_must_be_a_name_the_server_takes(capsys, table):
    with pytest.raises(SystemExit) as stop:
        bot_args(["127.0.0.1:7474", "--table", table])
    assert stop.value.code != 0 and "--table must be 1 to 32" in capsys.readouterr().err
    assert bot_args(["127.0.0.1:7474", "--table", "  Friday "]).table == "Friday"


def test_an_invisible_character_in_a_name_is_dropped_on_the_prompt_and_the_command_line():
    # A zero-width space typed at the prompt became a space ("Ai no", another name than
    # Aino), and `--name` refused it as unreadable.
    h = Headless(m.Model(address="host:7474", link="online"))
    h.press("Ai\u200bno\u00ad", "enter")
    assert h.model.named and h.model.name == "Aino"
    assert parse_args(["127.0.0.1:7474", "--name", "Ai\u200bno"]).name == "Aino"
    assert bot_args(["127.0.0.1:7474", "--name", "Ai\u200bno"]).name == "Aino"
    assert parse_args(["127.0.0.1:7474", "--name", "Ai\tno"]).name == "Ai no"
