"""Keys into intents into messages: the real key bindings and text boxes, fed through
prompt_toolkit's key processor, with no terminal and no network (client_helpers.Headless)."""

from __future__ import annotations

import dataclasses

from sarja.client import intents as ask
from sarja.client import model as m
from sarja.client import receive
from sarja.client.effects import Command
from sarja.client.form import hand_sizes
from sarja.client.perform import perform
from sarja.client.words import connect
from sarja.protocol.messages import (
    Ack,
    Chat,
    CreateTable,
    Draw,
    Exchange,
    Join,
    MatchScore,
    Pass,
    Play,
    Ready,
    Remove,
    Sit,
    Spectate,
    TableShape,
)

from .client_helpers import (
    RESULT,
    SNAPSHOT,
    STARTED,
    TABLE,
    TABLES,
    WELCOME,
    Headless,
    headless,
    snapshot,
)

BERTILS = dataclasses.replace(TABLES.tables[0], seated=("Bertil", None))


def sent(h: Headless, *keys: str) -> list:
    """What typing `keys` sends, in order."""
    h.sent.clear()
    h.press(*keys)
    return list(h.sent)


def test_arrows_and_hjkl_move_the_cursor_and_wrap():
    h = headless(STARTED, SNAPSHOT)
    h.model.cursor = 0
    h.press("down", "j", "right", "l", "l")
    assert h.model.cursor == 23
    h.press("up", "k", "k", "h")
    assert h.model.cursor == 92


def test_picking_a_card_aims_at_its_nearest_space_and_enter_plays_it():
    h = headless(STARTED, SNAPSHOT)
    h.model.cursor = 50
    assert sent(h, "3") == []  # 7♥: spaces I5 and D6
    assert h.model.picked == "7H" and h.model.cursor == 53
    assert "2 open spaces" in h.model.status
    h.press("n")
    assert h.model.cursor == 48
    assert sent(h, "enter") == [Play(id=1, version=12, card="7H", cell=48)]
    [again] = sent(h, "3", "enter")
    assert again.id == 2  # every action a fresh id


def test_ids_continue_above_what_the_server_holds():
    h = headless(STARTED, snapshot(last_id=9))
    [play] = sent(h, "3", "enter")
    assert play.id == 10


def test_a_card_with_one_space_plays_there_at_once():
    h = headless(STARTED, SNAPSHOT)
    h.model.cursor = 99
    [play] = sent(h, "6", "left", "enter")  # Q♠'s only open space is J3 (B5 is taken)
    assert play.card == "QS" and play.cell == 29


def test_tab_picks_the_next_playable_card():
    h = headless(STARTED, snapshot(dead=("9S",), targets=((14,), (44,), (), (), (1,), (), ())))
    h.press("tab")
    assert h.model.picked == "2C"
    h.press("tab", "tab")
    assert h.model.picked == "9S"  # dead: worth picking, to exchange it
    h.press("tab")
    assert h.model.picked == "JD"
    h.press("s-tab")
    assert h.model.picked == "9S"
    h.press("escape")
    assert h.model.picked is None


def test_a_real_choice_of_fives_is_asked_for():
    h = headless(STARTED, SNAPSHOT)
    assert sent(h, "2", "enter") == []  # 5♥ at E5 makes six in a row
    assert h.model.overlay == "fives" and m.screen(h.model) == "game"
    screen = h.screen()
    assert "1) A5–E5" in screen and "2) B5–F5" in screen and not h.unfit()
    [play] = sent(h, "down", "enter")
    assert play.cell == 44 and play.fives == ((41, 45),)
    assert h.model.overlay is None
    h.press("2", "enter")
    [play] = sent(h, "1")  # a number picks the option directly
    assert play.fives == ((40, 44),)


def test_a_dead_card_picked_after_the_turns_exchange_is_not_offered_for_x():
    # It said "Press x to exchange it", and x was then refused: one exchange a turn.
    fresh = headless(STARTED, snapshot(dead=("9S",)))
    fresh.press("4")
    assert "Press x to exchange it" in fresh.model.status
    h = headless(STARTED, dataclasses.replace(snapshot(dead=("9S",)), exchanged=True))
    h.press("4")
    assert h.model.picked == "9S"
    assert "Press x" not in h.model.status and "next turn" in h.model.status


def test_one_eyed_jack_removes_and_dead_cards_are_exchanged():
    hand = ("2C", "9S", "JS")
    h = headless(STARTED, snapshot(hand=hand, dead=("9S",)))
    assert sent(h, "3", "enter") == [Remove(id=1, version=12, card="JS", cell=37)]  # H4
    [exchange] = sent(h, "escape", "x")  # nothing picked: the first dead card
    assert exchange == Exchange(id=2, version=12, card="9S")
    [exchange] = sent(h, "2", "x")
    assert exchange.card == "9S"
    [exchange] = sent(h, "1", "x")  # 2♣ is not dead: the dead card goes
    assert exchange.card == "9S"
    none = headless(STARTED, SNAPSHOT)
    assert sent(none, "x") == [] and "no dead card" in none.model.status
    assert isinstance(sent(h, "p")[0], Pass)
    assert sent(h, "d") == [] and "No draw is waiting" in h.model.status


