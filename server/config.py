"""The server's settings and bounds. Every long-lived thing has a limit here."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sarja.protocol.limits import DEFAULT_PORT


def default_search_workers() -> int:
    """One search worker per core this process may use, less one kept for the event
    loop; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


@dataclass(frozen=True)
class ServerConfig:
    host: str | None = None  # None: every interface (IPv4 and IPv6)
    port: int = DEFAULT_PORT
    data_dir: Path | None = None  # the journal, records and server id; None: nothing kept
    # Where finished games' records go; None: DATA_DIR/records (none without a data
    # directory). The practice server keeps no journal but writes its records here.
    records_dir: Path | None = None
    durability: str = "normal"  # "full" also survives a power cut (journal.py)
    wal_limit: int = 16 * 1024 * 1024  # journal log bytes that set off its truncation
    seed: int | None = None  # reproducible shuffles, for tests only
    server_name: str = "Sarja"
    handshake_timeout: float = 10.0  # seconds to send `hello` after connecting
    # A peer unheard for `ping_interval` is pinged, and dropped once silent for
    # `idle_timeout`. Most peers at a busy server only listen, so each ping is a round
    # trip of work for nothing but liveness: pinged once per timeout, with time to answer.
    ping_interval: float = 20.0
    idle_timeout: float = 30.0
    frame_timeout: float = 10.0  # a frame begun must be whole within this
    max_per_address: int = 256  # connections from one address at once
    send_timeout: float = 10.0  # a peer that takes longer to accept bytes is dropped
    max_queued_bytes: int = 1024 * 1024  # bytes queued for one peer before it counts as stuck
    max_connections: int = 4096
    max_tables: int = 1000
    max_parked: int = 2000  # tables kept in the journal for absent players; oldest closed
    table_list_every: float = 0.25  # the lobby's list is pushed at most this often
    chat_burst: int = 5  # chat lines allowed...
    chat_window: float = 10.0  # ...in this many seconds
    # Each connection's requests, in units of work (server/budget.py: a ping is 1, a
    # `sync` 10): a real client asks a few a second; a flood gets this share, no more.
    request_rate: float = 2000.0  # units a second...
    request_burst: float = 2000.0  # ...saved up to this many
    # Every connection from one address together: this many connections' worth (a
    # machine running a few bots, or a family's clients behind one router).
    address_request_share: float = 4.0
    move_burst: int = 10  # joins, watches and leaves allowed...
    move_window: float = 30.0  # ...in this many seconds
    sweep_every: float = 30.0  # how often idle seats and deserted games are looked for
    ready_timeout: float = 180.0  # a full table waits this long on a player not ready
    abandon_after: float = 600.0  # a game every player has left is parked after this
    # ...and one with a turn clock and no stand-in level after this, counted from the
    # sweep that first finds it so: parked at the next sweep, within a minute of the
    # last player going, before their clocks (which wait out the stand-in grace) run.
    clock_abandon_after: float = 15.0
    shutdown_grace: float = 1.0  # seconds for goodbyes to reach clients
    takeover_delay: float = 1.0  # the computer's pause before each move it makes
    computer_budget: float = 2.0  # the longest a computer's move takes, pause included
    think_time: float | None = None  # hard's search per move; None: the bots' default
    # An away seat may be handed to the computer after this, and the stand-in plays it
    # only after this (counted from the restart, after one).
    hand_over_after: float = 60.0
    draw_grace: float = 8.0  # a computer waits this long for the previous seat's draw
    # Open tables where the computer may play or advise (computer seats, a level standing
    # in for away players, a turn clock, hints) that guests from one address may have
    # made; a finished game frees a place, and no game starts past it (a rematch too).
    computer_tables_per_address: int = 4
    # Hints one address may ask for (each may start a search)...
    hint_burst: int = 10
    hint_window: float = 60.0  # ...in any this many seconds
    # Hard's searches run in this many workers, shared by every table; a hard seat that
    # finds none free in time plays at medium. Processes, so searches never hold the
    # event loop's GIL; threads (False) only for tests and measurements.
    search_workers: int = default_search_workers()
    search_processes: bool = True
