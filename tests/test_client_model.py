"""The client's model and screen, pure: server messages in, what is shown out."""

from __future__ import annotations

import dataclasses

from prompt_toolkit.output import ColorDepth, DummyOutput

from sarja.client import facts, receive, resume
from sarja.client import model as m
from sarja.client.app import ClientApp, style
from sarja.client.words import game as words_game
from sarja.protocol.changes import (
    Away,
    Back,
    Change,
    DrawForfeited,
    Drew,
    Exchanged,
    NoDraw,
    Passed,
    Played,
    Removed,
    Reshuffled,
    SequenceMade,
    Won,
)
from sarja.protocol.messages import (
    Ack,
    Bye,
    ChatLine,
    Error,
    Hand,
    Last,
    Legal,
    ListTables,
    MatchScore,
    Notice,
    Ping,
    Player,
    Pong,
    Resume,
    Rules,
    Seat,
    Sync,
    Update,
)

from .client_helpers import (
    KEY,
    RESULT,
    RESUME,
    SNAPSHOT,
    STARTED,
    TABLE,
    TABLES,
    WELCOME,
    Wire,
    fed,
    headless,
    model_at,
    snapshot,
    text,
)


def update(version: int, *changes: Change, turn: int = 1, draw_size: int = 83, **fields) -> Update:
    return Update(version=version, changes=changes, turn=turn, draw_size=draw_size, **fields)


def said(model: m.Model) -> list[str]:
    """The log's lines about the game and the table (not the client's own notes)."""
    return [line.text for line in model.log if line.kind != "info"]


def test_welcome_opens_the_lobby_and_keeps_the_token():
    model = model_at()
    assert model.phase == "lobby" and model.seats == {KEY: {"Aino": WELCOME.resume}}
    assert model.layout[0] == "XX" and len(model.layout) == 100
    assert "No tables yet" in text(model)


def test_the_lobby_lists_tables_with_arrangement_and_free_seats():
    screen = text(model_at(TABLES))
    assert "Friday" in screen and "2 players" in screen
    assert "1 free of 2" in screen and "hand 7" in screen
    # The chosen table's seats in full, below the list: never cut to fit a column.
    assert "Seats: Aino (Blue), free (Green)" in screen


def test_the_waiting_room_shows_seats_sides_and_readiness():
    model = model_at(TABLE)
    assert model.phase == "table"
    screen = text(model)
    assert "Blue (B)" in screen and "Aino (you)" in screen and "ready" in screen
    assert "Green (G)" in screen and "— free —" in screen


def test_the_phase_is_the_codecs_session_state():
    wire = fed(STARTED, SNAPSHOT)
    assert wire.model.phase == wire.session.state == "game"
    wire.feed(dataclasses.replace(SNAPSHOT, version=13, legal=(), choices=(), result=RESULT))
    assert wire.model.phase == wire.session.state == "ended"


def test_targets_dead_cards_and_choices_are_the_servers():
    model = model_at(STARTED, SNAPSHOT)
    assert model.phase == "game" and model.my_turn
    assert words_game.turn_text(model) == "YOUR TURN"
    assert facts.targets(model, "7H") == {48, 53}  # I5 and D6, from `targets`
    assert not facts.is_dead(model, "9S")
    assert facts.choice_options(model, 44) == (((40, 44),), ((41, 45),))
    # Whatever the server says goes, even where the board would say otherwise: the
    # client never works it out for itself.
    said = dataclasses.replace(SNAPSHOT, targets=((3,),) * 7, dead=("9S",))
    model = model_at(STARTED, said)
    assert facts.targets(model, "7H") == {3} and facts.targets(model, "JD") == {3}
    assert facts.is_dead(model, "9S") and not facts.is_dead(model, "7H")


def test_off_turn_the_server_still_says_what_each_card_could_take():
    model = model_at(STARTED, snapshot(turn=1))
    assert not model.my_turn and words_game.turn_text(model) == "Bertil's turn"
    assert facts.targets(model, "7H") == {48, 53}
    assert facts.targets(model, "QS") == set(SNAPSHOT.targets[5])


