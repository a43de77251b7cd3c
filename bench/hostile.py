"""Hostile clients against the real `sarja-server`, while a real game plays.

    .venv/bin/python bench/hostile.py            # the full run: 1,000,000 frames, ~11 minutes
    .venv/bin/python bench/hostile.py --quick    # a scaled-down run, under a minute (tests)

The server runs as a process of its own on 127.0.0.1 (`--log-level info`, its log in a
file that is scanned at the end). Attackers bind source addresses 127.0.0.2 to
127.0.0.199, so they look like many machines; the real game plays from 127.0.0.200.

1. Idle connections: N greeted connections that do nothing; the server's resident
   memory (VmRSS) and open file descriptors before and after, per connection.
2. The real game: a scripted pair of clients in a process of their own (so the
   attackers' work never delays their clock) at a table of their own, each making a
   legal move as soon as it may and timing it, send -> own `ack`; rematch after each
   game. Timed alone first (before), then during the attack.
3. The attack, all at once:
   - fuzz streams: greeted connections sending batches of non-fatal hostile frames:
     mutated valid frames, random bodies, wrong-state messages, hostile field values
     (floats, booleans as integers, huge integers, control characters, long strings),
     depth bombs, bin and ext values (timestamps), map keys that are not strings,
     unknown types and fields, paced so the whole attack sends the target count;
   - fatal frames, a fresh connection each: random byte streams, oversize, empty and
     truncated frames, bad versions; each must get its fatal `error` before the close;
   - rogue games: pairs at tables of their own sending out-of-turn, illegal, stale,
     bad-version and reused-id actions, wrong-state messages and syncs mid-game;
   - in turn: one address over its connection limit; a connection flood; trickled
     frames (slow peers); idle connections that never say hello; log injection
     (control characters and unprintable text in types and field names); resume-token
     guessing; amplification (100 twelve-seat tables, hundreds of lobby guests, some
     never reading, while seated guests toggle `ready`); 999 spectators at one table
     and one more; spectate/leave churn at the real game's table; and last, abandoned
     games (create, join, ready, disconnect) until the server refuses new tables.
4. After: the server's memory once the attackers are gone; then SIGTERM.
5. The journal's bounds, on servers of their own: pairs moving flat out and tables
   created and closed without pause (the log's peak size, the journal's growth an
   hour); and unknown resume tokens timed on an empty journal and a full one.
6. Computers at many tables, on a server of its own: the real game timed
   alone (`p99_calm_ms`), then while 20 twelve-seat tables of hard computers (4 in the
   quick run) play on with no one there, made four to an address from 127.0.0.150 on
   (`p99_under_computers_ms`, at most 3x the calm p99); one more from the same address
   must be refused. `--computers-only` runs just this; `--search-threads` and
   `--search-workers N` set the server's search pool, to compare.

7. Attacks in modules of their own (`SEPARATE`), each on servers of its own, their
   figures in the same JSON line: the table limit (bench/hostile_tables.py: the park
   race, and the lockout spread over as many addresses as the per-address bound
   takes) in the full run, and what one address can set running
   (bench/hostile_bounds.py: clock tables per address; a real player's hints, calm
   and under a flood from several addresses); and a fake server with the real one's
   id, and a relay, against the real client (bench/hostile_spoof.py: the secrets the
   client holds that reached them); and what requests cost (bench/hostile_costs.py:
   standings and forget on a journal of 60,000 games, sync, the waiting room's toggles)
   in the full run.

Printed: frames, connections, crashes (the server process died), tracebacks logged,
`internal_error` replies seen, the real game's p50/p99 before and during the attack,
the server's RSS before, at its peak and after, memory per idle connection, what each
attack found, and a verdict per target. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import msgpack
import trio
from hostile_bounds import clock_tables, hints  # beside this file
from hostile_costs import cost_attacks  # beside this file
from hostile_spoof import spoof  # beside this file
from hostile_tables import table_limit_attacks  # beside this file
from support.processes import read_port, stop  # bench/support/
from support.session_view import SessionView  # bench/support/

from sarja.client.tls import secure
from sarja.protocol.client_session import ClientSession, Event, message_of
from sarja.protocol.codec import ServerCodec, error_reply
from sarja.protocol.errors import ProtocolError, RemoteProtocolError
from sarja.protocol.examples import CLIENT_EXAMPLES
from sarja.protocol.framing import pack_length
from sarja.protocol.limits import MAX_CLIENT_FRAME, PROTOCOL_VERSION
from sarja.protocol.messages import (
    Ack,
    ChatLine,
    Error,
    Notice,
    Rematch,
    Snapshot,
    TableList,
    TableSummary,
    TableView,
)
from sarja.protocol.moves import action_message
from sarja.protocol.session import SessionState

SERVER = str(Path(sys.executable).parent / "sarja-server")
HOST = "127.0.0.1"
PLAYER_ADDRESS = "127.0.0.200"
CONNECT_TIMEOUT = 10.0
NICE = 5  # the attackers yield the CPU to the server and the real game's process
TARGETS = {"p99_ratio": 3.0, "rss_peak_mib": 300.0, "idle_kib": 16.0}
HINT_RATIO = 1.5  # a real player's hint under a flood, at most this times its calm time


@dataclass(frozen=True)
class Scale:
    frames: int  # hostile frames to send in all
    attack_s: float  # the attack's planned length
    overtime_s: float  # at most this much longer, to reach `frames`
    baseline_s: float  # the real game timed alone
    idle_conns: int  # for memory per idle connection
    pool: int  # distinct stream frames made
    stream_conns: int
    batch: int  # frames per send on a fuzz stream
    fatal_per_s: float
    fatal_workers: int
    rogue_pairs: int
    per_address: int  # the server's --max-per-address
    flood: int
    trickle: int
    idle_held: int
    inject: int
    guessers: int
    amp_hosts: int
    amp_readers: int
    amp_silent: int
    amp_toggles: int  # in one burst
    amp_toggle_s: float  # then toggling this long, 20 a second
    spectators: int
    churn_s: float
    lockout_pairs: int


FULL = Scale(
    frames=1_000_000, attack_s=560, overtime_s=100, baseline_s=40, idle_conns=1000, pool=20_000,
    stream_conns=24, batch=64, fatal_per_s=15, fatal_workers=6, rogue_pairs=4, per_address=256,
    flood=1200, trickle=16, idle_held=600, inject=200, guessers=300, amp_hosts=100,
    amp_readers=300, amp_silent=200, amp_toggles=300, amp_toggle_s=20, spectators=999,
    churn_s=30, lockout_pairs=1100,
)  # fmt: skip
QUICK = Scale(
    frames=8_000, attack_s=10, overtime_s=6, baseline_s=3, idle_conns=100, pool=3000,
    stream_conns=6, batch=32, fatal_per_s=10, fatal_workers=3, rogue_pairs=1, per_address=64,
    flood=100, trickle=3, idle_held=30, inject=24, guessers=10, amp_hosts=20, amp_readers=30,
    amp_silent=10, amp_toggles=60, amp_toggle_s=2, spectators=60, churn_s=2, lockout_pairs=20,
)  # fmt: skip

# Where each attack connects from: 127.0.0.<n>, the next ones too when it needs more
# connections than one address may hold.
A_STREAM, A_ROGUE, A_FATAL, A_CAP, A_FLOOD = 2, 3, 4, 10, 11
A_TRICKLE, A_IDLE, A_INJECT, A_GUESS = 20, 21, 25, 26
A_AMP_HOSTS, A_AMP_READERS, A_AMP_SILENT, A_AMP_PROBE = 30, 31, 34, 35
A_SPEC_HOST, A_LIST_PROBE, A_SPECTATORS, A_CHURN = 38, 39, 40, 48
A_LOCK, A_LOCK_PROBE, A_IDLE_MEMORY = 50, 60, 100


def mp(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def raw(body: bytes) -> bytes:
    return pack_length(len(body)) + body


def frame(obj: Any) -> bytes:
    return raw(mp(obj))


def hello(name: str, resume: str | None = None) -> bytes:
    msg = {"t": "hello", "version": PROTOCOL_VERSION, "name": name}
    if resume is not None:
        msg["resume"] = resume
    return frame(msg)


READY, UNREADY = frame({"t": "ready", "ready": True}), frame({"t": "ready", "ready": False})
LEAVE, LIST = frame({"t": "leave"}), frame({"t": "list_tables"})


def create(name: str, players: int = 2) -> bytes:
    return frame({"t": "create_table", "name": name, "players": players, "teams": 2})


# What the bytes coming back are scanned for (msgpack strings, as the server packs them).
def code_pattern(code: str) -> bytes:
    return b"\xa4code" + mp(code)


INTERNAL = code_pattern("internal_error")
PAT_FATAL = b"\xa5fatal\xc3"
PAT_BYE, PAT_WELCOME = b"\xa1t\xa3bye", b"\xa1t\xa7welcome"
PAT_TABLE, PAT_TABLES = b"\xa1t\xa5table", b"\xa1t\xa6tables"
PAT_SNAPSHOT, PAT_PONG = b"\xa1t\xa8snapshot", b"\xa1t\xa4pong"
BASIC = {"internal": INTERNAL, "fatal": PAT_FATAL, "bye": PAT_BYE, "welcome": PAT_WELCOME}
LIGHT = {"internal": INTERNAL, "bye": PAT_BYE}


def address(n: int) -> str:
    return f"127.0.0.{n}"


def rss_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return math.nan
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) / 1024 if match else math.nan


def cpu_seconds(pid: int) -> float:
    try:
        fields_ = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields_[11]) + int(fields_[12])) / os.sysconf("SC_CLK_TCK")


def open_fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ----- the frames ------------------------------------------------------------------------

EXAMPLES = [m.to_wire() for m in CLIENT_EXAMPLES if m.TYPE != "resume"]
CONTROL = [
    "\x1b]52;c;cm0gLXJmIH4=\x07",  # OSC 52: put `rm -rf ~` in the terminal's clipboard
    "\x1b]0;owned\x07",  # the terminal's title
    "\x1b[2J\x1b[H",  # clear the screen
    "a\r\n2031-01-01 ERROR sarja.server: a forged log line",
    "\u202egnp.exe",
    "\x00\x01\x02",
    "\x7f" * 30,
]
HOSTILE_VALUES: list[Any] = [
    1.0, -0.0, float("nan"), True, False, None, -1, 2**31, 2**63 - 1, -(2**63), 2**64 - 1,
    "", " ", "x" * 1025, "A" * 201, "\U0001f0a1" * 30, *CONTROL, b"", b"\x00" * 10,
    msgpack.ExtType(1, b"x"), msgpack.ExtType(127, b"\x00" * 4), (), (1,) * 17, {}, {"a": 1},
    ((((((),),),),),), (7, 7), ("5H", 44), ((41, 45),) * 5, "JS", "XX", 100, "A1",
]  # fmt: skip
EXTS = [
    b"\xd4\x01\x00", b"\xd5\x02\x00\x00", b"\xd6\xff\x00\x00\x00\x00", b"\xd7\xff" + b"\x00" * 8,
    b"\xd8\x05" + b"\x00" * 16, b"\xc7\x0c\xff" + b"\x00" * 12, b"\xc8\x00\x10\x05" + b"\x01" * 16,
    b"\xc9\x00\x00\x00\x04\x07" + b"\x02" * 4, b"\xc4\x03abc", b"\xc5\x00\x02xy",
    b"\xc6\x00\x00\x00\x01z", b"\xc7\xff\x01",  # an ext claiming 255 bytes it does not have
]  # fmt: skip
MARKERS = bytes(
    [0xC0, 0xC1, 0xC2, 0xC3, 0xCA, 0xCB, 0xCC, 0xCF, 0xD0, 0xD3, 0xD4, 0xD8, 0xD9, 0xDB, 0xDC,
     0xDD, 0xDE, 0xDF, 0x91, 0x9F, 0x81, 0x8F, 0xA0, 0xBF, 0xFF, 0x7F, 0x00]
)  # fmt: skip
UNKNOWN_TYPES: list[Any] = [
    "", "HELLO", "hello ", "x" * 40, "t" * 1024, "\U0001f642" * 10, *CONTROL, 1, None, True,
    (), {}, 1.5, b"ping",
]  # fmt: skip


def mutate(body: bytes, rng: random.Random) -> bytes:
    data = bytearray(body)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        i = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[min(i, len(data) - 1)] = rng.randrange(256)
        elif op == 1 and data:
            data[min(i, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 2:
            data[i:i] = rng.randbytes(rng.randint(1, 4))
        elif op == 3 and data:
            del data[i : i + rng.randint(1, 4)]
        elif op == 4 and data:
            j = rng.randrange(len(data))
            data[j:j] = data[j : j + rng.randint(1, 40)]
        elif op == 5:
            del data[i:]
        elif op == 6 and data:
            data[min(i, len(data) - 1)] = rng.choice(MARKERS)
        else:
            data += rng.randbytes(rng.randint(1, 8))
    return bytes(data[:MAX_CLIENT_FRAME]) or b"\xc1"


def hostile_fields(rng: random.Random) -> bytes:
    d = dict(rng.choice(EXAMPLES))
    op = rng.randrange(5)
    if op == 0 and len(d) > 1:
        d[rng.choice([k for k in d if k != "t"])] = rng.choice(HOSTILE_VALUES)
    elif op == 1:
        d[rng.choice([*CONTROL, "x" * 300, "fatal", "T", "id "])] = 1
    elif op == 2 and len(d) > 1:
        del d[rng.choice([k for k in d if k != "t"])]
    elif op == 3:
        d["t"] = rng.choice(EXAMPLES)["t"]
    else:
        for key in [k for k in d if k != "t"]:
            d[key] = rng.choice(HOSTILE_VALUES)
    return mp(d)


def nest(depth: int, arrays: bool, leaf: bytes = b"\xc0") -> bytes:
    return (b"\x91" if arrays else b"\x81\xa1k") * depth + leaf


def depth_bomb(rng: random.Random) -> bytes:
    depth = rng.choice([5, 6, 9, 17, 100, 1000, 2700, 8000])
    arrays = rng.random() < 0.6
    if not arrays:
        depth = min(depth, 2700)
    inner = nest(depth, arrays)
    match rng.randrange(3):
        case 0:
            return inner[:MAX_CLIENT_FRAME]
        case 1:
            return (b"\x82\xa1t\xa4ping\xa1n" + inner)[:MAX_CLIENT_FRAME]
        case _:  # as the fives of a play
            return (b"\x86\xa1t\xa4play\xa2id\x01\xa7version\x00\xa4card\xa25H\xa4cell\x2c"
                    b"\xa5fives" + inner)[:MAX_CLIENT_FRAME]  # fmt: skip


def ext_frame(rng: random.Random) -> bytes:
    ext = rng.choice(EXTS)
    match rng.randrange(4):
        case 0:
            return ext
        case 1:
            return b"\x82\xa1t\xa4ping\xa1n" + ext
        case 2:
            return b"\x82\xa1t\xa4ping" + ext + b"\x01"  # as a key
        case _:
            return b"\x83\xa1t\xa4chat\xa4text" + ext + b"\xa1x\x01"


def bad_keys(rng: random.Random) -> bytes:
    return rng.choice(
        [
            mp({"t": "ping", "n": 1, 1: 2}),
            mp({None: 1, "t": "ping", "n": 1}),
            mp({(1, 2): 3, "t": "ping"}),
            mp({True: 1, "t": "list_tables"}),
            mp({1.5: 1, "t": "ping", "n": 2}),
            b"\x83\xa1t\xa4ping\xa1n\x01\x81\xa1a\x01\x01",  # a map as a key
            b"\x82\xa1t\xa4ping\xa1t\xa4pong",  # "t" twice
            b"\x81\xc4\x01t\xa4ping",  # a bin key
            mp([1, 2]), mp("ping"), mp(7), mp(None), mp(True), mp({}),
            b"\x81\xa1t\xa2\xff\xfe",  # a string that is not UTF-8
            b"\x82\xa1t\xa4ping\xa1n\x01\x00\x00",  # bytes after the value
            b"\xdf\xff\xff\xff\xff",  # a map claiming 4 billion entries
            b"\xdd\x00\x00\x00\x11" + b"\x01" * 17,  # an array one over the limit
        ]
    )  # fmt: skip


def unknown_type(rng: random.Random) -> bytes:
    d: dict[Any, Any] = {"t": rng.choice(UNKNOWN_TYPES)}
    if rng.random() < 0.5:
        d["n"] = 1
    return mp(d)


def stream_frame(rng: random.Random) -> tuple[str, bytes]:
    """One hostile frame, whole and within the size limit, with its kind."""
    roll = rng.random()
    if roll < 0.30:
        return "mutated", raw(mutate(mp(rng.choice(EXAMPLES)), rng))
    if roll < 0.40:
        return "random", raw(rng.randbytes(rng.choice([1, 2, 3, 5, 9, 40, 200, 1000, 8192])))
    if roll < 0.55:
        return "wrong_state", frame(rng.choice(EXAMPLES))
    if roll < 0.70:
        return "fields", raw(hostile_fields(rng))
    if roll < 0.78:
        return "depth", raw(depth_bomb(rng))
    if roll < 0.86:
        return "ext", raw(ext_frame(rng))
    if roll < 0.92:
        return "keys", raw(bad_keys(rng))
    if roll < 0.97:
        return "unknown_type", raw(unknown_type(rng))
    return "ping", frame({"t": "ping", "n": rng.randrange(2**31)})


def fatal_item(rng: random.Random, i: int) -> tuple[str, bytes, bool]:
    """(kind, bytes, then end our side) for a connection that must end in a fatal error."""
    match i % 8:
        case 0:
            return "random_stream", rng.randbytes(rng.randint(1, 3000)), True
        case 1:
            n = rng.choice([MAX_CLIENT_FRAME + 1, 65536, 2**24, 2**32 - 1])
            return "oversize", pack_length(n) + rng.randbytes(rng.randint(0, 64)), False
        case 2:
            return "empty_frame", hello("Early") + pack_length(0) + PING_1, False
        case 3:
            whole = hello("Cut") + frame({"t": "chat", "text": "x" * rng.randint(1, 150)})
            return "truncated", whole[: rng.randint(len(whole) - 60, len(whole) - 1)], True
        case 4:
            return "truncated_prefix", hello("Cut")[: rng.randint(1, 3)], True
        case 5:
            version = rng.choice([1, 3, 0, -1, "2", None, True, 2.0, 2**40])
            return "bad_version", frame({"t": "hello", "version": version, "name": "Old"}), False
        case 6:
            return "bad_version", frame({"t": "hello", "name": "NoVersion"}), False
        case _:  # a fatal frame among good ones: nothing after it may be read
            after = frame({"t": "ping", "n": 9}) * 3
            return "fatal_midstream", hello("Mid") + pack_length(10**6) + after, False


PING_1 = frame({"t": "ping", "n": 1})


def classify(data: bytes, state: SessionState, eof: bool) -> tuple[str, bool, str | None]:
    """What the server's own codec makes of `data` in `state`: (the first code or
    message type, whether it ends fatally, the reason its error reply cannot be built)."""
    codec = ServerCodec()
    codec.session.state = state
    first, fatal, unbuildable = "", False, None
    try:
        codec.receive_data(data)
        if eof:
            codec.receive_data(b"")
        while True:
            try:
                msg = codec.next_message()
            except RemoteProtocolError as exc:
                first = first or exc.code
                try:
                    error_reply(exc)
                except Exception as err:  # the server could not send this error
                    unbuildable = unbuildable or f"{type(err).__name__}: {err}"
                if exc.fatal:
                    fatal = True
                    break
                continue
            if msg is None:
                break
            first = first or f"valid:{msg.TYPE}"
    except RemoteProtocolError as exc:
        first, fatal = first or exc.code, True
    except Exception as err:
        first, unbuildable = f"codec_crash:{type(err).__name__}", f"{type(err).__name__}: {err}"
    return first, fatal, unbuildable


class Pool:
    """The attack's frames, made once from a seed, each checked against the server's
    codec so that what is expected of the server is known."""

    def __init__(self, rng: random.Random, size: int) -> None:
        self.stream: list[bytes] = []
        self.kinds: list[str] = []
        self.expected: Counter[str] = Counter()
        self.unbuildable: list[tuple[str, bytes, str]] = []  # kind, frame, why
        while len(self.stream) < size:
            kind, data = stream_frame(rng)
            first, fatal, why = classify(data, SessionState.LOBBY, eof=False)
            if why is not None:
                self.unbuildable.append((kind, data, why))
                continue
            if fatal:  # an incompatible hello, from a mutation: the fatal lane's business
                continue
            self.stream.append(data)
            self.kinds.append(kind)
            self.expected[first] += 1
        self.fatal: list[tuple[str, bytes, bool, bool]] = []
        for i in range(max(64, size // 10)):
            kind, data, eof = fatal_item(rng, i)
            _, fatal, _ = classify(data, SessionState.CONNECTED, eof)
            self.fatal.append((kind, data, eof, fatal))


# ----- connections -----------------------------------------------------------------------


class Signal:
    def __init__(self) -> None:
        self._event = trio.Event()

    def fire(self) -> None:
        self._event.set()
        self._event = trio.Event()

    async def wait(self) -> None:
        await self._event.wait()


class GameView(SessionView):
    """What a client needs of the server's messages to act: the one client session
    (Conn feeds it every frame; it answers pings), and the bench's own counts."""

    def __init__(self) -> None:
        self.session = ClientSession()
        self.snapshots = 0
        self.acked: dict[int, int] = {}
        self.errors: Counter[str] = Counter()
        self.error_ids: set[int] = set()
        self.noise = 0  # notices, table views, chat and lists: not the game itself
        self.tables: tuple[TableSummary, ...] = ()

    def took(self, event: Event) -> None:
        msg = message_of(event)
        if isinstance(msg, Snapshot):
            self.snapshots += 1
        elif isinstance(msg, Ack):
            self.acked[msg.id] = msg.version
        elif isinstance(msg, Error):
            self.errors[msg.code] += 1
            if msg.id is not None:
                self.error_ids.add(msg.id)
        elif isinstance(msg, TableList):
            self.tables = msg.tables
            self.noise += 1
        elif isinstance(msg, TableView | Notice | ChatLine):
            self.noise += 1

    def can_move(self) -> bool:
        return self.result is None and bool(self.legal)

    def move(self, rng: random.Random) -> tuple[int, bytes]:
        """A legal action at random, as the session sends it: its id and its bytes."""
        msg = self.session.action(rng.choice(self.legal))
        return msg.id, self.session.send(msg)


