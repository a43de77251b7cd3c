"""`sarja-client HOST:PORT`: play Sarja in this terminal against a server on the LAN."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

from . import model as m
from .app import ClientApp, run_client
from .net import parse_address
from .settings import load_name


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sarja-client",
        description="Play Sarja (Sequence) against a sarja-server on this LAN.",
        epilog="In the game, press ? for every key.",
    )
    parser.add_argument("address", help="the server, as HOST:PORT (the server prints it)")
    parser.add_argument(
        "--name", default=None, help="play under this name (default: ask, or the last one used)"
    )
    args = parser.parse_args(argv)
    try:
        args.host, args.port = parse_address(args.address)
    except ValueError:
        parser.error(f"{args.address!r} is not an address like 192.168.1.20:7474")
    if args.name is not None and not " ".join(args.name.split()):
        parser.error("--name must not be empty")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    model = m.Model(address=f"{args.host}:{args.port}")
    if args.name is not None:
        model.name = model.name_draft = " ".join(args.name.split())[:24]
        model.named = True
    else:
        model.name_draft = load_name()
    client = ClientApp(model, args.host, args.port)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_client(client))
    if model.link == "closed" and model.link_text:
        print(f"sarja-client: {model.link_text}", file=sys.stderr)
