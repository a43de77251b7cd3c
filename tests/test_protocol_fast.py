"""The fast decoders (protocol/fast.py) accept exactly what the reference path accepts.

The codec tries a straight-line decoder first for the hot messages and falls back to the
reference path (shape and depth, then `from_wire` and `__post_init__`) for anything it
does not vouch for. These tests hold the two to the same answers: the same message for
valid input, and the same refusal (code, message, fatal, id) for invalid input, on
examples, on mutations of every field at every depth, and on fuzzed values.
"""

from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sarja.protocol import ClientCodec, ProtocolError, ServerCodec, SessionState
from sarja.protocol.examples import CLIENT_EXAMPLES, OUTCOME, SERVER_EXAMPLES
from sarja.protocol.fast import CLIENT_FAST, SERVER_FAST, _ident
from sarja.protocol.fields import ID_RE
from sarja.protocol.limits import CLIENT_DECODE, SERVER_DECODE
from sarja.protocol.messages import (
    CLIENT_MESSAGES,
    SERVER_MESSAGES,
    Choice,
    Last,
    Play,
    Player,
    State,
)
from sarja.protocol.notation import ACTION_RE, SIMPLE_ACTIONS, cell_name


class RefServerCodec(ServerCodec):
    """A server codec with no fast decoders: every message takes the reference path."""

    _fast = {}


class RefClientCodec(ClientCodec):
    _fast = {}