def test_updates_move_the_game_on_and_the_log_says_what_happened():
    wire = fed(STARTED, SNAPSHOT)
    model = wire.model
    assert wire.feed(Ack(id=3, version=13)) == []
    assert model.session.next_id == 4
    wire.feed(
        update(13, Played(seat=0, card="7H", cell=48), Drew(seat=0)),
        Hand(
            version=13,
            hand=("2C", "4S", "5H", "9S", "JD", "QS", "AD"),
            targets=((),) * 7,
            drawn="4S",
        ),  # fmt: skip
        update(14, Played(seat=1, card="2C", cell=14), turn=0),
        Legal(version=14, legal=("2C@G4",)),
    )
    game = model.game
    assert game is not None and game.version == 14 and game.board[48] == "b"
    assert game.board[14] == "g" and model.my_turn and game.legal == ("2C@G4",)
    log = said(model)
    # Routine draws are not news; moves are written out, our own as "You".
    assert log == ["You played 7♥ at I5.", "Bertil played 2♣ at E2."]
    screen = text(model)
    # The side panel writes the last move as the log does, and the board marks it.
    assert "Bertil played 2♣ at E2." in screen and "Last: Bertil played 2♣" in screen
    assert "+(G)+" in screen


# Five blue chips on A5-F5, green ones on B1-E1 and A2-E2: sequences the changes can
# lock (the client refuses a sequence over spaces without the side's chips).
ROWS_OF_FIVE = "*gggg....*ggggg....." + SNAPSHOT.board[20:40] + "bbbbbb...." + SNAPSHOT.board[50:]


def test_every_change_in_words():
    wire = fed(STARTED, snapshot(board=ROWS_OF_FIVE))
    wire.sent.clear()  # the game's history, asked for after its snapshot
    changes = [
        Removed(seat=1, card="JS", cell=45, side=0),
        Removed(seat=0, card="JH", cell=37, side=1),
        Exchanged(seat=1, card="9S"),
        NoDraw(seat=1),
        Reshuffled(),
        DrawForfeited(seat=1),
        DrawForfeited(seat=0),
        Passed(seat=1),
        SequenceMade(seat=0, side=0, fives=((40, 44),)),
        SequenceMade(seat=1, side=1, fives=((0, 4), (10, 14))),
        Away(seat=1),
        Back(seat=1),
    ]
    for version, change in enumerate(changes, start=13):
        wire.feed(update(version, change))
    assert said(wire.model) == [
        "Bertil removed your chip at F5 with the J♠.",
        "You removed Green's chip at H4 with the J♥.",
        "Bertil exchanged a dead 9♠.",
        "Bertil could not draw: both piles are empty.",
        "The discard pile was shuffled into a new draw pile.",
        "Bertil lost their draw: it waited too long.",
        "You lost your draw: it waited too long.",
        "Bertil passed: no playable card.",
        "You completed a sequence (A5–E5).",
        "Bertil completed two sequences (A1–E1, A2–E2).",
        "Bertil is away; the seat is kept.",
        "Bertil is back.",
    ]
    assert wire.sent == []


def test_teams_are_named_as_teams_and_the_end_in_words():
    players = tuple(
        dataclasses.replace(p, name=name, side=i % 2)
        for i, (p, name) in enumerate(zip(SNAPSHOT.players * 2, ("Aino", "Bertil", "Cecilia",
                                                                 "Daniel"), strict=True))
    )  # fmt: skip
    four = dataclasses.replace(STARTED, players=4, seats=STARTED.seats * 2)
    four_hands = dataclasses.replace(RESULT, hands=(*RESULT.hands, ("5C",), ("6C",)))
    wire = fed(four, snapshot(players=players, board=ROWS_OF_FIVE, draw_size=70))
    wire.feed(
        update(13, Removed(seat=1, card="JS", cell=45, side=0), draw_size=70),
        update(14, SequenceMade(seat=2, side=0, fives=((40, 44),)), draw_size=70),
        update(15, Won(side=0), draw_size=70, result=four_hands),
    )
    assert said(wire.model) == [
        "Bertil removed Team Blue's chip at F5 with the J♠.",
        "Team Blue completed a sequence (A5–E5).",
        "Team Blue wins!",
    ]
    assert wire.model.phase == "ended"


