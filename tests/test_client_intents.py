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
)

from .test_client_model import STATE, TABLE, TABLES, model_at


def press(model: m.Model, *keys: str) -> list:
    """Every effect of typing `keys`, in order."""
    effects = []
    for key in keys:
        intent = intent_for(model, key)
        if intent is not None:
            effects += perform(model, intent)
    return effects


def test_arrows_and_hjkl_move_the_cursor_and_wrap():
    model = model_at(TABLE, STATE)
    model.cursor = (0, 0)
    press(model, "down", "j", "right", "l", "l")
    assert model.cursor == (2, 3)
    press(model, "up", "k", "k", "h")
    assert model.cursor == (9, 2)


def test_picking_a_card_aims_at_its_nearest_space_and_enter_plays_it():
    model = model_at(TABLE, STATE)
    model.cursor = (5, 0)
    assert press(model, "2") == []  # 7♥: spaces I5 and D6
    assert model.picked == "7H" and model.cursor == (5, 3)
    assert "2 open spaces" in model.status
    press(model, "n")
    assert model.cursor == (4, 8)
    [play] = press(model, "enter")
    assert play == Play(id=1, version=12, card="7H", cell=(4, 8), fives=())
    [again] = press(model, "2", "enter")
    assert again.id == 2  # every action a fresh id


def test_a_card_with_one_space_plays_there_at_once():
    model = model_at(TABLE, STATE)
    model.cursor = (9, 9)
    [play] = press(model, "4", "left", "enter")  # Q♠'s only open space is J3
    assert play.card == "QS" and play.cell == (2, 9)


def test_tab_picks_the_next_playable_card():
    model = model_at(TABLE, STATE)
    press(model, "tab")
    assert model.picked == "5H"
    press(model, "tab", "tab")
    assert model.picked == "JD"
    press(model, "s-tab")
    assert model.picked == "7H"
    press(model, "escape")
    assert model.picked is None


def test_a_real_choice_of_fives_is_asked_for():
    model = model_at(TABLE, STATE)
    assert press(model, "1", "enter") == []  # 5♥ at E5 makes six in a row
    assert model.overlay == "fives" and screen(model) == "game"
    [play] = press(model, "down", "enter")
    assert play.cell == (4, 4) and play.fives == ((4, 1, 4, 5),)
    assert model.overlay is None
    press(model, "1", "enter")
    [play] = press(model, "1")  # a number picks the option directly
    assert play.fives == ((4, 0, 4, 4),)


def test_one_eyed_jack_removes_and_dead_cards_are_exchanged():
    hand = ("JS", "9S", "2C")
    state = dataclasses.replace(STATE, hand=hand, legal=("JSxH4", "dead:9S", "2C@E2"), choices=())
    model = model_at(TABLE, state)
    [remove] = press(model, "1", "enter")
    assert remove == Remove(id=1, version=12, card="JS", cell=(3, 7))
    [exchange] = press(model, "x")  # nothing picked: the first dead card
    assert exchange == Exchange(id=2, version=12, card="9S")
    [exchange] = press(model, "2", "x")
    assert exchange.card == "9S"
    assert isinstance(press(model, "p")[0], Pass) and isinstance(press(model, "d")[0], Draw)


def test_playing_off_turn_still_asks_the_server_which_answers_in_words():
    model = model_at(TABLE, dataclasses.replace(STATE, turn=1, legal=(), choices=()))
    [play] = press(model, "2", "enter")
    assert play.card == "7H"  # sent: the refusal comes back as the server's sentence


def test_enter_without_a_card_explains_and_spectators_cannot_play():
    model = model_at(TABLE, STATE)
    assert press(model, "enter") == [] and "Pick a card first" in model.status
    watching = dataclasses.replace(STATE, seat=None, hand=(), legal=())
    model = model_at(dataclasses.replace(TABLE, seat=None), watching)
    assert press(model, "1", "enter") == []


def test_quit_and_leave_ask_first_during_a_game():
    model = model_at(TABLE, STATE)
    assert press(model, "q") == [] and model.overlay == "quit"
    assert press(model, "n") == [] and model.overlay is None
    assert press(model, "q", "y") == [Command.QUIT]
    assert press(model, "L") == [] and model.overlay == "leave"
    [leave] = press(model, "y")
    assert leave.TYPE == "leave"
    assert press(model_at(TABLES), "q") == [Command.QUIT]


def test_help_opens_and_closes():
    model = model_at(TABLE, STATE)
    press(model, "?")
    assert model.overlay == "help"
    assert press(model, "1") == [] and model.picked is None  # keys go to the help
    press(model, "?")
    assert model.overlay is None


def test_chat_is_typed_and_sent():
    model = model_at(TABLE, STATE)
    assert press(model, "c", "h", "i", "x", "backspace", "!", "enter") == [Chat(text="hi!")]
    assert model.overlay is None and model.chat_draft == ""


def test_the_name_is_typed_then_the_hello_can_go():
    model = m.Model(address="h:1", link="online", name_draft="Ai")
    assert screen(model) == "name"
    assert press(model, "n", "o", "backspace", "enter") == [Command.GREET]
    assert model.name == "Ain" and model.named


def test_lobby_join_spectate_and_create_with_every_option():
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


def test_waiting_room_sit_and_ready():
    model = model_at(TABLE)
    assert press(model, "2") == [Sit(seat=1)]
    assert press(model, "down", "enter") == []  # seat 1 again: the server still has us there
    assert press(model, "r") == [Ready(ready=False)]  # seat 1 is ready: take it back
