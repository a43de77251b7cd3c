"""`sarja-bot HOST:PORT --level L`: a computer player as a process of its own.

It speaks only the public protocol, as any client would (docs/protocol.md), through
the one client session (`ClientSession`: the codec, the game's `GameMirror` from the
snapshot and the updates, sync on a gap, action ids, pongs), builds the engine's
`SeatView` for its seat from that picture alone (`seat_view_of`), lets a level of
`sarja.server.bots` choose in a worker thread, and sends the choice as the action
message it is. So a bot can sit at any Sarja server on the LAN, on another machine,
and what it knows is exactly what a person in its seat would.

Where it sits: with `--table NAME`, at the table of that name, as names are compared
(protocol/names.py: `friday` is `Friday`; it creates the table,
for `--players` and `--teams`, if there is none; it waits if that table has no free
seat); without, at the first table that has a free seat and no game yet, waiting
until one has (saying once that it waits). It readies at once. After each game it asks
for a rematch while it has games left to play (`--games`, default 1), else it leaves
the table and exits 0. It exits 1 when the server refuses it for good or the
connection ends.

It trusts the server no more than the server trusts it: a message that does not fit
the game (`ServerProtocolError` from the mirror) ends it with one line on stderr and
exit status 1, never a traceback; and what it keeps of a game is bounded (the mirror's
piles by the deck, its history by HISTORY_KEPT).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable
from typing import assert_never

import trio

from sarja import lang
from sarja.protocol import changes as ch
from sarja.protocol.cards import LEVELS, five_cells
from sarja.protocol.changes import Change
from sarja.protocol.client_session import ClientSession, Event
from sarja.protocol.discovery import Found
from sarja.protocol.errors import ProtocolError
from sarja.protocol.limits import (
    DEFAULT_PORT,
    MAX_NAME,
    MAX_SEATS,
    MAX_TABLE_NAME,
    PROTOCOL_VERSION,
)
from sarja.protocol.messages import (
    Ack,
    Bye,
    ClientMessage,
    CreateTable,
    Error,
    Hand,
    Hello,
    Join,
    Leave,
    Legal,
    ListTables,
    Ready,
    Rematch,
    Snapshot,
    TableList,
    TableView,
    Update,
    Welcome,
)
from sarja.protocol.mirror import GameMirror, ServerProtocolError
from sarja.protocol.names import same_name, shows_something
from sarja.server.bots import make_player
from sarja.server.bots.inference import LOOK_BACK
from sarja.server.bots.search import DEFAULT_THINK_TIME
from sarja.server.engine import Action, EngineError
from sarja.server.engine.actions import EXCHANGE, PLACE, REMOVE
from sarja.server.engine.cards import parse_card
from sarja.server.engine.view import SeatView

from .find import add_discover_on, find_servers
from .net import address_text
from .settings import Settings, settings_path
from .typed import readable
from .words import bot as words
from .words import connect as connect_words
from .words import find as say_find
from .words import refusals

RECEIVE_SIZE = 65536
# Plays kept from the updates. Hard reads back LOOK_BACK plays of each other seat: in
# LOOK_BACK rounds of at most 12 seats, each turn a play and perhaps an exchange, so
# this many entries hold all it reads; a longer game keeps only its newest plays.
HISTORY_KEPT = 2 * LOOK_BACK * MAX_SEATS


def plays_in(changes: Iterable[Change]) -> list[tuple[int, Action]]:
    """The plays and exchanges an update tells of, as the engine's history holds
    them (without chosen fives): what hard reads the other sides' hands from."""
    plays = []
    for c in changes:
        match c:
            case ch.Played(seat=seat, card=card, cell=cell):
                plays.append((seat, Action(PLACE, parse_card(card), cell)))
            case ch.Removed(seat=seat, card=card, cell=cell):
                plays.append((seat, Action(REMOVE, parse_card(card), cell)))
            case ch.Exchanged(seat=seat, card=card):
                plays.append((seat, Action(EXCHANGE, parse_card(card))))
            case (
                ch.Drew() | ch.NoDraw() | ch.Reshuffled() | ch.DrawForfeited() | ch.Passed()
                | ch.SequenceMade() | ch.Won() | ch.DrawnGame() | ch.Away() | ch.Back()
            ):  # fmt: skip
                pass
            case _:
                assert_never(c)
    return plays