def test_manual_draw_shows_draws_and_the_card_we_drew():
    manual = Rules(hand_size=7, manual_draw=True)
    waiting = (SNAPSHOT.players[0], dataclasses.replace(SNAPSHOT.players[1], held=6))
    wire = fed(STARTED, snapshot(rules=manual, players=waiting))
    wire.feed(
        update(13, Played(seat=0, card="7H", cell=48), pending_draw=(0,)),
        update(14, Drew(seat=0)),
        Hand(
            version=14,
            hand=("2C", "4S", "5H", "9S", "JD", "QS", "AD"),
            targets=((),) * 7,
            drawn="4S",
        ),  # fmt: skip
        update(15, Drew(seat=1), turn=0),
    )
    assert said(wire.model)[1:] == ["You drew 4♠.", "Bertil drew a card."]


def test_a_game_coming_on_screen_is_announced():
    wire = fed(STARTED, snapshot(version=0, turn=1, first=1))
    assert [line.text for line in wire.model.log] == [
        "The game begins. The cut: Aino 3♣, Bertil K♦. Bertil plays first."
    ]
    wire.feed(dataclasses.replace(SNAPSHOT, version=1))  # a sync: nothing to announce
    assert len(wire.model.log) == 1
    # Coming back to a game (a resume, a new client), the log starts from the snapshot.
    assert [line.text for line in model_at(STARTED, SNAPSHOT).log] == [
        "You are back in the game at Friday.",
        "Last move: Bertil played 8♦ at H4.",
        "Sequences: Blue 0, Green 0 (of 2 needed).",
        "It is your turn.",
    ]


def test_notices_in_words():
    wire = fed(TABLE)
    for kind, name, seat in (
        ("joined", "Bertil", 1), ("ready", "Bertil", 1), ("unready", "Aino", 0),
        ("seated", "Bertil", 0), ("watching", "Cecilia", None), ("left", "Bertil", 1),
        ("rematch", "Aino", 0), ("takeover", "Bertil", 1),
    ):  # fmt: skip
        wire.feed(Notice(kind=kind, name=name, seat=seat))
    assert [line.text for line in wire.model.log] == [
        "Bertil sat down at seat 2 (Green).",
        "Bertil is ready.",
        "You are not ready.",
        "You moved to seat 1 (Blue).",
        "Cecilia is watching.",
        "Bertil left the table.",
        "You asked for a rematch.",
        "The computer plays for Bertil until they return.",
    ]


def test_a_gap_in_the_versions_asks_for_a_snapshot_once():
    wire = fed(STARTED, SNAPSHOT)
    played = Played(seat=1, card="2C", cell=14)
    assert wire.feed(update(14, played)) == [Sync()]  # 13 never came
    assert wire.model.session.syncing and wire.model.game.version == 12
    assert wire.feed(update(15, played), Legal(version=15, legal=("pass",))) == []
    assert wire.model.game.legal == SNAPSHOT.legal  # nothing half-applied meanwhile
    wire.feed(dataclasses.replace(SNAPSHOT, version=15, turn=1, legal=(), choices=()))
    assert not wire.model.session.syncing and wire.model.game.version == 15
    assert wire.feed(update(16, played, turn=0)) == []


def test_a_lost_update_that_gave_us_the_turn_is_noticed_from_the_legal_list():
    """The update for 13 (Bertil's move, our turn next) is lost; the `legal` for 14 is
    the only sign, and it means a gap, not a message to ignore (protocol.md, section 8)."""
    wire = fed(STARTED, dataclasses.replace(SNAPSHOT, turn=1, legal=(), choices=()))
    assert wire.feed(Legal(version=13, legal=("pass",))) == [Sync()]
    assert wire.model.session.syncing
    fresh = fed(STARTED, dataclasses.replace(SNAPSHOT, turn=1, legal=(), choices=()))
    assert fresh.feed(Hand(version=13, hand=(), targets=(), dead=())) == [Sync()]


def test_the_session_answers_a_ping_and_a_gap_through_the_models_replies():
    """The link sends whatever `apply` returns: the session's own answers come first."""
    wire = fed(STARTED, SNAPSHOT)
    assert wire.feed(Ping(n=9)) == [Pong(n=9)]
    played = Played(seat=1, card="2C", cell=14)
    assert wire.feed(Ping(n=10), update(14, played)) == [Pong(n=10), Sync()]


def test_someone_going_away_keeps_our_turn():
    wire = fed(STARTED, SNAPSHOT)
    wire.feed(update(13, Away(seat=1), turn=0))
    model = wire.model
    assert model.game.players[1].away and model.my_turn and model.game.legal == SNAPSHOT.legal
    assert "Bertil (away)" in text(model)
    assert "lost the connection" not in text(model)


