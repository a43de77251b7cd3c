"""Names of wide characters (漢字, emoji: two columns each) keep the screens' columns:
the side panel's card count, the waiting room's seat states and the lobby's table
columns stay where they are for any name, and nothing runs off its window."""

from __future__ import annotations

import dataclasses

from prompt_toolkit.utils import get_cwidth

from sarja.protocol.messages import Player, Seat, TableList

from .client_helpers import STARTED, TABLE, TABLES, headless, snapshot

WIDE = "漢" * 24  # as long as a name may be, 48 columns


def _column_of(line: str, text: str) -> int:
    return get_cwidth(line[: line.index(text)])


def test_a_wide_name_leaves_the_card_count_whole_in_the_side_panel():
    players = (
        Player(name="Aino", side=0, away=False, held=7),
        Player(name=WIDE, side=1, away=False, held=7),
    )
    seats = (Seat(name="Aino", ready=True, away=False), Seat(name=WIDE, ready=True, away=False))
    h = headless(dataclasses.replace(STARTED, seats=seats), snapshot(players=players))
    screen = h.screen()
    assert not h.unfit(), screen
    rows = [line for line in screen.splitlines() if "cards" in line]
    assert len(rows) == 2 and len({_column_of(r, "7 cards") for r in rows}) == 1, screen


def test_a_wide_name_keeps_the_waiting_rooms_and_the_lobbys_columns():
    seats = (Seat(name=WIDE, ready=False, away=False), Seat(name="Bertil", ready=False, away=False))
    h = headless(dataclasses.replace(TABLE, seats=seats))
    screen = h.screen()
    rows = [line for line in screen.splitlines() if "not ready" in line]
    assert len(rows) == 2 and len({_column_of(r, "not ready") for r in rows}) == 1, screen
    wide_table = dataclasses.replace(TABLES.tables[0], id="t9", name="漢字" * 10)
    h = headless(TableList(tables=(wide_table, TABLES.tables[0])))
    lines = h.screen().splitlines()
    head, rows = lines[2], lines[3:5]
    assert {_column_of(r, "2 players") for r in rows} == {_column_of(head, "Players")}, lines


def test_the_waiting_rooms_names_line_up_in_finnish():
    # "Sininen (S)" is 11 columns: the Blue seats' names stood one column right.
    from sarja import lang

    lang.use("fi")
    try:
        seats = (
            Seat(name="Aino", ready=False, away=False),
            Seat(name="Bertil", ready=False, away=False),
        )
        screen = headless(dataclasses.replace(TABLE, seats=seats)).screen()
    finally:
        lang.use("en")
    rows = [line for line in screen.splitlines() if "Aino" in line or "Bertil" in line][-2:]
    assert len({_column_of(r, n) for r, n in zip(rows, ("Aino", "Bertil"), strict=True)}) == 1, (
        screen
    )
