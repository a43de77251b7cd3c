"""docs/protocol.md and docs/rules.md say exactly what the code does.

Parts of docs/protocol.md are generated from the code: the state tables, the limits, the
worked session (a real server on 127.0.0.1 and two real connections) and the golden
bytes. Each sits between `<!-- generated: NAME -->` and `<!-- end: NAME -->`; the tests
below compare them with what the code writes now. After a deliberate change, rewrite
them with

    python tests/test_protocol_docs.py --write

and read the difference before committing it. The hand-written parts are checked too:
every message, field, part, code, change kind, notice kind and hint reason is
documented, and only those; each optional field with its default, and each range given
for an int field is the codec's.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgpack
import trio

from sarja.protocol.change_wire import CHANGE_KEYS
from sarja.protocol.codec import ClientCodec, ServerCodec
from sarja.protocol.errors import CODES, FATAL_CODES, ProtocolError
from sarja.protocol.examples import (
    CLIENT_EXAMPLES,
    CLOCK_FINAL,
    CLOCK_TABLE,
    CLOCK_UPDATE,
    FINAL_UPDATE,
    INCOMPATIBLE,
    MATCH_TABLE,
    OLDER_CLIENT,
    SERVER_EXAMPLES,
    SERVER_KEY,
    STAND_IN_LAST,
    STAND_IN_UPDATE,
    V1_HELLO,
    V2_HELLO,
)
from sarja.protocol.framing import FrameDecoder
from sarja.protocol.limits import (
    CLIENT_DECODE,
    HEADER_SIZE,
    MAX_CHANGES,
    MAX_CHOICES,
    MAX_CLIENT_FRAME,
    MAX_CODE,
    MAX_FIVES,
    MAX_HISTORY_PAGE,
    MAX_ID,
    MAX_LEGAL,
    MAX_MARKS,
    MAX_NAME,
    MAX_OPTIONS,
    MAX_SERVER_FRAME,
    MAX_SERVER_NAME,
    MAX_SPECTATORS,
    MAX_TABLE_NAME,
    MAX_TABLES,
    MAX_TEXT,
    PROTOCOL_VERSION,
    SERVER_DECODE,
)
from sarja.protocol.messages import (
    CHANGE_FIELDS,
    CLIENT_MESSAGES,
    NOTICE_KINDS,
    SERVER_MESSAGES,
    AskHistory,
    Choice,
    CreateTable,
    Entry,
    Hello,
    Join,
    Last,
    Leave,
    MatchScore,
    Pair,
    Player,
    Ready,
    Result,
    Rules,
    Seat,
    Snapshot,
    Standing,
    Sync,
    TableShape,
    TableSummary,
    WireMap,
)
from sarja.protocol.mirror import GameMirror
from sarja.protocol.moves import action_message
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED, TRANSITIONS, SessionState
from sarja.protocol.wire import pack
from sarja.server.app import HANDSHAKES_TO_REFUSE
from sarja.server.budget import COSTS
from sarja.server.config import ServerConfig
from sarja.server.connection import MAX_RESUME_TRIES
from sarja.server.quotas import QUOTAS, Quota
from sarja.server.refusal import SERVER_CODES
from sarja.server.toggles import TELL_EVERY

from .dial import dial

PATIENCE = 120.0  # a hang guard, as in netclient.py (this file also runs as a script)

ROOT = Path(__file__).resolve().parent.parent
DOC_PATH = ROOT / "docs" / "protocol.md"
RULES_PATH = ROOT / "docs" / "rules.md"
DOC = DOC_PATH.read_text("utf-8")
RULES = RULES_PATH.read_text("utf-8")
WIDTH = 88

# ----- showing values as the document does ---------------------------------------


def show(v: Any, cut: int | None = None) -> str:
    """A decoded msgpack value on one line, JSON-like, nil for None. Arrays longer
    than `cut` show their first items and how many there are in all."""
    if v is None:
        return "nil"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, dict):
        return "{" + ", ".join(f"{show(k)}: {show(x, cut)}" for k, x in v.items()) + "}"
    items = list(v)
    if cut is not None and len(items) > cut:
        shown = ", ".join(show(x, cut) for x in items[: cut - 2])
        return f"[{shown}, … {len(items)} in all]"
    return "[" + ", ".join(show(x, cut) for x in items) + "]"


def pretty(v: Any, indent: int = 0, cut: int | None = None, at: int | None = None) -> list[str]:
    """`show`, broken over lines where one line would be wider than WIDTH. The first
    line starts at column `at` (after a key, say); the others carry their indent."""
    at = indent if at is None else at
    flat = show(v, cut)
    if at + len(flat) <= WIDTH or not isinstance(v, dict | list | tuple):
        return [flat]
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(v, dict):
        lines = ["{"]
        for i, (k, x) in enumerate(v.items()):
            head = f"{inner}{show(k)}: "
            sub = pretty(x, indent + 2, cut, len(head))
            lines += [head + sub[0], *sub[1:]]
            lines[-1] += "," if i < len(v) - 1 else ""
        return [*lines, pad + "}"]
    items = list(v)
    more = cut is not None and len(items) > cut
    shown = items[: cut - 2] if more and cut is not None else items
    lines = ["["]
    if all(not isinstance(x, dict | list | tuple) for x in shown):  # fill the lines
        line = inner
        for x in shown:
            part = show(x) + ","
            if len(line) + len(part) > WIDTH and line.strip():
                lines.append(line.rstrip())
                line = inner
            line += part + " "
        lines.append(line.rstrip())
    else:
        for x in shown:
            sub = pretty(x, indent + 2, cut)
            lines += [inner + sub[0], *sub[1:]]
            lines[-1] += ","
    if more:
        lines.append(f"{inner}… {len(items)} in all")
    else:
        lines[-1] = lines[-1].rstrip(",")
    return [*lines, pad + "]"]


def hex_lines(data: bytes, indent: str = "") -> list[str]:
    h = data.hex(" ")
    return [indent + h[i : i + 48].strip() for i in range(0, len(h), 48)]


def wire(msg: WireMap) -> dict[str, Any]:
    """The map a message is on the wire, as the other end decodes it."""
    decoded: dict[str, Any] = msgpack.unpackb(pack(msg.to_wire()), use_list=False)
    return decoded


# ----- the generated blocks --------------------------------------------------------


def block_states() -> str:
    rows = ["| state | the client may send | the server may send |", "|---|---|---|"]
    for s in SessionState:
        c = ", ".join(f"`{t}`" for t in sorted(CLIENT_ALLOWED[s]))
        v = ", ".join(f"`{t}`" for t in sorted(SERVER_ALLOWED[s]))
        rows.append(f"| `{s}` | {c} | {v} |")
    return "\n".join(rows)


def block_transitions() -> str:
    rows = ["| in state | the server sends | moves to |", "|---|---|---|"]
    rows += [f"| `{s}` | `{t}` | `{n}` |" for (s, t), n in TRANSITIONS.items()]
    return "\n".join(rows)


def limits() -> list[tuple[str, str]]:
    """Every number a peer must know, and where it comes from."""
    config = ServerConfig()
    client_kib, server_kib = MAX_CLIENT_FRAME // 1024, MAX_SERVER_FRAME // 1024
    queued_kib = config.max_queued_bytes // 1024
    return [
        ("length prefix", f"{HEADER_SIZE} bytes, unsigned, big-endian"),
        ("frame body a client sends", f"1 to {MAX_CLIENT_FRAME} bytes ({client_kib} KiB)"),
        ("frame body the server sends", f"1 to {MAX_SERVER_FRAME} bytes ({server_kib} KiB)"),
        ("ids, versions, ping numbers", f"0 to {MAX_ID} (2^31 − 1)"),
        ("player name", f"1 to {MAX_NAME} characters, after surrounding white space is removed"),
        ("table name", f"1 to {MAX_TABLE_NAME} characters, likewise"),
        ("server name", f"1 to {MAX_SERVER_NAME} characters, likewise"),
        ("chat line, error sentence", f"1 to {MAX_TEXT} characters"),
        ("combining marks on one character of a text or a name a person gives",
         f"at most {MAX_MARKS} (`too_many_marks`)"),
        ("code", f"1 to {MAX_CODE} characters"),
        ("tables in one `tables` message", f"at most {MAX_TABLES} (free seats first)"),
        ("spectators at a table", f"at most {MAX_SPECTATORS}"),
        ("fives in one `play`, or held by one side", f"at most {MAX_FIVES}"),
        ("changes in one `update`", f"1 to {MAX_CHANGES}"),
        ("entries in one `history` page", f"0 to {MAX_HISTORY_PAGE}"),
        ("actions in one legal list", f"at most {MAX_LEGAL}"),
        ("cells offering a choice of fives", f"at most {MAX_CHOICES}"),
        ("options at one such cell", f"2 to {MAX_OPTIONS}"),
        ("time to be welcomed after connecting", f"{config.handshake_timeout:g} seconds"),
        ("the server pings a peer it has not heard from for", f"{config.ping_interval:g} seconds"),
        ("the server closes (`bye` `idle`) a peer silent for", f"{config.idle_timeout:g} seconds"),
        ("chat", f"{config.chat_burst} lines in any {config.chat_window:g} seconds per player"),
        ("requests on one connection",
         f"{config.request_rate:g} units a second, saved up to {config.request_burst:g}"
         f" ({priced()}, any other request 1); over it, a request waits"),
        ("requests from one address, all its connections together",
         f"{config.address_request_share:g} connections' worth:"
         f" {config.request_rate * config.address_request_share:g} units a second, saved up to"
         f" {config.request_burst * config.address_request_share:g}; over it, likewise"),
        *[(what, quota_text(QUOTAS[kind])) for what, kind in QUOTA_NAMES],
        ("the waiting room's `ready` and `seat_computer`, as the others hear of them",
         f"at most once every {TELL_EVERY:g} s, as the state then"),
        ("bytes queued for a peer that does not read", f"{queued_kib} KiB, then it is dropped"),
        ("time a peer may take to accept bytes", f"{config.send_timeout:g} s, then it is dropped"),
        ("time a frame may take to arrive whole",
         f"{config.frame_timeout:g} s (`bye` `slow_frame`)"),
        ("unknown resume tokens tried on one connection",
         f"{MAX_RESUME_TRIES}, the last refused as the others, then `bye` `too_many_resumes`"),
        ("connections", f"{config.max_connections} (more get `bye` `server_full`)"),
        ("connections from one address",
         f"{config.max_per_address}, sockets still in their TLS handshake counted (the next"
         f" {HANDSHAKES_TO_REFUSE} get `bye` `too_many_connections`; more are closed at once,"
         " unanswered)"),
        ("tables", f"{config.max_tables} (more are refused `too_many_tables`)"),
        ("open tables where the computer may play or advise (computer seats, a stand-in"
         " level, a turn clock, hints), made from one address; games in play at them",
         f"{config.computer_tables_per_address} (more, and a game that would start past"
         " it, are refused `too_many_computer_tables`)"),
        ("hints from one address",
         f"{config.hint_burst} in any {config.hint_window:g} seconds (more are refused"
         " `hints_too_fast`)"),
    ]  # fmt: skip


QUOTA_NAMES = (
    ("`standings`", "standings"), ("`forget`", "forget"),
    ("`ready` and `seat_computer` together", "toggle"),
)  # fmt: skip


def quota_text(quota: Quota) -> str:
    return (
        f"{quota.burst} in any {quota.window:g} seconds per player, {quota.address_burst} per"
        f" address; over it `{quota.code}`"
    )


def priced() -> str:
    """Every request that costs more than 1 unit, with its cost: all of COSTS, so a
    request given a price of its own is named in the limits."""
    named = []
    for cls, cost in sorted(COSTS.items(), key=lambda item: item[1]):
        article = "an" if cls.TYPE[0] in "aeiou" else "a"
        named.append(f"{article} `{cls.TYPE}` {'costs ' if not named else ''}{cost:g}")
    return ", ".join(named)


def block_limits() -> str:
    rows = ["| what | limit |", "|---|---|"] + [f"| {a} | {b} |" for a, b in limits()]
    rows += ["", "Decoder limits, checked while a frame body is decoded:", ""]
    rows += ["| msgpack limit | client → server | server → client |", "|---|---|---|"]
    for label, key in [
        ("string (UTF-8 bytes)", "max_str_len"),
        ("array (items)", "max_array_len"),
        ("map (entries)", "max_map_len"),
        ("nesting depth (the message map is depth 1)", "max_depth"),
    ]:
        rows.append(f"| {label} | {CLIENT_DECODE[key]} | {SERVER_DECODE[key]} |")
    return "\n".join(rows)


def golden_pairs() -> list[tuple[str, WireMap, bytes]]:
    """(key, message, frame) for every example, as the sending codec writes it."""
    out = []
    for direction, examples in (("client", CLIENT_EXAMPLES), ("server", SERVER_EXAMPLES)):
        for msg in examples:
            codec: Any = ClientCodec() if direction == "client" else ServerCodec()
            allowed = CLIENT_ALLOWED if direction == "client" else SERVER_ALLOWED
            codec.session.state = next(s for s in SessionState if msg.TYPE in allowed[s])
            out.append((f"{direction}:{msg.TYPE}", msg, codec.send(msg)))
    return out


def block_golden() -> str:
    parts = []
    heading = {"client": "### Client to server", "server": "### Server to client"}
    seen = set()
    for key, msg, frame in golden_pairs():
        direction = key.split(":")[0]
        if direction not in seen:
            seen.add(direction)
            parts.append(heading[direction])
        body = "\n".join(pretty(wire(msg)))
        parts.append(
            f"#### `{key}`\n\n```text\n{body}\n```\n\n"
            f"Golden bytes, `{key}`, {len(frame)} bytes:\n\n"
            "```text\n" + "\n".join(hex_lines(frame)) + "\n```"
        )
    return "\n\n".join(parts)


def block_version_one() -> str:
    lines = ["C→S  " + show(V1_HELLO), *hex_lines(v1_hello_frame(), "     ")]
    reply = pretty(wire(INCOMPATIBLE), 5)
    lines += ["S→C  " + reply[0], *reply[1:], *hex_lines(incompatible_reply(), "     ")]
    lines.append("     (the server closes the connection)")
    return "```text\n" + "\n".join(lines) + "\n```"


def block_fingerprint() -> str:
    from sarja.protocol.fingerprint import of_public_key, short_code

    key = SERVER_KEY.hex()
    fingerprint = of_public_key(SERVER_KEY)
    return (
        "```text\n"
        f"public key (DER SubjectPublicKeyInfo, {len(SERVER_KEY)} bytes):\n"
        + "\n".join("  " + key[i : i + 84] for i in range(0, len(key), 84))
        + f"\nfingerprint: {fingerprint}\nshort code:  {short_code(fingerprint)}\n```"
    )


def block_older_client() -> str:
    """A protocol-2 hello, in the clear, and the one frame the server answers (the
    bytes server/tls.py sends; tests/test_tls.py checks them on a real connection)."""
    from sarja.server.tls import OLDER_CLIENT_REFUSAL

    body = pack(V2_HELLO)
    hello = len(body).to_bytes(HEADER_SIZE, "big") + body
    reply = ServerCodec().encode(OLDER_CLIENT)
    assert reply == OLDER_CLIENT_REFUSAL
    lines = ["C→S  " + show(V2_HELLO) + "   (no TLS)", *hex_lines(hello, "     ")]
    shown = pretty(wire(OLDER_CLIENT), 5)
    lines += ["S→C  " + shown[0], *shown[1:], *hex_lines(reply, "     ")]
    lines.append("     (the server closes the connection)")
    return "```text\n" + "\n".join(lines) + "\n```"


def block_final_update() -> str:
    return "```text\n" + "\n".join(pretty(wire(FINAL_UPDATE))) + "\n```"


def block_stand_in() -> str:
    codec = ServerCodec()
    codec.session.state = SessionState.GAME
    frame = codec.send(STAND_IN_UPDATE)
    last = ServerCodec()
    last.session.state = SessionState.GAME
    snapshot = last.send(STAND_IN_LAST)
    return (
        "```text\n" + "\n".join(pretty(wire(STAND_IN_UPDATE))) + "\n```\n\n"
        f"Golden bytes, `server:stand_in`, {len(frame)} bytes:\n\n"
        "```text\n" + "\n".join(hex_lines(frame)) + "\n```\n\n"
        "A snapshot's last move says the same: the snapshot of the example in section 7"
        " had the computer made Bertil's K♦ for him, its `last`:\n\n"
        "```text\n" + "\n".join(pretty(wire(STAND_IN_LAST)["last"])) + "\n```\n\n"
        f"The whole snapshot. Golden bytes, `server:stand_in_last`, {len(snapshot)} bytes:\n\n"
        "```text\n" + "\n".join(hex_lines(snapshot)) + "\n```"
    )


def _more_golden(key: str, msg: WireMap) -> str:
    codec: Any = ClientCodec() if key.startswith("client") else ServerCodec()
    allowed = CLIENT_ALLOWED if key.startswith("client") else SERVER_ALLOWED
    codec.session.state = next(s for s in SessionState if msg.TYPE in allowed[s])
    frame = codec.send(msg)
    return (
        "```text\n" + "\n".join(pretty(wire(msg))) + "\n```\n\n"
        f"Golden bytes, `{key}`, {len(frame)} bytes:\n\n"
        "```text\n" + "\n".join(hex_lines(frame)) + "\n```"
    )


def block_match_table() -> str:
    codec = ServerCodec()
    codec.session.state = SessionState.ENDED
    frame = codec.send(MATCH_TABLE)
    return (
        "```text\n" + "\n".join(pretty(wire(MATCH_TABLE))) + "\n```\n\n"
        f"Golden bytes, `server:match_table`, {len(frame)} bytes:\n\n"
        "```text\n" + "\n".join(hex_lines(frame)) + "\n```"
    )


def block_clocks() -> str:
    return (
        _more_golden("client:turn_clock", CLOCK_TABLE)
        + "\n\n"
        + _more_golden("server:clock", CLOCK_UPDATE)
        + "\n\n"
        + _more_golden("server:clock_end", CLOCK_FINAL)
    )


def v1_hello_frame() -> bytes:
    body = pack(V1_HELLO)
    return len(body).to_bytes(HEADER_SIZE, "big") + body


def incompatible_reply() -> bytes:
    """What the server's codec makes of a version-1 hello: the fatal error frame."""
    from sarja.protocol.codec import error_reply
    from sarja.protocol.errors import RemoteProtocolError

    server = ServerCodec()
    server.receive_data(v1_hello_frame())
    try:
        server.next_message()
    except RemoteProtocolError as exc:
        reply = error_reply(exc)
        assert reply == INCOMPATIBLE and exc.fatal
        out = ServerCodec()
        return out.send(reply)
    raise AssertionError("a version-1 hello was accepted")


