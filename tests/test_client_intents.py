"""Keys into intents into messages, pure: no terminal, no network."""

from __future__ import annotations

import dataclasses

from sarja.client import model as m
from sarja.client.intents import Command, intent_for, perform, screen
from sarja.protocol.messages import (
    Chat,
    CreateTable,
    Draw,
    Exchange,
    Join,
    Pass,
    Play,
    Ready,
    Remove,
    Sit,
    Spectate,
    TableShape,
)

from .client_helpers import (
    SNAPSHOT,
    STARTED,
    TABLE,
    TABLES,
    WELCOME,
    fed,
    model_at,
    snapshot,
    text,
)


def press(model: m.Model, *keys: str) -> list:
    """Every effect of typing `keys`, in order."""
    effects = []
    for key in keys:
        intent = intent_for(model, key)
        if intent is not None:
            effects += perform(model, intent)
    return effects


def test_arrows_and_hjkl_move_the_cursor_and_wrap():
    model = model_at(STARTED, SNAPSHOT)
    model.cursor = 0
    press(model, "down", "j", "right", "l", "l")
    assert model.cursor == 23
    press(model, "up", "k", "k", "h")
    assert model.cursor == 92


def test_picking_a_card_aims_at_its_nearest_space_and_enter_plays_it():
    model = model_at(STARTED, SNAPSHOT)
    model.cursor = 50
    assert press(model, "3") == []  # 7♥: spaces I5 and D6
    assert model.picked == "7H" and model.cursor == 53
    assert "2 open spaces" in model.status
    press(model, "n")
    assert model.cursor == 48
    [play] = press(model, "enter")
    assert play == Play(id=1, version=12, card="7H", cell=48)
    [again] = press(model, "3", "enter")
    assert again.id == 2  # every action a fresh id


def test_ids_continue_above_what_the_server_holds():
    model = model_at(STARTED, snapshot(last_id=9))
    [play] = press(model, "3", "enter")
    assert play.id == 10


def test_a_card_with_one_space_plays_there_at_once():
    model = model_at(STARTED, SNAPSHOT)
    model.cursor = 99
    [play] = press(model, "6", "left", "enter")  # Q♠'s only open space is J3 (B5 is taken)
    assert play.card == "QS" and play.cell == 29


def test_tab_picks_the_next_playable_card():
    model = model_at(STARTED, snapshot(dead=("9S",), targets=((14,), (44,), (), (), (1,), (), ())))
    press(model, "tab")
    assert model.picked == "2C"
    press(model, "tab", "tab")
    assert model.picked == "9S"  # dead: worth picking, to exchange it
    press(model, "tab")
    assert model.picked == "JD"
    press(model, "s-tab")
    assert model.picked == "9S"
    press(model, "escape")
    assert model.picked is None


def test_a_real_choice_of_fives_is_asked_for():
    model = model_at(STARTED, SNAPSHOT)
    assert press(model, "2", "enter") == []  # 5♥ at E5 makes six in a row
    assert model.overlay == "fives" and screen(model) == "game"
    assert "1) A5–E5" in text(model) and "2) B5–F5" in text(model)
    [play] = press(model, "down", "enter")
    assert play.cell == 44 and play.fives == ((41, 45),)
    assert model.overlay is None
    press(model, "2", "enter")
    [play] = press(model, "1")  # a number picks the option directly
    assert play.fives == ((40, 44),)


def test_one_eyed_jack_removes_and_dead_cards_are_exchanged():
    hand = ("2C", "9S", "JS")
    state = snapshot(hand=hand, dead=("9S",))
    model = model_at(STARTED, state)
    [remove] = press(model, "3", "enter")
    assert remove == Remove(id=1, version=12, card="JS", cell=37)  # H4, Bertil's chip
    [exchange] = press(model, "escape", "x")  # nothing picked: the first dead card
    assert exchange == Exchange(id=2, version=12, card="9S")
    [exchange] = press(model, "2", "x")
    assert exchange.card == "9S"
    [exchange] = press(model, "1", "x")  # 2♣ is not dead: the dead card goes
    assert exchange.card == "9S"
    none = model_at(STARTED, SNAPSHOT)
    assert press(none, "x") == [] and "no dead card" in none.status
    assert isinstance(press(model, "p")[0], Pass) and isinstance(press(model, "d")[0], Draw)


