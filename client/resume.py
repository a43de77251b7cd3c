"""Taking a seat back after a dropped connection or a server restart: the one way the
terminal client (receive.py) and sarja-bot (bot.py) both do it.

Every connection says `hello` afresh; after the `welcome`, a player asks to `resume`
with the newest token this server gave their name before, or keeps the welcome's own
token. Tokens are kept under the fingerprint of the server's TLS key (the key the
connection proved the server holds: `session.peer_key`), never under its `server_id`
or the address typed: anyone can answer with another server's id, no one can show its
key. A server reached by several addresses is still one key. Tokens work once: the
`welcome` a resume brings carries the next one (docs/protocol.md, `resume`). The `ping`
sent after that welcome tells whether a seat came back: its `pong` comes after the
`table` and `snapshot` a held seat brings, so one that finds the session still in the
lobby means none did.

Nothing here does I/O: it keeps the tokens, and says what to send.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from sarja.protocol.messages import Ping, Pong, Resume, Welcome
from sarja.protocol.session import SessionState

RESUME_PING = 7474


class Keeps(Protocol):
    """Whatever keeps a player's tokens: the client's model, a bot's `Tokens`."""

    # the server key's fingerprint -> player name -> the newest resume token
    seats: dict[str, dict[str, str]]
    resuming: bool  # a `resume` is on its way; the welcome's own token waits...
    pending_token: str | None  # ...here, kept only if the resume is refused


@dataclass
class Tokens:
    """Tokens kept for as long as the program runs (a bot keeps nothing on disk), and
    the key each server showed first (server_id -> fingerprint: `pinned`)."""

    seats: dict[str, dict[str, str]] = field(default_factory=dict)
    pins: dict[str, str] = field(default_factory=dict)
    resuming: bool = False
    pending_token: str | None = None


def token_for(kept: Keeps, key: str, name: str) -> str | None:
    return kept.seats.get(key, {}).get(name) if key else None


def keep_token(kept: Keeps, key: str, name: str, token: str) -> None:
    if key:  # a server that proved no key gets nothing kept, so nothing is sent back
        kept.seats.setdefault(key, {})[name] = token


def welcomed(kept: Keeps, name: str, msg: Welcome, key: str) -> Resume | Ping | None:
    """What to send after a `welcome` to `name` from the server holding `key`: `resume`
    for a seat that key's server gave that name before (by whatever address), the ping
    that tells whether the resume brought one back, or None: a guest greeted afresh,
    the welcome's token kept."""
    if kept.resuming:
        # The answer to our `resume`: the seat's guest, with the next token.
        kept.resuming, kept.pending_token = False, None
        keep_token(kept, key, name, msg.resume)
        return Ping(n=RESUME_PING)
    known = token_for(kept, key, name)
    if known is not None and known != msg.resume:
        kept.resuming, kept.pending_token = True, msg.resume
        return Resume(token=known)
    keep_token(kept, key, name, msg.resume)
    return None


def pinned(pins: dict[str, str], server_id: str, key: str) -> bool:
    """Whether the server `server_id` (as a welcome names it) showed the key it showed
    the first time (`pins`: server_id -> fingerprint); the first time, remembered."""
    return pins.setdefault(server_id, key) == key


def refused(kept: Keeps, key: str | None, name: str) -> bool:
    """An `unknown_resume`: True if it answers our resume (the seat is gone: the game
    ended, or the server forgot it), and then the guest this connection greeted as, and
    its token, is what we are."""
    if not kept.resuming:
        return False
    kept.resuming = False
    if key is not None and kept.pending_token is not None:
        keep_token(kept, key, name, kept.pending_token)
    kept.pending_token = None
    return True


def no_seat_back(msg: Pong, phase: SessionState) -> bool:
    """The pong after a resumed welcome found us in the lobby: no seat came back."""
    return msg.n == RESUME_PING and phase == SessionState.LOBBY
