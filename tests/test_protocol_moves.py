"""Actions in notation (as `legal` lists them) become the messages that make them."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sarja.protocol.moves as moves
from sarja.protocol.cards import CARD_CODES, ONE_EYED, cell_name
from sarja.protocol.examples import LEGAL
from sarja.protocol.messages import ActionMessage, Draw, Exchange, Pass, Play, Remove
from sarja.protocol.moves import action_message
from sarja.protocol.notation import ACTION_RE


def notation(msg: ActionMessage) -> str:
    """The way back, for the round trip."""
    if isinstance(msg, Draw | Pass):
        return msg.TYPE
    if isinstance(msg, Exchange):
        return f"dead:{msg.card}"
    if isinstance(msg, Remove):
        return f"{msg.card}x{cell_name(msg.cell)}"
    fives = ",".join(f"{cell_name(a)}-{cell_name(b)}" for a, b in msg.fives)
    return f"{msg.card}@{cell_name(msg.cell)}" + (f"[{fives}]" if fives else "")


def test_the_docstring_example_holds() -> None:
    assert doctest.testmod(moves).failed == 0


def test_every_kind_of_action() -> None:
    assert action_message("7H@D5", 1, 2) == Play(id=1, version=2, card="7H", cell=43)
    assert action_message("JD@A1", 1, 2) == Play(id=1, version=2, card="JD", cell=0)
    assert action_message("5H@E5[B5-F5]", 3, 4) == Play(
        id=3, version=4, card="5H", cell=44, fives=((41, 45),)
    )
    assert action_message("JC@E5[A5-E5,E1-E5]", 3, 4).fives == ((40, 44), (4, 44))
    assert action_message("JSxH4", 5, 6) == Remove(id=5, version=6, card="JS", cell=37)
    assert action_message("dead:9C", 7, 8) == Exchange(id=7, version=8, card="9C")
    assert action_message("draw", 9, 10) == Draw(id=9, version=10)
    assert action_message("pass", 11, 12) == Pass(id=11, version=12)
    assert action_message("JD@J10", 0, 0).cell == 99


@pytest.mark.parametrize("text", ["", "7H", "7H@K1", "JS@A1", "7HxA1", "dead:JD", "pass\n"])
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        action_message(text, 1, 1)


def test_a_legal_list_round_trips() -> None:
    for entry in LEGAL:
        assert notation(action_message(entry, 1, 12)) == entry


cells = st.integers(0, 99).filter(lambda c: c not in (0, 9, 90, 99))
placing = st.sampled_from([c for c in CARD_CODES if c not in ONE_EYED])
fives = st.sampled_from(
    [(a, a + 4) for a in range(100) if a % 10 <= 5]
    + [(a, a + 40) for a in range(60)]
    + [(a, a + 44) for a in range(56) if a % 10 <= 5]
    + [(a, a + 36) for a in range(60) if a % 10 >= 4]
)
actions = st.one_of(
    st.builds(lambda c, x: f"{c}@{cell_name(x)}", placing, cells),
    st.builds(
        lambda c, x, fs: (
            f"{c}@{cell_name(x)}[" + ",".join(f"{cell_name(a)}-{cell_name(b)}" for a, b in fs) + "]"
        ),
        placing,
        cells,
        st.lists(fives, min_size=1, max_size=4),
    ),
    st.builds(lambda c, x: f"{c}x{cell_name(x)}", st.sampled_from(sorted(ONE_EYED)), cells),
    st.builds(lambda c: f"dead:{c}", st.sampled_from([c for c in CARD_CODES if c[0] != "J"])),
    st.sampled_from(["draw", "pass"]),
)


@given(actions, st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))
def test_notation_and_message_round_trip(text: str, action_id: int, version: int) -> None:
    assert ACTION_RE.fullmatch(text)
    msg = action_message(text, action_id, version)
    assert (msg.id, msg.version) == (action_id, version)
    assert notation(msg) == text
