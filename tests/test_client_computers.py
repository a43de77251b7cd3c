"""Computer players on the client's screens, headless at 80×24: the lobby and the waiting
room say which seats are computers and at what level, the title says when a computer
is thinking, and o hands an away player's seat to the computer."""

from __future__ import annotations

import dataclasses

from sarja.client.model import Model
from sarja.client.practice import practice_table
from sarja.client.words.log import last_parts
from sarja.protocol.changes import Passed, Played, Removed
from sarja.protocol.messages import (
    HandOver,
    Notice,
    Player,
    Ready,
    Rules,
    Seat,
    TableList,
    TableSummary,
    Update,
)

from .client_helpers import STARTED, TABLE, WELCOME, Headless, Wire, headless, snapshot

COMPUTERS = TableSummary(
    id="t2", name="Practice", players=4, teams=2, seated=("Cecilia", "Bertil", None, "David"),
    spectators=0, started=False, rules=Rules(hand_size=6, manual_draw=False),
    computer_takeover="medium", computers=(None, "hard", None, "hard"),
)  # fmt: skip
WITH_BERTIL = dataclasses.replace(
    STARTED,
    seats=(Seat(name="Aino", ready=True, away=False),
           Seat(name="Bertil", ready=True, away=False, computer="hard")),
)  # fmt: skip


def test_the_lobby_names_the_computers_and_their_level():
    h = headless(TableList(tables=(COMPUTERS,)))
    screen = h.screen()
    assert "Bertil (Green, hard computer)" in screen and "free (Blue)" in screen
    assert "medium computer stands in" in screen and not h.unfit()


def test_the_waiting_room_shows_computer_seats_ready():
    table = dataclasses.replace(
        TABLE,
        players=4,
        seats=(Seat(name="Aino", ready=False, away=False),
               Seat(name="Bertil", ready=True, away=False, computer="easy"),
               Seat(name=None, ready=False, away=False),
               Seat(name="David", ready=True, away=False, computer="hard")),
    )  # fmt: skip
    h = headless(table)
    screen = h.screen()
    assert "Bertil (computer, easy)" in screen and "David (computer, hard)" in screen
    # Four players in two teams: a seat is not a team, it chooses one.
    assert "a seat is a team" not in screen and "the seat you take is your side" in screen
    assert "computers always are" in " ".join(screen.split()) and not h.unfit()


def test_a_thinking_computer_is_shown_until_its_move_comes():
    h = headless(WITH_BERTIL, snapshot(turn=1))
    assert "Bertil (computer)" in h.screen()  # the side panel
    h.feed(Notice(kind="thinking", name="Bertil", seat=1))
    assert "Bertil (computer) is thinking…" in h.screen().splitlines()[0]
    assert "thinking" not in "\n".join(line.text for line in h.model.log)  # not logged
    h.feed(
        Update(
            version=13,
            changes=(Played(seat=1, card="2C", cell=14),),
            turn=0,
            draw_size=83,
        )  # fmt: skip
    )
    assert "is thinking" not in h.screen() and "Aino's turn" in h.screen().splitlines()[0]


def test_the_computer_thinking_for_an_away_player_says_so():
    away = snapshot(turn=1, players=(
        Player(name="Aino", side=0, away=False, held=7),
        Player(name="Bertil", side=1, away=True, held=7),
    ))  # fmt: skip
    table = dataclasses.replace(
        STARTED,
        seats=(Seat(name="Aino", ready=True, away=False),
               Seat(name="Bertil", ready=True, away=True, computer="medium")),
    )  # fmt: skip
    h = headless(table, away)
    h.feed(Notice(kind="thinking", name="Bertil", seat=1))
    assert "The computer is thinking for Bertil…" in h.screen()
    assert "Bertil (computer)" in h.screen()