# ----- the worked session: a real server, Aino's connection shown -------------------

# Chosen so that Aino cuts lowest after a tie and holds no wild jack.
SEED = 62


class Peer:
    """One real connection. `settle` sends a ping and reads up to its pong, so every
    message the server sent this peer before it has arrived; the pings are not shown."""

    def __init__(self, stream: trio.abc.Stream, log: list[Any] | None) -> None:
        self.stream = stream
        self.codec = ClientCodec()
        self.log = log
        self.mirror: GameMirror | None = None
        self.received: list[Any] = []
        self._frames = FrameDecoder(MAX_SERVER_FRAME)  # the same bytes, kept as frames
        self._n = 100

    async def send(self, msg: Any, note: str = "") -> None:
        before = self.codec.state
        frame = self.codec.send(msg)
        await self.stream.send_all(frame)
        if self.log is not None:
            self.log.append(("C→S", msg, frame, before, self.codec.state, note))

    async def settle(self) -> None:
        from sarja.protocol.messages import Ping, Pong

        self._n += 1
        await self.stream.send_all(self.codec.send(Ping(n=self._n)))
        while True:
            data = await self.stream.receive_some(1 << 16)
            assert data, "the server closed the connection"
            self.codec.receive_data(data)
            self._frames.receive_data(data)
            while True:
                before = self.codec.state
                msg = self.codec.next_message()
                if msg is None:
                    break
                body = self._frames.next_frame()
                assert body is not None
                if isinstance(msg, Pong) and msg.n == self._n:
                    return
                self._take(msg)
                if self.log is not None:
                    frame = len(body).to_bytes(HEADER_SIZE, "big") + body
                    self.log.append(("S→C", msg, frame, before, self.codec.state, ""))

    def _take(self, msg: Any) -> None:
        self.received.append(msg)
        if isinstance(msg, Snapshot):
            if self.mirror is not None:  # what the updates built must be what it says
                assert self.mirror.snapshot() == msg
            self.mirror = GameMirror(msg)
        elif self.mirror is not None and msg.TYPE in ("update", "hand", "legal", "ack"):
            assert self.mirror.apply(msg), f"{msg.TYPE} does not follow on"

    def last(self, t: str) -> Any:
        return next(m for m in reversed(self.received) if m.TYPE == t)