def test_an_ack_clears_its_own_action_but_not_a_choice_made_since():
    """The ack of an action comes a moment after it was sent: a card picked in that
    moment (x, then Tab; or Tab at the start of a turn that came round before an
    earlier action's ack) stays picked, its line stays."""
    h = headless(STARTED, snapshot(dead=("9S",)))
    [exchange] = sent(h, "x")
    h.press("3")  # 7♥, before the exchange's ack
    picked = h.model.status
    assert h.model.picked == "7H" and "2 open spaces" in picked
    h.feed(Ack(id=exchange.id, version=13))
    assert h.model.picked == "7H" and h.model.status == picked
    assert "» 7♥«" in h.screen()
    # With nothing chosen since, the ack clears the card played and its line.
    [play] = sent(h, "enter")
    h.feed(Ack(id=play.id, version=14))
    assert h.model.picked is None and h.model.status == ""


def test_manual_draw_shows_its_key_and_d_takes_it():
    manual = dataclasses.replace(SNAPSHOT.rules, manual_draw=True)
    h = headless(STARTED, snapshot(rules=manual, pending_draw=(0,), turn=1))
    screen = h.screen()
    assert "[d] take your draw" in screen
    assert "Your draw waits: press d" in screen and not h.unfit()
    # The footer leads with it, where the keys are read: hard to miss.
    footer = screen.splitlines()[-1]
    assert footer.startswith(" ▶ d: TAKE YOUR DRAW ◀ ") and footer.endswith("q quit"), footer
    [draw] = sent(h, "d")
    assert isinstance(draw, Draw)


def test_playing_off_turn_still_asks_the_server_which_answers_in_words():
    h = headless(STARTED, snapshot(turn=1))
    [play] = sent(h, "3", "enter")
    assert play.card == "7H"  # sent: the refusal comes back as the server's sentence


def test_enter_without_a_card_explains_and_spectators_cannot_play():
    h = headless(STARTED, SNAPSHOT)
    assert sent(h, "enter") == [] and "Pick a card first" in h.model.status
    watching = dataclasses.replace(SNAPSHOT, seat=None, hand=(), targets=(), legal=(), choices=())
    h = headless(dataclasses.replace(STARTED, seat=None), watching)
    assert sent(h, "1", "enter", "r", "x", "p") == []


def test_quit_and_leave_ask_first_during_a_game():
    h = headless(STARTED, SNAPSHOT)
    quits: list[Command] = []
    h.client.app.exit = lambda *a, **k: quits.append(Command.QUIT)  # type: ignore[method-assign]
    h.press("q")
    assert h.model.overlay == "quit" and "Your seat is kept" in h.screen()
    h.press("n")
    assert h.model.overlay is None
    effects = perform(h.model, ask.Quit())
    assert effects == [] and h.model.overlay == "quit"
    assert perform(h.model, ask.Confirm()) == [Command.QUIT]
    # Quitting mid-game says, in the shell, how to come back.
    assert "sarja-client host:7474 --name Aino" in h.model.goodbye
    h.press("L")
    assert h.model.overlay == "leave"
    [leave] = sent(h, "y")
    assert leave.TYPE == "leave" and h.model.leaving
    lobby = headless(TABLES)
    assert perform(lobby.model, ask.Quit()) == [Command.QUIT] and not lobby.model.goodbye


def test_help_explains_the_rules_on_one_page_and_the_keys_on_another():
    h = headless(STARTED, SNAPSHOT)
    h.press("?")
    assert h.model.overlay == "help"
    rules = h.screen()
    assert "How to play" in rules and "J♠ and J♥ remove" in rules.replace("\n", " ")
    assert not h.unfit()
    assert sent(h, "1") == [] and h.model.picked is None  # keys go to the help
    h.press("tab")
    keys = h.screen()
    assert "Keys" in keys and "exchange a dead card" in keys and not h.unfit()
    h.press("escape")
    assert h.model.overlay is None


def test_chat_is_typed_in_a_text_box_and_sent():
    h = headless(STARTED, SNAPSHOT)
    assert sent(h, "c", "h", "i", "x", "backspace", "!", "enter") == [Chat(text="hi!")]
    assert h.model.overlay is None and h.screen().count("hi!") == 0
    # Keys typed into the box are text, not moves.
    assert sent(h, "c", "1", "q", "x", "escape") == [] and h.model.picked is None
    assert h.model.overlay is None