def seat_view_of(mirror: GameMirror, history: tuple[tuple[int, Action], ...] = ()) -> SeatView:
    """The engine's view of the mirror's seat, built from what the server sent it:
    the same as the server's `seat_view` for that seat, but for `version` (the
    protocol's), `last` (without manual draws or chosen fives), `choices` (each
    cell's options as one line of whole choices) and `history`: what the caller
    saw (`plays_in`), its plays and exchanges since its last snapshot."""
    seat = mirror.seat
    if seat is None:
        raise ValueError("a spectator has no seat to play")
    cards = sorted(zip((parse_card(c) for c in mirror.hand), mirror.targets, strict=True))
    last = mirror.last
    return SeatView(
        seat=seat,
        version=mirror.version,
        sides=mirror.sides,
        needed=mirror.needed,
        hand_size=mirror.rules.hand_size,
        manual_draw=mirror.rules.manual_draw,
        seat_sides=tuple(p.side for p in mirror.players),
        hand=tuple(card for card, _ in cards),
        targets=tuple(tuple(t) for _, t in cards),
        dead=tuple(sorted({parse_card(c) for c in mirror.dead})),
        held=tuple(p.held for p in mirror.players),
        board="".join(mirror.board),
        discard=tuple(parse_card(c) for c in mirror.discard),
        draw_size=mirror.draw_size,
        sequences=tuple(tuple(five_cells(f) for f in side) for side in mirror.sequences),
        turn=mirror.turn,
        first=mirror.first,
        cut=tuple(tuple((s, parse_card(c)) for s, c in r) for r in mirror.cut),
        last=None if last is None else (last.seat, Action.parse(last.action)),
        legal=tuple(Action.parse(a) for a in mirror.legal),
        choices=tuple(
            (c.cell, (tuple(tuple(five_cells(f) for f in option) for option in c.options),))
            for c in mirror.choices
        ),
        exchanged=mirror.exchanged,
        pending_draw=mirror.pending_draw,
        passes=mirror.passes,
        outcome=None,
        revealed_hands=None,
        history=history,
    )


class Finished(Exception):
    """The bot is done: `code` is its exit status, `why` what it says."""

    def __init__(self, code: int, why: str) -> None:
        super().__init__(why)
        self.code = code
        self.why = why


