"""`sarja-client HOST:PORT`: play Sarja in this terminal against a server on the LAN.

`sarja-client --practice` plays against the computer with a server of its own, in this
process (practice.py); `sarja-client --replay RECORD.json` steps through a finished game
from its record, and `--replay` alone lists the records kept on this machine (kept.py)
to choose from. `main` picks the mode; each mode builds its model and runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path

from sarja import lang
from sarja.lang import _
from sarja.protocol.cards import LEVELS
from sarja.protocol.limits import (
    DEFAULT_PORT,
    MAX_MARKS,
    MAX_MATCH_TO,
    MAX_NAME,
    MIN_MATCH_TO,
)
from sarja.protocol.names import marks_in_a_row, shows_something

from . import model as m
from .app import ClientApp, run_client, run_offline
from .find import add_discover_on
from .find_screen import choose_server
from .kept import Kept, practice_records, recent, server_records
from .net import address_text, parse_address
from .settings import Settings, settings_path
from .typed import readable
from .words import connect as connect_words


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sarja-client",
        description=_("Play Sarja (Sequence) against a sarja-server on this LAN."),
        epilog=_("In the game, press ? for the rules and every key."),
    )
    parser.add_argument(
        "address", nargs="?", help=_("the server, as HOST:PORT (the server prints the line to"
        " type); without it, the servers found on this LAN are listed to choose from"),
    )  # fmt: skip
    add_discover_on(parser)
    parser.add_argument(
        "--accept-new-key", default=None, metavar="HOST:PORT",
        help=connect_words.ACCEPT_NEW_KEY_HELP,
    )  # fmt: skip
    parser.add_argument(
        "--name", default=None, help=_("play under this name (default: ask, or the last one used)")
    )
    parser.add_argument(
        "--replay", nargs="?", const="", default=None, metavar="RECORD.json",
        help=_("step through a finished game from its record; with no file, choose one of"
        " the games kept on this machine (practice games, and a local server's)"),
    )  # fmt: skip
    parser.add_argument(
        "--lang", choices=lang.LANGUAGES, default=None,
        help=_("the language: fi (suomi) or en (English); remembered for next time"
               " (default: the last one chosen, else the environment's: LANGUAGE, LC_ALL,"
               " LC_MESSAGES or LANG)"),
    )  # fmt: skip
    practice = parser.add_argument_group(
        _("playing alone"), _("--practice starts a game against the computer: no server needed")
    )
    practice.add_argument(
        "--practice", action="store_true",
        help=_("play against computer players, on a server this command runs for itself"),
    )  # fmt: skip
    practice.add_argument(
        "--players", type=int, default=2, help=_("seats at the practice table, yours included"
        " (2, 3, 4, 6, 8, 9, 10 or 12; default 2)"),
    )  # fmt: skip
    practice.add_argument(
        "--teams", type=int, default=None,
        help=_("sides at the practice table (default: one per player up to 3, else 2)"),
    )  # fmt: skip
    practice.add_argument(
        "--level", default="medium", choices=LEVELS,
        help=_("how well the computers play (default: medium)"),
    )  # fmt: skip
    practice.add_argument(
        "--match", type=int, default=None, metavar="N",
        help=_("play a match: first side to N game wins ({least}-{most}; default: one game"
        " at a time)").format(least=MIN_MATCH_TO, most=MAX_MATCH_TO),
    )  # fmt: skip
    practice.add_argument(
        "--pace", type=float, default=None, metavar="SECONDS",
        help=_("the computers' pause before each move, so you can follow (default: 0.7)"),
    )  # fmt: skip
    args = parser.parse_args(argv)
    modes = [args.address is not None, args.replay is not None, args.practice]
    if sum(modes) > 1:
        parser.error(_("give one of: a server address, --practice, --replay"))
    if args.replay is not None:
        return args
    if args.practice:
        args.host, args.port = "127.0.0.1", 0
        if args.teams is None:
            args.teams = args.players if args.players <= 3 else 2
        if args.match is not None and not MIN_MATCH_TO <= args.match <= MAX_MATCH_TO:
            parser.error(
                _("--match takes a number of wins from {least} to {most}").format(
                    least=MIN_MATCH_TO, most=MAX_MATCH_TO
                )
            )
        if not practice_shape_ok(args.players, args.teams):
            parser.error(
                _(
                    "a table of {players} players in {teams} sides is not a Sarja game;"
                    " try --players 2, 3 or 4 (or 6, 8, 9, 10, 12 with --teams 2 or 3)"
                ).format(players=args.players, teams=args.teams)
            )
    elif args.address is None and args.accept_new_key is None:
        args.host, args.port = None, None  # the finder asks (find_screen.py)
    else:
        args.host, args.port = _server_address(parser, args.address, args.accept_new_key)
    if args.name is not None:
        args.name = readable(args.name)  # as the name prompt takes it
        if (
            not args.name
            or not args.name.isprintable()
            or not shows_something(args.name)
            or marks_in_a_row(args.name) > MAX_MARKS
        ):
            parser.error(connect_words.NAME_UNREADABLE)
        if len(args.name) > MAX_NAME:
            parser.error(
                _("--name may have at most {most} characters; this one has {length}").format(
                    most=MAX_NAME, length=len(args.name)
                )
            )
    return args


def _server_address(
    parser: argparse.ArgumentParser, address: str | None, accept: str | None
) -> tuple[str, int]:
    """The server to connect to: the address given, or the one --accept-new-key names."""
    found = []
    for text in (address, accept):
        if text is not None:
            try:
                found.append(parse_address(text))
            except ValueError:
                parser.error(connect_words.NOT_AN_ADDRESS.format(address=text, port=DEFAULT_PORT))
    if len(set(found)) > 1:
        parser.error(_("--accept-new-key names the server to connect to: give one address"))
    return found[0]


def practice_shape_ok(players: int, teams: int) -> bool:
    """Whether the server sets up a table of this shape (it says so in `welcome`)."""
    from sarja.server.present import table_shapes

    return any((s.players, s.teams) == (players, teams) for s in table_shapes())


def choose_language(argv: list[str], settings: Settings) -> str:
    """`--lang` if given (and then remembered), else the language chosen last, else the
    environment's. Chosen before the arguments are parsed, so `--help` speaks it too."""
    asked = lang.asked(argv)
    if asked is not None:
        if asked != settings.language:
            settings.save_language(asked)
        return asked
    return settings.language or lang.from_environment()


