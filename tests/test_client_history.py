"""The game's past in the client's log: the `history` after a snapshot written as the
updates would have been, a summary of what happened while we were away, the log
scrolled back through it; and the bell and title on our turn, remembered."""

from __future__ import annotations

from dataclasses import replace

from prompt_toolkit.output import DummyOutput

from sarja.client import model as m
from sarja.client import receive
from sarja.client.attention import Attention
from sarja.client.settings import Settings
from sarja.protocol.cards import cell_name
from sarja.protocol.change_wire import CHANGE_BY_KIND
from sarja.protocol.changes import Drew, Passed, Played
from sarja.protocol.client_session import PAST_KEPT
from sarja.protocol.messages import ChatLine, Entry, History, Last, Legal, Update

from .client_helpers import BOARD, STARTED, WELCOME, Headless, fed, headless, snapshot, spaces


def played(version: int, seat: int, card: str, cell: int, stand_in: bool = False) -> Entry:
    return Entry(
        version=version,
        changes=(Played(seat=seat, card=card, cell=cell), Drew(seat=seat)),
        stand_in=stand_in,
    )  # fmt: skip


def seat(version: int, kind: str, who: int) -> Entry:
    return Entry(version=version, changes=(CHANGE_BY_KIND[kind](seat=who),))  # type: ignore[call-arg]


# Aino (seat 0, us) played first; she went away at version 4, the computer made her
# move at 6, and she came back at 8 (the snapshot is at 12, as in client_helpers).
PAST = (
    played(1, 0, "2H", 11), played(2, 1, "3H", 12), played(3, 0, "4H", 13), seat(4, "away", 0),
    played(5, 1, "AC", 14), played(6, 0, "6H", 15, stand_in=True), played(7, 1, "8D", 37),
    seat(8, "back", 0),
)  # fmt: skip
HISTORY = History(version=12, entries=PAST)


def lines(model: m.Model) -> list[str]:
    return [line.text for line in model.log]


def test_after_a_fresh_start_the_whole_game_comes_before_the_greeting():
    model = fed(STARTED, snapshot(), HISTORY).model
    assert lines(model) == [
        "The game begins. The cut: Aino 3♣, Bertil K♦. You play first.",
        f"You played 2♥ at {cell_name(11)}.",
        f"Bertil played 3♥ at {cell_name(12)}.",
        f"You played 4♥ at {cell_name(13)}.",
        "You were away; your seat was kept.",
        f"Bertil played A♣ at {cell_name(14)}.",
        f"The computer played for you: 6♥ at {cell_name(15)}.",
        "Bertil played 8♦ at H4.",
        "You are back.",
        "You are back in the game at Friday.",
        "Last move: Bertil played 8♦ at H4.",
        "Sequences: Blue 0, Green 0 (of 2 needed).",
        "It is your turn.",
        # From our last going away: Bertil's two moves and the computer's one for us.
        "While you were away: 3 moves; the computer played 1 for you.",
    ]
    assert model.logged == 12


def test_another_seats_stand_in_is_named_and_a_spectator_gets_no_summary():
    past = (played(1, 0, "2H", 11), played(2, 1, "3H", 12, stand_in=True))
    watching = replace(STARTED, seat=None)
    model = fed(watching, snapshot(seat=None, hand=(), targets=(), legal=(), choices=()),
                History(version=12, entries=past)).model  # fmt: skip
    assert f"The computer, for Bertil, played 3♥ at {cell_name(12)}." in lines(model)
    assert lines(model)[1] == f"Aino played 2♥ at {cell_name(11)}."
    assert not any("While you were away" in t for t in lines(model))


# The board at version 6, before Bertil's 8♦ at H4 (version 7).
BOARD_AT_6 = BOARD[:37] + "." + BOARD[38:]


def test_after_a_dropped_connection_only_what_was_missed_is_added():
    wire = fed(
        STARTED, snapshot(version=6, turn=1, board=BOARD_AT_6),
        History(version=6, entries=PAST[:6]),
    )  # fmt: skip
    model = wire.model
    wire.feed(Update(version=7, changes=PAST[6].changes, turn=0, draw_size=83))
    before = lines(model)
    assert before[-1] == "Bertil played 8♦ at H4."
    receive.set_link(model, "reconnecting", "The connection dropped. Trying again.")
    receive.set_link(model, "online")
    wire.session.connect()  # a new connection
    later = (*PAST, played(9, 0, "9C", 20, stand_in=True), played(10, 1, "TS", 21))
    wire.feed(WELCOME, STARTED, snapshot(version=10), History(version=10, entries=later))
    added = lines(model)[len(before) :]
    assert added == [
        "The connection dropped; reconnecting…",
        "Connected again.",
        "You are back.",
        f"The computer played for you: 9♣ at {cell_name(20)}.",
        f"Bertil played 10♠ at {cell_name(21)}.",
        "While you were away: 2 moves; the computer played 1 for you.",
    ], added
    assert model.logged == 10 and not model.returning


def test_a_gap_fills_in_the_missed_lines_without_a_summary():
    wire = fed(STARTED, snapshot(version=6, turn=1), History(version=6, entries=PAST[:6]))
    model = wire.model
    assert lines(model)[-1].startswith("While you were away: 2 moves")  # from the start
    assert wire.feed(Update(version=8, changes=PAST[7].changes, turn=1, draw_size=83))
    wire.feed(snapshot(version=8, turn=1), History(version=8, entries=PAST))
    assert lines(model)[-3:] == [
        "While you were away: 2 moves; the computer played 1 for you.",
        "Bertil played 8♦ at H4.",
        "You are back.",
    ]