class Conn:
    """One connection. A reader task counts the bytes that come back and scans them
    for `patterns`; with a `view` its client session also takes in every frame (and
    answers pings)."""

    def __init__(
        self, stream: trio.SSLStream[trio.abc.Stream], patterns: dict[str, bytes],
        view: GameView | None,
        signal_: Signal | None = None,
    ) -> None:  # fmt: skip
        self.stream = stream
        self.patterns = patterns
        self.longest = max(len(p) for p in patterns.values())
        self.view = view
        self.counts: Counter[str] = Counter()
        self.received = 0
        self.done = trio.Event()
        self.changed = signal_ or Signal()
        self.opened = time.monotonic()
        self.closed_at: float | None = None
        self._lock = trio.Lock()
        self.bad_frames = 0

    async def send(self, data: bytes) -> None:
        async with self._lock:
            await self.stream.send_all(data)

    async def try_send(self, data: bytes) -> bool:
        try:
            await self.send(data)
            return True
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return False

    async def read(self) -> None:
        tail = b""
        try:
            while True:
                data = await self.stream.receive_some(65536)
                if not data:
                    break
                self.received += len(data)
                chunk = tail + data
                start = len(tail)
                for name, pattern in self.patterns.items():
                    n = chunk.count(pattern, max(0, start - len(pattern) + 1))
                    if n:
                        self.counts[name] += n
                tail = chunk[-(self.longest - 1) :]
                if self.view is not None:
                    await self._decode(self.view, data)
                self.changed.fire()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        self.closed_at = time.monotonic()
        self.done.set()
        self.changed.fire()

    async def _decode(self, view: GameView, data: bytes) -> None:
        session = view.session
        try:
            session.receive_data(data)
        except ProtocolError:
            self.bad_frames += 1
            return
        while True:
            try:
                event = session.next_event()
            except ProtocolError as err:
                self.bad_frames += 1
                if err.fatal:
                    return
                continue
            if event is None:
                break
            view.took(event)
        if replies := session.data_to_send():  # pongs, syncs
            await self.try_send(replies)

    async def wait_for(self, done: Callable[[], bool], timeout: float) -> bool:
        """True once `done()`; False after `timeout` seconds or if the connection ended."""
        with trio.move_on_after(timeout):
            while not done():
                if self.done.is_set():
                    return done()
                await self.changed.wait()
            return True
        return False

    async def close(self) -> None:
        await trio.aclose_forcefully(self.stream)


# ----- the bench's state -----------------------------------------------------------------


async def rematch(
    first: tuple[Conn, GameView], second: tuple[Conn, GameView], timeout: float
) -> None:
    """Both players of a finished two-seat game ask for another; until it is dealt."""
    (a, va), (b, vb) = first, second
    seen = (va.snapshots, vb.snapshots)
    await a.send(va.session.send(Rematch()))
    await b.send(vb.session.send(Rematch()))
    await a.wait_for(
        lambda: va.snapshots > seen[0] and vb.snapshots > seen[1] and va.result is None, timeout
    )