async def worked_session() -> str:
    from sarja.server.app import serve

    log: list[Any] = []
    config = ServerConfig(host="127.0.0.1", port=0, seed=SEED)
    async with trio.open_nursery() as nursery:
        server = await nursery.start(serve, config)
        aino = Peer(await dial(server.port), log)
        bertil = Peer(await dial(server.port), None)

        def note(text: str) -> None:
            log.append(("#", text))

        async def both() -> None:  # Bertil's effects reach Aino before Aino's pong
            await bertil.settle()
            await aino.settle()

        await aino.send(Hello(version=PROTOCOL_VERSION, name="Aino"))
        await aino.settle()
        await aino.send(CreateTable(name="Friday", players=2, teams=2))
        await aino.settle()
        note("Bertil connects, says hello and joins t1.")
        await bertil.send(Hello(version=PROTOCOL_VERSION, name="Bertil"))
        await bertil.settle()
        await bertil.send(Join(table="t1"))
        await both()
        await aino.send(Ready(ready=True))
        await aino.settle()
        note("Bertil is ready too, so the game starts: the table, then the snapshot.")
        await bertil.send(Ready(ready=True))
        await both()
        assert aino.mirror is not None and aino.mirror.turn == 0 and len(aino.mirror.cut) > 1

        note("Aino plays the first action of her legal list, as action id 1.")
        first = action_message(aino.mirror.legal[0], 1, aino.mirror.version)
        await aino.send(first)
        await aino.settle()
        note("Her answer was lost, she thinks; she sends the same action again.")
        await aino.send(first)
        await aino.settle()
        note("Bertil plays; Aino gets the update and, on turn, her legal list.")
        await bertil.settle()
        assert bertil.mirror is not None
        await bertil.send(action_message(bertil.mirror.legal[0], 1, bertil.mirror.version))
        await both()
        note("An action made against version 1: older than the last accepted action.")
        await aino.send(action_message(aino.mirror.legal[0], 2, 1))
        await aino.settle()
        note("Id 1 again, for another action; then a version the game has not reached.")
        await aino.send(action_message(aino.mirror.legal[0], 1, aino.mirror.version))
        await aino.send(action_message(aino.mirror.legal[0], 2, 9))
        await aino.settle()
        note("Bertil's connection drops; his seat is kept.")
        await bertil.stream.aclose()
        mine = aino.mirror
        with trio.fail_after(PATIENCE):  # the server sees the close in its own time
            while not mine.players[1].away:
                await aino.settle()
        made_at = mine.version - 1
        note(f"Aino plays against version {made_at}, from before Bertil went away: still good.")
        await aino.send(action_message(mine.legal[0], 2, made_at))
        await aino.settle()
        await aino.send(Sync(), note="the snapshot equals her picture")
        await aino.settle()
        await aino.send(AskHistory(after=2), note="what happened after version 2, for her log")
        await aino.settle()
        await aino.send(Leave())
        await aino.settle()
        assert aino.codec.state == SessionState.LOBBY
        nursery.cancel_scope.cancel()
    return render_session(log, aino)