def test_a_history_that_does_not_fit_the_game_is_left_out():
    model = fed(STARTED, snapshot(), History(version=11, entries=PAST)).model
    assert not any("You played" in t for t in lines(model))
    # Pages that would never end are not kept without bound.
    wire = fed(STARTED, snapshot())
    page = History(version=12, entries=PAST[:4], more=True)
    for _ in range(PAST_KEPT // 4 + 1):
        wire.feed(page)
    assert len(wire.model.session.past) <= PAST_KEPT
    assert not any("You played" in t for t in lines(wire.model))


def long_history(moves: int) -> History:
    return History(version=moves, entries=tuple(
        played(v, (v - 1) % 2, "2H", 11 + v % 80) for v in range(1, moves + 1)
    ))  # fmt: skip


def test_the_log_scrolls_back_to_the_first_move_and_returns():
    h = headless(STARTED, snapshot(version=60), long_history(60))
    newest = h.screen()
    assert "It is your turn." in newest and "The game begins" not in newest
    h.press("pageup")
    back = h.screen()
    assert "newer lines · PgDn, End: back to the newest" in back
    assert "It is your turn." not in back
    h.press("home")
    top = h.screen()
    assert "The game begins. The cut:" in top and f"You played 2♥ at {cell_name(12)}." in top
    h.press("pagedown")
    assert "The game begins" not in h.screen() and "newer lines" in h.screen()
    h.press("end")
    assert h.screen() == newest
    # Anything new brings the log back to the newest.
    h.press("home")
    h.feed(ChatLine(sender="Bertil", seat=1, text="Still there?"))
    screen = h.screen()
    assert "Still there?" in screen and "newer lines" not in screen


class Recording(DummyOutput):
    def __init__(self) -> None:
        self.did: list[str] = []

    def bell(self) -> None:
        self.did.append("bell")

    def set_title(self, title: str) -> None:
        self.did.append(title)


def test_the_bell_rings_once_when_our_turn_comes_if_turned_on():
    wire = fed(STARTED, snapshot(turn=1))
    model, out, attention = wire.model, Recording(), Attention()
    attention.check(model, out)
    assert out.did == []  # off: nothing at all
    model.alerts = True
    attention.check(model, out)
    assert out.did == ["Sarja"]
    wire.feed(Update(version=13, changes=(Passed(seat=1),), turn=0, draw_size=84),
              Legal(version=13, legal=("pass",)))  # fmt: skip
    attention.check(model, out)
    attention.check(model, out)  # a redraw rings nothing more
    assert out.did == ["Sarja", "bell", "Sarja: your turn"]
    model.alerts = False
    attention.check(model, out)
    assert out.did[-1] == "Sarja"  # the title put back once turned off


def test_b_turns_the_bell_on_and_it_is_remembered(tmp_path):
    path = tmp_path / "client.json"
    h = Headless()
    h.client.settings = Settings(path)
    h.feed(WELCOME, STARTED, snapshot(turn=1))
    h.press("b")
    assert h.model.alerts and "tell you of your turn" in h.screen()
    assert Settings(path).alerts
    Settings(path).save("Aino", {"srv1": {"Aino": "t" * 40}})  # saving a seat keeps it
    assert Settings(path).alerts
    h.press("b")
    assert not h.model.alerts and not Settings(path).alerts


def test_a_game_joined_without_a_past_logs_nothing_twice_on_a_later_return():
    """A snapshot at version 2 with no history (a drop and a return, nothing else, leave
    none); then a move; then a return whose history holds that move: written once."""
    wire = fed(STARTED, snapshot(version=2, turn=1))
    model = wire.model
    wire.feed(Update(version=3, changes=PAST[1].changes, turn=0, draw_size=83))
    receive.set_link(model, "reconnecting", "The connection dropped. Trying again.")
    receive.set_link(model, "online")
    wire.session.connect()
    wire.feed(WELCOME, STARTED, snapshot(version=3),
              History(version=3, entries=(played(3, 1, "3H", 12),)))  # fmt: skip
    assert sum(t == f"Bertil played 3♥ at {cell_name(12)}." for t in lines(model)) == 1


def test_a_last_move_the_computer_made_is_told_as_the_computer_s_on_return():
    # Back after the computer made our move: "Last move: You played 6♥" stood right
    # under "The computer played for you: 6♥"; a spectator read "Aino played 6♥".
    last = Last(seat=0, action=f"6H@{cell_name(15)}", stand_in=True)
    ours = fed(STARTED, snapshot(version=6, turn=1, board=BOARD_AT_6, last=last),
               History(version=6, entries=PAST[:6])).model  # fmt: skip
    assert f"The computer played for you: 6♥ at {cell_name(15)}." in lines(ours)
    assert f"Last move: The computer, for you, played 6♥ at {cell_name(15)}." in lines(ours)
    assert not any(t.startswith("Last move: You") for t in lines(ours))
    watching = replace(STARTED, seat=None)
    theirs = fed(watching, snapshot(version=6, turn=1, board=BOARD_AT_6, last=last, seat=None,
                                    hand=(), targets=(), legal=(), choices=())).model  # fmt: skip
    assert f"Last move: The computer, for Aino, played 6♥ at {cell_name(15)}." in lines(theirs)


def test_a_computer_s_move_and_the_sequence_it_made_are_the_computer_s_in_the_log():
    wire = fed(STARTED, snapshot(turn=1))
    nine = spaces(BOARD, "9H", 1)[0]
    made = (Played(seat=1, card="9H", cell=nine), Drew(seat=1))
    wire.feed(Update(version=13, changes=made, turn=0, draw_size=83, stand_in=True))
    told = lines(wire.model)[-1]
    assert told.startswith("The computer, for Bertil, played 9♥"), told
    assert wire.model.game is not None and wire.model.game.last is not None
    assert wire.model.game.last.stand_in  # the side panel's last move says it too