def test_chat_typed_while_reconnecting_waits_and_moves_say_they_were_not_sent():
    h = headless(STARTED, SNAPSHOT)
    receive.set_link(h.model, "reconnecting", "The connection dropped. Trying again in 1 s.")
    assert sent(h, "c", *"Back soon", "enter") == []
    assert h.model.chat_queue == ["Back soon"] and "will be sent" in h.model.status
    assert sent(h, "3", "enter") == [] and "nothing was sent" in h.model.status
    # Back at the table, the line goes.
    h.reconnect()
    h.feed(WELCOME, STARTED)
    assert Chat(text="Back soon") in h.sent and h.model.chat_queue == []


def test_the_name_is_typed_then_the_hello_can_go():
    h = Headless(m.Model(address="h:1", link="online", name="Ai"))
    assert m.screen(h.model) == "name" and "Name: Ai" in h.screen()
    h.press("end", "n", "o", "backspace", "enter")  # editing the remembered name
    assert h.model.name == "Ain" and h.model.named


def test_typing_a_name_ends_its_error_and_esc_quits_there(monkeypatch):
    """ "Type a name first." stayed while the name was typed; and with the server
    unreachable, q (the lobby's quit) is a letter of the name: Esc quits there."""
    from sarja.client import app

    h = Headless(m.Model(address="h:1", link="unreachable", name=""))
    quits: list[Command] = []

    def performed(model: m.Model, intent: ask.Intent) -> list:
        effects = perform(model, intent)
        quits.extend(e for e in effects if e is Command.QUIT)
        return effects

    monkeypatch.setattr(app, "perform", performed)  # no app runs here to exit
    h.press("enter")
    assert h.model.status == connect.NAME_FIRST and connect.NAME_FIRST in h.screen()
    h.press("q")
    assert h.model.status == "" and connect.NAME_FIRST not in h.screen()
    assert "Esc quit" in h.screen() and quits == [] and not h.model.named
    h.press("escape")
    assert quits == [Command.QUIT]


def test_typing_over_the_remembered_name_replaces_it():
    """The last name used on this machine may be another person's."""
    h = Headless(m.Model(address="h:1", link="online", name="Bertil"))
    h.press(*"Aino", "enter")
    assert h.model.name == "Aino"
    kept = Headless(m.Model(address="h:1", link="online", name="Bertil"))
    kept.press("enter")
    assert kept.model.name == "Bertil"


def test_lobby_join_spectate_and_create_from_the_servers_shapes():
    # Bertil's table: at one where an Aino sits, this Aino would be refused (held.py).
    h = headless(dataclasses.replace(TABLES, tables=(BERTILS,)))
    assert sent(h, "enter") == [Join(table="t1")]
    assert sent(h, "s") == [Spectate(table="t1")]
    h.press("n")
    assert h.model.overlay == "create" and h.model.form.name == "Aino's table"
    assert "Aino's table" in h.screen() and not h.unfit()
    h.press(*["backspace"] * 40, *"Big")
    assert h.model.form.name == "Big"
    h.press("down", "right", "right", "right")  # players: 2 -> 3 -> 4 -> 6
    h.press("down", "right")  # 6 players: 2 sides -> 3
    h.press("down", "left", "left", "left")  # hand size 2 (the usual is 5)
    h.press("down", " ")  # manual draw on
    h.press("down", "right", "right")  # two computer players, in the last seats
    h.press("down", "right")  # at hard
    h.press("down", "right")  # a hard computer takes over away seats
    assert "seats 5–6" in h.screen() and not h.unfit()
    [create] = sent(h, "enter")
    assert create == CreateTable(
        name="Big", players=6, teams=3, hand_size=2, manual_draw=True,
        computers=(None, None, None, None, "hard", "hard"), computer_takeover="hard",
    )  # fmt: skip


def test_the_form_starts_afresh_and_shows_the_usual_hand_size():
    h = headless(TABLES)
    h.press("n", "down", "right", "down", "down", "right")  # 3 players, hand size 7
    assert h.model.form.players == 3 and h.model.form.hand_size == 7
    h.press("escape", "n")
    form = h.model.form
    assert (form.players, form.hand_size, form.field) == (2, None, 0)
    assert form.name == "Aino's table"
    assert "7 (the usual for 2 players)" in h.screen()


def test_the_form_offers_what_the_server_offers():
    shapes = (
        TableShape(players=2, teams=2, hand_size=7, needed=2),
        TableShape(players=4, teams=2, hand_size=6, needed=2),
    )
    h = headless(welcome=dataclasses.replace(WELCOME, shapes=shapes))
    h.press("n", "down")
    seen = []
    for _ in range(3):
        h.press("right")
        seen.append((h.model.form.players, h.model.form.teams))
    assert seen == [(4, 2), (2, 2), (4, 2)]
    assert "6 (the usual for 4 players)" in h.screen()


