"""The session state machine, as tables.

Only server messages move a session between states. Both ends see server messages in
the same order, so the client's copy of the state follows the server's exactly; client
messages are only checked against the state they are sent in. A refused message raises
`wrong_state` and leaves the state unchanged.
"""

from enum import StrEnum
from typing import Any

from .errors import LocalProtocolError, ProtocolError, RemoteProtocolError


class SessionState(StrEnum):
    CONNECTED = "connected"  # before the handshake
    LOBBY = "lobby"  # greeted, at no table
    TABLE = "table"  # seated or watching, no game yet
    GAME = "game"  # a game is in progress at our table
    ENDED = "ended"  # the game is over; rematch or leave


S = SessionState
_ALWAYS = frozenset({"ping", "pong"})
_ACTIONS = frozenset({"play", "remove", "exchange", "draw", "pass"})

# Which client messages each state allows.
CLIENT_ALLOWED: dict[SessionState, frozenset[str]] = {
    S.CONNECTED: _ALWAYS | {"hello"},
    S.LOBBY: _ALWAYS
    | {"list_tables", "create_table", "join", "spectate", "resume", "standings", "forget"},
    S.TABLE: _ALWAYS | {"sit", "ready", "leave", "chat", "seat_computer"},
    S.GAME: _ALWAYS | _ACTIONS | {"leave", "chat", "sync", "history", "hand_over", "ask_hint"},
    # Actions too: a move resent after a lost connection gets its acknowledgement,
    # and any other is refused as `game_over`. `ready`: for the next game of a match.
    S.ENDED: _ALWAYS | _ACTIONS | {"rematch", "ready", "leave", "chat", "sync", "history"},
}

_AT_TABLE = frozenset({"table", "tables", "snapshot", "notice", "chat", "ack"})
_SERVER_ALWAYS = _ALWAYS | {"error", "bye"}

# Which server messages each state allows.
SERVER_ALLOWED: dict[SessionState, frozenset[str]] = {
    S.CONNECTED: _SERVER_ALWAYS | {"welcome"},
    S.LOBBY: _SERVER_ALWAYS | {"tables", "table", "welcome", "standings", "forgotten"},
    S.TABLE: _SERVER_ALWAYS | _AT_TABLE,
    S.GAME: _SERVER_ALWAYS | _AT_TABLE | {"history", "update", "hand", "legal", "hint"},
    S.ENDED: _SERVER_ALWAYS | _AT_TABLE | {"history"},
}

# (state, trigger) -> next state. A trigger is a server message type, refined by content
# where one type means two things (see `trigger`). Pairs not listed leave the state as is.
TRANSITIONS: dict[tuple[SessionState, str], SessionState] = {
    (S.CONNECTED, "welcome"): S.LOBBY,
    (S.LOBBY, "table:waiting"): S.TABLE,
    (S.LOBBY, "table:started"): S.TABLE,  # a game is on; its `snapshot` follows
    (S.TABLE, "tables"): S.LOBBY,
    (S.TABLE, "snapshot:playing"): S.GAME,
    (S.TABLE, "snapshot:over"): S.ENDED,
    (S.GAME, "tables"): S.LOBBY,
    (S.GAME, "update:over"): S.ENDED,
    (S.GAME, "snapshot:over"): S.ENDED,
    (S.GAME, "table:waiting"): S.TABLE,
    (S.ENDED, "tables"): S.LOBBY,
    (S.ENDED, "snapshot:playing"): S.GAME,  # the rematch started
    (S.ENDED, "table:waiting"): S.TABLE,
}


def trigger(msg: Any) -> str:
    """The transition key of a server message: its type, refined for `table`,
    `snapshot` and `update`."""
    t: str = msg.TYPE
    if t == "table":
        return "table:started" if msg.started else "table:waiting"
    if t in ("snapshot", "update"):
        return f"{t}:over" if msg.result is not None else f"{t}:playing"
    return t


class Session:
    """One connection's state, kept the same way by the server and the client.

    `role` is the side we are: errors for the other side's messages are remote, errors
    for our own are local (a bug in our code, nothing was sent).
    """

    __slots__ = ("role", "state")

    def __init__(self, role: str) -> None:
        if role not in ("server", "client"):
            raise ValueError("role must be 'server' or 'client'")
        self.role = role
        self.state = S.CONNECTED

    def check_client(self, msg: Any) -> None:
        """Refuse a client message the current state does not allow."""
        if msg.TYPE not in CLIENT_ALLOWED[self.state]:
            raise self._refusal("client", f"'{msg.TYPE}' is not allowed {_WHERE[self.state]}.", msg)

    def check_server(self, msg: Any) -> None:
        """Refuse a server message the current state does not allow."""
        if msg.TYPE not in SERVER_ALLOWED[self.state]:
            raise self._refusal(
                "server", f"The server may not send '{msg.TYPE}' {_WHERE[self.state]}.", msg
            )

    def on_server(self, msg: Any) -> SessionState:
        """Check a server message and move to the state it leads to."""
        self.check_server(msg)
        return self.advance(msg)

    def advance(self, msg: Any) -> SessionState:
        """Move to the state a server message already checked leads to."""
        self.state = TRANSITIONS.get((self.state, trigger(msg)), self.state)
        return self.state

    def _refusal(self, sender: str, message: str, msg: Any) -> ProtocolError:
        cls = RemoteProtocolError if sender != self.role else LocalProtocolError
        return cls("wrong_state", message, id=msg.id if msg.TYPE in _ACTIONS else None)


_WHERE = {
    S.CONNECTED: "before the handshake",
    S.LOBBY: "in the lobby",
    S.TABLE: "at a table before the game",
    S.GAME: "during a game",
    S.ENDED: "after the game",
}