def main(argv: list[str] | None = None) -> None:
    settings = Settings(settings_path())
    lang.use(choose_language(sys.argv[1:] if argv is None else argv, settings))
    args = parse_args(argv)
    if args.replay is not None:
        sys.exit(replay_given(args.replay))
    need_terminal()
    server = None
    if args.practice:
        from .kept import practice_records
        from .practice import PACE, PracticeServer, practice_table

        pace = PACE if args.pace is None else max(0.0, args.pace)
        server = PracticeServer(pace, records=practice_records())
        try:
            args.port = server.start()
        except RuntimeError as err:
            print(f"sarja-client: {_('the practice server did not start')}: {err}",
                  file=sys.stderr)  # fmt: skip
            sys.exit(1)
    settings = Settings(settings_path())
    if args.host is None:
        found = None
        with contextlib.suppress(KeyboardInterrupt):
            found = asyncio.run(choose_server(args.discover_on, settings.pins, set(settings.held)))
        if found is None:
            return
        args.host, args.port = found.host, found.port
    model = m.Model(address=address_text(args.host, args.port), language=lang.language())
    if server is not None:
        model.practice = practice_table(args.players, args.teams, args.level, args.match)
    if args.name is not None:
        model.name, model.named = args.name, True
    else:
        model.name = settings.name
        # A practice game starts at once under the name last used; it asks only the first time.
        model.named = server is not None and shows_something(settings.name)
    client = ClientApp(
        model, args.host, args.port, settings=settings,
        accept_new_key=args.accept_new_key is not None,
    )  # fmt: skip
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_client(client))
    finally:
        if server is not None:
            server.stop()
    failed = failure(model, client.link.unreachable)
    if failed:
        print(f"sarja-client: {failed}", file=sys.stderr)
    if model.goodbye:
        print(model.goodbye)
    if failed:
        sys.exit(1)


def replay_given(given: str) -> int:
    """`--replay FILE`, or `--replay` alone: one of the games kept here, chosen."""
    if given:
        return replay(Path(given))
    need_terminal()  # the list of kept games is a screen too
    from .words.records import none_kept

    kept = recent()
    if not kept:
        print(f"sarja-client: {none_kept(str(practice_records()), str(server_records()))}",
              file=sys.stderr)  # fmt: skip
        return 1
    path = choose_record(kept)
    return 0 if path is None else replay(path)  # leaving the list is no failure


def need_terminal() -> None:
    """Every screen reads keys: without a terminal prompt_toolkit ends in a traceback."""
    if not sys.stdin.isatty():
        print(_("sarja-client: run it in a terminal; its input is not one."), file=sys.stderr)
        sys.exit(1)


def failure(model: m.Model, unreachable: str = "") -> str:
    """Why the client ended without having played, for the shell (and a non-zero exit
    status): no server reached, something else there, or a session the server ended
    with an error. Quitting on purpose, or from a window another one replaced, is not
    a failure; nor is the server going away after a welcome (the seat is kept)."""
    if model.link == "closed" and model.bye != "replaced":
        return model.link_text
    if model.welcome is None and model.link == "unreachable" and unreachable:
        return unreachable  # the reason alone: "Trying again in 2 s" is over on quitting
    if model.welcome is None and model.link in ("unreachable", "stopped"):
        return model.link_text
    return ""


def choose_record(kept: list[Kept]) -> Path | None:
    """Ask which of the records kept here to replay; None if the player left the list
    (q or Esc, as the replay itself is left, or Ctrl-C)."""
    from prompt_toolkit.application import get_app
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.shortcuts import choice

    from .keybar import keys_line
    from .words.records import choose_keys, choose_prompt, kept_label

    keys = KeyBindings()

    @keys.add("q")
    @keys.add("escape")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError(), style="class:aborting")

    def bar() -> StyleAndTextTuples:  # the key bar at the foot, as the screens have
        return keys_line(choose_keys(), get_app().output.get_size().columns)

    try:
        chosen: Path = choice(choose_prompt(), options=[(k.path, kept_label(k)) for k in kept],
                              default=kept[0].path, key_bindings=keys,
                              bottom_toolbar=bar)  # fmt: skip
    except (KeyboardInterrupt, EOFError):
        return None
    return chosen


def replay(path: Path) -> int:
    from sarja.server.engine import RecordError

    from .record import load

    try:
        model = load(path)
    except OSError as err:
        print(_("sarja-client: cannot read {path}: {why}").format(path=path, why=err.strerror),
              file=sys.stderr)  # fmt: skip
        return 1
    except RecordError as err:
        print(_("sarja-client: {path} is not a game record Sarja can replay: {why}").format(
              path=path, why=err.message), file=sys.stderr)  # fmt: skip
        return 1
    need_terminal()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_offline(model))
    return 0