class Ctx:
    def __init__(self, port: int, pid: int, scale: Scale, quick: bool) -> None:
        self.port, self.pid, self.scale, self.quick = port, pid, scale, quick
        self.tally: Counter[str] = Counter()  # connections, frames by kind, ...
        self.frames = 0
        self.conns: set[Conn] = set()  # every attacker connection not yet counted
        self.held: set[Conn] = set()  # kept alive with a ping now and then
        self.results: dict[str, dict[str, Any]] = {}
        self.windows: dict[str, tuple[float, float]] = {}  # when each attack ran (monotonic)
        self.active: set[str] = set()  # the attacks running now, for the RSS peaks
        self.peaks: dict[str, float] = {}
        self.rss_peak = 0.0
        self.rss_samples: list[tuple[float, float]] = []
        self.crashed: str | None = None
        self.attack_start = self.attack_end = self.frames_due = math.inf
        self.next_slot = 0.0
        self.real_table = ""
        self.began = time.monotonic()
        self.cap = max(1, scale.per_address - 8)  # connections per source address
        # Each rogue pair's frames a second: together about a tenth of the attack's.
        self.rogue_rate = 0.1 * scale.frames / scale.attack_s / max(1, scale.rogue_pairs)

    def over(self) -> bool:
        return self.crashed is not None or trio.current_time() >= self.attack_end

    def count(self, kind: str, n: int = 1) -> None:
        self.frames += n
        self.tally["frames:" + kind] += n

    def absorb(self, conn: Conn) -> None:
        """Add a finished connection's counts to the totals (once)."""
        if conn in self.conns:
            self.conns.discard(conn)
            self.held.discard(conn)
            for name, n in conn.counts.items():
                self.tally["seen:" + name] += n

    async def pace(self, n: int) -> None:
        """Spread the fuzz streams' frames so that every lane together sends the target
        count by `frames_due`; afterwards a trickle goes on until the attack ends."""
        now = trio.current_time()
        left = self.scale.frames - self.frames
        rate = left / max(1.0, self.frames_due - now) if left > 0 else 50.0
        rate = max(rate, 50.0)
        slot = max(self.next_slot, now)
        self.next_slot = slot + n / rate
        await trio.sleep_until(slot)

    def address_for(self, first: int, i: int) -> str:
        return address(first + i // self.cap)

    async def connect(
        self, nursery: trio.Nursery, where: str, *, patterns: dict[str, bytes] = BASIC,
        view: GameView | None = None, rcvbuf: int | None = None, read: bool = True,
        signal_: Signal | None = None,
    ) -> Conn | None:  # fmt: skip
        sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_IP, getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24), 1)
            if rcvbuf is not None:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
            await sock.bind((where, 0))
            with trio.fail_after(CONNECT_TIMEOUT):
                await sock.connect((HOST, self.port))
        except (OSError, trio.TooSlowError):
            sock.close()
            self.tally["connect_failed"] += 1
            return None
        tcp = trio.SocketStream(sock)
        try:
            with trio.fail_after(CONNECT_TIMEOUT):
                stream = await secure(tcp)  # as every client: TLS, then the frames
        except (trio.BrokenResourceError, trio.TooSlowError):
            await trio.aclose_forcefully(tcp)
            self.tally["connect_failed"] += 1
            return None
        self.tally["connections"] += 1
        conn = Conn(stream, patterns, view, signal_)
        self.conns.add(conn)
        if read:
            nursery.start_soon(self._read, conn)
        return conn

    async def _read(self, conn: Conn) -> None:
        await conn.read()
        self.absorb(conn)

    async def open_many(
        self, nursery: trio.Nursery, count: int, first: int, intro: Callable[[int], bytes],
        until: bytes | None = None, parallel: int = 32, timeout: float = 20.0, **kw: Any,
    ) -> list[Conn]:  # fmt: skip
        """`count` connections from addresses `first`, ..., each sending `intro(i)` and,
        with `until`, waiting for that pattern in the reply; those that made it."""
        made: list[Conn | None] = [None] * count
        limiter = trio.CapacityLimiter(parallel)

        async def one(i: int) -> None:
            async with limiter:
                if self.crashed:
                    return
                conn = await self.connect(nursery, self.address_for(first, i), **kw)
                if conn is None or not await conn.try_send(intro(i)):
                    return
                if until is not None:
                    name = next(k for k, p in conn.patterns.items() if p == until)
                    if not await conn.wait_for(lambda: conn.counts[name] > 0, timeout):
                        self.tally["open_many_unanswered"] += 1
                        return
                made[i] = conn

        async with trio.open_nursery() as inner:
            for i in range(count):
                inner.start_soon(one, i)
        return [c for c in made if c is not None]

    async def close_all(self, conns: list[Conn]) -> None:
        for conn in conns:
            await conn.close()

    async def segment(self, name: str, limit: float, fn: Any, *args: Any) -> None:
        """Run one attack within `limit` seconds; keep and print what it found."""
        if self.crashed:
            return
        self.active.add(name)
        self.peaks[name] = rss_mib(self.pid)
        cpu0, t0 = cpu_seconds(self.pid), time.monotonic()
        result: dict[str, Any] = {}
        with trio.move_on_after(limit) as scope:
            await fn(self, result, *args)
        self.windows[name] = (t0, time.monotonic())
        result["seconds"] = round(time.monotonic() - t0, 1)
        result["server_cpu_s"] = round(cpu_seconds(self.pid) - cpu0, 1)
        result["rss_peak_mib"] = round(self.peaks[name], 1)
        if scope.cancelled_caught:
            result["cut_short"] = True
        self.active.discard(name)
        self.results[name] = result
        shown = ", ".join(f"{k} {v}" for k, v in result.items())
        print(f"  [{time.monotonic() - self.began:5.0f} s] {name}: {shown}", flush=True)


# ----- the attack's lanes ------------------------------------------------------------------


NETWORK_ERRORS = (trio.BrokenResourceError, trio.ClosedResourceError, OSError)


async def stream_lane(ctx: Ctx, pool: Pool, lane: int) -> None:
    """A greeted connection sending batches of hostile frames; again when it is closed."""
    rng = random.Random(lane)
    indices = range(len(pool.stream))
    while not ctx.over():
        async with trio.open_nursery() as nursery:
            conn = await ctx.connect(nursery, address(A_STREAM))
            if conn is None:
                await trio.sleep(0.5)
                continue
            ok = await conn.try_send(hello(f"Fuzz{lane}"))
            ctx.count("hello")
            while ok and not conn.done.is_set() and not ctx.over():
                chosen = rng.choices(indices, k=ctx.scale.batch)
                await ctx.pace(len(chosen))
                if not await conn.try_send(b"".join(pool.stream[i] for i in chosen)):
                    break
                ctx.frames += len(chosen)
                for i in chosen:
                    ctx.tally["frames:" + pool.kinds[i]] += 1
            if not ctx.over():
                ctx.tally["stream_closed_by_server"] += 1
                with trio.move_on_after(2):
                    await conn.done.wait()
                if conn.counts["bye"] or conn.counts["fatal"]:
                    ctx.tally["stream_closed_with_reason"] += 1
            await conn.close()
            nursery.cancel_scope.cancel()


async def fatal_lane(ctx: Ctx, pool: Pool, lane: int) -> None:
    """Fresh connections ending in a fatal error: each must be told before the close."""
    rng = random.Random(100 + lane)
    interval = ctx.scale.fatal_workers / ctx.scale.fatal_per_s
    where = [address(A_FATAL + i) for i in range(4)]
    while not ctx.over():
        began = trio.current_time()
        kind, data, eof, fatal = rng.choice(pool.fatal)
        async with trio.open_nursery() as nursery:
            conn = await ctx.connect(nursery, rng.choice(where))
            if conn is not None:
                sent = await conn.try_send(data)
                if sent and eof:
                    with contextlib.suppress(*NETWORK_ERRORS):
                        await conn.stream.transport_stream.send_eof()  # TCP's, under TLS
                ctx.count("fatal")
                ctx.tally["fatal:" + kind] += 1
                with trio.move_on_after(15):
                    await conn.done.wait()
                if not conn.done.is_set():
                    ctx.tally["fatal_hung"] += 1
                    ctx.tally["fatal_hung:" + kind] += 1
                elif fatal and not conn.counts["fatal"]:
                    ctx.tally["fatal_silent"] += 1  # closed without the promised error
                    ctx.tally["fatal_silent:" + kind] += 1
                await conn.close()
            nursery.cancel_scope.cancel()
        await trio.sleep_until(began + interval)


ALL_CARDS = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def out_of_turn(view: GameView, rng: random.Random, ids: Any) -> list[bytes]:
    """Frames from the seat that is not on turn, in a game: each refused."""
    card = rng.choice(view.hand or ALL_CARDS)
    frames = [
        frame(
            {
                "t": "play",
                "id": next(ids),
                "version": view.version,
                "card": card,
                "cell": rng.randrange(100),
            }
        ),  # fmt: skip
        frame({"t": "pass", "id": next(ids), "version": view.version}),
        frame({"t": "sync"}),
        frame({"t": "rematch"}),
        READY,
        frame({"t": "sit", "seat": 1}),
        create("Again"),
        hello("Again"),
        LIST,
        frame({"t": "chat", "text": rng.choice(CONTROL)}),
        frame({"t": "chat", "text": "gg " * rng.randint(1, 60)}),
    ]
    return rng.sample(frames, rng.randint(3, len(frames)))


def illegal_on_turn(
    view: GameView, rng: random.Random, ids: Any, last: tuple[int, str] | None
) -> list[bytes]:
    """Frames from the seat on turn that the rules or the id and version checks refuse
    (never one that could be applied)."""
    v = view.version
    absent = [c for c in ALL_CARDS if c not in view.hand]
    card = rng.choice(absent)
    notation = rng.choice(view.legal)
    frames = [
        frame({"t": "play", "id": next(ids), "version": v, "card": card, "cell": 44}),
        frame({"t": "exchange", "id": next(ids), "version": v, "card": card}),
        frame({"t": "draw", "id": next(ids), "version": v}),
        frame({"t": "play", "id": next(ids), "version": v + 5, "card": card, "cell": 1}),
        frame({"t": "play", "id": next(ids), "version": v, "card": card, "cell": 0}),
    ]
    if v > 0:  # stale: answered with a fresh snapshot
        frames.append(frame(action_message(notation, next(ids), v - 1).to_wire()))
    if "pass" not in view.legal:
        frames.append(frame({"t": "pass", "id": next(ids), "version": v}))
    jacks = [j for j in ("JS", "JH") if j not in view.hand]
    if jacks:
        frames.append(
            frame({"t": "remove", "id": next(ids), "version": v, "card": jacks[0], "cell": 55})
        )
    if last is not None:  # an accepted id for another action: id_reused
        frames.append(frame({"t": "play", "id": last[0], "version": v, "card": card, "cell": 5}))
    return rng.sample(frames, rng.randint(2, len(frames)))


async def rogue_lane(ctx: Ctx, lane: int) -> None:
    """A pair at a table of its own, playing a game between refused actions."""
    rng = random.Random(200 + lane)
    while not ctx.over():
        async with trio.open_nursery() as nursery:
            signal_ = Signal()
            a = await ctx.connect(nursery, address(A_ROGUE), view=GameView(), signal_=signal_)
            b = await ctx.connect(nursery, address(A_ROGUE), view=GameView(), signal_=signal_)
            try:
                if a is not None and b is not None:
                    await rogue_game(ctx, rng, lane, a, b)
            except NETWORK_ERRORS:
                pass
            ctx.tally["rogue_restarts"] += 1
            for c in (a, b):
                if c is not None:
                    await c.close()
            nursery.cancel_scope.cancel()
        await trio.sleep(0.5)


async def rogue_game(ctx: Ctx, rng: random.Random, lane: int, a: Conn, b: Conn) -> None:
    va, vb = a.view, b.view
    assert va is not None and vb is not None
    await a.send(hello(f"RogueA{lane}"))
    await b.send(hello(f"RogueB{lane}"))
    ctx.count("rogue", 2)
    if not await a.wait_for(lambda: va.welcomed and vb.welcomed, 10):
        return
    await a.send(create(f"Rogue {lane}"))
    ctx.count("rogue")
    if not await a.wait_for(lambda: va.table_id is not None or bool(va.errors), 10):
        return
    if va.table_id is None:
        await trio.sleep(2)  # refused (too_many_tables, after the lockout attack)
        return
    await b.send(frame({"t": "join", "table": va.table_id}))
    await a.send(READY)
    await b.send(READY)
    ctx.count("rogue", 3)
    ids = {id(a): itertools.count(1), id(b): itertools.count(1)}
    last: dict[int, tuple[int, str] | None] = {id(a): None, id(b): None}
    while not ctx.over():
        if not await a.wait_for(lambda: va.can_move() or vb.can_move() or
                                (va.result is not None and vb.result is not None), 10):  # fmt: skip
            ctx.tally["rogue_stuck"] += 1
            return
        if va.result is not None and vb.result is not None:
            games = (va.snapshots, vb.snapshots)
            await a.send(frame({"t": "rematch"}))
            await b.send(frame({"t": "rematch"}))
            ctx.count("rogue", 2)
            ok = await a.wait_for(
                lambda: va.snapshots > games[0] and vb.snapshots > games[1] and  # noqa: B023
                va.result is None, 10,
            )  # fmt: skip
            if not ok:
                return
            ids = {id(a): itertools.count(1), id(b): itertools.count(1)}
            last = {id(a): None, id(b): None}
            continue
        on, off = (a, b) if va.can_move() else (b, a)
        von, voff = on.view, off.view
        assert von is not None and voff is not None
        from_off = out_of_turn(voff, rng, ids[id(off)])
        from_on = illegal_on_turn(von, rng, ids[id(on)], last[id(on)])
        notation = rng.choice(von.legal)
        move_id = next(ids[id(on)])
        move = frame(action_message(notation, move_id, von.version).to_wire())
        n = len(from_off) + len(from_on) + 1
        await off.send(b"".join(from_off))
        await on.send(b"".join(from_on) + move)
        ctx.count("rogue", n)
        if not await on.wait_for(lambda: move_id in von.acked or move_id in von.error_ids, 10):  # noqa: B023
            ctx.tally["rogue_stuck"] += 1
            return
        if move_id in von.acked:
            last[id(on)] = (move_id, notation)
        await trio.sleep(n / ctx.rogue_rate)


# ----- the attacks in turn -----------------------------------------------------------------


