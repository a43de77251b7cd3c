"""The `history` message: it validates like every other, round-trips, and its largest
page fits in one frame under the decoder's limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sarja.protocol.change_wire import change_to_wire
from sarja.protocol.changes import Away, Back, Drew, Passed, Played, Reshuffled, SequenceMade
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import LocalProtocolError, RemoteProtocolError
from sarja.protocol.examples import HISTORY
from sarja.protocol.limits import MAX_CHANGES, MAX_HISTORY_PAGE, MAX_SERVER_FRAME, SERVER_DECODE
from sarja.protocol.messages import Entry, History
from sarja.protocol.session import SessionState


def sent(msg: History) -> bytes:
    codec = ServerCodec()
    codec.session.state = SessionState.GAME
    return codec.send(msg)


def received(frame: bytes, state: SessionState = SessionState.GAME) -> History:
    codec = ClientCodec()
    codec.session.state = state
    codec.receive_data(frame)
    got = codec.next_message()
    assert isinstance(got, History)
    return got


def test_the_example_round_trips_in_a_game_and_after_it():
    frame = sent(HISTORY)
    assert received(frame) == HISTORY
    assert received(frame, SessionState.ENDED) == HISTORY


def test_a_history_outside_a_game_is_refused():
    codec = ClientCodec()
    codec.session.state = SessionState.LOBBY
    codec.receive_data(sent(HISTORY))
    with pytest.raises(RemoteProtocolError) as caught:
        codec.next_message()
    assert caught.value.code == "wrong_state"


PLAYED = Played(seat=0, card="5H", cell=44)


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"entries": (Entry(version=3, changes=(PLAYED,)), Entry(version=2, changes=(PLAYED,)))},
         "out_of_range"),  # going down
        ({"entries": (Entry(version=2, changes=(PLAYED,)), Entry(version=2, changes=(PLAYED,)))},
         "out_of_range"),  # the same version twice
        ({"entries": (Entry(version=13, changes=(PLAYED,)),)}, "out_of_range"),  # past `version`
        ({"entries": ({"version": 1, "changes": []},)}, "out_of_range"),  # an empty entry
        ({"entries": ({"version": 1, "changes": [{"kind": "drew", "seat": 0, "card": "5H"}]},)},
         "bad_format"),  # a drawn card named: no change may carry one
        ({"entries": ({"version": 1, "changes": [change_to_wire(PLAYED)], "stand_in": 1},)},
         "bad_type"),
        ({"entries": ({"version": 1, "changes": [change_to_wire(PLAYED)], 0: 0},)},
         "unknown_field"),  # a key that is not a string (a new one is ignored)
        ({"entries": (Entry(version=1, changes=(PLAYED,)),) * (MAX_HISTORY_PAGE + 1)},
         "out_of_range"),
        ({"more": "yes"}, "bad_type"),
    ],
)  # fmt: skip
def test_a_bad_history_is_refused_with_a_stable_code(fields, code):
    with pytest.raises(LocalProtocolError) as caught:
        History(**{"version": 12, "entries": (), **fields})
    assert caught.value.code == code


def test_the_largest_page_fits_a_frame_and_the_decoder():
    """256 entries of 12 changes each, every change as long as a change can be: well
    under the frame limit, and within the client's array, map and depth limits."""
    widest = SequenceMade(seat=11, side=2, fives=((0, 4), (10, 14), (20, 24), (30, 34)))
    entry = Entry(version=2**31 - 1, changes=(widest,) * MAX_CHANGES, stand_in=True)
    page = History(
        version=2**31 - 1,
        entries=tuple(Entry(version=v, changes=entry.changes, stand_in=True)
                      for v in range(2**31 - MAX_HISTORY_PAGE, 2**31)),
        more=True,
    )  # fmt: skip
    frame = sent(page)
    assert len(frame) - 4 <= MAX_SERVER_FRAME * 3 // 4  # a quarter to spare
    assert MAX_HISTORY_PAGE <= SERVER_DECODE["max_array_len"]
    assert received(frame) == page


CHANGES = st.one_of(
    st.builds(Played, seat=st.integers(0, 11), card=st.sampled_from(["2H", "TS", "JD", "AC"]),
              cell=st.integers(1, 8)),
    st.builds(lambda kind, seat: kind(seat=seat), st.sampled_from([Drew, Passed, Away, Back]),
              st.integers(0, 11)),
    st.just(Reshuffled()),
)  # fmt: skip


@given(
    steps=st.lists(
        st.tuples(st.integers(1, 5), st.lists(CHANGES, min_size=1, max_size=MAX_CHANGES),
                  st.booleans()),
        max_size=40,
    ),
    more=st.booleans(),
)  # fmt: skip
def test_any_history_round_trips(steps, more):
    version, entries = 0, []
    for gap, changes, stand_in in steps:
        version += gap
        entries.append(Entry(version=version, changes=tuple(changes), stand_in=stand_in))
    msg = History(version=version + 1, entries=tuple(entries), more=more)
    assert received(sent(msg)) == msg