def test_action_ids_go_on_above_the_last_the_server_holds():
    model = fed(welcome=dataclasses.replace(WELCOME, last_id=41)).model
    assert model.session.next_id == 42
    wire = fed(STARTED, dataclasses.replace(SNAPSHOT, last_id=57))
    assert wire.model.session.next_id == 58
    wire.feed(dataclasses.replace(SNAPSHOT, last_id=3, version=13))  # never back down
    assert wire.model.session.next_id == 58


def test_the_game_screen_fits_80_by_24_and_shows_everything():
    h = headless(STARTED, SNAPSHOT)
    h.press("3")  # the 7♥
    lines = h.screen().splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines) and not h.unfit()
    screen = "\n".join(lines)
    assert "A    B    C" in screen and lines[11].startswith("10")
    assert "★" in screen and "(B)" in screen and "(G)" in screen
    assert "» 7♥«" in screen  # both spaces of the picked card are marked
    assert "YOUR TURN" in screen and "▶ Aino (you)" in screen
    assert "[2]5♥" in screen and "J♦ wild" in screen
    assert "Discard 8♦" in screen and "Draw pile 84" in screen
    assert "sequences 0/2" in screen and "Last: Bertil played 8♦" in screen


def test_a_wild_jack_does_not_mark_the_whole_board():
    h = headless(STARTED, SNAPSHOT)
    h.press("5")  # J♦: every open space
    screen = h.screen()
    assert "»" not in screen and "wild: move the cursor to any open space" in screen
    assert "the J♦ can go here" in screen  # the cursor line says so where it stands


def test_the_card_just_drawn_is_marked_new():
    h = headless(STARTED, SNAPSHOT)
    h.feed(
        update(13, Played(seat=0, card="7H", cell=48), Drew(seat=0)),
        Hand(
            version=13,
            hand=("2C", "4S", "5H", "9S", "JD", "QS", "AD"),
            targets=((14, 36), (3, 84), (44, 78), (8, 61), (1,), (29,), (76, 91)),
            drawn="4S",
        ),  # fmt: skip
    )
    assert "[2]4♠ new" in h.screen()


def test_dead_cards_are_marked_in_the_hand():
    screen = text(model_at(STARTED, snapshot(dead=("9S",))))
    assert "[4]9♠ dead" in screen and "x dead card" in screen


def test_locked_chips_and_the_end_screen():
    board = SNAPSHOT.board.replace("bbbb.b", "BBBBBB")
    over = snapshot(
        board=board,
        sequences=(((40, 44), (41, 45)), ()),
        result=RESULT,
    )
    model = model_at(STARTED, over)
    assert model.phase == "ended"
    screen = text(model)
    assert "*[B]*" in screen  # winning sequences marked on the board
    assert "Blue wins (Aino)" in screen and "A5–E5, B5–F5" in screen
    assert "Aino held: 2♣ Q♠" in screen and "Bertil held: 4♥ K♦" in screen
    assert "r rematch" in screen


def test_the_end_is_in_the_winners_colour():
    """Red wins: the banner is red, not the green of "your turn"."""
    from sarja.client import render, render_game
    from sarja.client.fit import text_of

    players = tuple(
        Player(name=name, side=i, away=False, held=6)
        for i, name in enumerate(("Aino", "Bertil", "Cecilia"))
    )
    red = dataclasses.replace(RESULT, side=2, hands=(("2C",), ("4H",), ("KD",)))
    three = dataclasses.replace(STARTED, players=3, teams=3, seats=(STARTED.seats * 2)[:3])
    board = SNAPSHOT.board[:40] + "RRRRRb...." + SNAPSHOT.board[50:]
    model = model_at(three, snapshot(players=players, sides=3, needed=1, result=red, board=board,
                                     draw_size=80, sequences=((), (), ((40, 44),))))  # fmt: skip
    banner = render_game.end_lines(model, 80)[0]
    assert {f[0] for f in banner} == {"class:banner.r"}
    assert "Red wins (Cecilia)" in text_of(banner)
    title = render.title(model, 80)
    assert any(f[0] == "class:banner.r" for f in title)


def test_the_log_is_written_in_chip_colours():
    wire = fed(STARTED, SNAPSHOT)
    wire.feed(update(13, Played(seat=1, card="2H", cell=14)))
    parts = wire.model.log[-1].parts
    assert ("class:side.g", "Bertil") in parts and ("class:card.red", "2♥") in parts


