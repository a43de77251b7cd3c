"""The client's model and screen, pure: server messages in, what is shown out."""

from __future__ import annotations

import dataclasses

from prompt_toolkit.output import ColorDepth, DummyOutput

from sarja.client import model as m
from sarja.client.app import ClientApp
from sarja.client.render import plain_text, screen_lines
from sarja.protocol.examples import OUTCOME, SERVER_EXAMPLES
from sarja.protocol.messages import ChatFrom, Error, Event, State, Table, Tables, Welcome

EXAMPLE = {type(msg).__name__: msg for msg in SERVER_EXAMPLES}
WELCOME: Welcome = EXAMPLE["Welcome"]
TABLES: Tables = EXAMPLE["Tables"]
TABLE: Table = EXAMPLE["Table"]
STATE: State = EXAMPLE["State"]


def model_at(*messages) -> m.Model:
    model = m.Model(address="host:7474", name="Aino", named=True, link="online")
    for msg in (WELCOME, *messages):
        m.apply(model, msg)
    return model


def text(model: m.Model, width: int = 80, height: int = 24) -> str:
    return plain_text(screen_lines(model, width, height))


def test_welcome_opens_the_lobby_and_keeps_the_token():
    model = model_at()
    assert model.phase == "lobby" and model.resume == WELCOME.resume
    assert model.layout[0] == "XX" and len(model.layout) == 100
    assert "No tables yet" in text(model)


def test_the_lobby_lists_tables_with_arrangement_and_free_seats():
    screen = text(model_at(TABLES))
    assert "Friday" in screen and "2 players" in screen
    assert "1 free; Aino" in screen and "hand 7" in screen


def test_the_waiting_room_shows_seats_sides_and_readiness():
    model = model_at(TABLE)
    assert model.phase == "table"
    screen = text(model)
    assert "Blue (B)" in screen and "Aino (you)" in screen and "ready" in screen
    assert "Green (G)" in screen and "— free —" in screen


def test_a_state_gives_the_turn_targets_and_dead_cards_from_legal_actions():
    model = model_at(TABLE, STATE)
    assert model.phase == "game" and model.my_turn
    assert m.turn_text(model) == "YOUR TURN"
    assert m.targets(model, "7H") == {(4, 8), (5, 3)}  # I5 and D6, from `legal`
    assert m.targets(model, "JD") == {(0, 1)}
    assert not m.is_dead(model, "9S")
    dead = dataclasses.replace(STATE, legal=(*STATE.legal, "dead:9S"))
    m.apply(model, dead)
    assert m.is_dead(model, "9S")
    assert m.choice_options(model, (4, 4)) == (((4, 0, 4, 4),), ((4, 1, 4, 5),))


def test_off_turn_targets_come_from_the_board_and_layout():
    board = list(STATE.board)
    board[4 * 10 + 8] = "g"  # cover I5: one 7♥ space left
    for i, card in enumerate(WELCOME.layout):
        if card == "9S":
            board[i] = "G"  # both 9♠ spaces covered: 9♠ is dead
    waiting = dataclasses.replace(STATE, turn=1, legal=(), choices=(), board="".join(board))
    model = model_at(TABLE, waiting)
    assert not model.my_turn and m.turn_text(model) == "Bertil's turn"
    assert m.targets(model, "7H") == {(5, 3)}
    assert m.is_dead(model, "9S") and not m.is_dead(model, "JD")
    assert len(m.targets(model, "JD")) == waiting.board.count(".")
    # A one-eyed jack: opponents' chips only, never our own, locked ones included as
    # the board shows them (the server refuses a locked one with its reason).
    removable = m.targets(model, "JS")
    assert (3, 7) in removable and (4, 0) not in removable


def test_the_game_screen_fits_80_by_24_and_shows_everything():
    model = model_at(TABLE, STATE)
    model.picked = "7H"
    lines = text(model).splitlines()
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    screen = "\n".join(lines)
    assert "A    B    C" in screen and lines[11].startswith("10")
    assert "★" in screen and "(B)" in screen and "(G)" in screen
    assert "› 7♥‹" in screen  # both spaces of the picked card are marked
    assert "YOUR TURN" in screen and "▶ Aino (you)" in screen
    assert "[1]5♥" in screen and "J♦ wild" in screen
    assert "Discard 8♦" in screen and "Draw pile 84" in screen
    assert "sequences 0/2" in screen


