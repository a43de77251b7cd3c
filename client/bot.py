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
for a rematch while it has games left to play (`--games`, default 1; at a table that
plays a match, it plays each match out and `--games` counts matches), else it leaves
the table and exits 0. Its connection is the terminal client's `Link` (net.py): after a
drop or a server restart it connects again and takes its seat back as the client does
(resume.py). It exits 1 when the server cannot be reached at the start, is not back
within RECONNECT_TRIES tries, or refuses it for good.

It trusts the server no more than the server trusts it: a message that does not fit
the game (`ServerProtocolError` from the mirror), or a frame the codec refuses as fatal
(too large, empty), ends it with one line on stderr and exit status 1, never a
traceback; and what it keeps of a game is bounded (the mirror's piles by the deck, its
history by HISTORY_KEPT).
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
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
from sarja.protocol.limits import DEFAULT_PORT, MAX_MARKS, MAX_NAME, MAX_SEATS, MAX_TABLE_NAME
from sarja.protocol.messages import (
    Ack,
    Bye,
    ClientMessage,
    CreateTable,
    Error,
    Hand,
    Join,
    Leave,
    Legal,
    ListTables,
    Pong,
    Ready,
    Rematch,
    ServerMessage,
    Snapshot,
    TableList,
    TableView,
    Update,
    Welcome,
)
from sarja.protocol.mirror import GameMirror, ServerProtocolError
from sarja.protocol.names import marks_in_a_row, same_name, shows_something
from sarja.protocol.session import SessionState
from sarja.server.bots import make_player
from sarja.server.bots.inference import LOOK_BACK
from sarja.server.bots.search import DEFAULT_THINK_TIME
from sarja.server.engine import Action, EngineError
from sarja.server.engine.actions import EXCHANGE, PLACE, REMOVE
from sarja.server.engine.cards import parse_card
from sarja.server.engine.view import SeatView

from . import resume
from .find import add_discover_on, find_servers
from .net import BACKOFF, Link, address_text
from .resume import Tokens
from .settings import Settings, settings_path
from .typed import readable
from .words import bot as words
from .words import connect as connect_words
from .words import find as say_find
from .words import refusals

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


# Tries in a row to connect again after a drop (or a server restart) before giving up:
# with the link's pauses, 0.5 s doubling to 8 s, each cut by up to half: one to two minutes.
RECONNECT_TRIES = 20