def test_chat_and_refusals_in_words():
    wire = fed(STARTED, SNAPSHOT)
    wire.feed(
        ChatLine(sender="Bertil", seat=1, text="Nice one"),
        Error(code="not_your_turn", message="It is Bertil's turn.", id=3),
    )
    screen = text(wire.model)
    assert "Bertil: Nice one" in screen
    assert wire.model.status == "It is Bertil's turn." and "It is Bertil's turn." in screen


def test_leaving_returns_to_the_lobby_and_a_drop_shows_reconnecting():
    wire = fed(STARTED, SNAPSHOT)
    model = wire.model
    receive.set_link(model, "reconnecting", "The connection to host:7474 dropped. Trying again.")
    assert "Trying again." in text(model)  # the last picture stays on screen meanwhile
    assert model.phase == "connected"
    receive.set_link(model, "online")
    wire = fed(TABLES)
    assert wire.model.phase == "lobby" and wire.model.game is None
    assert "Friday" in text(wire.model)
    back = fed(STARTED, SNAPSHOT)
    back.model.leaving = True  # as the L key does
    back.feed(TABLES)
    assert back.model.game is None and back.model.table is None
    assert "You left table Friday. Your seat is kept" in text(back.model)


def test_the_log_is_the_tables_the_lobby_and_the_next_table_start_their_own():
    """The lobby showed the last table's whole game, and the next table opened with it."""
    wire = fed(STARTED, SNAPSHOT)
    wire.feed(ChatLine(sender="Bertil", seat=1, text="Nice one"))
    assert "Bertil: Nice one" in [line.text for line in wire.model.log]
    wire.model.leaving = True  # as the L key does
    wire.feed(TABLES)
    lines = [line.text for line in wire.model.log]
    assert len(lines) == 1 and lines[0].startswith("You left table Friday."), lines
    assert "Nice one" not in text(wire.model)
    wire.feed(dataclasses.replace(TABLE, id="t2", name="Saturday"))
    assert [line.text for line in wire.model.log] == []
    assert "You left table Friday" not in text(wire.model)


def test_a_server_shutting_down_is_said_in_the_log_and_on_the_link_line_only():
    """It was said three times at once: the log, the link's line and the status line."""
    wire = fed(STARTED, SNAPSHOT)
    wire.feed(Bye(code="shutdown", message="The server is shutting down."))
    said_now = "The server is shutting down."
    receive.set_link(wire.model, "reconnecting", "")
    receive.set_link(wire.model, "reconnecting", f"{said_now} Trying host:7474 again in 3 s.")
    screen = text(wire.model)
    assert screen.count(said_now) == 2, screen  # the log's line, and the link's
    assert "The connection dropped" not in screen  # the goodbye said why, before it


def test_a_computer_renamed_in_a_game_is_told_with_its_old_name():
    """A person called David arrived: the computer David at our game became Eero, and
    the log's "David played 2♦ at C3" read as the person's move, with nothing said."""
    david = Seat(name="David", ready=True, away=False, computer="medium")
    table = dataclasses.replace(STARTED, seats=(STARTED.seats[0], david))
    wire = fed(table, SNAPSHOT)
    eero = dataclasses.replace(david, name="Eero")
    wire.feed(dataclasses.replace(table, seats=(STARTED.seats[0], eero)))
    assert wire.model.log[-1].text == (
        "The computer called David so far, at seat 2 (Green), is Eero now."
    )


def test_a_lost_table_is_not_called_leaving():
    """After a server restart the lobby comes back without our table: we did not leave."""
    wire = fed(STARTED, SNAPSHOT)
    wire.feed(TABLES)
    assert said(wire.model) == [] and "You left" not in text(wire.model)
    assert "You are no longer at table Friday." in text(wire.model)


def test_a_spectator_sees_no_hand_and_no_players_keys():
    watching = dataclasses.replace(SNAPSHOT, seat=None, hand=(), targets=(), legal=(), choices=())
    screen = text(model_at(dataclasses.replace(STARTED, seat=None), watching))
    assert "watching" in screen and "hands are hidden" in screen
    assert "Enter play" not in screen and "1-9" not in screen
    over = dataclasses.replace(watching, result=RESULT)
    screen = text(model_at(dataclasses.replace(STARTED, seat=None), over))
    assert "Game over" in screen and "rematch" not in screen