def test_locked_chips_and_the_end_screen():
    board = STATE.board.replace("bbbb.b", "BBBBBb")
    over = dataclasses.replace(
        STATE,
        board=board,
        legal=(),
        choices=(),
        sequences=(((4, 0, 4, 4), (4, 1, 4, 5)), ()),
        outcome=OUTCOME,
    )
    model = model_at(TABLE, over)
    assert model.phase == "ended"
    screen = text(model)
    assert "*[B]*" in screen  # winning sequences marked on the board
    assert "Blue wins: Aino" in screen
    assert "Aino             held: Q♠ 2♣" in screen and "Bertil           held: K♦ 4♥" in screen
    assert "r rematch" in screen


def test_events_chat_and_refusals_in_words():
    model = model_at(TABLE, STATE)
    m.apply(model, Event(version=13, kind="sequence", text="Blue completed a sequence (A5–E5)"))
    m.apply(model, ChatFrom(sender="Bertil", seat=1, text="Nice one"))
    m.apply(model, Error(code="not_your_turn", message="It is Bertil's turn.", id=3))
    screen = text(model)
    assert "Blue completed a sequence (A5–E5)." in screen
    assert "Bertil: Nice one" in screen
    assert model.status == "It is Bertil's turn." and "It is Bertil's turn." in screen


def test_leaving_returns_to_the_lobby_and_a_drop_shows_reconnecting():
    model = model_at(TABLE, STATE)
    m.set_link(model, "reconnecting", "")
    assert "reconnecting…" in text(model)  # the last state stays on screen meanwhile
    m.set_link(model, "online")
    m.apply(model, WELCOME)
    m.apply(model, TABLES)
    assert model.phase == "lobby" and model.state is None and model.table is None
    assert "Friday" in text(model)


def test_a_spectator_sees_no_hand():
    watching = dataclasses.replace(STATE, seat=None, hand=(), legal=(), choices=())
    screen = text(model_at(dataclasses.replace(TABLE, seat=None), watching))
    assert "watching" in screen and "hands are hidden" in screen


def test_every_screen_fits_80_columns():
    from sarja.client.intents import intent_for, perform

    lobby = model_at(TABLES)
    perform(lobby, intent_for(lobby, "n"))
    helped = model_at(TABLE, STATE)
    helped.overlay = "help"
    for model in (lobby, helped, model_at(TABLE), model_at(TABLE, STATE)):
        lines = text(model).splitlines()
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80


def test_too_small_a_terminal_says_how_big_it_must_be():
    screen = text(model_at(TABLE, STATE), 60, 20)
    assert "at least 80×24" in screen and "60×20" in screen


class Colourful(DummyOutput):
    def get_default_color_depth(self) -> ColorDepth:
        return ColorDepth.DEPTH_8_BIT


def test_no_color_is_respected(monkeypatch):
    client = ClientApp(m.Model(address="h:1"), "h", 1, output=Colourful())
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert client.app.color_depth == ColorDepth.DEPTH_8_BIT
    monkeypatch.setenv("NO_COLOR", "1")
    assert client.app.color_depth == ColorDepth.DEPTH_1_BIT


def test_a_click_means_what_the_keys_for_that_thing_mean():
    from sarja.client.render import hit

    model = model_at(TABLE, STATE)
    lines = text(model).splitlines()
    assert hit(model, 80, 24, 3 + 3 * 5 + 2, 2 + 4).arg == (4, 3)  # D5 on the board
    column = lines[13].index("[3]")
    assert hit(model, 80, 24, column, 13).name == "click_card"
    assert hit(model, 80, 24, column, 13).arg == 2
    assert hit(model, 80, 24, 79, 23) is None


def test_a_status_line_does_not_outlive_its_screen():
    model = model_at()
    model.status = "There are no tables yet: press n to create one."
    m.apply(model, dataclasses.replace(TABLE, started=False))
    assert model.status == ""