def render_session(log: list[Any], aino: Peer) -> str:
    welcome = aino.last("welcome")
    secret = {
        show(welcome.session): "<session id>",
        show(welcome.resume): "<resume token>",
        show(welcome.server_id): "<server id>",
    }
    lines = []
    show_bytes = {"hello", "play", "ack", "update"}
    for entry in log:
        if entry[0] == "#":
            lines += ["", "# " + entry[1]]
            continue
        arrow, msg, frame, before, after, note = entry
        text = pretty(wire(msg), 5, cut=16)
        body = arrow + "  " + "\n".join(text)
        for value, placeholder in secret.items():
            body = body.replace(value, placeholder)
        lines.append(body)
        if msg.TYPE in show_bytes:
            show_bytes.discard(msg.TYPE)
            lines += hex_lines(frame, "     ")
        if note:
            lines.append(f"     ({note})")
        if before != after:
            lines.append(f"     [state: {before} → {after}]")
    return "```text\n" + "\n".join(lines).strip("\n") + "\n```"


# ----- reading the document --------------------------------------------------------

GENERATED_RE = re.compile(r"<!-- generated: (\w+) -->\n(.*?)\n<!-- end: \1 -->", re.S)


def generated(doc: str = DOC) -> dict[str, str]:
    return {name: body for name, body in GENERATED_RE.findall(doc)}


