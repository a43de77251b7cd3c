"""The rules, one at a time: every worked example in the rule book and every
refusal code, each refusal checked to leave the game exactly as it was."""

from __future__ import annotations

import random

import pytest

from sarja.server.engine import (
    Action,
    Arrangement,
    ArrangementError,
    Game,
    HouseRules,
    IllegalAction,
    MalformedAction,
    Outcome,
    seat_view,
)
from sarja.server.engine.board import CARD_CELLS, LAYOUT_CODES, cell_name, parse_cell
from sarja.server.engine.cards import parse_card

from .engine_helpers import cards, position, snapshot


def play(game: Game, seat: int, text: str):
    return game.apply(seat, Action.parse(text))


def refused(game: Game, seat: int, text: str, code: str) -> IllegalAction:
    """Assert the action is refused with `code` and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        play(game, seat, text)
    assert info.value.code == code, info.value
    assert info.value.message and info.value.message.endswith(".")
    assert snapshot(game) == before
    return info.value


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# ----- the board -------------------------------------------------------------


def test_board_cards_appear_twice_and_corners_are_free():
    assert [LAYOUT_CODES[c] for c in (0, 9, 90, 99)] == ["XX"] * 4
    for code in {c for c in LAYOUT_CODES if c != "XX"}:
        assert LAYOUT_CODES.count(code) == 2, code
    assert not any(c.startswith("J") for c in LAYOUT_CODES)
    assert [cell_name(c) for c in CARD_CELLS[parse_card("7H")]] == ["I5", "D6"]


def test_board_matches_the_shared_layout_when_it_is_beside_the_repo(pytestconfig):
    path = pytestconfig.rootpath.parent / "shared" / "board-layout.txt"
    if not path.exists():
        pytest.skip("shared/board-layout.txt is not beside this checkout")
    rows = [line.split() for line in path.read_text().splitlines() if line and line[0] != "#"]
    assert [code for row in rows for code in row] == list(LAYOUT_CODES)


# ----- arrangements ----------------------------------------------------------


@pytest.mark.parametrize(
    "players, teams, sides, hand, needed",
    [
        (2, None, 2, 7, 2),
        (3, None, 3, 6, 1),
        (4, None, 2, 6, 2),
        (6, 2, 2, 5, 2),
        (6, 3, 3, 5, 1),
        (8, None, 2, 4, 2),
        (9, None, 3, 4, 1),
        (10, None, 2, 3, 2),
        (12, 2, 2, 3, 2),
        (12, 3, 3, 3, 1),
    ],
)
def test_every_table_arrangement(players, teams, sides, hand, needed):
    a = Arrangement.of(players, teams)
    assert (a.sides, a.hand_size, a.needed) == (sides, hand, needed)
    # Seats alternate between sides: A1 B1 (C1) A2 B2 (C2) ...
    assert [a.side_of(s) for s in range(players)] == [s % sides for s in range(players)]
    game = Game.new(a, random.Random(players))
    assert [len(h) for h in game.hands] == [hand] * players
    assert len(game.draw_pile) == 104 - hand * players


@pytest.mark.parametrize(
    "players, teams, rules, code",
    [
        (5, None, HouseRules(), "bad_player_count"),
        (1, None, HouseRules(), "bad_player_count"),
        (7, 2, HouseRules(), "bad_player_count"),
        (13, None, HouseRules(), "bad_player_count"),
        (4, 3, HouseRules(), "bad_team_count"),
        (8, 3, HouseRules(), "bad_team_count"),
        (9, 2, HouseRules(), "bad_team_count"),
        (2, 3, HouseRules(), "bad_team_count"),
        (6, None, HouseRules(), "team_count_needed"),
        (12, None, HouseRules(), "team_count_needed"),
        (2, None, HouseRules(hand_size=0), "bad_hand_size"),
        (4, None, HouseRules(hand_size=11), "bad_hand_size"),
    ],
)
def test_bad_arrangements_are_refused_with_a_reason(players, teams, rules, code):
    with pytest.raises(ArrangementError) as info:
        Arrangement.of(players, teams, rules)
    assert info.value.code == code
    assert str(players) in info.value.message or code == "bad_hand_size"


def test_house_rule_hand_size():
    a = Arrangement.of(4, rules=HouseRules(hand_size=5, manual_draw=True))
    assert a.hand_size == 5 and a.manual_draw
    assert [len(h) for h in Game.new(a, random.Random(1)).hands] == [5] * 4


# ----- the cut and the deal --------------------------------------------------


class ScriptedCut(random.Random):
    """Cuts the given cards, round by round; shuffles nothing."""

    def __init__(self, *rounds: str) -> None:
        super().__init__(0)
        self.rounds = [cards(r) for r in rounds]

    def sample(self, population, k):
        cut = self.rounds.pop(0)
        assert len(cut) == k
        return cut

    def shuffle(self, x):
        pass


def test_lowest_cut_plays_first_and_aces_are_high():
    game = Game.new(Arrangement.of(2), ScriptedCut("AS 2C"))
    assert game.first == 1 and game.turn == 1


def test_jacks_rank_between_ten_and_queen_in_the_cut():
    assert Game.new(Arrangement.of(2), ScriptedCut("QS JD")).first == 1
    assert Game.new(Arrangement.of(2), ScriptedCut("JD TS")).first == 1


def test_ties_for_lowest_cut_again_among_themselves():
    game = Game.new(Arrangement.of(3), ScriptedCut("5H 5S KH", "AS 2C"))
    assert game.cut == (
        tuple(zip([0, 1, 2], cards("5H 5S KH"), strict=True)),
        tuple(zip([0, 1], cards("AS 2C"), strict=True)),
    )
    assert game.first == 1


def test_deal_starts_with_the_first_player_one_card_at_a_time():
    deck = list(range(52)) * 2
    cut = (((0, parse_card("KS")), (1, parse_card("2S"))),)
    game = Game(Arrangement.of(2), cut, deck)
    assert game.first == 1
    assert game.hands[1] == deck[0:14:2] and game.hands[0] == deck[1:14:2]
    assert game.draw_pile[-1] == deck[14]  # the top of the draw pile comes next


# ----- worked examples from the rule book ------------------------------------


def test_nine_in_a_row_is_two_sequences_and_wins():
    blue = {cell_name(40 + c): 0 for c in (0, 1, 2, 3, 5, 6, 7, 8)}
    game = position(hands=["5H", ""], chips=blue)
    events = play(game, 0, "5H@E5")
    assert game.sequences[0] == [(40, 41, 42, 43, 44), (44, 45, 46, 47, 48)]
    assert game.outcome == Outcome("win", 0)
    assert kinds(events) == ["played", "sequence", "won"]
    assert all(game.locked[40 + c] for c in range(9))


def test_corner_and_four_chips_make_a_sequence():
    game = position(hands=["5S", ""], chips={"B1": 0, "C1": 0, "D1": 0})
    play(game, 0, "5S@E1")
    assert game.sequences[0] == [(0, 1, 2, 3, 4)]
    assert game.outcome is None  # two sides need two sequences


def test_one_eyed_jack_cannot_remove_a_locked_or_a_teammates_chip():
    game = position(
        players=4,
        hands=["JS 2S", "", "", ""],
        chips={"B1": 1, "C1": 1, "D1": 1, "E1": 1, "F1": 1, "G2": 2 - 2, "B2": 1},
        locked=["B1", "C1", "D1", "E1"],
    )
    game.sequences[1].append((0, 1, 2, 3, 4))
    game.chips[parse_cell("G2")] = 1  # seat 0's own side (seat 2 is the teammate)
    refused(game, 0, "JSxC1", "locked_chip")
    refused(game, 0, "JSxG2", "own_chip")
    assert game.turn == 0
    events = play(game, 0, "JSxB2")  # an unlocked opponent chip is fine
    assert kinds(events)[0] == "removed" and game.chips[parse_cell("B2")] == 0
    assert game.turn == 1


def test_two_eyed_jack_goes_on_any_open_space_even_one_someone_holds():
    game = position(hands=["JD JC", "7H"], chips={"B1": 1})
    refused(game, 0, "JD@A1", "corner_space")
    refused(game, 0, "JD@B1", "space_taken")
    play(game, 0, "JD@I5")  # a 7♥ space, while seat 1 holds the 7♥
    assert game.chips[parse_cell("I5")] == 1


def test_dead_card_exchange_once_per_turn():
    game = position(hands=["7H 8H 2S", ""], chips={"I5": 1, "D6": 1, "I4": 1, "D7": 1})
    assert game.is_dead(parse_card("7H")) and game.is_dead(parse_card("8H"))
    legal = {str(a) for a in game.legal_actions(0)}
    assert {"dead:7H", "dead:8H", "2S@B1", "2S@G9"} <= legal
    events = play(game, 0, "dead:7H")
    assert kinds(events) == ["exchanged", "drew"]
    assert len(game.hands[0]) == 3 and game.discard[-1] == parse_card("7H")
    refused(game, 0, "dead:8H", "already_exchanged")
    assert "dead:8H" not in {str(a) for a in game.legal_actions(0)}
    play(game, 0, "2S@B1")
    play(game, 1, "pass")  # seat 1 holds nothing
    play(game, 0, "dead:8H")  # the second dead card waited for a later turn


# ----- placing ---------------------------------------------------------------


def test_a_card_goes_on_either_of_its_spaces():
    for cell in ("I5", "D6"):
        game = position(hands=["7H", ""])
        events = play(game, 0, f"7H@{cell}")
        assert events[0].kind == "played" and game.chips[parse_cell(cell)] == 1
        assert game.turn == 1 and len(game.hands[0]) == 1  # drew a replacement


def test_placement_refusals():
    game = position(hands=["7H JS", "8H"], chips={"I5": 1})
    refused(game, 0, "7H@I5", "space_taken")
    refused(game, 0, "7H@A1", "corner_space")
    err = refused(game, 0, "7H@B1", "wrong_space")
    assert err.message == "The 7♥ goes on I5 or D6, not there."
    refused(game, 0, "8H@H4", "card_not_in_hand")
    refused(game, 0, "JS@B1", "wrong_card")
    refused(game, 0, "7HxI5", "wrong_card")
    refused(game, 1, "8H@H4", "not_your_turn")
    with pytest.raises(IllegalAction) as info:
        game.apply(5, Action.parse("7H@D6"))
    assert info.value.code == "not_a_player"


def test_removal_refusals():
    game = position(hands=["JH", ""], chips={"B1": 0})
    refused(game, 0, "JHxC1", "no_chip")
    refused(game, 0, "JHxA1", "no_chip")
    refused(game, 0, "JHxB1", "own_chip")


def test_malformed_actions_differ_from_illegal_ones():
    for text, code in [
        ("7H@Z9", "malformed_action"),
        ("7H@K1", "malformed_action"),
        ("1H@A1", "malformed_action"),
        ("", "malformed_action"),
        ("7H@D5[A5-E6]", "bad_five"),
        ("7H@D5[E5-A5]", "bad_five"),
    ]:
        with pytest.raises(MalformedAction) as info:
            Action.parse(text)
        assert info.value.code == code, text
        assert not isinstance(info.value, IllegalAction)
    game = position(hands=["7H", ""])
    before = snapshot(game)
    for bad, code in [
        (Action(0, 60, 3), "bad_card"),
        (Action(0, 5, 100), "bad_cell"),
        (Action(9), "malformed_action"),
        (Action(4, 5), "malformed_action"),
        (Action(2, 5, 5), "malformed_action"),
        (Action(1, 40, 5, ((0, 1, 2, 3, 4),)), "malformed_action"),
        (Action(0, 5, 5, ((0, 1, 2, 3, 5),)), "bad_five"),
    ]:
        with pytest.raises(MalformedAction) as info:
            game.apply(0, bad)
        assert info.value.code == code, bad
    assert snapshot(game) == before


def test_notation_round_trips():
    for text in ["7H@D5", "JD@J10", "7H@D5[A5-E5]", "5H@E5[A5-E5,E5-I5]", "JSxA2",
                 "dead:TC", "draw", "pass"]:  # fmt: skip
        assert str(Action.parse(text)) == text


# ----- sequences -------------------------------------------------------------

SIX_IN_ROW_5 = {"A5": 0, "B5": 0, "C5": 0, "E5": 0, "F5": 0}  # D5 (6H) completes six


def test_six_in_a_row_default_is_the_first_five_in_reading_order():
    game = position(hands=["6H", ""], chips=SIX_IN_ROW_5)
    options = game.sequence_options(0, parse_cell("D5"))
    assert options == [[((40, 41, 42, 43, 44),), ((41, 42, 43, 44, 45),)]]
    view = seat_view(game, 0)
    assert view.choices == ((43, tuple(tuple(o) for o in options)),)
    play(game, 0, "6H@D5")
    assert game.sequences[0] == [(40, 41, 42, 43, 44)]
    assert game.locked[40] and not game.locked[45]  # chips outside the five stay unlocked


def test_the_placing_player_may_choose_the_five():
    game = position(hands=["6H", ""], chips=SIX_IN_ROW_5)
    play(game, 0, "6H@D5[B5-F5]")
    assert game.sequences[0] == [(41, 42, 43, 44, 45)]
    assert not game.locked[40] and game.locked[45]


def test_a_choice_the_move_cannot_make_is_refused():
    game = position(hands=["6H 7H", ""], chips=SIX_IN_ROW_5)
    refused(game, 0, "6H@D5[A1-E5]", "bad_choice")
    refused(game, 0, "6H@D5[A6-E6]", "bad_choice")
    refused(game, 0, "7H@D6[A6-E6]", "bad_choice")  # makes no sequence at all


def test_ten_in_a_row_counts_two():
    blue = {cell_name(40 + c): 0 for c in (0, 1, 2, 3, 5, 6, 7, 8, 9)}
    game = position(hands=["5H", ""], chips=blue)
    play(game, 0, "5H@E5")
    assert game.sequences[0] == [(40, 41, 42, 43, 44), (44, 45, 46, 47, 48)]
    assert game.outcome == Outcome("win", 0) and not game.locked[49]


def test_a_second_sequence_shares_at_most_one_space_with_the_first():
    row = {cell_name(40 + c): 0 for c in range(8)}
    locked = [cell_name(40 + c) for c in range(5)]
    game = position(hands=["7H 9D", ""], chips={k: v for k, v in row.items() if k != "H5"},
                    locked=locked)  # fmt: skip
    game.sequences[0].append((40, 41, 42, 43, 44))
    play(game, 0, "9D@H5")  # D5..H5 would share two spaces: no new sequence
    assert len(game.sequences[0]) == 1
    game.turn = 0
    play(game, 0, "7H@I5")  # E5..I5 shares only E5: a second sequence, and the win
    assert game.sequences[0][1] == (44, 45, 46, 47, 48)
    assert game.outcome == Outcome("win", 0)


def test_sequences_run_in_all_four_directions():
    cases = [
        ({"A2": 0, "A3": 0, "A4": 0}, "9C@A5", (0, 10, 20, 30, 40)),  # down, with corner
        ({"B2": 0, "C3": 0, "D4": 0}, "5H@E5", (0, 11, 22, 33, 44)),  # diagonal
        ({"I2": 0, "H3": 0, "G4": 0}, "4H@F5", (9, 18, 27, 36, 45)),  # anti-diagonal
        ({"B5": 0, "C5": 0, "D5": 0, "E5": 0}, "9C@A5", (40, 41, 42, 43, 44)),  # across
    ]
    for chips, move, five in cases:
        game = position(hands=[move[:2], ""], chips=chips)
        events = play(game, 0, move)
        assert game.sequences[0] == [five], move
        assert events[1].fives == ((five[0], five[-1]),)  # a change holds its end cells


def test_a_corner_belongs_to_every_side():
    game = position(
        hands=["5S", "9C"], chips={"B1": 0, "C1": 0, "D1": 0, "A2": 1, "A3": 1, "A4": 1}
    )
    play(game, 0, "5S@E1")
    play(game, 1, "9C@A5")
    assert game.sequences == [[(0, 1, 2, 3, 4)], [(0, 10, 20, 30, 40)]]


def test_three_sides_need_one_sequence():
    game = position(players=3, hands=["5S", "", ""], chips={"B1": 0, "C1": 0, "D1": 0})
    play(game, 0, "5S@E1")
    assert game.outcome == Outcome("win", 0)


def test_teams_share_a_colour_and_sequences():
    game = position(players=4, hands=["", "", "5S", ""], chips={"B1": 0, "C1": 0, "D1": 0},
                    turn=2)  # fmt: skip
    play(game, 2, "5S@E1")
    assert game.sequences[0] == [(0, 1, 2, 3, 4)] and game.chips[4] == 1


# ----- the end ---------------------------------------------------------------


def test_nothing_is_accepted_after_the_game_is_over():
    game = position(hands=["5S 2H", "3H"], chips={"B1": 0, "C1": 0, "D1": 0}, players=3)
    play(game, 0, "5S@E1")
    refused(game, 1, "3H@F6", "game_over")
    assert game.legal_actions(1) == []


def test_the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out():
    game = position(hands=["7H", ""], discard="2S 3S")
    game.hands[1], game.draw_pile = game.draw_pile, []  # all other cards in seat 1's hand
    game._rng = random.Random(4)
    events = play(game, 0, "7H@I5")
    assert kinds(events) == ["played", "reshuffled", "drew"]
    assert game.discard == [] and len(game.draw_pile) == 2 and len(game.hands[0]) == 1
    assert sorted(game.reshuffles[0]) == sorted(cards("2S 3S 7H"))
    assert sum(game.all_cards().values()) == 104


def test_pass_only_without_a_playable_card():
    game = position(hands=["7H", "JS"])
    refused(game, 0, "pass", "must_play")
    game = position(hands=["7H 2S", ""], chips={"I5": 1, "D6": 1})
    refused(game, 0, "pass", "must_play")
    game = position(hands=["7H", ""], chips={"I5": 1, "D6": 1})
    refused(game, 0, "pass", "must_exchange")
    assert [str(a) for a in game.legal_actions(0)] == ["dead:7H"]


def test_a_full_round_of_passes_is_a_draw():
    # Only one-eyed jacks in hand and no opponent chip to remove: nobody can play.
    game = position(hands=["JS", "JH"], chips={"B1": 0, "C1": 1}, locked=["B1", "C1"])
    assert [str(a) for a in game.legal_actions(0)] == ["pass"]
    play(game, 0, "pass")
    assert game.outcome is None and game.turn == 1
    events = play(game, 1, "pass")
    assert kinds(events) == ["passed", "drawn_game"] and game.outcome == Outcome("draw")


def test_a_placement_between_passes_restarts_the_round():
    game = position(players=3, hands=["JS", "2S", "JH"], chips={"C1": 0}, locked=["C1"])
    game.chips[parse_cell("C1")] = 1
    play(game, 0, "pass")
    play(game, 1, "2S@B1")
    assert game.passes == 0


# ----- manual draw -----------------------------------------------------------

MANUAL = HouseRules(manual_draw=True)


def test_manual_draw_waits_for_the_player():
    game = position(hands=["7H 2S", "3S"], rules=MANUAL)
    play(game, 0, "7H@I5")
    assert game.turn == 1 and game.hands[0] == cards("2S") and game.pending_draw == [0]
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]
    events = play(game, 0, "draw")
    assert kinds(events) == ["drew"] and len(game.hands[0]) == 2
    refused(game, 0, "draw", "nothing_to_draw")


def test_manual_draw_is_forfeited_once_the_next_player_played_and_drew():
    game = position(hands=["7H 2S", "3S 4S"], rules=MANUAL)
    play(game, 0, "7H@I5")
    play(game, 1, "3S@C1")
    assert game.pending_draw == [0, 1]
    events = play(game, 1, "draw")
    assert kinds(events) == ["drew", "draw_forfeited"] and events[1].seat == 0
    refused(game, 0, "draw", "nothing_to_draw")
    assert len(game.hands[0]) == 1  # one card fewer, for good


def test_manual_draw_is_lost_by_playing_again_before_taking_it():
    game = position(hands=["7H 2S", "3S 4S"], rules=MANUAL)
    play(game, 0, "7H@I5")
    play(game, 1, "3S@C1")
    events = play(game, 0, "2S@B1")
    assert "draw_forfeited" in kinds(events) and game.pending_draw == [1, 0]


def test_automatic_draw_refuses_a_draw_action():
    refused(position(hands=["7H", ""]), 0, "draw", "nothing_to_draw")


# ----- views -----------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_a_spectator_sees_none():
    game = Game.new(Arrangement.of(4), random.Random(9))
    for seat in range(4):
        view = seat_view(game, seat)
        assert view.hand == tuple(sorted(game.hands[seat]))
        assert view.held == (6, 6, 6, 6) and view.draw_size == 80
        assert view.revealed_hands is None
        assert set(view.legal) == set(game.legal_actions(seat))
    spectator = seat_view(game, None)
    assert spectator.hand == () and spectator.legal == () and spectator.choices == ()
    assert len(spectator.board) == 100 and spectator.board.count("*") == 4


def test_hands_are_revealed_only_once_the_game_is_over():
    game = position(hands=["5S", "2H 3H"], chips={"B1": 0, "C1": 0, "D1": 0}, players=3)
    play(game, 0, "5S@E1")
    view = seat_view(game, None)
    assert view.outcome == Outcome("win", 0)
    assert view.revealed_hands[1] == tuple(sorted(cards("2H 3H")))
    assert view.board[:5] == "*BBBB"


def test_an_older_waiting_draw_does_not_forfeit_a_newer_one():
    # B plays, A plays, then B takes the draw from B's earlier turn: A's draw,
    # made after B's play, is not lost by it.
    game = position(hands=["7H 2S", "3S 4S"], rules=MANUAL, turn=1)
    play(game, 1, "3S@C1")
    play(game, 0, "7H@I5")
    events = play(game, 1, "draw")
    assert kinds(events) == ["drew"] and game.pending_draw == [0]
    play(game, 0, "draw")


def test_no_pass_while_a_draw_is_waiting():
    game = position(hands=["7H", "JS"], rules=MANUAL, chips={"D6": 1})
    play(game, 0, "7H@I5")
    game.turn = 0  # seat 0's hand is empty, but its draw is waiting
    assert [str(a) for a in game.legal_actions(0)] == ["draw"]
    refused(game, 0, "pass", "must_draw")


def test_a_pass_is_refused_for_the_first_thing_the_legal_list_offers():
    # docs/protocol.md (`pass`) names one order: a waiting draw, then plays, then dead cards.
    game = position(hands=["7H 8H", "JS"], rules=MANUAL, chips={"I5": 1, "D6": 1})
    eight = str(game.legal_actions(0)[0])
    assert eight.startswith("8H@")
    play(game, 0, eight)
    game.turn = 0  # a draw waits, and the 7♥ is dead
    assert [str(a) for a in game.legal_actions(0)] == ["draw", "dead:7H"]
    refused(game, 0, "pass", "must_draw")
    game = position(hands=["7H 8H", "JS"], rules=MANUAL)
    play(game, 0, str(game.legal_actions(0)[-1]))
    game.turn = 0  # a draw waits, and a card can be played
    assert [str(a) for a in game.legal_actions(0)][0] == "draw"
    refused(game, 0, "pass", "must_draw")


def test_hands_must_leave_a_draw_pile():
    with pytest.raises(ArrangementError) as info:
        Arrangement.of(12, 2, HouseRules(hand_size=5))
    assert info.value.code == "bad_hand_size" and "60" in info.value.message
    assert Arrangement.of(12, 2, HouseRules(hand_size=4)).hand_size == 4


def test_a_copy_never_draws_on_the_real_games_random_source():
    rng = random.Random(8)
    game = Game.new(Arrangement.of(2), rng)
    state = rng.getstate()
    simulation = game.copy()
    simulation.draw_pile, simulation.discard = [], simulation.draw_pile  # force a reshuffle
    simulation.apply(simulation.turn, simulation.legal_actions(simulation.turn)[0])
    assert simulation.reshuffles and rng.getstate() == state
