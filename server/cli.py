"""`sarja-server`: host Sarja games on this machine for the LAN."""

from __future__ import annotations

import argparse
import contextlib
import gc
import ipaddress
import logging
import signal
import sys
from dataclasses import replace
from pathlib import Path

import trio

from sarja import lang
from sarja.client.command import client_command
from sarja.lang import _
from sarja.protocol.limits import DEFAULT_PORT, MAX_SERVER_NAME

from .announce import Announcer, waiting_tables
from .app import Server, serve
from .config import ServerConfig
from .datalock import DataDirInUse
from .export import export_main
from .journal import DURABILITY, JournalError
from .lan import lan_addresses
from .records import default_data_dir
from .standings_cli import forget_main, standings_main
from .tls import KeyFileError


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sarja-server",
        description=_("Host Sarja (Sequence) games for players on this LAN."),
        epilog=_(
            "Also: sarja-server export, sarja-server standings, sarja-server forget"
            " (each with --help)."
        ),
    )
    parser.add_argument(
        "--host", default=None, help=_("address to listen on (default: every interface)")
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT,
        help=_("port to listen on (default: %(default)s; 0 picks a free one)"),
    )  # fmt: skip
    parser.add_argument(
        "--data-dir", type=Path, default=None,
        help=_("where games are kept: the journal and records (default: {dir})").format(
            dir=default_data_dir()
        ),
    )  # fmt: skip
    parser.add_argument(
        "--ephemeral", action="store_true",
        help=_(
            "keep nothing: no journal, records or server id on disk (games end with the server)"
        ),
    )  # fmt: skip
    parser.add_argument(
        "--durability", default="normal", choices=DURABILITY,
        help=_("normal: games survive the server being killed (default); full: they also"
        " survive a power cut, at the cost of a disk sync per move"),
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default="warning",
        choices=["debug", "info", "warning", "error"], help=_("how much to log (default: warning)"),
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=None, help=_("make shuffles reproducible (for testing only)")
    )
    parser.add_argument("--name", default="Sarja", help=_("the server's name shown to players"))
    parser.add_argument(
        "--no-discovery", action="store_true",
        help=_("do not announce the server on the LAN (players then type its address)"),
    )  # fmt: skip
    parser.add_argument(
        "--max-per-address", type=int, default=ServerConfig.max_per_address, metavar="N",
        help=_("connections one address may hold at once (default: %(default)s)"),
    )  # fmt: skip
    parser.add_argument(
        "--max-tables", type=int, default=ServerConfig.max_tables, metavar="N",
        help=_("tables open at once; games no one is at make room (default: %(default)s)"),
    )  # fmt: skip
    # For tests: the computer's pause before each move (0: it moves at once).
    parser.add_argument(
        "--computer-pace", type=float, default=ServerConfig.takeover_delay, help=argparse.SUPPRESS
    )
    # For tests and benches: a short stand-in grace (the hand-over wait, in seconds).
    parser.add_argument("--hand-over-after", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument(
        "--computer-tables-per-address", type=int, metavar="N",
        default=ServerConfig.computer_tables_per_address,
        help=_(
            "open tables where computers play that one address may make (default: %(default)s)"
        ),
    )  # fmt: skip
    parser.add_argument(
        "--search-workers", type=int, default=ServerConfig.search_workers, metavar="N",
        help=_("processes for hard computers' searches, shared by every table"
        " (default: %(default)s, the cores less one)"),
    )  # fmt: skip
    parser.add_argument(
        "--search-threads", action="store_true",
        help=_("search in threads of the server's own process (slows people's games; for"
        " measurements only)"),
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.search_workers < 1 or args.computer_tables_per_address < 0:
        parser.error(_("--search-workers must be at least 1, and the table bound at least 0"))
    if not 0 <= args.port <= 65535:
        parser.error(_("--port must be between 0 and 65535"))
    if args.max_tables < 1:
        parser.error(_("--max-tables must be at least 1"))
    if args.ephemeral and args.data_dir is not None:
        parser.error(_("--ephemeral keeps nothing: it takes no --data-dir"))
    return args


def _loopback(host: str | None) -> bool:
    if host == "localhost":
        return True
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


def join_lines(host: str | None, port: int) -> list[str]:
    """The exact commands players type to join: `sarja-client` as this install runs it
    (a venv's `.venv/bin/sarja-client`), since a fresh shell may have none on its PATH."""
    if host not in (None, "", "0.0.0.0", "::"):
        hosts = [host]
    else:
        hosts = lan_addresses() or ["localhost"]
    run = client_command()
    return [f"{run} {h}:{port}" for h in hosts]


async def run(config: ServerConfig, discovery: bool = True) -> None:
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:
            server = await nursery.start(_serve_until_stopped, config, nursery.cancel_scope)
            if discovery:
                nursery.start_soon(_announce, server)
            # What start-up built (modules, restored tables) lives as long as the
            # process: no collector pass need walk it again.
            gc.collect()
            gc.freeze()
            # A move makes thousands of short-lived objects that reference counting
            # frees, and keeps a few: at the default 700 the collector walked the
            # young objects several times a second under load, a quarter of the
            # server's CPU (bench/server.py prints the collector's share). A pass
            # every 50,000 objects kept still frees cycles within a minute; the older
            # generations keep their default ratios.
            gc.set_threshold(50_000, 10, 10)
            print(_("Sarja server {name!r} is listening on port {port}.").format(
                name=config.server_name, port=server.port))  # fmt: skip
            alone = _loopback(config.host)
            if alone:  # no one else can reach it: "on this LAN" would send them looking
                print(_("Only this machine can join (the server listens on {host}):").format(
                    host=config.host))  # fmt: skip
            else:
                print(_("Players on this LAN join with:"))
            for line in join_lines(config.host, server.port):
                print(f"    {line}")
            print(_("The server's key is {code}: each client shows this code when it first"
                    " connects, for players to compare.").format(code=server.key.code))  # fmt: skip
            if discovery and alone:  # announced on that address alone
                print(_("or just run {client} --discover-on {host}: it finds this server.").format(
                    client=client_command(), host=config.host))  # fmt: skip
            elif discovery:
                print(_("or just run {client}: it finds this server on the LAN.").format(
                    client=client_command()))  # fmt: skip
            if config.data_dir is not None:
                print(_("Games are kept in {dir}").format(dir=config.data_dir))
            print(_("Press Ctrl+C to stop."), flush=True)
            async for signum in signals:
                print(stopping_line(signum), flush=True)
                await server.shutdown()
                break
    if server.failure is not None:
        raise JournalError(server.failure)
    if config.data_dir is not None:
        print(
            _("Stopped. Games in progress are kept; start the server again to go on."), flush=True
        )
    else:
        print(_("Stopped."), flush=True)


async def _announce(server: Server) -> None:
    """Announce the server on the LAN while it runs (announce.py)."""
    c = server.config
    announcer = Announcer(
        c.host, server.port, c.server_name, server.lobby.server_id, server.key.fingerprint
    )
    server.list_watchers.append(announcer.changed)
    await announcer.run(lambda: waiting_tables(server.lobby.table_list()))


async def _serve_until_stopped(
    config: ServerConfig,
    everything: trio.CancelScope,
    *,
    task_status: trio.TaskStatus[Server] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve; when the server stops by itself (its journal failed), stop waiting for a
    signal too, so the process exits and a supervisor sees it."""
    await serve(config, task_status=task_status)
    everything.cancel()


def more_file_descriptors() -> None:
    """Each connection holds a file descriptor: take what the system allows, not the
    small default soft limit (1024 on many systems)."""
    try:
        import resource  # POSIX only
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    lang.use(lang.from_environment())  # the host's terminal speaks the host's language
    if argv[:1] == ["export"]:
        sys.exit(export_main(argv[1:]))
    if argv[:1] == ["standings"]:
        sys.exit(standings_main(argv[1:]))
    if argv[:1] == ["forget"]:
        sys.exit(forget_main(argv[1:]))
    args = parse_args(argv)
    more_file_descriptors()
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    config = ServerConfig(
        host=args.host,
        port=args.port,
        data_dir=None if args.ephemeral else args.data_dir or default_data_dir(),
        durability=args.durability,
        max_per_address=args.max_per_address,
        max_tables=args.max_tables,
        computer_tables_per_address=args.computer_tables_per_address,
        search_workers=args.search_workers,
        search_processes=not args.search_threads,
        seed=args.seed,
        takeover_delay=max(0.0, args.computer_pace),
        server_name=args.name.strip()[:MAX_SERVER_NAME] or "Sarja",
    )
    if args.hand_over_after is not None:
        config = replace(config, hand_over_after=max(0.0, args.hand_over_after))
    try:
        trio.run(run, config, not args.no_discovery)
    except Exception as exc:
        reason = host_can_fix(exc, args.port)
        if reason is None:
            raise
        print(f"sarja-server: {reason}", file=sys.stderr)
        sys.exit(1)


def host_can_fix(exc: BaseException, port: int) -> str | None:
    """One line for the host about an error they can fix (the journal, the port),
    found inside the exception groups trio wraps errors in; None for anything else."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            reason = host_can_fix(inner, port)
            if reason is not None:
                return reason
        return None
    if isinstance(exc, JournalError | DataDirInUse | KeyFileError):
        return str(exc)
    if isinstance(exc, OSError):
        return _("cannot listen on port {port}: {why}").format(port=port, why=exc.strerror or exc)
    return None


def stopping_line(signum: int) -> str:
    """What the host reads as the server stops: Ctrl+C in its terminal, or a request to
    stop (SIGTERM, from a service manager or `kill`), in words rather than a signal's name."""
    if signum == signal.SIGINT:
        return _("Ctrl+C: telling players and stopping…")
    return _("Asked to stop: telling players and stopping…")
