"""The coach's judgement on constructed positions: a missed win, a winning four left
open, a two-eyed jack spent where a plain card would do (or for nothing), a chip
removed that did not matter; good moves unmarked; a hint's reasons; and the analysis
of a whole record, in order, with its progress."""

from __future__ import annotations

import random

from sarja.server.coach import analyse, judge_move, reason
from sarja.server.engine import Action, Arrangement, Game, game_record, seat_view
from sarja.server.engine.board import LAYOUT
from sarja.server.engine.cards import JD, JS, parse_card

EMPTY_FAR = 77  # H8: far from every line below


def position(chips: dict[int, int], hand: list[int], players: int = 3) -> Game:
    """Seat 0 to move (three sides: one sequence wins) on a board holding `chips`
    (cell: mark, side + 1) and nothing else, with `hand`."""
    game = Game.new(Arrangement.of(players), random.Random(1))
    for cell in range(100):
        if game.chips[cell] != 4:  # the corners stay
            game.chips[cell] = 0
    for cell, mark in chips.items():
        game.chips[cell] = mark
    game.hands[0] = list(hand)
    game.turn = 0
    return game


def card(cell: int) -> int:
    return LAYOUT[cell]


def play(c: int, cell: int) -> Action:
    return Action.parse(f"{code(c)}@{name(cell)}")


def code(c: int) -> str:
    from sarja.server.engine.cards import CARD_CODES

    return CARD_CODES[c]


def name(cell: int) -> str:
    return "ABCDEFGHIJ"[cell % 10] + str(cell // 10 + 1)


ROW2 = {11: 1, 12: 1, 13: 1, 14: 1}  # B2-E2 blue: F2 (15) completes it


def test_a_win_missed_is_marked_with_the_winning_move():
    game = position(ROW2, [card(15), card(EMPTY_FAR)])
    seat, kind, played, better, cell = judge_move(game, 0, play(card(EMPTY_FAR), EMPTY_FAR))
    assert (seat, kind, cell) == (0, "missed_win", 15)
    assert played == f"{code(card(EMPTY_FAR))}@H8" and better == f"{code(card(15))}@F2"
    assert judge_move(game, 0, play(card(15), 15)) is None  # taking it is no mistake


def test_a_winning_four_of_another_side_left_open_is_marked_with_the_block():
    green = {50: 1, 51: 2, 52: 2, 53: 2, 54: 2}  # B6-E6 green, A6 blue: F6 (55) wins it
    game = position(green, [card(55), card(EMPTY_FAR)])
    _, kind, _, better, cell = judge_move(game, 0, play(card(EMPTY_FAR), EMPTY_FAR))
    assert (kind, cell) == ("left_four", 55) and better == f"{code(card(55))}@F6"
    assert judge_move(game, 0, play(card(55), 55)) is None  # the block


def test_a_two_eyed_jack_spent_where_a_plain_card_would_do_is_marked():
    game = position({}, [JD, card(EMPTY_FAR)])
    _, kind, played, better, cell = judge_move(game, 0, play(JD, EMPTY_FAR))
    assert (kind, cell) == ("wasted_jack", EMPTY_FAR)
    assert played == "JD@H8" and better == f"{code(card(EMPTY_FAR))}@H8"


def test_a_two_eyed_jack_spent_for_nothing_is_marked_and_one_that_wins_is_not():
    game = position({}, [JD, card(EMPTY_FAR)])
    _, kind, _, better, _ = judge_move(game, 0, play(JD, 66))  # G7: alone
    assert kind == "wasted_jack" and better == f"{code(card(EMPTY_FAR))}@H8"
    game = position(ROW2, [JD, card(EMPTY_FAR)])
    assert judge_move(game, 0, play(JD, 15)) is None  # the jack wins the game


def test_a_chip_removed_that_did_not_matter_is_marked_and_a_threat_broken_is_not():
    green = {51: 2, 52: 2, 53: 2, 88: 2}  # three in B6-D6, and one lone chip on I9
    game = position(green, [JS, card(EMPTY_FAR)])
    _, kind, _, better, cell = judge_move(game, 0, Action.parse("JSxI9"))
    assert (kind, cell) == ("idle_removal", 88) and not better.startswith("J")
    assert judge_move(game, 0, Action.parse("JSxC6")) is None


def test_a_hints_reason_says_what_the_move_does():
    game = position({**ROW2, 50: 1, 51: 2, 52: 2, 53: 2, 54: 2, 31: 1, 32: 1, 33: 1}, [])
    game.hands[0] = [card(15), card(55), card(34), card(EMPTY_FAR), parse_card("KS")]
    view = seat_view(game, 0)
    assert reason(view, play(card(15), 15)) == "completes"
    assert reason(view, play(card(55), 55)) == "blocks"
    assert reason(view, play(card(34), 34)) == "makes_four"  # B4-E4 open at A4 and F4
    assert reason(view, play(card(EMPTY_FAR), EMPTY_FAR)) == "builds"
    assert reason(view, Action.parse("dead:KS")) == "dead_card"
    assert reason(view, Action.parse("pass")) == "pass"


def test_a_whole_record_is_analysed_in_order_with_progress():
    rng = random.Random(3)
    game = Game.new(Arrangement.of(2), rng)
    while game.outcome is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    told: list[tuple[int, int]] = []
    found = analyse(game_record(game), lambda done, total: told.append((done, total)))
    moves = len(game.history)
    assert told[-1] == (moves, moves) and len(told) == moves
    assert found and [m.at for m in found] == sorted(m.at for m in found)
    for m in found:  # each mark is for the seat that moved, and its move as recorded
        assert (m.seat, m.played) == (game.history[m.at][0], str(game.history[m.at][1]))


def test_the_computer_s_moves_for_a_person_are_never_the_person_s_mistakes():
    rng = random.Random(3)
    game = Game.new(Arrangement.of(2), rng)
    while game.outcome is None:
        game.apply(game.turn, rng.choice(game.legal_actions(game.turn)))
    marked = {m.at for m in analyse(game_record(game))}
    theirs = sorted(marked)[::2]  # half the marked moves were the computer's for the seat
    record = game_record(game, computer_moves=theirs)
    assert record["computer_moves"] == theirs
    again = {m.at for m in analyse(record)}
    assert again == marked - set(theirs) and again