class RemoteBot:
    """One bot's connection and what it does with what the server sends.

    The connection is the terminal client's `Link` (net.py): it connects, says hello
    (with the bot's level), and connects again by itself after a drop; after each
    `welcome` the bot takes its seat back as the client does (resume.py), keeping its
    tokens in memory only. It gives up (exit 1, one line on stderr) when the first
    connection fails, when a connection dropped is not welcomed again within `tries`
    tries, and on a refusal for good (a fatal error, `bye` `replaced`)."""

    def __init__(
        self, host: str, port: int, level: str, name: str, table: str | None = None,
        games: int = 1, players: int = 2, teams: int | None = None,
        think_time: float | None = None, seed: int | None = None,
        say: Callable[[str], None] = lambda line: None,
        complain: Callable[[str], None] | None = None,
        backoff: tuple[float, ...] = BACKOFF, tries: int = RECONNECT_TRIES,
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
        self.tokens = Tokens()  # never written down: the settings are the player's
        self.link = Link(
            host, port, name=lambda: self.name, on_message=self._message,
            on_link=self._on_link, backoff=backoff, session=self.session, computer=level,
        )  # fmt: skip
        self.tries = tries
        self.failed = 0  # tries in a row since the last welcome
        self.dropped = False  # said that the connection dropped; "connected again" is due
        self.server_said = ""  # the `bye` that closed the connection, in our language
        # The plays seen since the last snapshot; none under the manual draw, where
        # the draws taken count too (inference.py) and are not gathered.
        self.history: deque[tuple[int, Action]] = deque(maxlen=HISTORY_KEPT)
        self.asked_at: int | None = None  # the version we last chose an action for
        self.thinking = False  # a choice is being made (in a worker thread)
        self.created = False
        self.asking = False  # a join or create is on its way: wait for its answer
        self.waiting_said = False  # said that it waits for a seat, since it last sat
        self.played = 0  # games finished at our table
        self.matches = 0  # matches decided at our table (`games` counts them at one)
        self.counted: tuple[str, int, object] | None = None  # the game last counted
        # What it asked after the last game (rematch or leave), and on which connection:
        # a seat taken back on another is asked again.
        self.after_game: Rematch | Leave | None = None
        self.after_game_on = 0
        self.results: Counter[str] = Counter()  # "won", "lost" or "draw": how many of each
        self.leaving = False
        self._done: Finished | None = None
        self._ended: trio.Event | None = None
        self._nursery: trio.Nursery | None = None

    @property
    def mirror(self) -> GameMirror | None:
        """The game, as the session keeps it."""
        return self.session.game

    @property
    def table(self) -> TableView | None:
        return self.session.table

    @property
    def address(self) -> str:
        return address_text(self.host, self.port)

    async def run(self) -> int:
        """Play until done; the exit status."""
        self._ended = trio.Event()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self.link.run)
            await self._ended.wait()
            nursery.cancel_scope.cancel()
        done = self._done
        assert done is not None
        (self.say if done.code == 0 else self.complain)(done.why)
        return done.code

    def _finish(self, done: Finished) -> None:
        if self._done is None:
            self._done = done
            if self._ended is not None:
                self._ended.set()

    def _guarded(self, act: Callable[[], None]) -> None:
        """Do `act`; what ends the bot there ends it, with its line."""
        try:
            act()
        except Finished as done:
            self._finish(done)
        except ServerProtocolError as err:
            self._finish(_unusable(err))

    def send(self, msg: ClientMessage) -> None:
        self.link.send(msg)

    # ----- the link's callbacks -------------------------------------------------------

    def _message(self, msg: ServerMessage, state: SessionState) -> None:
        """A message from the server, taken into the session, then acted on."""
        if self._done is not None:
            return

        def take() -> None:
            self.take(self.session.take(msg), state)
            for reply in self.session.replies():  # pongs, a sync
                self.send(reply)

        self._guarded(take)

    def _on_link(self, kind: str, text: str) -> None:
        """The link's news: connecting, online, unreachable, reconnecting, stopped or
        closed (net.py)."""
        if self._done is not None:
            return
        if kind != "online":
            self.tokens.resuming = False  # a resume sent on the last connection is lost
        if kind == "unusable":  # a frame no server may send: it is trusted no further
            self._finish(Finished(1, words.UNUSABLE.format(why=text)))
        elif kind == "online" and text and text != connect_words.NOT_CONNECTED_NOW:
            # A line worth saying (a message not understood). A move not sent while the
            # connection was down is not: the seat taken back brings the turn again.
            self.say(text)
        elif kind == "unreachable":
            # Never welcomed: a wrong address, or no server there yet.
            why = self.server_said or self.link.last_error
            self._finish(Finished(1, words.UNREACHABLE.format(address=self.address, why=why)))
        elif kind == "reconnecting" and text:
            self.failed += 1
            # A `bye` says why the connection closed; why a try failed is the link's.
            said, self.server_said = self.server_said, ""
            why = said or self.link.last_error
            if self.failed > self.tries:
                self._finish(Finished(1, words.gave_up(self.tries, self.address, why)))
            elif not self.dropped:
                self.dropped = True
                if said:
                    self.say(words.SERVER_LEFT.format(message=said))
                else:
                    self.say(words.DROPPED.format(why=why))
        elif kind in ("stopped", "closed"):
            self._finish(Finished(1, text))

    # ----- what the server says -------------------------------------------------------

    def take(self, event: Event, state: SessionState) -> None:
        """Act on one message from the server, once the session took it in (a gap or
        a message set aside needs nothing: the session asked for a snapshot)."""
        match msg := event:
            case Welcome():
                self._welcomed(msg)
            case Pong():
                if resume.no_seat_back(msg, state):
                    self._seat_gone()
            case TableList():
                if self.leaving:
                    raise Finished(0, self.summary())
                self.find_seat(msg)
            case TableView():
                self._at_table(msg)
            case Snapshot():
                self.history.clear()  # what came before it is not all known
                self.asked_at = None
                self.after_change()
            case Update() | Hand() | Legal() | Ack():
                self.game_moved(msg)
            case Error():
                self.refused(msg)
            case Bye():
                said = refusals.said(msg.code, msg.message)
                if msg.code == "replaced":  # someone took this bot's seat with its token
                    raise Finished(1, words.SERVER_BYE.format(message=said))
                self.server_said = said  # the line about the drop says why
            case _:
                pass  # notices and chat; gaps and the like: the session saw to them

    def _welcomed(self, msg: Welcome) -> None:
        self.failed, self.server_said = 0, ""
        if self.dropped:
            self.dropped = False
            self.say(words.CONNECTED_AGAIN)
        key = self.session.peer_key
        if not resume.pinned(self.tokens.pins, msg.server_id, key):
            # Another key than this server showed before: someone pretending to be it.
            raise Finished(1, connect_words.key_changed(self.address, msg.server, key))
        reply = resume.welcomed(self.tokens, self.name, msg, key)
        if reply is not None:
            self.send(reply)  # the seat back, or the ping that says whether it came
        else:
            self._afresh()

    def _seat_gone(self) -> None:
        """The resume brought no seat back (the game ended, or the server forgot it)."""
        if self.table is not None and not self.leaving:
            self.say(words.SEAT_GONE)
        self._afresh()

    def _afresh(self) -> None:
        """A guest in the lobby with no seat kept: find one as at the start."""
        self.asking = False
        self.created = False  # the table we made may have gone with the guest we were
        self.send(ListTables())

    def _at_table(self, msg: TableView) -> None:
        self.asking = False
        if msg.seat is None:
            return
        self.waiting_said = False
        if not msg.started and not msg.seats[msg.seat].ready:
            self.send(Ready(ready=True))
            return
        game = self.mirror
        ended = game is not None and game.result is not None
        if msg.match is not None and self.after_game is None and ended:
            self._after_match_game(msg)  # the table's score moved with the game's end
            return
        asked = self.after_game
        if asked is None or self.after_game_on == self.link.connections:
            return
        # The seat came back on a new connection after the game: ask again.
        if isinstance(asked, Leave) or msg.seat not in msg.rematch:
            self.after_game_on = self.link.connections
            self.send(asked)

    def game_moved(self, msg: Update | Hand | Legal | Ack) -> None:
        """The game moved on (the session's mirror took it in): choose, if it is ours."""
        if self.mirror is None:
            return
        if isinstance(msg, Update) and not self.mirror.rules.manual_draw:
            self.history.extend(plays_in(msg.changes))
        self.after_change()

    def refused(self, msg: Error) -> None:
        key = self.session.peer_key
        if msg.code == "unknown_resume" and resume.refused(self.tokens, key, self.name):
            self._seat_gone()
            return
        self.asking = False  # a refused join: the next list may offer another
        if msg.fatal:
            raise Finished(1, words.REFUSED.format(sentence=refusals.said(msg.code, msg.message)))
        if msg.code == "stale_version":
            return  # a snapshot follows, and the bot chooses again from it
        self.say(words.TOLD.format(sentence=refusals.said(msg.code, msg.message)))
        if msg.id is not None and self.mirror is not None:
            self.asked_at = None  # choose again, from a fresh picture
            self.session.request_sync()

    def find_seat(self, tables: TableList) -> None:
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
            self.send(Join(table=named[0].id))
        elif wanted is not None and not self.created and not there:
            self.created = self.asking = True
            self.send(CreateTable(name=wanted, players=self.players, teams=self.teams))
        elif not self.waiting_said:
            self.waiting_said = True
            if wanted is None:
                self.say(words.WAITING)
            else:
                self.say(words.WAITING_AT.format(table=there[0].name if there else wanted))

    def after_change(self) -> None:
        """Move if it is ours to; after a game, ask for another or leave."""
        game = self.mirror
        if game is None:
            return
        if game.result is not None:
            # Counted once, however often a resume brings the finished game back.
            ended = (game.table, game.version, game.cut)
            if self.counted != ended:
                self.counted = ended
                self.game_over(game)
            return
        self.after_game = None  # a game in play: what was asked after the last is done
        if not game.legal or self.asked_at == game.version or self.thinking:
            return
        self.asked_at = game.version
        try:
            view = seat_view_of(game, tuple(self.history))
        except (EngineError, ValueError, LookupError, AssertionError) as err:
            raise _no_move(err) from err
        self.thinking = True
        assert self._nursery is not None
        self._nursery.start_soon(self._choose, view)

    async def _choose(self, view: SeatView) -> None:
        """Let the level choose in a worker thread, then play it if the game is
        still where it was (else choose again from where it is now)."""
        try:
            action = await trio.to_thread.run_sync(self.player.choose, view)
        except (EngineError, ValueError, LookupError, AssertionError) as err:
            # The view is all the server's: a picture no game can be in (which the
            # mirror's checks let through) is the server's fault, not a crash of ours.
            self._finish(_unusable(_no_move(err)))
            return
        finally:
            self.thinking = False
        game = self.mirror
        if game is not None and game.version == view.version and self.asked_at == view.version:
            self.send(self.session.action(str(action)))
        else:
            self._guarded(self.after_change)

    def game_over(self, game: GameMirror) -> None:
        result = game.result
        assert result is not None and game.seat is not None
        if result.side is None:
            outcome = "draw"
        else:
            outcome = "won" if game.players[game.seat].side == result.side else "lost"
        self.results[outcome] += 1
        self.played += 1
        self.say(words.game_result(self.played, outcome))
        table = self.table
        if table is not None and table.match is not None:
            self._after_match_game(table)
        else:
            self._another_or_leave(self.played)

    def _after_match_game(self, table: TableView) -> None:
        """A game of a match ended: ready for its next game until the match is decided,
        then another match or leave (`--games` counts matches here). The table that
        says so follows the game's end (its score moved); one from before it, with our
        seat still ready from the game's start, is waited out."""
        match, seat = table.match, table.seat
        if match is None or seat is None:
            self._another_or_leave(self.played)
        elif match.over:
            self.matches += 1
            self._another_or_leave(self.matches)
        elif not table.seats[seat].ready:  # between two games of the match
            self._ask(Rematch())  # the server takes it as ready for the next game

    def _another_or_leave(self, done: int) -> None:
        if done < self.games:
            self._ask(Rematch())
        else:
            self.leaving = True
            self._ask(Leave())

    def _ask(self, msg: Rematch | Leave) -> None:
        self.after_game = msg
        self.after_game_on = self.link.connections
        self.send(msg)

    def summary(self) -> str:
        counts = self.results
        return words.SUMMARY.format(
            n=self.played, won=counts["won"], lost=counts["lost"], drawn=counts["draw"]
        )