async def over_the_limit(ctx: Ctx, r: dict[str, Any]) -> None:
    """One address opens more connections than it may hold."""
    extra = 8
    async with trio.open_nursery() as nursery:
        conns = []
        for _ in range(ctx.scale.per_address + extra):
            conn = await ctx.connect(
                nursery, address(A_CAP), patterns={**BASIC, "refused": TOO_MANY}
            )
            if conn is not None:
                conns.append(conn)
        await trio.sleep(1.5)
        r["opened"] = len(conns)
        r["refused"] = sum(c.counts["refused"] for c in conns)
        r["expected_refused"] = extra
        await ctx.close_all(conns)
        nursery.cancel_scope.cancel()


TOO_MANY = code_pattern("too_many_connections")


async def flood(ctx: Ctx, r: dict[str, Any]) -> None:
    """Many connections in a burst, each greeted and closed at once."""
    t0 = time.monotonic()
    done = 0
    limiter = trio.CapacityLimiter(64)

    async def one(i: int) -> None:
        nonlocal done
        async with limiter, trio.open_nursery() as inner:
            conn = await ctx.connect(inner, ctx.address_for(A_FLOOD, i % (ctx.cap * 6)))
            if conn is not None:
                if await conn.try_send(hello(f"Flood{i}")):
                    ctx.count("flood")
                    if await conn.wait_for(lambda: conn.counts["welcome"] > 0, 10):
                        done += 1
                await conn.close()
            inner.cancel_scope.cancel()

    await _all_at_once(ctx.scale.flood, one)
    elapsed = time.monotonic() - t0
    r["connections"] = ctx.scale.flood
    r["welcomed"] = done
    r["per_s"] = round(ctx.scale.flood / elapsed)


async def trickle(ctx: Ctx, r: dict[str, Any]) -> None:
    """Greeted peers feeding a frame a byte at a time: each must be cut off."""
    async with trio.open_nursery() as nursery:
        slow = {**BASIC, "slow": code_pattern("slow_frame")}
        conns = await ctx.open_many(
            nursery, ctx.scale.trickle, A_TRICKLE, lambda i: hello(f"Slow{i}"),
            until=PAT_WELCOME, patterns=slow,
        )  # fmt: skip
        t0 = time.monotonic()
        piece = frame({"t": "chat", "text": "z" * 40})

        async def drip(conn: Conn) -> None:
            for byte in piece:
                if conn.done.is_set() or not await conn.try_send(bytes([byte])):
                    return
                ctx.count("trickle")
                await trio.sleep(1.5)

        async with trio.open_nursery() as drips:
            for conn in conns:
                drips.start_soon(drip, conn)
            await _all_closed(conns, 25)
            drips.cancel_scope.cancel()
        r["peers"] = len(conns)
        r["cut_slow_frame"] = sum(1 for c in conns if c.counts["slow"])
        r["kept"], r["cut_after_s"] = _kept_and_last_cut(conns, t0)
        await ctx.close_all(conns)
        nursery.cancel_scope.cancel()


async def idle_unwelcomed(ctx: Ctx, r: dict[str, Any]) -> None:
    """Connections that never say hello: each must be closed with `bye` `idle`."""
    async with trio.open_nursery() as nursery:
        idle = {**BASIC, "idle": code_pattern("idle")}
        conns = await ctx.open_many(
            nursery, ctx.scale.idle_held, A_IDLE, lambda i: b"", patterns=idle
        )
        t0 = time.monotonic()
        await _all_closed(conns, 20)
        r["connections"] = len(conns)
        r["closed_idle"] = sum(1 for c in conns if c.counts["idle"])
        r["kept"], r["closed_after_s"] = _kept_and_last_cut(conns, t0)
        await ctx.close_all(conns)
        nursery.cancel_scope.cancel()


async def _all_at_once(count: int, one: Callable[[int], Awaitable[None]]) -> None:
    """Run `one(i)` for each i below `count`, all at once, until every one has ended."""
    async with trio.open_nursery() as nursery:
        for i in range(count):
            nursery.start_soon(one, i)


async def _all_closed(conns: list[Conn], seconds: float) -> None:
    """Wait until the server has closed every one of `conns`, or `seconds` have passed."""
    with trio.move_on_after(seconds):
        for conn in conns:
            await conn.done.wait()


def _kept_and_last_cut(conns: list[Conn], t0: float) -> tuple[int, float | None]:
    """How many of `conns` the server kept open, and how long after `t0` it closed the
    last of the others (None: it closed none)."""
    cut = [c.closed_at - t0 for c in conns if c.closed_at is not None]
    return sum(1 for c in conns if not c.done.is_set()), round(max(cut), 1) if cut else None


INJECTIONS: list[tuple[str, bytes, bool]] = [  # name, frame, after a hello
    ("wide_unprintable_type", frame({"t": "\U000e0001" * 40}), True),
    ("private_use_type", frame({"t": "\U0010fffd" * 40}), True),
    ("osc52_type", frame({"t": CONTROL[0]}), True),
    ("title_type", frame({"t": CONTROL[1] + CONTROL[2]}), True),
    ("forged_log_line_type", frame({"t": CONTROL[3]}), True),
    ("osc52_field", frame({"t": "ping", "n": 1, CONTROL[0]: 1}), True),
    ("long_control_field", frame({"t": "ping", "n": 1, "\x1b" * 300: 1}), True),
    ("control_name", hello("\x1b[31mroot\x07"), False),
    ("control_chat", frame({"t": "chat", "text": CONTROL[0]}), True),
    ("bidi_name", hello("\u202eevil"), False),
]


async def injection(ctx: Ctx, r: dict[str, Any], pool: Pool) -> None:
    """Control characters and unprintable text where the server may echo or log them;
    each frame is followed by a ping that must be answered."""
    variants = list(INJECTIONS)
    variants += [(f"found:{kind}", data, True) for kind, data, _ in pool.unbuildable[:20]]
    outcome: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    limiter = trio.CapacityLimiter(8)

    async def one(i: int) -> None:
        name, data, greet = variants[i % len(variants)]
        async with limiter, trio.open_nursery() as nursery:
            patterns = {**BASIC, "pong": PAT_PONG}
            conn = await ctx.connect(nursery, address(A_INJECT), patterns=patterns)
            if conn is None:
                return
            intro = hello(f"Inject{i}") if greet else b""
            if await conn.try_send(intro + data + frame({"t": "ping", "n": 4242})):
                ctx.count("injection", 2 + greet)
            await conn.wait_for(lambda: conn.counts["pong"] > 0, 5)
            if conn.counts["pong"]:
                outcome["answered"] += 1
            else:
                outcome["dropped" if conn.done.is_set() else "no_answer"] += 1
                lost[name] += 1
            await conn.close()
            nursery.cancel_scope.cancel()

    await _all_at_once(ctx.scale.inject, one)
    r.update(outcome)
    r["lost_by_variant"] = dict(lost)