def big_state() -> State:
    """A four-player game in progress: long legal list, a choice, a cut, sequences."""
    board = list("." * 100)
    for i in (0, 9, 90, 99):
        board[i] = "*"
    for k, i in enumerate(range(11, 89, 3)):
        board[i] = "bg"[k % 2]
    for i in (41, 42, 43, 44, 45):
        board[i] = "B"
    open_cells = [(i // 10, i % 10) for i, ch in enumerate(board) if ch == "."]
    legal = [f"JD@{cell_name(r, c)}" for r, c in open_cells][:120]
    legal += ["7H@D5[A5-E5]", "JSxB2", "dead:7C", "draw", "pass"]
    return State(
        table="table_1-x",
        version=61,
        seat=None,
        players=[
            Player(name=n, side=i % 2, away=i == 3, hand_size=6)
            for i, n in enumerate(("Aino", "Bertil", "Cécilia", "Dmitri"))
        ],
        sides=2,
        needed=2,
        hand=["7H", "JD", "QS", "2C", "AD", "9S"],
        board="".join(board),
        discard=["5H", "KD", "JS", "3C", "TS"] * 4,
        draw_size=50,
        sequences=[[(4, 1, 4, 5)], []],
        turn=3,
        first=2,
        cut=[[(0, "9C"), (1, "9H")], [(0, "4H"), (1, "2S")]],
        last=Last(seat=3, action="QC@D8[A1-E5,D4-D8]"),
        legal=legal,
        choices=[Choice(cell=(4, 0), options=[[(4, 0, 4, 4)], [(4, 1, 4, 5), (0, 0, 4, 4)]])],
        exchanged=True,
        pending_draw=[1, 2],
        passes=3,
        rules={"hand_size": 6, "manual_draw": True},
        outcome=None,
    )


def kwargs_of(msg: Any) -> dict[str, Any]:
    return {n: getattr(msg, n) for n in type(msg).__dataclass_fields__}


FAST_EXAMPLES = [m for m in CLIENT_EXAMPLES if m.TYPE in CLIENT_FAST] + [
    m for m in SERVER_EXAMPLES if m.TYPE in SERVER_FAST
]
BIG = big_state()
SERVER_CASES = [m.to_wire() for m in SERVER_EXAMPLES if m.TYPE in SERVER_FAST] + [BIG.to_wire()]
CLIENT_CASES = [m.to_wire() for m in CLIENT_EXAMPLES if m.TYPE in CLIENT_FAST] + [
    Play(id=0, version=2**31 - 1, card="JC", cell=(9, 9), fives=()).to_wire(),
    Play(
        id=9, version=1, card="2S", cell=(0, 0), fives=[(0, 0, 0, 4), (0, 0, 4, 0), (0, 0, 4, 4)]
    ).to_wire(),
]


def frame(obj: Any) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return len(body).to_bytes(4, "big") + body


def outcome(codec: ClientCodec | ServerCodec, data: bytes) -> Any:
    """What a codec makes of one frame: the message, or the refusal's every detail."""
    codec.session.state = SessionState.GAME
    codec.receive_data(data)
    try:
        return ("message", codec.next_message(), codec.session.state)
    except ProtocolError as exc:
        return ("error", type(exc), exc.code, exc.message, exc.fatal, exc.id)


def assert_same(direction: str, obj: Any) -> None:
    data = frame(obj)
    if direction == "client":
        fast, ref = outcome(ServerCodec(), data), outcome(RefServerCodec(), data)
    else:
        fast, ref = outcome(ClientCodec(), data), outcome(RefClientCodec(), data)
    assert fast == ref


def decoded(obj: Any) -> Any:
    """`obj` as msgpack decodes it here (arrays as tuples)."""
    return msgpack.unpackb(msgpack.packb(obj), use_list=False)


# --- valid input: the fast path is taken and builds what the reference path builds ---


@pytest.mark.parametrize("msg", [*FAST_EXAMPLES, BIG], ids=lambda m: m.TYPE)
def test_fast_path_takes_valid_messages(msg: Any) -> None:
    fast = (CLIENT_FAST if type(msg) is CLIENT_MESSAGES.get(msg.TYPE) else SERVER_FAST)[msg.TYPE]
    wire = decoded(msg.to_wire())
    got = fast(wire)
    assert got is not None, "the fast path refused a valid message"
    assert got == msg == type(msg).from_wire(wire)
    assert type(got) is type(msg)
    for name in type(msg).__dataclass_fields__:  # nested records are records too
        assert type(getattr(got, name)) is type(getattr(type(msg).from_wire(wire), name))


def test_names_are_stripped_as_on_the_reference_path() -> None:
    wire = decoded(BIG.to_wire())
    players = list(wire["players"])
    players[0] = {**players[0], "name": "  Aino \t"}
    wire = {**wire, "players": tuple(players)}
    assert SERVER_FAST["state"](wire) == State.from_wire(wire)
    assert SERVER_FAST["state"](wire).players[0].name == "Aino"


def test_a_finished_state_takes_the_reference_path() -> None:
    over = State(**{**kwargs_of(BIG), "outcome": OUTCOME, "legal": ()})
    assert SERVER_FAST["state"](decoded(over.to_wire())) is None
    assert_same("server", over.to_wire())


@pytest.mark.parametrize("wire", CLIENT_CASES, ids=lambda w: w["t"])
def test_valid_client_messages_agree(wire: dict[str, Any]) -> None:
    assert_same("client", wire)


@pytest.mark.parametrize("wire", SERVER_CASES, ids=lambda w: w["t"])
def test_valid_server_messages_agree(wire: dict[str, Any]) -> None:
    assert_same("server", wire)


# --- every field at every depth, replaced, removed or added to -------------------------


def paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a wire map: map keys and array indexes, at every depth."""
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += paths(v, (*prefix, k))
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            out += paths(v, (*prefix, i))
    return out


def replaced(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `obj` with the value at `path` replaced (or removed, for _GONE)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        out = dict(obj)
        if rest or value is not _GONE:
            out[head] = replaced(obj[head], rest, value)
        else:
            del out[head]
        return out
    items = list(obj)
    if rest or value is not _GONE:
        items[head] = replaced(items[head], rest, value)
    else:
        del items[head]
    return items


_GONE = object()
# Values that sit right at, or just past, the edge of some check.
EDGES = [
    None,
    True,
    False,
    0,
    1,
    -1,
    1.0,
    9,
    10,
    12,
    2**31 - 1,
    2**31,
    "",
    " ",
    "x",
    "7H",
    "JS",
    "JH",
    "JD",
    "XX",
    "7h",
    "pass",
    "pass\n",
    "7H@J10",
    "7H@K1",
    "JS@A1",
    "7H@D5[A5-E5]",
    "7H@D5[A5-E4]",
    "t1",
    "t 1",
    "t1\u00e9",
    "x" * 33,
    "Aino",
    "  Aino ",
    "Ai\nno",
    [],
    [0],
    [0, 0],
    [True, 0],
    [0.0, 0],
    [4, 0, 4, 4],
    [4, 0, 4, 4.0],
    [4, 0, 4, False],
    [[4, 0, 4, 4]],
    [[]],
    [[[0]]],
    [[[[[[[[0]]]]]]]],
    {},
    {"seat": 0, "action": "pass"},
    {"hand_size": 7, "manual_draw": False},
    {"name": "Aino", "side": 0, "away": False, "hand_size": 7},
    _GONE,
]
CASES = [("client", i) for i in range(len(CLIENT_CASES))] + [
    ("server", i)
    for i in range(len(SERVER_CASES) - 1)  # BIG's legal list: fuzzed below
]


def case(direction: str, i: int) -> dict[str, Any]:
    return (CLIENT_CASES if direction == "client" else SERVER_CASES)[i]


def _at(obj: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        obj = obj[step]
    return obj


@pytest.mark.parametrize(("direction", "i"), CASES)
def test_every_edge_at_every_place_agrees(direction: str, i: int) -> None:
    wire = case(direction, i)
    for path in paths(wire):
        if path != ("t",):
            for value in EDGES:
                assert_same(direction, replaced(wire, path, value))


@pytest.mark.parametrize(("direction", "i"), CASES)
def test_unknown_and_renamed_keys_agree(direction: str, i: int) -> None:
    wire = case(direction, i)
    maps = [(), *(p for p in paths(wire) if isinstance(_at(wire, p), dict))]
    for path in maps:
        target = _at(wire, path)
        assert_same(direction, replaced(wire, path, {**target, "extra": 1}))
        for key in target:  # the same size, one key renamed
            if key != "t":
                renamed = {("x" + k if k == key else k): v for k, v in target.items()}
                assert_same(direction, replaced(wire, path, renamed))


VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from([e for e in EDGES if e is not _GONE]),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=12,
)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.data())
def test_fuzzed_places_agree(data: st.DataObject) -> None:
    direction, cases = data.draw(
        st.sampled_from([("client", CLIENT_CASES), ("server", SERVER_CASES)])
    )
    wire = data.draw(st.sampled_from(cases))
    path = data.draw(st.sampled_from([p for p in paths(wire) if p != ("t",)]))
    assert_same(direction, replaced(wire, path, data.draw(VALUES)))


# --- depth: the fast path has no depth walk, yet deep nesting is still too_deep ------


@pytest.mark.parametrize(
    ("direction", "wire"),
    [("client", w) for w in CLIENT_CASES] + [("server", w) for w in SERVER_CASES],
)
def test_deep_nesting_anywhere_is_too_deep(direction: str, wire: dict[str, Any]) -> None:
    limit = (CLIENT_DECODE if direction == "client" else SERVER_DECODE)["max_depth"]
    for path in paths(wire):
        if path == ("t",):
            continue
        deep: Any = 0
        for _ in range(limit):  # with the map around it, one level over the limit
            deep = [deep]
        codec = ServerCodec() if direction == "client" else ClientCodec()
        codec.session.state = SessionState.GAME
        codec.receive_data(frame(replaced(wire, path, deep)))
        with pytest.raises(ProtocolError) as err:
            codec.next_message()
        assert err.value.code == "too_deep", path
        # The same value one level shallower passes the depth check (and fails on shape).
        assert_same(direction, replaced(wire, path, deep[0]))


def test_valid_messages_nest_within_the_limits() -> None:
    """Why the fast path needs no depth walk: its messages' shapes fit the limits."""

    def depth(obj: Any) -> int:
        if isinstance(obj, dict):
            return 1 + max(map(depth, obj.values()), default=0)
        if isinstance(obj, list | tuple):
            return 1 + max(map(depth, obj), default=0)
        return 0

    full_play = Play(id=1, version=1, card="7H", cell=(0, 0), fives=[(0, 0, 0, 4)] * 4)
    assert depth(full_play.to_wire()) == 3 <= CLIENT_DECODE["max_depth"]
    assert depth(BIG.to_wire()) == 6 <= SERVER_DECODE["max_depth"]


# --- the shortcuts inside the fast path ------------------------------------------------


def test_every_simple_action_is_in_the_grammar() -> None:
    assert all(ACTION_RE.fullmatch(a) for a in SIMPLE_ACTIONS)


@pytest.mark.parametrize(
    "s",
    ["t1", "T", "x" * 32, "x" * 33, "", "a-b", "a_b", "a b", "é", "٣", "ａ", "a\n", "A" * 31 + "é"],
)
def test_ident_shortcut_matches_the_regex(s: str) -> None:
    assert _ident(s) == (ID_RE.fullmatch(s) is not None)


def test_ident_shortcut_matches_the_regex_per_character() -> None:
    for i in range(0x300):
        assert _ident(chr(i)) == (ID_RE.fullmatch(chr(i)) is not None), hex(i)


@pytest.mark.parametrize("msg", [*CLIENT_EXAMPLES, *SERVER_EXAMPLES], ids=lambda m: m.TYPE)
def test_to_wire_writes_t_then_every_field_in_order(msg: Any) -> None:
    wire = msg.to_wire()
    assert list(wire) == (["t"] if msg.TYPE else []) + list(type(msg)._KEYS)
    generic = {**({"t": msg.TYPE} if msg.TYPE else {}), **_generic(msg)}
    assert msgpack.packb(wire) == msgpack.packb(generic)


def _generic(msg: Any) -> dict[str, Any]:
    """The wire map built field by field, nested records converted too."""
    out = {}
    for key, name in zip(type(msg)._KEYS, type(msg).__dataclass_fields__, strict=True):
        v = getattr(msg, name)
        if hasattr(v, "to_wire"):
            v = v.to_wire()
        elif isinstance(v, tuple) and v and hasattr(v[0], "to_wire"):
            v = [x.to_wire() for x in v]
        out[key] = v
    return out


def test_to_wire_of_a_finished_state() -> None:
    over = State(**{**kwargs_of(BIG), "outcome": OUTCOME})
    assert over.to_wire()["outcome"] == OUTCOME.to_wire()
    assert msgpack.packb(over.to_wire()) == msgpack.packb({"t": "state", **_generic(over)})


def test_building_in_code_still_validates() -> None:
    """`_trusted` is for checked values only; the constructor still checks everything."""
    with pytest.raises(ProtocolError, match="bad_cell"):
        Play(id=1, version=1, card="7H", cell=(True, 0))
    with pytest.raises(ProtocolError, match="bad_notation"):
        State(**{**kwargs_of(BIG), "legal": ("7H@D5", "7H@K1")})


def test_fast_tables_only_name_types_each_side_receives() -> None:
    assert set(CLIENT_FAST) <= set(CLIENT_MESSAGES)
    assert set(SERVER_FAST) <= set(SERVER_MESSAGES)
    for msg in FAST_EXAMPLES:
        for table, incoming in ((CLIENT_FAST, CLIENT_MESSAGES), (SERVER_FAST, SERVER_MESSAGES)):
            if msg.TYPE in table and incoming.get(msg.TYPE) is type(msg):
                assert type(table[msg.TYPE](decoded(msg.to_wire()))) is incoming[msg.TYPE]