def _no_move(err: Exception) -> ServerProtocolError:
    return ServerProtocolError(f"{words.NO_MOVE} ({type(err).__name__}: {err})")


def _unusable(err: ServerProtocolError) -> Finished:
    """A picture that does not fit the game ends the bot: it never plays on one."""
    return Finished(1, words.UNUSABLE.format(why=f"{err.code}: {err.message}"))


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
    parser.add_argument(
        "--name", default=None, help=words.HELP["name"].format(example=words.default_name("hard"))
    )
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
    args.name = readable(args.name or words.default_name(args.level))[:MAX_NAME]
    if (
        not args.name
        or not args.name.isprintable()
        or not shows_something(args.name)
        or marks_in_a_row(args.name) > MAX_MARKS
    ):
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
        given = sys.argv[1:] if argv is None else argv
        found = find_one(args.discover_on, args.server_name, complain, rest_of(given))
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


def rest_of(argv: list[str]) -> list[str]:
    """The command line less what finds a server (`--discover-on`, `--server-name`):
    what to type again after the address of the server chosen."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--discover-on", "--server-name"):
            skip = True
        elif not arg.startswith(("--discover-on=", "--server-name=")):
            out.append(arg)
    return out


def find_one(
    interface: str | None,
    name: str | None,
    complain: Callable[[str], None],
    rest: list[str] | None = None,
) -> Found | None:
    """The one server found on the LAN (of that name, if given), said on stderr; None,
    having said why, when there is none or several: then the commands that choose each,
    `rest` (the rest of the command line) after the address."""
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
    tail = "".join(f" {shlex.quote(a)}" for a in rest or [])
    for s in servers:
        complain(f"    sarja-bot {address_text(s.host, s.port)}{tail}    ({s.name})")
    names = {s.name for s in servers}
    if name is None and len(names) == len(servers):  # each has a name of its own
        complain(say_find.BOT_BY_NAME)
    return None


if __name__ == "__main__":
    main()
