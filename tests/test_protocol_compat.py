"""Forward compatibility (docs/protocol.md, "Versions and new fields"): a client ignores
the fields, message types and change kinds of a newer server that it does not know, and
keeps every check on those it knows; the server stays strict with every client message."""

from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.protocol import examples as ex
from sarja.protocol.change_wire import CHANGE_KEYS
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import RemoteProtocolError
from sarja.protocol.examples import CLIENT_EXAMPLES, SERVER_EXAMPLES
from sarja.protocol.messages import (
    TableList,
    Update,
    WireMap,
)
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED, SessionState

PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SERVER_SENT: list[WireMap] = [*SERVER_EXAMPLES, ex.FINAL_UPDATE, ex.INCOMPATIBLE]
TABLES = next(m for m in SERVER_EXAMPLES if isinstance(m, TableList))


def _all_maps(cls: type[WireMap]) -> list[type[WireMap]]:
    return [cls, *(c for sub in cls.__subclasses__() for c in _all_maps(sub))]


# Every key any map of the protocol knows (messages, parts, changes): an added key must
# be none of them.
KNOWN = {"t", *CHANGE_KEYS} | {k for cls in _all_maps(WireMap) for k in cls._ALLOWED}
assert {"remote", "computers", "stand_in", "fives"} <= KNOWN

new_keys = st.text(min_size=1, max_size=12).filter(lambda k: k not in KNOWN)
# What a newer field may hold, shallow enough for the nesting limit.
new_values = (
    st.none()
    | st.booleans()
    | st.integers(-5, 2**40)
    | st.text(max_size=20)
    | st.lists(st.integers(0, 99) | st.text(max_size=5), max_size=4)
)
extras = st.dictionaries(new_keys, new_values, min_size=1, max_size=3)


def frame(obj: Any) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def deliver(codec: ClientCodec | ServerCodec, obj: Any) -> Any:
    """Decode one map as the peer would send it, in a state that allows its type."""
    allowed = SERVER_ALLOWED if isinstance(codec, ClientCodec) else CLIENT_ALLOWED
    t = obj.get("t")
    codec.session.state = next((s for s in SessionState if t in allowed[s]), SessionState.GAME)
    codec.receive_data(frame(obj))
    return codec.next_message()


def maps_in(v: Any) -> list[dict[str, Any]]:
    """Every map in a wire form, the outermost first: the message, its parts, changes."""
    if isinstance(v, dict):
        return [v, *(m for x in v.values() for m in maps_in(x))]
    if isinstance(v, list | tuple):
        return [m for x in v for m in maps_in(x)]
    return []


def plain(v: Any) -> Any:
    """A wire form with every array a list (a copy, safe to add keys to)."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [plain(x) for x in v]
    return v


@PROPS
@given(st.sampled_from(SERVER_SENT), st.data())
def test_a_server_message_with_new_fields_at_any_level_decodes_the_same(
    msg: WireMap, data: st.DataObject
) -> None:
    wire = plain(msg.to_wire())
    maps = maps_in(wire)
    chosen = data.draw(st.lists(st.integers(0, len(maps) - 1), min_size=1, max_size=4))
    for i in chosen:
        maps[i].update(data.draw(extras))
    assert deliver(ClientCodec(), wire) == msg


@PROPS
@given(st.sampled_from(CLIENT_EXAMPLES), extras)
def test_a_client_message_with_a_new_field_is_refused(msg: WireMap, extra: Any) -> None:
    with pytest.raises(RemoteProtocolError, match="unknown_field") as caught:
        deliver(ServerCodec(), msg.to_wire() | extra)
    assert not caught.value.fatal


def test_known_fields_keep_their_checks_beside_new_ones() -> None:
    summary = plain(TABLES.tables[0].to_wire()) | {"colour": "blue", "players": 99}
    with pytest.raises(RemoteProtocolError, match="out_of_range"):
        deliver(ClientCodec(), {"t": "tables", "tables": [summary]})
    # A key that is not a string is no field a server could add: still refused.
    summary = plain(TABLES.tables[0].to_wire()) | {7: "x"}
    with pytest.raises(RemoteProtocolError, match="unknown_field"):
        deliver(ClientCodec(), {"t": "tables", "tables": [summary]})
    # A required field stays required.
    update = plain(ex.UPDATE.to_wire()) | {"later": 1}
    del update["turn"]
    with pytest.raises(RemoteProtocolError, match="missing_field"):
        deliver(ClientCodec(), update)


def test_a_new_message_type_is_ignored_and_the_next_message_read() -> None:
    codec = ClientCodec()
    codec.session.state = SessionState.LOBBY
    codec.receive_data(frame({"t": "weather", "sky": "grey"}) + frame(TABLES.to_wire()))
    assert codec.next_message() == TABLES
    codec.receive_data(frame({"t": "weather"}))
    assert codec.next_message() is None
    # A client's message type from a server is a broken server: still refused.
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ClientCodec(), CLIENT_EXAMPLES[-1].to_wire())
    with pytest.raises(RemoteProtocolError, match="unknown_type"):
        deliver(ServerCodec(), {"t": "weather"})


def test_a_new_change_kind_is_ignored_and_the_others_kept() -> None:
    update = plain(ex.UPDATE.to_wire())
    known = update["changes"]
    update["changes"] = [{"kind": "rained", "seat": 99, "cells": [1]}, *known]
    assert deliver(ClientCodec(), update) == ex.UPDATE
    update["changes"] = [{"kind": "rained"}]  # only a new one: an update of no change
    got = deliver(ClientCodec(), update)
    assert isinstance(got, Update) and got.changes == () and got.version == ex.UPDATE.version
    update["changes"] = [{"kind": "played", "seat": 0}]  # a known kind keeps its fields
    with pytest.raises(RemoteProtocolError, match="bad_format"):
        deliver(ClientCodec(), update)
