"""A client's end of the protocol, in one object: bytes in, events out; messages in,
bytes out. Sans-IO, as h11: no sockets, no trio.

    session = ClientSession()
    sock.send(session.send(Hello(version=PROTOCOL_VERSION, name="Aino")))
    session.receive_data(data)                      # b"" at the end of the stream
    while (event := session.next_event()) is not None:
        ...                                         # a server message, taken in
    sock.send(session.data_to_send())               # its own requests: pong, sync, history

What every client needs and would otherwise write again:

- the codec and its session state (`state`), a fresh one for each connection
  (`connect`), while what the player holds (the game, action ids) carries over; and
  the fingerprint of the key the connection's server proved it holds (`peer_key`);
- the `welcome` and the `table` it is at;
- the game as a `GameMirror` (`game`): from each snapshot (checked against the table)
  and the updates, hands, legal lists and acks after it;
- sync on a gap (docs/protocol.md, section 8): an update that does not follow on, or a
  hand or legal newer than the picture, queues one `sync`, and game messages are set
  aside until its snapshot comes;
- for a client that keeps a log (`keeps_history`), the game's `history` asked for after
  each snapshot, a page at a time, gathered (bounded) and given whole (`Past`);
- action ids above every id the server holds for the seat (`take_id`, `action`);
- a `pong` for every `ping`.

`next_event` is `take(next_message())`: a client that keeps decoded messages a while
before acting on them (the tests' client) calls the two itself. Every message comes back
as an event: the message itself once taken in, or wrapped as `Gap`, `SetAside` or
`Past`. A message that does not fit the game raises `ServerProtocolError` (the mirror's
checks) with nothing of it taken; the game then waits for a fresh snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass

from .codec import ClientCodec
from .distrust import ServerProtocolError, match_fits, table_fits
from .messages import (
    Ack,
    ActionMessage,
    AskHistory,
    ClientMessage,
    Entry,
    Hand,
    History,
    Legal,
    Ping,
    Pong,
    ServerMessage,
    Snapshot,
    Sync,
    TableList,
    TableView,
    Update,
    Welcome,
)
from .mirror import GameMirror
from .moves import action_message
from .session import SessionState

__all__ = ["PAST_KEPT", "ClientSession", "Event", "Gap", "Past", "SetAside"]

# Entries of a history whose pages are still coming: no real game is this long (a game
# ends within a few thousand versions), so a server that sends more is not followed.
PAST_KEPT = 20000


@dataclass(frozen=True, slots=True)
class Gap:
    """An update, hand or legal list that does not follow on from the game kept: not
    taken in. A `sync` is queued; game messages are set aside until its snapshot."""

    message: Update | Hand | Legal


@dataclass(frozen=True, slots=True)
class SetAside:
    """A game message that came with no game kept, or while a snapshot is awaited, or a
    history page that is not for the game kept (or one too many): nothing of it taken."""

    message: Update | Hand | Legal | History


@dataclass(frozen=True, slots=True)
class Past:
    """A game's history, whole: its last page (`message`) came; `entries` holds every
    page's entries, oldest first, all at or below the game's version."""

    message: History
    entries: tuple[Entry, ...]


Event = ServerMessage | Gap | SetAside | Past


def message_of(event: Event) -> ServerMessage:
    """The server message an event came from."""
    return event.message if isinstance(event, Gap | SetAside | Past) else event


class ClientSession:
    """One player's side of the protocol: the connection's codec, and what the messages
    that came over it (and over the connections before it) say."""

    def __init__(self, keeps_history: bool = False) -> None:
        """`keeps_history`: after each snapshot of a game with a past, ask for its
        history (a client whose log shows the whole game)."""
        self.keeps_history = keeps_history
        self.codec = ClientCodec()
        # The fingerprint of the key this connection's server proved it holds: what a
        # client keeps its secrets (tokens, person key) under, never the server_id.
        self.peer_key = ""
        self.welcome: Welcome | None = None
        self.table: TableView | None = None  # the table we are at (None in the lobby)
        self.game: GameMirror | None = None  # the game, from its snapshot (None: no game yet)
        self.syncing = False  # a snapshot is awaited: game messages are set aside
        self.gaps = 0  # how many times a gap was found (each asked a `sync`)
        self.next_id = 1  # the next action id, always above the ones the server holds
        self.past: list[Entry] = []  # the history's pages so far, while more are coming
        # The last table this connection was shown: a match's score goes on from it
        # game by game (a new connection may have missed games).
        self._shown: TableView | None = None
        self._past_dropped = False  # pages past PAST_KEPT came: set the rest aside
        self._replies: list[ClientMessage] = []

    # ----- the connection --------------------------------------------------------------

    def connect(self, peer_key: str = "") -> None:
        """A new connection, over which the server proved it holds the key whose
        fingerprint is `peer_key` (the TLS handshake; "" for none): a new codec and
        session state. The game, the table and the ids stay (a resumed seat's snapshot
        replaces the game)."""
        self.peer_key = peer_key
        self.codec = ClientCodec()
        self.syncing = False
        self.past, self._past_dropped = [], False
        self._shown = None
        self._replies.clear()

    @property
    def state(self) -> SessionState:
        return self.codec.state

    @property
    def at_eof(self) -> bool:
        return self.codec.at_eof

    def send(self, msg: ClientMessage) -> bytes:
        """The bytes that send `msg`; LocalProtocolError if the session state refuses it."""
        return self.codec.send(msg)

    def receive_data(self, data: bytes) -> None:
        """Bytes from the server; b"" when it closed the stream."""
        self.codec.receive_data(data)

    def next_message(self) -> ServerMessage | None:
        """The next whole message, decoded and checked, not yet taken in (RemoteProtocolError
        for a frame the server got wrong)."""
        return self.codec.next_message()

    def next_event(self) -> Event | None:
        """The next message, taken in; None when more bytes are needed."""
        msg = self.codec.next_message()
        return None if msg is None else self.take(msg)

    def replies(self) -> list[ClientMessage]:
        """The requests the session made itself (`pong`, `sync`, `history`), to send,
        oldest first."""
        replies, self._replies = self._replies, []
        return replies

    def data_to_send(self) -> bytes:
        """The bytes of `replies()`."""
        return b"".join(self.codec.send(msg) for msg in self.replies())

    # ----- actions ---------------------------------------------------------------------

    def take_id(self) -> int:
        """A fresh action id."""
        i = self.next_id
        self.next_id += 1
        return i

    def action(self, notation: str) -> ActionMessage:
        """The message for a legal action in notation, with a fresh id, at the game's
        version (ValueError if the text is not an action)."""
        if self.game is None:
            raise ValueError("no game to act in")
        return action_message(notation, self.take_id(), self.game.version)

    def request_sync(self) -> None:
        """Ask for a fresh snapshot: a `sync` is queued and game messages are set aside
        until the snapshot comes."""
        if not self.syncing:
            self.syncing = True
            self._replies.append(Sync())

    # ----- taking messages in ----------------------------------------------------------

    def take(self, msg: ServerMessage) -> Event:
        """Take in one message from the server; the event it makes."""
        match msg:
            case Update() | Hand() | Legal():
                return self._game_message(msg)
            case Ack():
                if self.game is not None:
                    self.game.apply(msg)
                self._ids_above(msg.id)
            case History():
                return self._history(msg)
            case Snapshot():
                self._snapshot(msg)
            case TableView():
                result = None if self.game is None else self.game.result
                match_fits(msg, self._shown, result)
                self.table = self._shown = msg
                if not msg.started:
                    self._no_game()
            case TableList():
                # In the lobby. The last game stays readable (as the screen shows a
                # finished one) until a snapshot or a waiting table replaces it.
                self.table = None
                self.syncing = False
                self.past, self._past_dropped = [], False
                self._drop_history_asked()
            case Welcome():
                self.welcome = msg
                self._ids_above(msg.last_id)
            case Ping():
                self._replies.append(Pong(n=msg.n))
        return msg

    def _snapshot(self, msg: Snapshot) -> None:
        try:
            table_fits(msg, self.table)
            # A new mirror, not the old one reset: what was shown stays whole.
            self.game = GameMirror(msg)
        except ServerProtocolError:
            self.syncing = True
            raise
        self.syncing = False
        self.past, self._past_dropped = [], False
        self._ids_above(msg.last_id)
        if self.keeps_history and msg.version > 0:
            self._replies.append(AskHistory(after=0))  # the whole game, for the log

    def _game_message(self, msg: Update | Hand | Legal) -> Event:
        game = self.game
        if game is None or self.syncing:
            return SetAside(msg)  # the snapshot on its way says it all
        try:
            follows = game.apply(msg)
        except ServerProtocolError:
            self.syncing = True  # act on nothing more until a fresh picture
            raise
        if not follows:
            self.gaps += 1
            self.request_sync()
            return Gap(msg)
        return msg

    def _history(self, msg: History) -> Event:
        game = self.game
        if game is None or self.syncing or msg.version != game.version or self._past_dropped:
            self.past = []
            self._past_dropped = self._past_dropped and msg.more
            return SetAside(msg)
        if len(self.past) + len(msg.entries) > PAST_KEPT:
            self.past, self._past_dropped = [], msg.more
            return SetAside(msg)
        if msg.more:
            self.past.extend(msg.entries)
            if self.keeps_history and msg.entries:  # the next page, after this one's last
                self._replies.append(AskHistory(after=msg.entries[-1].version))
            return msg
        entries = (*self.past, *msg.entries)
        self.past = []
        return Past(msg, entries)

    def _no_game(self) -> None:
        self.game = None
        self.syncing = False
        self.past, self._past_dropped = [], False
        self._drop_history_asked()

    def _drop_history_asked(self) -> None:
        """No game to ask about any more (nor would the session allow it)."""
        self._replies = [r for r in self._replies if not isinstance(r, AskHistory)]

    def _ids_above(self, last_id: int | None) -> None:
        """Ids go on above the last one the server holds, so a client started afresh
        never sends an id that already names an earlier action."""
        if last_id is not None and last_id >= self.next_id:
            self.next_id = last_id + 1