class RemoteBot:
    """One bot's connection and what it does with what the server sends."""

    def __init__(
        self, host: str, port: int, level: str, name: str, table: str | None = None,
        games: int = 1, players: int = 2, teams: int | None = None,
        think_time: float | None = None, seed: int | None = None,
        say: Callable[[str], None] = lambda line: None,
        complain: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        self.host, self.port = host, port
        self.name = name
        self.level = level  # said in `hello`, so the table shows the seat as a computer's
        self.table_name = table
        self.games = games
        self.players = players
        self.teams = teams or (players if players <= 3 else 2)
        self.player = make_player(level, seed=seed, think_time=think_time)
        self.say = say
        self.complain = complain or say  # why it stopped, when it stops on a failure
        self.session = ClientSession()
        self.stream: trio.SocketStream | None = None
        # The plays seen since the last snapshot; none under the manual draw, where
        # the draws taken count too (inference.py) and are not gathered.
        self.history: deque[tuple[int, Action]] = deque(maxlen=HISTORY_KEPT)
        self.asked_at: int | None = None  # the version we last sent an action for
        self.created = False
        self.asking = False  # a join or create is on its way: wait for its answer
        self.waiting_said = False  # said that it waits for a seat, since it last sat
        self.played = 0  # games finished at our table
        self.results: Counter[str] = Counter()  # "won", "lost" or "draw": how many of each
        self.leaving = False

    @property
    def mirror(self) -> GameMirror | None:
        """The game, as the session keeps it."""
        return self.session.game

    @property
    def table(self) -> TableView | None:
        return self.session.table

    async def run(self) -> int:
        """Play until done; the exit status."""
        try:
            self.stream = await trio.open_tcp_stream(self.host, self.port)
        except OSError as err:
            self.complain(
                words.UNREACHABLE.format(
                    address=f"{self.host}:{self.port}", why=str(err.strerror or err)
                )
            )
            return 1
        async with self.stream:
            try:
                hello = Hello(version=PROTOCOL_VERSION, name=self.name, computer=self.level)
                await self.send(hello)
                while True:
                    data = await self.stream.receive_some(RECEIVE_SIZE)
                    self.session.receive_data(data)
                    while (event := self.session.next_event()) is not None:
                        await self.take(event)
                        await self.stream.send_all(self.session.data_to_send())
                    if not data:
                        raise Finished(1, words.SERVER_CLOSED)
            except Finished as done:
                (self.say if done.code == 0 else self.complain)(done.why)
                return done.code
            except ServerProtocolError as err:
                self.complain(words.UNUSABLE.format(why=f"{err.code}: {err.message}"))
                return 1
            except ProtocolError as err:
                self.complain(words.NOT_UNDERSTOOD.format(why=str(err)))
                return 1
            except (trio.BrokenResourceError, OSError) as err:
                self.complain(words.BROKE.format(why=str(err)))
                return 1

    async def send(self, msg: ClientMessage) -> None:
        assert self.stream is not None
        await self.stream.send_all(self.session.send(msg))

    async def take(self, event: Event) -> None:
        """Act on one message from the server, once the session took it in (a gap or
        a message set aside needs nothing: the session asked for a snapshot)."""
        match msg := event:
            case Welcome():
                await self.send(ListTables())
            case TableList():
                if self.leaving:
                    raise Finished(0, self.summary())
                await self.find_seat(msg)
            case TableView():
                self.asking = False
                if msg.seat is not None:
                    self.waiting_said = False
                if msg.seat is not None and not msg.started and not msg.seats[msg.seat].ready:
                    await self.send(Ready(ready=True))
            case Snapshot():
                self.history.clear()  # what came before it is not all known
                self.asked_at = None
                await self.after_change()
            case Update() | Hand() | Legal() | Ack():
                await self.game_moved(msg)
            case Error():
                self.refused(msg)
            case Bye():
                raise Finished(1, words.SERVER_BYE.format(message=msg.message))
            case _:
                pass  # notices and chat; gaps and the like: the session saw to them

    async def game_moved(self, msg: Update | Hand | Legal | Ack) -> None:
        """The game moved on (the session's mirror took it in): choose, if it is ours."""
        if self.mirror is None:
            return
        if isinstance(msg, Update) and not self.mirror.rules.manual_draw:
            self.history.extend(plays_in(msg.changes))
        await self.after_change()

    def refused(self, msg: Error) -> None:
        self.asking = False  # a refused join: the next list may offer another
        if msg.fatal:
            raise Finished(1, words.REFUSED.format(sentence=refusals.said(msg.code, msg.message)))
        if msg.code == "stale_version":
            return  # a snapshot follows, and the bot chooses again from it
        self.say(words.TOLD.format(sentence=refusals.said(msg.code, msg.message)))
        if msg.id is not None and self.mirror is not None:
            self.asked_at = None  # choose again, from a fresh picture
            self.session.request_sync()

    async def find_seat(self, tables: TableList) -> None:
        """A seat: at the named table (created if need be), or the first free one;
        else say, once, that it waits for one."""
        if self.table is not None or self.asking:
            return
        open_ = [t for t in tables.tables if not t.started and None in t.seated]
        # The table's name as the server compares names: `--table friday` is Friday.
        wanted = self.table_name
        named = [t for t in open_ if wanted is None or same_name(t.name, wanted)]
        there = [t for t in tables.tables if wanted is not None and same_name(t.name, wanted)]
        if named:
            self.asking = True
            await self.send(Join(table=named[0].id))
        elif wanted is not None and not self.created and not there:
            self.created = self.asking = True
            await self.send(CreateTable(name=wanted, players=self.players, teams=self.teams))
        elif not self.waiting_said:
            self.waiting_said = True
            if wanted is None:
                self.say(words.WAITING)
            else:
                self.say(words.WAITING_AT.format(table=there[0].name if there else wanted))

    async def after_change(self) -> None:
        """Move if it is ours to; after a game, ask for another or leave."""
        game = self.mirror
        if game is None:
            return
        if game.result is not None:
            if self.asked_at != -1:
                self.asked_at = -1
                await self.game_over(game)
            return
        if not game.legal or self.asked_at == game.version:
            return
        self.asked_at = game.version
        try:
            view = seat_view_of(game, tuple(self.history))
            action = await trio.to_thread.run_sync(self.player.choose, view)
        except (EngineError, ValueError, LookupError, AssertionError) as err:
            # The view is all the server's: a picture no game can be in (which the
            # mirror's checks let through) is the server's fault, not a crash of ours.
            raise ServerProtocolError(f"{words.NO_MOVE} ({type(err).__name__}: {err})") from err
        await self.send(self.session.action(str(action)))

    async def game_over(self, game: GameMirror) -> None:
        result = game.result
        assert result is not None and game.seat is not None
        if result.side is None:
            outcome = "draw"
        else:
            outcome = "won" if game.players[game.seat].side == result.side else "lost"
        self.results[outcome] += 1
        self.played += 1
        self.say(words.game_result(self.played, outcome))
        if self.played < self.games:
            await self.send(Rematch())
        else:
            self.leaving = True
            await self.send(Leave())

    def summary(self) -> str:
        counts = self.results
        return words.SUMMARY.format(
            n=self.played, won=counts["won"], lost=counts["lost"], drawn=counts["draw"]
        )


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sarja-bot",
        description=words.DESCRIPTION,
        epilog=words.EPILOG,
    )
    parser.add_argument(
        "address", nargs="?", default=None,
        help=words.HELP["address"],
    )  # fmt: skip
    add_discover_on(parser)
    parser.add_argument(
        "--server-name", default=None, metavar="NAME",
        help=words.HELP["server-name"],
    )  # fmt: skip
    parser.add_argument("--level", default="medium", choices=LEVELS, help=words.HELP["level"])
    parser.add_argument("--table", default=None, help=words.HELP["table"])
    parser.add_argument("--name", default=None, help=words.HELP["name"])
    parser.add_argument("--games", type=int, default=1, help=words.HELP["games"])
    parser.add_argument("--players", type=int, default=2, help=words.HELP["players"])
    parser.add_argument("--teams", type=int, default=None, help=words.HELP["teams"])
    parser.add_argument(
        "--think-time", type=float, default=None,
        help=words.HELP["think-time"].format(seconds=DEFAULT_THINK_TIME),
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help=words.HELP["seed"])
    parser.add_argument("--lang", choices=lang.LANGUAGES, default=None, help=words.HELP["lang"])
    args = parser.parse_args(argv)
    args.host, args.port = None, None  # none given: found on the LAN (main)
    if args.address is not None:
        host, _, port = args.address.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            parser.error(
                connect_words.NOT_AN_ADDRESS.format(address=args.address, port=DEFAULT_PORT)
            )
        args.host, args.port = host.strip("[]"), int(port)
    args.name = readable(args.name or f"{args.level.capitalize()} bot")[:MAX_NAME]
    if not args.name or not args.name.isprintable() or not shows_something(args.name):
        parser.error(connect_words.NAME_UNREADABLE)
    if args.table is not None:
        args.table = args.table.strip()  # as the server strips it, so the lobby's matches
        table_ok = 0 < len(args.table) <= MAX_TABLE_NAME and args.table.isprintable()
        if not table_ok or not shows_something(args.table):
            parser.error(words.TABLE_UNREADABLE.format(most=MAX_TABLE_NAME))
    if args.games < 1:
        parser.error(words.GAMES_AT_LEAST)
    return args