def section(title_start: str, doc: str = DOC) -> str:
    """The text of the `## ` section whose title starts with `title_start`."""
    parts = re.split(r"^## ", doc, flags=re.M)
    found = [p for p in parts if p.startswith(title_start)]
    assert len(found) == 1, title_start
    return found[0]


def subsection(text: str, heading: str) -> str:
    """From `heading` (a whole line) to the next heading of any level."""
    assert heading + "\n" in text, heading
    rest = text.split(heading + "\n", 1)[1]
    return re.split(r"^#{2,4} ", rest, flags=re.M)[0]


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row in `text`, headers and rules left out."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:] if rows else rows


def first_column(text: str) -> list[str]:
    return [r[0].strip("`") for r in table_rows(text)]


# ----- the tests ---------------------------------------------------------------------

STATIC: dict[str, Callable[[], str]] = {
    "states": block_states,
    "transitions": block_transitions,
    "limits": block_limits,
    "golden": block_golden,
    "version_one": block_version_one,
    "fingerprint": block_fingerprint,
    "older_client": block_older_client,
    "final_update": block_final_update,
    "stand_in": block_stand_in,
    "match_table": block_match_table,
    "clocks": block_clocks,
}


def test_generated_blocks_are_what_the_code_says_now() -> None:
    blocks = generated()
    assert set(blocks) == {*STATIC, "worked"}
    for name, make in STATIC.items():
        assert blocks[name] == make(), f"{name}: run python tests/test_protocol_docs.py --write"