def test_the_hand_size_steps_in_order_through_what_the_server_accepts():
    # It used to go from the usual 6 to 10 on ←, to 1 on →, list the usual size twice
    # (as itself and as "the usual") and offer hands the server refuses.
    h = headless(TABLES)
    h.press("n", "down", *["right"] * 3, "down", "right", "down")  # 6 in 3 sides: hand 5
    form = h.model.form
    assert (form.players, form.teams, form.hand_size) == (6, 3, None)
    seen = []
    for key in ["right"] * 5 + ["left"] * 10:
        h.press(key)
        seen.append(form.hand_size or 5)
    assert seen == [6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1]  # 6 × 9 = 54 > 52
    h.press(*["right"] * 7)
    assert form.hand_size == 8 and "◀ 8 (usual: 5) ▶" in h.screen()
    h.press("left", "left", "left")
    assert form.hand_size is None and "◀ 5 (the usual for 6 players) ▶" in h.screen()
    for players, most in ((2, 10), (8, 6), (12, 4)):
        sizes = [n or 0 for n in hand_sizes(h.model.shapes, players, 2)]
        assert max(sizes) == most and sizes.count(0) == 1, sizes


def test_waiting_room_sit_and_ready():
    h = headless(TABLE)
    assert sent(h, "2") == [Sit(seat=1)]
    assert sent(h, "up", "enter") == []  # seat 1 again: the server still has us there
    assert sent(h, "r") == [Ready(ready=False)]  # seat 1 is ready: take it back


def test_no_key_acts_behind_the_too_small_message():
    h = headless(STARTED, SNAPSHOT, columns=79, rows=24)
    assert "Please make it bigger" in h.screen()
    assert sent(h, "1", "enter", "tab", "enter", "p", "x", "c", "L") == []
    assert h.model.picked is None and h.model.overlay is None


def test_a_click_means_what_the_keys_for_that_thing_mean():
    from prompt_toolkit.data_structures import Point
    from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

    h = headless(STARTED, SNAPSHOT)
    h.screen()

    def click(region, x: int, y: int) -> None:
        region.mouse_handler(
            MouseEvent(Point(x=x, y=y), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())
        )

    board, hand = h.client.screen.named["board"], h.client.screen.named["hand"]
    column = "".join(f[1] for f in hand.lines[0]).index("[3]")
    click(hand, column, 0)
    assert h.model.picked == "7H"
    h.sent.clear()
    click(board, 3 + 8 * 5 + 2, 1 + 4)  # I5, one of its spaces: played there
    assert h.sent == [Play(id=1, version=12, card="7H", cell=48)]


def _dummy(field: dataclasses.Field) -> object:
    """A value of a field's annotated type, enough to build the intent."""
    kind = str(field.type)
    if kind.startswith("tuple"):
        return (0, 1)
    if kind.startswith("Literal"):
        return "end"
    return "" if kind == "str" else 0


def test_every_intent_is_carried_out_and_an_unknown_one_is_refused():
    """Every intent class is in the `Intent` union and carried out on every screen
    without an error (mypy checks the matches are exhaustive); anything else is
    refused loudly: a name string no longer does nothing in silence."""
    import inspect
    import typing

    import pytest

    declared = {
        cls for _, cls in inspect.getmembers(ask, inspect.isclass)
        if dataclasses.is_dataclass(cls) and cls.__module__ == ask.__name__
    }  # fmt: skip
    assert set(typing.get_args(ask.Intent)) == declared
    lobby, table, game = headless(TABLES), headless(TABLE), headless(STARTED, SNAPSHOT)
    for cls in sorted(declared, key=lambda c: c.__name__):
        intent = cls(*(_dummy(f) for f in dataclasses.fields(cls)))
        for h in (lobby, table, game):
            perform(h.model, intent)
    with pytest.raises(AssertionError):
        perform(game.model, "play")  # type: ignore[arg-type]


def test_quitting_between_the_games_of_a_match_says_how_to_come_back():
    # The seat waits between the games of a match, as in one: the shell is told so.
    match = MatchScore(to=3, games=(0,))
    table = dataclasses.replace(STARTED, match=match)
    h = headless(table, dataclasses.replace(SNAPSHOT, result=RESULT, legal=(), choices=()))
    assert perform(h.model, ask.Quit()) == [Command.QUIT]
    assert "match is kept" in h.model.goodbye and "--name Aino" in h.model.goodbye
    over = headless(dataclasses.replace(table, match=MatchScore(to=2, games=(0, 0))),
                    dataclasses.replace(SNAPSHOT, result=RESULT, legal=(), choices=()))  # fmt: skip
    assert perform(over.model, ask.Quit()) == [Command.QUIT] and not over.model.goodbye