def test_too_small_a_terminal_says_how_big_it_must_be():
    screen = text(model_at(STARTED, SNAPSHOT), 60, 20)
    assert "at least 80×24" in screen and "60×20" in screen
    narrow = text(model_at(STARTED, SNAPSHOT), 30, 12)  # each sentence wrapped, not cut
    assert "80×24" in narrow and "30×12" in narrow and "Ctrl-C" in narrow, narrow


class Colourful(DummyOutput):
    def get_default_color_depth(self) -> ColorDepth:
        return ColorDepth.DEPTH_8_BIT


def test_no_color_is_respected(monkeypatch):
    client = ClientApp(m.Model(address="h:1"), "h", 1, output=Colourful())
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert client.app.color_depth == ColorDepth.DEPTH_8_BIT
    monkeypatch.setenv("NO_COLOR", "1")
    assert client.app.color_depth == ColorDepth.DEPTH_1_BIT


def test_without_colour_locked_chips_and_marked_spaces_stand_out():
    """NO_COLOR: a locked chip is reversed, the picked card's spaces bold and
    underlined; free chips and plain spaces are neither."""
    mono = style(True)

    def attrs(classes: str):
        return mono.get_attrs_for_style_str(classes)

    locked, free = attrs("class:chip.b class:locked"), attrs("class:chip.b")
    assert locked.reverse and not free.reverse
    target, plain = attrs("class:card.red class:target"), attrs("class:card.red")
    assert target.underline and target.bold and not plain.underline
    assert attrs("class:card.red class:last").underline


def test_a_status_line_does_not_outlive_its_screen():
    wire = fed()
    wire.model.status = "There are no tables yet: press n to create one."
    wire.feed(TABLE)
    assert wire.model.status == ""


def test_the_side_panel_is_never_cut_at_80_columns():
    long = (
        dataclasses.replace(SNAPSHOT.players[0], name="Aino Aleksandra Karlsson"),
        dataclasses.replace(SNAPSHOT.players[1], name="Cecilia", away=True),
    )
    h = headless(STARTED, snapshot(discard=("TC",), draw_size=74, players=long,
                                   last=Last(seat=1, action="JC@J3")))  # fmt: skip
    screen = h.screen()
    assert not h.unfit()
    assert "Discard 10♣ · Draw 74" in screen
    assert "▶ Aino Al… (you) 7 cards" in screen and "Cecilia (away) 7 cards" in screen
    assert "Last: Cecilia played J♣" in screen and "at J3" in screen


# ----- remembered seats: by the server's identity -----------------------------------------


def test_a_welcome_keeps_its_token_under_the_servers_id():
    wire = Wire(m.Model(address="h:1", name="Aino", named=True, link="online"))
    assert wire.feed(WELCOME) == [ListTables()]
    assert wire.model.seats == {KEY: {"Aino": RESUME}}


def test_a_seat_held_at_this_server_is_taken_back_whatever_the_address():
    wire = Wire(
        m.Model(
            address="localhost:7474",
            name="Aino",
            named=True,
            link="online",
            seats={KEY: {"Aino": "old" * 11}, "other": {"Aino": "x" * 33}},
        )
    )
    assert wire.feed(WELCOME) == [Resume(token="old" * 11)]
    # The welcome's own token is kept only if the resume fails.
    assert wire.model.seats[KEY]["Aino"] == "old" * 11
    again = dataclasses.replace(WELCOME, resume="new" * 11, last_id=5)
    assert wire.feed(again) == [Ping(n=resume.RESUME_PING)]
    assert wire.model.seats[KEY]["Aino"] == "new" * 11  # tokens work once
    assert wire.model.session.next_id == 6
    wire.feed(STARTED, SNAPSHOT)
    assert wire.model.phase == "game"
    # The ping's answer finds us at the table: no lobby list is asked for.
    assert wire.feed(Pong(n=resume.RESUME_PING)) == []


def test_a_resume_without_a_seat_lands_in_the_lobby():
    wire = Wire(m.Model(address="h:1", name="Aino", named=True, link="online",
                        seats={KEY: {"Aino": "old" * 11}}))  # fmt: skip
    wire.feed(WELCOME, dataclasses.replace(WELCOME, resume="new" * 11))
    assert wire.feed(Pong(n=resume.RESUME_PING)) == [ListTables()]
    # A refused token: we stay the guest the hello made, with its token.
    wire = Wire(m.Model(address="h:1", name="Aino", named=True, link="online",
                        seats={KEY: {"Aino": "old" * 11}}))  # fmt: skip
    wire.feed(WELCOME)
    gone = Error(code="unknown_resume", message="That resume token is not known here.")
    assert wire.feed(gone) == [ListTables()]
    assert wire.model.seats[KEY]["Aino"] == RESUME and wire.model.status == ""