async def test_the_worked_session_is_what_a_real_server_sends() -> None:
    assert generated()["worked"] == await worked_session(), (
        "run python tests/test_protocol_docs.py --write"
    )


def test_the_title_names_the_version() -> None:
    assert DOC.startswith(f"# The Sarja wire protocol, version {PROTOCOL_VERSION}\n")


def test_every_message_type_is_documented_with_every_field() -> None:
    for title, messages in (("6.", CLIENT_MESSAGES), ("7.", SERVER_MESSAGES)):
        text = section(title)
        headings = re.findall(r"^### `(\w+)`$", text, re.M)
        assert sorted(headings) == sorted(messages), title
        for t, cls in messages.items():
            fields = first_column(subsection(text, f"### `{t}`"))
            assert fields == [key for key, _, _ in cls._SPEC], (title, t)


PARTS: dict[str, type[WireMap]] = {
    "shape": TableShape,
    "table summary": TableSummary,
    "rules": Rules,
    "seat": Seat,
    "player": Player,
    "last": Last,
    "choice": Choice,
    "result": Result,
    "entry": Entry,
    "match": MatchScore,
    "standing": Standing,
    "pair": Pair,
}


def test_every_part_is_documented_with_every_field() -> None:
    text = section("7.")
    headings = re.findall(r"^#### The \*(.+?)\* part$", text, re.M)
    assert sorted(headings) == sorted([*PARTS, "change"])
    for name, cls in PARTS.items():
        fields = first_column(subsection(text, f"#### The *{name}* part"))
        assert fields == [key for key, _, _ in cls._SPEC], name
    # A change is one class per kind (sarja.protocol.changes); its map has these keys.
    assert first_column(subsection(text, "#### The *change* part")) == list(CHANGE_KEYS)


def wire_default(value: Any) -> str:
    """A field's default as the tables write it."""
    if isinstance(value, str):
        return f'"{value}"'
    return "[]" if value == () else show(value)


def test_a_field_is_optional_exactly_when_it_has_a_default_and_says_which() -> None:
    # The encoder leaves out every field equal to its default (section 2): a client
    # must know each default to read what is left out.
    from sarja.protocol.base import _MISSING

    tables = [
        (section(t), f"### `{n}`", cls)
        for t, ms in (("6.", CLIENT_MESSAGES), ("7.", SERVER_MESSAGES))
        for n, cls in ms.items()
    ]
    tables += [(section("7."), f"#### The *{n}* part", cls) for n, cls in PARTS.items()]
    for text, heading, cls in tables:
        defaults = {key: default for key, _, default in cls._SPEC}
        for key, *_, rules in table_rows(subsection(text, heading)):
            said = re.search(r"\*optional\*, default (\S+?)[\s:;,(]", rules + " ")
            if defaults[key] is _MISSING:
                assert "*optional*" not in rules, (heading, key)
            else:
                assert said is not None, (heading, key, "optional, with its default")
                assert said.group(1) == wire_default(defaults[key]), (heading, key)


