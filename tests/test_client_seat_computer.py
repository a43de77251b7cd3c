"""The waiting room's computer key, headless at 80×24: at a table we made, `a` seats an
easy computer in the chosen free seat, then makes it medium, hard, and frees the seat;
a person's seat is not offered; at another's table the key is not shown, and the
server's refusal is said in the player's language."""

from __future__ import annotations

import dataclasses

from sarja import lang
from sarja.protocol.messages import CreateTable, Error, Seat, SeatComputer

from .client_helpers import TABLE, headless

FREE = Seat(name=None, ready=False, away=False)


def with_seat_1(seat: Seat) -> object:
    return dataclasses.replace(TABLE, seats=(TABLE.seats[0], seat))


def test_at_our_table_a_cycles_the_chosen_seat_s_computer():
    h = headless()
    h.press("n", "enter")  # the new-table form, made as it is
    assert [type(m) for m in h.sent] == [CreateTable]
    h.feed(TABLE)
    assert "a computer" in h.screen().splitlines()[-1]
    h.sent.clear()
    h.press("a")  # our own seat is chosen: a person's
    assert h.sent == [] and "Seat 1 is taken" in h.screen()
    h.press("down", "a")
    assert h.sent == [SeatComputer(seat=1, level="easy")]
    for level, then in (("easy", "medium"), ("medium", "hard")):
        h.feed(with_seat_1(Seat(name="Bertil", ready=True, away=False, computer=level)))
        assert f"Bertil (computer, {level})" in h.screen()
        h.sent.clear()
        h.press("a")
        assert h.sent == [SeatComputer(seat=1), SeatComputer(seat=1, level=then)]
    h.feed(with_seat_1(Seat(name="Bertil", ready=True, away=False, computer="hard")))
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
