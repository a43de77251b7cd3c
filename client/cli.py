"""`sarja-client HOST:PORT`: play Sarja in this terminal against a server on the LAN.

`sarja-client --replay RECORD.json` steps through a finished game from its record
instead. (A further mode that starts a local server of its own, `--practice`, is meant
to sit beside these two: `main` picks the mode, each mode builds its model and runs.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path

from sarja.protocol.limits import MAX_NAME

from . import model as m
from .app import ClientApp, run_client, run_offline
from .net import address_text, parse_address
from .settings import Settings, settings_path


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sarja-client",
        description="Play Sarja (Sequence) against a sarja-server on this LAN.",
        epilog="In the game, press ? for the rules and every key.",
    )
    parser.add_argument(
        "address", nargs="?", help="the server, as HOST:PORT (the server prints the line to type)"
    )
    parser.add_argument(
        "--name", default=None, help="play under this name (default: ask, or the last one used)"
    )
    parser.add_argument(
        "--replay", type=Path, default=None, metavar="RECORD.json",
        help="step through a finished game from its record (the server keeps them)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.replay is not None:
        if args.address is not None:
            parser.error("give either a server address or --replay, not both")
        return args
    if args.address is None:
        parser.error("the server's address is needed, like: sarja-client 192.168.1.20:7474")
    try:
        args.host, args.port = parse_address(args.address)
    except ValueError:
        parser.error(f"{args.address!r} is not an address like 192.168.1.20:7474")
    if args.name is not None:
        args.name = " ".join(args.name.split())[:MAX_NAME]
        if not args.name or not args.name.isprintable():
            parser.error("--name must be a name people can read")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.replay is not None:
        sys.exit(replay(args.replay))
    settings = Settings(settings_path())
    model = m.Model(address=address_text(args.host, args.port))
    if args.name is not None:
        model.name, model.named = args.name, True
    else:
        model.name = settings.name
    client = ClientApp(model, args.host, args.port, settings=settings)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_client(client))
    if model.link == "closed" and model.link_text:
        print(f"sarja-client: {model.link_text}", file=sys.stderr)
    if model.goodbye:
        print(model.goodbye)


def replay(path: Path) -> int:
    from sarja.server.engine import RecordError

    from .replay import load

    try:
        model = load(path)
    except OSError as err:
        print(f"sarja-client: cannot read {path}: {err.strerror}", file=sys.stderr)
        return 1
    except RecordError as err:
        print(f"sarja-client: {path} is not a game record Sarja can replay: {err.message}",
              file=sys.stderr)  # fmt: skip
        return 1
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_offline(model))
    return 0
