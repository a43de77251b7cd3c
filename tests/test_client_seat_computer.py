"""The waiting room's computer key, headless at 80×24: at a table we made, `a` seats an
easy computer in the chosen free seat, then makes it medium, hard (one message each,
in place; at an older server, which does not say who made the table, two), and frees
the seat; a person's seat is not offered; at another's table the key is not shown, nor
to a creator who only watches, and the server's refusal is said in the player's
language. The log
says what each table changed of the computers, and the creator why they are not ready.
And at a real server on 127.0.0.1: the creator's client started again offers `a`, as
the server says who made the table."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from sarja import lang
from sarja.client.settings import Settings
from sarja.protocol.messages import CreateTable, Error, Seat, SeatComputer, TableView

from .client_helpers import TABLE, harness, headless

FREE = Seat(name=None, ready=False, away=False)
OURS = dataclasses.replace(TABLE, creator=True)  # as this server tells the one who made it


def with_seat_1(seat: Seat) -> object:
    return dataclasses.replace(OURS, seats=(TABLE.seats[0], seat))


def test_at_our_table_a_cycles_the_chosen_seat_s_computer():
    h = headless()
    h.press("n", "enter")  # the new-table form, made as it is
    assert [type(m) for m in h.sent] == [CreateTable]
    h.feed(OURS)
    assert "a computer" not in h.screen().splitlines()[-1]  # at our own seat: nothing
    h.sent.clear()
    h.press("a")  # our own seat is chosen: it was "Seat 1 is taken", as if another's
    assert h.sent == [] and "Seat 1 is yours; choose a free seat" in h.screen()
    h.press("down")
    assert "a computer" in h.screen().splitlines()[-1]
    h.press("a")
    assert h.sent == [SeatComputer(seat=1, level="easy")]
    assert "Seat 1 is yours" not in h.screen()  # no longer the answer
    for level, then in (("easy", "medium"), ("medium", "hard")):
        h.feed(with_seat_1(Seat(name="Bertil", ready=True, away=False, computer=level)))
        assert f"Bertil (computer, {level})" in h.screen()
        assert "a harder" in h.screen().splitlines()[-1]
        h.sent.clear()
        h.press("a")
        assert h.sent == [SeatComputer(seat=1, level=then)]  # in place, one step
    h.feed(with_seat_1(Seat(name="Bertil", ready=True, away=False, computer="hard")))
    assert "a free the seat" in h.screen().splitlines()[-1]
    h.sent.clear()
    h.press("a")
    assert h.sent == [SeatComputer(seat=1)]  # after hard, the seat is free again
    h.feed(with_seat_1(FREE))
    assert "— free —" in h.screen() and not h.unfit()


def test_at_another_s_table_the_key_is_not_offered_and_a_refusal_is_translated():
    bertil = dataclasses.replace(
        TABLE, seat=1, seats=(TABLE.seats[0], Seat(name="Bertil", ready=False, away=False))
    )
    h = headless(bertil)
    assert "a computer" not in h.screen().splitlines()[-1]
    lang.use("fi")
    h.feed(Error(code="not_creator", message="Only the table's creator can seat a computer."))
    assert "Vain pöydän tehnyt pelaaja" in h.screen()


def test_a_creator_who_only_watches_is_not_offered_a_nor_r():
    # The server refuses a creator who watches their table (`not_a_player`: a person
    # always plays at it); the bar offered `a` at the free seat, the help listed it, and
    # `a` sent what came back refused.
    watching = dataclasses.replace(
        TABLE, seat=None, creator=True,
        seats=(Seat(name="Bertil", ready=False, away=False), FREE),
    )  # fmt: skip
    h = headless(watching)
    assert h.model.seat_row == 1 and "a computer" not in h.screen().splitlines()[-1]
    assert "r ready" not in h.screen().splitlines()[-1]  # one who watches has no ready
    h.press("?")
    assert "seat computer" not in dict(h.model.help_keys)
    h.press("escape", "a")
    assert h.sent == []
    # Seated at it, both offer it again.
    seated = dataclasses.replace(watching, seat=0, seats=(TABLE.seats[0], FREE))
    h.feed(seated)  # the same table: the free seat stays chosen
    assert "a computer" in h.screen().splitlines()[-1]
    assert "r ready" in h.screen().splitlines()[-1]
    h.press("?")
    assert dict(h.model.help_keys)["seat computer"] == ("a",)
    h.press("escape", "a")
    assert h.sent == [SeatComputer(seat=1, level="easy")]


def test_a_bot_s_seat_is_not_shown_nor_offered_as_the_server_s_computer():
    # sarja-bot, joined as a guest, showed "(computer, easy)" like the server's own, and
    # `a` there sent what the server refuses ("That seat is not a computer player's.").
    h = headless()
    h.press("n", "enter")
    h.feed(with_seat_1(Seat(name="Botti", ready=True, away=False, computer="easy", remote=True)))
    h.sent.clear()
    h.press("down")
    screen = h.screen()
    assert "Botti (bot, easy)" in screen and "(computer" not in screen  # nor always ready
    assert " a " not in screen.splitlines()[-1]  # the key does nothing here
    h.press("a")
    assert h.sent == [] and "Seat 2 is a bot's" in h.screen()
    lang.use("fi")
    h.feed(Error(code="not_computer", message="Seat 2 is not a computer player's."))
    assert "itse liittynyt botti" in h.screen()  # from a server that cannot say which


THREE = TableView(
    id="t1", name="Friday", players=3, teams=3, spectators=0, started=False,
    rules=TABLE.rules, computer_takeover=False, seat=1,
    seats=(Seat(name="Aino", ready=True, away=False), Seat(name="Bertil", ready=False, away=False),
           FREE),
)  # fmt: skip


def log_lines(h: object) -> list[str]:
    return [line.text for line in h.model.log]  # type: ignore[attr-defined]


def at_seat_3(seat: Seat) -> TableView:
    return dataclasses.replace(THREE, seats=(*THREE.seats[:2], seat))


def test_the_others_are_told_of_a_computer_that_sat_down_left_or_changed_level():
    # Bertil at Aino's table: no notice says what her `a` did, only the seats changed.
    for language, words in (
        ("en", ["Cecilia (computer, easy) sat down at seat 3 (Red).",
                "Cecilia (computer) at seat 3 (Red) now plays medium.",
                "Cecilia (computer) left seat 3 (Red)."]),
        ("fi", ["Cecilia (tietokone, helppo) istui pöytään: paikka 3 (Punainen).",
                "Cecilia (tietokone) on nyt tasoltaan keskitasoinen: paikka 3 (Punainen).",
                "Cecilia (tietokone) poistui: paikka 3 (Punainen)."]),
    ):  # fmt: skip
        lang.use(language)
        h = headless(THREE)
        before = len(h.model.log)
        easy = Seat(name="Cecilia", ready=True, away=False, computer="easy")
        h.feed(at_seat_3(easy), at_seat_3(dataclasses.replace(easy, computer="medium")))
        h.feed(at_seat_3(FREE))
        h.feed(at_seat_3(Seat(name="Botti", ready=True, away=False, computer="easy", remote=True)))
        assert log_lines(h)[before:] == words, language  # a bot's joined notice says it
        assert words[1] in h.screen(), language


def test_a_computer_seated_after_another_left_is_a_change_of_level_only_if_it_is_one():
    # A computer that left and one seated in its place at once were logged as one line,
    # "… now plays …", even when the new one was another computer, or at the same level.
    lang.use("en")
    h = headless(THREE)
    before = len(h.model.log)
    easy = Seat(name="Cecilia", ready=True, away=False, computer="easy")
    h.feed(at_seat_3(easy), at_seat_3(FREE), at_seat_3(easy))
    h.feed(at_seat_3(FREE), at_seat_3(dataclasses.replace(easy, name="Daniel", computer="hard")))
    h.feed(at_seat_3(easy))  # in one table's place: Daniel at hard
    assert log_lines(h)[before:] == [
        "Cecilia (computer, easy) sat down at seat 3 (Red).",
        "Cecilia (computer) left seat 3 (Red).",
        "Cecilia (computer, easy) sat down at seat 3 (Red).",
        "Cecilia (computer) left seat 3 (Red).",
        "Daniel (computer, hard) sat down at seat 3 (Red).",
        "Daniel (computer) left seat 3 (Red).",
        "Cecilia (computer, easy) sat down at seat 3 (Red).",
    ]


def test_a_computer_taken_away_and_another_seated_is_not_told_as_a_change_of_level():
    # Hard, then free, then easy: the log read "Cecilia (computer) at seat 3 now plays
    # easy", as if hard had become easy, and the line that she left was gone.
    lang.use("en")
    h = headless(THREE)
    before = len(h.model.log)
    hard = Seat(name="Cecilia", ready=True, away=False, computer="hard")
    h.feed(at_seat_3(hard), at_seat_3(FREE), at_seat_3(dataclasses.replace(hard, computer="easy")))
    assert log_lines(h)[before:] == [
        "Cecilia (computer, hard) sat down at seat 3 (Red).",
        "Cecilia (computer) left seat 3 (Red).",
        "Cecilia (computer, easy) sat down at seat 3 (Red).",
    ]


def test_the_creator_is_told_a_computer_made_them_not_ready_and_the_room_says_why():
    # The server no longer starts the game when a computer takes the last free seat:
    # it takes back the ready of the creator, who asked, so they choose the level first.
    for language, said, rule in (
        ("en", "You are not ready now: press r when the computers are as you want.",
         "changing its level makes you not ready"),
        ("fi", "Et ole nyt valmis: paina r, kun tietokoneet ovat mieleisesi.",
         "et ole enää valmis"),
    ):  # fmt: skip
        lang.use(language)
        h = headless()
        h.press("n", "enter")
        h.feed(OURS)  # ours, and we are ready
        assert rule in " ".join(h.screen().split()), language
        seated = Seat(name="Bertil", ready=True, away=False, computer="easy")
        unready = dataclasses.replace(TABLE.seats[0], ready=False)
        h.feed(dataclasses.replace(OURS, seats=(unready, seated)))
        assert log_lines(h)[-1] == said, language
        assert not h.unfit()


def test_the_creator_s_client_started_again_offers_a(tmp_path):
    asyncio.run(_started_again(tmp_path))


async def _started_again(tmp_path: Path) -> None:
    """Aino makes a table of three and quits; Bertil stays at it. Her client started
    again (its settings, and so her person key, from the file) joins it: the server says
    she made it, so the bar offers `a` at the free seat, and `a` seats a computer."""
    kept = tmp_path / "aino.json"
    async with harness(tmp_path / "server") as h:
        a = await h.player("Aino", settings=Settings(kept))
        a.press("n")
        await a.wait(lambda: a.model.overlay == "create", "the new-table form")
        a.press("down", "right", "enter")  # three players
        await a.wait(lambda: a.model.table is not None, "the waiting room")
        assert a.model.table.players == 3 and "a computer" not in a.screen().splitlines()[-1]
        b = await h.player("Bertil")
        b.press("r")
        await b.wait(lambda: b.model.tables, "the table list")
        b.press("enter")
        await b.wait(lambda: b.model.table is not None, "Bertil at the table")
        a.quit()
        await b.wait(lambda: b.model.table.seats[0].name is None, "Aino's seat freed")

        again = await h.player("Aino", settings=Settings(kept))
        again.press("r")
        await again.wait(lambda: again.model.tables, "the table list")
        again.press("enter")
        await again.wait(lambda: again.model.table is not None, "Aino back at the table")
        assert again.model.created is None  # this run made no table
        again.press("down", "down")  # seat 3, free
        await again.wait(lambda: again.model.seat_row == 2, "seat 3 chosen")
        assert "a computer" in again.screen().splitlines()[-1], again.screen()
        again.press("a")
        await b.wait(lambda: b.model.table.seats[2].computer == "easy", "the computer seated")


def test_at_an_older_server_a_level_changes_as_it_did_there_and_nothing_says_not_ready():
    # A server from before a level changed in place (same protocol version) refuses a
    # level for a computer's seat (seat_taken): `a` there, one message, was refused each
    # time, so a computer `a` had seated could be made neither harder nor taken away.
    # Such a server's `table` never says `creator`; a server that says it does in place.
    for creator, harder in (
        (False, [SeatComputer(seat=1), SeatComputer(seat=1, level="medium")]),
        (True, [SeatComputer(seat=1, level="medium")]),
    ):
        lang.use("en")
        h = headless()
        h.press("n", "enter")  # our create_table: the table is ours, whatever it says
        easy = Seat(name="Bertil", ready=True, away=False, computer="easy")
        table = dataclasses.replace(TABLE, seats=(TABLE.seats[0], easy), creator=creator)
        h.feed(table)
        h.press("down")
        assert "a harder" in h.screen().splitlines()[-1]
        h.sent.clear()
        h.press("a")
        assert h.sent == harder, creator
        hard = dataclasses.replace(
            table, seats=(TABLE.seats[0], dataclasses.replace(easy, computer="hard"))
        )
        h.feed(hard)
        h.sent.clear()
        h.press("a")
        assert h.sent == [SeatComputer(seat=1)], creator  # taken away: one message either way
        # The older server starts the game when a computer takes the last free seat: the
        # waiting room does not say that `a` makes us not ready there.
        said = " ".join(h.screen().split())
        assert ("changing its level makes you not ready" in said) == creator, said