def test_playing_off_turn_still_asks_the_server_which_answers_in_words():
    model = model_at(STARTED, snapshot(turn=1))
    [play] = press(model, "3", "enter")
    assert play.card == "7H"  # sent: the refusal comes back as the server's sentence


def test_enter_without_a_card_explains_and_spectators_cannot_play():
    model = model_at(STARTED, SNAPSHOT)
    assert press(model, "enter") == [] and "Pick a card first" in model.status
    watching = dataclasses.replace(SNAPSHOT, seat=None, hand=(), targets=(), legal=(), choices=())
    model = model_at(dataclasses.replace(STARTED, seat=None), watching)
    assert press(model, "1", "enter") == []


def test_quit_and_leave_ask_first_during_a_game():
    model = model_at(STARTED, SNAPSHOT)
    assert press(model, "q") == [] and model.overlay == "quit"
    assert press(model, "n") == [] and model.overlay is None
    assert press(model, "q", "y") == [Command.QUIT]
    assert press(model, "L") == [] and model.overlay == "leave"
    [leave] = press(model, "y")
    assert leave.TYPE == "leave"
    assert press(model_at(TABLES), "q") == [Command.QUIT]


def test_help_opens_and_closes():
    model = model_at(STARTED, SNAPSHOT)
    press(model, "?")
    assert model.overlay == "help"
    assert press(model, "1") == [] and model.picked is None  # keys go to the help
    press(model, "?")
    assert model.overlay is None


def test_chat_is_typed_and_sent():
    model = model_at(STARTED, SNAPSHOT)
    assert press(model, "c", "h", "i", "x", "backspace", "!", "enter") == [Chat(text="hi!")]
    assert model.overlay is None and model.chat_draft == ""


def test_the_name_is_typed_then_the_hello_can_go():
    model = m.Model(address="h:1", link="online", name_draft="Ai")
    assert screen(model) == "name"
    assert press(model, "n", "o", "backspace", "enter") == [Command.GREET]
    assert model.name == "Ain" and model.named


def test_lobby_join_spectate_and_create_from_the_servers_shapes():
    model = model_at(TABLES)
    assert press(model, "enter") == [Join(table="t1")]
    assert press(model, "s") == [Spectate(table="t1")]
    press(model, "n")
    assert model.overlay == "create" and model.form.name == "Aino's table"
    press(model, *["backspace"] * 40, *"Big")
    press(model, "down", "right", "right", "right")  # players: 2 -> 3 -> 4 -> 6
    press(model, "down", "right")  # 6 players: 2 sides -> 3
    press(model, "down", "right", "right")  # hand size 2
    press(model, "down", " ")  # manual draw on
    press(model, "down", "right")  # computer takeover on
    [create] = press(model, "enter")
    assert create == CreateTable(
        name="Big", players=6, teams=3, hand_size=2, manual_draw=True, computer_takeover=True
    )


def test_the_form_offers_what_the_server_offers():
    shapes = (
        TableShape(players=2, teams=2, hand_size=7, needed=2),
        TableShape(players=4, teams=2, hand_size=6, needed=2),
    )
    model = fed(welcome=dataclasses.replace(WELCOME, shapes=shapes)).model
    press(model, "n", "down")
    seen = []
    for _ in range(3):
        press(model, "right")
        seen.append((model.form.players, model.form.teams))
    assert seen == [(4, 2), (2, 2), (4, 2)]
    assert "6, the usual for this size" in text(model)


def test_waiting_room_sit_and_ready():
    model = model_at(TABLE)
    assert press(model, "2") == [Sit(seat=1)]
    assert press(model, "up", "enter") == []  # seat 1 again: the server still has us there
    assert press(model, "r") == [Ready(ready=False)]  # seat 1 is ready: take it back