def test_a_move_the_computer_made_for_us_says_so():
    """An update marked `stand_in` is the computer's move for a person's seat: ours reads
    "The computer played for you", another's names whom it played for; a move of a
    computer's own seat reads as before."""
    h = headless(STARTED, snapshot(turn=0))
    h.feed(
        Update(
            version=13,
            changes=(Played(seat=0, card="2C", cell=14),),
            turn=1,
            draw_size=83,
            stand_in=True,
        )  # fmt: skip
    )
    h.feed(
        Update(
            version=14,
            changes=(Removed(seat=1, card="JS", cell=14, side=0),),
            turn=0,
            draw_size=82,
            stand_in=True,
        )  # fmt: skip
    )
    h.feed(Update(version=15, changes=(Passed(seat=0),), turn=1, draw_size=82))
    log = [line.text for line in h.model.log]
    assert "The computer played for you: 2♣ at E2." in log, log
    assert "The computer, for Bertil, removed your chip at E2 with the J♠." in log, log
    assert "You passed: no playable card." in log, log
    assert "The computer played for you" in h.screen()


def test_o_hands_an_away_players_seat_to_the_computer():
    away = snapshot(turn=1, players=(
        Player(name="Aino", side=0, away=False, held=7),
        Player(name="Bertil", side=1, away=True, held=7),
    ))  # fmt: skip
    h = headless(STARTED, away)
    assert "o away seat to computer" in h.screen()
    h.press("o")
    assert h.sent == [HandOver(seat=1)]
    assert "You asked the computer to play for Bertil." in h.screen()


def test_a_practice_client_makes_its_table_and_is_ready_at_once():
    create = practice_table(4, 2, "hard")
    assert create.computers == (None, "hard", "hard", "hard")
    model = Model(address="127.0.0.1:1", name="Aino", named=True, link="online")
    model.practice = create
    wire = Wire(model)
    assert wire.feed(WELCOME) == [create]
    mine = dataclasses.replace(TABLE, seats=(Seat(name="Aino", ready=False, away=False),
                                             Seat(name="Bertil", ready=True, away=False,
                                                  computer="hard")))  # fmt: skip
    assert wire.feed(mine) == [Ready(ready=True)]
    assert wire.feed(dataclasses.replace(mine, seats=(
        Seat(name="Aino", ready=True, away=False), mine.seats[1]))) == []  # fmt: skip


def test_o_is_not_offered_where_the_tables_computer_stands_in_by_itself():
    # At a table whose computer stands in, `o` only ever drew "after 60 s" or "already".
    away = snapshot(turn=1, players=(
        Player(name="Aino", side=0, away=False, held=7),
        Player(name="Bertil", side=1, away=True, held=7),
    ))  # fmt: skip
    h = headless(dataclasses.replace(STARTED, computer_takeover="easy"), away)
    assert "o away seat" not in h.screen()


def _last(h: Headless) -> str:
    """The side panel's "Last:" line, as the words give it."""
    game = h.model.game
    assert game is not None and game.last is not None
    return "".join(text for _style, text in last_parts(h.model, game, game.last))


def test_the_side_panel_says_the_computer_made_the_last_move_as_the_log_does():
    h = headless(STARTED, snapshot(turn=0))
    h.feed(Update(version=13, changes=(Played(seat=0, card="2C", cell=14),), turn=1,
                  draw_size=83, stand_in=True))  # fmt: skip
    assert _last(h) == "The computer, for you, played 2♣ at E2"
    h.feed(Update(version=14, changes=(Removed(seat=1, card="JS", cell=14, side=0),), turn=0,
                  draw_size=82, stand_in=True))  # fmt: skip
    assert _last(h) == "The computer, for Bertil, removed a chip at E2 with the J♠"
    h.feed(Update(version=15, changes=(Passed(seat=0),), turn=1, draw_size=82))
    assert _last(h) == "You passed"


def test_the_waiting_room_keeps_a_computers_name_whole_in_finnish():
    # "(tietokone, keskitasoinen)" left its name two letters at 80 columns: "Ai…".
    from sarja import lang

    table = dataclasses.replace(
        TABLE,
        seats=(Seat(name="Aino", ready=False, away=False),
               Seat(name="Bertil Bengtsson", ready=True, away=False, computer="medium")),
    )  # fmt: skip
    lang.use("fi")
    h = headless(table)
    for columns in (80, 132):
        screen = h.screen(columns, 24)
        assert "Bertil Bengtsson (tietokone, keskitasoinen)" in screen, screen
        assert not h.unfit(columns, 24)