def test_a_documented_range_is_the_one_the_codec_enforces() -> None:
    # Each int field whose rules give a range "lo–hi": one below and one above it,
    # in the example of its message, are refused (`out_of_range`, or the code the same
    # rules name instead); the two ends are not refused for that field.
    checked = 0
    for title, messages, examples in (
        ("6.", CLIENT_MESSAGES, CLIENT_EXAMPLES),
        ("7.", SERVER_MESSAGES, SERVER_EXAMPLES),
    ):
        text = section(title)
        example = {msg.TYPE: dict(wire(msg)) for msg in examples}
        for t, cls in messages.items():
            for key, kind, *_, rules in table_rows(subsection(text, f"### `{t}`")):
                bounds = re.search(r"(\d[\d ]*)–(\d[\d ]*)", rules)
                if not kind.startswith("int") or bounds is None:
                    continue
                low, high = (int(b.replace(" ", "")) for b in bounds.groups())
                named = set(re.findall(r"`([a-z]+_[a-z_]+)`", rules)) & set(CODES)
                for value in (low - 1, high + 1):
                    try:
                        cls.from_wire({**example[t], key: value})
                    except ProtocolError as refused:
                        assert refused.code in {"out_of_range", *named}, (t, key, value)
                    else:
                        raise AssertionError(f"{t}.{key} = {value} was accepted")
                for value in (low, high):  # refused, if at all, for another field
                    try:
                        cls.from_wire({**example[t], key: value})
                    except ProtocolError as refused:
                        assert f"'{key}'" not in refused.message, (t, key, value)
                checked += 1
    assert checked >= 20


def test_every_change_kind_is_documented_with_its_fields() -> None:
    rows = table_rows(subsection(section("8."), "### Applying an update"))
    assert [r[0].strip("`") for r in rows] == list(CHANGE_FIELDS)
    for kind, fields, *_ in rows:
        named = set(re.findall(r"`(\w+)`", fields))
        assert named == set(CHANGE_FIELDS[kind.strip("`")]), kind


def test_every_hint_reason_is_documented() -> None:
    from sarja.protocol.server_messages import HINT_REASONS

    rows = {r[0]: r[-1] for r in table_rows(subsection(section("7."), "### `hint`"))}
    assert re.findall(r"`(\w+)`", rows["reason"]) == list(HINT_REASONS)


def test_every_notice_kind_is_documented() -> None:
    rows = table_rows(subsection(section("7."), "#### Notice kinds"))
    assert [r[0].strip("`") for r in rows] == list(NOTICE_KINDS)


# Codes the server's source defines that never reach the wire, because an earlier check
# always refuses first. They are not in the document; their owners may remove them.
NEVER_SENT = {
    "team_count_needed": "create_table always names the teams",
    "malformed_action": "the codec checks every field of an action before the engine sees it",
}
SOURCE_CODE_RES = [
    re.compile(r"(?:Refusal|IllegalAction|ArrangementError|MalformedAction)\(\s*\"(\w+)\""),
    re.compile(r"\bcode=\"(\w+)\""),
    re.compile(r"\.close\(\s*\"(\w+)\""),
    # A `bye` before any hello, and the connections the lobby's steps close.
    re.compile(r"_refuse\(\s*\w+,\s*\"(\w+)\""),
    re.compile(r"closes\.append\(\s*\(\s*[\w.]+,\s*\"(\w+)\""),
]


def server_codes() -> set[str]:
    """Every code the server's source can refuse or say goodbye with."""
    found = set(SERVER_CODES)
    for path in (ROOT / "server").rglob("*.py"):
        text = path.read_text("utf-8")
        for pattern in SOURCE_CODE_RES:
            found.update(pattern.findall(text))
    return found


def test_each_way_the_source_names_a_code_is_still_found() -> None:
    # A pattern that matches nothing any more (the code was reshaped) would let a new
    # code through undocumented.
    source = "".join(p.read_text("utf-8") for p in (ROOT / "server").rglob("*.py"))
    for pattern in SOURCE_CODE_RES:
        assert pattern.search(source), pattern.pattern


def code_rows() -> dict[str, list[str]]:
    rows = table_rows(subsection(section("10."), "### Every code"))
    codes = [r[0].strip("`") for r in rows]
    assert len(codes) == len(set(codes)), "a code is listed twice"
    return {r[0].strip("`"): r for r in rows}


def test_every_code_that_can_reach_the_wire_is_listed_once() -> None:
    rows = code_rows()
    wire_codes = (server_codes() - set(NEVER_SENT)) | set(CODES)
    assert set(rows) == wire_codes
    assert not set(rows) & set(NEVER_SENT)


