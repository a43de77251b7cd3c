"""The session state machine: every message in a wrong state is refused with
`wrong_state` and leaves the state unchanged; server messages drive the transitions."""

import msgpack
import pytest

from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import LocalProtocolError, RemoteProtocolError
from sarja.protocol.examples import CLIENT_EXAMPLES, FINAL_UPDATE, RESULT, SERVER_EXAMPLES
from sarja.protocol.messages import (
    ACTIONS,
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    TableList,
    WireMap,
)
from sarja.protocol.session import (
    CLIENT_ALLOWED,
    SERVER_ALLOWED,
    TRANSITIONS,
    Session,
    SessionState,
    trigger,
)

S = SessionState
CLIENT = {m.TYPE: m for m in CLIENT_EXAMPLES}
SERVER = {m.TYPE: m for m in SERVER_EXAMPLES}
WRONG_CLIENT = [(s, t) for s in S for t in CLIENT_MESSAGES if t not in CLIENT_ALLOWED[s]]
WRONG_SERVER = [(s, t) for s in S for t in SERVER_MESSAGES if t not in SERVER_ALLOWED[s]]


def frame(msg: object) -> bytes:
    body = msgpack.packb(msg.to_wire())  # type: ignore[attr-defined]
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize(("state", "t"), WRONG_CLIENT, ids=[f"{s}-{t}" for s, t in WRONG_CLIENT])
def test_client_message_in_wrong_state(state: SessionState, t: str) -> None:
    server = ServerCodec()
    server.session.state = state
    server.receive_data(frame(CLIENT[t]))
    with pytest.raises(RemoteProtocolError) as err:
        server.next_message()
    assert err.value.code == "wrong_state" and not err.value.fatal
    assert server.state == state
    if t in ACTIONS:
        assert err.value.id == CLIENT[t].id
    # Our own client refuses to send it, and nothing changes either.
    client = ClientCodec()
    client.session.state = state
    with pytest.raises(LocalProtocolError, match="wrong_state"):
        client.send(CLIENT[t])
    assert client.state == state


@pytest.mark.parametrize(("state", "t"), WRONG_SERVER, ids=[f"{s}-{t}" for s, t in WRONG_SERVER])
def test_server_message_in_wrong_state(state: SessionState, t: str) -> None:
    client = ClientCodec()
    client.session.state = state
    client.receive_data(frame(SERVER[t]))
    with pytest.raises(RemoteProtocolError, match="wrong_state"):
        client.next_message()
    assert client.state == state
    server = ServerCodec()
    server.session.state = state
    with pytest.raises(LocalProtocolError, match="wrong_state"):
        server.send(SERVER[t])
    assert server.state == state


def test_transitions_only_name_allowed_messages() -> None:
    for state, name in TRANSITIONS:
        assert name.split(":")[0] in SERVER_ALLOWED[state]


def test_role_decides_who_is_at_fault() -> None:
    with pytest.raises(ValueError):
        Session("referee")
    server_side, client_side = Session("server"), Session("client")
    with pytest.raises(RemoteProtocolError):
        server_side.check_client(CLIENT["play"])
    with pytest.raises(LocalProtocolError):
        client_side.check_client(CLIENT["play"])
    with pytest.raises(LocalProtocolError):
        server_side.check_server(SERVER["snapshot"])
    with pytest.raises(RemoteProtocolError):
        client_side.on_server(SERVER["snapshot"])


def replaced(msg: WireMap, **changes: object) -> WireMap:
    fields = {a: getattr(msg, a) for _, a, _ in type(msg)._SPEC}
    return type(msg)(**{**fields, **changes})


def test_a_whole_session_keeps_both_ends_in_step() -> None:
    """hello ... game ... rematch ... leave, through real bytes, both ends agreeing."""
    client, server = ClientCodec(), ServerCodec()
    playing = SERVER["snapshot"]
    over = replaced(playing, result=RESULT, legal=(), choices=())
    waiting = SERVER["table"]
    started = replaced(waiting, started=True)

    def c2s(msg: object) -> object:
        server.receive_data(client.send(msg))  # type: ignore[arg-type]
        got = server.next_message()
        assert got == msg
        return got

    def s2c(msg: object, expect: SessionState) -> None:
        client.receive_data(server.send(msg))  # type: ignore[arg-type]
        assert client.next_message() == msg
        assert client.state == server.state == expect

    c2s(CLIENT["hello"])
    assert server.state == S.CONNECTED
    s2c(SERVER["welcome"], S.LOBBY)
    c2s(CLIENT["list_tables"])
    s2c(SERVER["tables"], S.LOBBY)
    c2s(CLIENT["create_table"])
    s2c(waiting, S.TABLE)
    s2c(SERVER["notice"], S.TABLE)
    c2s(CLIENT["ready"])
    s2c(started, S.TABLE)
    s2c(playing, S.GAME)
    s2c(SERVER["legal"], S.GAME)
    c2s(CLIENT["play"])
    s2c(SERVER["ack"], S.GAME)
    s2c(SERVER["update"], S.GAME)
    s2c(SERVER["hand"], S.GAME)
    c2s(CLIENT["chat"])
    s2c(SERVER["chat"], S.GAME)
    c2s(CLIENT["sync"])
    s2c(playing, S.GAME)
    s2c(FINAL_UPDATE, S.ENDED)
    c2s(CLIENT["sync"])
    s2c(over, S.ENDED)
    c2s(CLIENT["rematch"])
    s2c(started, S.ENDED)
    s2c(playing, S.GAME)  # the rematch started
    c2s(CLIENT["leave"])
    s2c(TableList(tables=()), S.LOBBY)
    c2s(CLIENT["spectate"])
    s2c(replaced(started, seat=None), S.TABLE)
    s2c(over, S.ENDED)  # watching a finished game
    s2c(waiting, S.TABLE)  # a seat was freed: a waiting room again
    c2s(CLIENT["leave"])
    s2c(TableList(tables=()), S.LOBBY)
    c2s(CLIENT["ping"])
    s2c(SERVER["pong"], S.LOBBY)


def test_every_transition_is_reached_by_its_trigger() -> None:
    examples: dict[str, WireMap] = {
        "welcome": SERVER["welcome"],
        "tables": SERVER["tables"],
        "table:waiting": SERVER["table"],
        "table:started": replaced(SERVER["table"], started=True),
        "snapshot:playing": SERVER["snapshot"],
        "snapshot:over": replaced(SERVER["snapshot"], result=RESULT, legal=(), choices=()),
        "update:over": FINAL_UPDATE,
    }
    for (state, name), target in TRANSITIONS.items():
        msg = examples[name]
        assert trigger(msg) == name
        session = Session("client")
        session.state = state
        assert session.on_server(msg) == target


def test_an_update_ends_the_game_only_with_a_result() -> None:
    assert trigger(SERVER["update"]) == "update:playing"
    assert trigger(FINAL_UPDATE) == "update:over"
    for state in (S.TABLE, S.ENDED):  # hand, legal and update only during a game
        for t in ("update", "hand", "legal"):
            assert t not in SERVER_ALLOWED[state]


def test_refused_frame_does_not_stop_the_stream() -> None:
    server = ServerCodec()
    server.receive_data(frame(CLIENT["play"]) + frame(CLIENT["hello"]))
    with pytest.raises(RemoteProtocolError, match="wrong_state"):
        server.next_message()
    assert server.next_message() == CLIENT["hello"]