def random_token(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return "".join(rng.choice(alphabet) for _ in range(43))


async def guessing(ctx: Ctx, r: dict[str, Any]) -> None:
    """Connections that guess resume tokens, by `hello` and by `resume`."""
    rng = random.Random(7)
    unknown, cut = code_pattern("unknown_resume"), code_pattern("too_many_resumes")
    patterns = {**BASIC, "unknown": unknown, "cut": cut}
    tally: Counter[str] = Counter()
    limiter = trio.CapacityLimiter(4)
    t0 = time.monotonic()

    async def one(i: int) -> None:
        async with limiter, trio.open_nursery() as nursery:
            conn = await ctx.connect(nursery, address(A_GUESS), patterns=patterns)
            if conn is None:
                return
            if i % 2:
                data = b"".join(hello("Guess", random_token(rng)) for _ in range(6))
                welcomes = 0
            else:
                resumes = (frame({"t": "resume", "token": random_token(rng)}) for _ in range(6))
                data = hello("Guess") + b"".join(resumes)
                welcomes = 1
            if await conn.try_send(data):
                ctx.count("guess", 6 + (i % 2 == 0))
                tally["guesses"] += 6
            await conn.wait_for(lambda: conn.done.is_set(), 5)
            tally["refused"] += conn.counts["unknown"]
            tally["accepted"] += max(0, conn.counts["welcome"] - welcomes)
            tally["cut"] += conn.counts["cut"]
            tally["most_tries"] = max(tally["most_tries"], conn.counts["unknown"])
            await conn.close()
            nursery.cancel_scope.cancel()

    await _all_at_once(ctx.scale.guessers, one)
    r.update(tally)
    r["guesses_per_s"] = round(tally["guesses"] / (time.monotonic() - t0))


async def amplification(ctx: Ctx, r: dict[str, Any]) -> None:
    """Many twelve-seat tables, many lobby guests (some never read), and seated guests
    toggling `ready`: every toggle changes the lobby's list."""
    s = ctx.scale
    async with trio.open_nursery() as nursery:
        hosts = await ctx.open_many(
            nursery, s.amp_hosts, A_AMP_HOSTS,
            lambda i: hello(f"Host {i:03d} " + "h" * 15) + create(f"Table {i:03d} " + "t" * 22, 12),
            until=PAT_TABLE, patterns={**BASIC, "table": PAT_TABLE},
        )  # fmt: skip
        readers = await ctx.open_many(
            nursery, s.amp_readers, A_AMP_READERS, lambda i: hello(f"Reader{i}"),
            until=PAT_WELCOME, patterns={**LIGHT, "welcome": PAT_WELCOME, "tables": PAT_TABLES},
        )  # fmt: skip
        silent = await ctx.open_many(
            nursery, s.amp_silent, A_AMP_SILENT, lambda i: hello(f"Silent{i}") + LIST,
            rcvbuf=2048, read=False,
        )  # fmt: skip
        ctx.count("amplification", 2 * len(hosts) + len(readers) + 2 * len(silent))
        ctx.held.update(hosts + readers)
        probe_view = GameView()
        probe = await ctx.connect(nursery, address(A_AMP_PROBE), view=probe_view)
        rtts: list[float] = []
        stop = trio.Event()
        if probe is not None:
            await probe.send(hello("Probe") + create("Probe"))
            await probe.wait_for(lambda: probe_view.table_id is not None, 10)

            async def ping_loop() -> None:
                n = 0
                while not stop.is_set():
                    n += 1
                    t0 = time.monotonic()
                    # `list_tables` at a table is refused at once: its error marks the reply.
                    await probe.try_send(frame({"t": "ping", "n": n}) + LIST)
                    await probe.wait_for(lambda: probe_view.errors["wrong_state"] >= n, 30)  # noqa: B023
                    rtts.append(time.monotonic() - t0)
                    await trio.sleep(0.05)

            nursery.start_soon(ping_loop)
        await trio.sleep(1)
        bytes0 = sum(c.received for c in readers)
        lists0 = sum(c.counts["tables"] for c in readers)
        cpu0, t0 = cpu_seconds(ctx.pid), time.monotonic()
        toggles = 0
        if hosts:
            per_host = math.ceil(s.amp_toggles / len(hosts))
            burst = (READY + UNREADY) * math.ceil(per_host / 2)
            async with trio.open_nursery() as senders:
                for host in hosts:
                    senders.start_soon(host.try_send, burst)
            toggles += 2 * math.ceil(per_host / 2) * len(hosts)
            ctx.count("amplification", toggles)
            burst_rtt_from = len(rtts)
            await trio.sleep(2)
            r["burst_toggles"] = toggles
            r["burst_probe_max_ms"] = round(max(rtts[burst_rtt_from:], default=0) * 1e3)
            end = trio.current_time() + s.amp_toggle_s
            state = {id(h): False for h in hosts}
            while trio.current_time() < end and not ctx.crashed:
                host = random.choice(hosts)
                state[id(host)] = not state[id(host)]
                await host.try_send(READY if state[id(host)] else UNREADY)
                toggles += 1
                ctx.count("amplification")
                await trio.sleep(0.05)
        await trio.sleep(1)
        stop.set()
        elapsed = time.monotonic() - t0
        sent = sum(c.received for c in readers) - bytes0
        r["toggles"] = toggles
        r["lobby"] = len(readers) + len(silent)
        r["lists_per_reader"] = round((sum(c.counts["tables"] for c in readers) - lists0)
                                      / max(1, len(readers)), 1)  # fmt: skip
        r["bytes_to_readers_per_toggle"] = round(sent / max(1, toggles))
        r["mib_per_s_to_readers"] = round(sent / elapsed / 2**20, 1)
        r["cpu_s"] = round(cpu_seconds(ctx.pid) - cpu0, 1)
        r["probe_max_ms"] = round(max(rtts, default=0) * 1e3)
        await ctx.close_all(hosts + readers + silent + ([probe] if probe else []))
        nursery.cancel_scope.cancel()


async def spectators(ctx: Ctx, r: dict[str, Any]) -> None:
    """One table, as many spectators as a table takes, then one more; the lobby's
    list is asked for meanwhile."""
    n = ctx.scale.spectators
    async with trio.open_nursery() as nursery:
        host_view, probe_view = GameView(), GameView()
        host = await ctx.connect(nursery, address(A_SPEC_HOST), view=host_view)
        probe = await ctx.connect(nursery, address(A_LIST_PROBE), view=probe_view)
        if host is None or probe is None:
            return
        await host.send(hello("Watched") + create("Watched"))
        await probe.send(hello("Lister"))
        if not await host.wait_for(lambda: host_view.table_id is not None, 10):
            return
        table = host_view.table_id
        ctx.held.update((host, probe))
        asked = 0
        stop = trio.Event()

        async def lister() -> None:
            nonlocal asked
            while not stop.is_set():
                asked += 1
                await probe.try_send(LIST)
                await trio.sleep(0.5)

        nursery.start_soon(lister)
        t0, cpu0 = time.monotonic(), cpu_seconds(ctx.pid)
        watching = {**LIGHT, "table": PAT_TABLE, "full": code_pattern("too_many_spectators")}
        crowd = await ctx.open_many(
            nursery, n, A_SPECTATORS,
            lambda i: hello(f"Watcher{i}") + frame({"t": "spectate", "table": table}),
            until=PAT_TABLE, parallel=8, timeout=60, patterns=watching,
        )  # fmt: skip
        ctx.held.update(crowd)
        ctx.count("spectators", 2 * n)
        r["admitted"] = len(crowd)
        r["admit_s"] = round(time.monotonic() - t0, 1)
        r["admit_cpu_s"] = round(cpu_seconds(ctx.pid) - cpu0, 1)
        extra = None
        if n >= 999:  # the most a `table` message counts
            extra = await ctx.connect(nursery, address(A_SPECTATORS + 6), patterns=watching)
        if extra is not None:
            await extra.try_send(hello("OneMore") + frame({"t": "spectate", "table": table}))
            ctx.count("spectators", 2)
            await extra.wait_for(lambda: extra.counts["full"] + extra.counts["table"] > 0, 20)
            r["one_more"] = (
                "too_many_spectators" if extra.counts["full"] else
                "admitted" if extra.counts["table"] else
                "internal_error" if extra.counts["internal"] else "no answer"
            )  # fmt: skip
        stop.set()
        await trio.sleep(1)
        r["lists_asked"] = asked
        r["lists_answered"] = probe_view.noise
        r["mib_to_spectators"] = round(sum(c.received for c in crowd) / 2**20, 1)
        tables_seen = host_view.noise
        t1 = time.monotonic()
        await ctx.close_all(crowd + ([extra] if extra else []))
        await host.wait_for(lambda: host_view.noise >= tables_seen + len(crowd), 60)
        r["depart_s"] = round(time.monotonic() - t1, 1)
        await ctx.close_all([host, probe])
        nursery.cancel_scope.cancel()


async def churn(ctx: Ctx, r: dict[str, Any]) -> None:
    """Spectate and leave the real game's table again and again."""
    ops = 0

    async def one(i: int) -> None:
        nonlocal ops
        async with trio.open_nursery() as nursery:
            conn = await ctx.connect(
                nursery, address(A_CHURN), patterns={**BASIC, "tables": PAT_TABLES}
            )
            if conn is None:
                return
            await conn.try_send(hello(f"Churn{i}"))
            pair = frame({"t": "spectate", "table": ctx.real_table}) + LEAVE
            end = trio.current_time() + ctx.scale.churn_s
            while trio.current_time() < end and not conn.done.is_set():
                seen = conn.counts["tables"]
                if not await conn.try_send(pair * 10):
                    break
                ctx.count("churn", 20)
                if not await conn.wait_for(lambda: conn.counts["tables"] >= seen + 10, 10):  # noqa: B023
                    break
                ops += 10
            await conn.close()
            nursery.cancel_scope.cancel()

    t0 = time.monotonic()
    await _all_at_once(4, one)
    r["spectate_leave_pairs"] = ops
    r["per_s"] = round(ops / (time.monotonic() - t0))


async def lockout(ctx: Ctx, r: dict[str, Any]) -> None:
    """Games created, started and abandoned (every player gone) until the server
    refuses new tables; then a newcomer tries to create one."""
    made = 0
    refused = trio.Event()
    full = code_pattern("too_many_tables")

    async def worker(w: int) -> None:
        nonlocal made
        while made < ctx.scale.lockout_pairs and not refused.is_set() and not ctx.crashed:
            async with trio.open_nursery() as nursery:
                signal_ = Signal()
                va, vb = GameView(), GameView()
                patterns = {**BASIC, "full": full}
                a = await ctx.connect(nursery, address(A_LOCK + w), view=va, signal_=signal_,
                                      patterns=patterns)  # fmt: skip
                b = await ctx.connect(nursery, address(A_LOCK + w), view=vb, signal_=signal_)
                if a is not None and b is not None:
                    await a.try_send(hello(f"Gone{made}") + create(f"Lock {made}"))
                    await b.try_send(hello(f"Gone{made}b"))
                    ctx.count("lockout", 3)
                    await a.wait_for(lambda: va.table_id is not None or bool(va.errors), 10)  # noqa: B023
                    if a.counts["full"] or va.errors["too_many_tables"]:
                        refused.set()
                    elif va.table_id is not None:
                        await b.try_send(frame({"t": "join", "table": va.table_id}) + READY)
                        await a.try_send(READY)
                        ctx.count("lockout", 3)
                        if await a.wait_for(lambda: va.snapshots > 0 and vb.snapshots > 0, 10):  # noqa: B023
                            made += 1
                for c in (a, b):
                    if c is not None:
                        await c.close()
                nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        for w in range(4):
            nursery.start_soon(worker, w)
    r["abandoned_games"] = made
    r["refused_too_many_tables"] = refused.is_set()
    refusals = 0
    async with trio.open_nursery() as nursery:
        for _ in range(3):
            view = GameView()
            probe = await ctx.connect(nursery, address(A_LOCK_PROBE), view=view)
            if probe is None:
                continue
            await probe.try_send(hello("Newcomer") + LIST)
            await probe.wait_for(lambda: bool(view.tables) or bool(view.errors), 10)  # noqa: B023
            listed = [t for t in view.tables if t.name.startswith("Lock ") and t.started]
            r["abandoned_listed"] = len(listed)
            await probe.try_send(create("Newcomer's table"))
            ctx.count("lockout", 3)
            await probe.wait_for(lambda: view.table_id is not None or bool(view.errors), 10)  # noqa: B023
            refusals += view.errors["too_many_tables"]
            await probe.close()
            await trio.sleep(1)
        nursery.cancel_scope.cancel()
    r["newcomer_refused_of_3"] = refusals


async def attacks_in_turn(ctx: Ctx, pool: Pool) -> None:
    a = ctx.scale.attack_s

    def limit(share: float) -> float:
        return max(25.0, share * a)

    async with trio.open_nursery() as background:
        await ctx.segment("over_the_limit", limit(0.03), over_the_limit)
        await ctx.segment("flood", limit(0.06), flood)
        background.start_soon(ctx.segment, "trickle", 40.0, trickle)
        background.start_soon(ctx.segment, "idle_unwelcomed", 40.0, idle_unwelcomed)
        await ctx.segment("injection", limit(0.03), injection, pool)
        await ctx.segment("guessing", limit(0.04), guessing)
        await ctx.segment("amplification", limit(0.16), amplification)
        await ctx.segment("spectators", limit(0.3), spectators)
        await ctx.segment("churn", ctx.scale.churn_s + 15, churn)
        await trio.sleep_until(max(trio.current_time(), ctx.attack_start + 0.82 * a))
        await ctx.segment("lockout", limit(0.12), lockout)


# ----- the server, the real game and the whole run -------------------------------------


async def monitor(ctx: Ctx, process: trio.Process) -> None:
    """The server's memory ten times a second; whether it is still alive."""
    while True:
        if process.returncode is not None or process.poll() is not None:
            ctx.crashed = f"exit code {process.returncode}"
            print(f"  THE SERVER DIED: {ctx.crashed}", flush=True)
            return
        value = rss_mib(ctx.pid)
        if not math.isnan(value):
            ctx.rss_peak = max(ctx.rss_peak, value)
            ctx.rss_samples.append((time.monotonic(), value))
            for name in ctx.active:
                ctx.peaks[name] = max(ctx.peaks.get(name, 0.0), value)
        await trio.sleep(0.1)


async def keepalive(ctx: Ctx) -> None:
    """A ping now and then from connections kept open but otherwise silent."""
    ping = frame({"t": "ping", "n": 1})
    while True:
        await trio.sleep(5)
        for conn in list(ctx.held):
            if conn.done.is_set():
                ctx.held.discard(conn)
                continue
            with trio.move_on_after(0.2):
                await conn.try_send(ping)


async def idle_memory(ctx: Ctx) -> dict[str, Any]:
    """The server's memory and descriptors per greeted connection doing nothing."""
    n = ctx.scale.idle_conns
    settle = 0.5 if ctx.quick else 1.0  # the quick run's figures only show it still runs
    async with trio.open_nursery() as nursery:
        warm = await ctx.open_many(nursery, 20, A_IDLE_MEMORY, lambda i: hello(f"Warm{i}"),
                                   until=PAT_WELCOME)  # fmt: skip
        await ctx.close_all(warm)
        await trio.sleep(2 * settle)
        rss0, fds0 = statistics.median(await samples(ctx)), open_fds(ctx.pid)
        conns = await ctx.open_many(nursery, n, A_IDLE_MEMORY, lambda i: hello(f"Idle{i:04d}"),
                                    until=PAT_WELCOME, parallel=64)  # fmt: skip
        await trio.sleep(1.5 * settle)
        rss1, fds1 = statistics.median(await samples(ctx)), open_fds(ctx.pid)
        await ctx.close_all(conns)
        await trio.sleep(2 * settle)
        rss2 = statistics.median(await samples(ctx))
        # The same again: memory the first round left behind is reused, or it is a leak.
        again = await ctx.open_many(nursery, n, A_IDLE_MEMORY, lambda i: hello(f"Idle{i:04d}"),
                                    until=PAT_WELCOME, parallel=64)  # fmt: skip
        await trio.sleep(1.5 * settle)
        rss3 = statistics.median(await samples(ctx))
        await ctx.close_all(again)
        nursery.cancel_scope.cancel()
    ctx.tally["frames:idle"] += len(conns) + len(again)
    ctx.frames += len(conns) + len(again)
    count = max(1, len(conns))
    return {
        "connections": len(conns),
        "rss_before_mib": round(rss0, 1),
        "rss_with_mib": round(rss1, 1),
        "kib_per_connection": round((rss1 - rss0) * 1024 / count, 1),
        "rss_after_closing_mib": round(rss2, 1),
        "rss_second_round_mib": round(rss3, 1),
        "fds_per_connection": round((fds1 - fds0) / count, 2),
    }


async def samples(ctx: Ctx, k: int = 5) -> list[float]:
    out = []
    for _ in range(k):
        out.append(rss_mib(ctx.pid))
        await trio.sleep(0.2)
    return out


class Player:
    """The real game's process, and what it prints: one line per move."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self.moves: list[tuple[float, float]] = []  # (sent at, seconds to own ack)
        self.noise: list[tuple[float, int]] = []
        self.lines: list[str] = []
        self.table = trio.Event()
        self.table_id = ""
        self.ended: str | None = None

    async def close(self) -> None:
        """End its stdin (it stops playing and exits); killed if it has not after 10 s."""
        assert self.process.stdin is not None
        await self.process.stdin.aclose()
        with trio.move_on_after(10):
            await self.process.wait()
        if self.process.returncode is None:
            self.process.kill()

    async def read(self) -> None:
        assert self.process.stdout is not None
        buffer = b""
        while chunk := await self.process.stdout.receive_some(65536):
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                self.took(line.decode())

    def took(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if word == "m":
            sent, took = rest.split()
            self.moves.append((float(sent), float(took)))
        elif word == "n":
            at, noise = rest.split()
            self.noise.append((float(at), int(noise)))
        elif word == "table":
            self.table_id = rest
            self.table.set()
        else:
            self.lines.append(line)
            if word in ("dropped:", "stuck:"):
                self.ended = line

    def window(self, start: float, end: float) -> list[float]:
        return [took for sent, took in self.moves if start <= sent < end]

    def noise_between(self, start: float, end: float) -> int:
        inside = [n for at, n in self.noise if start <= at <= end]
        return inside[-1] - inside[0] if len(inside) > 1 else 0


async def start_server(data_dir: Path, log: Path, per_address: int) -> trio.Process:
    command = [SERVER, "--host", HOST, "--port", "0", "--data-dir", str(data_dir),
               "--log-level", "info", "--max-per-address", str(per_address)]  # fmt: skip
    with open(log, "wb") as err:
        return await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, stderr=err)


async def start_player(root: trio.Nursery, port: int) -> Player:
    """The real player, a process of its own, once it sits at its table."""
    player_process = await trio.lowlevel.open_process(
        [sys.executable, __file__, "--player", str(port)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    player = Player(player_process)
    root.start_soon(player.read)
    with trio.fail_after(30):
        await player.table.wait()
    return player


async def drain(stream: Any) -> None:
    while await stream.receive_some(4096):
        pass


async def run(scale: Scale, quick: bool, folder: Path) -> dict[str, Any]:
    began = time.monotonic()
    rng = random.Random(12)
    pool = Pool(rng, scale.pool)
    made = Counter(pool.kinds)
    print(f"Frames made: {len(pool.stream)} for the streams ({dict(made)}),"
          f" {len(pool.fatal)} fatal; {len(pool.unbuildable)} whose error the server cannot"
          f" build (sent by the injection attack)", flush=True)  # fmt: skip
    print(f"  what the server's codec says of the stream frames (first code): "
          f"{dict(pool.expected.most_common(12))}", flush=True)  # fmt: skip
    log = folder / "server.log"
    process = await start_server(folder / "data", log, scale.per_address)
    port = await read_port(process)
    ctx = Ctx(port, process.pid, scale, quick)
    print(f"sarja-server pid {process.pid} on port {port}; load average"
          f" {os.getloadavg()[0]:.2f}", flush=True)  # fmt: skip
    figures: dict[str, Any] = {}
    player: Player | None = None
    async with trio.open_nursery() as root:
        assert process.stdout is not None
        root.start_soon(drain, process.stdout)
        root.start_soon(monitor, ctx, process)
        root.start_soon(keepalive, ctx)

        idle = await idle_memory(ctx)
        ctx.results["idle_connections"] = idle
        print(f"Idle connections: {idle}", flush=True)

        player = await start_player(root, port)
        ctx.real_table = player.table_id
        await trio.sleep(1)
        rss_before = statistics.median(await samples(ctx))
        before = (time.monotonic(), time.monotonic() + scale.baseline_s)
        await trio.sleep(scale.baseline_s)
        print(f"The real game alone: {len(player.window(*before))} moves in"
              f" {scale.baseline_s:g} s", flush=True)  # fmt: skip

        os.nice(NICE)
        ctx.attack_start = trio.current_time()
        ctx.attack_end = ctx.attack_start + scale.attack_s
        ctx.frames_due = ctx.attack_start + 0.92 * scale.attack_s
        attack_from = time.monotonic()
        print(f"Attack: {scale.frames} frames planned in about {scale.attack_s:g} s", flush=True)
        async with trio.open_nursery() as attack:
            for lane in range(scale.stream_conns):
                attack.start_soon(stream_lane, ctx, pool, lane)
            for lane in range(scale.fatal_workers):
                attack.start_soon(fatal_lane, ctx, pool, lane)
            for lane in range(scale.rogue_pairs):
                attack.start_soon(rogue_lane, ctx, lane)
            turns = trio.Event()

            async def in_turn() -> None:
                await attacks_in_turn(ctx, pool)
                turns.set()

            attack.start_soon(in_turn)
            hard_end = ctx.attack_start + scale.attack_s + scale.overtime_s
            last_report = 0.0
            while True:
                now = trio.current_time()
                if ctx.crashed or now >= hard_end:
                    break
                if now >= ctx.attack_end and turns.is_set() and ctx.frames >= scale.frames:
                    break
                if now >= ctx.attack_end:
                    ctx.attack_end = hard_end  # the streams go on to reach the count
                if now - last_report >= (5 if quick else 30):
                    last_report = now
                    print(f"  [{time.monotonic() - ctx.began:5.0f} s] frames {ctx.frames},"
                          f" connections {ctx.tally['connections']}, server RSS"
                          f" {rss_mib(ctx.pid):.0f} MiB, peak {ctx.rss_peak:.0f} MiB",
                          flush=True)  # fmt: skip
                await trio.sleep(0.25)
            attack.cancel_scope.cancel()
        attack_to = time.monotonic()
        for conn in list(ctx.conns):
            await conn.close()
            ctx.absorb(conn)
        print(f"Attack over after {attack_to - attack_from:.0f} s", flush=True)

        await trio.sleep(2 if quick else 8)
        rss_after = statistics.median(await samples(ctx)) if not ctx.crashed else math.nan
        await player.close()
        await trio.sleep(0.2)
        if not ctx.crashed:
            process.send_signal(signal.SIGTERM)
            with trio.move_on_after(10):
                await process.wait()
            if process.returncode is None:
                process.kill()
                figures["server_stop"] = "killed: did not stop on SIGTERM within 10 s"
            else:
                figures["server_stop"] = f"exit code {process.returncode}"
        root.cancel_scope.cancel()

    assert player is not None
    figures |= summarize(ctx, player, log, before, (attack_from, attack_to), rss_before, rss_after)
    figures["seconds"] = round(time.monotonic() - began)
    return figures


# ----- attacks in modules of their own, each on servers of its own -----------------------

Separate = Callable[[bool, Path], Awaitable[dict[str, Any]]]

# (what it attacks, its function: (quick, a folder of its own) -> figures, whether the
# quick run runs it too). Their figures join the JSON line; one more attack is one line.
SEPARATE: list[tuple[str, Separate, bool]] = [
    # The tests run bench/hostile_tables.py's quick mode on its own.
    ("the table limit (bench/hostile_tables.py)", table_limit_attacks, False),
    ("clock tables one address keeps (bench/hostile_bounds.py)", clock_tables, True),
    ("a real player's hints under a flood (bench/hostile_bounds.py)", hints, True),
    ("a fake server with the real one's id (bench/hostile_spoof.py)", spoof, True),
    # The tests run bench/hostile_costs.py's quick mode on its own.
    (
        "what requests cost (bench/hostile_costs.py)",
        lambda quick, folder: cost_attacks(quick),
        False,
    ),
]


async def separate_attacks(quick: bool, folder: Path) -> dict[str, Any]:
    """Each attack of `SEPARATE` in turn. One that fails says how in its figures and
    the rest go on: the bench finishes and prints whatever the load."""
    figures: dict[str, Any] = {}
    for n, (title, attack, in_quick) in enumerate(SEPARATE):
        if quick and not in_quick:
            continue
        print(f"Separately, {title}:", flush=True)
        place = folder / f"separate{n}"
        place.mkdir()
        began = time.monotonic()
        try:
            found = await attack(quick, place)
        except Exception as err:
            found = {f"{attack.__name__}_failure": failure(err)}
        found[f"{attack.__name__}_s"] = round(time.monotonic() - began)
        print(f"  {found}", flush=True)
        figures |= found
    return figures


def summarize(
    ctx: Ctx, player: Player, log: Path, before: tuple[float, float],
    attack: tuple[float, float], rss_before: float, rss_after: float,
) -> dict[str, Any]:  # fmt: skip
    text = log.read_text(errors="replace")
    raw_log = log.read_bytes()
    tracebacks = text.count("Traceback")
    ends = Counter(
        m.strip(" |")[:140]
        for m in re.findall(r"^[ |]*(?:[\w.]+\.)?\w*(?:Error|Exception)\w*: .*$", text, re.M)
    )
    shapes = Counter(
        re.sub(r"'[^']*'|\d+|/\S+", "_", line.split(": ", 1)[-1])[:70]
        for line in text.splitlines()
        if re.match(r"\d{4}-\d\d-\d\d ", line)
    )
    where = Counter(
        ("/".join(f.split("/")[-2:]), n, fn)
        for f, n, fn in re.findall(r'File "([^"]+)", line (\d+), in (\w+)', text)
        if "/lib/python" not in f
    )
    internal = ctx.tally["seen:internal"] + sum(
        int(x.split()[1]) for x in player.lines if x.startswith("internal ")
    )
    early, late = player.window(*before), player.window(*attack)
    ms = lambda v: round(v * 1e3, 2)  # noqa: E731
    idle = ctx.results["idle_connections"]
    churn = ctx.results.get("churn", {})
    figures: dict[str, Any] = {
        "frames": ctx.frames,
        "connections": ctx.tally["connections"],
        "crashes": int(ctx.crashed is not None),
        "tracebacks": tracebacks,
        "internal_errors": internal,
        "p50_before_ms": ms(percentile(early, 0.5)),
        "p99_before_ms": ms(percentile(early, 0.99)),
        "p50_attack_ms": ms(percentile(late, 0.5)),
        "p99_attack_ms": ms(percentile(late, 0.99)),
        "max_attack_ms": ms(max(late, default=math.nan)),
        "moves_before": len(early),
        "moves_attack": len(late),
        "real_game": player.ended or "played throughout",
        "rss_start_mib": idle["rss_before_mib"],
        "rss_before_mib": round(rss_before, 1),
        "rss_peak_mib": round(ctx.rss_peak, 1),
        "rss_after_mib": round(rss_after, 1),
        "idle_kib_per_connection": idle["kib_per_connection"],
        "fds_per_connection": idle["fds_per_connection"],
        "log_bytes": len(raw_log),
        "log_lines": sum(shapes.values()),
        "logged_errors": len(re.findall(r"^\S+ \S+ ERROR ", text, re.M)),
        "log_control_bytes": sum(raw_log.count(bytes([c])) for c in (0x1B, 0x07, 0x00)),
        "log_dropping_lines": text.count("dropping"),
        "fatal_connections": ctx.tally["frames:fatal"],
        "fatal_silent": ctx.tally["fatal_silent"],
        "fatal_hung": ctx.tally["fatal_hung"],
        "streams_closed_by_server": ctx.tally["stream_closed_by_server"],
        "noise_to_real_players_in_churn": player.noise_between(*ctx.windows.get("churn", (0, 0))),
    }
    figures["churn_pairs"] = churn.get("spectate_leave_pairs")
    for name, (start, end) in ctx.windows.items():
        moves = player.window(start, end)
        ctx.results[name]["game_p99_ms"] = ms(percentile(moves, 0.99))
        ctx.results[name]["game_max_ms"] = ms(max(moves, default=math.nan))
        ctx.results[name]["game_moves"] = len(moves)
    bulk = [
        took for sent, took in player.moves
        if attack[0] <= sent < attack[1]
        and not any(start <= sent < end for start, end in ctx.windows.values())
    ]  # fmt: skip
    figures["p99_bulk_only_ms"] = ms(percentile(bulk, 0.99))
    figures["moves_bulk_only"] = len(bulk)
    for name, result in ctx.results.items():
        if name != "idle_connections":
            for key, value in result.items():
                if isinstance(value, int | float | bool | str) or value is None:
                    figures[f"{name}.{key}"] = value
    figures["_traceback_ends"] = dict(ends.most_common(6))
    figures["_log_shapes"] = dict(shapes.most_common(8))
    figures["_traceback_places"] = [f"{f}:{n} {fn}" for (f, n, fn), _ in where.most_common(8)]
    figures["_kinds"] = {k[7:]: v for k, v in ctx.tally.items() if k.startswith("frames:")}
    figures["_fatal_silent"] = {k[13:]: v for k, v in ctx.tally.items()
                                if k.startswith("fatal_silent:")}  # fmt: skip
    figures["_player"] = player.lines[-5:]
    return figures


def report(f: dict[str, Any], scale: Scale) -> None:
    print(f"Frames {f['frames']} ({f['_kinds']}); connections {f['connections']}")
    print(f"Crashes {f['crashes']}; tracebacks logged {f['tracebacks']};"
          f" internal_error replies {f['internal_errors']}")  # fmt: skip
    if f["_traceback_ends"]:
        print(f"  tracebacks end in: {f['_traceback_ends']}")
        print(f"  raised in: {f['_traceback_places']}")
    print(
        f"Fatal-frame connections {f['fatal_connections']}: closed without the fatal error"
        f" {f['fatal_silent']} {f['_fatal_silent'] or ''}, never closed {f['fatal_hung']}"
    )
    print(f"The real game: p50 {f['p50_before_ms']} ms, p99 {f['p99_before_ms']} ms alone"
          f" ({f['moves_before']} moves); p50 {f['p50_attack_ms']} ms, p99 {f['p99_attack_ms']}"
          f" ms, worst {f['max_attack_ms']} ms during the attack ({f['moves_attack']} moves);"
          f" {f['real_game']}")  # fmt: skip
    print(f"Server RSS: at start {f['rss_start_mib']} MiB, before the attack"
          f" {f['rss_before_mib']} MiB, peak {f['rss_peak_mib']} MiB, after"
          f" {f['rss_after_mib']} MiB; idle connection {f['idle_kib_per_connection']} KiB"
          f" and {f['fds_per_connection']} descriptors")  # fmt: skip
    print(
        f"Server log: {f['log_bytes']} bytes, {f['log_lines']} lines ({f['logged_errors']}"
        f" ERROR), {f['log_control_bytes']} raw control bytes; stop: {f.get('server_stop')}"
    )
    print(f"  most logged: {f['_log_shapes']}")
    for name in ("churn", "amplification", "spectators", "flood", "lockout"):
        if f.get(f"{name}.game_p99_ms") is not None:
            print(
                f"  the real game during {name}: p99 {f[f'{name}.game_p99_ms']} ms,"
                f" worst {f[f'{name}.game_max_ms']} ms, {f[f'{name}.game_moves']} moves"
            )
    print(
        f"  the real game while only the fuzz, fatal and rogue lanes ran: p99"
        f" {f['p99_bulk_only_ms']} ms ({f['moves_bulk_only']} moves)"
    )
    ratio = f["p99_attack_ms"] / f["p99_before_ms"] if f["p99_before_ms"] else math.nan
    checks = [
        ("crashes", f["crashes"], "0", f["crashes"] == 0),
        ("tracebacks", f["tracebacks"], "0", f["tracebacks"] == 0),
        ("internal_error replies", f["internal_errors"], "0", f["internal_errors"] == 0),
        ("p99 during / before", f"{ratio:.2f}x", f"at most {TARGETS['p99_ratio']:g}x",
         ratio <= TARGETS["p99_ratio"]),
        ("peak RSS", f"{f['rss_peak_mib']} MiB", f"under {TARGETS['rss_peak_mib']:g} MiB",
         f["rss_peak_mib"] < TARGETS["rss_peak_mib"]),
        ("memory per idle connection", f"{f['idle_kib_per_connection']} KiB",
         f"at most {TARGETS['idle_kib']:g} KiB",
         f["idle_kib_per_connection"] <= TARGETS["idle_kib"]),
        ("frames", f["frames"], f"{scale.frames}", f["frames"] >= scale.frames),
    ]  # fmt: skip
    print("Targets:")
    for name, value, target, met in checks:
        print(f"  {name}: {value}, target {target}: {'met' if met else 'MISSED'}")
    f["p99_ratio"] = round(ratio, 2) if not math.isnan(ratio) else None


def failure(err: BaseException) -> str:
    """What went wrong, in a line: the first error inside any exception groups, and
    the last line of the benches' own code it went through."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    where, tb = "", err.__traceback__
    here = Path(__file__).resolve().parent
    while tb is not None:
        path = Path(tb.tb_frame.f_code.co_filename)
        if path.parent == here:
            where = f" at {path.name}:{tb.tb_lineno}"
        tb = tb.tb_next
    return f"{type(err).__name__}: {err}{where}"


def report_separate(f: dict[str, Any]) -> None:
    """The targets of the attacks in modules of their own, those that ran."""
    hint_ratio = (
        f["hint_p50_under_flood_ms"] / f["hint_p50_calm_ms"]
        if f.get("hint_p50_calm_ms") and f.get("hint_p50_under_flood_ms")
        else math.nan
    )
    checks = [
        ("park race: server stopped", f.get("park_race_stopped"), "0",
         f.get("park_race_stopped") == 0),
        ("lockout: newcomer's tables refused", f.get("lockout_refused"), "0",
         f.get("lockout_refused") == 0),
        ("clock tables one address keeps", f.get("clock_tables_per_address"),
         f"at most {COMPUTERS_PER_ADDRESS}",
         (f.get("clock_tables_per_address") or 0) <= COMPUTERS_PER_ADDRESS),
        ("a hint under a flood / calm", f"{hint_ratio:.2f}x", f"at most {HINT_RATIO:g}x",
         hint_ratio <= HINT_RATIO),
        ("secrets a fake server or a relay got", f.get("spoof_secrets_leaked"), "0",
         f.get("spoof_secrets_leaked") == 0),
        ("the client said the fake's key differs", f.get("spoof_refused_by_client"), "True",
         f.get("spoof_refused_by_client") is True),
    ]  # fmt: skip
    failed = [k for k in f if k.endswith("_failure")]
    print("Targets of the separate attacks:")
    for name, value, target, met in checks:
        if value is not None and value != "nanx":
            print(f"  {name}: {value}, target {target}: {'met' if met else 'MISSED'}")
    for key in failed:
        print(f"  {key}: {f[key]}")
    f["hint_flood_ratio"] = None if math.isnan(hint_ratio) else round(hint_ratio, 2)


# ----- a real game while computers play at many tables --------------------------------

# A person's scripted game on a server of its own, timed alone and then while 12-seat
# tables of hard computers play on with no one there, made four to an address (the
# server's bound) from 127.0.0.150 on; one more from the last address must be refused.
A_COMPUTERS = 150
COMPUTER_TABLES = {False: 20, True: 4}  # the full run's, the quick run's
COMPUTER_WINDOWS = {False: (30.0, 60.0), True: (2.0, 3.0)}  # seconds: calm, under computers
COMPUTERS_PER_ADDRESS = 4
ALONE = frame({"t": "create_table", "name": "Computers alone", "players": 12, "teams": 3,
               "computers": [None] + ["hard"] * 11, "computer_takeover": "hard"})  # fmt: skip
PAT_ERROR = b"\xa1t\xa5error"


async def computer_table(port: int, where: str) -> str:
    """From `where`, make a table of eleven hard computers and a person's seat, start its
    game and leave it to them: "started", or the code it was refused with."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    await sock.bind((where, 0))
    await sock.connect((HOST, port))
    seen = b""
    async with await secure(trio.SocketStream(sock)) as stream:
        await stream.send_all(hello("Starter") + ALONE + READY)
        with trio.fail_after(20):
            while PAT_SNAPSHOT not in seen and PAT_ERROR not in seen:
                chunk = await stream.receive_some(65536)
                if not chunk:
                    return "closed"
                seen += chunk
    if PAT_ERROR in seen:
        code = re.search(rb"\xa4code(?:\xd9.|[\xa0-\xbf])([a-z_]+)", seen, re.S)
        return code.group(1).decode() if code else "refused"
    return "started"


def children_cpu(pid: int) -> float:
    """CPU seconds of the server's child processes (its search workers)."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    return sum(cpu_seconds(int(kid)) for kid in kids if not math.isnan(cpu_seconds(int(kid))))


async def computers_run(
    quick: bool, folder: Path, threads: bool, workers: int | None = None
) -> dict[str, Any]:
    """The real game's p99, calm and then under the computer tables (see above)."""
    log = folder / "computers.log"
    command = [SERVER, "--host", HOST, "--port", "0", "--data-dir", str(folder / "computers"),
               "--log-level", "info"] + (["--search-threads"] if threads else [])  # fmt: skip
    if workers is not None:
        command += ["--search-workers", str(workers)]
    with open(log, "wb") as err:
        process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, stderr=err)
    port = await read_port(process)
    calm_s, busy_s = COMPUTER_WINDOWS[quick]
    count = COMPUTER_TABLES[quick]
    async with trio.open_nursery() as root:
        assert process.stdout is not None
        root.start_soon(drain, process.stdout)
        player = await start_player(root, port)
        await trio.sleep(1)
        calm = (time.monotonic(), time.monotonic() + calm_s)
        await trio.sleep(calm_s)
        made = [
            await computer_table(port, address(A_COMPUTERS + i // COMPUTERS_PER_ADDRESS))
            for i in range(count)
        ]
        over = await computer_table(
            port, address(A_COMPUTERS + (count - 1) // COMPUTERS_PER_ADDRESS)
        )
        await trio.sleep(1)  # the computers get going
        cpu = (cpu_seconds(process.pid), children_cpu(process.pid))
        busy = (time.monotonic(), time.monotonic() + busy_s)
        await trio.sleep(busy_s)
        server_cpu = (cpu_seconds(process.pid) - cpu[0]) / busy_s
        workers_cpu = (children_cpu(process.pid) - cpu[1]) / busy_s
        await player.close()
        await stop(process)
        root.cancel_scope.cancel()
    ms = lambda v: round(v * 1e3, 2)  # noqa: E731
    calm_moves, busy_moves = player.window(*calm), player.window(*busy)
    text = log.read_text(errors="replace")
    p99_calm, p99_busy = percentile(calm_moves, 0.99), percentile(busy_moves, 0.99)
    return {
        "computers_search_in": "threads" if threads else "processes",
        "computers_search_workers": workers,
        "p99_calm_ms": ms(p99_calm),
        "p99_under_computers_ms": ms(p99_busy),
        "p50_under_computers_ms": ms(percentile(busy_moves, 0.5)),
        "p99_under_computers_ratio": round(p99_busy / p99_calm, 2) if p99_calm else None,
        "moves_calm": len(calm_moves),
        "moves_under_computers": len(busy_moves),
        "computer_tables_started": made.count("started"),
        "computer_table_over_the_bound": over,
        "computers_server_cpu": round(server_cpu, 2),  # cores, while the computers played
        "computers_workers_cpu": round(workers_cpu, 2),
        "computers_tracebacks": text.count("Traceback"),
        "computers_real_game": player.ended or "played throughout",
    }


def computers_report(f: dict[str, Any]) -> None:
    ratio = f["p99_under_computers_ratio"]
    print(
          f"A real game while {f['computer_tables_started']} tables of hard computers played"
          f" (searches in {f['computers_search_in']}): p99 {f['p99_calm_ms']} ms calm"
          f" ({f['moves_calm']} moves), {f['p99_under_computers_ms']} ms under the computers"
          f" ({f['moves_under_computers']} moves, p50 {f['p50_under_computers_ms']} ms);"
          f" {ratio}x, target at most 3x: {'met' if ratio and ratio <= 3 else 'MISSED'}"
    )  # fmt: skip
    print(f"  one table more from the same address: {f['computer_table_over_the_bound']};"
          f" CPU while they played: server {f['computers_server_cpu']} cores, search"
          f" workers {f['computers_workers_cpu']}; tracebacks {f['computers_tracebacks']};"
          f" {f['computers_real_game']}")  # fmt: skip


# ----- the real game's process -----------------------------------------------------------


async def play(port: int) -> None:
    """Two clients at a table of their own, moving as fast as they may. Prints
    `table ID`, then `m SENT SECONDS` per move and `n TIME NOISE` every second."""
    ctx = Ctx(port, 0, QUICK, True)
    out = sys.stdout
    signal_ = Signal()
    rng = random.Random(3)
    async with trio.open_nursery() as nursery:
        views = [GameView(), GameView()]
        peers = []
        for i, view in enumerate(views):
            conn = await ctx.connect(nursery, PLAYER_ADDRESS, view=view, signal_=signal_)
            assert conn is not None, "the real game could not connect"
            peers.append(conn)
            await conn.send(hello(f"Real{i}"))
        a, b = peers
        va, vb = views
        await a.wait_for(lambda: va.welcomed and vb.welcomed, 10)
        await a.send(create("The real game"))
        await a.wait_for(lambda: va.table_id is not None, 10)
        await b.send(frame({"t": "join", "table": va.table_id}) + READY)
        await a.send(READY)
        await a.wait_for(lambda: va.snapshots > 0 and vb.snapshots > 0, 10)
        print(f"table {va.table_id}", file=out, flush=True)

        async def until_stdin_closes() -> None:
            stdin = trio.lowlevel.FdStream(os.dup(0))
            while await stdin.receive_some(1024):
                pass
            nursery.cancel_scope.cancel()

        async def flush() -> None:
            while True:
                print(f"n {time.monotonic():.6f} {va.noise + vb.noise}", file=out)
                out.flush()
                await trio.sleep(1)

        nursery.start_soon(until_stdin_closes)
        nursery.start_soon(flush)
        try:
            while True:
                ready = lambda: (va.can_move() or vb.can_move() or  # noqa: E731
                                 (va.result is not None and vb.result is not None))  # fmt: skip
                if not await a.wait_for(ready, 60):
                    print("stuck: no move possible for 60 s", file=out, flush=True)
                    return
                if va.result is not None and vb.result is not None:
                    await rematch((a, va), (b, vb), 60)
                    continue
                mover, view = (a, va) if va.can_move() else (b, vb)
                move_id, data = view.move(rng)
                sent = time.monotonic()
                await mover.send(data)
                acked, refused = view.acked, view.error_ids
                if not await mover.wait_for(lambda: move_id in acked or move_id in refused, 60):  # noqa: B023
                    print("stuck: a move unanswered for 60 s", file=out, flush=True)
                    return
                print(f"m {sent:.6f} {time.monotonic() - sent:.6f}", file=out)
                if move_id in view.error_ids:
                    print(f"refused {dict(view.errors)}", file=out)
        except NETWORK_ERRORS as err:
            print(f"dropped: {type(err).__name__}", file=out)
        finally:
            if a.done.is_set() or b.done.is_set():
                print("dropped: the server closed a real player's connection", file=out)
            print(f"internal {a.counts['internal'] + b.counts['internal']}", file=out)
            print(f"errors {dict(va.errors + vb.errors)}", file=out)
            out.flush()


# ----- the journal's bounds: servers of their own, after the attack -------------------


@dataclass(frozen=True)
class JournalScale:
    writer_s: float  # the flat-out writer's length
    pairs: int  # pairs of players moving as fast as they may, rematching at each end
    churners: int  # connections creating and leaving tables, one after another
    closed_tables: int  # put in the full journal (each with four guests)
    open_tables: int  # the same, left open (the table limit's worth in the full run)
    results: int  # finished games' results in the full journal
    probes: int  # unknown tokens timed on each journal


JOURNAL_FULL = JournalScale(
    writer_s=120, pairs=4, churners=2, closed_tables=20_000, open_tables=1000, results=20_000,
    probes=400,
)  # fmt: skip
JOURNAL_QUICK = JournalScale(
    writer_s=2, pairs=2, churners=1, closed_tables=1000, open_tables=100, results=1000,
    probes=40,
)  # fmt: skip
A_JOURNAL_PAIRS, A_JOURNAL_CHURN, A_JOURNAL_PROBE = 170, 180, 190
WAL_TARGET_MIB = 64.0
TOKEN_RATIO_TARGET = 2.0


async def flat_out_pair(ctx: Ctx, i: int, until: float, tally: Counter[str]) -> None:
    """Two players at a table of their own, each moving the moment it may; rematch."""
    async with trio.open_nursery() as nursery:
        signal_ = Signal()
        views, conns = [GameView(), GameView()], []
        for k, view in enumerate(views):
            conn = await ctx.connect(nursery, address(A_JOURNAL_PAIRS + i), view=view,
                                     signal_=signal_)  # fmt: skip
            if conn is None:
                tally["pair_failed"] += 1
                return
            await conn.send(hello(f"Writer{i}x{k}"))
            conns.append(conn)
        (a, b), (va, vb) = conns, views
        await a.wait_for(lambda: va.welcomed and vb.welcomed, 10)
        await a.send(create(f"Writer {i}"))
        await a.wait_for(lambda: va.table_id is not None, 10)
        await b.send(frame({"t": "join", "table": va.table_id}) + READY)
        await a.send(READY)
        await a.wait_for(lambda: va.snapshots > 0 and vb.snapshots > 0, 10)
        rng = random.Random(i)
        over = lambda: va.result is not None and vb.result is not None  # noqa: E731
        while trio.current_time() < until:
            if not await a.wait_for(lambda: va.can_move() or vb.can_move() or over(), 10):
                tally["pair_stuck"] += 1
                break
            if over():
                tally["games"] += 1
                await rematch((a, va), (b, vb), 10)
                continue
            mover, view = (a, va) if va.can_move() else (b, vb)
            move_id, data = view.move(rng)
            await mover.send(data)
            acked, refused = view.acked, view.error_ids
            if not await mover.wait_for(lambda: move_id in acked or move_id in refused, 10):  # noqa: B023
                tally["pair_stuck"] += 1
                break
            tally["moves"] += 1
        nursery.cancel_scope.cancel()


async def table_churn(ctx: Ctx, w: int, until: float, tally: Counter[str]) -> None:
    """A new connection, a new table, and leave it (closing it): again and again."""
    patterns = {**BASIC, "tables": PAT_TABLES, "table": PAT_TABLE}
    while trio.current_time() < until:
        async with trio.open_nursery() as nursery:
            conn = await ctx.connect(nursery, address(A_JOURNAL_CHURN + w), patterns=patterns)
            if conn is None:
                await trio.sleep(0.1)
                continue
            await conn.try_send(hello(f"Churn{w}") + create(f"Churn {w}"))
            if await conn.wait_for(lambda: conn.counts["table"] > 0, 5):  # noqa: B023
                lists = conn.counts["tables"]
                await conn.try_send(LEAVE)
                if await conn.wait_for(lambda: conn.counts["tables"] > lists, 5):  # noqa: B023
                    tally["tables_churned"] += 1
            await conn.close()
            nursery.cancel_scope.cancel()


def journal_used_bytes(path: Path) -> int:
    """Bytes of the journal's pages in use (what compaction frees is reused)."""
    import sqlite3

    uri = f"file:{path}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True, timeout=1)) as db:
        pages, free, size = (
            db.execute(f"PRAGMA {p}").fetchone()[0]
            for p in ("page_count", "freelist_count", "page_size")
        )
    return int((pages - free) * size)


async def start_journal_server(data_dir: Path, log: Path) -> tuple[trio.Process, int]:
    command = [SERVER, "--host", HOST, "--port", "0", "--data-dir", str(data_dir),
               "--log-level", "debug"]  # fmt: skip
    with open(log, "wb") as err:
        process = await trio.lowlevel.open_process(command, stdout=subprocess.PIPE, stderr=err)
    return process, await read_port(process)


async def flat_out_writer(js: JournalScale, folder: Path) -> dict[str, Any]:
    """Pairs moving flat out and tables churned, for `writer_s`: the log's peak size,
    how often it shrank, its truncations between commits (what each cost: the commits'
    pause, from the server's debug log), and the journal's growth over the last two
    thirds, after compaction, extrapolated to an hour."""
    data_dir, log = folder / "writer-data", folder / "writer.log"
    process, port = await start_journal_server(data_dir, log)
    path = data_dir / "journal.sqlite3"
    wal = Path(f"{path}-wal")
    ctx = Ctx(port, process.pid, QUICK, True)
    tally: Counter[str] = Counter()
    peak = drops = 0
    marks: list[tuple[float, int, int]] = []  # (time, used bytes, games finished)
    start = trio.current_time()
    until = start + js.writer_s
    async with trio.open_nursery() as nursery:
        assert process.stdout is not None
        nursery.start_soon(drain, process.stdout)
        for i in range(js.pairs):
            nursery.start_soon(flat_out_pair, ctx, i, until, tally)
        for w in range(js.churners):
            nursery.start_soon(table_churn, ctx, w, until, tally)
        last = 0
        next_mark = start + js.writer_s / 3
        while trio.current_time() < until:
            size = wal.stat().st_size if wal.exists() else 0
            peak, drops, last = max(peak, size), drops + (size < last), size
            if trio.current_time() >= next_mark:
                used = await trio.to_thread.run_sync(journal_used_bytes, path)
                marks.append((trio.current_time(), used, tally["games"]))
                next_mark = math.inf
            await trio.sleep(0.01)
        used = await trio.to_thread.run_sync(journal_used_bytes, path)
        marks.append((trio.current_time(), used, tally["games"]))
        nursery.cancel_scope.cancel()
    await stop(process)
    costs = [float(ms) for ms in re.findall(r"journal log emptied: \d+ bytes in ([\d.]+) ms",
                                            log.read_text(errors="replace"))]  # fmt: skip
    (t0, used0, games0), (t1, used1, games1) = marks[0], marks[-1]
    growth = used1 - used0
    games = games1 - games0
    return {
        "wal_peak_mib": round(peak / 2**20, 2),
        "wal_truncations": len(costs),
        "wal_cut_back_seen": drops,  # started over after a copy, and cut back
        "wal_truncate_ms_median": round(statistics.median(costs), 2) if costs else None,
        "wal_truncate_ms_max": round(max(costs), 2) if costs else None,
        "writer_moves_per_s": round(tally["moves"] / js.writer_s),
        "writer_games": tally["games"],
        "writer_tables_churned": tally["tables_churned"],
        "writer_stuck": tally["pair_stuck"] + tally["pair_failed"],
        "journal_used_mib": round(used1 / 2**20, 2),
        "journal_file_mib": round(path.stat().st_size / 2**20, 2),
        "journal_mib_per_hour": round(max(growth, 0) / (t1 - t0) * 3600 / 2**20, 2),
        "journal_bytes_per_game": round(growth / games) if games > 0 else None,
    }


def fill_journal(path: Path, js: JournalScale) -> None:
    """A journal as a long evening leaves it: closed tables, open ones (four guests with
    two tokens each), and finished games' results; written through the journal's API."""
    from sarja.server.journal import Journal, Result, token_hash

    journal = Journal(path)
    number = 0
    for closed, count in ((True, js.closed_tables), (False, js.open_tables)):
        for _ in range(count):
            number += 1
            table_id = f"f{number}"
            journal.table_opened(table_id, number, f"Filled {number}", 4, 2, 6, False, None)
            for seat in range(4):
                guest = f"g{number}x{seat}"
                keys = (token_hash(f"{guest}a"), token_hash(f"{guest}b"))
                journal.guest(guest, f"P{seat}", keys)
                journal.seat(table_id, seat, guest)
            if closed:
                journal.table_closed(table_id)
    for n in range(js.results):
        seats = [(f"r{n}x{s}", f"P{s}", None) for s in range(4)]
        journal.game_recorded(f"r{n}", 1, Result(f"Old {n}", 4, 2, "win", n % 2, 90, seats))
    journal.close()


async def time_unknown_tokens(port: int, n: int) -> list[float]:
    """Seconds from `hello` with an unknown resume token to its refusal, `n` times
    (two a connection: the server cuts a connection that guesses more)."""
    ctx = Ctx(port, 0, QUICK, True)
    rng = random.Random(9)
    patterns = {**BASIC, "unknown": code_pattern("unknown_resume")}
    took: list[float] = []
    while len(took) < n:
        async with trio.open_nursery() as nursery:
            conn = await ctx.connect(nursery, address(A_JOURNAL_PROBE), patterns=patterns)
            if conn is None:
                raise RuntimeError("the token probe could not connect")
            for _ in range(2):
                seen = conn.counts["unknown"]
                began = time.perf_counter()
                await conn.send(hello("Guess", random_token(rng)))
                if not await conn.wait_for(lambda: conn.counts["unknown"] > seen, 10):  # noqa: B023
                    raise RuntimeError("an unknown token was not refused")
                took.append(time.perf_counter() - began)
            await conn.close()
            nursery.cancel_scope.cancel()
    return took


async def unknown_tokens(js: JournalScale, folder: Path) -> dict[str, Any]:
    """The median cost of an unknown resume token, on an empty journal and a full one."""
    figures: dict[str, Any] = {}
    full_dir = folder / "full-data"
    full_dir.mkdir()
    began = time.monotonic()
    await trio.to_thread.run_sync(fill_journal, full_dir / "journal.sqlite3", js)
    figures["full_journal_fill_s"] = round(time.monotonic() - began, 1)
    servers = {}
    for name, data_dir in (("empty", folder / "empty-data"), ("full", full_dir)):
        began = time.monotonic()
        servers[name] = await start_journal_server(data_dir, folder / f"{name}.log")
        figures[f"{name}_journal_start_s"] = round(time.monotonic() - began, 1)
    took: dict[str, list[float]] = {name: [] for name in servers}
    async with trio.open_nursery() as nursery:
        for process, _ in servers.values():
            assert process.stdout is not None
            nursery.start_soon(drain, process.stdout)
        for _, port in servers.values():
            await time_unknown_tokens(port, 10)  # warm up
        # In turns, ten at a time, so the machine's other load falls on both alike.
        while len(took["full"]) < js.probes:
            for name, (_, port) in servers.items():
                took[name] += await time_unknown_tokens(port, 10)
        nursery.cancel_scope.cancel()
    for name, (process, _) in servers.items():
        await stop(process)
        figures[f"unknown_token_ms_{name}"] = round(statistics.median(took[name]) * 1e3, 3)
        figures[f"unknown_token_p99_ms_{name}"] = round(percentile(took[name], 0.99) * 1e3, 3)
    figures["unknown_token_ratio"] = round(
        figures["unknown_token_ms_full"] / figures["unknown_token_ms_empty"], 2
    )
    return figures


async def journal_bounds(quick: bool, folder: Path) -> dict[str, Any]:
    js = JOURNAL_QUICK if quick else JOURNAL_FULL
    print(f"The journal's bounds: a flat-out writer for {js.writer_s:g} s ({js.pairs} pairs,"
          f" {js.churners} table churners)", flush=True)  # fmt: skip
    figures = await flat_out_writer(js, folder)
    print(f"  {figures}", flush=True)
    print(f"Unknown resume tokens: an empty journal, and one filled with {js.closed_tables}"
          f" closed tables, {js.open_tables} open ones (four guests each) and {js.results}"
          " results", flush=True)  # fmt: skip
    tokens = await unknown_tokens(js, folder)
    print(f"  {tokens}", flush=True)
    return figures | tokens


def report_journal(f: dict[str, Any]) -> None:
    checks = [
        ("WAL peak", f"{f['wal_peak_mib']} MiB", f"at most {WAL_TARGET_MIB:g} MiB",
         f["wal_peak_mib"] <= WAL_TARGET_MIB),
        ("unknown token, full / empty journal", f"{f['unknown_token_ratio']}x",
         f"at most {TOKEN_RATIO_TARGET:g}x", f["unknown_token_ratio"] <= TOKEN_RATIO_TARGET),
    ]  # fmt: skip
    print(f"Journal: {f['journal_mib_per_hour']} MiB/h at the flat-out writer's rate"
          f" ({f['journal_bytes_per_game']} bytes per finished game); WAL started over and"
          f" cut back {f['wal_cut_back_seen']} times (seen), truncated between commits"
          f" {f['wal_truncations']} times (median {f['wal_truncate_ms_median']} ms, worst"
          f" {f['wal_truncate_ms_max']} ms)")  # fmt: skip
    for name, value, target, met in checks:
        print(f"  {name}: {value}, target {target}: {'met' if met else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a scaled-down run, for tests")
    parser.add_argument("--player", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--computers-only",
        action="store_true",
        help="only the real game while computers play at many tables",
    )
    parser.add_argument(
        "--search-threads",
        action="store_true",
        help="the server searches in threads, not processes (to compare)",
    )
    parser.add_argument(
        "--search-workers", type=int, default=None,
        help="the server's search workers (default: the server's own)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.player:
        trio.run(play, args.player)
        return
    scale = QUICK if args.quick else FULL
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass
    print(f"Python {sys.version.split()[0]}, trio {trio.__version__}, {os.cpu_count()} CPUs,"
          f" load average {os.getloadavg()[0]:.2f}; "
          + ", ".join(f"{f.name} {getattr(scale, f.name)}" for f in fields(scale)[:4]),
          flush=True)  # fmt: skip
    if args.computers_only:
        with tempfile.TemporaryDirectory(prefix="sarja-computers-") as folder:
            figures = trio.run(
                computers_run, args.quick, Path(folder), args.search_threads, args.search_workers
            )
        computers_report(figures)
        print(json.dumps(figures))
        return
    with tempfile.TemporaryDirectory(prefix="sarja-hostile-") as folder:
        figures = trio.run(run, scale, args.quick, Path(folder))
        figures |= trio.run(journal_bounds, args.quick, Path(folder))
        report(figures, scale)
        report_journal(figures)
        log = Path(folder) / "server.log"
        text = log.read_text(errors="replace")
        first = text.find("Traceback")
        if first >= 0:
            print("The first traceback in the server's log:", file=sys.stderr)
            print(text[max(0, first - 300) : first + 3000], file=sys.stderr)
        # A real game while computers play at many tables, on a server of its own.
        figures |= trio.run(
            computers_run, args.quick, Path(folder), args.search_threads, args.search_workers
        )
        computers_report(figures)
        figures |= trio.run(separate_attacks, args.quick, Path(folder))
        report_separate(figures)
    plain = {
        k: None if isinstance(v, float) and math.isnan(v) else v
        for k, v in figures.items()
        if not k.startswith("_")
    }
    print(json.dumps(plain, default=str))


if __name__ == "__main__":
    main()
