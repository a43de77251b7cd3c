"""A match's score as a client takes it in: the field checks of `create_table` and the
*match* part, and a lying server's score refused as `bad_server_message`."""

from __future__ import annotations

import dataclasses

import pytest

from sarja.protocol import examples as ex
from sarja.protocol.client_session import ClientSession
from sarja.protocol.errors import ProtocolError
from sarja.protocol.messages import CreateTable, MatchScore, Result, TableView


def view(*games: int | None, to: int = 2, teams: int = 2, table: str = "t1") -> TableView:
    return dataclasses.replace(
        ex.MATCH_TABLE, id=table, teams=teams, match=MatchScore(to=to, games=games)
    )


@pytest.mark.parametrize("to", [1, 10, -1])
def test_match_to_is_2_to_9(to: int) -> None:
    with pytest.raises(ProtocolError) as refused:
        CreateTable(name="Evening", players=2, teams=2, match_to=to)
    assert refused.value.code == "out_of_range"
    assert CreateTable(name="Evening", players=2, teams=2, match_to=9).match_to == 9


def test_a_score_that_goes_on_game_by_game_is_taken_in() -> None:
    session = ClientSession()
    for games in [(), (1,), (1, None), (1, None, 0), (1, None, 0, 1)]:
        session.take(view(*games))
        assert session.table is not None and session.table.match is not None
        assert session.table.match.games == games
    assert session.table.match.winner == 1 and session.table.match.over
    session.take(view())  # the rematch: a new match
    session.connect()  # a new connection may have missed games
    session.take(view(0, 0))


@pytest.mark.parametrize(
    ("to", "before", "after"),
    [
        (2, (), (2,)),  # a side a two-sided table lacks
        (2, (), (0, 0, 1)),  # the score goes on after side 0 won
        (2, (0,), (1, 1)),  # the game before rewritten
        (3, (0,), (0, 1, 1)),  # two games at once
    ],
)
def test_a_lying_score_is_a_bad_server_message(
    to: int, before: tuple[int, ...], after: tuple[int, ...]
) -> None:
    session = ClientSession()
    session.take(view(*before, to=to))
    with pytest.raises(ProtocolError) as refused:
        session.take(view(*after, to=to))
    assert refused.value.code == "bad_server_message"


def test_the_game_just_over_is_counted_for_the_side_that_won_it() -> None:
    session = ClientSession()
    session.take(view())
    session.take(ex.SNAPSHOT)
    assert session.game is not None
    session.game.result = Result(result="win", side=0, hands=((), ()))
    with pytest.raises(ProtocolError) as refused:
        session.take(view(1))
    assert refused.value.code == "bad_server_message"
    session.take(view(0))