def test_each_code_says_whether_it_closes_the_connection() -> None:
    bye = {
        "server_full", "idle", "replaced", "shutdown", "slow_frame", "too_many_resumes",
        "too_many_connections",
    }  # fmt: skip
    for code, (_, sent_in, closes, meaning) in code_rows().items():
        assert sent_in == ("`bye`" if code in bye else "`error`"), code
        fatal = code in FATAL_CODES or code in bye or code == "internal_error"
        assert closes == ("yes" if fatal else "no"), code
        if code in CODES:
            assert meaning == CODES[code], code


def test_the_codes_the_rules_refuse_with_are_in_rules_md() -> None:
    # The game's refusals, and checks.py's (the reasons an action is refused).
    engine = "".join(
        (ROOT / "server" / "engine" / name).read_text("utf-8") for name in ("game.py", "checks.py")
    )
    illegal = set(re.findall(r"IllegalAction\(\s*\"(\w+)\"", engine)) - set(NEVER_SENT)
    illegal.discard("not_a_player")  # the server refuses a spectator first, in its words
    refusals = subsection(RULES, "## When a move is refused")
    rows = table_rows(refusals)
    assert {r[0].strip("`") for r in rows} == illegal
    for code, sentence in rows:
        if not re.search(r"[♠♥♦♣]|\b[A-J]\d\b", sentence):  # fixed words: as in the source
            assert f'"{sentence}"' in engine, code
    for code in NEVER_SENT:
        assert f"`{code}`" not in RULES and f"`{code}`" not in DOC, code


def test_codes_in_sentences_of_rules_md_are_real() -> None:
    named = set(re.findall(r"`([a-z]+_[a-z_]+)`", RULES))
    assert named <= server_codes() | set(CODES), named - server_codes() - set(CODES)


def test_the_examples_the_doc_quotes_are_the_code_s() -> None:
    assert INCOMPATIBLE.message in DOC
    assert f"**{MAX_CLIENT_FRAME}** bytes" in DOC and f"**{MAX_SERVER_FRAME}** bytes" in DOC
    c = ServerConfig()
    prose = " ".join(DOC.split())  # the numbers in sentences, wherever lines break
    for said in (
        f"{c.chat_burst} lines in any {c.chat_window:g} seconds",
        f"not heard from for {c.ping_interval:g} seconds (at most once every"
        f" {c.ping_interval:g} seconds)",
        f"silent for {c.idle_timeout:g} seconds",
        f"welcomed {c.handshake_timeout:g} seconds after connecting",
        f"more than {c.max_queued_bytes // 1024} KiB wait",
        f"has not taken them for {c.send_timeout:g} seconds",
        f"away for at least {c.hand_over_after:g} seconds",
        f"plays within {c.computer_budget:g} seconds",
    ):
        assert said in prose, said
    # What each request costs of the budget, in the words of section 11 too.
    requests = " ".join(section("11.").split())
    for cls, cost in COSTS.items():
        assert f"`{cls.TYPE}` {cost:g}" in requests, cls.TYPE


def test_docs_name_no_machine_paths() -> None:
    for text in (DOC, RULES):
        assert re.search(r"/(?:work|home|tmp|Users)/|[A-Z]:\\\\", text) is None


# ----- rewriting the generated blocks ------------------------------------------------


def write(blocks: dict[str, str]) -> None:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        return f"<!-- generated: {name} -->\n{blocks[name]}\n<!-- end: {name} -->"

    DOC_PATH.write_text(GENERATED_RE.sub(fill, DOC), "utf-8")


def main(argv: Iterable[str]) -> None:
    if "--write" not in argv:
        print(__doc__)
        return
    blocks = {name: make() for name, make in STATIC.items()}
    blocks["worked"] = trio.run(worked_session)
    write(blocks)
    print("rewrote", ", ".join(sorted(blocks)))


if __name__ == "__main__":
    main(sys.argv[1:])


def test_rules_md_names_the_code_a_move_after_the_game_gets() -> None:
    # The server answers `game_over` (test_server_sessions checks it on the wire), the
    # session state allowing actions once the game has ended.
    said = re.search(r"after the\s+game has ended is refused with `(\w+)`", RULES)
    assert said is not None and said.group(1) == "game_over"
    assert "game_over" in section("10.") and "`ended`" in section("5.")


def test_the_gap_rule_counts_a_newer_hand_or_legal_as_a_gap() -> None:
    # A client that lost the update giving it the turn learns of it from a newer `legal`
    # alone: ignoring that would leave it waiting for ever.
    gaps = " ".join(subsection(section("8."), "### Gaps and `sync`").split())
    assert "a `hand` or `legal` whose `version` is newer than the picture's" in gaps
    lists = " ".join(subsection(section("8."), "### Hand and legal lists").split())
    assert "newer than the picture's means updates were missed" in lists


def test_a_client_author_finds_the_records_format_from_the_start() -> None:
    opening = DOC.split("\n## 1.")[0]
    assert "(records.md)" in opening and "(rules.md)" in opening
    readme = (ROOT / "README.md").read_text("utf-8")
    writing = next(p for p in readme.split("\n\n") if "client of your own" in p)
    assert "(docs/records.md)" in writing and "(docs/protocol.md)" in writing
