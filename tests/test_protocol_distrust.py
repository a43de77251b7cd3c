"""The mirror distrusts the server (no sockets here): a message whose fields are each
valid but which does not fit the table's shape is refused with `ServerProtocolError`,
never an IndexError, and leaves the mirror as it was; what the mirror keeps from an
endless stream of updates that do fit stays bounded."""

from __future__ import annotations

import dataclasses
import gc
import itertools
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sarja.protocol.change_wire import CHANGE_BY_KIND, CHANGE_FIELDS
from sarja.protocol.changes import Removed
from sarja.protocol.limits import DECK_SIZE, MAX_CHANGES, MAX_FIVES, MAX_SEATS, MAX_TEAMS
from sarja.protocol.messages import Hand, Last, Legal, Update
from sarja.protocol.mirror import GameMirror, ServerProtocolError

from .fake_server import bad_updates, endless, position

_, TABLE, SNAP = position()
ME = SNAP.seat or 0
OTHER = 1 - ME


def mirror() -> GameMirror:
    return GameMirror(SNAP)


@pytest.mark.parametrize("name", list(bad_updates(SNAP)))
def test_an_update_that_does_not_fit_is_refused_and_changes_nothing(name):
    game = mirror()
    with pytest.raises(ServerProtocolError) as refused:
        game.apply(bad_updates(SNAP)[name])
    assert refused.value.code == "bad_server_message" and refused.value.message
    assert game.snapshot() == SNAP  # all of it or nothing
    assert game.legal  # still our turn, as the last message that fitted said


def test_a_chip_is_removed_only_where_one_is_and_never_from_a_sequence():
    board = SNAP.board[:40] + "GGGGGb...." + SNAP.board[50:]
    game = GameMirror(dataclasses.replace(SNAP, board=board, sequences=((), ((40, 44),))))
    for cell, side in ((45, 1), (40, 1), (46, 0)):  # blue's chip said green; locked; empty
        remove = Removed(seat=OTHER, card="JS", cell=cell, side=side)
        with pytest.raises(ServerProtocolError):
            game.apply(Update(version=1, changes=(remove,), turn=ME, draw_size=SNAP.draw_size))
    remove = Removed(seat=OTHER, card="JS", cell=45, side=0)
    stayed = dataclasses.replace(SNAP.players[OTHER], held=6)
    assert game.apply(Update(version=1, changes=(remove,), turn=ME, draw_size=SNAP.draw_size))
    assert game.board[45] == "." and game.players[OTHER] == stayed


def test_snapshots_that_do_not_fit_are_refused():
    red = SNAP.board[:45] + "r" + SNAP.board[46:]
    lies = [
        dataclasses.replace(SNAP, last=Last(seat=7, action="pass")),
        dataclasses.replace(SNAP, board=red),  # a red chip at a two-sided table
        dataclasses.replace(SNAP, sequences=(((40, 44),), ())),  # no locked chips there
        dataclasses.replace(SNAP, draw_size=SNAP.draw_size + 1),  # 105 cards
        dataclasses.replace(SNAP, hand=SNAP.hand[1:], targets=SNAP.targets[1:], legal=()),
        dataclasses.replace(SNAP, legal=("pass", "dead:7H") if "7H" not in SNAP.hand else ()),
    ]
    for lie in lies:
        if lie == SNAP:
            continue
        with pytest.raises(ServerProtocolError):
            GameMirror(lie)
    game = mirror()
    with pytest.raises(ServerProtocolError):
        game.reset(lies[0])
    assert game.snapshot() == SNAP


def test_hands_and_legal_lists_that_do_not_fit_are_refused():
    game = mirror()
    with pytest.raises(ServerProtocolError):  # seven cards said, six sent
        game.apply(Hand(version=0, hand=SNAP.hand[1:], targets=SNAP.targets[1:]))
    two = tuple(sorted((*SNAP.hand[:-2], SNAP.hand[0], SNAP.hand[0])))
    three = [c for c in two if two.count(c) == 3 or SNAP.discard.count(c) + two.count(c) > 2]
    assert three
    with pytest.raises(ServerProtocolError):  # a card three times in two decks
        game.apply(Hand(version=0, hand=(*SNAP.hand[:-3], three[0], three[0], three[0]),
                        targets=SNAP.targets))  # fmt: skip
    absent = next(c for c in ("7H", "8S", "2D", "QC") if c not in SNAP.hand)
    with pytest.raises(ServerProtocolError):
        game.apply(Legal(version=0, legal=(f"{absent}@A2",)))
    watcher = GameMirror(snapshot_for_spectator())
    with pytest.raises(ServerProtocolError):
        watcher.apply(Legal(version=0, legal=("pass",)))
    assert game.snapshot() == SNAP