def main(argv: list[str] | None = None) -> None:
    lang.use(choose_language(sys.argv[1:] if argv is None else argv))
    args = parse_args(argv)

    def say(line: str) -> None:
        print(f"sarja-bot {args.name}: {line}", flush=True)

    def complain(line: str) -> None:
        print(f"sarja-bot {args.name}: {line}", file=sys.stderr, flush=True)

    if args.host is None:
        found = find_one(args.discover_on, args.server_name, complain)
        if found is None:
            sys.exit(1)
        args.host, args.port = found.host, found.port
    bot = RemoteBot(
        args.host, args.port, args.level, args.name, args.table, args.games, args.players,
        args.teams, args.think_time, args.seed, say, complain,
    )  # fmt: skip
    try:
        sys.exit(trio.run(bot.run))
    except KeyboardInterrupt:
        sys.exit(130)


def choose_language(argv: list[str]) -> str:
    """As sarja-client chooses: `--lang`, else the language chosen last in the client,
    else the environment's; before the arguments are parsed, so `--help` speaks it too.
    A bot's `--lang` is not remembered: the settings are the player's."""
    return lang.asked(argv) or Settings(settings_path()).language or lang.from_environment()


FIRST_WITHIN = 10.0  # seconds to wait for a server to be found...
MORE_FOR = 1.5  # ...and then for others, so "the one server" is not just the quickest


def find_one(
    interface: str | None, name: str | None, complain: Callable[[str], None]
) -> Found | None:
    """The one server found on the LAN (of that name, if given), said on stderr; None,
    having said why, when there is none or several."""
    servers = asyncio.run(find_servers(interface, FIRST_WITHIN, MORE_FOR))
    if name is not None:
        servers = [s for s in servers if s.name == name]
    if len(servers) == 1:
        complain(
            say_find.BOT_JOINS.format(
                name=servers[0].name, address=address_text(servers[0].host, servers[0].port)
            )
        )
        return servers[0]
    if not servers:
        complain(say_find.BOT_NONE.format(example=f"sarja-bot 192.168.1.20:{DEFAULT_PORT}"))
        return None
    complain(say_find.bot_several(len(servers)))
    for s in servers:
        complain(f"    sarja-bot {address_text(s.host, s.port)}    ({s.name})")
    return None


if __name__ == "__main__":
    main()
