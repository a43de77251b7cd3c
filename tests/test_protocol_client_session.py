"""The one client session, without sockets: bytes in, events out; messages in, bytes out."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sarja.protocol import examples as ex
from sarja.protocol import messages as msgs
from sarja.protocol.changes import Drew, Played
from sarja.protocol.client_session import PAST_KEPT, ClientSession, Gap, Past, SetAside, message_of
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.mirror import ServerProtocolError
from sarja.protocol.session import SessionState

WELCOME = ex.SERVER_EXAMPLES[0]
WAITING = next(m for m in ex.SERVER_EXAMPLES if m.TYPE == "table")
STARTED = dataclasses.replace(WAITING, started=True)
# A game joined at version 12: its past, the legal list, a ping, our move and what follows.
GAME = (WELCOME, STARTED, ex.SNAPSHOT, ex.HISTORY, ex.LEGAL_LIST, msgs.Ping(n=8), ex.ACK,
        ex.UPDATE, ex.HAND_UPDATE)  # fmt: skip
_encode = ServerCodec().encode  # no state: the messages are the test's to choose


def wire(*messages: msgs.ServerMessage) -> bytes:
    return b"".join(_encode(m) for m in messages)


def events_of(session: ClientSession, *chunks: bytes) -> list[object]:
    got: list[object] = []
    for chunk in chunks:
        session.receive_data(chunk)
        while (event := session.next_event()) is not None:
            got.append(event)
    return got


def at_game(*messages: msgs.ServerMessage) -> ClientSession:
    """A session that has had the welcome, the table and the snapshot, then `messages`."""
    session = ClientSession()
    events_of(session, wire(WELCOME, STARTED, ex.SNAPSHOT, *messages))
    return session


def test_a_game_fed_whole_and_byte_by_byte_gives_the_same_events():
    data = wire(*GAME)
    whole, trickled = ClientSession(), ClientSession()
    got = events_of(whole, data)
    assert got == events_of(trickled, *(data[i : i + 1] for i in range(len(data))))
    assert [type(e).__name__ for e in got] == [
        "Welcome", "TableView", "Snapshot", "Past", "Legal", "Ping", "Ack", "Update", "Hand",
    ]  # fmt: skip
    assert [message_of(e) for e in got] == list(GAME)
    for session in (whole, trickled):
        assert session.state == SessionState.GAME
        assert session.welcome == WELCOME and session.table == STARTED
        assert session.game is not None and session.game.version == 13
        assert session.game.hand == ex.HAND_UPDATE.hand
        assert session.replies() == [msgs.Pong(n=8)]
    past = got[3]
    assert isinstance(past, Past) and past.entries == ex.HISTORY.entries


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=400), max_size=12))
def test_any_cut_of_the_stream_gives_the_same_events(cuts):
    data = wire(*GAME)
    points = sorted({c % len(data) for c in cuts} - {0})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert events_of(ClientSession(), *chunks) == events_of(ClientSession(), data)


def test_its_own_answers_are_bytes_to_send():
    session = ClientSession()
    events_of(session, wire(WELCOME, msgs.Ping(n=3), msgs.Ping(n=4)))
    assert session.data_to_send() == _client(msgs.Pong(n=3)) + _client(msgs.Pong(n=4))
    assert session.data_to_send() == b""  # sent once


def _client(msg) -> bytes:
    return ClientCodec().encode(msg)


def test_a_gap_asks_for_one_sync_and_sets_the_game_aside_until_the_snapshot():
    session = at_game(ex.LEGAL_LIST)
    played = Played(seat=1, card="2C", cell=14)
    skipped = msgs.Update(version=14, changes=(played,), turn=0, draw_size=77)  # 13 never came
    [gap] = events_of(session, wire(skipped))
    assert gap == Gap(skipped) and session.syncing and session.gaps == 1
    assert session.replies() == [msgs.Sync()]
    later = msgs.Update(version=15, changes=(played,), turn=0, draw_size=76)
    got = events_of(session, wire(later, msgs.Legal(version=15, legal=("pass",))))
    assert [type(e) for e in got] == [SetAside, SetAside]
    assert session.replies() == [] and session.gaps == 1  # one sync for the whole gap
    assert session.game is not None and session.game.version == 12
    assert session.game.legal == ex.LEGAL  # nothing half-applied meanwhile
    fresh = dataclasses.replace(ex.SNAPSHOT, version=15, turn=1, legal=(), choices=())
    events_of(session, wire(fresh))
    assert not session.syncing and session.game.version == 15


@pytest.mark.parametrize(
    "newer",
    [msgs.Legal(version=13, legal=("pass",)), msgs.Hand(version=13, hand=(), targets=(), dead=())],
)
def test_a_hand_or_legal_newer_than_the_game_is_a_gap(newer):
    """The update that gave us the turn was lost: the `legal` for 13 is its only sign."""
    session = at_game()
    assert events_of(session, wire(newer)) == [Gap(newer)]
    assert session.replies() == [msgs.Sync()]


def test_a_history_not_for_the_game_kept_is_set_aside():
    stale = dataclasses.replace(ex.HISTORY, version=11, entries=ex.HISTORY.entries[:11])
    session = at_game()
    assert events_of(session, wire(stale)) == [SetAside(stale)]
    assert session.past == []
    # Pages gather until the last, which gives the whole history.
    first = msgs.History(version=12, entries=ex.HISTORY.entries[:5], more=True)
    last = msgs.History(version=12, entries=ex.HISTORY.entries[5:])
    got = events_of(at_game(), wire(first, last))
    assert got == [first, Past(last, ex.HISTORY.entries)]


def test_pages_that_never_end_are_not_kept_without_bound():
    session = at_game()
    page = msgs.History(version=12, entries=ex.HISTORY.entries[:4], more=True)
    got = []
    for _ in range(PAST_KEPT // 4 + 3):
        got += events_of(session, wire(page))
        assert len(session.past) <= PAST_KEPT
    assert isinstance(got[-1], SetAside)
    last = msgs.History(version=12, entries=ex.HISTORY.entries[:4])
    assert events_of(session, wire(last)) == [SetAside(last)]  # not a cut-down past
    rest = msgs.History(version=12, entries=ex.HISTORY.entries[4:8])
    assert events_of(session, wire(page, rest))[-1] == Past(rest, ex.HISTORY.entries[:8])


def test_action_ids_go_on_above_the_last_the_server_holds():
    session = ClientSession()
    events_of(session, wire(dataclasses.replace(WELCOME, last_id=41)))
    assert session.take_id() == 42
    events_of(session, wire(STARTED, dataclasses.replace(ex.SNAPSHOT, last_id=57)))
    assert session.take_id() == 58
    events_of(session, wire(dataclasses.replace(ex.SNAPSHOT, last_id=3)))  # never back down
    move = session.action("5H@E5[B5-F5]")
    assert (move.id, move.version) == (59, 12) and move == dataclasses.replace(ex.PLAY, id=59)
    events_of(session, wire(dataclasses.replace(ex.ACK, id=70)))
    assert session.take_id() == 71


def test_a_lie_is_refused_whole_and_the_game_waits_for_a_fresh_snapshot():
    session = at_game()
    lie = msgs.Update(version=13, changes=(Drew(seat=5),), turn=0, draw_size=77)
    session.receive_data(wire(lie, ex.LEGAL_LIST))
    with pytest.raises(ServerProtocolError, match="seat 5"):
        session.next_event()
    assert session.game is not None and session.game.version == 12 and session.syncing
    assert session.next_event() == SetAside(ex.LEGAL_LIST)
    events_of(session, wire(ex.SNAPSHOT))
    assert not session.syncing


def test_a_snapshot_that_does_not_fit_its_table_is_refused():
    session = ClientSession()
    events_of(session, wire(WELCOME, STARTED))
    session.receive_data(wire(dataclasses.replace(ex.SNAPSHOT, seat=1)))
    with pytest.raises(ServerProtocolError, match="seat 1"):
        session.next_event()
    assert session.game is None


def test_a_waiting_table_ends_the_game_and_a_new_connection_keeps_what_the_player_holds():
    session = at_game(ex.ACK)
    events_of(session, wire(msgs.TableList(tables=())))
    assert session.table is None and session.game is not None  # the last game, readable
    session.connect()
    assert session.state == SessionState.CONNECTED and session.take_id() == 8
    events_of(session, wire(WELCOME, STARTED, ex.SNAPSHOT, WAITING))
    assert session.game is None and session.table == WAITING


def test_decoded_messages_can_wait_before_they_are_taken():
    """`next_event` is `take(next_message())`: a message never taken leaves a gap."""
    session = at_game()
    session.receive_data(wire(ex.LEGAL_LIST, ex.UPDATE, ex.HAND_UPDATE))
    legal, update, hand = session.next_message(), session.next_message(), session.next_message()
    assert session.next_message() is None
    assert session.take(legal) is legal
    assert session.take(hand) == Gap(hand)  # the update was dropped
    assert isinstance(update, msgs.Update) and isinstance(session.take(update), SetAside)


def test_a_client_that_keeps_a_log_asks_for_the_history_a_page_at_a_time():
    session = ClientSession(keeps_history=True)
    events_of(session, wire(WELCOME, STARTED, ex.SNAPSHOT))
    assert session.replies() == [msgs.AskHistory(after=0)]  # the snapshot came alone
    first = msgs.History(version=12, entries=ex.HISTORY.entries[:5], more=True)
    assert events_of(session, wire(first)) == [first]
    after = ex.HISTORY.entries[4].version
    assert session.replies() == [msgs.AskHistory(after=after)]  # the next page
    last = msgs.History(version=12, entries=ex.HISTORY.entries[5:])
    assert events_of(session, wire(last)) == [Past(last, ex.HISTORY.entries)]
    assert session.replies() == []
    # One that keeps no log asks for nothing.
    plain = ClientSession()
    events_of(plain, wire(WELCOME, STARTED, ex.SNAPSHOT))
    assert plain.replies() == []