def snapshot_for_spectator():
    return dataclasses.replace(SNAP, seat=None, hand=(), targets=(), dead=(), legal=(),
                               choices=())  # fmt: skip


changes = st.builds(
    lambda kind, seat, side, cell, card, five: CHANGE_BY_KIND[kind](
        **{
            name: value
            for name, value in (
                ("seat", seat),
                ("side", side),
                ("cell", cell),
                ("card", card),
                ("fives", (five,)),
            )
            if name in CHANGE_FIELDS[kind]
        }
    ),
    st.sampled_from(list(CHANGE_FIELDS)),
    st.integers(0, MAX_SEATS - 1),
    st.integers(0, MAX_TEAMS - 1),
    st.integers(0, 99),
    st.sampled_from(["7H", "JS", "JD", "2C", "AS"]),
    st.sampled_from([(40, 44), (0, 4), (0, 44), (4, 40), (5, 45), (55, 99)]),
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(changes, min_size=1, max_size=MAX_CHANGES),
    st.integers(0, MAX_SEATS - 1),
    st.integers(0, DECK_SIZE),
    st.lists(st.integers(0, MAX_SEATS - 1), max_size=3),
)
def test_any_update_is_taken_whole_or_refused_never_a_crash(chs, turn, draw_size, pending):
    """Whatever an update says, field by field valid: it fits (and the mirror moves on)
    or it is refused (and the mirror stays); a seat, side or turn outside the table's
    shape is always refused."""
    game = mirror()
    update = Update(version=1, changes=tuple(chs), turn=turn, draw_size=draw_size,
                    pending_draw=tuple(pending))  # fmt: skip
    outside = (
        turn >= 2
        or any(s >= 2 for s in pending)
        or any(getattr(c, "seat", 0) >= 2 or getattr(c, "side", 0) >= 2 for c in chs)
    )
    try:
        assert game.apply(update)
    except ServerProtocolError:
        assert game.snapshot() == SNAP
        return
    assert not outside
    after = game.snapshot()
    assert sum(p.held for p in after.players) + len(after.discard) + after.draw_size <= 104
    assert all(len(s) <= MAX_FIVES for s in after.sequences)
    if after.players[ME].held == len(after.hand):  # else our `hand` is on its way
        assert GameMirror(after).snapshot() == after  # what it holds is a picture that fits


def test_what_the_mirror_keeps_stays_bounded_over_100k_updates():
    """An endless stream of updates that fit (a dead card exchanged and a card drawn,
    the discard pile reshuffled whenever the draw pile runs out): the mirror holds a
    discard pile of at most the deck, whatever the stream's length, and the memory it
    holds after 100k updates is what it held after a thousand."""
    game = mirror()
    longest = 0
    stream = endless(SNAP, 105_000)
    for update in itertools.islice(stream, 100_000):
        assert game.apply(update)
        longest = max(longest, len(game.discard))
    assert game.version == 100_000 and longest <= DECK_SIZE
    assert len(game.players) == 2 and all(len(s) <= MAX_FIVES for s in game.sequences)
    tracemalloc.start()
    try:
        gc.collect()
        settled, _ = tracemalloc.get_traced_memory()
        for update in stream:  # another 5k (traced memory is slow to count)
            assert game.apply(update)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held - settled < 16 * 1024  # a discard pile of 5k cards alone would be 40 kB


def test_a_stream_that_does_not_add_up_is_refused_at_once():
    """The same stream with the draw pile never shrinking: each update is valid alone,
    and the first already makes 105 cards; the mirror never holds the lie."""
    game = mirror()
    update = next(endless(SNAP, 1))
    lie = dataclasses.replace(update, draw_size=SNAP.draw_size)
    with pytest.raises(ServerProtocolError, match="105 cards"):
        game.apply(lie)
    assert game.snapshot() == SNAP