def test_two_names_on_one_machine_never_share_a_seat():
    wire = Wire(m.Model(address="h:1", name="Bertil", named=True, link="online",
                        seats={KEY: {"Aino": "old" * 11}}))  # fmt: skip
    assert wire.feed(WELCOME) == [ListTables()]
    assert wire.model.seats[KEY] == {"Aino": "old" * 11, "Bertil": RESUME}


def test_our_move_to_another_seat_is_told_as_ours():
    # The notice comes before the table showing the new seat: it read "Aino moved to …".
    wire = fed(TABLE)
    wire.feed(Notice(kind="seated", name="Aino", seat=1))
    assert wire.model.log[-1].text == "You moved to seat 2 (Green)."


def test_a_spectator_at_a_match_is_not_asked_to_be_ready_and_can_go_to_the_waiting_room():
    # "press r when you are ready" was said to a spectator; and once the table was a
    # waiting room again, the footer did not say Enter shows it.
    watching = dataclasses.replace(SNAPSHOT, seat=None, hand=(), targets=(), legal=(), choices=())
    over = dataclasses.replace(watching, result=RESULT)
    table = dataclasses.replace(STARTED, seat=None, match=MatchScore(to=3, games=(0,)))
    screen = text(model_at(table, over))
    assert "Game 2 of the match is next." in screen and "press r" not in screen
    waiting = fed(table, over)
    waiting.feed(dataclasses.replace(table, started=False))  # a seat was freed after it
    assert "Enter to the waiting room" in text(waiting.model)


def test_someone_gone_or_back_between_the_games_of_a_match_is_told():
    # The server keeps the seat of who dropped between games, and the next game waits
    # for them; no game's change says so then, so the log did not either.
    match = MatchScore(to=3, games=(0,))
    table = dataclasses.replace(STARTED, match=match)
    over = dataclasses.replace(SNAPSHOT, result=RESULT, legal=(), choices=())
    wire = fed(table, over)
    bertil = table.seats[1]
    gone = dataclasses.replace(
        table, seats=(table.seats[0], dataclasses.replace(bertil, away=True))
    )
    wire.feed(gone)
    assert wire.model.log[-1].text == "Bertil is away; the seat is kept."
    wire.feed(table)
    assert wire.model.log[-1].text == "Bertil is back."


def test_it_is_not_your_turn_is_not_said_once_it_is():
    # A card played while the computer was still thinking: the server's refusal stayed
    # on the status line after the turn came, under "YOUR TURN" in the title.
    wire = fed(STARTED, snapshot(turn=1))
    wire.feed(Error(code="not_your_turn", message="It is not your turn.", id=3))
    assert wire.model.status == "It is not your turn."
    wire.feed(update(13, Played(seat=1, card="2H", cell=14), turn=0))
    wire.feed(Legal(version=13, legal=("2C@G4",)))
    assert wire.model.my_turn and wire.model.status == ""
    assert "It is not your turn." not in text(wire.model)
    # Another sentence on the status line when the turn comes stays.
    wire.feed(update(14, Played(seat=0, card="5H", cell=44), turn=1))
    wire.feed(Error(code="not_your_turn", message="It is not your turn.", id=4))
    wire.model.status = "Bertil: a status of its own"
    wire.feed(update(15, Played(seat=1, card="3H", cell=15), turn=0))
    wire.feed(Legal(version=15, legal=("2C@G4",)))
    assert wire.model.my_turn and wire.model.status == "Bertil: a status of its own"


def test_the_title_says_the_standings_are_up():
    # The standings drawn over the lobby said "lobby" at the title's end.
    from sarja import lang

    from .client_helpers import headless

    h = headless(TABLES)
    h.press("t")
    assert h.screen().splitlines()[0].rstrip().endswith("standings")
    lang.use("fi")
    assert h.screen().splitlines()[0].rstrip().endswith("tilastot")
    h.press("escape")
    assert h.screen().splitlines()[0].rstrip().endswith("aula")
